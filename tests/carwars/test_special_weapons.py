"""Dropped, automatic, linked and hand weapons: CW-DROP-01..06, CW-AUTO-01, CW-LINK-01, CW-HAND-01."""
import pytest

import hardpoint
from hardpoint import RuleViolation, ScenarioError, ScriptedDice, SeededDice
from hardpoint.carwars import geometry as geo
from hardpoint.carwars.dropped import DroppedCounter, drop_weapon, expire_counters, mines_effect, placement_counter, spikes_effect
from hardpoint.carwars.enums import Mount, Side
from hardpoint.carwars.model import Arena, Building, Cloud, build_vehicle
from hardpoint.carwars.special import attack_columns, automatic_target, set_automatic
from hardpoint.carwars.tables import weapon_spec

from .conftest import both_backends

RULES = hardpoint.default_rules()


def vehicle(id="v", design="hunter", **kw):
    return build_vehicle(RULES, {"id": id, "design": design, **kw})


def scenario(**data):
    return hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars", **data.pop("meta", {})}, **data})


# --- CW-DROP-01 placement ---------------------------------------------------------------

@pytest.mark.parametrize("mount,speed,expected", [
    (Mount.BACK, 40, (0.0, -0.25)), (Mount.FRONT, 40, (0.0, 0.25)), (Mount.UNDERBODY, 40, (0.0, -0.25)),
    (Mount.LEFT, 40, (-0.5, -0.25)), (Mount.RIGHT, 40, (0.5, -0.25)), (Mount.BACK, -20, (0.0, 0.25)),
    (Mount.BACK, 0, (0.0, -0.25)), (Mount.FRONT, 0, (0.0, 0.75)), (Mount.RIGHT, 0, (0.5, 0.0)), (Mount.UNDERBODY, 0, (0.0, 0.0)),
])
def test_cw_drop_01_counter_placement(mount, speed, expected):
    """CW-DROP-01: a 1/2" mine counter: front aligned with the front; underbody front edge at the centre; side 1/2" off;
    back aligned with the back; reversed in reverse; stationary: front and side straight out, underbody centred."""
    v = vehicle(speed=speed)
    c = placement_counter(RULES, v, mount, "mines")
    assert (round(c.cx, 6), round(c.cy, 6)) == expected


def test_cw_drop_01_turret_needs_a_placement_and_automatic_drops_each_phase_moved():
    """CW-DROP-01: a turret dropper is placed as any mount; on automatic, one counter per phase moved."""
    v = vehicle(turret=True, weapon=[{"id": "tmd", "type": "Minedropper", "mount": "turret"}])
    with pytest.raises(RuleViolation, match="placement"):
        placement_counter(RULES, v, Mount.TURRET, "mines")
    assert placement_counter(RULES, v, Mount.TURRET, "mines", Mount.BACK).cy == pytest.approx(-0.25)
    s = scenario(meta={"turns": 1}, vehicle=[{"id": "v", "design": "hunter", "speed": 30}],
                 action=[{"turn": 1, "phase": 1, "kind": "automatic_on", "vehicle": "v", "weapon": "md"}])
    r = s.resolve(SeededDice(1))
    assert sum(1 for e in r.events if e.kind == "note" and "drops Minedropper" in e.text) == 3  # 30 mph moves in 3 phases
    s = scenario(meta={"turns": 2}, vehicle=[{"id": "v", "design": "hunter", "speed": 0}],
                 action=[{"turn": 1, "phase": 1, "kind": "automatic_on", "vehicle": "v", "weapon": "md"}])
    r = s.resolve(SeededDice(1))
    assert sum(1 for e in r.events if e.kind == "note" and "drops Minedropper" in e.text) == 2  # once a turn, stationary


# --- spikes and mines -----------------------------------------------------------------------

def _counter(kind, weapon, x=0.0, y=0.0):
    return DroppedCounter("c", kind, weapon, geo.Counter(x, y, 0.5, 0.5, 0.0).polygon(), 1)


def test_cw_drop_02_spikes_on_counter_and_half_for_solid_tires():
    """CW-DROP-02: crossing spikes: 1d 1-4, each tire takes 1d; solid and plasticore tires take half, rounded up."""
    v = vehicle(tire_type="solid")
    spec = weapon_spec(RULES, "Spikedropper")
    spikes_effect(RULES, v, _counter("spikes", "Spikedropper"), "on", spec, ScriptedDice([4, 5, 5, 5, 5]))
    assert [t.dp for t in v.tires] == [9, 9, 9, 9]  # 5 -> 3 each (half rounded up) on 12 DP
    v = vehicle()
    spikes_effect(RULES, v, _counter("spikes", "Spikedropper"), "on", spec, ScriptedDice([5]))
    assert [t.dp for t in v.tires] == [6, 6, 6, 6]  # 5: the spikes miss


def test_cw_drop_02_adjacent_squares_only_tires_that_crossed():
    """CW-DROP-02 (RULING): crossing only the adjacent squares: 1-2, 1d to each tire that crossed them."""
    v = vehicle(x=0.5, y=0.0)  # left tires near x = 0.31, right tires at 0.69; counter spans -0.25..0.25 (+0.25 adjacent)
    spikes_effect(RULES, v, _counter("spikes", "Spikedropper"), "adjacent", weapon_spec(RULES, "Spikedropper"), ScriptedDice([2, 3, 3]))
    assert [t.dp for t in v.tires] == [3, 6, 3, 6]


def test_cw_drop_03_mines_blast_tires_within_an_inch_and_the_underbody():
    """CW-DROP-03: mines go off on 1-4: each tire within 1" of the counter's edge 1d, the trigger's underbody 2d; removed."""
    v = vehicle()
    other = vehicle("o", x=3.0)
    arena = Arena(vehicles={"v": v, "o": other})
    counter = _counter("mines", "Minedropper")
    events, gone = mines_effect(RULES, arena, v, counter, "on", weapon_spec(RULES, "Minedropper"), ScriptedDice([3, 1, 1, 1, 1, 2, 2]))
    assert gone and [t.dp for t in v.tires] == [5, 5, 5, 5] and v.armour[Side.UNDERBODY] == 6
    assert [t.dp for t in other.tires] == [6, 6, 6, 6]
    v2 = vehicle()
    _, gone = mines_effect(RULES, Arena(vehicles={"v": v2}), v2, counter, "adjacent", weapon_spec(RULES, "Minedropper"), ScriptedDice([3]))
    assert not gone


def test_cw_drop_03_spear_1000():
    """CW-DROP-03: the Spear 1000: tires 1d-3, underbody 2d+3."""
    v = vehicle()
    mines_effect(RULES, Arena(vehicles={"v": v}), v, _counter("mines", "Spear 1000 Minedropper"), "on",
                 weapon_spec(RULES, "Spear 1000 Minedropper"), ScriptedDice([1, 4, 4, 2, 1, 1, 1]))
    assert [t.dp for t in v.tires] == [5, 5, 6, 6] and v.armour[Side.UNDERBODY] == 5


