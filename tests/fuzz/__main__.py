"""The long fuzzing run (SAFE-04): `python -m tests.fuzz --examples 50000`.

Draws documents from the schema and from mutations of the built-ins, runs each
through tests.fuzz.harness.exercise, prints what stage they reached, and
writes every failing document to tests/fuzz/fixtures/ (`--save`) so that it
becomes a regression fixture run by every test run.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import sys
import time
import warnings
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed as hseed, settings

import hardpoint

from .harness import FuzzFailure, exercise
from .strategies import from_schema, mutated_builtin

FIXTURES = Path(__file__).parent / "fixtures"


def save(doc, message: str) -> Path:
    text = json.dumps(doc, sort_keys=True, default=str)
    name = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    path = FIXTURES / f"{name}.json"
    path.write_text(json.dumps({"failure": message.splitlines()[0][:300], "document": doc}, indent=1, sort_keys=True,
                               default=str) + "\n", encoding="utf-8")
    return path


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--examples", type=int, default=20_000, help="documents per family (schema, mutants)")
    p.add_argument("--seed", type=int, default=0, help="hypothesis seed (the same seed draws the same documents)")
    p.add_argument("--family", choices=["schema", "mutants", "both"], default="both")
    p.add_argument("--no-batch", action="store_true", help="skip the batch backends (faster)")
    p.add_argument("--save", action="store_true", help="write failing documents to tests/fuzz/fixtures/")
    p.add_argument("--lenient", action="store_true", help="let a HardpointError after loading pass (only crashes fail)")
    args = p.parse_args(argv)
    warnings.simplefilter("ignore")
    families = {"schema": from_schema(hardpoint.scenario_schema()), "mutants": mutated_builtin()}
    stats: collections.Counter[str] = collections.Counter()
    failures: dict[str, tuple] = {}
    for name, strategy in families.items():
        if args.family not in (name, "both"):
            continue
        start = time.perf_counter()

        @hseed(args.seed)
        @settings(max_examples=args.examples, deadline=None, database=None, suppress_health_check=list(HealthCheck),
                  phases=[Phase.generate])
        @given(strategy)
        def run(doc):
            try:
                stats[f"{name}: {exercise(doc, batches=not args.no_batch, strict=not args.lenient)}"] += 1
            except FuzzFailure as exc:
                key = str(exc).splitlines()[0][:160]
                stats[f"{name}: FAILURE"] += 1
                failures.setdefault(key, (doc, str(exc)))

        run()
        print(f"{name}: {args.examples} documents in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    for k, v in sorted(stats.items()):
        print(f"{v:8d}  {k}")
    for key, (doc, message) in failures.items():
        print("-" * 72)
        print(message[:1500])
        if args.save:
            print(f"saved {save(doc, message)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
