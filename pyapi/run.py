"""`hardpoint run`: N independent trials of a scenario with a progress bar and a summary (CLI-01).

Every rule set runs through the front door (`hardpoint.run_batch`): the
compiled core where it covers the scenario, the reference otherwise. Trial t
always rolls the dice of (seed, t). The summary is two tables: the
probabilities (with their 95% interval and the exact value where hardpoint
knows it) and the amounts (mean, standard error, percentiles of the
distribution).
"""
from __future__ import annotations

import csv
import json
import os as _os
import sys
import threading
from fractions import Fraction
from typing import Any

from .errors import HardpointError
from .results import BatchResult, Outcome, shown_probability
from .scenario import load_scenario

__all__ = ["summarize", "run_main", "run_chart", "scope", "csv_cell", "open_csv", "write_csv", "print_tables"]


def summarize(scenario, trials: int, seed: int, backend: str = "auto", threads: int | None = None, end_of_turn: bool = True,
              progress=None, cancel: threading.Event | None = None) -> BatchResult:
    """The counted run `hardpoint run` prints (and `hardpoint report` shows), without printing."""
    from .api import run_batch

    return run_batch(scenario, trials, seed, backend=None if backend == "auto" else backend, threads=threads,
                     keep="summary", phase_only=not end_of_turn, progress=progress, cancel=cancel)


def scope(scenario, phase_only: bool = False) -> str:
    """What one trial covers, in words: "one phase", "one turn", "5 turns", or the fire chain of an ASL scenario."""
    turns = getattr(scenario, "turns", None)
    if getattr(scenario, "ruleset", "") == "asl":
        return "the scenario's moves and fire"
    if turns:
        return "one turn" if turns == 1 else f"{turns} turns"
    return "one phase" if phase_only else "one phase and the end of its turn"


def run_chart(scenario, result: BatchResult, threads: int | None = None, end_of_turn: bool = True):
    """PIC-02: the figure of a run: its rates against the exact odds, and for Car Wars each attack's damage
    distribution (the run's own histogram) with the exact one overlaid where hardpoint can compute it; for a
    fight, who wins with intervals and every unit's survival curve by turn."""
    from .plot import exact_damage, fight_figure, is_fight, run_figure

    if is_fight(result):
        fight = getattr(scenario, "fight", None)
        units = [*scenario.arena.vehicles, *scenario.arena.pedestrians] if hasattr(scenario, "arena") else []
        return fight_figure(result, {u: fight.side(u) for u in units} if fight is not None else None)
    damage = {}
    if result.ruleset == "carwars":
        from .carwars.exact import exact_attack

        for o in result.amounts():
            if o.measure != "damage" or o.histogram is None or o.attack is None:
                continue
            try:
                exact = exact_damage(exact_attack(scenario, o.attack))
            except (NotImplementedError, HardpointError):
                exact = None   # no exact odds for this attack (several turns, area effect, links): bars only
            damage[o.attack] = (dict(o.histogram), exact)
    return run_figure(result, damage)


def _fmt_exact(o: Outcome, digits: int = 4) -> str:
    if o.exact is None:
        return ""
    return f"{float(o.exact):.{digits}f}" + (f" ({o.exact})" if len(str(o.exact)) <= 9 else "")


_FIGHT = {"win", "draw", "undecided", "turns", "out", "out_turn", "out_by_turn", "shots", "hits", "damage_dealt"}


def _by_turn_columns(turns: int) -> list[int]:
    """The turns the out-by-turn table shows (all of them are in --json and --csv): every turn up to 5, else five
    of them ending with the cap."""
    if turns <= 5:
        return list(range(1, turns + 1))
    step = turns / 5
    return sorted({max(1, round(step * k)) for k in range(1, 6)})


