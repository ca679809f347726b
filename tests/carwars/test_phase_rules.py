"""The combat phase, hand-worked: what a hand weapon does to a vehicle (CW-HAND-01), where a shot at the top goes
(CW-DMG-04), the burst radius's edge (CW-DMG-06), a hit on the power plant remembered for the fire roll (CW-FIRE-02),
the 20-hit obstacle from a collision (CW-DMG-08) and sustained fire broken by automatic fire (CW-HIT-09).

Each test forces its case with scripted dice and asserts the outcome and the events. Source lines name the SPEC id
the figures come from.
"""
from types import SimpleNamespace

import pytest

import hardpoint
from hardpoint import ScriptedDice
from hardpoint.carwars.damage import Ledger, Shot
from hardpoint.carwars.enums import Side
from hardpoint.carwars.phase import Collision, burst_dice, hits_against_vehicle, resolve_phase, shot_for, update_history
from hardpoint.carwars.tables import weapon_spec

RULES = hardpoint.default_rules()


def scenario(**data):
    return hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars"}, **data})


# --- CW-HAND-01: hand weapons against vehicle components ---------------------------------------------------------

def _hand(name, damage, aimed_at="front", rng=3.0):
    ledger = Ledger("t")
    spec = weapon_spec(RULES, name, hand=True)
    hits = hits_against_vehicle(spec, SimpleNamespace(aimed_at=aimed_at, range=rng), damage, ledger)
    return hits, [(e.text, e.rule) for e in ledger.events if e.kind == "note"]


def test_cw_hand_01_vehicle_weapons_do_their_full_damage_whatever_the_range():
    """CW-HAND-01 applies to hand weapons only: a machine gun's 5 hits at 3" are 5 hits, with no note."""
    ledger = Ledger("t")
    assert hits_against_vehicle(weapon_spec(RULES, "Machine Gun"), SimpleNamespace(aimed_at="front", range=3.0), 5, ledger) == 5
    assert ledger.events == []


def test_cw_hand_01_half_effect_weapons_do_half_rounded_up():
    """CW-HAND-01: a submachine gun (listed effect: half) does half its damage to vehicle components, rounded up:
    5 -> 3, with the note. Source: SPEC CW-HAND-01 (the weapons that list an effect); CW-DMG-07 (halves round up)."""
    assert _hand("Submachine Gun", 5) == (3, [("Submachine Gun: half damage against a vehicle, rounded up", "CW-HAND-01")])


def test_cw_hand_01_full_effect_weapons_and_any_hand_weapon_on_a_tire():
    """CW-HAND-01: a laser rifle (listed effect: full) does all 4 hits at 3"; a heavy pistol (no effect on vehicles)
    does all 2 to a tire. No note either way. Source: SPEC CW-HAND-01 (full effect on tires)."""
    assert _hand("Laser Rifle", 4) == (4, [])
    assert _hand("Heavy Pistol", 2, aimed_at="tire front_left") == (2, [])


@pytest.mark.parametrize("rng,hits,note", [
    (0.5, 2, "Heavy Pistol: full effect at point blank"),
    (0.99, 2, "Heavy Pistol: full effect at point blank"),
    (1.0, 0, "Heavy Pistol does not harm vehicle components beyond point blank"),
    (3.0, 0, "Heavy Pistol does not harm vehicle components beyond point blank"),
    (None, 0, "Heavy Pistol does not harm vehicle components beyond point blank"),
])
def test_cw_hand_01_other_hand_weapons_only_at_point_blank(rng, hits, note):
    """CW-HAND-01: a heavy pistol does its 2 hits to a vehicle component only at point blank (under 1"); at 1" or
    more, or with no range measured, nothing, with the note saying why. Source: SPEC CW-HAND-01."""
    assert _hand("Heavy Pistol", 2, rng=rng) == (hits, [(note, "CW-HAND-01")])


# --- CW-DMG-04: a shot at the top ---------------------------------------------------------------------------------