def test_cw_drop_03_remote_detonation_is_a_firing_action():
    """CW-DROP-03: setting mines off by remote is a firing action: it uses the driver's shot for the turn, so a plan
    where he also fires the MG that turn is refused at load (issue 11)."""
    with pytest.raises(RuleViolation, match="CW-ROF-01") as err:
        scenario(meta={"turns": 1}, vehicle=[{"id": "v", "design": "hunter", "speed": 0}, {"id": "t", "design": "hunter", "y": 5.0}],
                 counter=[{"id": "m", "weapon": "Minedropper", "x": 3, "y": 3, "width": 0.5, "length": 0.5}],
                 action=[{"turn": 1, "phase": 1, "kind": "detonate", "vehicle": "v", "counter": "m"}],
                 attack=[{"id": "a", "attacker": "v", "weapon": "mg", "target": "t", "firer": "driver", "turn": 1, "phase": 2}])
    assert err.value.field == "attack[0]"


# --- oil, clouds, water ---------------------------------------------------------------------

def test_cw_drop_04_flaming_oil_hazard_damage_and_checked_once():
    """CW-DROP-04: flaming oil: a D1 hazard, damage to underbody and tires; a vehicle checks a counter once while on it."""
    s = scenario(meta={"turns": 1}, vehicle=[{"id": "v", "design": "hunter", "speed": 10}],
                 counter=[{"id": "fo", "weapon": "Flaming Oil Jet", "x": 0, "y": 0.6, "width": 0.5, "length": 1.0}])
    r = s.resolve(SeededDice(5))
    assert sum(1 for e in r.events if e.kind == "note" and "drives through flaming oil" in e.text) == 1
    assert any(e.kind == "dice" and "flaming oil on v underbody" in e.why for e in r.events)


def _liquid_phases(s, dice) -> list[tuple[int, int]]:
    """The (turn, phase) of each flaming oil damage roll on v's underbody, and the hazard notes, in order."""
    r = s.resolve(dice)
    at, out = None, []
    for e in r.events:
        if e.kind == "note" and e.rule == "CW-ROF-02" and e.text.startswith("turn ") and "declared" not in e.text:
            turn, phase = e.text.split(",")
            at = (int(turn.split()[1]), int(phase.split()[1]))
        if e.kind == "dice" and e.why == "flaming oil on v underbody":
            out.append(at)
    return out


def test_cw_seed_01_a_damaging_liquid_damages_every_five_phases_of_contact():
    """CW-SEED-01 (CW-DROP-04's "every five phases"): a hunter at 10 mph (1" a turn) stands on a flaming oil counter
    3" long from the start of a three-turn scenario and stays on it: the flaming oil damages its underbody and tires
    in the phase it first touches it (turn 1 phase 1) and again every five phases it stays on it: phases 6 and 11
    (turns 2 and 3, phase 1). One D1 hazard, the phase it ran onto it. With liquid_damage_every_phases = 3 (a house
    rule): phases 1, 4, 7, 10, 13. A second counter it never leaves for two phases only (a hunter at rest on a
    1" counter for two turns, every = 5): once. Source: CW seed, Dropped Weapons ("every five phases that the vehicle
    remains in contact with the damaging substance")."""
    oil = {"id": "fo", "weapon": "Flaming Oil Jet", "x": 0.0, "y": 1.5, "width": 0.5, "length": 3.0}
    doc = dict(meta={"turns": 3}, vehicle=[{"id": "v", "design": "hunter", "speed": 10}], counter=[oil])
    assert _liquid_phases(scenario(**doc), SeededDice(3)) == [(1, 1), (2, 1), (3, 1)]
    r = scenario(**doc).resolve(SeededDice(3))
    assert sum(1 for e in r.events if e.kind == "note" and "drives through flaming oil" in e.text) == 1
    assert [e.text for e in r.events if e.kind == "note" and e.rule == "CW-SEED-01"] == \
        ["v still on fo, 5 phases on: its damage again", "v still on fo, 10 phases on: its damage again"]
    house = {"carwars": {"dropped": {"oil": {"liquid_damage_every_phases": 3}}}}
    assert _liquid_phases(scenario(rules=house, **doc), SeededDice(3)) == [(1, 1), (1, 4), (2, 2), (2, 5), (3, 3)]
    still = dict(meta={"turns": 1}, vehicle=[{"id": "v", "design": "hunter", "speed": 0}], counter=[oil])
    assert _liquid_phases(scenario(**still), SeededDice(3)) == [(1, 1)]
    both_backends(scenario(**doc))
    both_backends(scenario(rules=house, **doc))


def test_cw_seed_01_a_slick_is_met_when_run_onto_not_when_its_adjacent_squares_are():
    """CW-DROP-04 / CW-SEED-01: a slick ends at its counter's edge: a hunter at 5 mph whose first phase of movement
    ends within the slick's adjacent squares (1/4" all round) but off the slick, and whose next runs onto it, meets
    the flaming oil the phase it runs onto it (before, touching the adjacent squares first used up its one check
    and it never met the slick at all)."""
    # hunter front at y = 1.0; 5 mph: 1/2" in one phase of each turn. The slick starts 1.2" ahead: turn 1's move ends
    # 0.2" short of the slick's edge (within the adjacent 1/4"), turn 2's runs 0.3" onto it.
    oil = {"id": "fo", "weapon": "Flaming Oil Jet", "x": 0.0, "y": 1.7, "width": 0.5, "length": 1.0}
    doc = dict(meta={"turns": 2}, vehicle=[{"id": "v", "design": "hunter", "speed": 5}], counter=[oil])
    got = _liquid_phases(scenario(**doc), SeededDice(3))
    assert len(got) == 1 and got[0][0] == 2
    both_backends(scenario(**doc))


def test_cw_drop_04_oil_adds_d2_to_maneuvers_and_hazards_and_firing_on_it_is_minus_1():
    """CW-DROP-04 / CW-HIT-08 / CW-HIT-10 (issue 9, defect 4): a vehicle with any part on an oil slick makes every
    maneuver D2 harder and every hazard it meets (enemy fire's too) D2 worse; the slick alone is no hazard; firing
    from oil is -1.

    Hand-worked, one turn: the hunter at the origin, north at 10 mph (1" in phase 1), crosses an oil slick
    (0.5" x 1" centred at (0, 1)) while making a D1 maneuver, then fires its MG at a compact still at (0, 5.9) showing
    its back. MG 7; compact -1, car from the back -1; range 3.9" 0; speed 10/2: 0; target still +1; the maneuver
    D1 +D2 on oil = D3: -3; firing on oil -1: total -5, needs 12 (without the slick -2, needs 9). Dice 6+6 hit,
    damage 1d = 2: back armour 15 -> 13.
    One phase: a compact standing on a slick takes 1d = 3 hits from the hunter's MG: 1-5 hits is a D1 hazard, D3 on
    oil; the hunter, standing on a slick too, fires at -1. Source: CW seed, Dropped Weapons (oil slicks); Targeting
    Modifiers (firing while on oil, gravel or bad road)."""
    slick = {"id": "o", "weapon": "Oil Jet", "x": 0.0, "y": 1.0, "width": 0.5, "length": 1.0}
    data = dict(meta={"turns": 1},
                vehicle=[{"id": "v", "design": "hunter", "speed": 10}, {"id": "t", "design": "hunter", "y": 5.9, "speed": 0}],
                action=[{"turn": 1, "phase": 1, "kind": "maneuver", "vehicle": "v", "difficulty": 1}],
                attack=[{"id": "a", "attacker": "v", "weapon": "mg", "target": "t", "firer": "driver", "turn": 1, "phase": 1}])
    r = scenario(counter=[slick], **data).resolve(ScriptedDice([6, 6, 2]))
    b = r.phases[0].breakdowns[0]
    assert b.needed == 12
    assert [(m.rule, m.value) for m in b.modifiers if m.rule in ("CW-HIT-08", "CW-HIT-10")] == [("CW-HIT-08", -1), ("CW-HIT-10", -3)]
    assert any(e.kind == "note" and e.text == "v maneuvers on an oil slick: +D2" and e.rule == "CW-DROP-04" for e in r.events)
    assert [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("back armour", 15, 13)]
    assert scenario(**data).resolve(ScriptedDice([6, 6, 2])).phases[0].breakdowns[0].needed == 9
    slicks = [dict(slick, id="o1", y=6.0), dict(slick, id="o2", y=0.0)]
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "speed": 0}, {"id": "t", "design": "hunter", "y": 6.0, "speed": 0}],
                 counter=slicks, attack=[{"id": "a", "attacker": "v", "weapon": "mg", "target": "t", "firer": "driver"}])
    assert mods_of(s.explain()[0], "CW-HIT-08") == [-1]
    r = s.resolve(ScriptedDice([6, 6, 3]))
    notes = [(e.rule, e.text) for e in r.events if e.kind == "note" and "hazard" in e.text]
    assert notes == [("CW-DMG-01", "t took 3 hit(s) this phase: a D1 hazard"), ("CW-DROP-04", "t is on an oil slick: that hazard is D3")]
    both_backends(s)


