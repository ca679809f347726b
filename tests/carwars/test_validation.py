"""Validation at the door (issue 11): SAFE-01, SAFE-03, ARCH-05, ERR-01, and the rules each check enforces.

A. Every Car Wars rule table and every override of it is validated (schema and semantic checks, then the
   tables together): what used to slip through is refused with a DataError naming the table path, the value
   and the rule; what is accepted gives the same results on the reference and the compiled kernel.
B. Scenario fields have documented ranges and descriptions.
C. Ids are unique in their namespaces, references resolve and a multi-turn plan's static legality is checked
   at load; what the dice decide by a phase cancels that phase's attack or action, with the rule.
D. What the kernel's fixed arrays cannot hold is refused at load or runs on the reference (never a crash, a
   hang or a read past an array's end).
"""
import copy
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import DataError, RuleViolation, ScenarioError, SeededDice, load_rules
from hardpoint.carwars.batch import pack, run_batch, supports_compiled
from hardpoint.ruleset import Unpackable
from hardpoint.carwars import validate as bounds

from .conftest import attack, build, car

HEAD = {"name": "t", "ruleset": "carwars"}


def refused(override, exc=DataError):
    """The override is refused: returns the error; the defaults are untouched."""
    before = copy.deepcopy(hardpoint.default_rules().tables)
    with pytest.raises(exc) as err:
        load_rules({"carwars": override})
    assert isinstance(err.value, ValueError) and isinstance(err.value, hardpoint.HardpointError)
    assert dict(hardpoint.default_rules().tables) == before
    return err.value


def doc(**parts):
    out = {"scenario": dict(HEAD, **parts.pop("scenario", {}))}
    out.update(parts)
    return out


def load_error(data, exc=ScenarioError):
    with pytest.raises(exc) as err:
        hardpoint.parse_scenario(data)
    assert isinstance(err.value, ValueError)
    return err.value


# --- A. the rule tables ------------------------------------------------------------------------------------

@pytest.mark.parametrize("override,field,rule", [
    ({"range": {"point_blank": 3.5}}, "carwars.tohit.range.point_blank", "CW-HIT-02"),
    ({"speed_bands": {"bands": [[30, -0.5], [40, -2]]}}, "carwars.tohit.speed_bands.bands[0][1]", "CW-HIT-04"),
    ({"speed_bands": {"bands": [[40, -2], [30, -1]]}}, "carwars.tohit.speed_bands.bands[1]", "CW-HIT-04"),
    ({"to_hit": {"natural_miss": 7}}, "carwars.tohit.to_hit.natural_miss", "CW-HIT-01"),
    ({"to_hit": {"max_needed": 13.0}}, "carwars.tohit.to_hit.max_needed", "CW-HIT-01"),
    ({"firer": {"computer": {"none": 2}}}, "carwars.tohit.firer.computer.none", "CW-HIT-08"),
    ({"range": {"long_range_step": 0}}, "carwars.tohit.range.long_range_step", "CW-HIT-02"),
    ({"rnage": {"point_blank": 3}}, "carwars.tohit.rnage", "CW-HIT-01"),
    ({"handling": {"minor_skid": -600}}, "carwars.tohit.handling.minor_skid", "CW-HIT-10"),
])
def test_arch_05_tohit_table_refuses_fractional_and_broken_modifiers(override, field, rule):
    """ARCH-05 / CW-HIT-01..10: to-hit modifiers are whole numbers within +-30 (a fractional speed-band modifier
    made the reference and the kernel disagree, 0.164 against 0.274), bands increase, the natural miss is the
    lowest roll the exact odds assume, and a misspelt key is refused instead of ignored."""
    e = refused({"tohit": override})
    assert (e.field, e.rule) == (field, rule)


def test_safe_01_an_override_holds_only_finite_numbers():
    """SAFE-01: NaN or infinity in an override (TOML reads both) is refused naming the table path."""
    e = refused({"tohit": {"range": {"point_blank_under": math.nan}}})
    assert (e.field, e.rule) == ("carwars.tohit.range.point_blank_under", "SAFE-01")
    e = refused({"collisions": {"speed_step": math.inf}})
    assert e.field == "carwars.collisions.speed_step"


@pytest.mark.parametrize("override,field,rule", [
    ({"body": {"light_trike": {"wheels": []}}}, "carwars.bodies.body.light_trike.wheels", "CW-VEH-03"),
    ({"body": {"light_trike": {"wheels": ["back_left", "back_right"]}}}, "carwars.bodies.body.light_trike.wheels", "CW-TGT-06"),
    ({"body": {"van": {"wheels": ["front_left", "middle"]}}}, "carwars.bodies.body.van.wheels[1]", "CW-VEH-03"),
    ({"body": {"van": {"footprint": [0.5, 0]}}}, "carwars.bodies.body.van.footprint[1]", "CW-VEH-01"),
    ({"body": {"van": {"footprint": [0.5, 500.0]}}}, "carwars.bodies.body.van.footprint[1]", "CW-VEH-01"),
    ({"body": {"van": {"sidecar_footprint": [0.25, 0.5]}}}, "carwars.bodies.body.van.sidecar_footprint", "CW-TGT-05"),
    ({"body": {"van": {"size": "huge"}}}, "carwars.bodies.body.van.size", "CW-HIT-05"),
    ({"pedestrian": {"footprint": [0.25, 0.5]}}, "carwars.bodies.pedestrian.footprint", "CW-VEH-01"),
    ({"pedestrian": {"dp": 5}}, "carwars.bodies.pedestrian.dp", "CW-CREW-01"),
    ({"arcs": {"angle": 90}}, "carwars.bodies.arcs.angle", "CW-ARC-01"),
])
def test_arch_05_bodies_table(override, field, rule):
    """ARCH-05 / CW-VEH-01/03, CW-TGT-06: a body's wheels are named from the known positions, never empty, and a
    trike has its single front wheel (the reference looked it up and crashed without it); footprints are
    positive and bounded; a size class must have to-hit modifiers (it silently had none); a person's 3 DP is fixed."""
    e = refused({"bodies": override})
    assert (e.field, e.rule) == (field, rule)


def test_arch_05_tires_table():
    """ARCH-05 / CW-VEH-03: tire DP are whole and positive."""
    assert refused({"tires": {"dp": {"standard": 0}}}).field == "carwars.tires.dp.standard"
    assert refused({"tires": {"dp": {"standard": 2.5}}}).field == "carwars.tires.dp.standard"


