"""``python -m tests.mutation``: the mutation campaign from the command line (run from the repository root)."""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from .operators import find_mutations
from .runner import Campaign, _key, score_table
from .workspace import HARDPOINT

# The reference rules (ARCH-03: "the executable statement of the rules"). Left out: loaders, validation and the
# object model (carwars/model, scenario, tables, enums; asl/units, scenario, tables, enums, events, chance), the
# batch and kernel wrappers (batch, asl/batch, lof, exact) and the API plumbing (cli, run, data, events, errors).
DEFAULT_MODULES = [
    "pyapi/dice.py",
    "pyapi/carwars/geometry.py",
    "pyapi/carwars/tohit.py",
    "pyapi/carwars/attack.py",
    "pyapi/carwars/damage.py",
    "pyapi/carwars/collision.py",
    "pyapi/carwars/crew.py",
    "pyapi/carwars/fire.py",
    "pyapi/carwars/dropped.py",
    "pyapi/carwars/special.py",
    "pyapi/carwars/terrain.py",
    "pyapi/carwars/phase.py",
    "pyapi/carwars/turn.py",
    "pyapi/asl/ift.py",
    "pyapi/asl/tohit.py",
    "pyapi/asl/morale.py",
    "pyapi/asl/motorcycles.py",
    "pyapi/asl/movement.py",
    "pyapi/asl/fire.py",
]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m tests.mutation",
        description="Mutation testing of hardpoint's reference rules. Copies the repository to a temporary "
                    "directory (the working tree is never written), maps each line to the tests that execute it "
                    "with coverage.py, runs every mutant against those tests and reports the score per module "
                    "and every survivor with the rule id of the code it sits in.")
    p.add_argument("modules", nargs="*", help="files to mutate, relative to the repository root "
                   "(default: the reference rule modules, see --list-modules)")
    p.add_argument("--list", action="store_true", help="list the mutants and exit (nothing is run)")
    p.add_argument("--list-modules", action="store_true", help="list the default modules and exit")
    p.add_argument("--equivalents", action="store_true",
                   help="print the listed equivalent mutants (tests/mutation/equivalent.json) as a markdown table and exit")
    p.add_argument("--sample", type=int, default=None, metavar="N", help="at most N mutants per module, drawn with --seed")
    p.add_argument("--seed", type=int, default=0, help="seed of --sample (default 0); same seed, same mutants")
    p.add_argument("--jobs", type=int, default=1, help="mutants run in parallel, each in its own copy (default 1)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds a mutant run may take beyond 3x its tests' measured time (default 60); over it the "
                        "mutant counts as killed (timeout)")
    p.add_argument("--rev", default=None, help="mutate this commit (git archive) instead of the working tree")
    p.add_argument("--include-differential", action="store_true",
                   help="select the reference-versus-kernel tests too (by default they are only run on survivors)")
    p.add_argument("--no-backstop", action="store_true", help="do not run survivors against the differential tests")
    p.add_argument("--only", default=None, metavar="IDS", help="comma-separated mutant ids (module:index) to run")
    p.add_argument("--rerun", nargs="+", default=None, metavar="REPORT",
                   help="run only the survivors of earlier report.json files, the rest of their results carried over")
    p.add_argument("--max-examples", type=int, default=None, metavar="N",
                   help="cap every hypothesis test at N examples in mutant runs (faster, weaker; default: as written)")
    p.add_argument("--tests", nargs="+", default=(), metavar="PATH",
                   help="select only among these test files or folders (a quick pass over a module's own tests)")
    p.add_argument("--map-tests", nargs="+", default=(), metavar="PATH",
                   help="build the coverage map from these test files or folders only, not the whole suite (much "
                        "quicker on a loaded machine; only tests among them can then be selected for a mutant, so "
                        "the score is at most the whole map's)")
    p.add_argument("--out", default="build/mutation", help="report folder (default build/mutation)")
    p.add_argument("--keep", action="store_true", help="keep the temporary copy (for debugging)")
    p.add_argument("--root", default=".", help="repository root (default: the current directory)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    repo = Path(args.root).resolve()
    if args.list_modules:
        print("\n".join(DEFAULT_MODULES))
        return 0
    if args.equivalents:
        from .report import equivalents_table
        from .runner import load_equivalents

        print(equivalents_table(load_equivalents()), end="")
        return 0
    modules = args.modules or list(DEFAULT_MODULES)
    for m in modules:
        if not (repo / m).is_file():
            print(f"error: {m} is not a file under {repo}", file=sys.stderr)
            return 2
        HARDPOINT.module_path(m)  # raises for a file outside the package folders
    only = None
    if args.only:
        only = set(args.only.split(","))
    if args.rerun:
        docs = [json.loads(Path(r).read_text()) for r in args.rerun]
        doc = {"header": docs[0]["header"], "mutants": [d for x in docs for d in x["mutants"]]}
        keys = {_rekey(d) for d in doc["mutants"] if d["status"] in ("survived", "uncovered")}
        only = (only or set()) | keys
        if not args.modules:
            modules = list(dict.fromkeys(d["module"] for d in doc["mutants"]))
    campaign = Campaign(repo=repo, layout=HARDPOINT, modules=modules, out=(repo / args.out), jobs=max(1, args.jobs),
                        timeout=args.timeout, sample=args.sample, seed=args.seed, rev=args.rev,
                        include_differential=args.include_differential, backstop=not args.no_backstop, only=only,
                        keep=args.keep, max_examples=args.max_examples, tests_only=tuple(args.tests),
                        map_tests=tuple(args.map_tests), log=lambda s: print(s, flush=True))
    if args.list:
        for module, ms in campaign.mutations().items():
            for m in ms:
                print(f"{m.id}\t{m.rule or '-'}\t{m.describe()}")
        return 0
    from .report import write_reports

    results = campaign.run()
    if args.rerun:
        # The mutants of the earlier report that were not run again keep their result, so the report covers them all.
        rerun = {_key(r.mutation) for r in results}
        results = [r for r in (_result(d) for d in doc["mutants"]) if _key(r.mutation) not in rerun] + results
        results.sort(key=lambda r: (modules.index(r.mutation.module) if r.mutation.module in modules else 99,
                                    r.mutation.index))
    command = "python -m tests.mutation " + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    sampling = None
    if args.rerun:
        sampling = (f"{'; '.join(x['header']['sampling'] for x in docs)}; the survivors of {', '.join(args.rerun)} "
                    "run again, the other results carried over")
    doc = write_reports(results, campaign.out, repo, command, campaign, sampling)
    print()
    print(f"{'module':40s} {'mutants':>7s} {'killed':>6s} {'timeout':>7s} {'survived':>8s} {'equiv':>5s} {'score':>7s} "
          f"{'+backstop':>9s}")
    for row in doc["modules"]:
        print(f"{row['module']:40s} {row['mutants']:7d} {row['killed']:6d} {row['timeout']:7d} {row['survived']:8d} "
              f"{row['equivalent']:5d} {100 * row['score']:6.1f}% {100 * row['score_with_backstop']:8.1f}%")
    print(f"\n{len(results)} mutants in {campaign.elapsed:.0f} s; reports: {campaign.out / 'report.md'}, "
          f"{campaign.out / 'report.json'}")
    return 0


def _result(d: dict):
    from .operators import Mutation
    from .runner import Result

    m = Mutation(d["module"], d["index"], d["operator"], d["line"], d["end_line"], tuple(d["start"]), tuple(d["end"]),
                 d["before"], d["after"], d["function"], d["rule"])
    return Result(m, d["status"], d["tests"], d["seconds"], d["killed_by"], d["selection"], d["backstop"], d["detail"])


def _rekey(d: dict) -> str:
    return f"{d['module']}@{d['start'][0]}:{d['start'][1]}-{d['end'][0]}:{d['end'][1]}={d['after']}"


__all__ = ["main", "DEFAULT_MODULES", "find_mutations", "score_table", "_key"]
