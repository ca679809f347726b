"""The compiled to-hit of fights that drive (fastcore/_cwtohit.pxd) against the reference (ARCH-03, issue 34).

On thousands of seeded random pairs of stock vehicles (every design, poses anywhere, facings on and off the 15-degree
steps, speeds forward, in reverse and still, skids and hazards, paint, weather and light), every mounted aimed weapon
of the one at the other: `th_explain` must say what `attack.explain_attack` says of the shot, aimed "auto", fired by
its default firer (his skill taken off: the kernel adds it per firer): no shot exactly where the reference refuses it
(outside the weapon's arc, CW-ARC-02), the same number needed, possibility, side struck (CW-TGT-01), sidecar side
(CW-TGT-05) and range (CW-LOF-03) to the last bit; "unsure" only where the reference's Polygon could refuse.
"""
import math
import random
import struct

import pytest

import hardpoint
from hardpoint import HardpointError
from hardpoint.carwars import drivepack
from hardpoint.carwars.attack import Attack, _default_firer, explain_attack
from hardpoint.carwars.enums import Side

check = pytest.importorskip("hardpoint.fastcore._cwtohitcheck")

RULES = hardpoint.default_rules()
DESIGNS = sorted(RULES["carwars.designs"]["design"])
TABLES = drivepack.tohit_tables(RULES)
CW_OK, CW_NONE, CW_UNSURE = 0, 1, 2


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


def _pair(rng: random.Random):
    def one(i):
        facing = rng.choice([0.0, 15.0, 45.0, 90.0, 180.0, 270.0, 330.0, rng.uniform(0, 360)])
        v = {"id": f"v{i}", "design": rng.choice(DESIGNS), "x": rng.uniform(-6, 6), "y": rng.uniform(-6, 6), "facing": facing,
             "speed": rng.choice([0, 0, 5, 10, 20, 35, 40, 55, 80, -10])}
        if rng.random() < 0.2:
            v["handling"] = rng.choice(["trivial_skid", "minor_fishtail", "minor_skid", "major_fishtail"])
        if rng.random() < 0.2:
            v["hazard_difficulty"] = rng.randint(1, 7)
        if rng.random() < 0.1:
            v["paint_until_turn"] = rng.choice([0, 1, 3])
        if rng.random() < 0.1:
            v["on_bad_surface"] = True
        if rng.random() < 0.05:
            v["blinded"] = True
        return v

    arena = {"weather": rng.choice(["clear", "rain", "fog"]), "light": rng.choice(["day", "night"]), "turn": rng.choice([1, 2])}
    doc = {"scenario": {"name": "t", "ruleset": "carwars"}, "arena": arena, "vehicle": [one(0), one(1)]}
    try:
        return hardpoint.parse_scenario(doc).arena
    except HardpointError:
        return None          # overlapping counters and the like: not a position a fight reaches


def _cases(n: int, seed: int):
    rng = random.Random(seed)
    done = 0
    while done < n:
        arena = _pair(rng)
        if arena is None:
            continue
        for firer_id, target_id in (("v0", "v1"), ("v1", "v0")):
            firer, target = arena.vehicles[firer_id], arena.vehicles[target_id]
            for w in firer.all_weapons():
                if w.spec.aimed and w.mount.name != "UNDERBODY":
                    yield arena, firer, w, target
                    done += 1


def test_arch_03_compiled_to_hit_of_a_drive_fight_agrees_with_explain_attack():
    """ARCH-03 / CW-HIT-01..10, CW-ARC-02, CW-LOF-03, CW-TGT-01/05: th_explain is explain_attack, bit for bit, on
    6,000 random shots."""
    counts = {"shot": 0, "none": 0, "unsure": 0}
    for arena, firer, w, target in _cases(6000, 34):
        crew = _default_firer(firer, w)
        saved = crew.hits if crew is not None else 0
        if crew is not None:
            crew.hits = 0
        try:
            b = explain_attack(arena, Attack("x", firer.id, w.id, target.id, "auto", crew.id if crew else None), RULES)
        except HardpointError:
            b = None
        got = check.explain(TABLES, drivepack.tohit_vehicle(RULES, arena, firer), drivepack.tohit_weapon(firer, w),
                            drivepack.tohit_vehicle(RULES, arena, target))
        status, needed, side, sidecar_side, rng = got
        if status == CW_UNSURE:
            counts["unsure"] += 1
            continue
        if b is None:
            assert status == CW_NONE, (firer, w, target, got)
            counts["none"] += 1
            continue
        skill = crew.gunner if crew is not None else 0
        assert status == CW_OK, (b, got)
        assert needed - skill == b.needed and (needed - skill <= TABLES["max_needed"]) == b.possible, (b, got)
        assert (Side(side).name.lower() if side >= 0 else None) == b.side, (b, got)
        assert bool(sidecar_side) == b.sidecar_side, (b, got)
        assert round(rng, 6) == b.range and math.isfinite(rng)
        counts["shot"] += 1
        if crew is not None:
            crew.hits = saved
    assert counts["shot"] > 2000 and counts["none"] > 500 and counts["unsure"] <= 6, counts


def test_cw_lof_03_compiled_sight_with_no_blocker_is_line_of_fire_bit_for_bit():
    """CW-LOF-01..03: th_sight is geometry.line_of_fire with no blocker: the aim point and range, bit for bit, on
    4,000 random origins and counters (and counters clipped to an arc, as a shot traces them), the origin inside,
    on, near and far."""
    from hardpoint.carwars import geometry as geo

    rng = random.Random(3403)
    done = 0
    while done < 4000:
        c = geo.Counter(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.choice([1.0, 0.5, 0.25]), rng.choice([0.5, 0.25, 0.75]),
                        rng.choice([0.0, 90.0, 180.0, 15.0, rng.uniform(0, 360)]))
        poly = c.polygon()
        if rng.random() < 0.5:
            arc_counter = geo.Counter(rng.uniform(-5, 5), rng.uniform(-5, 5), 1.0, 0.5, rng.uniform(0, 360))
            clipped = geo.clip_to_arc(arc_counter, rng.choice(geo.ARCS), poly)
            if clipped is None:
                continue
            poly = clipped
        if rng.random() < 0.1:
            ox, oy = poly.vertices[0]
        elif rng.random() < 0.1:
            ox, oy = c.cx, c.cy
        else:
            ox, oy = rng.uniform(-12, 12), rng.uniform(-12, 12)
        ref = geo.line_of_fire((ox, oy), poly, [])
        ax, ay, r = check.sight(ox, oy, list(poly.vertices))
        assert ref.clear
        assert (_bits(ax), _bits(ay), _bits(r)) == (_bits(ref.aim_point[0]), _bits(ref.aim_point[1]), _bits(ref.range)), (ox, oy, poly)
        done += 1