@pytest.mark.parametrize("override,field,rule", [
    ({"hunter": {"weapon": [{"id": "mg", "type": "Machine Gnu"}]}}, "carwars.designs.design.hunter.weapon[0].type", "CW-VEH-06"),
    ({"hunter": {"body": "limo"}}, "carwars.designs.design.hunter.body", "CW-VEH-01"),
    ({"hunter": {"armor": {"front": 3}}}, "carwars.designs.design.hunter.armor", "CW-VEH-05"),
    ({"hunter": {"tire_type": "balloon"}}, "carwars.designs.design.hunter.tire_type", "CW-VEH-03"),
    ({"hunter": {"armour": {"front": -1}}}, "carwars.designs.design.hunter.armour.front", "CW-VEH-02"),
])
def test_arch_05_designs_are_built_at_load(override, field, rule):
    """ARCH-05 / CW-VEH-05: a stock design (a house one too) is built when the tables load: its body, weapon types
    and tire types must exist and its keys be vehicle keys (a misspelt one was silently ignored)."""
    e = refused({"designs": {"design": override}})
    assert (e.field, e.rule) == (field, rule)


@pytest.mark.parametrize("table,override,field,rule", [
    ("weapons", {"weapon": [{"name": "Machine Gun", "to_hit": 7.5}]}, "carwars.weapons.weapon[1].to_hit", "CW-VEH-06"),
    ("weapons", {"weapon": [{"name": "Machine Gun", "fire_modifier": 1.5}]}, "carwars.weapons.weapon[1].fire_modifier", "CW-FIRE-01"),
    ("weapons", {"weapon": [{"name": "Machine Gun", "damage_hits": 2}]}, "carwars.weapons.weapon[1].damage_hits", "CW-VEH-06"),
    ("weapons", {"weapon": [{"name": "Machine Gun", "burn_duration": 2}]}, "carwars.weapons.weapon[1].burn_duration", "CW-FIRE-01"),
    ("weapons", {"weapon": [{"name": "Machine Gun", "damage": "100d"}]}, "carwars.weapons.weapon[1].damage", "DICE-01"),
    ("weapons", {"weapon": [{"name": "Machine Gun", "damage": "dr"}]}, "carwars.weapons.weapon[1].damage", "DICE-01"),
    ("weapons", {"weapon": [{"name": [1]}]}, "carwars.weapons.weapon[0].name", "ARCH-05"),
    ("weapons", {"weapon": [{"name": "Trap", "to_hit": 0, "dp": 2, "dropped": True, "dropped_kind": "glue"}]},
     "carwars.weapons.weapon[96].dropped_kind", "CW-DROP-01"),
    ("hand_weapons", {"hand_weapon": [{"name": "Rifle", "vs_vehicles": "some"}]}, "carwars.hand_weapons.hand_weapon[4].vs_vehicles",
     "CW-HAND-01"),
    ("hand_weapons", {"hand_weapon": [{"name": "Rifle", "max_range": 0}]}, "carwars.hand_weapons.hand_weapon[4].max_range", "CW-HAND-01"),
])
def test_arch_05_weapon_lists(table, override, field, rule):
    """ARCH-05 / CW-VEH-06: whole to-hit numbers and fire modifiers, damage dice or fixed hits (not both), dice the
    rules write (Car Wars notation: ASL's dr and DR are refused), and every dropped weapon's counter has a footprint
    (the drop crashed on a missing one)."""
    e = refused({table: override})
    assert (e.field, e.rule) == (field, rule)


@pytest.mark.parametrize("override,field,rule", [
    ({"trike": {"wheel": []}}, "carwars.damage.trike.wheel", "CW-TGT-06"),
    ({"trike": {"wheel": [12, 11]}}, "carwars.damage.trike.wheel", "CW-TGT-06"),
    ({"trike": {"wheel": [10, 12]}}, "carwars.damage.trike.wheel", "CW-TGT-06"),
    ({"cycle": {"side_tire": [10, 12]}}, "carwars.damage.cycle.side_tire", "CW-TGT-04"),
    ({"cycle": {"side_weapon": [8, 9]}}, "carwars.damage.cycle.side_tire", "CW-TGT-04"),
    ({"cycle": {"end_wheel": [11, 13]}}, "carwars.damage.cycle.end_wheel[1]", "CW-TGT-04"),
    ({"sidecar": {"sidecar": [0, 6], "cycle": [1, 4]}}, "carwars.damage.sidecar.sidecar[0]", "CW-TGT-05"),
    ({"hazard": {"bands": [[6, 2], [1, 1]]}}, "carwars.damage.hazard.bands[1]", "CW-DMG-01"),
    ({"crew": {"dp": 4}}, "carwars.damage.crew.dp", "CW-CREW-01"),
    ({"obstacle": {"hits_in_phase": 2.5}}, "carwars.damage.obstacle.hits_in_phase", "CW-DMG-08"),
])
def test_arch_05_damage_table_bands(override, field, rule):
    """ARCH-05 / CW-TGT-04..06, CW-DMG-01: every band is two whole faces [low, high] in order on its die, and the
    location tables cover the roll once each (trike.wheel = [] made the kernel read past its array; a gap left a
    roll to no result; overlapping bands meant different things to the two backends)."""
    e = refused({"damage": override})
    assert (e.field, e.rule) == (field, rule)


@pytest.mark.parametrize("override,field,rule", [
    ({"dice_per_5_mph_above": 3}, "carwars.collisions.dice_per_5_mph_above", "CW-COL-04"),
    ({"ram": [[10, "1d"], [5, "1d-2"]]}, "carwars.collisions.ram[1]", "CW-COL-04"),
    ({"ram": [[5, "1d4"]]}, "carwars.collisions.ram[0][1]", "DICE-01"),
    ({"ram": [[5, "DR"]]}, "carwars.collisions.ram[0][1]", "DICE-01"),
    ({"metal_armour_factor": 2.5}, "carwars.collisions.metal_armour_factor", "CW-COL-02"),
    ({"metal_loss_cap_fraction": 0.3334}, "carwars.collisions.metal_loss_cap_fraction", "CW-COL-02"),
    ({"weight_classes": [[500, 0.5]]}, "carwars.collisions.weight_classes[0]", "CW-COL-04"),
    ({"weight_classes": [[4000, 0.5], [2000, 0.3]]}, "carwars.collisions.weight_classes[1]", "CW-COL-04"),
])
def test_arch_05_collisions_table(override, field, rule):
    """ARCH-05 / CW-COL-02/04: the ram table increases and gives an expression of at most 99 dice up to the highest
    speed a scenario may give (300 mph); the metal factor is whole; the loss cap rounds the same in the reference
    (float) and the kernel (a fraction over 1000) for every armour value; weight classes increase to 1000 lb."""
    e = refused({"collisions": override})
    assert (e.field, e.rule) == (field, rule)


