"""One interface for every rule set (ARCH-03, ARCH-04).

A rule set (Car Wars, ASL D15, or a third one) implements `RuleSet` and
registers itself; the front door (`hardpoint.load_scenario`,
`hardpoint.run_batch`, `hardpoint.exact`, the `hardpoint` command) finds it by
the scenario's `ruleset` name or by the scenario object, and never names a
rule set itself. Adding a rule set means writing its package and calling
`register(...)`: the core does not change.

    >>> import hardpoint
    >>> from hardpoint.ruleset import ruleset_of
    >>> ruleset_of(hardpoint.load_scenario("builtin:cw_tohit_example")).name
    'carwars'
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

from .errors import ScenarioError

__all__ = ["RuleSet", "Unpackable", "register", "unregister", "get", "names", "ruleset_of", "BatchOptions"]


@dataclass(frozen=True)
class Unpackable:
    """What `RuleSet.pack` returns for a scenario its compiled kernel cannot run, with the reason."""

    reason: str


@dataclass(frozen=True)
class BatchOptions:
    """How to run a batch: the same for every rule set."""

    first_trial: int = 0
    backend: str | None = None          # "compiled", "reference", None/"auto"
    threads: int | None = None
    chunk: int | None = None
    keep: str = "summary"               # "summary" (counts) or "arrays" (every trial kept)
    phase_only: bool = False            # Car Wars one-phase scenarios: skip the end of the turn
    progress: Callable[[int], Any] | None = None
    cancel: threading.Event | None = None


@runtime_checkable
class RuleSet(Protocol):
    """What a rule set provides. Every method takes the rule set's own scenario object."""

    name: str                            # the scenario files' `ruleset = "..."`
    title: str
    schema_parts: dict[str, Any]         # the top-level scenario keys it adds to the JSON Schema

    def load(self, data: dict, rules: Any, source: str) -> Any:
        """A scenario from schema-valid data: every reference resolved, every rule checked (SAFE-01)."""
        ...

    def owns(self, scenario: Any) -> bool:
        ...

    def explain(self, scenario: Any) -> list[Any]:
        """Itemised odds without rolling (LOG-02): objects with `to_dict()`."""
        ...

    def resolve(self, scenario: Any, dice: Any, seed: int | None = None) -> Any:
        """One trial with a dice source (an Event with `to_dict()`)."""
        ...

    def batch(self, scenario: Any, trials: int, seed: int, options: BatchOptions) -> Any:
        """N trials as a `hardpoint.results.BatchResult` (FAST-01)."""
        ...

    def exact(self, scenario: Any, **query: Any) -> list[Any]:
        """Exact outcomes as `Outcome` rows with `exact` set (FAST-02); an ExactError where the state space is too big."""
        ...

    def pack(self, scenario: Any) -> Any:
        """The scenario packed for the compiled kernel, or `Unpackable(reason)` (ARCH-04)."""
        ...

    # Optional: merge(scenario, parts) -> BatchResult: batches of consecutive trials (in trial order) as one,
    # the one a single run of all their trials gives, outcome for outcome. Dask (hardpoint.distributed) and
    # streamed arrays (hardpoint.stream) need it; a rule set without it runs everything else (FAST-03).


_REGISTRY: dict[str, RuleSet] = {}


def merger(ruleset: Any, field: str = "scenario") -> Any:
    """The rule set's optional `merge`, or a ScenarioError saying it has none (FAST-03)."""
    merge = getattr(ruleset, "merge", None)
    if merge is None:
        from .errors import ScenarioError

        raise ScenarioError(f"the {ruleset.name} rule set cannot add batches of trials together (no merge)", field=field,
                            value=ruleset.name, rule="FAST-03")
    return merge


def register(ruleset: RuleSet) -> None:
    """Make a rule set known to the front door (its name must be new)."""
    if not isinstance(ruleset, RuleSet):
        raise TypeError(f"{ruleset!r} does not implement hardpoint.ruleset.RuleSet")
    current = _REGISTRY.get(ruleset.name)
    if current is not None and current is not ruleset and type(current).__name__ != "_LoaderOnly":
        raise ValueError(f"a rule set named {ruleset.name!r} is already registered")
    _REGISTRY[ruleset.name] = ruleset


def unregister(name: str) -> None:
    """Forget a rule set (tests, plug-ins being reloaded)."""
    _REGISTRY.pop(name, None)


def _ensure() -> None:
    from . import carwars as _cw  # noqa: F401  (each package registers its rule set when imported)
    from . import asl as _asl  # noqa: F401


def names() -> list[str]:
    _ensure()
    return sorted(_REGISTRY)


def get(name: str) -> RuleSet:
    _ensure()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ScenarioError(f"no such rule set (known: {', '.join(sorted(_REGISTRY))})", field="scenario.ruleset",
                            value=name, rule="ARCH-03") from None


def ruleset_of(scenario: Any) -> RuleSet:
    """The rule set a scenario object belongs to."""
    _ensure()
    for rs in _REGISTRY.values():
        if rs.owns(scenario):
            return rs
    raise ScenarioError("not a scenario of any known rule set", field="scenario", value=type(scenario).__name__, rule="ARCH-03")
