"""ASL benchmarks (PERF-01, ARCH-03): the compiled fire-chain kernel (Numba) on the D15.55 example against the
reference, and against a floor loop that only draws the same dice.

Run: `pytest benchmarks/test_bench_asl.py` (README: regression runs with autosave and compare-fail).
Ratios are measured in one process, interleaved (conftest.interleaved), so machine noise hits both sides.
"""
import numpy as np
import pytest

import hardpoint

from .conftest import interleaved, scaled

kernel = pytest.importorskip("hardpoint.fastcore.asl_numba")

from hardpoint.asl.batch import _KERNEL_ORDER, _OUT_ORDER, _empty, pack_asl, reference_rows, run_asl_batch  # noqa: E402

N = scaled(1_000_000)


def _d15_55():
    return hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")


def _kernel_calls(scenario, n):
    """The serial and the parallel kernel on preallocated arrays (no packing, no allocation in the timing), and the
    number of dice each trial draws (from a first run)."""
    p = pack_asl(scenario)
    args = [p.arrays[k] for k in _KERNEL_ORDER]
    out = _empty(p, n)
    outs = [out[k] for k in _OUT_ORDER]
    import numba

    blocks = 8 * numba.get_num_threads()
    serial = lambda: kernel.run_serial(np.uint64(1), np.uint64(0), n, *args, *outs)
    parallel = lambda: kernel.run_parallel(np.uint64(1), np.uint64(0), n, *args, *outs, blocks)
    serial()
    parallel()
    return serial, parallel, out["dice"].astype(np.int64)


def test_perf_asl_kernel_against_the_floor(benchmark, report):
    """PERF-01, ARCH-03: the D15.55 attack (To Hit, IFT, Random Selection, MCs, Bail Out, counter substitution) per
    trial, against a floor loop drawing exactly the same number of faces for each trial and adding them up; serial
    against serial, parallel against parallel."""
    s = _d15_55()
    serial, parallel, counts = _kernel_calls(s, N)
    floor_s = lambda: kernel.floor_serial(np.uint64(1), np.uint64(0), counts)
    floor_p = lambda: kernel.floor_parallel(np.uint64(1), np.uint64(0), counts)
    floor_s()
    floor_p()
    t_kernel, t_floor = interleaved(serial, floor_s)
    t_kernel_p, t_floor_p = interleaved(parallel, floor_p)
    benchmark.pedantic(serial, rounds=3, iterations=1)
    report("asl kernel vs floor", trials_per_s_millions=N / t_kernel / 1e6, floor_trials_per_s_millions=N / t_floor / 1e6,
           kernel_over_floor=t_kernel / t_floor, parallel_trials_per_s_millions=N / t_kernel_p / 1e6,
           parallel_floor_trials_per_s_millions=N / t_floor_p / 1e6, parallel_kernel_over_floor=t_kernel_p / t_floor_p,
           parallel_speedup=t_kernel / t_kernel_p, dice_per_trial=float(counts.mean()))


def test_perf_asl_compiled_against_the_reference(benchmark, report):
    """PERF-01, ARCH-03: whole batches (`run_asl_batch`, packing and arrays included) of the D15.55 example, compiled
    (serial and parallel) against the reference chain on the same trials."""
    s = _d15_55()
    ref_n = scaled(2000)
    p = pack_asl(s)
    run_asl_batch(s, 1000, 1, backend="compiled", parallel=False)
    run_asl_batch(s, 1000, 1, backend="compiled", parallel=True)
    t_ref = interleaved(lambda: reference_rows(s, p, 1, ref_n), lambda: None, rounds=1, reps=1)[0]
    t_ser, t_par = interleaved(lambda: run_asl_batch(s, N, 1, backend="compiled", parallel=False),
                               lambda: run_asl_batch(s, N, 1, backend="compiled", parallel=True), rounds=3, reps=1)
    benchmark.pedantic(lambda: run_asl_batch(s, N, 1, backend="compiled"), rounds=2, iterations=1)
    per_ref = t_ref / ref_n
    report("asl compiled vs reference", reference_trials_per_s=1 / per_ref, compiled_trials_per_s_millions=N / t_ser / 1e6,
           parallel_trials_per_s_millions=N / t_par / 1e6, speedup=per_ref / (t_ser / N), parallel_speedup=per_ref / (t_par / N))
