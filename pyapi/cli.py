"""The `hardpoint` command (CLI-01).

    hardpoint run [SCENARIO] [--trials N] [--seed S] [--json | --csv FILE] [--plot FILE]
    hardpoint explain SCENARIO [--json]
    hardpoint resolve SCENARIO --seed N [--json]
    hardpoint draw SCENARIO [--turn T --phase P] [-o arena.svg|png]
    hardpoint report SCENARIO -o report.html [--trials N] [--seed S]
    hardpoint scenarios            # list the built-in scenarios
    hardpoint schema               # print the scenario JSON Schema
    hardpoint serve --stdio        # JSON requests, one a line (docs/protocol.md); --http HOST:PORT for HTTP
    hardpoint capi build --out DIR # the C library libhardpoint and hardpoint.h (docs/capi.md)

SCENARIO is a .toml/.json file, `builtin:<name>`, or `-` for standard input.

The command never prints a traceback (SAFE-02): bad input prints one line
naming the field, the value and the rule and exits 2; Ctrl-C exits 130 (a run
reports the trials it finished); a closed pipe ends the command quietly; an
internal error prints one line (the traceback only with HARDPOINT_DEBUG=1)
and exits 70.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Sequence

from .errors import HardpointError
from .limits import MAX_SEED, MAX_THREADS, MAX_TRIALS, check_seed, check_threads, check_trials, safe_text

DEFAULT_SCENARIO = "builtin:default"
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130
EXIT_PIPE = 141


def out(text: str) -> None:
    """Print text for a person: control characters escaped (SAFE-02)."""
    print(safe_text(text))


def _cmd_explain(args) -> int:
    from .scenario import load_scenario

    scenario = load_scenario(args.scenario)
    if args.json:
        from .documents import explain_document

        print(json.dumps(explain_document(scenario), indent=2))
    else:
        out(scenario.render_explain())
    return 0


def _cmd_resolve(args) -> int:
    from .dice import SeededDice
    from .scenario import load_scenario

    scenario = load_scenario(args.scenario)
    result = scenario.resolve(SeededDice(args.seed), seed=args.seed)
    if args.json:
        from .documents import resolve_document

        print(json.dumps(resolve_document(result), indent=2))
    else:
        out(f"scenario: {scenario.name} (seed {args.seed})")
        out(scenario.render_resolve(result))
    return 0


def _cmd_run(args) -> int:
    from .run import run_main

    return run_main(args)


def _cmd_scenarios(args) -> int:
    from .scenario import builtin_scenarios

    for name in builtin_scenarios():
        print(f"builtin:{name}")
    return 0


def _cmd_schema(args) -> int:
    from .scenario import scenario_schema

    if getattr(args, "markdown", False):
        from .schema_doc import schema_markdown

        print(schema_markdown(), end="")
        return 0
    print(json.dumps(scenario_schema(), indent=2))
    return 0


def _cmd_draw(args) -> int:
    from .draw import arena_svg, open_output, picture_bytes, picture_format
    from .scenario import load_scenario

    fmt = picture_format(args.output) if args.output else "svg"
    if args.output and os.path.exists(args.output) and not args.overwrite:   # refused before any work (SAFE-02)
        open_output(args.output, False)
    scenario = load_scenario(args.scenario)
    svg = arena_svg(scenario, args.turn, args.phase, scale=args.scale)
    if not args.output:
        sys.stdout.write(svg)
        return 0
    data = picture_bytes(svg, fmt)
    with open_output(args.output, args.overwrite) as fh:
        fh.write(data)
    print(f"picture written to {safe_text(args.output)}", file=sys.stderr)
    return 0


def _cmd_report(args) -> int:
    from .draw import open_output
    from .report import report_html
    from .scenario import load_scenario

    if not args.output.lower().endswith((".html", ".htm")):
        raise _bad_value("the file name must end in .html", "-o", args.output)
    if os.path.exists(args.output) and not args.overwrite:   # refused before any work (SAFE-02)
        open_output(args.output, False)
    if args.trials is not None and args.trials < 1:
        raise _bad_value("must be at least 1", "--trials", args.trials)
    scenario = load_scenario(args.scenario)
    page = report_html(scenario, trials=args.trials, seed=args.seed, backend=args.backend)
    with open_output(args.output, args.overwrite) as fh:
        fh.write(page.encode("utf-8"))
    print(f"report written to {safe_text(args.output)}", file=sys.stderr)
    return 0


def _bad_value(message: str, field: str, value) -> HardpointError:
    """A bad command-line value for the picture commands (PIC-01..03)."""
    from .errors import ScenarioError

    return ScenarioError(message, field=field, value=value, rule="PIC-03")


def _positive(value: int, field: str) -> int:
    from .errors import ScenarioError

    if value < 1:
        raise ScenarioError("must be at least 1", field=field, value=value, rule="PIC-01")
    return value


def _chunk_arg(n: int) -> int:
    from .limits import check_chunk

    return check_chunk(n, "--chunk", "FAST-03")


def _arg(check, what: str):
    """An argparse type that runs a limits check, so a bad value is refused before anything runs."""
    def convert(text: str):
        try:
            value = int(text, 0)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        try:
            return check(value)
        except HardpointError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = what
    return convert


def _text_arg(check, what: str):
    """An argparse type for a text or decimal option: the check's HardpointError becomes argparse's message."""
    def convert(text: str):
        try:
            return check(text)
        except HardpointError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = what
    return convert


def _version() -> str:
    from . import __version__

    return f"hardpoint {__version__}"


class _Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    pass


def _fight_options(p: argparse.ArgumentParser, trials: int) -> None:
    from .duel import ASPECTS, DEFAULT_TACTICS, parse_tactics

    p.add_argument("--range", dest="range_", type=float, default=8.0, help="inches between the two counters' centres")
    p.add_argument("--aspect", choices=list(ASPECTS), default="head-on",
                   help="head-on: B ahead coming the other way; tail-chase: B ahead going the same way; broadside: B "
                        "ahead across A's path; parallel: side by side")
    p.add_argument("--speed", type=float, default=0.0, help="both vehicles' speed, mph")
    p.add_argument("--turns", type=int, default=20, help="the turn cap: the fight stops when decided or after this many turns")
    p.add_argument("--trials", type=_arg(lambda v: check_trials(v, 0, "--trials")[0], "trials"), default=trials,
                   help="independent fights")
    p.add_argument("--seed", type=_arg(lambda v: check_seed(v, "--seed"), "seed"), default=1, help="seed of the dice")
    p.add_argument("--threads", type=_arg(lambda v: check_threads(v, "--threads"), "threads"), default=None,
                   help="worker threads for the compiled core (default: all cores)")
    p.add_argument("--tactics", default=DEFAULT_TACTICS, type=_text_arg(lambda v: parse_tactics(v) and v, "tactics"),
                   help="the movement orders (FIGHT-07): one tactic for both, or A's and B's separated by a comma, of "
                        "hold_course, pursue, keep_range, bring_to_bear (pursue and bring the weapons to bear), evade, or "
                        "none (no movement order: straight on, outside the handling rules)")
    p.add_argument("--drops", action="store_true",
                   help="the duellists' orders also drop their dropped weapons (mines, spikes, oil, smoke) when the other "
                        "follows within range (FIGHT-10)")
    p.add_argument("--precision", type=_text_arg(_precision, "precision"), default=None,
                   help="run on (trials numbered on from --trials) until every probability's 95%% interval is at most "
                        "this either side (FIGHT-11)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _precision(text: str) -> float:
    from .errors import ScenarioError

    try:
        value = float(text)
    except ValueError:
        raise ScenarioError("expected a number", field="--precision", value=text, rule="FIGHT-11") from None
    if not 1e-6 <= value <= 0.5:
        raise ScenarioError("a half-width from 0.000001 to 0.5", field="--precision", value=value, rule="FIGHT-11")
    return value


def _duel_parsers(sub) -> None:
    design = "a stock design (seeds/carwars/designs.toml) or a .toml/.json scenario file of one vehicle"
    d = sub.add_parser("duel", help="two designs fight to the finish: who wins, how often, how fast (FIGHT-06)",
                       description="Build a duel of two designs (each fires every weapon at the other every turn) and "
                                   "run it: who wins, when each goes out, what each weapon did.", formatter_class=_Formatter)
    d.add_argument("a", help=design)
    d.add_argument("b", help=design)
    _fight_options(d, 100_000)
    d.set_defaults(func=_cmd_duel)
    c = sub.add_parser("compare", help="every pair of several designs: the matrix of win probabilities (FIGHT-06)",
                       formatter_class=_Formatter)
    c.add_argument("designs", nargs="+", help=design)
    _fight_options(c, 20_000)
    c.set_defaults(func=_cmd_compare)
    w = sub.add_parser("sweep", help="who wins over range x aspect x speed: a table, a heatmap, JSON (FIGHT-12)",
                       description="Fight the duel of two designs at every range, aspect and speed of a grid and show "
                                   "who wins in each.", formatter_class=_Formatter)
    w.add_argument("a", help=design)
    w.add_argument("b", help=design)
    w.add_argument("--ranges", type=_text_arg(lambda v: _numbers(v, "--ranges"), "ranges"), default="4,8,12,16",
                   help="ranges, inches, comma-separated")
    w.add_argument("--aspects", type=_text_arg(lambda v: _aspects(v), "aspects"), default="all",
                   help="aspects, comma-separated, or all")
    w.add_argument("--speeds", type=_text_arg(lambda v: _numbers(v, "--speeds"), "speeds"), default="0,20,40,60",
                   help="speeds, mph, comma-separated")
    w.add_argument("--heatmap", default=None, help="also draw the heatmap to this .svg or .png file")
    w.add_argument("--overwrite", action="store_true", help="replace the heatmap file if it exists")
    _fight_options(w, 10_000)
    w.set_defaults(func=_cmd_sweep)


def _numbers(text, field: str) -> tuple[float, ...]:
    from .errors import ScenarioError

    if isinstance(text, tuple):
        return text
    try:
        return tuple(float(x) for x in str(text).split(","))
    except ValueError:
        raise ScenarioError("comma-separated numbers", field=field, value=text, rule="FIGHT-12") from None


def _aspects(text) -> tuple[str, ...]:
    from .duel import ASPECTS
    from .errors import ScenarioError

    if isinstance(text, tuple):
        return text
    if text == "all":
        return tuple(ASPECTS)
    out = tuple(x.strip() for x in str(text).split(","))
    for x in out:
        if x not in ASPECTS:
            raise ScenarioError(f"expected all or some of {', '.join(ASPECTS)}", field="--aspects", value=x, rule="FIGHT-12")
    return out


def _cmd_sweep(args) -> int:
    from .draw import open_output
    from .sweep import heatmap, print_sweep, sweep

    ranges, aspects, speeds = _numbers(args.ranges, "--ranges"), _aspects(args.aspects), _numbers(args.speeds, "--speeds")
    if args.heatmap is not None:
        from .draw import picture_format

        picture_format(args.heatmap, "--heatmap")
        open_output(args.heatmap, args.overwrite, "--heatmap").close()     # a bad path fails now, not after the run
    cells = len(ranges) * len(aspects) * len(speeds)
    run = dict(trials=args.trials, seed=args.seed, turns=args.turns, tactics=args.tactics, drops=args.drops,
               precision=args.precision, threads=args.threads)
    if args.no_progress or args.json:
        result = sweep(args.a, args.b, ranges, aspects, speeds, **run)
    else:
        bar, advance = _progress_bar(cells, "duels")
        with bar:
            result = sweep(args.a, args.b, ranges, aspects, speeds, progress=advance, **run)
    if args.heatmap is not None:
        from .plot import save_figure

        save_figure(heatmap(result), args.heatmap, overwrite=True, field_name="--heatmap")
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print_sweep(result)
    return 0


def _progress_bar(total: int, label: str):
    """A rich progress bar's context and an advance(n) callback, or (None, None) when not wanted."""
    import threading

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=False)
    task = bar.add_task(label, total=total)
    lock = threading.Lock()

    def advance(n: int) -> None:
        with lock:
            bar.advance(task, n)

    return bar, advance


