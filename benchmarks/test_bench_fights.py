"""Fight benchmarks (PERF-01, issue 14): whole fights in the compiled core against the reference.

Targets (issue 14): the 10-turn fight of the default scenario's units at least 200,000 fights/s on one core;
`builtin:cw_chase` compiled at least 5,000x its reference. Issue 34: the first batch of every built-in fight in a
process costs at most 2x its second. docs/performance.md keeps the measured table.
"""
import time

import numpy as np
import pytest

import hardpoint
from hardpoint.carwars.batch import _fight_arrays, pack, run_batch, saved_width
from hardpoint.carwars.scenario import CarWarsScenario
from hardpoint.ruleset import Unpackable
from hardpoint.scenario import builtin_scenarios

from .conftest import SCALE, interleaved, scaled
from .scenarios import default_fight, dice_per_trial

fast = pytest.importorskip("hardpoint.fastcore._carwars")


def _kernel_only(p, n):
    """The fight kernel alone on n trials (no variants: a trial it hands back stops where it diverged)."""
    a = p.arrays
    S, V, L = a["init"].shape[0], len(p.vehicles), p.layout
    X = saved_width(p)
    st, fl, f = np.zeros((n, S), np.int32), np.zeros((n, max(V, 1)), np.uint8), _fight_arrays(n, L)
    dv, sv, sk = np.zeros(n, np.int16), np.zeros((n, X), np.int32), np.zeros(n, np.uint64)
    start, ids = np.zeros(0, np.int16), np.zeros(0, np.uint64)
    hit, dmg = np.zeros((n, len(p.attacks)), np.uint8), np.zeros((n, len(p.attacks)), np.int32)
    return lambda: fast.run_fight(1, 0, a, st, fl, f["out_turn"], f["result"], f["turns"], f["shots"], f["hits"],
                                  f["damage"], dv, sv, sk, start, ids, hit, dmg, np.zeros(n, np.int32)), dv


def test_perf_01_ten_turn_fight_fights_per_second(benchmark, report):
    """PERF-01: the default scenario's units, each with a standing order to fire every turn, up to 10 turns, until
    decided. Target: at least 200,000 fights/s on one core. Measured three ways in one run: the kernel alone,
    the whole batch on one thread (packing, the packings of trials whose moving vehicle goes out of control, and
    the arrays), and the reference."""
    s = default_fight(10)
    p = pack(s)
    assert not isinstance(p, Unpackable), p
    n = scaled(1_000_000)
    kernel, diverged = _kernel_only(p, n)
    ref_n = scaled(2_000) // 20
    t_kernel, t_ref = interleaved(kernel, lambda: run_batch(s, ref_n, 1, backend="reference"), rounds=2, reps=1)
    t_batch = interleaved(lambda: run_batch(s, n, 1, backend="compiled", threads=1, keep="summary"), lambda: None,
                          rounds=2, reps=1)[0]
    benchmark.pedantic(kernel, rounds=2, iterations=1)
    report("ten-turn fight", kernel_fights_per_s=n / t_kernel, batch_fights_per_s=n / t_batch,
           reference_fights_per_s=ref_n / t_ref, speedup=(t_ref / ref_n) / (t_batch / n),
           kernel_speedup=(t_ref / ref_n) / (t_kernel / n), trials_resumed_share=float((diverged > 0).mean()))