@pytest.mark.parametrize("override,field,rule", [
    ({"start": {"component_hit": [4, 2]}}, "carwars.fire.start.component_hit", "CW-FIRE-02"),
    ({"extinguisher": {"standard": [0, 3]}}, "carwars.fire.extinguisher.standard[0]", "CW-FIRE-03"),
    ({"explosion": {"roll": [1, 7]}}, "carwars.fire.explosion.roll[1]", "CW-FIRE-03"),
    ({"explosion": {"damage": "d6"}}, "carwars.fire.explosion.damage", "DICE-01"),
    ({"explosion": {"damage": "dr"}}, "carwars.fire.explosion.damage", "DICE-01"),
    ({"start": {"flaming_oil_weapon": "Napalm"}}, "carwars.fire.start.flaming_oil_weapon", "CW-FIRE-01"),
])
def test_arch_05_fire_table(override, field, rule):
    """ARCH-05 / CW-FIRE-01..04: fire bands are [low, high] faces of 1d in order; the flaming oil weapon exists."""
    e = refused({"fire": override})
    assert (e.field, e.rule) == (field, rule)


@pytest.mark.parametrize("table,override,field,rule", [
    ("dropped", {"footprint": {"mines": [0.5, -0.5]}}, "carwars.dropped.footprint.mines[1]", "CW-DROP-01"),
    ("dropped", {"spikes": {"on_counter": [1, 7]}}, "carwars.dropped.spikes.on_counter[1]", "CW-DROP-02"),
    ("dropped", {"clouds": {"smoke_turns": 0}}, "carwars.dropped.clouds.smoke_turns", "CW-DROP-05"),
    ("dropped", {"clouds": {"paint_window_turns": 5}}, "carwars.tohit.visibility.paint_turns_after", "CW-HIT-07"),
    ("turn", {"phases": 3}, "carwars.turn.phases", "CW-ROF-02"),
    ("turn", {"phases": 0}, "carwars.turn.phases", "CW-ROF-02"),
    ("turn", {"spread_order": [1, 1, 3, 4, 5]}, "carwars.turn.spread_order", "CW-ROF-02"),
    ("turn", {"chart": {"50": [2, 2, 2, 2, 2]}}, "carwars.turn.chart.50", "CW-ROF-02"),
    ("turn", {"end_of_turn": ["fire"]}, "carwars.turn.end_of_turn", "CW-ROF-02"),
    ("terrain", {"pedestrian": {"phases_per_turn": 4}}, "carwars.terrain.pedestrian.phases_per_turn", "CW-OBS-01"),
    ("terrain", {"damage": {"underbody": [1, 3]}}, "carwars.terrain.damage.underbody[0]", "CW-OFF-02"),
    ("terrain", {"damage": {"extra_roll_step_mph": 1e-9}}, "carwars.terrain.damage.extra_roll_step_mph", "CW-OFF-02"),
    ("terrain", {"feature": {"boulder": {"kind": "open"}}}, "carwars.terrain.feature.boulder", "CW-OFF-03"),
])
def test_arch_05_dropped_turn_and_terrain_tables(table, override, field, rule):
    """ARCH-05 / CW-ROF-02, CW-DROP, CW-OFF, CW-OBS: a turn has exactly five phases (with three, the attacks of
    phases 4 and 5 were dropped without a word; the movement chart, the schema and the kernel hold five); a chart
    row moves speed/10 inches; bands on their dice; an off-road roll step that would make a turn roll for ever is
    refused (SAFE-03); a figure two tables state must agree."""
    e = refused({table: override})
    assert (e.field, e.rule) == (field, rule)


def test_arch_05_every_table_has_a_schema_with_descriptions():
    """ARCH-05: all twelve Car Wars tables have a schema and a validator; the default tables pass them."""
    from hardpoint.carwars.table_schemas import TABLE_SCHEMAS, validate_table

    rules = hardpoint.default_rules()
    assert sorted(TABLE_SCHEMAS) == sorted(f"carwars.{t}" for t in hardpoint.data.TABLES["carwars"])
    for name in TABLE_SCHEMAS:
        validate_table(name, rules[name])


def test_err_01_a_bad_override_leaves_no_half_applied_rules():
    """ERR-01: an override with one good and one bad table changes nothing; a good one still applies."""
    with pytest.raises(DataError):
        load_rules({"carwars": {"tohit": {"range": {"point_blank": 3}}, "damage": {"trike": {"wheel": []}}}})
    assert hardpoint.default_rules()["carwars.tohit"]["range"]["point_blank"] == 4
    assert load_rules({"carwars": {"tohit": {"range": {"point_blank": 3}}}})["carwars.tohit"]["range"]["point_blank"] == 3


# --- A. accepted overrides: the reference and the kernel agree ---------------------------------------------

_BAND1 = st.one_of(*[st.builds(lambda hi: [1, hi], st.integers(1, 6))] * 4,
                   st.builds(lambda a, b: [min(a, b), max(a, b)], st.integers(1, 6), st.integers(1, 6)))
_MOD = st.builds(lambda m, odd: 0.5 if odd == 7 else m, st.integers(-8, 8), st.integers(0, 19))  # now and then fractional


def _bands2(draw, names):
    """Bands covering 2..12 once each (sometimes not: a gap), in a random split."""
    cuts = sorted(draw(st.lists(st.integers(3, 12), min_size=len(names) - 1, max_size=len(names) - 1, unique=True)))
    lows = [2] + cuts
    highs = [c - 1 for c in cuts] + [12]
    out = {n: [lo, hi] for n, lo, hi in zip(names, lows, highs)}
    if draw(st.integers(0, 9)) == 7:    # now and then an overlap
        out[names[0]] = [out[names[0]][0], out[names[0]][1] + 1]
    return out


