"""Fight benchmarks (PERF-01, issue 14): whole fights in the compiled core against the reference.

Targets (issue 14): the 10-turn fight of the default scenario's units at least 200,000 fights/s on one core;
`builtin:cw_chase` compiled at least 5,000x its reference. docs/performance.md keeps the measured table.
"""
import numpy as np
import pytest

import hardpoint
from hardpoint.carwars.batch import _fight_arrays, pack, run_batch
from hardpoint.ruleset import Unpackable

from .conftest import interleaved, scaled
from .scenarios import default_fight

fast = pytest.importorskip("hardpoint.fastcore._carwars")


def _kernel_only(p, n):
    """The fight kernel alone on n trials (no variants: a trial it hands back stops where it diverged)."""
    a = p.arrays
    S, V, L = a["init"].shape[0], len(p.vehicles), p.layout
    X = 2 * V + a["w_key"].shape[0] + 3 * len(L.weapons) + len(L.units) + 8 * V
    st, fl, f = np.zeros((n, S), np.int32), np.zeros((n, max(V, 1)), np.uint8), _fight_arrays(n, L)
    dv, sv, sk = np.zeros(n, np.int16), np.zeros((n, X), np.int32), np.zeros(n, np.uint64)
    start, ids = np.zeros(0, np.int16), np.zeros(0, np.uint64)
    hit, dmg = np.zeros((n, len(p.attacks)), np.uint8), np.zeros((n, len(p.attacks)), np.int32)
    return lambda: fast.run_fight(1, 0, a, st, fl, f["out_turn"], f["result"], f["turns"], f["shots"], f["hits"],
                                  f["damage"], dv, sv, sk, start, ids, hit, dmg), dv


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
