"""ASL scenario files and the `hardpoint` command on them (CLI-01, CLI-02, ERR-01, LOG-01, LOG-02)."""
import json
from fractions import Fraction

import pytest

import hardpoint
from hardpoint import RuleViolation, ScenarioError
from hardpoint.asl.events import MoveStep, StepRefused
from hardpoint.cli import main

from .conftest import d15_55_data, scenario_data

CAR_WARS_KEYS = {"arena", "vehicle", "pedestrian", "building", "cloud", "area", "attack", "history", "fired_this_turn"}


def test_examples_are_builtin():
    """CLI-02: both worked examples ship as built-in scenarios."""
    names = hardpoint.builtin_scenarios()
    assert {"asl_d15_41_mount_and_ride", "asl_d15_55_gun_on_cycle"} <= set(names)


def test_schema_keys_do_not_reuse_car_wars_keys():
    """CLI-02: the ASL keys of the scenario schema are its own."""
    from hardpoint.asl.scenario import SCHEMA_PARTS
    assert not set(SCHEMA_PARTS) & CAR_WARS_KEYS
    props = hardpoint.scenario_schema()["properties"]
    assert {"hex", "unit", "motorcycle", "move", "fire", "asl"} <= set(props)


def test_asl_mov_02_d15_41_scenario_resolve(capsys):
    """ASL-MOV-02: `hardpoint resolve` on the D15.41 example logs every ledger step and the refused dismount.

    Source: D15.41 example
    """
    assert main(["resolve", "builtin:asl_d15_41_mount_and_ride", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "mount cycle: costs MF leader 1; MP 7 -> leader 2 of 4 MF; 7 of 28 MP" in out
    assert "stop: costs MF leader 1; MP 1 -> leader 4 of 4 MF; 14.5 of 28 MP" in out
    assert "dismount REFUSED" in out and "(ASL-MOV-02)" in out
    assert "leader: leader 8-0 in N5, riding cycle" in out and "counter cycle: single-machine (SMC) cycle, stopped in N5, riders leader, VCA ne/se" in out
    scn = hardpoint.load_scenario("builtin:asl_d15_41_mount_and_ride")
    result = scn.resolve(hardpoint.ScriptedDice([]))
    steps = [e for e in result.events if isinstance(e, MoveStep)]
    assert steps[-1].mf_used == {"leader": 4} and steps[-1].mp_used == 14.5
    refused = [e for e in result.events if isinstance(e, StepRefused)]
    assert len(refused) == 1 and refused[0].rule == "ASL-MOV-02"


def test_asl_mov_02_illegal_step_without_attempt_fails_the_scenario():
    """ERR-01, ASL-MOV-02: the same dismount, not marked as an attempt, makes the scenario fail on load."""
    from importlib import resources
    import tomllib
    data = tomllib.loads(resources.files("hardpoint.seeds").joinpath("scenarios/asl_d15_41_mount_and_ride.toml").read_text())
    data["move"][0]["steps"][-1].pop("attempt")
    with pytest.raises(RuleViolation) as err:
        hardpoint.parse_scenario(data)
    assert err.value.rule == "ASL-MOV-02"


def test_asl_tgt_02_explain_shows_th_drm_column_and_odds(capsys):
    """LOG-02, ASL-TGT-02: `hardpoint explain` shows the TH#, every DRM with its rule, the IFT column and the exact
    probability of each IFT result, then the exact outcomes of the whole chain.

    Source: D15.55 example
    """
    assert main(["explain", "builtin:asl_d15_55_gun_on_cycle"]) == 0
    out = capsys.readouterr().out
    assert "To Hit crew: infantry target, 6 hexes, TH# 8 [C3]" in out
    assert "+2  Case J: cycle motion [ASL-TGT-01]" in out and "-1  mounted motorcyclist [ASL-TGT-01]" in out
    assert "hit on an Original DR <= 7: 7/12" in out and "hit on an Original DR <= 8: 13/18" in out
    assert "12 FP -> 12 FP column [A7]" in out
    assert "results once hit: 1KIA 1/36, K/3 1/18, 3MC 1/12, 2MC 1/4, 1MC 11/36, NMC 1/9, PTC 1/12, - 1/12" in out
    assert "exact outcomes of the whole scenario" in out


def test_asl_res_04_explain_says_ptc_has_no_effect_on_motorcyclists(capsys):
    """ASL-RES-04 (D15.54), LOG-02: `explain` gives each unit's IFT odds; for the riders it says that the PTC result
    (1/12 on the 12 FP column: Final DR 10) has no effect on them, and not for the crew on foot.
    Source: D15.54; D15.55 example
    """
    from hardpoint.asl.events import IFTBreakdown
    scn = hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")
    ift = {e.target: e for e in scn.explain() if isinstance(e, IFTBreakdown)}
    assert ift["squad"].distribution["PTC"] == ift["crew"].distribution["PTC"] == Fraction(1, 12)
    assert ift["crew"].notes == ()
    for rider in ("squad", "leader"):
        assert len(ift[rider].notes) == 1 and "no effect on a motorcyclist" in ift[rider].notes[0] and "D15.54" in ift[rider].notes[0]
    again = hardpoint.event_from_dict(json.loads(json.dumps(ift["squad"].to_dict())))
    assert again.to_dict() == ift["squad"].to_dict() and again.notes == ift["squad"].notes
    assert main(["explain", "builtin:asl_d15_55_gun_on_cycle"]) == 0
    assert capsys.readouterr().out.count("PTC: no effect on a motorcyclist") == 2


def test_explain_json(capsys):
    """LOG-02: `hardpoint explain --json` gives every breakdown as JSON; the outcome odds sum to 1."""
    assert main(["explain", "builtin:asl_d15_55_gun_on_cycle", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["breakdowns"]
    kinds = {d["event"] for d in data}
    assert {"asl_to_hit_breakdown", "asl_ift_breakdown", "asl_outcome_odds"} <= kinds
    from fractions import Fraction
    assert sum(Fraction(d["probability_exact"]) for d in data if d["event"] == "asl_outcome_odds") == 1


def test_resolve_prints_every_event(capsys):
    """CLI-01, LOG-01: `hardpoint resolve --seed N` rolls the whole chain and prints the log and the final state."""
    assert main(["resolve", "builtin:asl_d15_55_gun_on_cycle", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Original To Hit DR" in out and "final state:" in out
    assert main(["resolve", "builtin:asl_d15_55_gun_on_cycle", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["event"] == "asl_result" and data["seed"] == 3
    again = hardpoint.event_from_dict(data)
    from hardpoint.documents import resolve_document
    assert resolve_document(again) == data


def test_resolve_is_reproducible_by_seed():
    """DICE-03: the same seed gives the same log."""
    scn = hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")
    a = scn.resolve(hardpoint.SeededDice(11), seed=11).to_dict()
    b = scn.resolve(hardpoint.SeededDice(11), seed=11).to_dict()
    assert a == b


def test_run_reports_exact_values(capsys):
    """CLI-01: `hardpoint run` on the ASL example reports means beside exact values."""
    assert main(["run", "builtin:asl_d15_55_gun_on_cycle", "--trials", "300", "--json", "--no-progress"]) == 0
    rows = {r["label"]: r for r in json.loads(capsys.readouterr().out)["probabilities"]}
    assert rows["gun hits crew"]["exact_fraction"] == "13/18"


# --- bad scenarios ---------------------------------------------------------------------------------

@pytest.mark.parametrize("mutate,field,rule", [
    (lambda d: d["unit"][0].update(type="sniper"), "unit[0].type", "CLI-02"),
    (lambda d: d["unit"][0].update(counter="9-9-9-9"), "unit[0].counter", "A1"),
    (lambda d: d["unit"][1].update(counter="5-4-8"), "unit[1].counter", "A1"),
    (lambda d: d["unit"][0].update(hex="nowhere"), "unit[0].hex", "CLI-02"),
    (lambda d: d["hex"][0].update(motorcycle_mp="fast"), "hex[0].motorcycle_mp", "CLI-02"),       # the schema: a number, a fraction or NA
    (lambda d: d["hex"][0].update(level="high"), "hex[0].level", "CLI-02"),
    (lambda d: d["hex"].append({"terrain": "woods"}), "hex[1]", "CLI-02"),
    (lambda d: d["hex"].append({"id": "target"}), "hex[1].id", "CLI-02"),
    (lambda d: d["motorcycle"][0].update(type="tank"), "motorcycle[0].type", "CLI-02"),
    (lambda d: d["motorcycle"][0].update(machines=4), "motorcycle[0].machines", "CLI-02"),      # the schema says 1..3
    (lambda d: d["motorcycle"][0].pop("mp"), "motorcycle[0].mp", "ASL-MOV-02"),
    (lambda d: d["motorcycle"][0].update(riders=["squad", "ghost"]), "motorcycle[0].riders", "CLI-02"),
    (lambda d: d["motorcycle"][0].update(riders=["squad", "leader", "crew"]), "motorcycle[0].riders", "ASL-CAP-01"),
    (lambda d: d["motorcycle"][0].update(riders=[]), "motorcycle[0].motion", "ASL-MOV-01"),
    (lambda d: d["fire"][0].pop("fp"), "fire.gun.fp", "C3"),
    (lambda d: d["fire"][0].update(target="nowhere"), "fire[0].target", "CLI-02"),
    (lambda d: d["fire"][0].update(target_type="vehicle"), "fire.gun.target_type", "ASL-TGT-01"),
    (lambda d: d["fire"][0].update(kind="artillery"), "fire[0].kind", "CLI-02"),
    (lambda d: d["hex"][0].update(terrain="crew"), "hex.tem", "B1"),         # no TEM for the target hex: on load
])
def test_bad_scenarios_name_the_field_and_rule(mutate, field, rule):
    """ERR-01, CLI-02: a bad scenario (unknown unit type, overloaded counter, malformed hex...) fails on load with an
    error naming the field and the rule."""
    data = d15_55_data()
    mutate(data)
    with pytest.raises((ScenarioError, RuleViolation)) as err:
        hardpoint.parse_scenario(data)
    assert err.value.field == field and err.value.rule == rule, str(err.value)


def test_bicycle_with_mp_or_motion_is_refused():
    """ASL-BIC-01: bicycles have no MP allotment and no Motion status of their own."""
    data = d15_55_data()
    data["motorcycle"][0]["type"] = "bicycle"
    with pytest.raises(ScenarioError) as err:
        hardpoint.parse_scenario(data)
    assert err.value.rule == "ASL-BIC-01" and err.value.field == "motorcycle[0].mp"
    data["motorcycle"][0].pop("mp")
    with pytest.raises(ScenarioError) as err:
        hardpoint.parse_scenario(data)
    assert err.value.field == "motorcycle[0].motion"


def test_cli_error_is_one_line_exit_2(tmp_path, capsys):
    """CLI-01: errors print one line naming the field and the rule, status 2."""
    data = d15_55_data()
    data["motorcycle"][0]["riders"] = ["squad", "leader", "crew"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["explain", str(path)]) == 2
    err = capsys.readouterr().err
    assert "motorcycle[0].riders" in err and "ASL-CAP-01" in err


def test_scenario_rules_override_applies():
    """ARCH-05: a scenario's [rules] table overrides a seed table (here: the Case J DRM)."""
    data = d15_55_data()
    data["rules"] = {"asl": {"tohit": {"drm": {"case_j_target_moving": 3}}}}
    scn = hardpoint.parse_scenario(data)
    th = {e.target: e for e in scn.explain() if e.__class__.__name__ == "ToHitBreakdown"}
    assert th["squad"].needed == 6


def test_move_then_fire_in_one_scenario():
    """CLI-02: moves are resolved first, then attacks, against the state the moves left."""
    data = scenario_data(
        hex=[{"id": "C5", "road": "paved"}, {"id": "D5", "road": "paved"}, {"id": "far"}],
        unit=[{"id": "ldr", "counter": "8-0", "hex": "C5", "side": "german"},
              {"id": "ivan", "counter": "4-4-7", "type": "squad", "half_squad": "2-2-7", "hex": "far", "side": "russian"}],
        motorcycle=[{"id": "m", "type": "cycle", "machines": 1, "hex": "C5", "mp": 24, "vca": "ne/se"}],
        move=[{"id": "go", "units": ["ldr"], "steps": [{"action": "mount", "machine": "m"}, {"action": "start"},
                                                        {"action": "ride", "hex": "D5"}, {"action": "end"}]}],
        fire=[{"id": "shot", "kind": "small_arms", "target": "D5", "range": 3, "firers": ["ivan"], "phase": "dfph"}])
    scn = hardpoint.parse_scenario(data)
    ift = [e for e in scn.explain() if e.__class__.__name__ == "IFTBreakdown"]
    assert [e.target for e in ift] == ["ldr"] and [m.value for m in ift[0].modifiers] == [-1]
    result = scn.resolve(hardpoint.ScriptedDice([6, 6]))
    assert result.units["ldr"].endswith("riding m") and "motion" in result.counters["m"]


def test_asl_mov_02_a_scenario_resolves_in_the_order_of_the_player_turn():
    """ASL-MOV-02, ASL-MOV-03: a scenario is one player turn: the PFPh attack first (though declared last), then the MPh
    move, the end of the MPh (the cycle still moving is now in Motion), then the DFPh attack; the kernel packs the
    attacks in the same order. The DFPh shot meets the cycle in Motion in D5: Case J +2 and mounted -1 on TH# 8: 7.
    Source: D15.41 (the MPh); the ASL turn sequence
    """
    from hardpoint.asl.batch import pack_asl
    from hardpoint.asl.events import ToHitRoll
    from hardpoint.asl.fire import DoEndPhase, DoFire, DoMove
    from hardpoint.asl.enums import Phase
    from hardpoint.events import StateChanged
    data = scenario_data(
        hex=[{"id": "C5", "road": "paved"}, {"id": "D5", "road": "paved"}, {"id": "far"}],
        unit=[{"id": "ldr", "counter": "8-0", "hex": "C5", "side": "german"}, {"id": "crew", "counter": "2-2-8", "hex": "far"}],
        motorcycle=[{"id": "m", "type": "cycle", "machines": 1, "hex": "C5", "mp": 24, "vca": "ne/se"}],
        move=[{"id": "go", "units": ["ldr"], "steps": [{"action": "mount", "machine": "m"}, {"action": "start"},
                                                        {"action": "ride", "hex": "D5"}]}],
        fire=[{"id": "late", "kind": "ordnance", "target": "D5", "range": 3, "fp": 4, "phase": "dfph"},
              {"id": "early", "kind": "ordnance", "target": "far", "range": 3, "fp": 4, "phase": "pfph"}])
    scn = hardpoint.parse_scenario(data)
    assert scn.sequence() == (DoFire("early"), DoMove("go", Phase.MPH), DoEndPhase(Phase.MPH), DoFire("late"))
    assert [f.id for f in scn.attack_order()] == ["early", "late"]
    result = scn.resolve(hardpoint.ScriptedDice([6, 6, 6, 6]))        # both miss
    order = [e.attack if isinstance(e, ToHitRoll) else "motion" for e in result.events
             if isinstance(e, ToHitRoll) or (isinstance(e, StateChanged) and e.after == "motion")]
    assert order == ["early", "motion", "late"]
    th = {e.target: e for e in scn.explain() if e.__class__.__name__ == "ToHitBreakdown"}
    assert th["ldr"].needed == 7 and "motion" in th["ldr"].modifiers[0].name
    data.pop("move")                                                  # no move: the kernel runs it, in the same order
    assert pack_asl(hardpoint.parse_scenario(data)).attacks == ["early", "late"]


def test_docs_and_package_examples_run():
    """STYLE 10: the >>> examples of docs/asl.md and of hardpoint.asl's docstring give what they show."""
    import doctest
    import pathlib

    import hardpoint.asl
    root = pathlib.Path(__file__).resolve().parents[2]
    result = doctest.testfile(str(root / "docs" / "asl.md"), module_relative=False)
    assert result.attempted > 0 and result.failed == 0
    result = doctest.testmod(hardpoint.asl)
    assert result.attempted > 0 and result.failed == 0
    import hardpoint.asl.geometry
    result = doctest.testmod(hardpoint.asl.geometry)
    assert result.attempted > 0 and result.failed == 0
    # the scenario-format example of docs/asl.md loads and resolves (CLI-02)
    import tomllib
    block = (root / "docs" / "asl.md").read_text().split("## Scenario format")[1].split("```toml")[1].split("```")[0]
    result = hardpoint.parse_scenario(tomllib.loads(block)).resolve(hardpoint.ScriptedDice([]))
    assert result.counters["cycle"] == "single-machine (SMC) cycle, stopped in D5, riders leader, VCA se/s"
