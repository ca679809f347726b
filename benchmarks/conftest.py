"""Shared helpers for the benchmarks (PERF-01).

Ratios are measured in one process, interleaved (best of N of A, then of B,
repeated), so machine noise hits both sides alike (ENGINEERING.md). Each
benchmark prints its ratios and stores them in pytest-benchmark's extra_info.
"""
import os
import time

import pytest

# HARDPOINT_BENCH_SCALE shrinks every benchmark's sizes (tests/test_perf_suite.py runs the suite at 1%).
SCALE = float(os.environ.get("HARDPOINT_BENCH_SCALE", "1"))


def scaled(n: int) -> int:
    return max(100, int(n * SCALE))


def best_of(fn, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def interleaved(a, b, rounds: int = 5, reps: int = 3) -> tuple[float, float]:
    """Best time of `a` and of `b`, measured in alternation."""
    ta = tb = float("inf")
    for _ in range(rounds):
        ta = min(ta, best_of(a, reps))
        tb = min(tb, best_of(b, reps))
    return ta, tb


@pytest.fixture
def report(benchmark, capsys):
    """Print a line of figures and keep them in the benchmark's extra_info."""
    def _report(name: str, **figures):
        benchmark.extra_info.update(figures)
        with capsys.disabled():
            print(f"\n[{name}] " + ", ".join(f"{k} = {v:.4g}" if isinstance(v, float) else f"{k} = {v}" for k, v in figures.items()))
    return _report
