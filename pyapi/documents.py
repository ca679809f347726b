"""The JSON documents of every result (PROTO-01): one builder per command, shared by `--json`, the protocol and the C API.

Every document is versioned (`"format": "hardpoint/1"`), says what it is
(`"kind"`, or `"event"` for a resolution, which is an event log that
`hardpoint.event_from_dict` rebuilds), and gives every probability as a
number with the exact fraction beside it: an event's Fraction field `p` is
written `"p": 0.1666..., "p_exact": "1/6"` (a dict or list of Fractions
likewise, as the same shape of strings). Run and exact documents are rows of
`Outcome.to_dict()`: structured keys (measure, unit, attack, part, side,
turn, weapon), the estimate, its interval, and `exact` with
`exact_fraction` where hardpoint knows it.

    >>> import hardpoint
    >>> s = hardpoint.load_scenario("builtin:cw_tohit_example")
    >>> d = explain_document(s)
    >>> d["kind"], d["breakdowns"][0]["probability_exact"], round(d["breakdowns"][0]["probability"], 4)
    ('explain', '1/6', 0.1667)
"""
from __future__ import annotations

import dataclasses
import enum
import math
from fractions import Fraction
from typing import Any

from .events import Event
from .results import FORMAT, BatchResult, Outcome

__all__ = ["FORMAT", "jsonable", "explain_document", "resolve_document", "run_document", "exact_document",
           "schema_document", "version_document", "finite"]


def _has_fraction(value: Any) -> bool:
    if isinstance(value, Fraction):
        return True
    if isinstance(value, dict):
        return any(_has_fraction(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_fraction(v) for v in value)
    return False


def _exact_strings(value: Any) -> Any:
    """The same shape with every Fraction as its exact string ("1/6")."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _exact_strings(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_exact_strings(v) for v in value]
    return jsonable(value)


def jsonable(value: Any) -> Any:
    """Plain JSON data with every Fraction as a number, and beside each event field holding one, `<field>_exact`."""
    if isinstance(value, Event) and dataclasses.is_dataclass(value):
        out: dict[str, Any] = {"event": value.kind}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            out[f.name] = jsonable(v)
            if _has_fraction(v):
                out[f"{f.name}_exact"] = _exact_strings(v)
        return out
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [jsonable(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value


def finite(value: Any) -> Any:
    """The document with every NaN or infinity as null: JSON has no such numbers (a one-trial run's s.e. is NaN)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value


def explain_document(scenario: Any, breakdowns: list[Any] | None = None) -> dict[str, Any]:
    """`hardpoint explain --json` (LOG-02): every breakdown of the scenario, without rolling."""
    if breakdowns is None:
        from .api import explain

        breakdowns = explain(scenario)
    return {"format": FORMAT, "kind": "explain", "scenario": scenario.name, "ruleset": _ruleset(scenario),
            "breakdowns": [jsonable(b) for b in breakdowns]}


def resolve_document(result: Any) -> dict[str, Any]:
    """`hardpoint resolve --json` (LOG-01): the result event with its whole log; `event_from_dict` rebuilds it."""
    return {"format": FORMAT, **jsonable(result)}


def run_document(result: BatchResult) -> dict[str, Any]:
    """`hardpoint run --json` and `hardpoint duel --json` (FAST-01, FIGHT-05): the counted outcomes of a batch."""
    return result.to_dict()


def exact_document(scenario: Any, outcomes: list[Outcome]) -> dict[str, Any]:
    """The exact odds of a scenario (FAST-02): Outcome rows with `exact` and `exact_fraction`."""
    rows = []
    for o in outcomes:
        row: dict[str, Any] = {"measure": o.measure}
        for k in ("unit", "attack", "weapon", "part", "side", "turn"):
            v = getattr(o, k)
            if v is not None:
                row[k] = v
        row["label"] = o.name()
        row["kind"] = o.kind
        if o.exact is not None:
            row["exact"] = float(o.exact)
            row["exact_fraction"] = str(o.exact)
        rows.append(row)
    return {"format": FORMAT, "kind": "exact", "scenario": scenario.name, "ruleset": _ruleset(scenario), "outcomes": rows}


def schema_document() -> dict[str, Any]:
    """`hardpoint schema`: the JSON Schema of scenario documents (CLI-02)."""
    from .scenario import scenario_schema

    return scenario_schema()


def version_document() -> dict[str, Any]:
    """What this hardpoint is: its version, the document format, the protocol's operations."""
    from . import __version__
    from .ruleset import names

    return {"format": FORMAT, "kind": "version", "name": "hardpoint", "version": __version__, "rulesets": names(),
            "ops": ["explain", "resolve", "run", "exact", "duel", "schema", "version"]}


def _ruleset(scenario: Any) -> str:
    from .ruleset import ruleset_of

    try:
        return ruleset_of(scenario).name
    except Exception:  # noqa: BLE001 - a scenario object from outside the registry: say so rather than fail
        return getattr(scenario, "ruleset", "") or ""
