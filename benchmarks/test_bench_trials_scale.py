"""Batches as they grow (FAST-03, issue 15): trials 10^3..10^8 of the default scenario, time and peak memory.

Each run is a fresh process (`hardpoint.run_batch` on `builtin:default`, two
threads), so its peak resident size (ru_maxrss) is its own; the first line is
the process with the scenario loaded and nothing run, the floor every run
starts from. Modes: summary (counted: the default of `hardpoint run`, and of
`run_batch` past 1,000,000 trials), arrays kept in memory (up to 10^7: 10^8
would take 22 GB, refused before it runs on a smaller machine), and arrays
streamed to .npy files (`out=`). Target: memory flat in the trials for
summary and streamed runs. 10^8 streamed writes 22 GB and takes minutes: set
HARDPOINT_BENCH_HUGE=1 to include it.
Run: `pytest benchmarks/test_bench_trials_scale.py -s`.
"""
import json
import os
import subprocess
import sys
import tempfile

import pytest

from .conftest import SCALE

pytest.importorskip("hardpoint.fastcore._carwars")

SCRIPT = r"""
import json, resource, sys, time
import hardpoint
s = hardpoint.load_scenario("builtin:default")
n, keep, out = int(sys.argv[1]), sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else None)
t = time.perf_counter()
if n:
    r = hardpoint.run_batch(s, n, seed=1, keep=keep, threads=2, out=out)
    assert r.trials == n
print(json.dumps({"seconds": time.perf_counter() - t, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

HUGE = os.environ.get("HARDPOINT_BENCH_HUGE") == "1"
SIZES = [10 ** k for k in range(3, 9)] if SCALE >= 1 else [10 ** 3]


def _one(n: int, keep: str, out: str | None = None) -> dict:
    args = [sys.executable, "-c", SCRIPT, str(n), keep] + ([out] if out else [])
    done = subprocess.run(args, capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_fast_03_trials_scale_in_time_and_memory(benchmark, report):
    base = _one(0, "summary")
    report("loaded, nothing run", peak_mb=base["peak_mb"])
    for n in SIZES:
        s = _one(n, "summary")
        report(f"{n:,} trials, summary", seconds=s["seconds"], trials_per_s=n / s["seconds"], peak_mb=s["peak_mb"])
        if n <= 10 ** 7:
            a = _one(n, "arrays")
            report(f"{n:,} trials, arrays in memory", seconds=a["seconds"], peak_mb=a["peak_mb"])
        if n < 10 ** 8 or HUGE:
            with tempfile.TemporaryDirectory() as folder:
                f = _one(n, "arrays", os.path.join(folder, "run"))
            report(f"{n:,} trials, arrays streamed to .npy", seconds=f["seconds"], peak_mb=f["peak_mb"])
    benchmark.pedantic(lambda: _one(SIZES[0], "summary"), rounds=1, iterations=1)
