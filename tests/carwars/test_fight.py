"""Fights to the finish (FIGHT-01..05): sides, standing orders, out of action, ending, collisions, outcomes.

Hand-worked with scripted dice; docs/fights.md states every rule and ruling used here.
"""
import copy

import pytest

import hardpoint
from hardpoint import RiggedDice, ScenarioError, SeededDice
from hardpoint.carwars.fight import out_of_action

HEAD = {"name": "fight", "ruleset": "carwars", "turns": 3}


def fight(vehicles=(), pedestrians=(), orders=(), turns=3, until=None, rules=None, buildings=()):
    data = {"scenario": {**HEAD, "turns": turns, **({"until": until} if until else {})}}
    for key, items in (("vehicle", vehicles), ("pedestrian", pedestrians), ("orders", orders), ("building", buildings)):
        if items:
            data[key] = [copy.deepcopy(x) for x in items]
    if rules:
        data["rules"] = rules
    return hardpoint.parse_scenario(data)


def veh(id, design="hunter", x=0.0, y=0.0, facing=0.0, speed=0, **kw):
    return {"id": id, "design": design, "x": x, "y": y, "facing": facing, "speed": speed, **kw}


def ped(id, x, y, **kw):
    return {"id": id, "x": x, "y": y, "weapons": ["Rifle"], **kw}


def shots(result):
    """(turn, phase, attacker, target) of every rolled attack."""
    out = []
    for p in result.phases:
        for b in p.breakdowns:
            turn_phase = b.attack.rsplit("/t", 1)[1]
            t, ph = turn_phase.split("p")
            out.append((int(t), int(ph), b.attacker, b.target))
    return out


# --- FIGHT-01: sides --------------------------------------------------------------------------------

def test_fight_01_every_unit_is_its_own_side_by_default_and_sides_group_units():
    """FIGHT-01: no side given: each unit its own; `side` puts units together (friends are never targets)."""
    s = fight([veh("a"), veh("b", x=4)], [ped("p", 2, 6, side="b_side")])
    assert s.fight.side("a") == "a" and s.fight.side("b") == "b" and s.fight.side("p") == "b_side"
    t = fight([veh("a", side="red"), veh("b", x=4, side="red"), veh("c", x=2, y=6, facing=180, side="blue")])
    assert not t.fight.enemies("a", "b") and t.fight.enemies("a", "c")
    assert t.fight.side_names == ["red", "blue"]


# --- FIGHT-02: standing orders ------------------------------------------------------------------------

def test_fight_02_named_target_is_fired_at_even_when_another_enemy_is_nearer():
    """FIGHT-02: `target = "far"`: the hunter's front MG fires at the far pedestrian every turn, in phase 1 (its first
    phase with a shot), although another enemy stands nearer."""
    s = fight([veh("a")], [ped("near", 0, 3), ped("far", 0.5, 9)], [{"unit": "a", "target": "far", "weapons": ["mg"]}],
              turns=2)
    r = s.resolve(SeededDice(1))
    assert [(t, ph, who, at) for t, ph, who, at in shots(r) if who == "a"] == [(1, 1, "a", "far"), (2, 1, "a", "far")]


def test_fight_02_nearest_enemy_skips_friends_and_takes_the_smaller_range():
    """FIGHT-02: nearest_enemy: a friend 1.375" away is not a candidate; of the enemies at 2.422" and 5.397" (ranges from
    the middle of the hunter's front to the nearest point of each 1/4" counter, CW-LOF-03) the nearer is fired at."""
    s = fight([veh("a", side="red")], [ped("friend", 0, 2, side="red"), ped("e1", 0.6, 3, side="blue"),
                                       ped("e2", -0.6, 6, side="blue")],
              [{"unit": "a", "target": "nearest_enemy", "weapons": ["mg"]}], turns=1)
    r = s.resolve(SeededDice(2))
    assert [x for x in shots(r) if x[2] == "a"] == [(1, 1, "a", "e1")]