def _cmd_duel(args) -> int:
    from .duel import build_duel
    from .run import print_tables

    scenario = build_duel(args.a, args.b, args.range_, args.aspect, args.speed, args.turns, tactics=args.tactics,
                          drops=args.drops)
    result, note = _fights(scenario, args, "fights")
    if args.json:
        doc = result.to_dict()
        if args.precision is not None:
            doc["precision"] = note
        print(json.dumps(doc, indent=2))
    else:
        print_tables(result, f"up to {args.turns} turns of fighting")
        if note is not None:
            print(note["text"])
    return 130 if result.interrupted else 0


def _fights(scenario, args, label: str):
    """A batch of fights for a command: `--trials` of them, or with `--precision` as many as it takes (FIGHT-11);
    a progress bar unless asked not to. Returns the result and, with --precision, what was reached."""
    from .api import run_batch
    from .precision import run_to_precision

    def run(progress):
        if args.precision is None:
            return run_batch(scenario, args.trials, args.seed, keep="summary", threads=args.threads, progress=progress), None
        p = run_to_precision(scenario, args.precision, args.seed, args.trials, threads=args.threads, progress=progress)
        text = (f"every probability within ±{p.precision:g} (95%): the worst is ±{p.worst:.2g} after {p.result.trials:,} trials"
                if p.reached else f"precision ±{p.precision:g} not reached: the worst interval is ±{p.worst:.2g} after "
                                  f"{p.result.trials:,} trials (the most it runs)")
        return p.result, {"asked": p.precision, "worst": p.worst, "reached": p.reached, "text": text}

    if args.no_progress or args.json:
        return run(None)
    bar, advance = _progress_bar(args.trials if args.precision is None else None, label)
    with bar:
        return run(advance)


