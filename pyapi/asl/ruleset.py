"""ASL D15 as a rule set of the front door (hardpoint.ruleset.RuleSet)."""
from __future__ import annotations

import time
from typing import Any

from ..results import BatchResult, Outcome
from ..ruleset import BatchOptions, Unpackable, register

__all__ = ["ASL", "ASL_RULESET", "outcomes_of"]

_STATUS = ("eliminated", "broken", "reduced", "wounded", "pinned", "mounted")


def _keys(scenario) -> list[tuple[str, dict[str, Any], str]]:
    """(measure, keys, label) of every outcome of an ASL scenario, labelled as `trial_outcome` labels them."""
    from .enums import FireKind

    sit = scenario.situation
    out: list[tuple[str, dict[str, Any], str]] = []
    for u in sit.units:
        for status in _STATUS:
            out.append((status, {"unit": u.id}, f"{u.id} {status}"))
    for m in sit.machines:
        out.append(("removed", {"part": m.id}, f"counter {m.id} removed"))
    for f in scenario.fires:
        if f.kind is FireKind.ORDNANCE:
            for u in sit.units_in(f.target):
                out.append(("hit", {"attack": f.id, "unit": u.id}, f"{f.id} hits {u.id}"))
    return out


def _counts(b) -> dict[str, int]:
    return {k: int(v.sum()) for k, v in b._columns().items()}


def outcomes_of(keys, counts: dict[str, int], n: int, exact: dict[str, Any]) -> list[Outcome]:
    return [Outcome(measure, count=counts.get(label, 0), n=n, exact=exact.get(label), label=label, **kw)
            for measure, kw, label in keys]


class ASLD15:
    """ASL rule D15, motorcycles and bicycles, with the slice of the ASL core it needs (pyapi/asl)."""

    name = "asl"
    title = "ASL D15"

    @property
    def schema_parts(self) -> dict[str, Any]:
        from .scenario import SCHEMA_PARTS

        return SCHEMA_PARTS

    def load(self, data: dict, rules: Any, source: str) -> Any:
        from .scenario import load_asl

        return load_asl(data, rules, source)

    def owns(self, scenario: Any) -> bool:
        from .scenario import ASLScenario

        return isinstance(scenario, ASLScenario)

    def explain(self, scenario: Any) -> list[Any]:
        return scenario.explain()

    def resolve(self, scenario: Any, dice: Any, seed: int | None = None) -> Any:
        return scenario.resolve(dice, seed=seed)

    def batch(self, scenario: Any, trials: int, seed: int, options: BatchOptions) -> BatchResult:
        """Chunks of the ASL batch (the Numba kernel where it covers the scenario); arrays are kept when asked."""
        from .batch import run_asl_batch

        start = time.perf_counter()
        backend = None if options.backend in (None, "auto") else options.backend
        if options.keep == "arrays":
            b = run_asl_batch(scenario, trials, seed, first_trial=options.first_trial, backend=backend, threads=options.threads)
            if options.progress is not None:
                options.progress(trials)
            outcomes = outcomes_of(_keys(scenario), _counts(b), b.trials, self._exact(scenario))
            return BatchResult(scenario.name, self.name, seed, options.first_trial, b.trials, b.backend,
                               time.perf_counter() - start, outcomes, details=b, requested=trials)
        from ..trials import run_chunks

        chunk = options.chunk or 100_000
        state: dict[str, Any] = {"backend": "reference"}

        def work(lo: int, hi: int) -> dict[str, int]:
            b = run_asl_batch(scenario, hi - lo, seed, first_trial=options.first_trial + lo, backend=backend, threads=options.threads)
            state["backend"] = b.backend
            if options.progress is not None:
                options.progress(hi - lo)
            return _counts(b)

        run = run_chunks(work, trials, chunk, 1, options.cancel)
        totals: dict[str, int] = {}
        for part in run.results:
            for k, v in part.items():
                totals[k] = totals.get(k, 0) + v
        outcomes = outcomes_of(_keys(scenario), totals, run.done, self._exact(scenario))
        return BatchResult(scenario.name, self.name, seed, options.first_trial, run.done, state["backend"],
                           time.perf_counter() - start, outcomes, details=totals, requested=trials, interrupted=run.interrupted)

    def merge(self, scenario: Any, parts: list[BatchResult]) -> BatchResult:
        """Counted chunks in trial order as one batch: the counts added, the outcomes rebuilt (FAST-03)."""
        totals: dict[str, int] = {}
        for p in parts:
            counts = p.details if isinstance(p.details, dict) else _counts(p.details)
            for k, v in counts.items():
                totals[k] = totals.get(k, 0) + v
        n = sum(p.trials for p in parts)
        first = parts[0]
        return BatchResult(scenario.name, self.name, first.seed, first.first_trial, n, first.backend, max(p.seconds for p in parts),
                           outcomes_of(_keys(scenario), totals, n, self._exact(scenario)), details=totals,
                           requested=sum(p.requested or p.trials for p in parts), interrupted=any(p.interrupted for p in parts))

    @staticmethod
    def _exact(scenario: Any) -> dict[str, Any]:
        return dict(scenario.exact_outcomes())

    def exact(self, scenario: Any, **query: Any) -> list[Outcome]:
        """Exact probabilities of every outcome of the scenario's fire chain (FAST-02)."""
        exact = self._exact(scenario)
        return [Outcome(measure, exact=exact.get(label), label=label, **kw) for measure, kw, label in _keys(scenario)
                if label in exact]

    def pack(self, scenario: Any) -> Any:
        from .batch import _pack

        packed, reason = _pack(scenario)
        return Unpackable(reason or "not covered") if packed is None else packed


ASL_RULESET = ASLD15()
register(ASL_RULESET)
