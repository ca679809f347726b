"""Hypothesis strategies for scenario documents (SAFE-04).

`from_schema(schema)` draws documents that follow the scenario JSON Schema
(types, enums, required keys, ranges), with a small chance at each node of a
value that breaks it, so both the schema's refusals and the rules behind a
valid schema are exercised. `mutated_builtin()` takes a shipped scenario and
applies a few targeted mutations: interesting numbers (0, -1, int32 edges,
huge, NaN, inf), wrong types, markup and escapes in text, deleted keys,
duplicated list entries (duplicate ids), and references switched to another
id of the document or to one that does not exist.
"""
from __future__ import annotations

import copy
import math
import tomllib
from functools import cache
from importlib import resources
from typing import Any

from hypothesis import strategies as st

__all__ = ["from_schema", "mutated_builtin", "builtin_documents", "INTERESTING"]

INTERESTING: list[Any] = [
    0, 1, -1, 2, 3, 5, 6, 7, 12, 13, 20, 30, 100, 255, 256, 1000, 2**31 - 1, 2**31, -2**31, 2**53, 2**63,
    0.0, 0.5, -0.5, 1e-9, 1e-300, 0.25, 3.5, 45.0, 90.0, 359.999, 1e6, 999_999_999.0, -1e9, 1e12, 1e300,
    math.nan, math.inf, -math.inf,
    "", "x", "front", "auto", "[x]", "[/]", "[bold]", "\x1b[31m", "\ud800", "=1+1", "a" * 5000, "../../x",
    True, False, None, [], {}, [1, 2], [[]], {"a": 1}, {"id": "x"},
]

_LEAVES = st.one_of(
    st.sampled_from(INTERESTING),
    st.integers(-10, 200),
    st.floats(-100, 100, allow_nan=False),
    st.text(max_size=12),
)


@cache
def builtin_documents() -> tuple[tuple[str, dict], ...]:
    folder = resources.files("hardpoint.seeds").joinpath("scenarios")
    out = []
    for p in sorted(folder.iterdir(), key=lambda p: p.name):
        if p.name.endswith(".toml"):
            out.append((p.name[:-5], tomllib.loads(p.read_text(encoding="utf-8"))))
    return tuple(out)


# --- documents from the schema -------------------------------------------------------------

# Text fields that name something: drawn from a small pool so that references often resolve.
_NAMES = st.sampled_from(["a", "b", "c", "mg", "laser", "driver", "gunner", "h", "A1", "B5"])
_REFERENCE_KEYS = {"id", "attacker", "target", "weapon", "vehicle", "firer", "crew", "counter", "owner", "unit", "hex", "machine"}
_WORDS = st.text(st.characters(categories=["L", "N"], max_codepoint=0x2FF), min_size=1, max_size=8)


