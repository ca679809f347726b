"""The benchmark suite itself (PERF-01): it runs, and every benchmark prints its ratios."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not (ROOT / "benchmarks").is_dir(), reason="benchmarks/ not in this tree")
def test_perf_01_benchmarks_run_and_print_their_ratios():
    """PERF-01: `pytest benchmarks/` (here at 1% of the sizes) runs every benchmark once and each prints the ratios
    measured in the same run: kernel/floor, compiled/reference speed-up, two threads/one."""
    env = dict(os.environ, HARDPOINT_BENCH_SCALE="0.01")
    out = subprocess.run([sys.executable, "-m", "pytest", "benchmarks", "-q", "-s", "-p", "no:cacheprovider", "--benchmark-disable"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    for needle in ("kernel_over_floor", "speedup", "two_threads_s", "million_trials_s"):
        assert needle in out.stdout
