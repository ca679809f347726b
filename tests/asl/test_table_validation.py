"""Every ASL rule table validated, defaults and overrides alike (SAFE-01, ARCH-05).

One test per table of seeds/asl mutates its default in harmful ways (wrong
types, NaN and infinities, numbers out of the range the rules and the kernel
hold, unknown and missing keys, broken cross-references) and checks that the
override is refused with a DataError (a ValueError) naming the field. A
property test then draws overrides the validators accept and checks that the
compiled kernel and the reference still agree trial by trial.
"""
import copy
import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import DataError, HardpointError
from hardpoint.asl import tables

from .test_batch_kernel import COLUMNS, assert_same_rows, stacks

NAN, INF = float("nan"), float("inf")


def refused(rules, table, override, field):
    with pytest.raises(DataError) as err:
        rules.with_overrides({"asl": {table: override}})
    assert isinstance(err.value, ValueError)
    # (the limits at the door may name the item of a list: "...weapons[0]")
    assert err.value.field == field or err.value.field.startswith(field + "["), (err.value.field, str(err.value))
    return err.value


def refused_table(rules, table, mutate, field):
    """The default table mutated in place (for what an override cannot do: delete a key), then validated."""
    t = copy.deepcopy(rules[f"asl.{table}"])
    mutate(t)
    validator = {"ift": tables._validate_ift, "tohit": tables._validate_tohit, "morale": tables._validate_morale,
                 "infantry": tables._validate_infantry, "motorcycles": tables._validate_motorcycles,
                 "terrain": tables._validate_terrain, "board": tables._validate_board}[table]
    with pytest.raises(DataError) as err:
        validator(f"asl.{table}", t)
    assert err.value.field == field, (err.value.field, str(err.value))


@pytest.mark.parametrize("override,field", [
    ({"min_dr": 3}, "asl.ift.min_dr"),                      # a row for Original DR 2 is missing
    ({"min_dr": 1.5}, "asl.ift.min_dr"),
    ({"min_dr": NAN}, "asl.ift.min_dr"),
    ({"min_dr": True}, "asl.ift.min_dr"),
    ({"max_dr": 11}, "asl.ift.max_dr"),
    ({"max_dr": 10**9}, "asl.ift.max_dr"),
    ({"columns": [0, 1]}, "asl.ift.columns"),
    ({"columns": [2, 1]}, "asl.ift.columns"),
    ({"columns": ["1"]}, "asl.ift.columns"),
    ({"columns": [1, 2001]}, "asl.ift.columns"),
    ({"columns": [1, 2, 4, 6, 8, 12, 16, 20, 24, 30]}, "asl.ift.column.36"),   # a column left without its place
    ({"column": {"13": ["-"] * 16}}, "asl.ift.column.13"),
    ({"column": {"12": ["-"] * 15}}, "asl.ift.column.12"),
    ({"column": {"12": ["0MC"] + ["-"] * 15}}, "asl.ift.column.12[0]"),
    ({"column": {"12": [5] + ["-"] * 15}}, "asl.ift.column.12[0]"),
    ({"cowering": {"enabled": "yes"}}, "asl.ift.cowering.enabled"),
    ({"cowering": {"columns": -1}}, "asl.ift.cowering.columns"),
    ({"cowering": {"inexperienced_columns": INF}}, "asl.ift.cowering.inexperienced_columns"),
    ({"cowering": {"exempt": ["snipers"]}}, "asl.ift.cowering.exempt"),
    ({"cowering": {"exempt": ["smc", "smc"]}}, "asl.ift.cowering.exempt"),
    ({"cowering": {"shift": 1}}, "asl.ift.cowering.shift"),
    ({"firepower": {"point_blank": 0}}, "asl.ift.firepower.point_blank"),
    ({"firepower": {"long_range_divisor": 0}}, "asl.ift.firepower.long_range_divisor"),
    ({"firepower": {"triple_point_blank": 2**40}}, "asl.ift.firepower.triple_point_blank"),
    ({"colums": [1]}, "asl.ift.colums"),
])
def test_safe_01_ift_table_is_validated(rules, override, field):
    """SAFE-01, A7: asl.ift: rows cover every Original DR, FP columns increasing and complete, every cell a result,
    cowering and FP multipliers in range, no unknown key."""
    refused(rules, "ift", override, field)