@pytest.mark.parametrize("name", ["cw_duel", "cw_gang_fight", "cw_chase", "cw_fire_example"])
def test_perf_01_builtin_multi_turn_compiled_against_reference(benchmark, report, name):
    """PERF-01: each multi-turn built-in, compiled against the reference on the same trials (target for
    cw_chase: at least 5,000x). A built-in the kernel does not run reports its reason and a ratio of 1."""
    s = hardpoint.load_scenario(f"builtin:{name}")
    p = pack(s)
    ref_n = max(2, scaled(1000) // 100)
    if isinstance(p, Unpackable):
        t_ref = interleaved(lambda: run_batch(s, ref_n, 1, backend="reference"), lambda: None, rounds=1, reps=1)[0]
        benchmark.pedantic(lambda: None, rounds=1, iterations=1)
        report(f"{name} multi-turn", speedup=1.0, reference_trials_per_s=ref_n / t_ref, compiled=f"no: {p.reason}")
        return
    n = scaled(200_000)
    t_ref, t_com = interleaved(lambda: run_batch(s, ref_n, 1, backend="reference"),
                               lambda: run_batch(s, n, 1, backend="compiled", threads=1, keep="summary"), rounds=2, reps=1)
    benchmark.pedantic(lambda: run_batch(s, n, 1, backend="compiled", threads=1, keep="summary"), rounds=1, iterations=1)
    report(f"{name} multi-turn", speedup=(t_ref / ref_n) / (t_com / n), reference_trials_per_s=ref_n / t_ref,
           compiled_trials_per_s=n / t_com)


@pytest.mark.parametrize("name", ["default", "fight"])
def test_perf_01_batch_against_its_floors(benchmark, report, name):
    """PERF-01 (issue 14): the batch on one thread (the default scenario: one turn; or the 10-turn fight), counted
    mode against a floor loop that draws as many dice a trial with one key per trial (the reference's mean, counted)
    and adds them up; arrays mode against allocating and writing the bytes it returns (state, flags, hits, damage,
    a fight's columns). Targets: counted within 5x of its floor, arrays within 4x of writing the same bytes."""
    s = default_fight(10) if name == "fight" else hardpoint.load_scenario("builtin:default")
    n = scaled(500_000 if name == "fight" else 2_000_000)
    per_fight = dice_per_trial(s, (100 if name == "fight" else 2000) if SCALE >= 1 else 5)
    run_batch(s, 1000, 1, backend="compiled", threads=1, keep="summary")    # packed once, cached on the scenario
    t_counted, t_floor = interleaved(lambda: run_batch(s, n, 1, backend="compiled", threads=1, keep="summary"),
                                     lambda: fast.dice_floor(1, 0, n, round(per_fight)), rounds=2, reps=1)
    out = run_batch(s, n, 1, backend="compiled", threads=1, keep="arrays")
    shapes = [(a.shape, a.dtype) for a in (out.state, out.flags, out.hit, out.damage, *(out.fight or {}).values())]

    def write_bytes():
        for shape, dtype in shapes:
            np.ones(shape, dtype)

    t_arrays, t_write = interleaved(lambda: run_batch(s, n, 1, backend="compiled", threads=1, keep="arrays"), write_bytes,
                                    rounds=2, reps=1)
    benchmark.pedantic(lambda: run_batch(s, n, 1, backend="compiled", threads=1, keep="summary"), rounds=1, iterations=1)
    report(f"{name} against its floors", dice_per_trial=per_fight, counted_fights_per_s=n / t_counted,
           floor_fights_per_s=n / t_floor, counted_over_floor=t_counted / t_floor, arrays_fights_per_s=n / t_arrays,
           bytes_per_fight=sum(int(np.prod(sh)) * np.dtype(dt).itemsize for sh, dt in shapes) / n,
           arrays_over_writing=t_arrays / t_write)


@pytest.mark.parametrize("aspect,speed", [("head-on", 0.0), ("broadside", 40.0)])
def test_perf_01_fights_that_drive_compiled_against_reference(benchmark, report, aspect, speed):
    """PERF-01, FIGHT-07..09 (issue 34): `hardpoint duel hunter stinger`'s fight (default tactics: both driven,
    up to 20 turns, until decided) in run_drive against the reference on the same trials, one thread (a duel has
    no third vehicle to block a line of fire: the kernel runs every trial)."""
    from hardpoint.duel import build_duel

    s = build_duel("hunter", "stinger", aspect=aspect, speed=speed)
    p = pack(s)
    assert not isinstance(p, Unpackable) and p.drive is not None, p
    ref_n = max(2, scaled(2000) // 100)
    n = scaled(20_000)
    t_ref, t_com = interleaved(lambda: run_batch(s, ref_n, 1, backend="reference"),
                               lambda: run_batch(s, n, 1, backend="compiled", threads=1, keep="summary"), rounds=2, reps=1)
    benchmark.pedantic(lambda: run_batch(s, n, 1, backend="compiled", threads=1, keep="summary"), rounds=1, iterations=1)
    report(f"duel that drives, {aspect} {speed:g} mph", speedup=(t_ref / ref_n) / (t_com / n),
           reference_fights_per_s=ref_n / t_ref, compiled_fights_per_s=n / t_com)


def _carwars_builtins() -> list[str]:
    return [n for n in builtin_scenarios() if isinstance(hardpoint.load_scenario(f"builtin:{n}"), CarWarsScenario)]


def _cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


@pytest.mark.parametrize("keep", ["summary", "arrays"])
@pytest.mark.parametrize("name", _carwars_builtins())
def test_perf_01_first_batch_against_the_second(benchmark, report, name, keep):
    """Issue 34: a built-in's first `run_batch` in a process (a fresh scenario: its packing and its variants' made
    then) against its second (everything kept on the scenario), default chunk and threads, 100,000 trials. CPU
    seconds (every thread's), the best of three alternating rounds of a fresh scenario's first and second batch;
    imports and the rules' tables are warmed first by a small fight. Target: at most 2x."""
    run_batch(hardpoint.load_scenario("builtin:cw_duel"), 10, 1)
    n = scaled(100_000)
    first = second = float("inf")
    for _ in range(3):
        s = hardpoint.load_scenario(f"builtin:{name}")
        first = min(first, _cpu(lambda: run_batch(s, n, 1, keep=keep)))
        second = min(second, _cpu(lambda: run_batch(s, n, 1, keep=keep)))
    benchmark.pedantic(lambda: run_batch(s, n, 1, keep=keep), rounds=1, iterations=1)
    report(f"{name} first batch ({keep})", first_cpu_s=first, second_cpu_s=second, first_over_second=first / second)