def test_fight_02_best_odds_takes_the_easiest_shot_not_the_nearest():
    """FIGHT-02: best_odds. MG to-hit 7, both units still (+1 target not moving, +1 firer not moving):
    a prone pedestrian at 1.375" (-4) needs 9 (5/18); one standing at 3.933" (-3, under 4": no range penalty) needs
    8 (5/12): best_odds fires at the farther one, nearest_enemy at the nearer. With the standing one at 4.427"
    (-1 long range) both need 9: a tie, and the tie goes to the smaller range."""
    def target(policy, far_y):
        s = fight([veh("a")], [ped("near", 0, 2, prone=True), ped("far", 0.8, far_y)],
                  [{"unit": "a", "target": policy, "weapons": ["mg"]}], turns=1)
        (_, _, _, at), = [x for x in shots(s.resolve(SeededDice(3))) if x[2] == "a"]
        return at

    assert target("best_odds", 4.5) == "far"
    assert target("nearest_enemy", 4.5) == "near"
    assert target("best_odds", 5.0) == "near"


def test_fight_02_a_weapon_fires_once_a_turn_and_a_character_once():
    """FIGHT-02 / CW-ROF-01: the shogun's gunner and driver fire its laser and its MG in the same turn (two characters,
    each once); with its driver alone aboard, one of the two fires a turn (the laser, first in its weapon list)."""
    target = veh("t", "shogun", x=0, y=6, facing=180)
    s = fight([veh("s", "shogun"), target], orders=[{"unit": "s", "target": "t"}], turns=2)
    fired = sorted(b.attack for p in s.resolve(SeededDice(5)).phases for b in p.breakdowns)
    assert fired == ["orders0/laser/t1p1", "orders0/laser/t2p1", "orders0/mg/t1p1", "orders0/mg/t2p1"]
    alone = fight([veh("s", "shogun", crew=[{"id": "driver", "role": "driver", "seat": "front_left"}]), target],
                  orders=[{"unit": "s", "target": "t"}], turns=2)
    fired = sorted(b.attack for p in alone.resolve(SeededDice(5)).phases for b in p.breakdowns)
    assert fired == ["orders0/laser/t1p1", "orders0/laser/t2p1"]


def test_fight_02_orders_are_checked_at_load():
    """FIGHT-02 / SAFE-01: an order naming a missing unit, weapon, firer or target fails on load. (A dropped weapon
    is an order's to drop, FIGHT-10: it loads.)"""
    base = [veh("a"), veh("b", x=0, y=6, facing=180)]
    assert fight(base, orders=[{"unit": "a", "weapons": ["md"]}]).fight.orders[0].weapons == ("md",)
    for order, field in (({"unit": "zz"}, "orders[0].unit"), ({"unit": "a", "weapons": ["nope"]}, "orders[0].weapons[0]"),
                         ({"unit": "a", "firer": "nobody"}, "orders[0].firer"), ({"unit": "a", "target": "ghost"}, "orders[0].target"),
                         ({"unit": "a", "target": "a"}, "orders[0].target")):
        with pytest.raises(hardpoint.HardpointError) as err:
            fight(base, orders=[order])
        assert err.value.field == field
    with pytest.raises(ScenarioError, match="multi-turn"):
        hardpoint.parse_scenario({"scenario": {"name": "x", "ruleset": "carwars"}, "vehicle": base, "orders": [{"unit": "a"}]})


# --- FIGHT-03: out of action and the end of a fight ------------------------------------------------------

def _arena(*vehicles, pedestrians=()):
    return fight(list(vehicles), list(pedestrians)).arena