@pytest.mark.parametrize("override,field", [
    ({"range_bands": []}, "asl.tohit.range_bands"),
    ({"range_bands": [6, 6, 12, 18, 24, 30, 36, 42, 48]}, "asl.tohit.range_bands"),
    ({"range_bands": [-1, 12, 18, 24, 30, 36, 42, 48, 54]}, "asl.tohit.range_bands"),
    ({"basic": {"infantry": {"other": [8, 6]}}}, "asl.tohit.basic.infantry.other"),
    ({"basic": {"infantry": {"other": [99, 6, 5, 4, 3, 2, 1, 0, -1, -2]}}}, "asl.tohit.basic.infantry.other"),
    ({"basic": {"infantry": {"other": [7.5, 6, 5, 4, 3, 2, 1, 0, -1, -2]}}}, "asl.tohit.basic.infantry.other"),
    ({"basic": {"infantry": {"japanese": [8] * 10}}}, "asl.tohit.basic.infantry.japanese"),
    ({"basic": {"tank": {"any": [8] * 10}}}, "asl.tohit.basic.tank"),
    ({"drm": {"case_j_target_moving": 99}}, "asl.tohit.drm.case_j_target_moving"),
    ({"drm": {"mounted_motorcyclist": NAN}}, "asl.tohit.drm.mounted_motorcyclist"),
    ({"drm": {"mounted_bicyclist": "-1"}}, "asl.tohit.drm.mounted_bicyclist"),
    ({"target_type": {"vs_motorcyclists": ["area"]}}, "asl.tohit.target_type.vs_motorcyclists"),
    ({"target_type": {"vs_motorcyclists": []}}, "asl.tohit.target_type.vs_motorcyclists"),
    ({"target_type": {"vs_motorcyclists": ["infantry", "vehicle"]}}, "asl.tohit.target_type.vs_motorcyclists"),
])
def test_safe_01_tohit_table_is_validated(rules, override, field):
    """SAFE-01, C3, ASL-TGT-01: asl.tohit: range bands increasing, one whole To Hit number per band and row (no
    unknown row: it used to crash the typed view with a KeyError), DRM in range, riders fired on as Infantry."""
    refused(rules, "tohit", override, field)


@pytest.mark.parametrize("override,field", [
    ({"morale_check": {"broken_fails": "rout"}}, "asl.morale.morale_check.broken_fails"),
    ({"morale_check": {"pin_on_equal": 1}}, "asl.morale.morale_check.pin_on_equal"),
    ({"leadership": {"applies_to_self": "no"}}, "asl.morale.leadership.applies_to_self"),
    ({"random_selection": {"ties": "coin"}}, "asl.morale.random_selection.ties"),
    ({"kia": {"survivors": True}}, "asl.morale.kia.survivors"),
    ({"casualty_reduction": {"crew": "half_squad"}}, "asl.morale.casualty_reduction.crew"),
    ({"casualty_reduction": {"hero": "wounded"}}, "asl.morale.casualty_reduction.hero"),
    ({"wounds": {"morale_penalty": -1}}, "asl.morale.wounds.morale_penalty"),
    ({"wounds": {"leadership_penalty": 10}}, "asl.morale.wounds.leadership_penalty"),
    ({"wounds": {"wounded_mf": INF}}, "asl.morale.wounds.wounded_mf"),
    ({"bail_out": {"nmc_drm": 13}}, "asl.morale.bail_out.nmc_drm"),
    ({"bail_out": {"smc": "captured"}}, "asl.morale.bail_out.smc"),
    ({"leader_loss": {"report": None}}, "asl.morale.leader_loss.report"),
    ({"elr": 3}, "asl.morale.elr"),
])
def test_safe_01_morale_table_is_validated(rules, override, field):
    """SAFE-01, A10, A.9, A7.302, A17, D6.24: asl.morale: every setting one of its documented values, penalties and
    DRM in range, no unknown key."""
    refused(rules, "morale", override, field)


