"""Rules as data (ARCH-05): load the TOML tables of hardpoint.seeds once,
validate them, and let a user override any of them from a file of their own.

Tables are named `<ruleset>.<file stem>` (`carwars.tohit`, `carwars.weapons`,
`asl.ift`...). An override file uses the same names as TOML tables:

    [carwars.tohit.range]
    point_blank = 3          # house rule

Dictionaries merge key by key; arrays of tables that carry a `name` or `id`
merge entry by entry (an override can change one weapon or add a new one);
any other value replaces the default. The merged result is validated again:
each table changed by its own validator, then the rule set's tables together
(`register_cross_validator`: a design's weapons exist, a body's size class has
modifiers...). Nothing is applied unless everything passes (SAFE-01, ERR-01).
"""
from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import DataError

__all__ = ["Rules", "load_rules", "default_rules", "read_seed_text", "register_validator", "register_cross_validator", "TABLES"]

TABLES = {
    "carwars": ("tohit", "bodies", "tires", "designs", "weapons", "hand_weapons", "damage", "collisions", "fire", "dropped", "turn", "terrain"),
    "asl": (),  # filled by hardpoint.asl when it registers its tables
}

_VALIDATORS: dict[str, Callable[[str, dict], None]] = {}
_CROSS_VALIDATORS: dict[str, list[Callable[["Rules"], None]]] = {}


def register_validator(name: str, fn: Callable[[str, dict], None]) -> None:
    """Register the validation function of a table (`name` is `ruleset.stem`)."""
    _VALIDATORS[name] = fn


def register_cross_validator(ruleset: str, fn: Callable[["Rules"], None]) -> None:
    """Register the check of a rule set's tables together (run on the defaults and after every override)."""
    fns = _CROSS_VALIDATORS.setdefault(ruleset, [])
    if fn not in fns:
        fns.append(fn)


def read_seed_text(relpath: str) -> str:
    """Text of a file shipped in hardpoint.seeds (importlib.resources, ARCH-01)."""
    return resources.files("hardpoint.seeds").joinpath(relpath).read_text(encoding="utf-8")


def _seed_names(ruleset: str) -> list[str]:
    folder = resources.files("hardpoint.seeds").joinpath(ruleset)
    if not folder.is_dir():
        return []
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def _merge(base: Any, over: Any, path: str) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = _merge(base[k], v, f"{path}.{k}") if k in base else copy.deepcopy(v)
        return out
    if isinstance(base, list) and isinstance(over, list) and over and all(isinstance(x, dict) for x in base + over):
        key = next((k for k in ("name", "id") if all(k in x for x in base + over)), None)
        if key is None:
            return copy.deepcopy(over)
        for i, item in enumerate(over):
            if not isinstance(item[key], str):   # a name that is a list or a table cannot index anything
                raise DataError("expected text", field=f"{path}[{i}].{key}", value=item[key] if not isinstance(item[key], (dict, list))
                                else None, rule="ARCH-05")
        merged: list[dict] = [dict(x) for x in base]
        index = {x[key]: i for i, x in enumerate(merged) if isinstance(x[key], str)}
        for item in over:
            if item[key] in index:
                merged[index[item[key]]] = _merge(merged[index[item[key]]], item, f"{path}[{item[key]!r}]")
            else:
                index[item[key]] = len(merged)
                merged.append(copy.deepcopy(item))
        return merged
    return copy.deepcopy(over)