def _cmd_compare(args) -> int:
    from .duel import compare

    result = compare(args.designs, args.trials, args.seed, range_=args.range_, aspect=args.aspect, speed=args.speed,
                     turns=args.turns, threads=args.threads, tactics=args.tactics, drops=args.drops, precision=args.precision)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .results import shown_probability

    fights = (f"{args.trials:,} fights a pair" if args.precision is None
              else f"fights a pair until ±{args.precision:g} ({min(result.counts):,} to {max(result.counts):,})")
    table = Table(title=Text(f"P(row beats column): {args.aspect} at {args.range_:g} inches, {args.speed:g} mph, tactics "
                             f"{args.tactics}, up to {args.turns} turns; {fights}, the row's design first (A); 95% interval "
                             "below"), title_justify="left")
    table.add_column("")
    for d in result.designs:
        table.add_column(Text(safe_text(d)), justify="right")
    for i, a in enumerate(result.designs):
        cells = []
        for j in range(len(result.designs)):
            if i == j:
                cells.append("-")
            else:
                shown, interval = shown_probability(result.wins[i][j], result.n[i][j], digits=3)
                cells.append(f"{shown}\n{interval}")
        table.add_row(Text(safe_text(a)), *cells)
    Console().print(table)
    return 0


def _cmd_serve(args) -> int:
    if args.http is not None:
        from .web import serve_http

        return serve_http(args.http, max_trials=args.max_trials, max_body=args.max_body, max_jobs=args.max_jobs)
    from .serve import serve_stdio

    return serve_stdio(max_trials=args.max_trials, max_line=args.max_body, max_jobs=args.max_jobs)