def test_cw_dmg_04_a_shot_aimed_at_the_top_goes_to_the_top():
    """CW-DMG-04: a shot whose breakdown says it is aimed at the top is a shot on the top side (the reverse of the
    underbody order), whatever side the breakdown names."""
    b = SimpleNamespace(aimed_at="top", side="left", attack="a", sidecar_side=None)
    assert shot_for(b, 4) == Shot(4, Side.TOP, "top", attack="a")


# --- CW-DMG-06: the edge of the burst ------------------------------------------------------------------------------

def test_cw_dmg_06_burst_reaches_exactly_its_radius_and_no_farther():
    """CW-DMG-06: the grenade launcher's burst (radius 2") from the point hit, the middle of the target's back edge at
    (0, 3.5): "edge", a pedestrian at (-2.125, 3.4) whose counter's near side is exactly 2" away, takes the burst's 1d;
    "beyond", at (1.6, 2.0), 2.02" away at his nearest corner, does not, and rolls nothing, though listed first.
    Dice: 6+6 hit, 1d = 3 on the back armour (15 -> 12), burst on "edge" 1d = 1 (3 -> 2 DP, wounded).
    Source: SPEC CW-DMG-06 (1d to every pedestrian within the burst radius)."""
    s = scenario(vehicle=[{"id": "car", "design": "hunter", "speed": 0,
                           "weapon": [{"id": "gl", "type": "Grenade Launcher", "mount": "front"}]},
                          {"id": "target", "design": "hunter", "y": 4.0, "speed": 0}],
                 pedestrian=[{"id": "beyond", "x": 1.6, "y": 2.0}, {"id": "edge", "x": -2.125, "y": 3.4}],
                 attack=[{"id": "a", "attacker": "car", "weapon": "gl", "firer": "driver", "target": "target"}])
    assert s.explain()[0].aim_point == (0.0, 3.5)
    r = s.resolve(ScriptedDice([6, 6, 3, 1]))
    assert [(e.why, e.total) for e in r.events if e.kind == "dice" and e.rule == "CW-DMG-06"] == [("burst on edge", 1)]
    assert [(e.target, e.component, e.hits, e.before, e.after) for e in r.events if e.kind == "damage"] == [
        ("target", "back armour", 3, 15, 12), ("edge", "person", 1, 3, 2)]
    assert r.state["pedestrians"]["beyond"]["hits"] == 0 and r.state["pedestrians"]["edge"]["state"] == "wounded"