def mods_of(breakdown, rule):
    return [m.value for m in breakdown.modifiers if m.rule == rule]


def test_cw_drop_04_flaming_oil_goes_after_five_turns():
    """CW-DROP-04: flaming oil disappears after five turns; oil lasts."""
    arena = Arena()
    counters = [DroppedCounter("f", "flaming_oil", "Flaming Oil Jet", geo.Polygon.box(0, 0, 1, 1), 1),
                DroppedCounter("o", "oil", "Oil Jet", geo.Polygon.box(0, 0, 1, 1), 1)]
    for turn in range(1, 5):
        expire_counters(RULES, arena, counters, turn)
    assert [c.id for c in counters] == ["f", "o"]
    expire_counters(RULES, arena, counters, 5)
    assert [c.id for c in counters] == ["o"]


def test_cw_drop_05_clouds_expire_and_paint_windows():
    """CW-DROP-05: paint goes at the end of the turn after it was fired; smoke lasts 60 turns; paint on the windows
    means -2 to hit for the rest of the turn and the next three."""
    arena = Arena(clouds={"p": Cloud("p", "paint", geo.Polygon.box(0, 0, 1, 1), 3), "s": Cloud("s", "smoke", geo.Polygon.box(0, 0, 1, 1), 3)})
    expire_counters(RULES, arena, [], 3)
    assert set(arena.clouds) == {"p", "s"}
    expire_counters(RULES, arena, [], 4)
    assert set(arena.clouds) == {"s"}
    expire_counters(RULES, arena, [], 61)
    assert set(arena.clouds) == {"s"}
    expire_counters(RULES, arena, [], 62)
    assert set(arena.clouds) == set()
    s = scenario(meta={"turns": 1}, vehicle=[{"id": "v", "design": "hunter", "speed": 10}],
                 cloud=[{"id": "pc", "kind": "paint", "x": 0, "y": 1.0, "width": 1, "length": 0.5}])
    r = s.resolve(SeededDice(1))
    assert any(e.kind == "state" and e.field == "paint on windows until turn" and e.after == 4 for e in r.events)


def test_cw_drop_05_smoke_only_from_rear_or_side():
    """CW-DROP-05: smoke and paint are laid by rear or side mounts."""
    v = vehicle(weapon=[{"id": "s", "type": "Smokescreen", "mount": "front"}])
    with pytest.raises(RuleViolation, match="rear or side.*CW-DROP-05"):
        drop_weapon(RULES, Arena(vehicles={"v": v}), v, v.weapon("s"), "c1", ScriptedDice([]))


def test_cw_drop_05_a_cloud_laid_by_a_car_turned_off_the_grid_follows_the_car_and_stays_where_it_was_laid():
    """CW-DROP-05: a cloud is oriented by the vehicle that lays it, not by the grid, and stays where it was laid.

    Hand-worked: a hunter at the origin facing 30 at 20 mph (1" in phases 1 and 3) drops its right-side
    smokescreen in turn 1, phase 1, before it moves. A smoke cloud is 1/2" wide and 1" long, along the car; moving,
    a side mount puts it 1/2" off the centreline with its front edge across the car's centre: local (0.5, -0.5). With
    r = sqrt(3), sin 30 = 1/2, cos 30 = r/2, local (x, y) is world (x r/2 + y/2, -x/2 + y r/2): its centre is
    ((r - 1)/4, -(1 + r)/4); its corners (front-left, front-right, back-right, back-left) are (r/8, -1/8) (the middle
    of the car's right side), (3r/8, -3/8), ((3r - 4)/8, -(3 + 4r)/8), ((r - 4)/8, -(1 + 4r)/8). Two turns later
    the car has gone 4" along its heading, to (2, 2r), and the cloud is where it was laid, unchanged.
    Source: CW seed, Paint and Smoke (clouds follow the vehicle's position, not the grid, and stay where laid)."""
    r3 = 3 ** 0.5
    s = scenario(meta={"turns": 2}, vehicle=[{"id": "v", "design": "hunter", "facing": 30.0, "speed": 20,
                                             "weapon": [{"id": "ss", "type": "Smokescreen", "mount": "right", "ammo": 10}]}],
                 action=[{"turn": 1, "phase": 1, "kind": "drop", "vehicle": "v", "weapon": "ss"}])
    result = s.resolve(ScriptedDice([]), commit=True)
    assert [(e.text, e.rule) for e in result.events if e.kind == "note" and "lays" in e.text] == [
        ("v lays smoke (Smokescreen) at (0.18, -0.68)", "CW-DROP-05")]
    assert list(s.arena.clouds) == ["ss.t1p1"]
    cloud = s.arena.clouds["ss.t1p1"]
    assert (cloud.kind, cloud.placed_turn) == ("smoke", 1)
    corners = [(r3 / 8, -1 / 8), (3 * r3 / 8, -3 / 8), ((3 * r3 - 4) / 8, -(3 + 4 * r3) / 8), ((r3 - 4) / 8, -(1 + 4 * r3) / 8)]
    assert [p for vertex in sorted(cloud.polygon.vertices) for p in vertex] == pytest.approx(
        [p for corner in sorted(corners) for p in corner], abs=1e-9)
    v = s.arena.vehicles["v"]
    assert (v.x, v.y, v.facing) == pytest.approx((2.0, 2 * r3, 30.0), abs=1e-9)


