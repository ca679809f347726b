"""The sanity matrix of fights that drive (issue 34; FIGHT-06, FIGHT-07): every pair of stock designs at the four
aspects and 0/20/40/60 mph, 20 turns, the duel's default tactics, on the compiled core. docs/fights.md keeps the
table at 2,000 trials a cell.

- undecided at most 5% wherever either side can hurt the other (every stock design carries an aimed weapon): a
  driver who cannot bring his guns to bear leaves most of these fights undecided (a joust did, 68% at 40 mph);
- identical designs head-on (the same place for each, turned half round) win equally within their intervals.
  Side by side (`parallel`) is a reflection, not a turn: a cycle's sidecar or a driver's seat on the left is on the
  near side for one and the far side for the other, so twins need not win equally there;
- a design with strictly more armour, the same weapons, wins more often than the original against the same foe.

HARDPOINT_SANITY_TRIALS sets the trials a cell of the matrix (default 300). A check fails only when its interval
excludes what it asks (99.9% for the many cells of the matrix and the twins, so that chance alone seldom fails it);
the dice are seeded, so a run fails or passes the same every time.
"""
import itertools
import math
import os
import warnings

import pytest

import hardpoint
from hardpoint.api import run_batch
from hardpoint.backend import BackendWarning
from hardpoint.results import wilson

pytest.importorskip("hardpoint.fastcore._carwars")

TRIALS = int(os.environ.get("HARDPOINT_SANITY_TRIALS", "300"))
DESIGNS = list(hardpoint.default_rules()["carwars.designs"]["design"])
ASPECTS = ("head-on", "tail-chase", "broadside", "parallel")
SPEEDS = (0.0, 20.0, 40.0, 60.0)
Z999 = 3.29


def fight(a: dict, b: dict, aspect: str, speed: float, trials: int = TRIALS, seed: int = 1,
          turns: int = 20) -> tuple[int, int, int, int]:
    """The counts of A wins, B wins, draws and undecided of the duel's fight between two vehicle entries (A at the
    origin facing north, B 8" away as the aspect says, both at `speed`, both under the default tactics), `turns`
    turns at most."""
    from hardpoint.duel import ASPECTS as PLACES, DEFAULT_TACTICS, parse_tactics

    dx, dy, facing = PLACES[aspect]
    tactic_a, tactic_b = parse_tactics(DEFAULT_TACTICS)
    a = {**a, "id": "a", "side": "a", "x": 0.0, "y": 0.0, "facing": 0.0, "speed": speed}
    b = {**b, "id": "b", "side": "b", "x": dx * 8.0, "y": dy * 8.0, "facing": facing, "speed": speed}
    doc = {"scenario": {"name": "sanity", "ruleset": "carwars", "turns": turns, "until": "decided"}, "vehicle": [a, b],
           "orders": [{"id": f"{v}_fires", "unit": v, "target": "best_odds"} for v in "ab"],
           "drive": [{"id": "a_drives", "unit": "a", "tactic": tactic_a}, {"id": "b_drives", "unit": "b", "tactic": tactic_b}]}
    with warnings.catch_warnings():
        warnings.simplefilter("error", BackendWarning)      # a duel runs whole in the kernel
        r = run_batch(hardpoint.parse_scenario(doc), trials, seed, threads=1, keep="summary")
    assert r.backend == "compiled"
    got = {o.name(): o.count for o in r.probabilities()}
    return got["a wins"], got["b wins"], got["draw (nobody left in action)"], got[f"undecided after {turns} turns"]


KNOWN_UNDECIDED = {("outrider", "outrider", aspect, 60.0): "two outriders meeting at 60 mph cripple each other (riders "
                   "down, power plants gone) and slug it out at point blank with the sidecars' light guns (1d-1) until "
                   "their ammunition runs out, some 20-22 turns in: 5-11% undecided at turn 20, at most 3% at turn 40 "
                   "(test_fight_06_07_the_long_fights_are_decided_given_the_turns)"
                   for aspect in ASPECTS}


def test_fight_06_07_the_sanity_matrix_leaves_few_fights_undecided():
    """FIGHT-06/07: every pair of stock designs (and each against itself), every aspect, 0/20/40/60 mph: the
    undecided share at most 5% (the lower end of its 99.9% interval), but in the cells KNOWN_UNDECIDED lists, with
    why (docs/fights.md)."""
    over = []
    for (a, b), aspect, speed in itertools.product(itertools.combinations_with_replacement(DESIGNS, 2), ASPECTS, SPEEDS):
        if (a, b, aspect, speed) in KNOWN_UNDECIDED:
            continue
        undecided = fight({"design": a}, {"design": b}, aspect, speed)[3]
        if wilson(undecided, TRIALS, Z999)[0] > 0.05:
            over.append((a, b, aspect, speed, undecided))
    assert not over, over


@pytest.mark.parametrize("a,b,aspect,speed", sorted(KNOWN_UNDECIDED))
def test_fight_06_07_the_long_fights_are_decided_given_the_turns(a, b, aspect, speed):
    """FIGHT-06/07: each cell KNOWN_UNDECIDED lists is a long fight, not a stalled one: given 40 turns, at most 5%
    of its fights are undecided (the lower end of the 99.9% interval)."""
    undecided = fight({"design": a}, {"design": b}, aspect, speed, turns=40)[3]
    assert wilson(undecided, TRIALS, Z999)[0] <= 0.05, undecided


@pytest.mark.parametrize("design,speed", list(itertools.product(DESIGNS, SPEEDS)))
def test_fight_06_07_twins_head_on_win_equally(design, speed):
    """FIGHT-06/07: a design against itself head-on, 2,000 trials: A's and B's wins differ by no more than 3.29
    standard errors (the multinomial's)."""
    n = 2000
    wa, wb, _, _ = fight({"design": design}, {"design": design}, "head-on", speed, n)
    pa, pb = wa / n, wb / n
    se = math.sqrt(max(pa + pb - (pa - pb) ** 2, 1e-9) / n)
    assert abs(pa - pb) <= Z999 * se, (wa, wb)


@pytest.mark.parametrize("design", DESIGNS)
def test_fight_06_07_strictly_more_armour_wins_more_often(design):
    """FIGHT-06/07: the design with 5 more points of armour on every side (the same weapons) wins more often than
    the original against the stock foes, head-on at 0 and 40 mph: more wins over them all, and in no fight
    significantly fewer (one-sided, 95%, on twice the matrix's trials)."""
    base = hardpoint.default_rules()["carwars.designs"]["design"][design]["armour"]
    more = {side: int(points) + 5 for side, points in base.items()}
    n = 2 * TRIALS
    plain_total = armoured_total = 0
    for foe, speed in itertools.product(DESIGNS, (0.0, 40.0)):
        plain = fight({"design": design}, {"design": foe}, "head-on", speed, n, seed=2)[0]
        armoured = fight({"design": design, "armour": more}, {"design": foe}, "head-on", speed, n, seed=2)[0]
        plain_total, armoured_total = plain_total + plain, armoured_total + armoured
        p0, p1 = plain / n, armoured / n
        se = math.sqrt((p0 * (1 - p0) + p1 * (1 - p1)) / n) or 1.0 / n
        assert (p1 - p0) / se > -1.645, (design, foe, speed, plain, armoured)
    assert armoured_total > plain_total, (design, plain_total, armoured_total)
