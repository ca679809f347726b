"""The scenario format's reference, generated from the JSON Schema (CLI-02): every key, its meaning, range and default.

`hardpoint schema --markdown` prints it; docs/scenarios.md holds it between
two markers and a test checks that it is the schema's current text, so the
documentation cannot drift from what the loader accepts.
"""
from __future__ import annotations

from typing import Any

__all__ = ["schema_markdown", "BEGIN", "END"]

BEGIN = "<!-- reference generated from the schema: `hardpoint schema --markdown` -->"
END = "<!-- end of the generated reference -->"


def _type(node: dict) -> str:
    for key in ("anyOf", "oneOf"):
        if key in node:
            return " or ".join(_type(n) for n in node[key])
    if "const" in node:
        return f"`{node['const']}`"
    if "enum" in node:
        return "one of " + ", ".join(f"`{v}`" for v in node["enum"])
    raw = node.get("type")
    kind: str = " or ".join(raw) if isinstance(raw, list) else str(raw or "")
    words = {"integer": "whole number", "number": "number", "string": "text", "boolean": "true/false",
             "array": "list", "object": "table"}
    text: str = words.get(kind, kind or "any")
    parts = []
    if "minimum" in node:
        parts.append(f">= {node['minimum']:g}")
    elif "exclusiveMinimum" in node:
        parts.append(f"> {node['exclusiveMinimum']:g}")
    if "maximum" in node:
        parts.append(f"<= {node['maximum']:g}")
    elif "exclusiveMaximum" in node:
        parts.append(f"< {node['exclusiveMaximum']:g}")
    if parts:
        text += " (" + ", ".join(parts) + ")"
    if kind == "array":
        if "maxItems" in node:
            text += f", at most {node['maxItems']:,}"
        if node.get("minItems"):
            text += f", at least {node['minItems']}"
    if kind == "string" and "maxLength" in node:
        text += f", at most {node['maxLength']} characters"
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _walk(node: dict, path: str, rows: list[tuple[str, str, str]], required: bool) -> None:
    desc = node.get("description", "")
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        items = node["items"]
        rows.append((path, _type(node), desc))
        if items.get("type") == "object" or "properties" in items:
            _walk_object(items, f"{path}[]", rows)
        return
    rows.append((path + ("" if not required else " (required)"), _type(node), desc))
    if node.get("type") == "object" and "properties" in node:
        _walk_object(node, path, rows)
    elif node.get("type") == "object" and isinstance(node.get("additionalProperties"), dict):
        names = node.get("propertyNames", {}).get("enum")
        key = "<" + "|".join(names) + ">" if names else "<name>"
        _walk(node["additionalProperties"], f"{path}.{key}", rows, False)


def _walk_object(node: dict, path: str, rows: list[tuple[str, str, str]]) -> None:
    required = set(node.get("required", []))
    for key, child in node.get("properties", {}).items():
        _walk(child, f"{path}.{key}" if path else key, rows, key in required)


def schema_markdown(schema: dict[str, Any] | None = None) -> str:
    """The reference of every scenario key, section by section, as Markdown tables."""
    if schema is None:
        from .scenario import scenario_schema

        schema = scenario_schema()
    out = [BEGIN, "", "## Reference: every key", "",
           "Generated from the JSON Schema the loader validates against (`hardpoint schema`). Ranges are inclusive "
           "unless marked; a key not marked required is optional, with the default its description gives.", ""]
    for top, node in schema["properties"].items():
        rows: list[tuple[str, str, str]] = []
        _walk(node, top, rows, top in schema.get("required", []))
        out += [f"### `{top}`", "", _cell(node.get("description", "")) or "", "", "| key | value | meaning |",
                "| --- | --- | --- |"]
        out += [f"| `{_cell(k)}` | {_cell(t)} | {_cell(d)} |" for k, t, d in rows]
        out.append("")
    out.append(END)
    return "\n".join(out) + "\n"