def test_cw_drop_05_a_tear_gas_cloud_is_laid_and_works_as_smoke():
    """CW-DROP-05 / CW-LOF-04: tear gas laid from a smokescreen works as smoke for targeting (what it does to
    pedestrians is on a page the seed lacks). The engine does not model a weapon's load: a gas weapon (the gas
    streamer, whose loads include tear gas) lays its cloud as smoke (docs/rulings_weapons.md, section 8), the very
    cloud a smokescreen lays, and it works as smoke.

    Hand-worked: a standing hunter at the origin drops a right-side gas streamer: standing, a side mount puts the
    1/2" x 1" cloud straight out from the side, across the car: x 0.25 to 1.25, y -0.25 to 0.25; kind smoke; one
    of its 2 shots spent. A standing shogun at (0.75, -3) fires its front MG (7) at a standing hunter at (0.75, 3),
    whose back it sees: compact -1, car from the back -1, range 5" -1, both still +1 +1, computer +1, and the
    cloud's 1/2" crossed -1 (CW-LOF-04): -1, needs 8 (7 without the cloud). Its turret laser cannot fire through
    it at all (no clear line avoids it): refused, CW-LOF-04. A smokescreen's cloud gives the same figures.
    Source: CW seed, Paint and Smoke (tear gas in a smokescreen affects targeting as smoke does)."""
    from hardpoint.carwars.attack import Attack, explain_attack

    def after_drop(weapon_type, drop=True):
        s = scenario(vehicle=[{"id": "layer", "design": "hunter", "speed": 0, "weapon": [{"id": "gs", "type": weapon_type, "mount": "right"}]},
                              {"id": "shooter", "design": "shogun", "x": 0.75, "y": -3.0, "speed": 0},
                              {"id": "t", "design": "hunter", "x": 0.75, "y": 3.0, "speed": 0}])
        layer = s.arena.vehicles["layer"]
        events = drop_weapon(RULES, s.arena, layer, layer.weapon("gs"), "cl", ScriptedDice([]))[0] if drop else []
        return s, events

    s, events = after_drop("Gas Streamer")
    assert [(e.subject, e.field, e.before, e.after) for e in events if e.kind == "state"] == [("layer gs", "ammo", 2, 1)]
    assert [e.text for e in events if e.kind == "note"] == ["layer lays smoke (Gas Streamer) at (0.75, 0.00)"]
    cloud = s.arena.clouds["cl"]
    assert cloud.kind == "smoke" and sorted(cloud.polygon.vertices) == [(0.25, -0.25), (0.25, 0.25), (1.25, -0.25), (1.25, 0.25)]
    mg = Attack("a", "shooter", "mg", "t", firer="driver")
    b = explain_attack(s.arena, mg, s.rules)
    assert [(m.rule, m.value) for m in b.modifiers if m.rule == "CW-LOF-04"] == [("CW-LOF-04", -1)] and b.needed == 8
    with pytest.raises(RuleViolation, match="laser.*smoke or paint.*CW-LOF-04"):
        explain_attack(s.arena, Attack("a", "shooter", "laser", "t", firer="gunner"), s.rules)
    smoke, _ = after_drop("Smokescreen")
    assert smoke.arena.clouds["cl"] == cloud and explain_attack(smoke.arena, mg, smoke.rules).modifiers == b.modifiers
    clear, _ = after_drop("Gas Streamer", drop=False)
    assert explain_attack(clear.arena, mg, clear.rules).needed == 7


def test_cw_veh_03_a_destroyed_or_empty_dropper_drops_nothing():
    """CW-VEH-03 / CW-DROP-01: a destroyed minedropper, or one out of ammunition, is refused (naming the weapon and
    the rule) and nothing changes: no counter, no ammunition spent."""
    v = vehicle()
    arena = Arena(vehicles={"v": v})
    dp, v.weapon("md").dp = v.weapon("md").dp, 0
    with pytest.raises(RuleViolation, match="is destroyed.*CW-VEH-03"):
        drop_weapon(RULES, arena, v, v.weapon("md"), "c1", ScriptedDice([]))
    v.weapon("md").dp, v.weapon("md").ammo = dp, 0
    with pytest.raises(RuleViolation, match="out of ammunition.*CW-VEH-03"):
        drop_weapon(RULES, arena, v, v.weapon("md"), "c1", ScriptedDice([]))
    assert arena.counters == [] and v.weapon("md").ammo == 0


def test_cw_drop_06_dropped_weapon_in_water():
    """CW-DROP-06: fired in water, 1d 1-2: the weapon takes 1d-3; mines lie hidden; oil has no effect."""
    v = vehicle(water_depth_ft=1.0, weapon=[{"id": "md", "type": "Minedropper", "mount": "back"}, {"id": "oj", "type": "Oil Jet", "mount": "back"}])
    arena = Arena(vehicles={"v": v})
    _, counter = drop_weapon(RULES, arena, v, v.weapon("md"), "c1", ScriptedDice([2, 5]))
    assert counter.hidden and v.weapon("md").dp == 0
    _, oil = drop_weapon(RULES, arena, v, v.weapon("oj"), "c2", ScriptedDice([4]))
    assert oil.inert and v.weapon("oj").dp == 3


# --- automatic ------------------------------------------------------------------------------

def test_cw_auto_01_turret_weapons_cannot_go_on_automatic():
    """CW-AUTO-01: a turret weapon put on automatic is an error that changes nothing."""
    v = vehicle(design="shogun")
    with pytest.raises(RuleViolation, match="turret-mounted.*CW-AUTO-01"):
        set_automatic(v, v.weapon("laser"), True)
    assert not v.weapon("laser").automatic
    with pytest.raises(RuleViolation, match="CW-AUTO-01"):
        vehicle(design="shogun", weapon=[{"id": "laser", "type": "Laser", "mount": "turret", "automatic": True}])


def test_cw_auto_01_fires_at_the_nearest_thing_on_its_line():
    """CW-AUTO-01 (RULING): straight out from its side; the nearest thing crossing the line takes the shot."""
    v = vehicle(weapon=[{"id": "mg", "type": "MG", "mount": "front", "automatic": True}])
    near = vehicle("near", y=4.0, facing=90.0)
    far = vehicle("far", y=8.0, facing=90.0)
    off = vehicle("off", x=3.0, y=2.0)
    arena = Arena(vehicles={"v": v, "near": near, "far": far, "off": off})
    assert automatic_target(arena, v, v.weapon("mg")) == "near"


def test_cw_auto_01_a_diagonal_line_takes_only_what_lies_on_it_near_or_far():
    """CW-AUTO-01 (RULING: straight out from the middle of its side): a car at (0, 0) facing 45 fires its front weapon
    on automatic along the diagonal y = x from the middle of its front, (sqrt(2)/4, sqrt(2)/4). A building due north of
    that point, 20" up, is off the line; so is one about 990" out whose nearest corner (700.6, 700.2) lies
    0.4 / sqrt(2) = 0.28" to the right of the line: nothing takes the shot. A building of the same size straddling
    the line that far out, (700.1..700.3, 700.1..700.3), is on it and takes the shot."""
    v = vehicle(x=0.0, y=0.0, facing=45.0, speed=0, weapon=[{"id": "mg", "type": "MG", "mount": "front", "automatic": True}])
    o = v.counter.side_midpoint("front")
    assert o == pytest.approx((2 ** 0.5 / 4, 2 ** 0.5 / 4))

    def square(ident, x0, y0, x1, y1):
        return Building(ident, geo.Polygon(((x0, y0), (x1, y0), (x1, y1), (x0, y1))))

    north = square("north", o[0] - 0.5, o[1] + 20.0, o[0] + 0.5, o[1] + 21.0)
    beside = square("beside", 700.6, 700.0, 700.8, 700.2)
    on = square("on", 700.1, 700.1, 700.3, 700.3)
    for b, expected in ((north, None), (beside, None), (on, "on")):
        assert automatic_target(Arena(vehicles={"v": v}, buildings={b.id: b}), v, v.weapon("mg")) == expected


