"""Scenario files (CLI-02): TOML or JSON, validated against a JSON Schema made from the code.

A scenario names its rule set (`ruleset = "carwars"` or `"asl"`); each rule
set registers a loader that turns the validated data into its own scenario
object with `explain()` and `resolve(dice)` methods.
"""
from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import jsonschema

from .data import Rules, load_rules, read_seed_text
from .errors import ScenarioError

__all__ = ["load_scenario", "parse_scenario", "scenario_schema", "register_ruleset", "builtin_scenarios", "ScenarioLike"]


class ScenarioLike(Protocol):
    name: str

    def explain(self) -> Any: ...

    def resolve(self, dice: Any, seed: int | None = None) -> Any: ...


_LOADERS: dict[str, Callable[[dict, Rules, str], ScenarioLike]] = {}
_SCHEMA_PARTS: dict[str, dict[str, Any]] = {}


def register_ruleset(name: str, loader: Callable[[dict, Rules, str], ScenarioLike], schema_parts: dict[str, Any]) -> None:
    """Register a rule set's scenario loader and the top-level keys it adds to the schema."""
    _LOADERS[name] = loader
    _SCHEMA_PARTS[name] = schema_parts


def _ensure_rulesets() -> None:
    from .carwars import scenario as _cw  # noqa: F401
    try:
        from .asl import scenario as _asl  # noqa: F401
    except ImportError:
        pass


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of scenario files, built from the registered rule sets (CLI-02)."""
    _ensure_rulesets()
    properties: dict[str, Any] = {
        "scenario": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "description": {"type": "string"},
                "ruleset": {"enum": sorted(_LOADERS)},
                "source": {"type": "string", "description": "the worked example or rule the scenario reproduces"},
                "turns": {"type": "integer", "minimum": 1, "description": "run this many whole turns (default: one phase)"},
            },
            "required": ["name", "ruleset"],
            "additionalProperties": False,
        },
        "rules": {"type": "object", "description": "overrides of rule tables, as in load_rules(overrides=...)"},
    }
    for parts in _SCHEMA_PARTS.values():
        for key, value in parts.items():
            if key in properties and properties[key] != value:
                raise RuntimeError(f"two rule sets define scenario key {key!r} differently")
            properties[key] = value
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://hardpoint.invalid/scenario.schema.json",
        "title": "hardpoint scenario",
        "type": "object",
        "properties": properties,
        "required": ["scenario"],
        "additionalProperties": False,
    }


def _path(error: jsonschema.ValidationError) -> str:
    out = ""
    for p in error.absolute_path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def parse_scenario(data: dict[str, Any], source: str = "<data>", rules: Rules | None = None) -> ScenarioLike:
    """Validate scenario data (schema first, then the rules) and build the scenario."""
    schema = scenario_schema()
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(list(e.absolute_path)), list(map(str, e.absolute_path))))
    if errors:
        e = errors[0]
        raise ScenarioError(f"{e.message} (in {source})", field=_path(e), value=e.instance if not isinstance(e.instance, (dict, list)) else None, rule="CLI-02")
    rules = rules or load_rules()
    if "rules" in data:
        rules = rules.with_overrides(data["rules"])
    ruleset = data["scenario"]["ruleset"]
    return _LOADERS[ruleset](data, rules, source)


def load_scenario(path: str | Path, rules: Rules | None = None) -> ScenarioLike:
    """Load a scenario file (.toml or .json), or a built-in one by name (`builtin:<name>`)."""
    text, name = _read(path)
    try:
        data = json.loads(text) if name.endswith(".json") else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"not valid {'JSON' if name.endswith('.json') else 'TOML'}: {exc}", field="file", value=name, rule="CLI-02") from None
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a table at the top level", field="file", value=name, rule="CLI-02")
    return parse_scenario(data, name, rules)


def _read(path: str | Path) -> tuple[str, str]:
    p = str(path)
    if p.startswith("builtin:"):
        name = p[len("builtin:"):]
        for ext in (".toml", ".json"):
            try:
                return read_seed_text(f"scenarios/{name}{ext}"), f"{name}{ext}"
            except FileNotFoundError:
                continue
        raise ScenarioError(f"no built-in scenario of that name (known: {', '.join(builtin_scenarios())})", field="scenario", value=name, rule="CLI-02")
    try:
        return Path(p).read_text(encoding="utf-8"), p
    except FileNotFoundError:
        raise ScenarioError("file not found", field="scenario", value=p, rule="CLI-02") from None
    except IsADirectoryError:
        raise ScenarioError("is a directory, not a scenario file", field="scenario", value=p, rule="CLI-02") from None


def builtin_scenarios() -> list[str]:
    """Names of the example scenarios shipped in hardpoint.seeds/scenarios."""
    from importlib import resources

    folder = resources.files("hardpoint.seeds").joinpath("scenarios")
    return sorted(p.name.rsplit(".", 1)[0] for p in folder.iterdir() if p.name.endswith((".toml", ".json")))