def _at_least_one(value: int, field: str) -> int:
    from .errors import ScenarioError

    if not 1 <= value <= 2**31 - 1:
        raise ScenarioError("must be from 1 to 2**31-1", field=field, value=value, rule="PROTO-02")
    return value


def _serve_parser(sub) -> None:
    from .protocol import MAX_REQUEST_BYTES

    v = sub.add_parser("serve", help="answer JSON requests: lines on standard input (--stdio) or HTTP (--http)",
                       description="Serve the protocol of docs/protocol.md (PROTO-02, PROTO-03): explain, resolve, run, "
                       "exact, duel, schema and version requests as JSON lines on standard input and output, or over "
                       "HTTP (needs pip install 'hardpoint[server]').", formatter_class=_Formatter)
    how = v.add_mutually_exclusive_group(required=True)
    how.add_argument("--stdio", action="store_true", help="one request a line on standard input, one response a line out")
    how.add_argument("--http", metavar="HOST:PORT", nargs="?", const="127.0.0.1:8765", default=None,
                     help="an HTTP server (loopback unless a HOST is given)")
    v.add_argument("--max-trials", type=_arg(lambda v: check_trials(v, 0, "--max-trials")[0], "trials"),
                   default=MAX_TRIALS, help="the most trials one request may ask for")
    v.add_argument("--max-body", type=_arg(lambda v: _at_least_one(v, "--max-body"), "bytes"), default=MAX_REQUEST_BYTES,
                   help="the longest request line or body, bytes")
    v.add_argument("--max-jobs", type=_arg(lambda v: _at_least_one(v, "--max-jobs"), "jobs"), default=4,
                   help="runs at once (more wait their turn)")
    v.set_defaults(func=_cmd_serve)


