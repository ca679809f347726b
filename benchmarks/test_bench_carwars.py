"""Car Wars benchmarks (PERF-01): compiled phase kernel against its floor, the reference, and itself on two threads.

Run: `pytest benchmarks/` (see README: regression runs with autosave and compare-fail).
"""
import numpy as np
import pytest

import hardpoint
from hardpoint.carwars.batch import pack, run_batch

from .conftest import interleaved, scaled
from .scenarios import dice_per_trial, stock_car_from_four_sides

fast = pytest.importorskip("hardpoint.fastcore._carwars")
N = scaled(200_000)


def _kernel_call(scenario, n):
    p = pack(scenario)
    a = p.arrays
    A, S, V = a["atk"].shape[0], a["init"].shape[0], a["v_armour"].shape[0]
    out = (np.zeros((n, S), np.int32), np.zeros((n, A), np.uint8), np.zeros((n, A), np.int32), np.zeros((n, V), np.uint8))
    return lambda: fast.run_phase(1, 0, a, 0, *out), A


def _dice_per_trial(scenario, trials=2000):
    return dice_per_trial(scenario, trials)


def test_perf_01_hit_and_damage_against_the_floor(benchmark, report):
    """PERF-01: hit resolution + damage propagation of a stock car hit from four sides, one core, against a floor loop
    drawing the same number of dice and comparing them. Targets: >= 20 M attacks/s; within 3x of the floor."""
    s = stock_car_from_four_sides()
    run, attacks = _kernel_call(s, N)
    per_trial = _dice_per_trial(s)
    dice = int(round(per_trial))
    # the floor: per attack 2d6 compared with a number, plus the rest of the trial's dice
    floor = lambda: fast.floor_loop(1, 0, N * attacks, 5, max(0, dice // attacks - 2))
    t_kernel, t_floor = interleaved(run, floor)
    benchmark.pedantic(run, rounds=3, iterations=1)
    report("hit+damage", attacks_per_s_millions=N * attacks / t_kernel / 1e6, floor_attacks_per_s_millions=N * attacks / t_floor / 1e6,
           kernel_over_floor=t_kernel / t_floor, dice_per_trial=per_trial)


def test_perf_01_compiled_against_the_reference(benchmark, report):
    """PERF-01: the compiled batch against the reference on the same trials (target: at least 500x)."""
    s = hardpoint.load_scenario("builtin:default")
    ref_n = scaled(1500)
    t_ref = interleaved(lambda: run_batch(s, ref_n, 1, backend="reference", end_of_turn=True), lambda: None, rounds=1, reps=1)[0]
    t_com = interleaved(lambda: run_batch(s, N, 1, backend="compiled", threads=1, end_of_turn=True), lambda: None, rounds=3, reps=1)[0]
    benchmark.pedantic(lambda: run_batch(s, N, 1, backend="compiled", threads=1, end_of_turn=True), rounds=2, iterations=1)
    per_ref, per_com = t_ref / ref_n, t_com / N
    report("compiled vs reference", reference_trials_per_s=1 / per_ref, compiled_trials_per_s_millions=1 / per_com / 1e6,
           speedup=per_ref / per_com, reference_seconds_per_million=per_ref * 1e6)


def test_perf_01_two_threads_against_one(benchmark, report):
    """PERF-01: the batch on two threads against one (target: at least 1.8x). Counted mode (keep="summary") is what
    runs of millions of trials use; arrays mode writes every trial's state to memory and is bound by its bandwidth."""
    s = hardpoint.load_scenario("builtin:default")
    n = scaled(4_000_000)
    kw = dict(chunk=65536, end_of_turn=True, keep="summary")
    one, two = interleaved(lambda: run_batch(s, n, 1, threads=1, **kw), lambda: run_batch(s, n, 1, threads=2, **kw), rounds=3, reps=1)
    m = scaled(1_000_000)
    one_a, two_a = interleaved(lambda: run_batch(s, m, 1, threads=1, chunk=65536), lambda: run_batch(s, m, 1, threads=2, chunk=65536),
                               rounds=2, reps=1)
    benchmark.pedantic(lambda: run_batch(s, n, 1, threads=2, **kw), rounds=2, iterations=1)
    report("threads", one_thread_s=one, two_threads_s=two, speedup=one / two, arrays_mode_speedup=one_a / two_a)


def test_perf_01_main_job(benchmark, report):
    """PERF-01: `hardpoint run` on the default scenario: a million trials (phase and end of turn), compiled."""
    s = hardpoint.load_scenario("builtin:default")
    n = scaled(1_000_000)
    t = interleaved(lambda: run_batch(s, n, 1, end_of_turn=True, keep="summary"), lambda: None, rounds=2, reps=1)[0]
    benchmark.pedantic(lambda: run_batch(s, n, 1, end_of_turn=True, keep="summary"), rounds=1, iterations=1)
    report("main job", trials=n, seconds=t, million_trials_s=t * 1_000_000 / n)