def test_cw_auto_01_no_computer_no_specific_target_fires_at_end_of_turn():
    """CW-AUTO-01: automatic fire in a turn: at phase 5, no computer bonus; a specific target is refused."""
    s = scenario(meta={"turns": 1}, vehicle=[{"id": "v", "design": "hunter", "computer": "targeting", "speed": 0,
                                             "weapon": [{"id": "mg", "type": "MG", "mount": "front", "automatic": True}]},
                                            {"id": "t", "design": "hunter", "y": 4.0, "facing": 90.0, "speed": 0}])
    r = s.resolve(SeededDice(4))
    auto = [b for p in r.phases for b in p.breakdowns]
    assert len(auto) == 1 and r.phases[4].breakdowns and not any(m.rule == "CW-HIT-08" for m in auto[0].modifiers)
    with pytest.raises(RuleViolation, match="CW-AUTO-01"):
        scenario(vehicle=[{"id": "v", "design": "hunter", "weapon": [{"id": "mg", "type": "MG", "mount": "front", "automatic": True}]},
                          {"id": "t", "design": "hunter", "y": 4.0}],
                 attack=[{"id": "a", "attacker": "v", "weapon": "mg", "target": "t", "aim": "tire:front_left"}])


def test_cw_auto_01_no_firer_modifier_of_any_kind_on_automatic_but_the_bad_surface_counts():
    """CW-AUTO-01 / CW-HIT-08 (issue 9, defect 12; SPEC ruling): a weapon on automatic is aimed by no one, so no firer
    modifier of any kind applies: no computer, no gunner skill and no wounded firer's -2; the vehicle's own situation
    (oil, gravel, a bad road: -1) still does.

    Hand-worked: the hunter (targeting computer, its wounded driver with gunner skill +2, on a bad road) fires its front
    MG on automatic at a compact 4" ahead showing its back. MG 7; compact -1, car from the back -1; range 3" 0; both
    still +1 +1; bad road -1: total -1, needs 8 (aimed, the same shot takes computer +1, skill +2, wounded -2: needs 7).
    Dice 6+2 = 8 hits, damage 1d = 5: back armour 15 -> 10. In the kernel, a collision that wounds or knocks out the
    driver changes nothing about the automatic shot. Source: CW seed, Automatic Fire; Targeting Modifiers."""
    crew = [{"id": "driver", "role": "driver", "seat": "front_left", "hits": 1, "gunner": 2}]
    shooter = {"id": "v", "design": "hunter", "computer": "targeting", "on_bad_surface": True, "speed": 0, "crew": crew,
               "weapon": [{"id": "mg", "type": "MG", "mount": "front", "automatic": True}, {"id": "mg2", "type": "MG", "mount": "front"}]}
    target = {"id": "t", "design": "hunter", "y": 4.0, "speed": 0}
    s = scenario(vehicle=[shooter, target], attack=[{"id": "a", "attacker": "v", "weapon": "mg", "target": "t", "firer": "driver"}])
    b = s.explain()[0]
    assert b.automatic and b.needed == 8
    assert [(m.name, m.value) for m in b.modifiers if m.rule == "CW-HIT-08"] == [("firing on oil, gravel or a bad road", -1)]
    aimed = scenario(vehicle=[shooter, target], attack=[{"id": "a", "attacker": "v", "weapon": "mg2", "target": "t", "firer": "driver"}])
    assert aimed.explain()[0].needed == 7
    r = s.resolve(ScriptedDice([6, 2, 5]))
    assert r.rolls[0].hit and [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("back armour", 15, 10)]
    crew[0]["hits"] = 0
    bumped = scenario(vehicle=[shooter, target], attack=[{"id": "a", "attacker": "v", "weapon": "mg", "target": "t", "firer": "driver"}],
                      collision=[{"id": "c", "vehicle": "v", "side": "left", "speed": 60}])
    com = both_backends(bumped, trials=800)
    driver = com.labels.index("v driver")
    assert (com.state[:, driver] >= 1).any()
    assert com.hit[com.state[:, driver] >= 2].any()    # the shot still fires with the driver out


# --- links ------------------------------------------------------------------------------------

LINKED = [{"id": "mg1", "type": "MG", "mount": "front"}, {"id": "mg2", "type": "MG", "mount": "front"},
          {"id": "rl", "type": "Rocket Launcher", "mount": "front"}, {"id": "md", "type": "Minedropper", "mount": "back"}]


def test_cw_link_01_identical_weapons_fire_together_with_the_same_modifiers():
    """CW-LINK-01: a link of two MGs: one to-hit roll each, both with the same modifiers; one character action."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "weapon": LINKED[:2], "links": [{"id": "pair", "weapons": ["mg1", "mg2"]}]},
                          {"id": "t", "design": "hunter", "y": 4.0}],
                 attack=[{"id": "a", "attacker": "v", "weapon": "pair", "target": "t"}])
    bs = s.explain()
    assert [b.weapon for b in bs] == ["mg1", "mg2"] and bs[0].modifiers == bs[1].modifiers
    r = s.resolve(ScriptedDice([6, 6, 1, 1, 1, 2]))
    assert [x.hit for x in r.rolls] == [True, False]


def test_cw_link_01_a_linked_weapon_may_still_fire_alone():
    """CW-LINK-01: a link is one more trigger, not a lock: with mg1 and mg2 linked, an attack with mg1 alone is one
    to-hit roll (mg1's: 6+6 hits, 1d = 4 to the front armour), mg2 is not fired and keeps its ammunition.
    Source: CW seed, Linked Weapons (each weapon may still be fired on its own)."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "weapon": LINKED[:2], "links": [{"id": "pair", "weapons": ["mg1", "mg2"]}]},
                          {"id": "t", "design": "hunter", "y": 4.0, "facing": 180.0}],
                 attack=[{"id": "a", "attacker": "v", "weapon": "mg1", "target": "t"}])
    assert [b.weapon for b in s.explain()] == ["mg1"]
    ammo = s.arena.vehicles["v"].weapon("mg2").ammo
    r = s.resolve(ScriptedDice([6, 6, 4]), commit=True)
    assert [(x.attack, x.hit) for x in r.rolls] == [("a", True)]
    assert s.arena.vehicles["v"].weapon("mg2").ammo == ammo
    assert [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("front armour", 20, 16)]


def test_cw_link_01_non_identical_fire_as_automatic_and_dropped_are_dropped():
    """CW-LINK-01: MGs + rocket launcher + minedropper: the MGs aimed, the rocket as if on automatic (no computer),
    the minedropper dropped."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "computer": "targeting", "weapon": LINKED,
                           "links": [{"id": "all", "weapons": ["mg1", "mg2", "rl", "md"]}]},
                          {"id": "t", "design": "hunter", "y": 4.0}],
                 attack=[{"id": "a", "attacker": "v", "weapon": "all", "target": "t"}])
    bs = s.explain()
    assert [b.weapon for b in bs] == ["mg1", "mg2", "rl"]
    assert any(m.rule == "CW-HIT-08" for m in bs[0].modifiers) and not any(m.rule == "CW-HIT-08" for m in bs[2].modifiers)
    r = s.resolve(SeededDice(9))
    assert any(e.kind == "note" and "drops Minedropper" in e.text for e in r.events)


def test_cw_link_01_a_links_rolls_are_reported_one_column_per_weapon():
    """CW-LINK-01: an attack with a link is reported under one column per weapon it fires, <attack>/<weapon>, in the
    link's order, aimed except the dropped minedropper (which rolls nothing); an attack with one weapon is one column,
    the attack's own id."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "weapon": LINKED, "links": [{"id": "all", "weapons": ["mg1", "mg2", "rl", "md"]}]},
                          {"id": "t", "design": "hunter", "y": 4.0, "facing": 180.0}],
                 attack=[{"id": "a", "attacker": "v", "weapon": "all", "target": "t"}, {"id": "b", "attacker": "t", "weapon": "mg", "target": "v"}])
    assert [attack_columns(s.arena, a) for a in s.attacks] == [
        [("a/mg1", "mg1", True), ("a/mg2", "mg2", True), ("a/rl", "rl", True), ("a/md", "md", False)], [("b", "mg", True)]]