def build_parser() -> argparse.ArgumentParser:
    scen = "a .toml or .json scenario file, builtin:<name> (see `hardpoint scenarios`), or - for standard input"
    p = argparse.ArgumentParser(prog="hardpoint", description="Combat resolution for Car Wars and ASL D15: every die, "
                                "every modifier with its rule id, every point of damage.", formatter_class=_Formatter)
    p.add_argument("--version", action="version", version=_version())
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    r = sub.add_parser("run", help="run N trials of a scenario and print a summary (default: the built-in firefight)",
                       description="Run N independent trials of a scenario on the compiled core and print a summary.",
                       formatter_class=_Formatter)
    r.add_argument("scenario", nargs="?", default=None, help=f"{scen}; default {DEFAULT_SCENARIO}")
    r.add_argument("--trials", type=_arg(lambda v: check_trials(v, 0, "--trials")[0], "trials"), default=1_000_000,
                   help=f"number of independent trials, 1 to {MAX_TRIALS:,}")
    r.add_argument("--seed", type=_arg(lambda v: check_seed(v, "--seed"), "seed"), default=1,
                   help=f"seed of the dice (0 to {MAX_SEED}); trial t rolls the dice of (seed, t)")
    r.add_argument("--json", action="store_true", help="print the summary as JSON")
    r.add_argument("--csv", metavar="FILE", help="also write the summary as CSV to FILE (a new file)")
    r.add_argument("--overwrite", action="store_true", help="let --csv and --plot replace an existing file")
    r.add_argument("--plot", metavar="FILE", help="also draw the chart of the run to FILE (.svg or .png, a new file): rates "
                   "against the exact odds, damage distributions; needs pip install 'hardpoint[plot]'")
    r.add_argument("--backend", choices=["auto", "compiled", "reference"], default="auto",
                   help="which implementation runs the trials (auto: compiled where it covers the scenario)")
    r.add_argument("--threads", type=_arg(lambda v: check_threads(v, "--threads"), "threads"), default=None,
                   help=f"worker threads for the compiled core, 1 to {MAX_THREADS} (default: all cores)")
    r.add_argument("--phase-only", action="store_true",
                   help="one-phase scenarios: stop after the combat phase (skip the end-of-turn fire checks)")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")
    r.add_argument("--dask", metavar="SCHEDULER", default=None,
                   help="run the chunks on a Dask cluster: a scheduler address (tcp://host:8786) or 'local' (a local "
                        "cluster of --threads workers); counts are added up on the workers (needs hardpoint[dask])")
    r.add_argument("--chunk", type=_arg(_chunk_arg, "chunk"), default=None,
                   help="trials a Dask task runs (default 1,000,000)")
    r.set_defaults(func=_cmd_run)
    e = sub.add_parser("explain", help="to-hit breakdown of every declared attack, without rolling", formatter_class=_Formatter)
    e.add_argument("scenario", help=scen)
    e.add_argument("--json", action="store_true", help="print the breakdowns as JSON")
    e.set_defaults(func=_cmd_explain)
    s = sub.add_parser("resolve", help="roll one trial of the scenario and print the event log", formatter_class=_Formatter)
    s.add_argument("scenario", help=scen)
    s.add_argument("--seed", type=_arg(lambda v: check_seed(v, "--seed"), "seed"), required=True,
                   help=f"seed of the dice (0 to {MAX_SEED}); the same seed gives the same log")
    s.add_argument("--json", action="store_true", help="print the result and event log as JSON")
    s.set_defaults(func=_cmd_resolve)
    d = sub.add_parser("draw", help="draw the arena: counters, arcs, lines of fire, movement (SVG or PNG)",
                       description="Draw the arena of a scenario at a moment, to scale (PIC-01). Without --phase, a "
                       "scenario of several turns is drawn at the start of the turn with every attack planned that turn.",
                       formatter_class=_Formatter)
    d.add_argument("scenario", help=scen)
    d.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="write the picture to FILE, .svg or .png (a new file); default: the SVG on standard output")
    d.add_argument("--turn", type=_arg(lambda v: _positive(v, "--turn"), "turn"), default=None,
                   help="the turn to draw (scenarios of several turns; default: the first)")
    d.add_argument("--phase", type=_arg(lambda v: _positive(v, "--phase"), "phase"), default=None,
                   help="draw the positions after this phase's movement, with this phase's attacks")
    d.add_argument("--scale", type=_arg(lambda v: _positive(v, "--scale"), "scale"), default=64,
                   help="pixels to the inch (4 to 400); a very large map is drawn smaller")
    d.add_argument("--overwrite", action="store_true", help="let -o replace an existing file")
    d.set_defaults(func=_cmd_draw)
    rp = sub.add_parser("report", help="one self-contained HTML page: arena, explain tables, run, charts, event log",
                        description="Write one self-contained HTML page about a scenario (PIC-03): the arena picture, "
                        "the explain tables with rule ids, a run's outcome table and charts, and the event log of one "
                        "seeded resolution. It needs no network to view.", formatter_class=_Formatter)
    rp.add_argument("scenario", help=scen)
    rp.add_argument("-o", "--output", metavar="FILE", required=True, help="the HTML file to write (a new file)")
    rp.add_argument("--trials", type=_arg(lambda v: check_trials(v, 0, "--trials")[0], "trials"), default=None,
                    help=f"trials of the run, 1 to {MAX_TRIALS:,} (default: 20,000 where a compiled kernel runs the "
                    "scenario, 2,000 where only the reference does)")
    rp.add_argument("--seed", type=_arg(lambda v: check_seed(v, "--seed"), "seed"), default=1,
                    help=f"seed of the run and of the resolution shown (0 to {MAX_SEED})")
    rp.add_argument("--backend", choices=["auto", "compiled", "reference"], default="auto",
                    help="which implementation runs the trials")
    rp.add_argument("--overwrite", action="store_true", help="let -o replace an existing file")
    rp.set_defaults(func=_cmd_report)
    _duel_parsers(sub)
    _serve_parser(sub)
    sub.add_parser("scenarios", help="list the built-in scenarios").set_defaults(func=_cmd_scenarios)
    sc = sub.add_parser("schema", help="print the scenario JSON Schema", formatter_class=_Formatter)
    sc.add_argument("--markdown", action="store_true", help="print every key as a Markdown reference (docs/scenarios.md)")
    sc.set_defaults(func=_cmd_schema)
    _capi_parsers(sub)
    return p