def _fight_tables(result: BatchResult, console) -> None:
    """FIGHT-05 first: who wins, when each unit went out, what each weapon did."""
    from rich.table import Table
    from rich.text import Text

    from .limits import safe_text

    wins = Table(title=Text("who wins"), title_justify="left")
    wins.add_column("outcome")
    wins.add_column("probability", justify="right")
    wins.add_column("95% interval", justify="right")
    for o in result.outcomes:
        if o.measure in ("win", "draw", "undecided"):
            wins.add_row(Text(safe_text(o.name())), *shown_probability(o.count, o.n, o.exact))
    console.print(wins)
    turns = next((o for o in result.outcomes if o.measure == "turns"), None)
    if turns is not None:
        pct = turns.percentiles() or {}
        console.print(Text(f"turns fought: mean {turns.estimate:.2f}, median {pct.get(0.5, '')}, 90% {pct.get(0.9, '')}"))
    cap = result.turns or 1
    columns = _by_turn_columns(cap)
    units = Table(title=Text("units: out of action (the turn it went out, when it did; P(out) by turn t)"),
                  title_justify="left")
    units.add_column("unit", overflow="fold")
    units.add_column("P(out)", justify="right", no_wrap=True)
    units.add_column("mean", justify="right", no_wrap=True)
    units.add_column("med", justify="right", no_wrap=True)
    units.add_column("90%", justify="right", no_wrap=True)
    for t in columns:
        units.add_column(f"t{t}", justify="right", no_wrap=True)
    for o in result.outcomes:
        if o.measure != "out":
            continue
        when = next((x for x in result.outcomes if x.measure == "out_turn" and x.unit == o.unit), None)
        pct = (when.percentiles() if when is not None else None) or {}
        by = {x.turn: (x.count, x.n) for x in result.outcomes if x.measure == "out_by_turn" and x.unit == o.unit}
        units.add_row(Text(safe_text(o.unit or "")), shown_probability(o.count, o.n, digits=3)[0],
                      "" if when is None else f"{when.estimate:.1f}", str(pct.get(0.5, "")), str(pct.get(0.9, "")),
                      *[shown_probability(*by[t], digits=2)[0] if t in by else "" for t in columns])
    console.print(units)
    weapons = Table(title=Text("weapons: per fight (means)"), title_justify="left")
    weapons.add_column("weapon")
    weapons.add_column("shots", justify="right")
    weapons.add_column("hits", justify="right")
    weapons.add_column("damage dealt", justify="right")
    rows: dict[tuple, dict[str, float]] = {}
    for o in result.outcomes:
        if o.measure in ("shots", "hits", "damage_dealt"):
            rows.setdefault((o.unit, o.weapon), {})[o.measure] = o.estimate
    for (unit, weapon), m in rows.items():
        weapons.add_row(Text(safe_text(f"{unit} {weapon}")), f"{m.get('shots', 0):.2f}", f"{m.get('hits', 0):.2f}",
                        f"{m.get('damage_dealt', 0):.2f}")
    if rows:
        console.print(weapons)