@dataclass(frozen=True, eq=False)
class Rules:
    """All rule tables, validated. `rules["carwars.tohit"]` is a plain dict."""

    tables: Mapping[str, dict] = field(default_factory=dict)
    source: str = "defaults"

    def __getitem__(self, name: str) -> dict:
        try:
            return self.tables[name]
        except KeyError:
            raise DataError("no such rules table", field="table", value=name, rule="ARCH-05") from None

    def __contains__(self, name: str) -> bool:
        return name in self.tables

    def names(self) -> list[str]:
        return sorted(self.tables)

    def with_overrides(self, overrides: Mapping[str, Any] | str | Path) -> "Rules":
        """A new Rules with `overrides` (a mapping or a TOML file path) merged in and validated."""
        if isinstance(overrides, (str, Path)):
            path = Path(overrides)
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                raise DataError("override file not found", field="overrides", value=str(path), rule="ARCH-05") from None
            except tomllib.TOMLDecodeError as exc:
                raise DataError(f"override file is not valid TOML: {exc}", field="overrides", value=str(path), rule="ARCH-05") from None
            source = str(path)
        else:
            if not isinstance(overrides, Mapping):
                raise DataError("expected a table of rule sets", field="overrides", value=type(overrides).__name__, rule="ARCH-05")
            data, source = dict(overrides), "mapping"
        _check_override_values(data, source)
        tables = dict(self.tables)
        touched: set[str] = set()
        for ruleset, per_table in data.items():
            if not isinstance(per_table, dict):
                raise DataError("expected a table of rule tables", field=ruleset, value=per_table, rule="ARCH-05")
            for stem, value in per_table.items():
                name = f"{ruleset}.{stem}"
                if name not in tables:
                    raise DataError(f"unknown rules table (known: {', '.join(sorted(tables))})", field="table", value=name, rule="ARCH-05")
                if not isinstance(value, dict):
                    raise DataError("an override of a table must be a table", field=name, value=value, rule="ARCH-05")
                merged = _merge(tables[name], value, name)
                _validate(name, merged)
                tables[name] = merged
                touched.add(ruleset)
        rules = Rules(tables, source=f"{self.source} + {source}")
        for ruleset in sorted(touched):
            _validate_together(ruleset, rules)
        return rules


def _validate(name: str, table: dict) -> None:
    fn = _VALIDATORS.get(name)
    if fn is not None:
        fn(name, table)


def _validate_together(ruleset: str, rules: "Rules") -> None:
    for fn in _CROSS_VALIDATORS.get(ruleset, []):
        fn(rules)


def _check_override_values(data: Any, source: str) -> None:
    """SAFE-01: an override holds what a scenario may hold (finite numbers, int32 integers, text without control
    characters, bounded nesting and size): the limits at the door, as a DataError naming the table path."""
    from .errors import ScenarioError
    from .limits import check_document

    try:
        check_document(data, source)
    except ScenarioError as exc:
        text = str(exc)
        prefix = f"{exc.field}={exc.value!r}: " if exc.value is not None else f"{exc.field}: "
        text = text[len(prefix):] if text.startswith(prefix) else text
        text = text[: -len(f" ({exc.rule})")] if text.endswith(f" ({exc.rule})") else text
        raise DataError(text, field=exc.field, value=exc.value, rule=exc.rule or "SAFE-01") from None


def _load_defaults() -> dict[str, dict]:
    tables: dict[str, dict] = {}
    for ruleset in TABLES:
        for stem in _seed_names(ruleset):
            name = f"{ruleset}.{stem}"
            try:
                tables[name] = tomllib.loads(read_seed_text(f"{ruleset}/{stem}.toml"))
            except tomllib.TOMLDecodeError as exc:
                raise DataError(f"seed table is not valid TOML: {exc}", field="table", value=name, rule="ARCH-05") from None
    return tables


@cache
def default_rules() -> Rules:
    """The shipped tables, loaded and validated once."""
    _import_validators()
    tables = _load_defaults()
    for name, table in tables.items():
        _validate(name, table)
    rules = Rules(tables)
    for ruleset in TABLES:
        _validate_together(ruleset, rules)
    return rules


def load_rules(overrides: Mapping[str, Any] | str | Path | None = None) -> Rules:
    """The default tables, with a user's overrides (a TOML file or a mapping) merged in."""
    rules = default_rules()
    return rules if overrides is None else rules.with_overrides(overrides)


def _import_validators() -> None:
    # Each ruleset registers the validators of its tables when imported.
    from .carwars import table_schemas as _cw  # noqa: F401
    try:
        from .asl import tables as _asl  # noqa: F401
    except ImportError:  # the ASL ruleset is optional during development
        pass


# --- small helpers for validators --------------------------------------------------

def need(table: Mapping, key: str, kind: type | tuple[type, ...], path: str, rule: str = "ARCH-05") -> Any:
    """Return table[key], checking it exists and has the expected type."""
    if key not in table:
        raise DataError("missing", field=f"{path}.{key}", rule=rule)
    value = table[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise DataError(f"expected {'/'.join(k.__name__ for k in kinds)}", field=f"{path}.{key}", value=value, rule=rule)
    if not isinstance(value, kinds):
        raise DataError(f"expected {'/'.join(k.__name__ for k in kinds)}", field=f"{path}.{key}", value=value, rule=rule)
    return value
