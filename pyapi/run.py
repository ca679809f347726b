"""`hardpoint run`: N independent trials of a scenario with a progress bar and a summary table (CLI-01).

Car Wars scenarios run through `hardpoint.batch` (the compiled core where it
covers the scenario, the reference otherwise); other rule sets run their
reference `trial_outcome`. Trial t always draws `SeededDice(seed, trial=t)`.
"""
from __future__ import annotations

import csv
import json
import math
import os as _os   # run_main imports os locally further down: a module-level `os` would be shadowed there
import sys
import threading
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .dice import SeededDice
from .errors import HardpointError
from .scenario import load_scenario

__all__ = ["Summary", "run_trials", "run_main", "summarize", "run_chart"]


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
    interrupted: bool = False          # stopped by Ctrl-C: `trials` is what ran, `requested` what was asked
    requested: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "trials": self.trials, "seed": self.seed, "backend": self.backend,
                "seconds": round(self.seconds, 3), "interrupted": self.interrupted, "requested": self.requested or self.trials,
                "rows": [{"outcome": k, "mean": self.means[k], "stderr": self.stderr[k], "exact": self.exact.get(k)} for k in self.means]}


def run_trials(scenario, trials: int, seed: int, progress=None, first_trial: int = 0) -> Summary:
    """Reference Monte Carlo over `scenario.trial_outcome` (rule sets without a batch kernel)."""
    sums: dict[str, float] = {}
    squares: dict[str, float] = {}
    start = time.perf_counter()
    step = max(1, trials // 200)
    requested, done, interrupted = trials, 0, False
    try:
        for t in range(first_trial, first_trial + trials):
            outcome = scenario.trial_outcome(SeededDice(seed, t))
            for k, v in outcome.items():
                sums[k] = sums.get(k, 0.0) + v
                squares[k] = squares.get(k, 0.0) + v * v
            done += 1
            if progress is not None and done % step == 0:
                progress(step)
    except KeyboardInterrupt:
        interrupted = True
    trials = max(1, done)
    elapsed = time.perf_counter() - start
    means = {k: s / trials for k, s in sums.items()}
    stderr = {k: math.sqrt(max(0.0, squares[k] / trials - m * m) / trials) if trials > 1 else float("nan") for k, m in means.items()}
    exact = {k: str(v) for k, v in getattr(scenario, "exact_outcomes", lambda: {})().items()}
    return Summary(scenario.name, done, seed, "reference", elapsed, means, stderr, exact, interrupted, requested)


def _batch_summary(scenario, trials: int, seed: int, backend: str, end_of_turn: bool, threads: int | None, progress) -> Summary:

    from .batch import run_batch

    b = run_batch(scenario, trials, seed, backend=None if backend == "auto" else backend, threads=threads,
                  end_of_turn=end_of_turn, progress=progress, chunk=max(1000, min(65536, trials // 64 or 1)), keep="summary")
    means = b.summary()
    counts = b.counts()
    n = max(1, b.trials)
    stderr = {}
    for k, m in means.items():
        if k.endswith(" damage"):
            j = b.attacks.index(k[: -len(" damage")])
            var = max(0.0, float(counts["damage_sq"][j]) / n - m * m)
            stderr[k] = math.sqrt(var / n)
        else:
            stderr[k] = math.sqrt(max(0.0, m * (1 - m)) / n)
    exact = {k: str(v) for k, v in getattr(scenario, "exact_outcomes", lambda: {})().items()}
    return Summary(scenario.name, b.trials, seed, b.backend, b.seconds, means, stderr, exact, b.interrupted, trials)


def _asl_summary(scenario, trials: int, seed: int, backend: str, progress, chunk: int = 100_000) -> Summary:
    """ASL scenarios: the Numba kernel where it covers the scenario (hardpoint.asl.batch), chunk by chunk
    (Ctrl-C stops between chunks and the summary covers the chunks done)."""
    from .asl.batch import run_asl_batch

    start = time.perf_counter()
    sums: dict[str, float] = {}
    used = "reference"
    done, interrupted = 0, False
    try:
        for lo in range(0, trials, chunk):
            n = min(chunk, trials - lo)
            b = run_asl_batch(scenario, n, seed, first_trial=lo, backend=None if backend == "auto" else backend)
            used = b.backend
            for k, m in b.summary().items():
                sums[k] = sums.get(k, 0.0) + m * n
            done += n
            if progress is not None:
                progress(n)
    except KeyboardInterrupt:
        interrupted = True
    n_done = max(1, done)
    means = {k: v / n_done for k, v in sums.items()}
    stderr = {k: math.sqrt(max(0.0, m * (1 - m)) / n_done) for k, m in means.items()}
    exact = {k: str(v) for k, v in getattr(scenario, "exact_outcomes", lambda: {})().items()}
    return Summary(scenario.name, done, seed, used, time.perf_counter() - start, means, stderr, exact, interrupted, trials)


def summarize(scenario, trials: int, seed: int, backend: str = "auto", threads: int | None = None, end_of_turn: bool = True,
              progress=None) -> Summary:
    """The Summary `hardpoint run` prints, without printing (used by `hardpoint report`, PIC-03)."""
    from .carwars.scenario import CarWarsScenario

    if isinstance(scenario, CarWarsScenario):
        return _batch_summary(scenario, trials, seed, backend, end_of_turn, threads, progress)
    if getattr(scenario, "ruleset", "") == "asl":
        return _asl_summary(scenario, trials, seed, backend, progress)
    return run_trials(scenario, trials, seed, progress)


# Trials re-run with per-trial arrays for the damage histograms of --plot: the first N of the run (same seed, same dice).
PLOT_DAMAGE_TRIALS = {"compiled": 200_000, "reference": 2_000}


def run_chart(scenario, summary: Summary, threads: int | None = None, end_of_turn: bool = True):
    """PIC-02: the figure of a run: its rates against the exact odds, and for Car Wars each attack's damage
    distribution (Monte Carlo over the run's first trials, kept with arrays) with the exact one overlaid."""
    import warnings

    from .carwars.scenario import CarWarsScenario
    from .plot import damage_counts, exact_damage, run_figure

    damage = {}
    if isinstance(scenario, CarWarsScenario) and scenario.attacks:
        from .batch import run_batch
        from .exact import exact_attack

        n = min(summary.trials, PLOT_DAMAGE_TRIALS.get(summary.backend, PLOT_DAMAGE_TRIALS["reference"]))
        with warnings.catch_warnings():   # the run itself has warned about the backend already
            warnings.simplefilter("ignore")
            b = run_batch(scenario, n, summary.seed, backend=summary.backend, threads=threads, end_of_turn=end_of_turn)
        for a in b.attacks:
            try:
                exact = exact_damage(exact_attack(scenario, a))
            except (NotImplementedError, HardpointError):
                exact = None   # no exact odds for this attack (several turns, area effect, links): bars only
            damage[a] = (damage_counts(b, a), exact)
    return run_figure(summary, damage)


def _print_table(summary: Summary) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .limits import safe_text

    # Names come from the scenario: Text, never markup, so "[" and "]" print as themselves (SAFE-02).
    count = (f"interrupted after {summary.trials:,} of {summary.requested:,} trials" if summary.interrupted
             else f"{summary.trials:,} trials")
    table = Table(title=Text(f"{safe_text(summary.scenario)}\n{count}, seed {summary.seed}, "
                             f"{summary.backend} backend, {summary.seconds:.2f} s"))
    table.add_column("outcome")
    table.add_column("rate / mean", justify="right")
    table.add_column("± s.e.", justify="right")
    table.add_column("exact", justify="right")
    for k, m in summary.means.items():
        ex = summary.exact.get(k)
        table.add_row(Text(safe_text(k)), f"{m:.4f}", f"{summary.stderr[k]:.4f}", "" if ex is None else f"{float(Fraction(ex)):.4f}")
    Console().print(table)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet will not run as a formula (SAFE-02): text starting with = + - @ gets a quote."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def open_csv(path: str, overwrite: bool):
    """Open the --csv file before any work runs: a bad path is an error now, not after the run (SAFE-02)."""
    from .errors import ScenarioError

    import os

    if os.path.isdir(path):
        raise ScenarioError("is a directory", field="--csv", value=path, rule="SAFE-02")
    if os.path.exists(path) and not overwrite:
        raise ScenarioError("file exists (add --overwrite to replace it)", field="--csv", value=path, rule="SAFE-02")
    try:
        return open(path, "w" if overwrite else "x", newline="", encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot write: {exc.strerror}", field="--csv", value=path, rule="SAFE-02") from None


def write_csv(fh, summary: Summary) -> None:
    w = csv.writer(fh)
    w.writerow(["outcome", "mean", "stderr", "exact"])
    for row in summary.to_dict()["rows"]:
        w.writerow([csv_cell(row["outcome"]), row["mean"], row["stderr"], csv_cell(row["exact"] or "")])


def run_main(args) -> int:
    from .carwars.scenario import CarWarsScenario
    from .limits import safe_text
    from .cli import DEFAULT_SCENARIO
    from .errors import ScenarioError

    name = args.scenario or DEFAULT_SCENARIO
    if args.scenario is None:
        print(f"no scenario given: running the built-in default ({DEFAULT_SCENARIO})", file=sys.stderr)
    scenario = load_scenario(name)
    if args.trials < 1:
        raise ScenarioError("must be at least 1", field="--trials", value=args.trials, rule="CLI-01")
    if args.phase_only and getattr(scenario, "turns", None):
        raise ScenarioError(f"the scenario runs {scenario.turns} whole turns; --phase-only applies to one-phase scenarios",
                            field="--phase-only", value=True, rule="CLI-01")
    plot_path = getattr(args, "plot", None)
    if plot_path:   # a bad --plot file is an error now, before the run (SAFE-02)
        from .draw import picture_format

        picture_format(plot_path, "--plot")
        if _os.path.exists(plot_path) and not getattr(args, "overwrite", False):
            raise ScenarioError("file exists (add --overwrite to replace it)", field="--plot", value=plot_path, rule="SAFE-02")
    csv_file = open_csv(args.csv, getattr(args, "overwrite", False)) if args.csv else None

    def go(progress):
        if isinstance(scenario, CarWarsScenario):
            return _batch_summary(scenario, args.trials, args.seed, args.backend, not args.phase_only, args.threads, progress)
        if getattr(scenario, "ruleset", "") == "asl":
            return _asl_summary(scenario, args.trials, args.seed, args.backend, progress)
        return run_trials(scenario, args.trials, args.seed, progress)

    written = False
    print(f"hardpoint: running {args.trials:,} trials of {safe_text(scenario.name)} (seed {args.seed}); Ctrl-C stops and "
          "reports the trials done", file=sys.stderr, flush=True)
    try:
        if args.no_progress or args.json:
            summary = go(None)
        else:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            lock = threading.Lock()
            with Progress(TextColumn("trials"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=False) as bar:
                task = bar.add_task("trials", total=args.trials)

                def advance(n: int) -> None:
                    with lock:
                        bar.advance(task, n)

                summary = go(advance)
                bar.update(task, completed=summary.trials)
        if args.json:
            print(json.dumps(summary.to_dict(), indent=2))
        else:
            _print_table(summary)
        if csv_file is not None:
            write_csv(csv_file, summary)
            written = True
        if plot_path and not summary.interrupted:
            from .plot import save_figure

            save_figure(run_chart(scenario, summary, args.threads, not args.phase_only), plot_path,
                        getattr(args, "overwrite", False), "--plot")
            if not args.json:
                print(f"chart written to {plot_path}", file=sys.stderr)
    finally:
        if csv_file is not None:
            csv_file.close()
            if not written:  # nothing to keep: do not leave an empty file behind
                import os

                os.unlink(csv_file.name)
    if summary.interrupted:
        print(f"hardpoint: interrupted after {summary.trials:,} of {summary.requested:,} trials; the summary covers those",
              file=sys.stderr)
        return 130
    return 0