def test_cw_dmg_06_a_sheltered_pedestrian_does_not_shelter_the_next_one():
    """CW-DMG-06: each pedestrian in the burst's radius is judged on his own. The hunter's grenade launcher hits a
    hunter 4" north on the middle of its back edge, (0, 3.5); "far" at (0, 5), listed first, is behind the target
    (every line to him crosses it): no die; "near" at (0.5, 3), in the open, still takes the burst's 1d = 2
    (3 -> 1 DP). Dice: 6+6 hit, damage 1d = 3 (back armour 15 -> 12), burst on "near" 2. Source: CW seed, Burst Effect."""
    s = scenario(vehicle=[{"id": "car", "design": "hunter", "speed": 0,
                           "weapon": [{"id": "gl", "type": "Grenade Launcher", "mount": "front"}]},
                          {"id": "target", "design": "hunter", "y": 4.0, "speed": 0}],
                 pedestrian=[{"id": "far", "x": 0.0, "y": 5.0}, {"id": "near", "x": 0.5, "y": 3.0}],
                 attack=[{"id": "a", "attacker": "car", "weapon": "gl", "firer": "driver", "target": "target"}])
    dice = ScriptedDice([6, 6, 3, 2])
    r = s.resolve(dice)
    assert [(e.target, e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [
        ("target", "back armour", 15, 12), ("near", "person", 3, 1)]
    assert [e.text for e in r.events if e.kind == "note" and e.rule == "CW-DMG-06"] == ["far is behind cover: no burst damage"]
    assert dice.remaining == 0


def test_cw_dmg_06_a_grenade_bursts_with_its_own_damage_other_weapons_with_the_tables():
    """CW-DMG-06: a burst does the table's 1d (carwars.damage.burst) to each pedestrian it reaches; a grenade (a hand
    weapon with damage dice) its own: the flaming oil grenade 1d-2. A hand weapon of fixed hits and no dice (the
    concussion grenade, 1 hit) and a vehicle's grenade launcher burst with the table's 1d."""
    assert str(burst_dice(RULES, weapon_spec(RULES, "Flaming Oil Grenade", hand=True))) == "1d-2"
    assert str(burst_dice(RULES, weapon_spec(RULES, "Concussion Grenade", hand=True))) == "1d"
    assert str(burst_dice(RULES, weapon_spec(RULES, "Grenade Launcher"))) == "1d"


# --- CW-FIRE-02: a hit on the power plant -------------------------------------------------------------------------

def test_cw_fire_02_a_hit_on_the_power_plant_is_remembered_for_the_fire_roll():
    """CW-FIRE-02: an MG hit of 3 through a front with no armour and no front weapon lands on the power plant: the
    phase notes the chance of fire it brings at the end of the turn, and the vehicle's fire state records one
    component hit, not by a fiery weapon. Source: SPEC CW-FIRE-02 (a hit on the power plant)."""
    s = scenario(vehicle=[{"id": "car", "design": "hunter", "speed": 0},
                          {"id": "t", "design": "hunter", "y": 4.0, "facing": 180.0, "speed": 0, "weapon": [],
                           "armour": {"front": 0, "back": 15, "left": 15, "right": 15, "top": 10, "underbody": 10}}],
                 attack=[{"id": "a", "attacker": "car", "weapon": "mg", "target": "t"}])
    r = s.resolve(ScriptedDice([6, 6, 3]), commit=True)
    assert [(e.target, e.component, e.hits) for e in r.events if e.kind == "damage"] == [("t", "power plant", 3)]
    assert [(e.text, e.rule) for e in r.events if e.kind == "note" and e.rule.startswith("CW-FIRE")] == [
        ("power plant hit by Machine Gun: a chance of fire at the end of the turn", "CW-FIRE-02")]
    assert s.arena.fires["t"].component_hits == [False]


# --- CW-DMG-08: 20 hits in a phase ---------------------------------------------------------------------------------

@pytest.mark.parametrize("faces,obstacle", [([6, 6, 6, 2], True), ([6, 6, 6, 1], False)])
def test_cw_dmg_08_a_collision_of_20_hits_drops_an_obstacle_19_does_not(faces, obstacle):
    """CW-DMG-08 / CW-DMG-01: a car taking 20 or more hits in one phase drops an obstacle at its position, and the
    collision's hits are a hazard like a weapon's. A fixed-barrier
    collision on the front at 45 mph rolls 4d (35 mph 2d, one more die each 5 mph): 6+6+6+2 = 20 hits drop one at
    (0, 0); 6+6+6+1 = 19 do not. Source: SPEC CW-DMG-08; CW-COL-04 (collision dice by speed, the project's table)."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "speed": 45}])
    arena = s.arena.copy()
    r = resolve_phase(arena, [], RULES, ScriptedDice(faces), collisions=[Collision("c1", "v", Side.FRONT, 45)])
    assert [(e.why, e.total) for e in r.events if e.kind == "dice"] == [("collision damage at 45 mph", sum(faces))]
    # every one of those hits counts toward the phase's hazard (CW-DMG-01: 10 or more, D3)
    assert [(e.text, e.rule) for e in r.events if e.kind == "note" and e.rule == "CW-DMG-01"] == [
        (f"v took {sum(faces)} hit(s) this phase: a D3 hazard", "CW-DMG-01")]
    if obstacle:
        assert [(o.x, o.y) for o in arena.obstacles] == [(0.0, 0.0)]
        assert [(e.text, e.rule) for e in r.events if e.kind == "note" and e.rule == "CW-DMG-08"] == [
            ("v took 20 hits: an obstacle, obstacle1, drops at (0, 0)", "CW-DMG-08")]
    else:
        assert arena.obstacles == [] and not [e for e in r.events if e.rule == "CW-DMG-08"]


def test_cw_dmg_08_the_obstacle_dropped_is_a_change_of_the_arena():
    """CW-DMG-08: the 20-hit collision of the hunter at 45 mph (4d: 6+6+6+2) drops an obstacle, and the phase reports
    it as a change of the arena's obstacles from 0 to 1 before the note saying where it fell."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "speed": 45}])
    arena = s.arena.copy()
    r = resolve_phase(arena, [], RULES, ScriptedDice([6, 6, 6, 2]), collisions=[Collision("c1", "v", Side.FRONT, 45)])
    assert [(e.kind, getattr(e, "subject", None), getattr(e, "field", None), getattr(e, "before", None),
             getattr(e, "after", None)) for e in r.events if e.rule == "CW-DMG-08"] == [
        ("state", "arena", "obstacles", 0, 1), ("note", None, None, None, None)]
    assert len(arena.obstacles) == 1


# --- CW-HIT-09: automatic fire breaks sustained fire ---------------------------------------------------------------

def test_cw_hit_09_a_shot_on_automatic_records_a_streak_of_0():
    """CW-HIT-09: the history after a phase: an aimed shot in its second consecutive turn records a streak of 2; a shot
    on automatic records 0 (it breaks the streak and never earns it), with the change from the streak before."""
    from hardpoint.carwars.attack import SustainedRecord

    aimed = SimpleNamespace(attacker="v", weapon="mg", target="t", automatic=False, consecutive=2)
    auto = SimpleNamespace(attacker="v", weapon="rl", target="t", automatic=True, consecutive=3)
    before = {("v", "rl"): SustainedRecord("t", 2, 1)}
    new, changes = update_history(before, [aimed, auto], 2)
    assert new == {("v", "mg"): SustainedRecord("t", 2, 2), ("v", "rl"): SustainedRecord("t", 0, 2)}
    assert [(c.subject, c.before, c.after, c.rule) for c in changes] == [("v.mg", 0, 2, "CW-HIT-09"),
                                                                         ("v.rl", 2, 0, "CW-HIT-09")]


def test_cw_dmg_06_the_pedestrian_hit_takes_the_shot_and_the_others_nearby_the_burst():
    """CW-DMG-06: a grenade launcher hits pedestrian "target" (listed first) 4" ahead: he takes the shot's damage
    (1d = 1, 3 -> 2 DP), not a burst on top of it; "beside", 1" to his right and within the 2" radius, takes the
    burst's 1d = 2 (3 -> 1 DP). Dice: 6+6 hit, 1 damage, 2 burst. Source: SPEC CW-DMG-06."""
    s = scenario(vehicle=[{"id": "car", "design": "hunter", "speed": 0,
                           "weapon": [{"id": "gl", "type": "Grenade Launcher", "mount": "front"}]}],
                 pedestrian=[{"id": "target", "x": 0.0, "y": 4.0}, {"id": "beside", "x": 1.0, "y": 4.0}],
                 attack=[{"id": "a", "attacker": "car", "weapon": "gl", "firer": "driver", "target": "target"}])
    r = s.resolve(ScriptedDice([6, 6, 1, 2]))
    assert [(e.why, e.total) for e in r.events if e.kind == "dice" and e.rule == "CW-DMG-06"] == [("burst on beside", 2)]
    assert [(e.target, e.component, e.hits, e.before, e.after) for e in r.events if e.kind == "damage"] == [
        ("target", "person", 1, 3, 2), ("beside", "person", 2, 3, 1)]


def test_cw_dmg_07_an_area_attack_spends_one_shot_of_ammunition():
    """CW-DMG-07 / CW-VEH-03: an area-effect attack is one firing of the weapon, however many victims it tries to
    hit: the machine gun spends one shot (it spent none, and could sweep for ever)."""
    import hardpoint
    from hardpoint import SeededDice

    data = {"scenario": {"name": "sweep", "ruleset": "carwars"},
            "vehicle": [{"id": "car", "design": "hunter", "x": 0.0, "y": 0.0,
                         "weapon": [{"id": "mg", "type": "Machine Gun", "mount": "front", "ammo": 20}]}],
            "pedestrian": [{"id": f"p{i}", "x": 0.5 * i, "y": 4.0, "weapons": ["Rifle"]} for i in range(3)],
            "attack": [{"id": "a1", "attacker": "car", "weapon": "mg", "firer": "driver", "target": "p0",
                        "victims": ["p0", "p1", "p2"]}]}
    s = hardpoint.parse_scenario(data)
    s.resolve(SeededDice(1, 0), commit=True)
    assert s.arena.vehicles["car"].weapon("mg").ammo == 19


def test_cw_rof_02_an_area_attack_does_not_end_the_phases_other_attacks():
    """CW-ROF-02 / CW-DMG-07: the phase's attacks are rolled in declaration order, an area attack among them like any
    other. The hunter sweeps its MG over p0, p1, p2 (one to-hit roll each, 8 needed: 1+1 three times, all miss, so
    no damage roll); then a second hunter, declared after it, fires its MG at p2: 6+6 hits, 1d = 2, p2 3 -> 1 DP."""
    s = scenario(vehicle=[{"id": "car", "design": "hunter", "weapon": [{"id": "mg", "type": "Machine Gun", "mount": "front", "ammo": 20}]},
                          {"id": "car2", "design": "hunter", "x": 3.0}],
                 pedestrian=[{"id": f"p{i}", "x": 0.5 * i, "y": 4.0} for i in range(3)],
                 attack=[{"id": "a1", "attacker": "car", "weapon": "mg", "firer": "driver", "target": "p0", "victims": ["p0", "p1", "p2"]},
                         {"id": "a2", "attacker": "car2", "weapon": "mg", "target": "p2"}])
    dice = ScriptedDice([1, 1, 1, 1, 1, 1, 6, 6, 2])
    r = s.resolve(dice)
    assert [(x.attack, x.target, x.hit) for x in r.rolls] == [
        ("a1@p0", "p0", False), ("a1@p1", "p1", False), ("a1@p2", "p2", False), ("a2", "p2", True)]
    assert [(e.target, e.component, e.hits, e.before, e.after) for e in r.events if e.kind == "damage"] == [("p2", "person", 2, 3, 1)]
    assert dice.remaining == 0


def test_cw_dmg_07_an_area_weapon_of_0_fixed_hits_does_0_to_each_victim():
    """CW-DMG-07: each victim of an area attack takes the damage divided by the share divisor, rounded up; a weapon of
    fixed hits and no dice deals its hits. House rules: the vehicular shotgun made an area-effect weapon of 0 fixed hits,
    the share divisor 1. The hunter sweeps p0 and p1 (7 needed: 6+6 hits p0, 1+1 misses p1): no damage roll, p0 takes
    0 / 1 = 0 hits and is unhurt; one shot of ammunition spent (10 -> 9). Source: SPEC CW-DMG-07; the weapon table's
    damage_hits (0 allowed)."""
    house = RULES.with_overrides({"carwars": {"weapons": {"weapon": [{"name": "Vehicular Shotgun", "damage_hits": 0, "area_effect": True}]},
                                              "damage": {"area": {"share_divisor": 1}}}})
    s = hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars"},
                                  "vehicle": [{"id": "car", "design": "hunter",
                                               "weapon": [{"id": "sg", "type": "Vehicular Shotgun", "mount": "front"}]}],
                                  "pedestrian": [{"id": "p0", "x": 0.0, "y": 4.0}, {"id": "p1", "x": 0.5, "y": 4.0}],
                                  "attack": [{"id": "a1", "attacker": "car", "weapon": "sg", "firer": "driver", "target": "p0",
                                              "victims": ["p0", "p1"]}]}, rules=house)
    dice = ScriptedDice([6, 6, 1, 1])
    r = s.resolve(dice, commit=True)
    assert [(e.hits, e.victims_hit, e.damage_roll, e.damage_each) for e in r.events if e.kind == "area_attack_roll"] == [
        (1, ("p0",), None, 0)]
    assert ("a1: 0 hit(s) on p0", "CW-DMG-07") in [(e.text, e.rule) for e in r.events if e.kind == "note"]
    assert not [e for e in r.events if e.kind == "damage"] and dice.remaining == 0
    assert (s.arena.pedestrians["p0"].hits, s.arena.vehicles["car"].weapon("sg").ammo) == (0, 9)
