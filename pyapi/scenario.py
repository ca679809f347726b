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
from .limits import MAX_DEPTH, MAX_TURNS, MAX_FILE_BYTES, check_document, read_file_bytes, read_limited, safe_text

__all__ = ["load_scenario", "parse_scenario", "parse_text", "scenario_schema", "register_ruleset", "builtin_scenarios", "ScenarioLike"]


class ScenarioLike(Protocol):
    name: str

    def explain(self) -> Any: ...

    def resolve(self, dice: Any, seed: int | None = None) -> Any: ...


class _LoaderOnly:
    """A rule set registered the old way (a loader and its schema keys): loads and resolves, nothing more."""

    def __init__(self, name: str, loader: Callable[[dict, Rules, str], ScenarioLike], schema_parts: dict[str, Any]) -> None:
        self.name, self.title, self.schema_parts, self._loader = name, name, schema_parts, loader
        self._types: set[type] = set()

    def load(self, data, rules, source):
        scenario = self._loader(data, rules, source)
        self._types.add(type(scenario))
        return scenario

    def owns(self, scenario) -> bool:
        return type(scenario) in self._types

    def explain(self, scenario):
        return scenario.explain()

    def resolve(self, scenario, dice, seed=None):
        return scenario.resolve(dice, seed=seed)

    def _missing(self, what: str):
        raise ScenarioError(f"the {self.name!r} rule set gives no {what}", field="scenario.ruleset", value=self.name, rule="ARCH-03")

    def batch(self, scenario, trials, seed, options):
        self._missing("batch")

    def exact(self, scenario, **query):
        self._missing("exact odds")

    def pack(self, scenario):
        from .ruleset import Unpackable

        return Unpackable(f"the {self.name!r} rule set has no compiled kernel")


def register_ruleset(name: str, loader: Callable[[dict, Rules, str], ScenarioLike], schema_parts: dict[str, Any]) -> None:
    """Register a rule set by its loader and schema keys (a full `hardpoint.ruleset.RuleSet` registered under the same
    name takes precedence)."""
    from . import ruleset as _rs

    if name not in _rs._REGISTRY:
        _rs._REGISTRY[name] = _LoaderOnly(name, loader, schema_parts)


def _ensure_rulesets() -> None:
    from .ruleset import names

    names()


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of scenario files, built from the registered rule sets (CLI-02)."""
    from . import ruleset as _rs

    _ensure_rulesets()
    properties: dict[str, Any] = {
        "scenario": {
            "type": "object",
            "description": "what the scenario is: its name, its rule set, how long a trial runs",
            "properties": {
                "name": {"type": "string", "description": "a display name (printed by every command)"},
                "description": {"type": "string", "description": "what happens in it, in words; optional"},
                "ruleset": {"enum": _rs.names(), "description": "the rule set the scenario is written for"},
                "source": {"type": "string", "description": "the worked example or rule the scenario reproduces"},
                "turns": {"type": "integer", "minimum": 1, "maximum": MAX_TURNS, "description": "run this many whole turns (default: one phase)"},
                "until": {"enum": ["turns", "decided"], "description": "decided: a fight to the finish, each trial stops at "
                          "the end of the turn after which at most one side is in action, `turns` being the cap (FIGHT-03); "
                          "default turns"},
            },
            "required": ["name", "ruleset"],
            "additionalProperties": False,
        },
        "rules": {"type": "object", "description": "overrides of rule tables, as in load_rules(overrides=...)"},
    }
    for name in _rs.names():
        for key, value in _rs.get(name).schema_parts.items():
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
    """Validate scenario data (the limits at the door, the schema, then the rules) and build the scenario.

    Nothing runs before all three pass (SAFE-01): the limits refuse what no
    scenario may hold (non-finite numbers, control characters, documents too
    big or too deep), the schema each field's type and range, the rule set
    every reference and every rule.
    """
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a table at the top level", field="(top level)", value=type(data).__name__, rule="CLI-02")
    check_document(data, source)
    schema = scenario_schema()
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(list(e.absolute_path)), list(map(str, e.absolute_path))))
    if errors:
        e = errors[0]
        raise ScenarioError(f"{e.message} (in {source})", field=_path(e), value=e.instance if not isinstance(e.instance, (dict, list)) else None, rule="CLI-02")
    rules = rules or load_rules()
    if "rules" in data:
        rules = rules.with_overrides(data["rules"])
    from .ruleset import get

    return get(data["scenario"]["ruleset"]).load(data, rules, source)


def parse_text(raw: bytes | str, name: str, fmt: str | None = None) -> dict[str, Any]:
    """Decode and parse the text of a scenario (TOML or JSON) into a document, refusing what the limits refuse."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_FILE_BYTES:
            raise ScenarioError(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB", field="scenario", value=name, rule="SAFE-01")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ScenarioError(f"not UTF-8 text (byte {exc.start} is {raw[exc.start:exc.start + 1]!r})", field="file",
                                value=name, rule="CLI-02") from None
    else:
        text = raw
    if text.startswith("\ufeff"):
        text = text[1:]
    if fmt is None:
        fmt = "json" if name.endswith(".json") or (not name.endswith(".toml") and text.lstrip().startswith("{")) else "toml"
    try:
        data = json.loads(text) if fmt == "json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"not valid {fmt.upper()}: {exc}", field="file", value=name, rule="CLI-02") from None
    except RecursionError:
        raise ScenarioError(f"nested more than {MAX_DEPTH} levels deep", field="file", value=name, rule="SAFE-01") from None
    except ValueError as exc:  # json: numbers too long to convert, and the like
        raise ScenarioError(f"not valid {fmt.upper()}: {exc}", field="file", value=name, rule="CLI-02") from None
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a table at the top level", field="file", value=name, rule="CLI-02")
    return data


def load_scenario(path: str | Path, rules: Rules | None = None) -> ScenarioLike:
    """Load a scenario: a .toml or .json file, `builtin:<name>`, or `-` for standard input (TOML or JSON)."""
    raw, name = _read(path)
    return parse_scenario(parse_text(raw, name), name, rules)


def _read(path: str | Path) -> tuple[bytes | str, str]:
    p = str(path)
    if p.startswith("builtin:"):
        name = p[len("builtin:"):]
        known = builtin_scenarios()
        if name not in known:  # confined to the shipped scenarios: no paths, no other files (SAFE-02)
            raise ScenarioError(f"no built-in scenario of that name (known: {', '.join(known)})", field="scenario",
                                value=safe_text(name), rule="CLI-02")
        for ext in (".toml", ".json"):
            try:
                return read_seed_text(f"scenarios/{name}{ext}"), f"{name}{ext}"
            except FileNotFoundError:
                continue
    if p == "-":
        import sys

        return read_limited(sys.stdin.buffer, "<stdin>"), "<stdin>"
    return read_file_bytes(p), p


def builtin_scenarios() -> list[str]:
    """Names of the example scenarios shipped in hardpoint.seeds/scenarios."""
    from importlib import resources

    folder = resources.files("hardpoint.seeds").joinpath("scenarios")
    return sorted(p.name.rsplit(".", 1)[0] for p in folder.iterdir() if p.name.endswith((".toml", ".json")))