@st.composite
def house_rules(draw):
    """Overrides of what the kernel reads (and a few of what it does not), mostly valid, sometimes not."""
    cw: dict = {}
    picks = draw(st.sets(st.sampled_from(["tohit", "bands", "damage", "fire", "collisions", "weapons", "obstacle"]), min_size=1, max_size=4))
    if "tohit" in picks:
        cw.setdefault("tohit", {})["range"] = {"point_blank": draw(_MOD), "long_range_per_step": draw(_MOD)}
        cw["tohit"]["visibility"] = {"light": {"night": draw(_MOD)}}
        cw["tohit"]["to_hit"] = {"natural_miss": draw(st.sampled_from([1, 2, 2, 2, 2, 2, 3])),
                                 "max_needed": draw(st.sampled_from([8, 9, 10, 11, 12, 12, 12, 12, 13]))}
    if "bands" in picks:
        lows = sorted(draw(st.lists(st.integers(5, 90), min_size=1, max_size=6, unique=True)))
        cw.setdefault("tohit", {})["speed_bands"] = {"bands": [[lo, draw(_MOD)] for lo in lows]}
    if "damage" in picks:
        cw["damage"] = {"cycle": {**_bands2(draw, ["end_armour", "end_wheel"]),
                                  **_bands2(draw, ["side_driver", "side_power_plant", "side_weapon", "side_tire"])},
                        "trike": _bands2(draw, ["wheel", "armour"])}
        cut = draw(st.integers(2, 6))
        cw["damage"]["sidecar"] = {"cycle": [1, cut - 1], "sidecar": [cut, 6]}
    if "fire" in picks:
        cw["fire"] = {"start": {"component_hit": draw(_BAND1), "component_hit_fiery": draw(_BAND1)},
                      "extinguisher": {"standard": draw(_BAND1), "improved": draw(_BAND1)},
                      "explosion": {"roll": draw(_BAND1), "damage": draw(st.sampled_from(["1d", "1d", "2d", "2d-1", "1d+1"]))},
                      "damage": {"per_turn": draw(st.sampled_from([1, 1, 2, 3]))}}
    if "collisions" in picks:
        cw["collisions"] = {"metal_armour_factor": draw(st.sampled_from([1, 2, 3, 3, 4, 2.5])),
                            "metal_loss_cap_fraction": draw(st.sampled_from([0.5, 0.25, 1.0, 1 / 3, 0.3, 0.3334])),
                            "dice_per_5_mph_above": draw(st.sampled_from([0, 1, 1, 1, 2])),
                            "weight_classes": [[draw(st.sampled_from([1500, 2000])), draw(st.sampled_from([0.25, 1 / 3]))],
                                               [4000, draw(st.sampled_from([0.5, 2 / 3, 1.5]))]]}
    if "weapons" in picks:
        cw["weapons"] = {"weapon": [{"name": "Machine Gun", "to_hit": draw(st.integers(3, 11)),
                                     "damage": draw(st.sampled_from(["1d", "2d-1", "3d", "1d+2"]))},
                                    {"name": "Laser", "fire_modifier": draw(st.integers(0, 5)), "burn_duration": draw(st.integers(0, 2))}]}
    if "obstacle" in picks:
        cw.setdefault("damage", {})["obstacle"] = {"hits_in_phase": draw(st.integers(1, 12))}
    return {"carwars": cw}


_CROSSCHECK_DOCS = [
    doc(arena={"light": "night"},
        vehicle=[{"id": "h", "design": "hunter", "armour_material": "metal", "x": 0.0, "y": 0.0, "speed": 40,
                  "armour": {"front": 6, "back": 5, "left": 4, "right": 4, "top": 3, "underbody": 3}},
                 {"id": "s", "design": "shogun", "x": 2.0, "y": 0.5, "speed": 20, "burning": True, "extinguisher": "standard"},
                 {"id": "o", "design": "outrider", "x": 0.2, "y": 3.0, "facing": 90.0, "speed": 45},
                 {"id": "k", "design": "stinger", "x": 2.2, "y": 3.5, "facing": 200.0, "speed": 0}],
        attack=[{"id": "a1", "attacker": "s", "weapon": "laser", "target": "o", "firer": "gunner"},
                {"id": "a2", "attacker": "h", "weapon": "mg", "target": "k", "firer": "driver"},
                {"id": "a3", "attacker": "k", "weapon": "rl", "target": "h", "firer": "driver"},
                {"id": "a4", "attacker": "o", "weapon": "sc_lmg", "target": "k", "firer": "passenger"},
                {"id": "a5", "attacker": "s", "weapon": "mg", "target": "k", "firer": "driver", "aim": "tire:front"}],
        collision=[{"id": "c1", "vehicle": "h", "side": "front", "speed": 60, "weight_lb": 3000},
                   {"id": "c2", "vehicle": "o", "side": "left", "speed": 25}]),
    doc(scenario={"turns": 1},
        vehicle=[{"id": "h", "design": "hunter", "x": 0.0, "y": 0.0, "speed": 30},
                 {"id": "s", "design": "shogun", "x": 1.0, "y": -3.0, "speed": 40},
                 {"id": "k", "design": "stinger", "x": -1.0, "y": 4.0, "facing": 180.0, "speed": 20}],
        attack=[{"id": "b1", "attacker": "s", "weapon": "laser", "target": "h", "firer": "gunner", "turn": 1, "phase": 2},
                {"id": "b2", "attacker": "k", "weapon": "rl", "target": "h", "firer": "driver", "turn": 1, "phase": 4},
                {"id": "b3", "attacker": "h", "weapon": "mg", "target": "k", "firer": "driver", "turn": 1, "phase": 1}],
        collision=[{"id": "c", "vehicle": "k", "side": "front", "speed": 40, "turn": 1, "phase": 3}]),
]


