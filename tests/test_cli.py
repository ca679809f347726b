"""The command line and scenario files: CLI-01, CLI-02, ARCH-02."""
import json
import pathlib
import subprocess
import sys

import pytest

import hardpoint
from hardpoint import ScenarioError
from hardpoint.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_cli_01_explain_prints_modifiers_rule_ids_and_exact_probability(capsys):
    """CLI-01: explain prints LOF, range, aim point, each modifier with its rule id, the number needed and the probability."""
    assert main(["explain", "builtin:cw_tohit_example"]) == 0
    out = capsys.readouterr().out
    for text in ("line of fire: clear", "aim point", "+4  point blank range [CW-HIT-02]", "-3  tire [CW-TGT-03]",
                 "-3  night [CW-HIT-07]", "needs 10 on 2d6", "hit probability 1/6"):
        assert text in out


def test_cli_01_explain_json(capsys):
    """CLI-01, PROTO-01: explain --json gives machine-readable breakdowns in a versioned document, each probability
    a number with the exact fraction beside it."""
    assert main(["explain", "builtin:cw_tohit_example", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["format"], data["kind"], data["ruleset"]) == ("hardpoint/1", "explain", "carwars")
    first = data["breakdowns"][0]
    assert first["needed"] == 10 and first["probability_exact"] == "1/6" and abs(first["probability"] - 1 / 6) < 1e-12
    assert {"name": "night", "value": -3, "rule": "CW-HIT-07", "event": "modifier"} in first["modifiers"]


def test_cli_01_resolve_is_reproducible_by_seed(capsys):
    """CLI-01: resolve --seed N prints the event log; the same seed prints the same log; --json round-trips."""
    main(["resolve", "builtin:default", "--seed", "7"])
    first = capsys.readouterr().out
    main(["resolve", "builtin:default", "--seed", "7"])
    assert capsys.readouterr().out == first
    assert "roll 2d for laser_at_outrider to hit" in first
    main(["resolve", "builtin:default", "--seed", "7", "--json"])
    data = json.loads(capsys.readouterr().out)
    result = hardpoint.event_from_dict(data)
    assert result.kind == "battle_result" and result.seed == 7
    assert result == hardpoint.load_scenario("builtin:default").resolve(hardpoint.SeededDice(7), seed=7)


def test_cli_01_run_default_scenario_summary(capsys, tmp_path):
    """CLI-01: run with no scenario runs the built-in default, says so, and writes JSON and CSV summaries."""
    csv_path = tmp_path / "s.csv"
    assert main(["run", "--trials", "300", "--seed", "3", "--no-progress", "--csv", str(csv_path)]) == 0
    captured = capsys.readouterr()
    assert "built-in default" in captured.err
    assert "laser_at_outrider hit" in captured.out
    assert csv_path.read_text().startswith("kind,measure,unit,attack,part,side,turn,outcome,estimate")
    main(["run", "builtin:cw_tohit_example", "--trials", "200", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "hardpoint/1" and data["trials"] == 200
    hit = data["probabilities"][0]
    assert (hit["measure"], hit["attack"], hit["exact_fraction"]) == ("hit", "mg_at_tire", "1/6")


def test_cli_01_errors_exit_2_with_field_and_rule(capsys, tmp_path):
    """CLI-01 / ERR-01: a bad scenario prints one error line naming the field and rule, exit status 2."""
    f = tmp_path / "bad.toml"
    f.write_text('[scenario]\nname = "x"\nruleset = "carwars"\n[[vehicle]]\nid = "a"\ndesign = "hunter"\n'
                 '[[vehicle]]\nid = "b"\ndesign = "hunter"\ny = -3.0\n[[attack]]\nid = "s"\nattacker = "a"\nweapon = "mg"\ntarget = "b"\n')
    assert main(["explain", str(f)]) == 2
    err = capsys.readouterr().err
    assert "attack[0].target" in err and "CW-ARC-02" in err


def test_cli_02_toml_and_json_scenarios_agree(tmp_path):
    """CLI-02: the same scenario in TOML and in JSON gives the same breakdown."""
    import tomllib

    text = (ROOT / "seeds/scenarios/cw_tohit_example.toml").read_text()
    j = tmp_path / "s.json"
    j.write_text(json.dumps(tomllib.loads(text)))
    assert hardpoint.load_scenario(j).explain() == hardpoint.load_scenario("builtin:cw_tohit_example").explain()


@pytest.mark.parametrize("text,path", [
    ('[scenario]\nname = "x"\nruleset = "carwars"\n[[vehicle]]\nid = "a"\nspeed = "fast"\n', "vehicle[0].speed"),
    ('[scenario]\nname = "x"\nruleset = "chess"\n', "scenario.ruleset"),
    ('[scenario]\nname = "x"\nruleset = "carwars"\n[[vehicle]]\nid = "a"\ncolour = "red"\n', "vehicle[0]"),
    ('[scenario]\nname = "x"\nruleset = "carwars"\n[arena]\nlight = "dusk"\n', "arena.light"),
])
def test_cli_02_validation_errors_name_the_path(tmp_path, text, path):
    """CLI-02: schema validation errors name the path of the bad field."""
    f = tmp_path / "s.toml"
    f.write_text(text)
    with pytest.raises(ScenarioError) as err:
        hardpoint.load_scenario(f)
    assert err.value.field == path and err.value.rule == "CLI-02"


def test_cli_02_malformed_file(tmp_path):
    """CLI-02: a file that is not TOML is a ScenarioError naming the file."""
    f = tmp_path / "s.toml"
    f.write_text("[scenario\n")
    with pytest.raises(ScenarioError, match="not valid TOML"):
        hardpoint.load_scenario(f)
    with pytest.raises(ScenarioError, match="file not found"):
        hardpoint.load_scenario(tmp_path / "nope.toml")


def test_cli_02_shipped_schema_is_generated_from_the_code():
    """CLI-02: seeds/scenario.schema.json is exactly what the code generates (regenerate with `hardpoint schema`)."""
    shipped = json.loads((ROOT / "seeds/scenario.schema.json").read_text())
    assert shipped == hardpoint.scenario_schema()


def test_cli_02_every_builtin_scenario_loads_and_validates():
    """CLI-02: every shipped example scenario passes the schema and the rules."""
    import jsonschema
    import tomllib
    from importlib import resources

    schema = hardpoint.scenario_schema()
    for name in hardpoint.builtin_scenarios():
        text = resources.files("hardpoint.seeds").joinpath(f"scenarios/{name}.toml").read_text()
        jsonschema.validate(tomllib.loads(text), schema)
        assert hardpoint.load_scenario(f"builtin:{name}").name


def test_arch_02_readme_opens_with_the_two_commands_and_ci_calls_them():
    """ARCH-02: the README's first commands install + run the main job and run the tests; .ci/run calls the test command."""
    readme = (ROOT / "README.md").read_text()
    import re

    code = [c.strip() for c in re.findall(r"```\n(.*?)```", readme, re.S)]
    install, test = code[0], code[1]
    assert "pip install" in install and "hardpoint run" in install
    assert "pytest" in test
    ci = (ROOT / ".ci/run").read_text()
    assert test in ci


def test_cli_01_module_entry_point():
    """CLI-01: `python -m hardpoint.cli scenarios` lists the built-in scenarios."""
    out = subprocess.run([sys.executable, "-m", "hardpoint.cli", "scenarios"], capture_output=True, text=True, check=True).stdout
    assert "builtin:default" in out and "builtin:cw_tohit_example" in out