@pytest.mark.parametrize("override,field", [
    ({"type": {"leader": {"size": "squad"}}}, "asl.infantry.type.leader.size"),
    ({"type": {"squad": {"size": "smc"}}}, "asl.infantry.type.squad.size"),
    ({"type": {"leader": {"smc": False}}}, "asl.infantry.type.leader.smc"),
    ({"type": {"crew": {"mf": 0}}}, "asl.infantry.type.crew.mf"),
    ({"type": {"squad": {"squad_equivalent": NAN}}}, "asl.infantry.type.squad.squad_equivalent"),
    ({"type": {"squad": {"squad_equivalent": "1e400"}}}, "asl.infantry.type.squad.squad_equivalent"),
    ({"type": {"squad": {"squad_equivalent": 4}}}, "asl.infantry.type.squad.squad_equivalent"),
    ({"type": {"sniper": {"size": "smc", "squad_equivalent": 0, "smc": True, "mf": 6}}}, "asl.infantry.type.sniper"),
    ({"movement": {"leader_bonus": -1}}, "asl.infantry.movement.leader_bonus"),
    ({"portage": {"ipc": {"squad": 21}}}, "asl.infantry.portage.ipc.squad"),
    ({"portage": {"ipc": {"sniper": 1}}}, "asl.infantry.portage.ipc.sniper"),
    ({"stacking": {"smc": -1}}, "asl.infantry.stacking.smc"),
    ({"counter": {"4-4-7": {"type": "squad"}}}, "asl.infantry.counter.4-4-7.half_squad"),
    ({"counter": {"x-y-z": {"type": "squad", "half_squad": "2-4-7"}}}, "asl.infantry.counter.x-y-z"),
    ({"counter": {"8-0": {"type": "squad"}}}, "asl.infantry.counter.8-0"),
    ({"counter": {"2-4-7": {"half_squad": "1-4-7"}}}, "asl.infantry.counter.2-4-7.half_squad"),
    ({"counter": {"4-6-77": {"type": "squad", "half_squad": "2-4-7"}}}, "asl.infantry.counter.4-6-77"),
    ({"counter": {"4-6-7": {"half_squad": 247}}}, "asl.infantry.counter.4-6-7.half_squad"),
    ({"counter": {"4-6-7": {"type": "platoon"}}}, "asl.infantry.counter.4-6-7.type"),
])
def test_safe_01_infantry_table_is_validated(rules, override, field):
    """SAFE-01, A1, A4, A5.1, A7.302: asl.infantry: the five types with counter sizes the rules allow (the SMC flag as
    the code reads it), MF, portage and stacking in range, and a catalogue whose designations read as their types, each
    squad with a readable half-squad (it used to fail only when Casualty Reduction needed it)."""
    refused(rules, "infantry", override, field)


