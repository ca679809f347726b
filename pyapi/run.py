"""`hardpoint run`: N independent trials of a scenario, with a progress bar and a summary.

Trial t draws its dice from `SeededDice(seed, trial=t)` (DICE-03), so the
summary does not depend on how the trials are split. Each scenario type gives
`trial_outcome(dice)`: a flat mapping of numbers for one trial (1/0 for
events, counts for damage); the summary reports mean, standard error and,
where the scenario knows it, the exact value.
"""
from __future__ import annotations

import csv
import json
import math
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from .dice import SeededDice
from .scenario import load_scenario

__all__ = ["Summary", "run_trials", "run_main"]


@dataclass
class Summary:
    scenario: str
    trials: int
    seed: int
    backend: str
    seconds: float
    means: dict[str, float] = field(default_factory=dict)
    stderr: dict[str, float] = field(default_factory=dict)
    exact: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "trials": self.trials, "seed": self.seed, "backend": self.backend,
                "seconds": round(self.seconds, 3),
                "rows": [{"outcome": k, "mean": self.means[k], "stderr": self.stderr[k], "exact": self.exact.get(k)} for k in self.means]}


def run_trials(scenario, trials: int, seed: int, progress=None, first_trial: int = 0) -> Summary:
    """Reference Monte Carlo: trial t of the scenario with `SeededDice(seed, t)`."""
    sums: dict[str, float] = {}
    squares: dict[str, float] = {}
    start = time.perf_counter()
    step = max(1, trials // 200)
    for t in range(first_trial, first_trial + trials):
        for k, v in scenario.trial_outcome(SeededDice(seed, t)).items():
            sums[k] = sums.get(k, 0.0) + v
            squares[k] = squares.get(k, 0.0) + v * v
        if progress is not None and (t - first_trial + 1) % step == 0:
            progress(step)
    elapsed = time.perf_counter() - start
    means = {k: s / trials for k, s in sums.items()}
    stderr = {}
    for k, m in means.items():
        var = max(0.0, squares[k] / trials - m * m)
        stderr[k] = math.sqrt(var / trials) if trials > 1 else float("nan")
    exact = {k: str(v) for k, v in getattr(scenario, "exact_outcomes", lambda: {})().items()}
    return Summary(scenario.name, trials, seed, "reference", elapsed, means, stderr, exact)


def _print_table(summary: Summary) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{summary.scenario}: {summary.trials:,} trials, seed {summary.seed}, {summary.backend} backend, {summary.seconds:.2f} s")
    table.add_column("outcome")
    table.add_column("mean", justify="right")
    table.add_column("± s.e.", justify="right")
    table.add_column("exact", justify="right")
    for k, m in summary.means.items():
        ex = summary.exact.get(k)
        table.add_row(k, f"{m:.4f}", f"{summary.stderr[k]:.4f}", "" if ex is None else f"{float(eval_fraction(ex)):.4f}")
    Console().print(table)


def eval_fraction(text: str):
    from fractions import Fraction

    return Fraction(text)


def run_main(args) -> int:
    from .cli import DEFAULT_SCENARIO

    name = args.scenario or DEFAULT_SCENARIO
    if args.scenario is None and not args.json:
        print(f"no scenario given: running the built-in default ({DEFAULT_SCENARIO})", file=sys.stderr)
    scenario = load_scenario(name)
    if args.trials < 1:
        from .errors import ScenarioError
        raise ScenarioError("must be at least 1", field="--trials", value=args.trials, rule="CLI-01")
    if args.no_progress or args.json:
        summary = run_trials(scenario, args.trials, args.seed)
    else:
        from rich.progress import Progress

        with Progress(transient=False) as bar:
            task = bar.add_task("trials", total=args.trials)
            summary = run_trials(scenario, args.trials, args.seed, progress=lambda n: bar.advance(task, n))
            bar.update(task, completed=args.trials)
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        _print_table(summary)
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["outcome", "mean", "stderr", "exact"])
            for row in summary.to_dict()["rows"]:
                w.writerow([row["outcome"], row["mean"], row["stderr"], row["exact"] or ""])
    return 0