def print_tables(result: BatchResult, what: str, console=None) -> None:
    """The run as a person reads it: for a fight who wins first, then probabilities, then amounts (names as text)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .limits import safe_text

    console = console or Console()
    count = (f"interrupted after {result.trials:,} of {result.requested:,} trials" if result.interrupted
             else f"{result.trials:,} trials")
    console.print(Text(f"{safe_text(result.scenario)}: {what} a trial\n{count}, seed {result.seed}, {result.backend} backend, "
                       f"{result.seconds:.2f} s"))
    fight = any(o.measure == "win" for o in result.outcomes)
    if fight:
        _fight_tables(result, console)
    probs = [o for o in result.probabilities() if not (fight and o.measure in _FIGHT)]
    table = Table(title=Text("probabilities"), title_justify="left")
    table.add_column("outcome")
    table.add_column("probability", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("exact", justify="right")
    for o in probs:
        shown, interval = shown_probability(o.count, o.n)
        table.add_row(Text(safe_text(o.name())), shown, interval, _fmt_exact(o))
    if not probs:
        table.add_row(Text("(nothing happened that can be counted)"), "", "", "")
    console.print(table)
    amounts = [o for o in result.amounts() if not (fight and o.measure in _FIGHT)]
    if amounts:
        t2 = Table(title=Text("amounts (0 when nothing happened: a miss does 0 damage)"), title_justify="left")
        t2.add_column("amount")
        t2.add_column("mean", justify="right")
        t2.add_column("± s.e.", justify="right")
        t2.add_column("median", justify="right")
        t2.add_column("90%", justify="right")
        t2.add_column("99%", justify="right")
        t2.add_column("exact mean", justify="right")
        for o in amounts:
            pct = o.percentiles() or {}
            cells = [str(pct[q]) if q in pct else "" for q in (0.5, 0.9, 0.99)]
            t2.add_row(Text(safe_text(o.name())), f"{o.estimate:.3f}", f"{o.stderr:.3f}", *cells, _fmt_exact(o, 3))
        console.print(t2)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet will not run as a formula (SAFE-02): text starting with = + - @ gets a quote."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def open_csv(path: str, overwrite: bool):
    """Open the --csv file before any work runs: a bad path is an error now, not after the run (SAFE-02)."""
    from .errors import ScenarioError

    if _os.path.isdir(path):
        raise ScenarioError("is a directory", field="--csv", value=path, rule="SAFE-02")
    if _os.path.exists(path) and not overwrite:
        raise ScenarioError("file exists (add --overwrite to replace it)", field="--csv", value=path, rule="SAFE-02")
    try:
        return open(path, "w" if overwrite else "x", newline="", encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot write: {exc.strerror}", field="--csv", value=path, rule="SAFE-02") from None


CSV_COLUMNS = ["kind", "measure", "unit", "attack", "part", "side", "turn", "outcome", "estimate", "stderr",
               "low95", "high95", "exact", "exact_fraction", "trials"]


def write_csv(fh, result: BatchResult) -> None:
    """One row per outcome, structured keys first (PROTO-01); text cells neutralised."""
    w = csv.writer(fh)
    w.writerow(CSV_COLUMNS)
    for o in result.outcomes:
        lo, hi = o.interval()
        w.writerow([o.kind, o.measure] + [csv_cell("" if getattr(o, k) is None else getattr(o, k))
                                          for k in ("unit", "attack", "part", "side", "turn")]
                   + [csv_cell(o.name()), o.estimate, o.stderr, lo, hi, "" if o.exact is None else float(o.exact),
                      "" if o.exact is None else str(o.exact), o.n])


def _announce(scenario, args) -> None:
    from .limits import safe_text

    print(f"hardpoint: running {args.trials:,} trials of {safe_text(scenario.name)} (seed {args.seed}); Ctrl-C stops and "
          "reports the trials done", file=sys.stderr, flush=True)
    if getattr(scenario, "ruleset", "") == "asl" and args.backend != "reference":
        if not _numba_cache_present("asl_numba"):
            print("hardpoint: compiling the ASL kernel (Numba), once: about 15 s; later runs load it from the cache",
                  file=sys.stderr, flush=True)


def _numba_cache_present(module: str, entries: tuple[str, ...] = ("run_serial", "run_parallel")) -> bool:
    """Whether Numba's cache holds the entry points of `hardpoint.fastcore.<module>` for its current source
    (an index file named after the function and its line, no older than the source)."""
    from importlib.util import find_spec

    spec = find_spec(f"hardpoint.fastcore.{module}")
    if spec is None or spec.origin is None:
        return True           # nothing to compile: the reference will run
    src = spec.origin
    try:
        lines = open(src, encoding="utf-8").read().splitlines()
        stamp = _os.path.getmtime(src)
    except OSError:
        return True
    folders = [_os.path.join(_os.path.dirname(src), "__pycache__")]
    if _os.environ.get("NUMBA_CACHE_DIR"):
        folders.append(_os.environ["NUMBA_CACHE_DIR"])
    for name in entries:
        line = next((i + 1 for i, text in enumerate(lines) if text.startswith(f"def {name}(")), None)
        if line is None:
            continue
        while line > 1 and lines[line - 2].startswith("@"):   # Numba names the file by the first decorator's line
            line -= 1
        found = [_os.path.join(f, f"{module}.{name}-{line}.py{sys.version_info[0]}{sys.version_info[1]}.nbi") for f in folders]
        if not any(_os.path.exists(p) and _os.path.getmtime(p) >= stamp for p in found):
            return False
    return True


def run_on_dask(scenario, args) -> BatchResult:
    """`hardpoint run --dask SCHEDULER|local`: the counted run on a Dask cluster, counts added up on the workers (FAST-03)."""
    from .distributed import DEFAULT_CHUNK, local_client, run_batch_dask

    backend = None if args.backend == "auto" else args.backend
    chunk = args.chunk or DEFAULT_CHUNK
    if args.dask == "local":
        if not (args.no_progress or args.json):
            print(f"starting a local Dask cluster of {args.threads or 2} workers", file=sys.stderr)
        with local_client(args.threads or 2) as client:
            return run_batch_dask(scenario, args.trials, args.seed, client=client, chunk=chunk, backend=backend,
                                  phase_only=args.phase_only)
    try:
        from distributed import Client
    except ImportError:
        from .errors import ScenarioError

        raise ScenarioError("Dask is not installed: pip install 'hardpoint[dask]'", field="--dask", value=args.dask,
                            rule="FAST-03") from None
    try:
        client = Client(args.dask, timeout=10)
    except (OSError, TimeoutError, ValueError) as exc:
        from .errors import ScenarioError

        raise ScenarioError(f"no Dask scheduler answers there ({exc})", field="--dask", value=args.dask, rule="FAST-03") from None
    with client:
        return run_batch_dask(scenario, args.trials, args.seed, client=client, chunk=chunk, backend=backend,
                              phase_only=args.phase_only)


def run_main(args) -> int:
    from .cli import DEFAULT_SCENARIO
    from .errors import ScenarioError

    name = args.scenario or DEFAULT_SCENARIO
    if args.scenario is None:
        print(f"no scenario given: running the built-in default ({DEFAULT_SCENARIO})", file=sys.stderr)
    scenario = load_scenario(name)
    if args.phase_only and getattr(scenario, "turns", None):
        raise ScenarioError(f"the scenario runs {scenario.turns} whole turns; --phase-only applies to one-phase scenarios",
                            field="--phase-only", value=True, rule="CLI-01")
    if args.phase_only and getattr(scenario, "ruleset", "") != "carwars":
        raise ScenarioError("--phase-only applies to Car Wars one-phase scenarios", field="--phase-only", value=True, rule="CLI-01")
    plot_path = getattr(args, "plot", None)
    if plot_path:   # a bad --plot file is an error now, before the run (SAFE-02)
        from .draw import picture_format

        picture_format(plot_path, "--plot")
        if _os.path.exists(plot_path) and not getattr(args, "overwrite", False):
            raise ScenarioError("file exists (add --overwrite to replace it)", field="--plot", value=plot_path, rule="SAFE-02")
    csv_file = open_csv(args.csv, getattr(args, "overwrite", False)) if args.csv else None

    def go(progress):
        return summarize(scenario, args.trials, args.seed, args.backend, args.threads, not args.phase_only, progress)

    dask = getattr(args, "dask", None)
    if getattr(args, "chunk", None) is not None and not dask:
        raise ScenarioError("--chunk sizes the tasks of a Dask run: give --dask too", field="--chunk", value=args.chunk,
                            rule="FAST-03")
    written = False
    _announce(scenario, args)
    try:
        if dask:
            result = run_on_dask(scenario, args)
        elif args.no_progress or args.json:
            result = go(None)
        else:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            lock = threading.Lock()
            with Progress(TextColumn("trials"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=False) as bar:
                task = bar.add_task("trials", total=args.trials)

                def advance(n: int) -> None:
                    with lock:
                        bar.advance(task, n)

                result = go(advance)
                bar.update(task, completed=result.trials)
        if args.json:
            print(json.dumps(result.to_dict(), indent=2))
        else:
            print_tables(result, scope(scenario, args.phase_only))
        if csv_file is not None:
            write_csv(csv_file, result)
            written = True
        if plot_path and not result.interrupted:
            from .plot import save_figure

            save_figure(run_chart(scenario, result, args.threads, not args.phase_only), plot_path,
                        getattr(args, "overwrite", False), "--plot")
            if not args.json:
                print(f"chart written to {plot_path}", file=sys.stderr)
    finally:
        if csv_file is not None:
            csv_file.close()
            if not written:  # nothing to keep: do not leave an empty file behind
                _os.unlink(csv_file.name)
    if result.interrupted:
        print(f"hardpoint: interrupted after {result.trials:,} of {result.requested:,} trials; the summary covers those",
              file=sys.stderr)
        return 130
    return 0
