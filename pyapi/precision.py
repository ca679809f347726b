"""Honest figures (FIGHT-11): run a batch until every probability is known to a stated precision.

`run_to_precision(scenario, 0.005)` runs trials in rounds, trial numbers
following on (trial t always rolls the dice of (seed, t), so the rounds add up
to one batch of their total), until every probability outcome's 95% interval
is at most `precision` either side of its estimate, or a cap on the trials is
reached (then `reached` says so, with the worst half-width).

    >>> import hardpoint
    >>> s = hardpoint.load_scenario("builtin:cw_tohit_example")
    >>> r = run_to_precision(s, 0.01, seed=1, trials=2_000)
    >>> r.reached, r.worst <= 0.01, r.result.trials > 2_000
    (True, True, True)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import ScenarioError
from .results import BatchResult, Outcome, half_width

__all__ = ["Precision", "run_to_precision", "merge_results", "worst_half_width", "MAX_PRECISION_TRIALS"]

#: the most trials `run_to_precision` runs by default
MAX_PRECISION_TRIALS = 100_000_000
_Z = 1.959963984540054


@dataclass
class Precision:
    """A batch run to a precision: the merged result, the precision asked, the worst half-width reached and whether
    it is within the precision (False: the cap on the trials came first)."""

    result: BatchResult
    precision: float
    worst: float
    reached: bool


def worst_half_width(result: BatchResult) -> float:
    """FIGHT-11: the largest half-width of the 95% intervals of the result's probabilities (0 with none)."""
    return max((half_width(o.count, o.n) for o in result.probabilities() if o.exact is None), default=0.0)


def merge_results(first: BatchResult, more: BatchResult) -> BatchResult:
    """Two batches of one scenario and seed, the second's trials following the first's, as one."""
    by_key: dict[tuple, Outcome] = {o.key: o for o in first.outcomes}
    for o in more.outcomes:
        by_key[o.key] = by_key[o.key].merged(o) if o.key in by_key else o
    order = [o.key for o in first.outcomes] + [o.key for o in more.outcomes if o.key not in {x.key for x in first.outcomes}]
    out = BatchResult(first.scenario, first.ruleset, first.seed, first.first_trial, first.trials + more.trials, first.backend,
                      first.seconds + more.seconds, [by_key[k] for k in order], None,
                      (first.requested or first.trials) + (more.requested or more.trials), more.interrupted, first.turns)
    return out


def _trials_for(result: BatchResult, precision: float) -> int:
    """How many trials in all should bring the worst probability within the precision (normal approximation, a
    tenth more for the Wilson interval's width at small counts)."""
    need = 0
    for o in result.probabilities():
        if o.exact is not None or o.n <= 0:
            continue
        p = o.count / o.n
        var = max(p * (1 - p), 1.0 / o.n)
        need = max(need, math.ceil(1.1 * (_Z / precision) ** 2 * var))
    return need


def run_to_precision(scenario: Any, precision: float, seed: int = 0, trials: int = 10_000,
                     max_trials: int = MAX_PRECISION_TRIALS, **options: Any) -> Precision:
    """FIGHT-11: `trials` first, then as many more (numbered on) as the worst interval says it needs, until every
    probability's 95% interval is at most `precision` either side, or `max_trials` have run. `options` go to
    `run_batch` (backend, threads, progress, cancel...)."""
    from .api import run_batch

    if not isinstance(precision, (int, float)) or isinstance(precision, bool) or not 1e-6 <= precision <= 0.5:
        raise ScenarioError("a half-width from 0.000001 to 0.5", field="precision", value=precision, rule="FIGHT-11")
    if not isinstance(max_trials, int) or max_trials < 1:
        raise ScenarioError("a whole number of trials, at least 1", field="max_trials", value=max_trials, rule="FIGHT-11")
    options["keep"] = "summary"
    result = run_batch(scenario, min(trials, max_trials), seed, **options)
    worst = worst_half_width(result)
    while worst > precision and not result.interrupted and result.trials < max_trials:
        total = min(max_trials, max(_trials_for(result, precision), result.trials + 1))
        more = run_batch(scenario, total - result.trials, seed, first_trial=result.first_trial + result.trials, **options)
        result = merge_results(result, more)
        worst = worst_half_width(result)
    return Precision(result, precision, worst, worst <= precision)
