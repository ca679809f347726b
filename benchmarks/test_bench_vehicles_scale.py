"""Big arenas (FAST-03, issue 15): vehicles 2..4096, one turn of attacks, loading, packing and the batch.

The scenario is `tests/test_scale.py`'s block: n hunters in a square block 3"
apart, each firing its front machine gun at the next car of its column past
the cars beside the line of fire (n attacks); in the last case, 4096 cars each
fire four front machine guns linked (CW-LINK-01): 4,096 attacks, 16,384 kernel
rows, the most the scenario format holds (4,096 units, 16,384 attacks).
Figures, one thread:
- load: `parse_scenario` (validation, and every attack explained: line of fire
  through `attack.Scene`'s cull);
- pack: the first `pack()`, and the second (cached on the scenario);
- compiled: trials a second of the batch in counted mode (`keep="summary"`),
  packing excluded (cached), and per attack;
- reference: seconds a trial (up to 512 vehicles; it is the slow path).
A second table: the same blocks firing for two turns (the fight kernel: movement
checked for collisions every phase, each attack explained after it).
Targets: pack linear in units and attacks (the time per unit flat as n grows);
the compiled core takes 4,096 units and 16,384 attacks (no fallback).
Run: `pytest benchmarks/test_bench_vehicles_scale.py -s`.
"""
import time

import pytest

import hardpoint
from hardpoint.carwars.batch import pack, run_batch
from hardpoint.ruleset import Unpackable

from .conftest import SCALE, best_of

pytest.importorskip("hardpoint.fastcore._carwars")

from tests.test_scale import block, in_turns  # noqa: E402  (the scenarios the tests check against the reference)

SIZES = [2, 16, 128, 512, 1024, 4096] if SCALE >= 1 else [2, 16, 128]
CASES = [(n, "hunter") for n in SIZES] + ([(4096, "linked")] if SCALE >= 1 else [])


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def _measure(benchmark, doc: dict, trials_budget: int, fight: bool):
    """Load, pack (twice: the second from the cache) and run the batch in counted mode on one thread: the scenario,
    the packing, the figures in seconds, and the compiled seconds a trial."""
    s, load = _timed(lambda: hardpoint.parse_scenario(doc))
    packed, first = _timed(lambda: pack(s))
    assert not isinstance(packed, Unpackable), packed
    assert (packed.layout is not None) == fight
    _, second = _timed(lambda: pack(s))
    trials = max(100, trials_budget)

    def batch():
        return run_batch(s, trials, 1, backend="compiled", keep="summary", threads=1)

    assert batch().backend == "compiled"
    per_trial = best_of(batch, 2) / trials
    benchmark.pedantic(batch, rounds=1, iterations=1)
    return s, packed, dict(load_s=load, pack_s=first, pack_again_s=second), per_trial


@pytest.mark.parametrize("n,design", CASES, ids=[f"{n}-{d}" for n, d in CASES])
def test_fast_03_vehicles_scale(benchmark, report, n, design):
    doc = block(n, linked=4) if design == "linked" else block(n, design)
    rows = len(doc["attack"]) * (4 if design == "linked" else 1)      # kernel rows: a link's weapons one by one
    s, packed, t, per_trial = _measure(benchmark, doc, int(4_000_000 * SCALE) // rows, fight=False)
    attacks = len(packed.attacks)
    ref = None
    if n <= 512:
        few = 3 if n > 100 else 20
        _, t_ref = _timed(lambda: run_batch(s, few, 1, backend="reference", keep="summary"))
        ref = t_ref / few
    report(f"{n} {design}s", units=n, attacks=attacks, **t, load_us_per_unit=t["load_s"] / n * 1e6,
           pack_us_per_unit=t["pack_s"] / n * 1e6, compiled_trials_per_s=1.0 / per_trial,
           compiled_ns_per_attack=per_trial / attacks * 1e9, reference_s_per_trial=ref if ref is not None else float("nan"))


FIGHT_SIZES = [16, 512, 4096] if SCALE >= 1 else [16]


@pytest.mark.parametrize("n", FIGHT_SIZES)
def test_fast_03_fights_scale(benchmark, report, n):
    _, _, t, per_trial = _measure(benchmark, in_turns(block(n), 2), int(1_000_000 * SCALE) // n, fight=True)
    report(f"{n} cars, 2 turns", units=n, attacks=2 * n, **t, load_us_per_unit=t["load_s"] / n * 1e6,
           pack_us_per_unit=t["pack_s"] / n * 1e6, compiled_fights_per_s=1.0 / per_trial,
           compiled_ns_per_attack=per_trial / (2 * n) * 1e9)