def _node(schema: dict, defs: dict, depth: int, key: str = "") -> st.SearchStrategy:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return _node(defs[name], defs, depth, key)
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return st.one_of([_node(s, defs, depth, key) for s in schema[key]])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([_node({**schema, "type": k}, defs, depth, key) for k in kind])
    if kind == "integer":
        lo = schema.get("minimum", -5)
        hi = schema.get("maximum", max(lo + 60, 60))
        far = st.integers(max(lo, -(2**31 - 1)), min(schema.get("maximum", 2**31 - 1), 2**31 - 1))
        return st.one_of(st.integers(lo, hi), st.integers(lo, hi), st.integers(lo, hi), far)
    if kind == "number":
        lo = schema.get("minimum", schema.get("exclusiveMinimum", -60.0))
        hi = schema.get("maximum", schema.get("exclusiveMaximum", 60.0))
        near = st.floats(float(lo), float(min(hi, lo + 400.0)), allow_nan=False, allow_infinity=False,
                         exclude_min="exclusiveMinimum" in schema, exclude_max="exclusiveMaximum" in schema)
        # now and then the far ends of the field's range (or of what any number may be: 1e9)
        far = st.floats(float(max(lo, -1e9)), float(min(hi, 1e9)), allow_nan=False, allow_infinity=False,
                        exclude_min="exclusiveMinimum" in schema, exclude_max="exclusiveMaximum" in schema)
        return st.one_of(near, near, near, far)
    if kind == "string":
        return _NAMES if key in _REFERENCE_KEYS else st.one_of(_NAMES, _WORDS)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        if depth > 5:
            return st.just([])
        items = _node(schema.get("items", {}), defs, depth + 1, key)
        lo = schema.get("minItems", 0)
        hi = schema.get("maxItems", max(lo, 3))
        return st.lists(items, min_size=lo, max_size=hi)
    if kind == "object" or "properties" in schema:
        if depth > 5:
            return st.just({})
        props = schema.get("properties", {})
        required = [k for k in schema.get("required", []) if k in props]
        optional = [k for k in props if k not in required]

        @st.composite
        def obj(draw):
            out = {k: draw(_node(props[k], defs, depth + 1, k)) for k in required}
            for k in draw(st.lists(st.sampled_from(optional), unique=True, max_size=min(len(optional), 8))) if optional else []:
                out[k] = draw(_node(props[k], defs, depth + 1, k))
            if isinstance(schema.get("additionalProperties"), dict) and draw(st.booleans()):
                names = schema.get("propertyNames", {}).get("enum")
                key = draw(st.sampled_from(names)) if names else draw(st.text(min_size=1, max_size=6))
                out[key] = draw(_node(schema["additionalProperties"], defs, depth + 1))
            return out

        return obj()
    return _LEAVES


def from_schema(schema: dict) -> st.SearchStrategy:
    """Documents following `schema`; about half of them then get one mutation (a value that may break it)."""
    base = _node(schema, schema.get("$defs", {}), 0)
    return st.one_of(base, base.flatmap(lambda d: _mutations(d, 1)))


# --- mutations of the built-ins --------------------------------------------------------------

def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, prefix + (i,))
    return out


def _ids(doc: Any) -> list[str]:
    out: list[str] = []
    stack = [doc]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if isinstance(x.get("id"), str):
                out.append(x["id"])
            stack += list(x.values())
        elif isinstance(x, list):
            stack += x
    return out


def _get(doc: Any, path: tuple) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def _apply(doc: dict, path: tuple, op: str, value: Any, ids: list[str], pick: int = 0) -> None:
    if not path:
        return
    parent = _get(doc, path[:-1])
    key = path[-1]
    current = parent[key]
    if op == "replace":
        parent[key] = copy.deepcopy(value)
    elif op == "delete":
        del parent[key]
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(current))
    elif op == "swap_id" and isinstance(current, str) and ids:
        parent[key] = ids[pick % len(ids)]
    elif op == "unknown_ref" and isinstance(current, str):
        parent[key] = current + "_nope"
    elif op == "nudge" and isinstance(current, (int, float)) and not isinstance(current, bool):
        step = value if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) <= 1000 else 1
        parent[key] = current + step
    elif op == "negate" and isinstance(current, (int, float)) and not isinstance(current, bool):
        parent[key] = -current
    elif op == "add_key" and isinstance(current, dict):
        current[str(value)[:12] or "k"] = copy.deepcopy(value)
    else:
        parent[key] = copy.deepcopy(value)


# Weighted towards mutations that keep the document valid for the schema, so that most reach the rules.
_OPS = ["replace", "delete", "duplicate", "swap_id", "swap_id", "swap_id", "unknown_ref", "nudge", "nudge", "nudge",
        "negate", "add_key"]


def _mutations(doc: dict, max_count: int) -> st.SearchStrategy:
    @st.composite
    def mutate(draw):
        out = copy.deepcopy(doc)
        for _ in range(draw(st.integers(1, max_count))):
            paths = _paths(out)
            path = paths[draw(st.integers(0, len(paths) - 1))]
            _apply(out, path, draw(st.sampled_from(_OPS)), draw(_LEAVES), _ids(out), draw(st.integers(0, 63)))
        return out

    return mutate()


def mutated_builtin(max_count: int = 4) -> st.SearchStrategy:
    """A shipped scenario with one to `max_count` mutations."""
    return st.sampled_from(builtin_documents()).flatmap(lambda nd: _mutations(nd[1], max_count))
