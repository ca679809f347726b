"""FIGHT-12: `hardpoint sweep A B` (win odds over range x aspect x speed: a table, a heatmap, JSON) and
`duel --tactics` (the movement orders a duel's two sides follow)."""
import json
import subprocess
import sys

import pytest

import hardpoint
from hardpoint import ScenarioError
from hardpoint.duel import build_duel, parse_tactics
from hardpoint.sweep import MAX_CELLS, heatmap, sweep


def test_fight_12_a_sweep_fights_the_duel_of_each_cell_as_duel_does():
    """FIGHT-12 / FIGHT-06: a sweep of two ranges at one aspect and one speed holds one cell per point of the grid,
    in aspect, speed, range order, and each cell's odds are those of the duel `build_duel` makes for that point,
    run with the same trials and seed (the sweep is the duel, cell by cell); each cell's four outcomes add up
    to every trial."""
    s = sweep("hunter", "stinger", ranges=[4, 12], aspects=["head-on"], speeds=[20], trials=300, seed=3, turns=6)
    assert [(c.range, c.aspect, c.speed) for c in s.cells] == [(4.0, "head-on", 20.0), (12.0, "head-on", 20.0)]
    for c in s.cells:
        duel = hardpoint.run_batch(build_duel("hunter", "stinger", c.range, c.aspect, c.speed, 6), 300, 3, keep="summary")
        wins = [o for o in duel.outcomes if o.measure == "win"]
        assert (c.a_wins.estimate, c.b_wins.estimate) == (wins[0].estimate, wins[1].estimate)
        assert c.draw.estimate == duel.find("draw").estimate and c.undecided.estimate == duel.find("undecided").estimate
        assert c.a_wins.estimate + c.b_wins.estimate + c.draw.estimate + c.undecided.estimate == pytest.approx(1.0)
    doc = s.to_dict()
    assert (doc["kind"], doc["a"], doc["b"], doc["ranges"], len(doc["cells"])) == ("sweep", "hunter", "stinger", [4.0, 12.0], 2)
    assert s.cell(12.0, "head-on", 20.0) is s.cells[1]
    fig = heatmap(s)                        # one panel per aspect, coloured by P(A wins) - P(B wins)
    assert len(fig.axes) >= 1


def test_fight_12_a_sweep_refuses_a_grid_out_of_bounds_by_field():
    """FIGHT-12 / SAFE-03: ranges, aspects and speeds out of their bounds, or too many cells, are refused before any
    duel is fought, each naming its field."""
    for kw, field, rule in (({"ranges": [0.1]}, "ranges", "FIGHT-12"), ({"speeds": [400]}, "speeds", "FIGHT-12"),
                            ({"aspects": ["sideways"]}, "aspects", "FIGHT-12"),
                            ({"ranges": [1.0 + i * 900.0 / MAX_CELLS for i in range(MAX_CELLS + 1)], "aspects": ["head-on"], "speeds": [0]},
                             "ranges", "SAFE-03")):
        with pytest.raises(ScenarioError) as err:
            sweep("hunter", "stinger", trials=10, **kw)
        assert (err.value.field, err.value.rule) == (field, rule)


def test_fight_12_duel_tactics_name_one_for_both_or_one_each():
    """FIGHT-12: `--tactics pursue` drives both duellists by `pursue`, `pursue,evade` A by one and B by the other,
    `none` leaves a duellist without a movement order; anything else is refused naming `tactics`."""
    assert parse_tactics("pursue") == ("pursue", "pursue")
    assert parse_tactics("pursue,evade") == ("pursue", "evade")
    s = build_duel("hunter", "stinger", tactics="none,pursue")
    assert [(d.unit, d.tactic) for d in s.fight.drives] == [(list(s.arena.vehicles)[1], "pursue")]
    for bad in ("sideways", "pursue,evade,keep_range", ""):
        with pytest.raises(ScenarioError) as err:
            parse_tactics(bad)
        assert (err.value.field, err.value.rule) == ("tactics", "FIGHT-12")


def test_fight_12_the_sweep_command_prints_json_and_names_a_bad_grid():
    """FIGHT-12 / CLI-01: `hardpoint sweep A B --json` prints the sweep document (a cell per point, the options it
    ran with); a range that is not a number is an error naming --ranges, with no traceback."""
    cmd = [sys.executable, "-m", "hardpoint.cli", "sweep", "hunter", "stinger", "--ranges", "4,8", "--aspects", "head-on",
           "--speeds", "0", "--trials", "200", "--turns", "4", "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert [(c["range"], c["aspect"], c["speed"]) for c in doc["cells"]] == [(4.0, "head-on", 0.0), (8.0, "head-on", 0.0)]
    assert doc["options"]["trials"] == 200 and doc["options"]["turns"] == 4
    bad = subprocess.run(cmd[:7] + ["4,far"] + cmd[8:], capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0 and "--ranges" in bad.stderr and "Traceback" not in bad.stderr