def _capi_parsers(sub) -> None:
    ca = sub.add_parser("capi", help="the C interface: build libhardpoint and hardpoint.h (CAPI-01, docs/capi.md)",
                        formatter_class=_Formatter)
    casub = ca.add_subparsers(dest="capi_command", required=True, metavar="ACTION")
    cb = casub.add_parser("build", help="write libhardpoint (shared library) and hardpoint.h for this hardpoint",
                          formatter_class=_Formatter)
    cb.add_argument("--out", metavar="DIR", required=True, help="the folder to write them to (made if missing)")
    cb.add_argument("--verbose", action="store_true", help="show the compiler's commands")
    cb.set_defaults(func=_cmd_capi_build)


def _cmd_capi_build(args) -> int:
    from .capi import build

    library = build(args.out, verbose=args.verbose)
    print(f"wrote {safe_text(str(library))} and {safe_text(os.path.join(args.out, 'hardpoint.h'))}")
    return 0


def _quiet_pipe() -> int:
    # The reader went away: point stdout at /dev/null so the interpreter's final flush cannot fail again.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_PIPE


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings as one line for a person (never the line of source code Python shows by default)."""
    print(f"hardpoint: warning: {safe_text(message)}", file=file or sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return its exit status (0, 2 bad input, 70 internal error, 130 interrupted, 141 closed pipe)."""
    import warnings

    shown, warnings.showwarning = warnings.showwarning, _show_warning
    try:
        return _main(argv)
    finally:
        warnings.showwarning = shown


def _main(argv: Sequence[str] | None) -> int:
    try:
        args = build_parser().parse_args(argv)
        status = args.func(args)
        sys.stdout.flush()
        return status
    except HardpointError as exc:
        print(f"hardpoint: error: {safe_text(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("hardpoint: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return _quiet_pipe()
    except Exception as exc:  # a bug: one line, never a traceback unless asked for
        if os.environ.get("HARDPOINT_DEBUG"):
            raise
        print(f"hardpoint: internal error: {type(exc).__name__}: {safe_text(exc)} "
              "(please report it; HARDPOINT_DEBUG=1 shows the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
