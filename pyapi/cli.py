"""The `hardpoint` command (CLI-01).

    hardpoint run [SCENARIO] [--trials N] [--seed S] [--json | --csv FILE]
    hardpoint explain SCENARIO [--json]
    hardpoint resolve SCENARIO --seed N [--json]
    hardpoint scenarios            # list the built-in scenarios
    hardpoint schema               # print the scenario JSON Schema

SCENARIO is a .toml/.json file or `builtin:<name>`. Errors print one line
naming the field and the rule, and exit with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from .dice import SeededDice
from .errors import HardpointError
from .scenario import builtin_scenarios, load_scenario, scenario_schema

DEFAULT_SCENARIO = "builtin:default"


def _cmd_explain(args) -> int:
    scenario = load_scenario(args.scenario)
    if args.json:
        print(json.dumps([b.to_dict() for b in scenario.explain()], indent=2))
    else:
        print(scenario.render_explain())
    return 0


def _cmd_resolve(args) -> int:
    scenario = load_scenario(args.scenario)
    result = scenario.resolve(SeededDice(args.seed), seed=args.seed)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(f"scenario: {scenario.name} (seed {args.seed})")
        print(scenario.render_resolve(result))
    return 0


def _cmd_run(args) -> int:
    from .run import run_main

    return run_main(args)


def _cmd_scenarios(args) -> int:
    for name in builtin_scenarios():
        print(f"builtin:{name}")
    return 0


def _cmd_schema(args) -> int:
    print(json.dumps(scenario_schema(), indent=2))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hardpoint", description="Combat resolution for Car Wars and ASL D15.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run N trials of a scenario and print a summary (default: the built-in firefight)")
    r.add_argument("scenario", nargs="?", default=None, help=f"scenario file or builtin:<name> (default {DEFAULT_SCENARIO})")
    r.add_argument("--trials", type=int, default=1_000_000)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--json", action="store_true", help="print the summary as JSON")
    r.add_argument("--csv", metavar="FILE", help="also write the summary as CSV")
    r.add_argument("--backend", choices=["auto", "compiled", "reference"], default="auto")
    r.add_argument("--threads", type=int, default=None, help="worker threads for the compiled core (default: all cores)")
    r.add_argument("--phase-only", action="store_true", help="stop after the combat phase (skip the end-of-turn fire checks)")
    r.add_argument("--no-progress", action="store_true")
    r.set_defaults(func=_cmd_run)
    e = sub.add_parser("explain", help="to-hit breakdown of every declared attack, without rolling")
    e.add_argument("scenario")
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=_cmd_explain)
    s = sub.add_parser("resolve", help="roll one trial of the scenario and print the event log")
    s.add_argument("scenario")
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_resolve)
    sub.add_parser("scenarios", help="list the built-in scenarios").set_defaults(func=_cmd_scenarios)
    sub.add_parser("schema", help="print the scenario JSON Schema").set_defaults(func=_cmd_schema)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except HardpointError as exc:
        print(f"hardpoint: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
