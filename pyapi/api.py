"""The front door: the same calls for every rule set (ARCH-03).

`run_batch`, `exact`, `explain` and `resolve` take any scenario that
`hardpoint.load_scenario` returns and dispatch through its rule set
(`hardpoint.ruleset`); results have one shape whatever the rule set
(`hardpoint.results.BatchResult`, `Outcome`).

    >>> import hardpoint
    >>> s = hardpoint.load_scenario("builtin:cw_tohit_example")
    >>> b = hardpoint.run_batch(s, 20_000, seed=1)
    >>> o = b.find("hit", attack="mg_at_tire")
    >>> o.exact, abs(o.estimate - 1 / 6) < 0.02
    (Fraction(1, 6), True)
    >>> a = hardpoint.run_batch(hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle"), 2_000, seed=1)
    >>> a.ruleset, a.find("eliminated", unit="squad").exact is not None
    ('asl', True)
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from .errors import ScenarioError
from .limits import check_chunk, check_seed, check_threads, check_trials
from .results import BatchResult, Outcome
from .ruleset import BatchOptions, ruleset_of

__all__ = ["run_batch", "exact", "explain", "resolve", "ARRAYS_UP_TO"]

#: keep="auto" keeps per-trial arrays up to this many trials, and only counts beyond (issue 15: memory stays flat)
ARRAYS_UP_TO = 1_000_000


def run_batch(scenario: Any, trials: int, seed: int = 0, *, first_trial: int = 0, backend: str | None = None,
              threads: int | None = None, chunk: int | None = None, keep: str = "auto", phase_only: bool = False,
              progress: Callable[[int], Any] | None = None, cancel: threading.Event | None = None,
              out: Any = None, overwrite: bool = False) -> BatchResult:
    """Trials first_trial .. first_trial+trials-1 of any scenario, on the compiled core where it covers it (FAST-01).

    Trial t rolls the dice of (seed, t): the result does not depend on `threads`,
    `chunk` or the backend. `keep`: "summary" counts the outcomes only,
    "arrays" also keeps every trial (`details`), "auto" keeps arrays up to
    ARRAYS_UP_TO trials. Ctrl-C or `cancel` stops between chunks; the result
    covers the trials done (`interrupted`). `out` (a folder, new or empty;
    `overwrite=True` reuses one): the per-trial arrays stream chunk by chunk to
    .npy files there, so a run of any size keeps flat memory
    (`hardpoint.stream`); the result's arrays are those files, read back as
    memory maps.
    """
    trials, first_trial = check_trials(trials, first_trial)
    seed = check_seed(seed)
    threads = check_threads(threads)
    if keep not in ("auto", "summary", "arrays"):
        raise ScenarioError("expected auto, summary or arrays", field="keep", value=keep, rule="FAST-01")
    if keep == "auto":
        keep = "arrays" if trials <= ARRAYS_UP_TO or out is not None else "summary"
    if chunk is not None:
        chunk = check_chunk(chunk)
    options = BatchOptions(first_trial=first_trial, backend=backend, threads=threads, chunk=chunk, keep=keep,
                           phase_only=phase_only, progress=progress, cancel=cancel)
    if out is not None:
        if keep != "arrays":
            raise ScenarioError("out= streams the per-trial arrays: give keep='arrays' (or leave keep='auto')", field="keep",
                                value=keep, rule="FAST-03")
        from .stream import run_to_files

        return run_to_files(scenario, trials, seed, options, out, overwrite)
    return ruleset_of(scenario).batch(scenario, trials, seed, options)


def exact(scenario: Any, **query: Any) -> list[Outcome]:
    """Exact outcomes of a scenario (FAST-02): `Outcome` rows with `exact` set; an ExactError where it is too big."""
    return ruleset_of(scenario).exact(scenario, **query)


def explain(scenario: Any) -> list[Any]:
    """Itemised odds of every declared attack, without rolling (LOG-02)."""
    return ruleset_of(scenario).explain(scenario)


def resolve(scenario: Any, dice: Any = None, seed: int | None = None) -> Any:
    """One trial: with `dice` (any dice source), or with SeededDice(seed) (LOG-01)."""
    if dice is None:
        from .dice import SeededDice

        seed = check_seed(0 if seed is None else seed)
        dice = SeededDice(seed)
    return ruleset_of(scenario).resolve(scenario, dice, seed)