def test_cw_link_01_turret_and_body_need_a_smart_link():
    """CW-LINK-01: turret and body weapons aim together only with a smart link."""
    weapons = [{"id": "t1", "type": "MG", "mount": "turret"}, {"id": "b1", "type": "MG", "mount": "front"}]
    base = {"id": "v", "design": "shogun", "weapon": weapons}
    attack = [{"id": "a", "attacker": "v", "weapon": "l", "target": "t"}]
    with pytest.raises(RuleViolation, match="smart link"):
        scenario(vehicle=[{**base, "links": [{"id": "l", "weapons": ["t1", "b1"]}]}, {"id": "t", "design": "hunter", "y": 4.0}], attack=attack)
    s = scenario(vehicle=[{**base, "links": [{"id": "l", "weapons": ["t1", "b1"], "smart": True}]}, {"id": "t", "design": "hunter", "y": 4.0}],
                 attack=attack)
    assert len(s.explain()) == 2


def test_cw_link_01_identical_weapons_aim_together_only_from_one_side_or_the_turret():
    """CW-LINK-01: identical weapons are linked and aimed together from the same side (or the turret): a front MG
    linked with a back MG, or a left with a front one, is refused when the link fires (at load, for a declared
    attack), naming the link; the same two MGs both in front aim together, and an MG with a minedropper on
    another side is fine (a dropped weapon links with anything). A smart link joins turret and body weapons but
    not two sides of the body. Source: CW seed, Linked Weapons ("from the same side (or in a turret)")."""
    def load(mounts, smart=False):
        weapons = [{"id": f"w{i}", "type": t, "mount": m} for i, (t, m) in enumerate(mounts)]
        return scenario(vehicle=[{"id": "v", "design": "shogun", "weapon": weapons,
                                  "links": [{"id": "l", "weapons": [w["id"] for w in weapons], "smart": smart}]},
                                 {"id": "t", "design": "hunter", "x": 3.0, "y": 3.0}],
                        attack=[{"id": "a", "attacker": "v", "weapon": "l", "target": "t"}])

    for mounts, smart in (((("MG", "front"), ("MG", "back")), False), ((("MG", "left"), ("MG", "front")), False),
                          ((("MG", "turret"), ("MG", "front"), ("MG", "right")), True)):
        with pytest.raises(RuleViolation) as err:
            load(mounts, smart)
        assert (err.value.field, err.value.value, err.value.rule) == ("attack[0].weapon", "l", "CW-LINK-01")
        assert "only from one side or the turret" in str(err.value)
    assert [b.weapon for b in load((("MG", "front"), ("MG", "front"))).explain()] == ["w0", "w1"]
    assert [b.weapon for b in load((("MG", "turret"), ("MG", "front")), smart=True).explain()] == ["w0", "w1"]
    assert [b.weapon for b in load((("MG", "front"), ("Minedropper", "back"))).explain()] == ["w0"]