def test_fight_03_out_of_action_conditions_one_by_one():
    """FIGHT-03 (fight.toml [out_of_action]): each condition puts a unit out, and only that condition."""
    rules = hardpoint.default_rules()
    arena = _arena(veh("h"), veh("s", "shogun", x=3), veh("o", "outrider", x=6), pedestrians=[ped("p", 9, 0)])
    assert all(out_of_action(rules, arena, u) is None for u in ("h", "s", "o", "p"))
    # no driver: the hunter's only crew member unconscious
    arena.vehicles["h"].crew[0].hits = 2
    assert out_of_action(rules, arena, "h") == "nobody aboard can drive"
    # the shogun's front-seat gunner may take over (CW-CREW-04): not out while he is conscious
    arena.vehicles["s"].driver.hits = 3
    assert out_of_action(rules, arena, "s") is None
    arena.vehicles["s"].crew_member("gunner").hits = 2
    assert out_of_action(rules, arena, "s") == "nobody aboard can drive"
    # the outrider's sidecar rider may steer (CW-CREW-04)
    arena.vehicles["o"].driver.hits = 3
    assert out_of_action(rules, arena, "o") is None
    # no weapon: every weapon destroyed and no hand weapon aboard
    arena2 = _arena(veh("h"))
    for w in arena2.vehicles["h"].all_weapons():
        w.dp = 0
    assert out_of_action(rules, arena2, "h") == "no weapon can still fire"
    arena2.vehicles["h"].crew[0].hand_weapons = ("Light Pistol",)
    assert out_of_action(rules, arena2, "h") is None
    # exploded (CW-FIRE-04): every occupant dead, so nobody can drive; the reason says it exploded (FIGHT-10: no
    # `destroyed` switch of its own, whose every case no_driver caught)
    from hardpoint.carwars.fire import FireState

    arena3 = _arena(veh("h"))
    arena3.vehicles["h"].crew[0].hits = 3
    arena3.fires["h"] = FireState(exploded=True)
    assert out_of_action(rules, arena3, "h") == "exploded: nobody aboard can drive"
    assert "destroyed" not in rules["carwars.fight"]["out_of_action"]
    # crashed: an uncontrolled cycle's crash result, and a car's that rolled under the handling rules (FIGHT-09), its
    # driver unhurt: a case of its own (FIGHT-10)
    arena4 = _arena(veh("r", "razor"), veh("c", x=4))
    arena4.vehicles["r"].crash = "roll"
    assert out_of_action(rules, arena4, "r") == "crashed (roll)"
    arena4.vehicles["r"].crash = "minor skid"
    assert out_of_action(rules, arena4, "r") is None
    arena4.vehicles["c"].crash = "vault"
    assert arena4.vehicles["c"].driver.can_act and out_of_action(rules, arena4, "c") == "crashed (vault)"
    # a pedestrian unconscious
    arena.pedestrians["p"].hits = 2
    assert out_of_action(rules, arena, "p") == "unconscious"
    off = hardpoint.load_rules({"carwars": {"fight": {"out_of_action": {"pedestrian_down": False}}}})
    assert out_of_action(off, arena, "p") is None


def test_fight_03_a_fight_stops_in_the_turn_the_last_enemy_goes_out():
    """FIGHT-03: the hunter fires at a rifleman every turn; turn 1 misses (to-hit 2), turn 2 hits (12) for 3 damage:
    the rifleman (3 DP) dies in turn 2, the fight is decided after turn 2 of the 10 allowed: red wins in 2 turns."""
    s = fight([veh("h", side="red")], [ped("p", 0, 4, side="blue")], [{"unit": "h", "target": "p", "weapons": ["mg"]}],
              turns=10, until="decided")
    dice = RiggedDice(SeededDice(1), {"orders0/mg/t1p1 to hit": [1, 1], "orders0/mg/t2p1 to hit": [6, 6],
                                      "orders0/mg/t2p1 damage": [3]})
    r = s.resolve(dice)
    assert r.turns == 2
    assert r.fight["result"] == "win" and r.fight["winner"] == "red"
    assert r.fight["out"] == ({"unit": "p", "turn": 2, "reason": "dead"},)


def test_fight_03_without_until_the_fight_runs_all_its_turns():
    """FIGHT-03: `until` left out: every turn runs, even with one side left."""
    s = fight([veh("h", side="red")], [ped("p", 0, 4, side="blue")], [{"unit": "h", "target": "p", "weapons": ["mg"]}], turns=4)
    dice = RiggedDice(SeededDice(1), {"orders0/mg/t1p1 to hit": [6, 6], "orders0/mg/t1p1 damage": [3]})
    r = s.resolve(dice)
    assert r.turns == 4 and r.fight["result"] == "win"