@pytest.mark.parametrize("override,field", [
    ({"capacity": {"single": {"machines": 2}}}, "asl.motorcycles.capacity.single.machines"),
    ({"capacity": {"two": {"mmc": "platoon"}}}, "asl.motorcycles.capacity.two.mmc"),
    ({"capacity": {"three": {"smc": 17}}}, "asl.motorcycles.capacity.three.smc"),
    ({"capacity": {"single": {"smc": -1}}}, "asl.motorcycles.capacity.single.smc"),
    ({"portage": {"bicycle": {"single": 1}}}, "asl.motorcycles.portage.bicycle.single"),
    ({"portage": {"tank": {"single": 1, "two": 1, "three": 1}}}, "asl.motorcycles.portage.tank"),
    ({"riding": {"basic_mf": 0}}, "asl.motorcycles.riding.basic_mf"),
    ({"riding": {"mount_mf": 5}}, "asl.motorcycles.riding.mount_mf"),
    ({"riding": {"mount_fraction": "0"}}, "asl.motorcycles.riding.mount_fraction"),
    ({"riding": {"mount_fraction": "5/4"}}, "asl.motorcycles.riding.mount_fraction"),
    ({"riding": {"mount_fraction": NAN}}, "asl.motorcycles.riding.mount_fraction"),
    ({"riding": {"mount_fraction": "1/0"}}, "asl.motorcycles.riding.mount_fraction"),
    ({"riding": {"mount_fraction": "1e400"}}, "asl.motorcycles.riding.mount_fraction"),
    ({"riding": {"start_mp": -1}}, "asl.motorcycles.riding.start_mp"),
    ({"riding": {"stop_mp": 1e300}}, "asl.motorcycles.riding.stop_mp"),
    ({"vca_change_terrain": {"Woods": 2}}, "asl.motorcycles.vca_change_terrain.Woods"),
    ({"vca_change_terrain": {"woods": -2}}, "asl.motorcycles.vca_change_terrain.woods"),
    ({"terrain_mp": {"woods": "lots"}}, "asl.motorcycles.terrain_mp.woods"),
    ({"terrain_mp": {"woods": INF}}, "asl.motorcycles.terrain_mp.woods"),
    ({"wreck_check": {"wreck_on": 7}}, "asl.motorcycles.wreck_check.wreck_on"),
    ({"wreck_check": {"hex_features": ["lava"]}}, "asl.motorcycles.wreck_check.hex_features"),
    ({"wreck_check": {"hexsides": ["road"]}}, "asl.motorcycles.wreck_check.hexsides"),
    ({"pushing": {"second_smc_helping": 20}}, "asl.motorcycles.pushing.second_smc_helping"),
    ({"overrun": {"rider_fp_fraction": 2}}, "asl.motorcycles.overrun.rider_fp_fraction"),
    ({"rider_fire": {"sidecar_mounted_fire": "3/2"}}, "asl.motorcycles.rider_fire.sidecar_mounted_fire"),
    ({"rider_fire": {"sidecar_support_weapons": ["\x1b[31mLMG"]}}, "asl.motorcycles.rider_fire.sidecar_support_weapons"),
    ({"recovery": {"recovery_max": 7}}, "asl.motorcycles.recovery.recovery_max"),
    ({"bicycle": {"road_cost_factor": 0}}, "asl.motorcycles.bicycle.road_cost_factor"),
    ({"bicycle": {"road_bonus": -1}}, "asl.motorcycles.bicycle.road_bonus"),
    ({"bicycle": {"no_halving_features": ["mud"]}}, "asl.motorcycles.bicycle.no_halving_features"),
])
def test_safe_01_motorcycles_table_is_validated(rules, override, field):
    """SAFE-01, ASL-CAP-01, ASL-CAP-02, ASL-MOV-02, ASL-MOV-06: asl.motorcycles: capacities and portage in range (a
    bicycle carries nothing), every MP, MF and fraction finite and in range (NaN used to escape as a bare ValueError
    from Fraction), terrain names well formed, Wreck Check features and hexsides the rules know."""
    refused(rules, "motorcycles", override, field)


@pytest.mark.parametrize("override,field", [
    ({"terrain": {"woods": {"infantry_mf": 2, "tem": 1}}}, "asl.terrain.terrain.woods.open"),
    ({"terrain": {"woods": {"infantry_mf": 2, "tem": 13, "open": False}}}, "asl.terrain.terrain.woods.tem"),
    ({"terrain": {"Woods": {"infantry_mf": 2, "tem": 1, "open": False}}}, "asl.terrain.terrain.Woods"),
    ({"terrain": {"open_ground": {"infantry_mf": NAN}}}, "asl.terrain.terrain.open_ground.infantry_mf"),
    ({"terrain": {"open_ground": {"open": "yes"}}}, "asl.terrain.terrain.open_ground.open"),
    ({"road": {"infantry_mf": "NA"}}, "asl.terrain.road.infantry_mf"),
    ({"fire": {"ffmo": 20}}, "asl.terrain.fire.ffmo"),
    ({"fire": {"ffnam": -1.5}}, "asl.terrain.fire.ffnam"),
])
def test_safe_01_terrain_table_is_validated(rules, override, field):
    """SAFE-01, B1, B3, A4.6: asl.terrain: each terrain complete and in range, names well formed, FFMO/FFNAM in range."""
    refused(rules, "terrain", override, field)