def test_cw_link_01_links_of_links_and_bad_links():
    """CW-LINK-01: links can be linked again; a link naming an unknown weapon is refused."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "weapon": LINKED[:2],
                           "links": [{"id": "a1", "weapons": ["mg1"]}, {"id": "a2", "weapons": ["mg2"]}, {"id": "both", "weapons": ["a1", "a2"]}]},
                          {"id": "t", "design": "hunter", "y": 4.0}],
                 attack=[{"id": "a", "attacker": "v", "weapon": "both", "target": "t"}])
    assert [b.weapon for b in s.explain()] == ["mg1", "mg2"]
    with pytest.raises(ScenarioError, match="CW-LINK-01"):
        scenario(vehicle=[{"id": "v", "design": "hunter", "links": [{"id": "l", "weapons": ["ghost"]}]}])


# --- hand weapons ------------------------------------------------------------------------------

def test_cw_hand_01_at_most_six_grenade_equivalents():
    """CW-HAND-01: six grenades are allowed, a seventh is refused naming the field; a rifle counts 2."""
    ped = {"id": "p", "weapons": ["Explosive Grenade"] * 6}
    assert scenario(pedestrian=[ped])
    with pytest.raises(RuleViolation, match=r"pedestrian\[0\]\.weapons\[6\].*CW-HAND-01"):
        scenario(pedestrian=[{"id": "p", "weapons": ["Explosive Grenade"] * 7}])
    with pytest.raises(RuleViolation, match="CW-HAND-01"):
        scenario(pedestrian=[{"id": "p", "weapons": ["Rifle", "Rifle", "Explosive Grenade", "Explosive Grenade", "Explosive Grenade"]}])


def test_cw_hand_01_ranges_and_effect_on_vehicles():
    """CW-HAND-01: a grenade reaches 5", other hand weapons 20"; a pistol does nothing to vehicle components beyond
    point blank but full damage to tires."""
    far = scenario(vehicle=[{"id": "t", "design": "hunter", "y": 6.0}],
                   pedestrian=[{"id": "p", "weapons": ["Explosive Grenade"]}],
                   attack=[{"id": "a", "attacker": "p", "weapon": "Explosive Grenade", "target": "t"}]).explain()[0]
    assert not far.possible and "5" in far.reason
    s = scenario(vehicle=[{"id": "t", "design": "hunter", "y": 3.0}], pedestrian=[{"id": "p", "weapons": ["Heavy Pistol"]}],
                 attack=[{"id": "a", "attacker": "p", "weapon": "Heavy Pistol", "target": "t"}])
    r = s.resolve(ScriptedDice([6, 6]))
    assert r.state["vehicles"]["t"]["armour"]["front"] == 20
    s = scenario(vehicle=[{"id": "t", "design": "hunter", "y": 3.0}], pedestrian=[{"id": "p", "weapons": ["Heavy Pistol"]}],
                 attack=[{"id": "a", "attacker": "p", "weapon": "Heavy Pistol", "target": "t", "aim": "tire:front_left"}])
    r = s.resolve(ScriptedDice([6, 6]))
    assert r.state["vehicles"]["t"]["tires"]["front_left"] == 4


def test_cw_hand_01_a_character_who_fires_a_vehicle_weapon_fires_no_hand_weapon():
    """CW-HAND-01 / CW-ROF-01: the driver fires the MG; his pistol shot the same turn is refused."""
    with pytest.raises(RuleViolation, match="CW-ROF-01"):
        scenario(vehicle=[{"id": "v", "design": "hunter", "crew": [{"id": "d", "role": "driver", "seat": "front_left", "hand_weapons": ["Heavy Pistol"]}]},
                          {"id": "t", "design": "hunter", "x": -2.0, "y": 2.25}],
                 attack=[{"id": "a", "attacker": "v", "weapon": "mg", "target": "t", "firer": "d"},
                         {"id": "b", "attacker": "v", "weapon": "Heavy Pistol", "target": "t", "firer": "d"}])


def _fetching(box_dp: int):
    """A van whose gunner (front right) spends turn 1 getting a grenade out of a box of them in the cargo, the box's
    damage points `box_dp` (0: destroyed); a target to his right."""
    return scenario(meta={"turns": 1},
                    vehicle=[{"id": "v", "design": "shogun", "cargo": [{"id": "grenade_box", "dp": 2, "current_dp": box_dp}]},
                             {"id": "t", "design": "hunter", "x": 3.0}],
                    action=[{"turn": 1, "phase": 1, "kind": "fetch_grenade", "vehicle": "v", "crew": "gunner"}])


def test_cw_hand_01_a_crew_member_gets_a_grenade_from_the_cargo_in_a_turn():
    """CW-HAND-01: getting a grenade out of a box in the cargo takes the character's turn; he then carries it and
    may throw it the next turn. A box destroyed gives none: the action is cancelled, naming the rule. A plan that
    has him fire in the turn he fetches is refused (CW-ROF-01)."""
    from hardpoint.carwars.attack import Attack

    s = _fetching(2)
    r = s.resolve(SeededDice(1, trial=0), commit=True)
    gunner = s.arena.vehicles["v"].crew_member("gunner")
    assert gunner.hand_weapons == ("Explosive Grenade",)
    assert any("grenade out of the cargo box" in str(e) for e in r.events)
    s.plan.attacks[(2, 1)] = [Attack("g", "v", "Explosive Grenade", "t", firer="gunner")]
    r = s.resolve(SeededDice(1, trial=0), commit=True)
    thrown = [e for e in r.events if getattr(e, "attack", None) == "g"]
    assert thrown and thrown[0].possible and thrown[0].weapon == "Explosive Grenade"

    s = _fetching(0)
    r = s.resolve(SeededDice(1, trial=0), commit=True)
    assert s.arena.vehicles["v"].crew_member("gunner").hand_weapons == ()
    assert any("fetch_grenade of v cancelled: no box of grenades" in str(e) and "CW-HAND-01" in str(e) for e in r.events)

    with pytest.raises(RuleViolation, match="CW-ROF-01"):
        scenario(meta={"turns": 1},
                 vehicle=[{"id": "v", "design": "shogun", "cargo": [{"id": "grenade_box", "dp": 2}]},
                          {"id": "t", "design": "hunter", "x": 3.0}],
                 action=[{"turn": 1, "phase": 1, "kind": "fetch_grenade", "vehicle": "v", "crew": "gunner"}],
                 attack=[{"id": "a", "turn": 1, "phase": 3, "attacker": "v", "weapon": "laser", "target": "t", "firer": "gunner"}])


def test_cw_crew_01_an_unconscious_or_dead_crew_member_fetches_no_grenade_and_steers_nothing():
    """CW-CREW-01: a character who is unconscious (2 hits) or dead (3) cannot act, so his `fetch_grenade` is
    cancelled, naming the rule, and he carries nothing more; wounded (1 hit) he still fetches. The same for a
    substitute driver's `steer`: knocked out after he took the controls, he steers nothing (the vehicle keeps no
    turn of his steering, which would bar him from firing)."""
    for hits, fetched in ((0, True), (1, True), (2, False), (3, False)):
        s = _fetching(2)
        s.arena.vehicles["v"].crew_member("gunner").hits = hits
        r = s.resolve(SeededDice(1, trial=0), commit=True)
        gunner = s.arena.vehicles["v"].crew_member("gunner")
        assert gunner.hand_weapons == (("Explosive Grenade",) if fetched else ()), hits
        cancelled = [e for e in r.events if "fetch_grenade of v cancelled" in str(e)]
        assert bool(cancelled) != fetched, (hits, cancelled)
        if not fetched:
            assert "CW-CREW-01" in str(cancelled[0]) and "cannot act" in str(cancelled[0]), cancelled

    def steering(gunner_hits: int):
        from hardpoint.carwars.phase import FiredThisTurn
        from hardpoint.carwars.turn import Action, do_action

        s = scenario(vehicle=[{"id": "v", "design": "shogun", "speed": 0,
                               "crew": [{"id": "driver", "role": "driver", "seat": "front_left", "hits": 3},
                                        {"id": "gunner", "role": "gunner", "seat": "front_right", "gunner": 1}]}])
        v = s.arena.vehicles["v"]
        v.substitute, v.substitute_from_turn = "gunner", 1     # he took over in turn 1, then was knocked out
        v.crew_member("gunner").hits = gunner_hits
        s.arena.turn = 2
        return do_action(s.rules, s.arena, Action(2, 1, "steer", "v", crew="gunner"), SeededDice(1, trial=0),
                          FiredThisTurn(), "action[0]"), v

    events, v = steering(1)
    assert v.steered_turn == 2 and "gunner steers v" in str(events[0]), events
    with pytest.raises(RuleViolation, match="CW-CREW-01") as err:
        steering(2)
    assert err.value.field == "action[0].crew" and err.value.value == "gunner"


def test_cw_hand_01_a_thrown_grenade_is_used_up():
    """CW-HAND-01: each grenade a character carries is one entry of his hand weapons, and throwing it (the attack
    rolled, hit or miss) uses it up. A pedestrian with two grenades and a rifle throws one in turn 1 and one in turn
    2: then he carries the rifle only. A plan that has him throw a third is refused on load, naming the attack and
    the rule; a gunner who got his one grenade out of a box throws it, and a second throw is cancelled when its
    turn comes."""
    from hardpoint.carwars.attack import Attack

    def grenadier(throws: int):
        return scenario(meta={"turns": 3},
                        vehicle=[{"id": "car", "design": "hunter", "x": 0.0, "y": 3.0, "speed": 0}],
                        pedestrian=[{"id": "g", "x": 0.0, "y": 0.0,
                                     "weapons": ["Explosive Grenade", "Explosive Grenade", "Rifle"]}],
                        attack=[{"id": f"t{k}", "turn": k + 1, "phase": 1, "attacker": "g", "weapon": "Explosive Grenade",
                                 "target": "car"} for k in range(throws)])

    s = grenadier(2)
    r = s.resolve(SeededDice(3, trial=0), commit=True)
    assert s.arena.pedestrians["g"].weapons == ("Rifle",)
    used = [(e.before, e.after) for e in r.events if getattr(e, "rule", None) == "CW-HAND-01" and "carried" in str(e)]
    assert used == [(2, 1), (1, 0)], used
    with pytest.raises(RuleViolation, match="CW-HAND-01") as err:
        grenadier(3)
    assert err.value.field == "attack[2].weapon" and err.value.value == "Explosive Grenade"
    fetch_then = [{"id": f"t{k}", "turn": k + 2, "phase": 1, "attacker": "v", "weapon": "Explosive Grenade", "target": "t",
                   "firer": "gunner"} for k in range(2)]
    for throws in (1, 2):      # one grenade got out of the box: one throw, not two
        make = lambda: scenario(meta={"turns": 3},
                                vehicle=[{"id": "v", "design": "shogun", "cargo": [{"id": "grenade_box", "dp": 2}]},
                                         {"id": "t", "design": "hunter", "x": 3.0}],
                                action=[{"turn": 1, "phase": 1, "kind": "fetch_grenade", "vehicle": "v", "crew": "gunner"}],
                                attack=fetch_then[:throws])
        if throws == 1:
            make()
        else:
            with pytest.raises(RuleViolation, match="CW-HAND-01") as err:
                make()
            assert err.value.field == "attack[1].weapon"

    s = _fetching(2)
    s.resolve(SeededDice(1, trial=0), commit=True)
    s.plan.attacks[(2, 1)] = [Attack("g1", "v", "Explosive Grenade", "t", firer="gunner")]
    s.plan.attacks[(3, 1)] = [Attack("g2", "v", "Explosive Grenade", "t", firer="gunner")]
    r = s.resolve(SeededDice(1, trial=0), commit=True)          # turn 2
    assert [e.attack for e in r.events if type(e).__name__ == "AttackRoll"] == ["g1"]
    assert s.arena.vehicles["v"].crew_member("gunner").hand_weapons == ()
    r = s.resolve(SeededDice(1, trial=0), commit=True)          # turn 3
    assert not [e for e in r.events if type(e).__name__ == "AttackRoll"]
    assert any("g2 cancelled" in str(e) and "CW-HAND-01" in str(e) for e in r.events), [str(e) for e in r.events][:8]


def _full_hands(turns: int, attacks: list[dict], actions: list[dict], boxes: int = 1, rules: dict | None = None):
    """A van whose driver carries six grenades (the most he may, CW-HAND-01) and whose cargo holds `boxes` boxes of
    them; a car to his left (his side of the van), within a grenade's 5"."""
    return scenario(meta={"turns": turns}, rules=rules or {},
                    vehicle=[{"id": "v", "design": "shogun", "speed": 0,
                              "cargo": [{"id": f"grenade_box{k}", "dp": 2} for k in range(boxes)],
                              "crew": [{"id": "driver", "role": "driver", "seat": "front_left",
                                        "hand_weapons": ["Explosive Grenade"] * 6},
                                       {"id": "gunner", "role": "gunner", "seat": "front_right"}]},
                             {"id": "t", "design": "hunter", "x": -3.0, "speed": 0}],
                    attack=attacks, action=actions)