@settings(max_examples=int(__import__("os").environ.get("HARDPOINT_OVERRIDE_EXAMPLES", "40")), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(house_rules(), st.integers(0, 2**32))
def test_safe_01_any_accepted_override_runs_the_same_on_both_backends(override, seed):
    """SAFE-01 / ARCH-03 / ARCH-05: whatever override the validators accept, the compiled kernel and the reference
    give identical hits, damage, component values and flags on scenarios with cars, cycles, a sidecar, a trike,
    metal armour, collisions, fire and one whole turn. Every such override runs in the kernel: `pack` accepts it,
    the one decision `supports_compiled` also reads (the house-rule fire band [2, 3] used to pass one check and fail
    the other)."""
    pytest.importorskip("hardpoint.fastcore._carwars")
    try:
        rules = load_rules(override)
    except DataError:
        return
    for data in _CROSSCHECK_DOCS:
        scenario = hardpoint.parse_scenario(copy.deepcopy(data), rules=rules)
        assert supports_compiled(scenario) is None and not isinstance(pack(scenario), Unpackable), override
        ref = run_batch(scenario, 12, seed, backend="reference", end_of_turn=True)
        com = run_batch(scenario, 12, seed, backend="compiled", end_of_turn=True, threads=1)
        for what in ("hit", "damage", "state", "flags"):
            np.testing.assert_array_equal(getattr(ref, what), getattr(com, what), err_msg=f"{what} under {override}")


def test_safe_01_cw_fire_house_rule_fire_figures_run_in_the_kernel_and_agree():
    """SAFE-01 / ARCH-04 / CW-FIRE-02..04 (this session): a fire band that does not start at 1, fire damage other
    than 1 a turn and an explosion other than 1d are valid house rules. The kernels read every fire band as
    [low, high], the fire damage and the blast's dice from the rules (`consts`); they used to build in "1 to high",
    1 and 1d, so such a scenario ran on the reference (the band [2, 3] once passed `supports_compiled` and failed in
    `pack`). Now single phases (burning vehicles and a standard extinguisher; fires from component hits and the
    improved and portable extinguishers), the default scenario's turn and the three-turn fire example run under
    them in both kernels and agree with the reference in every value, and the house rules change what happens."""
    pytest.importorskip("hardpoint.fastcore._carwars")
    fire = {"start": {"component_hit": [2, 3], "component_hit_fiery": [2, 5]},
            "extinguisher": {"standard": [2, 4], "improved": [3, 6], "portable": [5, 6]},
            "explosion": {"roll": [1, 3], "damage": "1d-2"}, "damage": {"per_turn": 2}}
    house = load_rules({"carwars": {"fire": fire}})
    # nothing burning at the start, so fires start from component hits (a band of 4-6) and the improved and portable
    # extinguishers meet them
    hits = load_rules({"carwars": {"fire": {**fire, "start": {"component_hit": [4, 6], "component_hit_fiery": [3, 6]},
                                            "explosion": {"roll": [1, 3], "damage": "2d-1"}}}})

    def load(name, rules=None):
        doc = copy.deepcopy(_CROSSCHECK_DOCS[0])  # a single phase: cars, a cycle, a trike with rockets, collisions, shots
        if name == "crosscheck":       # the car burning with a standard extinguisher, the trike burning 2" from the
            doc["vehicle"][3]["burning"] = True                                # cycle with a portable one
            doc["vehicle"][3]["extinguisher"] = "portable"
            return hardpoint.parse_scenario(doc, rules=rules)
        if name == "component hits":   # nobody burning; the hunter and the shogun with improved and portable extinguishers
            for v in doc["vehicle"]:
                v["burning"] = False
            doc["vehicle"][0]["extinguisher"], doc["vehicle"][1]["extinguisher"] = "improved", "portable"
            return hardpoint.parse_scenario(doc, rules=rules)
        return hardpoint.load_scenario(f"builtin:{name}", rules=rules)

    for name, rules, trials in (("crosscheck", house, 300), ("component hits", hits, 2000), ("default", house, 300),
                                ("cw_fire_example", house, 150)):
        s = load(name, rules)
        assert supports_compiled(s) is None and not isinstance(pack(s), Unpackable)
        ref = run_batch(s, trials, 4, backend="reference", end_of_turn=True)
        com = run_batch(s, trials, 4, backend="compiled", end_of_turn=True, threads=1)
        for what in ("hit", "damage", "state", "flags"):
            np.testing.assert_array_equal(getattr(ref, what), getattr(com, what), err_msg=f"{name} {what}")
        for k in (ref.fight or {}):
            np.testing.assert_array_equal(ref.fight[k], com.fight[k], err_msg=f"{name} fight {k}")
        plain = run_batch(load(name), trials, 4, backend="compiled", end_of_turn=True, threads=1)
        assert not np.array_equal(plain.state, com.state), name


# --- B. scenario fields: ranges and descriptions ----------------------------------------------------------

def _properties(node, path=""):
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            yield f"{path}.{key}", value
            yield from _properties(value, f"{path}.{key}")
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                yield from _properties(node[key], f"{path}[]")


def test_cli_02_every_car_wars_field_has_a_description():
    """CLI-02: every field of the Car Wars scenario schema says what it means (units, default): the docs are
    generated from these."""
    from hardpoint.carwars.scenario import SCHEMA_PARTS

    missing = [p for part, schema in SCHEMA_PARTS.items() for p, node in _properties(schema, part)
               if not node.get("description")]
    assert missing == []
    assert all(schema.get("description") for schema in SCHEMA_PARTS.values())


@pytest.mark.parametrize("patch,field", [
    ({"speed": 400}, "vehicle[0].speed"),
    ({"speed": -150}, "vehicle[0].speed"),
    ({"x": 10_000.5}, "vehicle[0].x"),
    ({"armour": {"front": 10_001}}, "vehicle[0].armour.front"),
    ({"power_plant": 10_001}, "vehicle[0].power_plant"),
    ({"weapon": [{"id": "mg", "type": "MG", "ammo": 10_001}]}, "vehicle[0].weapon[0].ammo"),
    ({"crew": [{"id": "d", "role": "driver", "gunner": 11}]}, "vehicle[0].crew[0].gunner"),
    ({"crew": [{"id": "d", "role": "driver", "body_armour": 101}]}, "vehicle[0].crew[0].body_armour"),
    ({"water_depth_ft": 101}, "vehicle[0].water_depth_ft"),
    ({"hazard_difficulty": 21}, "vehicle[0].hazard_difficulty"),
])
def test_safe_01_vehicle_fields_have_ranges(patch, field):
    """SAFE-01: speeds from -100 to 300 mph, coordinates within 10,000", armour, DP and ammunition to 10,000
    (x10 metal armour stays inside int32), skills to 10, body armour to 100: in a file and through the API."""
    e = load_error(doc(vehicle=[{"id": "v", "design": "hunter", **patch}]))
    assert e.field == field
    from hardpoint.carwars.model import build_vehicle

    with pytest.raises(ScenarioError) as err:
        build_vehicle(hardpoint.default_rules(), {"id": "v", "design": "hunter", **patch}, "vehicle[0]")
    assert (err.value.field, err.value.rule) == (field, "SAFE-01")


def test_safe_01_integer_fields_take_integers_only():
    """SAFE-01: 1.0 where the rules count (hits, a turn) is refused: the reference would carry a float the kernel
    truncates."""
    e = load_error(doc(vehicle=[{"id": "v", "design": "hunter", "crew": [{"id": "d", "role": "driver", "hits": 1.0}]}]))
    assert (e.field, e.rule) == ("vehicle[0].crew[0].hits", "CW-CREW-01")
    e = load_error(doc(arena={"turn": 2.0}))
    assert e.field == "arena.turn"


def test_safe_01_collision_and_pedestrian_ranges():
    """SAFE-01 / CW-COL-04: a collision at 300 mph at most (the table's dice hold it), weight to 100,000 lb; a
    pedestrian walks at 0 to 30 mph."""
    v = [{"id": "v", "design": "hunter"}]
    assert load_error(doc(vehicle=v, collision=[{"id": "c", "vehicle": "v", "side": "front", "speed": 1e6}])).field == "collision[0].speed"
    assert load_error(doc(vehicle=v, collision=[{"id": "c", "vehicle": "v", "side": "front", "speed": 30,
                                                 "weight_lb": 1e6}])).field == "collision[0].weight_lb"
    assert load_error(doc(pedestrian=[{"id": "p", "speed": -3}])).field == "pedestrian[0].speed"


def test_safe_01_facing_is_normalised():
    """SAFE-01: any finite facing is taken modulo 360 (a pedestrian's too)."""
    s = hardpoint.parse_scenario(doc(vehicle=[{"id": "v", "design": "hunter", "facing": -90.0}],
                                     pedestrian=[{"id": "p", "facing": 725.0}]))
    assert s.arena.vehicles["v"].facing == 270.0 and s.arena.pedestrians["p"].facing == 5.0


def test_safe_01_counts_are_bounded():
    """SAFE-01: at most 4,096 vehicles and pedestrians together."""
    n = bounds.MAX_UNITS // 2 + 1
    e = load_error(doc(vehicle=[{"id": f"v{i}", "body": "compact", "x": float(i)} for i in range(n)],
                       pedestrian=[{"id": f"p{i}", "x": float(i), "y": 5.0} for i in range(n)]))
    assert (e.field, e.rule) == ("pedestrian", "SAFE-01")


# --- C. namespaces, references, plans ----------------------------------------------------------------------

def test_cli_02_map_ids_share_one_namespace_and_declarations_another():
    """CLI-02: vehicles, pedestrians, buildings, clouds, areas and counters share one namespace (a target, a blocker
    or a counter is named by its id alone); attacks and collisions another (the log and the batch's columns name
    them); an id of the shape the engine gives what it makes during play is refused."""
    e = load_error(doc(vehicle=[{"id": "x", "design": "hunter"}], building=[{"id": "x", "x": 5, "y": 5, "width": 1, "length": 1}]))
    assert (e.field, e.value) == ("building[0].id", "x")
    vs = [car(), car("target", y=4.0)]
    e = load_error(doc(vehicle=vs, attack=[attack("hit")], collision=[{"id": "hit", "vehicle": "car", "side": "front", "speed": 10}]))
    assert (e.field, e.value) == ("collision[0].id", "hit")
    assert load_error(doc(vehicle=vs, attack=[attack("a/mg")])).field == "attack[0].id"
    assert load_error(doc(vehicle=[car("md.t1p3")])).field == "vehicle[0].id"


@pytest.mark.parametrize("patch,field,rule", [
    ({"weapon": [{"id": "mg", "type": "MG"}, {"id": "mg", "type": "MG", "mount": "back"}]}, "vehicle[0].weapon[1].id", "CW-VEH-03"),
    ({"crew": [{"id": "d", "role": "driver"}, {"id": "d", "seat": "front_right"}]}, "vehicle[0].crew[1].id", "CW-VEH-03"),
    ({"cargo": [{"id": "k"}, {"id": "k"}]}, "vehicle[0].cargo[1].id", "CW-VEH-04"),
    ({"tire": [{"id": "front_left", "dp": 5}, {"id": "front_left", "dp": 6}]}, "vehicle[0].tire[1].id", "CW-VEH-03"),
    ({"links": [{"id": "l", "weapons": ["mg"]}, {"id": "l", "weapons": ["md"]}]}, "vehicle[0].links[1].id", "CW-LINK-01"),
    ({"links": [{"id": "l", "weapons": ["mg", "mg"]}]}, "vehicle[0].links[0].weapons", "CW-ROF-01"),
    ({"links": [{"id": "l", "weapons": ["m"]}, {"id": "m", "weapons": ["l"]}]}, "vehicle[0].links[0].weapons", "CW-LINK-01"),
    ({"cargo": [{"id": "k", "dp": 2, "current_dp": 3}]}, "vehicle[0].cargo[0].current_dp", "CW-VEH-04"),
])
def test_cli_02_ids_inside_a_vehicle(patch, field, rule):
    """CW-VEH-03/04, CW-LINK-01: weapons (and links), crew and cargo ids are unique on their vehicle; a link reaches
    each weapon once and never itself; what a component has now cannot exceed what it has whole."""
    e = load_error(doc(vehicle=[{"id": "v", "design": "hunter", **patch}]), (ScenarioError, RuleViolation))
    assert (e.field, e.rule) == (field, rule)


@pytest.mark.parametrize("n,field", [(40, "vehicle[0].cargo"), (36, "vehicle[0].cargo")])
def test_safe_01_a_random_pick_has_at_most_36_candidates(n, field):
    """SAFE-01 / SAFE-03 / CW-DMG-04: power plant, crew and cargo items number at most 36 (a collision and a hit from
    above or below pick among them with two dice; with 40 cargo items the kernel's pick looped for ever and the
    reference raised a bare ValueError at resolve): refused at load, naming the field."""
    e = load_error(doc(vehicle=[{"id": "v", "design": "hunter", "cargo": [{"id": f"c{i}"} for i in range(n)]}]))
    assert e.field == field
    from hardpoint.carwars.model import build_vehicle

    entry = {"id": "v", "design": "hunter", "crew": [{"id": "d", "role": "driver"}], "cargo": [{"id": f"c{i}"} for i in range(34)]}
    build_vehicle(hardpoint.default_rules(), entry)      # power plant, driver and 34 items: 36
    entry["cargo"].append({"id": "one_more"})
    with pytest.raises(ScenarioError) as err:
        build_vehicle(hardpoint.default_rules(), dict(entry, cargo=entry["cargo"][:35], crew=entry["crew"]))
    assert err.value.rule == "SAFE-01"


def test_safe_01_a_hit_from_below_picks_among_36_at_most():
    """SAFE-01 / CW-DMG-04: a hit from below picks one of the power plant, each crew member and the cargo location (a car
    always has one, empty or not): power plant, 35 crew and no cargo make 37 candidates, refused at load (the
    kernel's pick would loop for ever, the reference raise at resolve)."""
    from hardpoint.carwars.model import build_vehicle

    crew = [{"id": "d", "role": "driver"}] + [{"id": f"p{i}", "seat": "middle"} for i in range(34)]
    with pytest.raises(ScenarioError) as err:
        build_vehicle(hardpoint.default_rules(), {"id": "v", "design": "hunter", "crew": crew, "cargo": []})
    assert (err.value.field, err.value.value, err.value.rule) == ("vehicle.crew", 37, "SAFE-01")
    build_vehicle(hardpoint.default_rules(), {"id": "v", "design": "hunter", "crew": crew[:-1], "cargo": []})


def test_safe_01_sidecar_picks_are_bounded():
    """SAFE-01 / CW-TGT-05: a sidecar's weapons, riders and cargo together at most 36."""
    from hardpoint.carwars.model import build_vehicle

    entry = {"id": "v", "design": "outrider", "sidecar": {"side": "right", "cargo": [{"id": f"c{i}"} for i in range(30)],
                                                          "crew": [{"id": f"p{i}", "seat": "sidecar"} for i in range(7)]}}
    with pytest.raises(ScenarioError) as err:
        build_vehicle(hardpoint.default_rules(), entry)
    assert (err.value.field, err.value.rule) == ("vehicle.sidecar", "SAFE-01")


def _chase(**changes):
    from hardpoint.scenario import parse_text

    data = parse_text(hardpoint.data.read_seed_text("scenarios/cw_chase.toml"), "cw_chase.toml")
    for key, value in changes.items():
        data[key] = value
    return data


def test_err_01_references_of_a_multi_turn_plan_resolve_at_load():
    """ERR-01 / CW-VEH-03 / CW-HAND-01: a planned attack of turn 3 naming a weapon its attacker does not have is an
    error at load, not a cancelled attack two turns later; so is a firer not aboard, a tire the target lacks, and
    an action's weapon, crew member or counter that does not exist."""
    base = _chase()
    data = copy.deepcopy(base)
    data["attack"][3]["weapon"] = "lazer"
    assert load_error(data).field == "attack[3].weapon"
    data = copy.deepcopy(base)
    data["attack"][2]["firer"] = "navigator"
    assert load_error(data).field == "attack[2].firer"
    data = copy.deepcopy(base)
    data["attack"][2]["aim"] = "tire:front"
    e = load_error(data)
    assert (e.field, e.rule) == ("attack[2].aim", "CW-TGT-03")
    data = copy.deepcopy(base)
    data["action"][1]["weapon"] = "md2"
    assert load_error(data).field == "action[1].weapon"
    data = copy.deepcopy(base)
    data["action"].append({"turn": 3, "phase": 1, "kind": "detonate", "vehicle": "runner", "counter": "nowhere"})
    e = load_error(data)
    assert (e.field, e.rule) == ("action[2].counter", "CW-DROP-03")
    data = copy.deepcopy(base)
    data["action"][0]["difficulty"] = 2
    assert load_error(data).field == "action[0].difficulty"


@pytest.mark.parametrize("change,field,rule", [
    # the same weapon dropped twice in one turn
    (lambda d: d["action"].append({"turn": 1, "phase": 4, "kind": "drop", "vehicle": "runner", "weapon": "md"}),
     "action[2]", "CW-ROF-01"),
    # a turret weapon put on automatic
    (lambda d: d["action"].append({"turn": 2, "phase": 2, "kind": "automatic_on", "vehicle": "pursuer", "weapon": "laser"}),
     "action[2].weapon", "CW-AUTO-01"),
    # a character firing twice in a turn: the gunner fires the laser in phase 3 and the MG in phase 5
    (lambda d: d["attack"].append({"id": "mg_again", "attacker": "pursuer", "weapon": "mg", "firer": "gunner", "target": "runner",
                                   "turn": 2, "phase": 5}), "attack[4]", "CW-ROF-01"),
    # the driver's firing action is his drop: he cannot also fire the MG that turn
    (lambda d: d["attack"].append({"id": "runner_mg", "attacker": "runner", "weapon": "mg", "firer": "driver", "target": "pursuer",
                                   "turn": 1, "phase": 2}), "attack[4]", "CW-ROF-01"),
    # a dropped weapon cannot be fired as an attack
    (lambda d: d["attack"].append({"id": "mines", "attacker": "runner", "weapon": "md", "target": "pursuer", "turn": 3, "phase": 2}),
     "attack[4].weapon", "CW-DROP-01"),
    # an action outside the turns run
    (lambda d: d["action"].append({"turn": 9, "phase": 1, "kind": "maneuver", "vehicle": "runner"}), "action[2].turn", "CLI-02"),
])
def test_cw_rof_01_static_plan_legality_is_checked_at_load(change, field, rule):
    """CW-ROF-01 / CW-AUTO-01 / CW-DROP-01: a plan that fires or drops a weapon twice in a turn, puts a turret weapon
    on automatic, or has a character fire twice in a turn is an error at load, naming the field and the rule."""
    data = _chase()
    change(data)
    e = load_error(data, (ScenarioError, RuleViolation))
    assert (e.field, e.rule) == (field, rule)


def test_cw_rof_01_single_phase_rate_of_fire_is_checked_at_load():
    """CW-ROF-01: in a single-phase scenario the same weapon twice is refused when the scenario loads."""
    e = load_error(doc(vehicle=[car(), car("target", y=4.0)], attack=[attack("a1"), attack("a2")]), RuleViolation)
    assert (e.field, e.rule) == ("attack[1].weapon", "CW-ROF-01")


def test_cw_rof_01_a_vehicle_weapon_nobody_aboard_can_fire_is_refused_at_load():
    """CW-ROF-01: a weapon is fired by a character, or by itself on automatic. An attack that names no firer, by a
    vehicle with no gunner and no driver aboard, used to be rolled as if someone fired it; it is now an error at
    load naming the firer field, in a single phase and in a plan of turns. Named, a passenger fires it; on
    automatic, it fires by itself."""
    empty = car(crew=[], layout=["power_plant", "cargo"])
    e = load_error(doc(vehicle=[empty, car("target", y=4.0)], attack=[attack()]), RuleViolation)
    assert (e.field, e.rule) == ("attack[0].firer", "CW-ROF-01") and "nobody aboard 'car'" in str(e)
    e = load_error(doc(scenario={"turns": 2}, vehicle=[empty, car("target", y=4.0)], attack=[attack(turn=2, phase=3)]),
                   RuleViolation)
    assert (e.field, e.rule) == ("attack[0].firer", "CW-ROF-01")
    rider = car(crew=[{"id": "p", "role": "passenger", "seat": "front_right"}], layout=["crew", "power_plant", "cargo"])
    assert hardpoint.parse_scenario(doc(vehicle=[rider, car("target", y=4.0)], attack=[attack(firer="p")])).explain()
    on_auto = car(crew=[], layout=["power_plant", "cargo"],
                  weapon=[{"id": "mg", "type": "Machine Gun", "mount": "front", "automatic": True}])
    assert hardpoint.parse_scenario(doc(vehicle=[on_auto, car("target", y=4.0)], attack=[attack()])).explain()
    # found in review: a plan's link that nobody aims (only dropped weapons, or its aimed gun on automatic) loads
    droppers = car(crew=[], layout=["power_plant", "cargo"],
                   weapon=[{"id": "md", "type": "Minedropper", "mount": "back"}, {"id": "oil", "type": "Oil Jet", "mount": "back"},
                           {"id": "mg", "type": "Machine Gun", "mount": "front", "automatic": True}],
                   links=[{"id": "drops", "weapons": ["md", "oil"]}, {"id": "auto", "weapons": ["mg", "oil"]}])
    for link in ("drops", "auto"):
        hardpoint.parse_scenario(doc(scenario={"turns": 2}, vehicle=[droppers, car("target", y=4.0)],
                                     attack=[attack(weapon=link, turn=1, phase=2)]))


def test_cli_02_a_single_phase_attack_is_for_the_arena_moment():
    """CLI-02: an attack of a single-phase scenario declared for another turn or phase is refused (it used to be
    resolved now, without a word)."""
    e = load_error(doc(vehicle=[car(), car("target", y=4.0)], attack=[attack(phase=3)]))
    assert (e.field, e.value) == ("attack[0].phase", 3)


def test_cw_hit_09_history_and_fired_this_turn_resolve():
    """CW-HIT-09 / CW-ROF-01: a sustained-fire record names an attacker, its weapon and a target that exist, once per
    weapon, before the arena's turn; what fired earlier this turn names weapons and people aboard."""
    vs = [car(), car("target", y=4.0)]
    h = {"attacker": "car", "weapon": "mg", "target": "target", "streak": 1, "last_turn": 0}
    assert load_error(doc(vehicle=vs, history=[dict(h, weapon="mgx")])).field == "history[0].weapon"
    assert load_error(doc(vehicle=vs, history=[dict(h, target="ghost")])).field == "history[0].target"
    assert load_error(doc(vehicle=vs, history=[h, dict(h, streak=2)])).field == "history[1].weapon"
    assert load_error(doc(vehicle=vs, history=[dict(h, last_turn=1)])).field == "history[0].last_turn"
    assert load_error(doc(vehicle=vs, fired_this_turn={"weapons": [["car", "laser"]]})).field == "fired_this_turn.weapons[0][1]"
    assert load_error(doc(vehicle=vs, fired_this_turn={"characters": [["car", "ghost"]]})).field == "fired_this_turn.characters[0][1]"


def test_cw_veh_06_a_refused_weapon_is_not_dropped_in_a_plan():
    """CW-VEH-06: a plan dropping a weapon whose effect the seeds do not give is refused at load (the Cloud Bomb)."""
    data = doc(scenario={"turns": 1}, vehicle=[car(weapon=[{"id": "w", "type": "Cloud Bomb", "mount": "back"}])],
               action=[{"turn": 1, "phase": 1, "kind": "drop", "vehicle": "car", "weapon": "w"}])
    e = load_error(data, RuleViolation)
    assert (e.field, e.rule) == ("action[0].weapon", "CW-VEH-06")


def test_err_01_an_action_the_dice_make_impossible_is_cancelled_not_a_crash():
    """ERR-01 / CW-VEH-03: a legal plan drops a minedropper with one shot left in turn 1 and again in turn 2; by turn 2
    it is out of ammunition: that drop is cancelled with the rule, the run goes on and nothing is half-applied."""
    data = _chase(action=[{"turn": 1, "phase": 1, "kind": "drop", "vehicle": "runner", "weapon": "md"},
                          {"turn": 2, "phase": 1, "kind": "drop", "vehicle": "runner", "weapon": "md"}])
    data["vehicle"][0]["weapon"][1]["ammo"] = 1
    r = hardpoint.parse_scenario(data).resolve(SeededDice(3))
    notes = [e for e in r.events if e.kind == "note" and "cancelled" in e.text and e.text.startswith("drop of runner")]
    assert len(notes) == 1 and notes[0].rule == "CW-VEH-03"


@pytest.mark.parametrize("path", sorted((__import__("pathlib").Path(__file__).parents[1] / "fuzz" / "fixtures").glob("*.json")),
                         ids=lambda p: p.stem)
def test_safe_04_fuzz_fixtures_of_car_wars_fail_at_load(path):
    """SAFE-04 / SAFE-01: each Car Wars document the fuzzer found failing after load now fails at load, with a
    HardpointError naming a field, or runs through without one."""
    import json

    data = json.loads(path.read_text(encoding="utf-8"))["document"]
    if not isinstance(data, dict) or data.get("scenario", {}).get("ruleset") != "carwars":
        pytest.skip("not a Car Wars document")
    try:
        s = hardpoint.parse_scenario(data)
    except hardpoint.HardpointError as exc:
        assert isinstance(exc, ValueError) and exc.field
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s.resolve(SeededDice(1))


# --- D. the kernel's arrays --------------------------------------------------------------------------------

def test_safe_01_attack_rows_count_linked_weapons(monkeypatch):
    """SAFE-01 / ARCH-04: the kernel holds 65,536 attack rows; a link counts once per weapon it fires, so the packer's
    check counts rows, not declarations (shown here with the bound lowered to 2)."""
    import hardpoint.carwars.batch as batch

    vs = [car(weapon=[{"id": "m1", "type": "MG"}, {"id": "m2", "type": "MG"}], links=[{"id": "both", "weapons": ["m1", "m2"]}]),
          car("target", y=4.0)]
    s = build(vehicles=vs, attacks=[attack(weapon="both")])
    assert supports_compiled(s) is None
    monkeypatch.setattr(batch, "_KERNEL_ATTACKS", 1)
    assert "more than 1 attacks" in supports_compiled(s)
    assert isinstance(pack(s), Unpackable) and "more than 1 attacks" in pack(s).reason


def test_safe_04_a_number_of_turns_written_as_a_float_is_refused_naming_the_field():
    """SAFE-04 / CLI-02 (found by the schema fuzzer): `turns = 1.0` passed the schema (its integer type takes 1.0)
    and then crashed the turn loop with a TypeError; it is refused as every other count written as a float is
    (arena.phase = 1.0 already was), with a ScenarioError naming scenario.turns."""
    doc = {"scenario": {"name": "a", "ruleset": "carwars", "turns": 1.0}, "vehicle": [{"id": "car", "design": "hunter"}]}
    with pytest.raises(ScenarioError) as err:
        hardpoint.parse_scenario(doc)
    assert err.value.field == "scenario.turns" and err.value.value == 1.0
    doc["scenario"]["turns"] = 1
    assert hardpoint.parse_scenario(doc).resolve(SeededDice(1)).turns == 1


@pytest.mark.parametrize("path, value, field", [
    (("area", "share_divisor"), 0, "carwars.damage.area.share_divisor"),
    (("area", "share_divisor"), math.nan, "carwars.damage.area.share_divisor"),
    (("area", "share_divisor"), 10**9, "carwars.damage.area.share_divisor"),
    (("burst", "damage"), "zz", "carwars.damage.burst.damage"),
    (("burst", "damage"), "999999d", "carwars.damage.burst.damage"),
])
def test_cw_dmg_07_area_and_burst_figures_are_checked_when_the_rules_load(path, value, field):
    """CW-DMG-06 / CW-DMG-07 / SAFE-01: the burst's dice and the area attack's share divisor (seeds/carwars/damage.toml)
    are refused when a house rule makes them malformed, huge, zero or NaN, naming the field, before any trial."""
    with pytest.raises(DataError) as err:
        load_rules({"carwars": {"damage": {path[0]: {path[1]: value}}}})
    assert err.value.field == field
    assert load_rules({"carwars": {"damage": {"area": {"share_divisor": 3}, "burst": {"damage": "2d"}}}})