@pytest.mark.parametrize("override,field", [
    ({"grid": {"columns": 53}}, "asl.board.grid.columns"),
    ({"grid": {"columns": 0}}, "asl.board.grid.columns"),
    ({"grid": {"rows_even": [5, 1]}}, "asl.board.grid.rows_even"),
    ({"grid": {"rows_odd": [0, 1000]}}, "asl.board.grid.rows_odd"),
    ({"directions": {"hexsides": ["n", "ne", "se", "s", "sw"]}}, "asl.board.directions.hexsides"),
    ({"directions": {"hexspines": ["a", "a", "b", "c", "d", "e"]}}, "asl.board.directions.hexspines"),
    ({"directions": {"hexspines": ["n", "x", "y", "z", "w", "v"]}}, "asl.board.directions"),
    ({"neighbours": {"even": [[0, -2], [1, -1], [1, 0], [0, 1], [-1, 0], [-1, -1]]}}, "asl.board.neighbours.even"),
    ({"neighbours": {"even": [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 0], [1, 1]]}}, "asl.board.neighbours.even"),
])
def test_safe_01_board_table_is_validated(rules, override, field):
    """SAFE-01, ASL-MOV-03: asl.board: columns and rows in range, six distinct direction names, neighbour steps of
    one hex that agree across every hexside."""
    refused(rules, "board", override, field)


@pytest.mark.parametrize("table,mutate,field", [
    ("ift", lambda t: t.pop("cowering"), "asl.ift.cowering"),
    ("ift", lambda t: t["column"].pop("12"), "asl.ift.column.12"),
    ("tohit", lambda t: t["basic"].pop("area"), "asl.tohit.basic.area"),
    ("morale", lambda t: t["wounds"].pop("wounded_mf"), "asl.morale.wounds.wounded_mf"),
    ("infantry", lambda t: t["type"].pop("hero"), "asl.infantry.type.hero"),
    ("infantry", lambda t: t["counter"]["4-6-7"].pop("half_squad"), "asl.infantry.counter.4-6-7.half_squad"),
    ("motorcycles", lambda t: t["capacity"].pop("two"), "asl.motorcycles.capacity.two"),
    ("terrain", lambda t: t["terrain"].pop("open_ground"), "asl.terrain.terrain.open_ground"),
    ("board", lambda t: t["neighbours"].pop("odd"), "asl.board.neighbours.odd"),
    ("motorcycles", lambda t: t.__setitem__("riding", [1]), "asl.motorcycles.riding"),
])
def test_safe_01_a_missing_or_misshapen_part_names_its_field(rules, table, mutate, field):
    """SAFE-01, ARCH-05: a table missing a part the rules need, or with a list where a table belongs, is refused
    naming it."""
    refused_table(rules, table, mutate, field)


def test_safe_01_to_fraction_refuses_what_is_not_a_finite_number():
    """SAFE-01: the number reader of the tables (and of scenario costs) refuses NaN, infinities, huge values and text
    that is no fraction, with a DataError, never a bare ValueError or OverflowError."""
    for bad in (NAN, INF, -INF, 1e300, "1e400", "1/0", "1/2/3", "10**9", "nan", True, None, [1]):
        with pytest.raises(DataError):
            tables.to_fraction(bad, "x", "TEST")
    assert tables.to_fraction("3/2", "x", "T") == 1.5 and tables.to_fraction(0.25, "x", "T") * 4 == 1


# --- accepted overrides keep the kernel and the reference together ------------------------------

_RESULTS = ["-", "PTC", "NMC", "1MC", "2MC", "3MC", "4MC", "K/1", "K/2", "K/3", "K/4", "1KIA", "2KIA", "3KIA", "5KIA"]