def test_cw_hand_01_a_character_who_has_thrown_may_fetch_another_grenade():
    """CW-HAND-01: at most six grenade-equivalents a character, counted when he gets one out of a box: what he
    carried, less the grenades he has thrown (each is used up), plus those he got out before. A driver with six
    grenades throws one in turn 1 and fetches one in turn 2: the plan loads (it was refused while every grenade
    fetched counted, thrown or not), and he ends with six. A second fetch in turn 3, with no throw between, is
    refused on load, naming the action's crew and the rule. A throw the dice cancel leaves him one more: then the
    fetch is cancelled when its turn comes, naming the rule."""
    throw = [{"id": "g", "turn": 1, "phase": 1, "attacker": "v", "weapon": "Explosive Grenade", "target": "t", "firer": "driver"}]
    fetch = [{"turn": 2, "phase": 1, "kind": "fetch_grenade", "vehicle": "v", "crew": "driver"}]
    s = _full_hands(2, throw, fetch)
    r = s.resolve(SeededDice(1, trial=0), commit=True)
    assert s.arena.vehicles["v"].crew_member("driver").hand_weapons == ("Explosive Grenade",) * 6
    assert any("grenade out of the cargo box" in str(e) for e in r.events)
    with pytest.raises(RuleViolation, match="CW-HAND-01") as err:
        _full_hands(3, throw, fetch + [{"turn": 3, "phase": 1, "kind": "fetch_grenade", "vehicle": "v", "crew": "driver"}])
    assert err.value.field == "action[1].crew[6]" and err.value.value == "Explosive Grenade", (err.value.field, err.value.value)
    with pytest.raises(RuleViolation, match="CW-HAND-01"):
        _full_hands(2, [], fetch)                    # no throw before: seven

    s = _full_hands(2, throw, fetch)
    s.arena.vehicles["t"].x = 3.0                   # (the dice's stand-in: the throw is cancelled when its turn comes)
    r = s.resolve(SeededDice(1, trial=0), commit=True)
    assert any("g cancelled" in str(e) for e in r.events)
    assert any("fetch_grenade of v cancelled" in str(e) and "grenade-equivalents" in str(e) and "CW-HAND-01" in str(e)
               for e in r.events), [str(e) for e in r.events]
    assert s.arena.vehicles["v"].crew_member("driver").hand_weapons == ("Explosive Grenade",) * 6


def test_cw_hand_01_a_box_of_grenades_runs_out():
    """CW-HAND-01: a box of grenades holds 12 (`grenade_box_count`; a house rule of 2 here). Each `fetch_grenade`
    takes one from the first box of the cargo that is whole and not empty; with none, the fetch is cancelled, naming
    the rule. The driver throws a grenade a turn and fetches one the next: from one box of 2, the third fetch is
    cancelled; from two boxes, the second gives the third. The fight kernel does not count a box's grenades, so a
    plan that could get more out of a vehicle's boxes than one holds runs on the reference, naming why."""
    import warnings

    from hardpoint.backend import BackendWarning
    from hardpoint.carwars.batch import pack, run_batch
    from hardpoint.ruleset import Unpackable

    house = {"carwars": {"hand_weapons": {"grenade_box_count": 2}}}
    throws = [{"id": f"g{t}", "turn": t, "phase": 1, "attacker": "v", "weapon": "Explosive Grenade", "target": "t",
               "firer": "driver"} for t in (1, 3, 5)]
    fetches = [{"turn": t, "phase": 1, "kind": "fetch_grenade", "vehicle": "v", "crew": "driver"} for t in (2, 4, 6)]
    for boxes, taken in ((1, [2]), (2, [2, 1])):
        s = _full_hands(6, throws, fetches, boxes=boxes, rules=house)
        r = s.resolve(SeededDice(1, trial=0), commit=True)
        v = s.arena.vehicles["v"]
        assert [k.grenades_taken for k in v.cargo] == taken, boxes
        cancelled = [e for e in r.events if "fetch_grenade of v cancelled" in str(e)]
        assert len(cancelled) == (1 if boxes == 1 else 0), [str(e) for e in cancelled]
        if cancelled:
            assert "whole and not empty" in str(cancelled[0]) and "CW-HAND-01" in str(cancelled[0])
        assert v.crew_member("driver").hand_weapons == ("Explosive Grenade",) * (5 if boxes == 1 else 6)
    pytest.importorskip("hardpoint.fastcore._carwars")
    s = _full_hands(6, throws, fetches, rules=house)
    p = pack(s)
    assert isinstance(p, Unpackable) and "more grenades out of its boxes than one holds (2)" in p.reason, p
    with pytest.warns(BackendWarning, match="more grenades out of its boxes"):
        assert run_batch(s, 4, 1).backend == "reference"
    s = _full_hands(6, throws[:2], fetches[:2], rules=house)           # two from a box of two: compiled
    with warnings.catch_warnings():
        warnings.simplefilter("error", BackendWarning)
        assert run_batch(s, 4, 1, threads=1).backend == "compiled"
        s.resolve(SeededDice(1, trial=0), commit=True)      # played: the box is empty, and no fetch is left to come
        assert s.arena.vehicles["v"].cargo[0].grenades_taken == 2
        assert run_batch(s, 4, 1, threads=1).backend == "compiled"