def test_fight_03_until_decided_needs_turns_and_orders_a_multi_turn_scenario():
    """FIGHT-03: `until = "decided"` without a turn cap is refused at load."""
    with pytest.raises(ScenarioError) as err:
        hardpoint.parse_scenario({"scenario": {"name": "x", "ruleset": "carwars", "until": "decided"}, "vehicle": [veh("a")]})
    assert err.value.field == "scenario.until"


# --- FIGHT-04: collisions from movement give the seed's collision damage ---------------------------------------

def test_fight_04_head_on_collision_from_movement_deals_the_ram_table_damage():
    """FIGHT-04 / CW-COL-04: two compacts (3,700 lb: the 2/3 weight class) head-on at 60 mph each meet in phase 3
    at 120 mph: 19d (1d at 30 mph, +1d per 5 mph above). All threes: 57 x 2/3 = 38 hits to each front, layer by layer
    (CW-COL-01/03): front armour 20, the front MG 3, then the layout front to back: power plant 8, the driver's
    body armour 3 and the driver 3, cargo 1: 20 + 3 + 8 + 3 + 3 + 1 = 38."""
    s = fight([veh("a", speed=60), veh("b", x=0, y=8, facing=180, speed=60)], turns=1)
    r = s.resolve(RiggedDice(SeededDice(1), {"collision damage": [3] * 38}))
    rolls = [e for e in r.events if getattr(e, "why", "").startswith("collision damage")]
    assert [(x.expr, x.total) for x in rolls] == [("19d", 57), ("19d", 57)]
    for vid in ("a", "b"):
        v = r.state["vehicles"][vid]
        assert v["armour"]["front"] == 0 and v["power_plant"] == 0 and v["weapons"]["mg"] == 0
        assert v["crew"]["driver"]["state"] == "dead" and v["cargo"]["spare_ammo"] == 0 and v["armour"]["back"] == 15


def test_fight_04_rear_end_collision_reads_the_table_at_the_difference():
    """FIGHT-04 / CW-COL-04: a compact at 60 mph runs into one at 20 mph ahead of it: 40 mph, 3d; all fours: 12 x 2/3
    = 8 hits: the follower's front armour 20 -> 12, the leader's back armour 15 -> 7."""
    s = fight([veh("a", speed=60), veh("b", x=0, y=2, speed=20)], turns=1)
    r = s.resolve(RiggedDice(SeededDice(1), {"collision damage": [4] * 6}))
    rolls = [e for e in r.events if getattr(e, "why", "").startswith("collision damage")]
    assert [(x.expr, x.total) for x in rolls] == [("3d", 12), ("3d", 12)]
    assert r.state["vehicles"]["a"]["armour"]["front"] == 12 and r.state["vehicles"]["b"]["armour"]["back"] == 7


def test_fight_04_t_bone_collision_strikes_the_side_at_the_strikers_speed():
    """FIGHT-04 / CW-COL-04: a compact at 30 mph into a parked one broadside: 30 mph, 1d; a five: 5 x 2/3 = 3.33,
    rounded up 4 hits on the parked car's right armour (15 -> 11) and on the striker's front (20 -> 16)."""
    s = fight([veh("a", speed=30), veh("b", x=0, y=2, facing=90, speed=0)], turns=1)
    r = s.resolve(RiggedDice(SeededDice(1), {"collision damage": [5, 5]}))
    assert r.state["vehicles"]["b"]["armour"]["right"] == 11 and r.state["vehicles"]["a"]["armour"]["front"] == 16


def test_fight_04_driving_into_a_building_is_a_fixed_barrier_collision():
    """FIGHT-04: a compact at 40 mph into a wall: 40 mph, 3d, no weight factor (a fixed barrier): all twos = 6 hits
    on its front (20 -> 14)."""
    s = fight([veh("a", speed=40)], turns=1, buildings=[{"id": "wall", "x": 0, "y": 3, "width": 4, "length": 1}])
    r = s.resolve(RiggedDice(SeededDice(1), {"collision damage": [2, 2, 2]}))
    assert r.state["vehicles"]["a"]["armour"]["front"] == 14