@st.composite
def overrides(draw):
    """Overrides of every table the kernel reads, drawn within the validated ranges."""
    asl = {}
    if draw(st.booleans()):
        col = str(draw(st.sampled_from(COLUMNS)))
        asl["ift"] = {"column": {col: draw(st.lists(st.sampled_from(_RESULTS), min_size=16, max_size=16))},
                      "cowering": {"enabled": draw(st.booleans()), "columns": draw(st.integers(0, 12)),
                                   "inexperienced_columns": draw(st.integers(0, 12))},
                      "firepower": {"point_blank": draw(st.integers(1, 4)), "triple_point_blank": draw(st.integers(1, 5)),
                                    "long_range_divisor": draw(st.integers(1, 4))}}
    if draw(st.booleans()):
        asl["tohit"] = {"basic": {"infantry": {"other": draw(st.lists(st.integers(-20, 30), min_size=10, max_size=10))},
                                  "area": {"any": draw(st.lists(st.integers(-20, 30), min_size=10, max_size=10))}},
                        "drm": {"case_j_target_moving": draw(st.integers(-12, 12)), "mounted_motorcyclist": draw(st.integers(-12, 12)),
                                "mounted_bicyclist": draw(st.integers(-12, 12))}}
    if draw(st.booleans()):
        asl["morale"] = {"wounds": {"morale_penalty": draw(st.integers(0, 9)), "leadership_penalty": draw(st.integers(0, 9))},
                         "bail_out": {"nmc_drm": draw(st.integers(-12, 12))},
                         "casualty_reduction": {"squad": draw(st.sampled_from(["half_squad", "eliminated"]))},
                         "random_selection": {"ties": draw(st.sampled_from(["all", "reroll"]))}}
    if draw(st.booleans()):
        asl["motorcycles"] = {"capacity": {k: {"smc": draw(st.integers(0, 5)), "smc_sidecar": draw(st.integers(0, 5)),
                                               "mmc": draw(st.sampled_from(["none", "half_squad", "squad"]))}
                                           for k in ("single", "two", "three")}}
    if draw(st.booleans()):
        asl["infantry"] = {"type": {"crew": {"size": draw(st.sampled_from(["half_squad", "squad"]))},
                                    "half_squad": {"size": draw(st.sampled_from(["half_squad", "squad"]))}}}
    return asl


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(stacks(), overrides(), st.integers(0, 2**64 - 1))
def test_safe_01_accepted_overrides_keep_kernel_and_reference_equal(data, override, seed):
    """SAFE-01, ARCH-03, ARCH-05: with any overrides the validators accept (IFT cells, cowering, FP multipliers, To Hit
    rows and DRM, morale and wound settings, counter capacities, counter sizes), the compiled kernel and the reference
    agree on every array of 30 trials of a random stack."""
    from hardpoint.asl.batch import pack_asl, reference_rows, run_asl_batch, supports_kernel

    try:
        hardpoint.default_rules().with_overrides({"asl": override})
    except DataError:
        assume(False)
    merged = copy.deepcopy(data.get("rules", {"asl": {}}))
    for table, value in override.items():
        base = merged["asl"].setdefault(table, {})
        for k, v in value.items():
            base[k] = {**base.get(k, {}), **v} if isinstance(v, dict) else v
    data["rules"] = merged
    try:
        s = hardpoint.parse_scenario(data)
    except HardpointError:
        assume(False)
    assume(supports_kernel(s) is None)
    compiled = run_asl_batch(s, 30, seed=seed, backend="compiled", parallel=False)
    assert_same_rows(compiled, reference_rows(s, pack_asl(s), seed, 30), "override")


def test_the_shipped_tables_pass_and_use_finite_numbers(rules):
    """ARCH-05: the shipped tables pass their validators (they load), and every number in them is finite."""
    for name in rules.names():
        if name.startswith("asl."):
            stack = [rules[name]]
            while stack:
                x = stack.pop()
                if isinstance(x, dict):
                    stack += list(x.values())
                elif isinstance(x, list):
                    stack += x
                elif isinstance(x, float):
                    assert math.isfinite(x), name
