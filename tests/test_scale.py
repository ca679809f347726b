"""Big arenas (FAST-03): the packer is cached on the scenario and linear in the units, and the compiled core takes
arenas past the old fixed sizes (256 vehicles, 512 attack rows) with the reference's results, bit for bit."""
from __future__ import annotations

import math

import numpy as np
import pytest

import hardpoint
from hardpoint.carwars import batch
from hardpoint.carwars.batch import pack, run_batch
from hardpoint.ruleset import Unpackable

fast = pytest.importorskip("hardpoint.fastcore._carwars")


def block(n: int, design: str = "hunter", spacing: float = 3.0, burning: bool = False, linked: int = 0) -> dict:
    """n cars in a square block, each firing its front weapon at the next car of its column (the last row turned
    round to fire back), past the cars beside the line of fire; with `burning`, every car on fire, so that some
    explode at the end of the turn and hit their neighbours (CW-FIRE-04); with `linked`, every car fires that many
    front machine guns linked (CW-LINK-01: one attack, a kernel row per weapon)."""
    side = max(1, min(math.ceil(math.sqrt(n)), n // 2))
    vehicles, attacks = [], []
    for i in range(n):
        up = i + side < n
        v = {"id": f"v{i}", "design": design, "x": (i % side) * spacing, "y": (i // side) * spacing,
             "facing": 0.0 if up else 180.0, "speed": 0, "computer": "hi_res"}
        if linked:
            v["weapon"] = [{"id": f"m{k}", "type": "Machine Gun", "mount": "front"} for k in range(linked)]
            v["links"] = [{"id": "mg", "weapons": [f"m{k}" for k in range(linked)]}]
        if burning:
            v.update(burning=True, extinguisher="none", armour={s: 2 for s in ("front", "back", "left", "right", "top", "underbody")})
        vehicles.append(v)
        attacks.append({"id": f"a{i}", "attacker": f"v{i}", "weapon": "rl" if design == "stinger" else "mg",
                        "target": f"v{i + side if up else i - side}"})
        if design == "shogun":
            attacks[-1]["firer"] = "driver"
            attacks.append({"id": f"l{i}", "attacker": f"v{i}", "weapon": "laser", "firer": "gunner",
                            "target": f"v{i + side if up else i - side}"})
    return {"scenario": {"name": f"{n} cars", "ruleset": "carwars"}, "vehicle": vehicles, "attack": attacks}


def in_turns(doc: dict, turns: int) -> dict:
    """The block's attacks planned for phase 1 of each of `turns` turns (a fight of planned attacks: the fight
    kernel runs it)."""
    doc = dict(doc, scenario=dict(doc["scenario"], turns=turns), arena={"turn": 1})
    doc["attack"] = [dict(a, id=f"{a['id']}t{t}", turn=t, phase=1) for a in doc["attack"] for t in range(1, turns + 1)]
    return doc


def test_fast_03_pack_is_cached_until_the_scenario_changes(monkeypatch):
    """FAST-03: a second run_batch on the same scenario does not pack again; any change to what packing reads (here
    a vehicle's armour, changed by hand) packs again, and the results follow the change."""
    s = hardpoint.parse_scenario(block(9))
    calls = []
    real = batch._pack
    monkeypatch.setattr(batch, "_pack", lambda sc: calls.append(1) or real(sc))
    first = run_batch(s, 200, 3, backend="compiled")
    again = run_batch(s, 200, 3, backend="compiled")
    assert len(calls) == 1 and first.summary() == again.summary()
    assert pack(s) is pack(s)
    s.arena.vehicles["v4"].armour[next(iter(s.arena.vehicles["v4"].armour))] = 0
    changed = run_batch(s, 200, 3, backend="compiled")
    assert len(calls) == 2
    assert np.array_equal(changed.state, run_batch(s, 200, 3, backend="reference").state)


def test_fast_03_the_compiled_core_takes_more_than_the_old_fixed_sizes():
    """FAST-03, ARCH-03: 300 shoguns (over the old 256 vehicles) firing 600 attacks (over the old 512 rows), and 300
    burning rocket trikes 1.5" apart whose explosions reach their neighbours (CW-FIRE-04): the compiled core runs
    them (no fallback) and every value of every trial equals the reference's."""
    exploded = 0
    for doc, trials in ((block(300, "shogun"), 3), (block(300, "stinger", spacing=1.5, burning=True), 4)):
        s = hardpoint.parse_scenario(doc)
        assert not isinstance(pack(s), Unpackable)
        fast_ = run_batch(s, trials, 11, backend="compiled", end_of_turn=True)
        ref = run_batch(s, trials, 11, backend="reference", end_of_turn=True)
        assert fast_.backend == "compiled"
        for a, b in ((fast_.hit, ref.hit), (fast_.damage, ref.damage), (fast_.state, ref.state), (fast_.flags, ref.flags)):
            assert np.array_equal(a, b)
        exploded += int((fast_.flags & 2).sum())
    assert exploded > 10


def test_fast_03_a_fight_of_300_cars_runs_compiled_as_the_reference():
    """FAST-03, FIGHT-01, ARCH-03: 300 cars (over the fight kernel's old 256 vehicles) firing at each other for two
    turns: the fight kernel runs it and every value of every trial equals the reference's."""
    s = hardpoint.parse_scenario(in_turns(block(300), 2))
    packed = pack(s)
    assert not isinstance(packed, Unpackable) and packed.layout is not None
    fast_ = run_batch(s, 3, 5, backend="compiled")
    ref = run_batch(s, 3, 5, backend="reference")
    assert fast_.backend == "compiled" and fast_.hit.any()
    for a, b in ((fast_.hit, ref.hit), (fast_.damage, ref.damage), (fast_.state, ref.state), (fast_.flags, ref.flags)):
        assert np.array_equal(a, b)
    assert (fast_.fight is None) == (ref.fight is None)
    for key in fast_.fight or {}:
        assert np.array_equal(fast_.fight[key], ref.fight[key]), key


def test_fast_03_blast_rows_hold_only_who_a_blast_reaches():
    """FAST-03, CW-FIRE-04: the packed explosion rows list exactly whom each blast reaches, as looking at every
    unit finds them (the packer finds them through a grid), and are as wide as the most one blast reaches, not as
    the arena (quadratic memory at thousands of vehicles): 3" apart a blast reaches nobody."""
    from hardpoint.carwars import geometry as geo

    assert pack(hardpoint.parse_scenario(block(400))).arrays["near_v"].shape == (400, 2)
    s = hardpoint.parse_scenario(block(100, spacing=1.2))
    s.arena.vehicles["v0"].facing = 37.0          # corners reach in at odd angles too
    s.arena.vehicles["v55"].x += 0.41
    radius = s.rules["carwars.fire"]["explosion"]["radius"]
    near_v = pack(s).arrays["near_v"]
    units = list(s.arena.vehicles.values())
    widest = 0
    for i, v in enumerate(units):
        centre = (v.x, v.y)
        reached = [j for j, o in enumerate(units) if o is not v
                   and geo.distance(geo.nearest_point(o.counter.polygon(), centre), centre) <= radius + 1e-9]
        row = near_v[i][near_v[i] >= 0]
        assert row[0::2].tolist() == reached
        widest = max(widest, len(reached))
    assert widest >= 8 and near_v.shape == (100, 2 * widest)