# --- FIGHT-05: outcomes of a batch of fights --------------------------------------------------------------

def test_fight_05_batch_outcomes_count_each_trials_fight_record():
    """FIGHT-05: the batch's who-wins, out-of-action and per-weapon counts are the sums of each trial's record."""
    s = hardpoint.load_scenario("builtin:cw_duel")
    n = 60
    b = hardpoint.run_batch(s, n, seed=4, backend="reference", keep="summary")
    records = [s.resolve(SeededDice(4, t)).fight for t in range(n)]
    for side in ("red", "blue"):
        assert b.find("win", side=side).count == sum(r["result"] == "win" and r["winner"] == side for r in records)
    assert b.find("draw").count == sum(r["result"] == "draw" for r in records)
    assert b.find("undecided").count == sum(r["result"] == "undecided" for r in records)
    for unit in ("hunter", "stinger"):
        turns = [o["turn"] for r in records for o in r["out"] if o["unit"] == unit]
        assert b.find("out", unit=unit).count == len(turns)
        if turns:
            assert b.find("out_turn", unit=unit).total == sum(turns)
        assert b.find("out_by_turn", unit=unit, turn=5).count == sum(t <= 5 for t in turns)
    shots = sum(w["shots"] for r in records for w in r["weapons"] if w["unit"] == "hunter")
    assert b.find("shots", unit="hunter", weapon="mg").total == shots
    doc = b.to_dict()
    assert doc["probabilities"][0]["measure"] == "win" and doc["probabilities"][0]["side"] == "red"


# --- FIGHT-06: duels and comparisons ------------------------------------------------------------------------

def test_fight_06_a_duel_places_the_designs_by_aspect_and_orders_both_to_fire():
    """FIGHT-06: A at the origin facing north; B at the range: head-on ahead facing south, tail-chase ahead facing
    north, broadside ahead facing east, parallel alongside facing north; both with a best_odds order, until decided."""
    from hardpoint.duel import build_duel

    where = {}
    for aspect in ("head-on", "tail-chase", "broadside", "parallel"):
        s = build_duel("hunter", "stinger", range_=7, aspect=aspect, speed=30, turns=4)
        a, b = s.arena.vehicles["hunter"], s.arena.vehicles["stinger"]
        where[aspect] = (b.x, b.y, b.facing)
        assert (a.x, a.y, a.facing, a.speed, b.speed) == (0.0, 0.0, 0.0, 30.0, 30.0)
        assert [(o.unit, o.target) for o in s.fight.orders] == [("hunter", "best_odds"), ("stinger", "best_odds")]
        assert s.fight.until_decided and s.turns == 4 and s.fight.enemies("hunter", "stinger")
    assert where == {"head-on": (0.0, 7.0, 180.0), "tail-chase": (0.0, 7.0, 0.0), "broadside": (0.0, 7.0, 90.0),
                     "parallel": (7.0, 0.0, 0.0)}
    twin = build_duel("razor", "razor", turns=2)
    assert list(twin.arena.vehicles) == ["razor_a", "razor_b"]
    with pytest.raises(ScenarioError) as err:
        build_duel("hunter", "tank")
    assert err.value.field == "b" and "hunter" in str(err.value)


def test_fight_06_duel_and_compare_commands_print_who_wins(capsys):
    """FIGHT-06: `hardpoint duel` prints the who-wins table first; `hardpoint compare` the matrix; --json documents."""
    import json

    from hardpoint.cli import main

    assert main(["duel", "hunter", "razor", "--turns", "3", "--trials", "30", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.index("who wins") < out.index("units: out of action") < out.index("probabilities")
    assert main(["duel", "hunter", "razor", "--turns", "3", "--trials", "30", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["side"] for r in doc["probabilities"][:2]] == ["hunter", "razor"]
    assert main(["compare", "hunter", "razor", "stinger", "--turns", "2", "--trials", "10", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "compare" and len(doc["rows"]) == 6 and {r["a"] for r in doc["rows"]} == {"hunter", "razor", "stinger"}
    assert main(["duel", "hunter", "nothing", "--trials", "10"]) == 2
