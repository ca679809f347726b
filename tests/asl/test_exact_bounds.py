"""Exact odds without the joint distribution, and their bounds (FAST-02, SAFE-03).

The joint distribution of final states grows about fourfold with every unit
an attack can leave in one more state; `exact_outcomes` forgets each unit once
no step to come reads it, draws Random Selection lazily and splits the Bail
Out per counter (hardpoint.asl.marginals), so its work grows polynomially.
These tests pin the work done (states expanded, not seconds) and compare the
new odds with the joint distribution, which is the brute force.
"""
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import HardpointError
from hardpoint.asl import chance
from hardpoint.asl.chance import ExactBoundError, ExactStats
from hardpoint.asl.enums import TieRule
from hardpoint.asl.events import OutcomeOdds
from hardpoint.asl.morale import random_selection_round, selection_distribution, selection_size_law

from .conftest import d15_55_data, scenario_data
from .test_batch_kernel import stacks


def joint_outcomes(scenario, max_states=200_000):
    """The brute force: every key summed over the joint distribution of final states."""
    out = {}
    for state, p in scenario.exact_states(max_states=max_states).items():
        for k, v in scenario.outcome_values(state).items():
            out[k] = out.get(k, Fraction(0)) + (p if v else 0)
    return out


def crews(extra):
    """The D15.55 example with `extra` more 2-2-8 crews on foot in the target hex."""
    data = d15_55_data()
    data["unit"] += [{"id": f"c{i}", "counter": "2-2-8", "hex": "target", "side": "german"} for i in range(extra)]
    return hardpoint.parse_scenario(data)


def mixed_hex():
    """Ten units on foot of every kind (crews, squads, half-squads, leaders, a hero) under one 75mm hit."""
    kinds = [("2-2-8", None), ("4-6-7", None), ("9-2", None), ("2-4-7", None), ("8-0", None), ("2-2-8", None), ("4-6-7", None),
             ("1-4-9", "hero"), ("2-4-7", None), ("7-0", None)]
    units = [dict({"id": f"u{i}", "counter": c, "hex": "t", "side": "g"}, **({"type": t} if t else {})) for i, (c, t) in enumerate(kinds)]
    return hardpoint.parse_scenario(scenario_data(hex=[{"id": "t", "terrain": "open_ground"}], unit=units,
                                                  fire=[{"id": "g", "kind": "ordnance", "target": "t", "range": 3, "fp": 12}]))


@pytest.mark.parametrize("extra", [0, 1, 3])
def test_fast_02_marginals_equal_the_joint_distribution(extra):
    """FAST-02: the odds of every key from `exact_outcomes` equal the sums over the joint distribution of final
    states (the brute force), for the D15.55 example with 0, 1 and 3 extra crews."""
    assert crews(extra).exact_outcomes() == joint_outcomes(crews(extra))


def test_safe_03_a_hex_of_ten_units_explains_with_polynomial_work():
    """SAFE-03, FAST-02: the D15.55 example with seven more crews (ten units in the hex): its exact odds take about
    2,000 states (they doubled with every unit before Random Selection was drawn lazily, and quadrupled before units
    were forgotten); the joint distribution does not fit in 20,000; `explain` lists the odds of each key instead, and
    they add up as they must (a unit is at most one of eliminated or broken)."""
    stats = ExactStats()
    s = crews(7)
    exact = s.exact_outcomes(stats=stats)
    assert stats.states < 3_000, stats
    assert exact["gun hits crew"] == Fraction(13, 18) and exact["gun hits squad"] == Fraction(7, 12)
    assert all(exact[f"c{i} broken"] == exact["c0 broken"] for i in range(7))      # the crews are alike
    for u in ("crew", "squad", "leader", "c3"):
        assert exact[f"{u} eliminated"] + exact[f"{u} broken"] <= 1
    with pytest.raises(ExactBoundError) as err:
        crews(7).exact_states(max_states=20_000)
    assert err.value.rule == "SAFE-03" and err.value.field == "exact.max_states"
    events = s.explain()
    notes = [e for e in events if getattr(e, "rule", "") == "SAFE-03"]
    assert len(notes) == 1 and "joint outcomes not listed" in notes[0].text
    odds = {e.outcome: e.probability for e in events if isinstance(e, OutcomeOdds)}
    assert odds == {k: p for k, p in exact.items() if p}
    assert "exact odds of each outcome" in s.render_explain()


def test_safe_03_growth_is_polynomial_in_the_units():
    """SAFE-03: the states expanded grow about quadratically with the crews in the hex (4, 6, 8, 10 units), where the
    joint distribution grows fourfold per unit."""
    counts = []
    for extra in (1, 3, 5, 7):
        stats = ExactStats()
        crews(extra).exact_outcomes(stats=stats)
        counts.append(stats.states)
    assert counts == sorted(counts)
    assert counts[-1] < 10 * counts[0], counts          # 4 -> 10 units: far from 4**6 = 4096 times the work


def test_safe_03_ten_units_of_every_kind():
    """SAFE-03: ten units on foot, leaders (their leadership read by every MC) and a hero among them, under one hit:
    under 2,000 states (leaders read only for their leadership are kept as the best leadership of the hex)."""
    stats = ExactStats()
    exact = mixed_hex().exact_outcomes(stats=stats)
    assert stats.states < 2_000, stats
    assert sum(exact.values()) > 0


def test_safe_03_past_the_bound_a_clear_error_and_explain_still_runs(monkeypatch):
    """SAFE-03: past MAX_EXACT_STATES, `exact_outcomes` raises an ExactBoundError (a ScenarioError, a ValueError)
    naming the bound; `explain` still runs and says why it gives no exact odds."""
    monkeypatch.setattr(chance, "MAX_EXACT_STATES", 300)
    s = crews(7)
    with pytest.raises(ExactBoundError) as err:
        s.exact_outcomes()
    assert isinstance(err.value, ValueError) and err.value.value == 300 and "300" in str(err.value)
    events = crews(7).explain()
    assert not [e for e in events if isinstance(e, OutcomeOdds)]
    assert any("exact odds not computed" in getattr(e, "text", "") and e.rule == "SAFE-03" for e in events)


def test_fast_02_moves_and_two_attacks_marginals_equal_the_joint():
    """FAST-02: a PFPh attack, a ride with a Wreck Check, and a DFPh attack on the hex ridden into: the odds of
    each key equal the joint distribution's (nothing is forgotten while a move is to come)."""
    data = scenario_data(
        hex=[{"id": "C5", "road": "paved"}, {"id": "D5", "road": "paved", "features": ["stream"]}],
        unit=[{"id": "sq", "counter": "4-6-7", "hex": "C5", "side": "g"}, {"id": "ldr", "counter": "9-1", "hex": "C5", "side": "g"},
              {"id": "hs", "counter": "2-4-7", "hex": "C5", "side": "g"}],
        motorcycle=[{"id": "cyc", "type": "cycle", "machines": 3, "hex": "C5", "side": "g", "mp": 28, "vca": "ne/se",
                     "riders": ["sq", "ldr"]}],
        move=[{"id": "ride", "units": ["sq", "ldr"], "steps": [{"action": "start"}, {"action": "ride", "hex": "D5"}]}],
        fire=[{"id": "pf", "kind": "ordnance", "target": "C5", "range": 4, "fp": 8, "phase": "pfph"},
              {"id": "df", "kind": "ordnance", "target": "D5", "range": 2, "fp": 12, "phase": "dfph"}])
    s = hardpoint.parse_scenario(data)
    assert s.exact_outcomes() == joint_outcomes(hardpoint.parse_scenario(data))


def test_fast_02_a_rider_broken_by_kia_waits_for_the_leaders_mcs():
    """FAST-02, ASL-RES-03, A10.7: found by the random-stack comparison: a squad broken on its counter by an nKIA
    (no MC of its own) bails out before the leaders' MCs are taken; its Bail Out NMC must still wait for them, since
    it reads their leadership. The odds equal the joint distribution's."""
    units = [{"id": "u0", "counter": "4-6-7", "hex": "target", "side": "german", "pinned": True},
             {"id": "u1", "counter": "4-6-7", "hex": "target", "side": "german", "pinned": True, "broken": True},
             {"id": "u2", "counter": "8-0", "hex": "target", "side": "german", "pinned": True},
             {"id": "u3", "counter": "8-0", "hex": "target", "side": "german", "wounded": True, "pinned": True},
             {"id": "f_sq", "counter": "4-6-7", "hex": "near", "side": "russian"}]
    data = scenario_data(hex=[{"id": "target", "terrain": "open_ground"}, {"id": "near", "terrain": "open_ground"}], unit=units,
                         motorcycle=[{"id": "m1", "type": "cycle", "machines": 3, "hex": "target", "side": "german", "motion": "moving",
                                      "riders": ["u0", "u3"], "mp": 28}],
                         fire=[{"id": "a0", "kind": "small_arms", "target": "target", "firers": ["f_sq"], "range": 0, "tpbf": True}])
    assert hardpoint.parse_scenario(data).exact_outcomes() == joint_outcomes(hardpoint.parse_scenario(data))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(stacks())
def test_fast_02_marginals_equal_brute_force_on_random_stacks(data):
    """FAST-02, A.9, A10.7, ASL-RES-02, ASL-RES-03: for random stacks (leaders, heroes, riders on counters stopped or
    moving, one or two attacks, both tie rules and varied morale settings) the odds of every key from `exact_outcomes`
    equal the sums over the joint distribution (skipped where the joint is too large to enumerate)."""
    try:
        s = hardpoint.parse_scenario(data)
        joint = joint_outcomes(s, max_states=5_000)
    except ExactBoundError:
        assume(False)
    except HardpointError:
        assume(False)
    assert hardpoint.parse_scenario(data).exact_outcomes() == joint


@st.composite
def rides(draw):
    """A counter with a squad and leaders riding from C5 to D5 (a stream there: a Wreck Check, or not), units on foot
    left in C5 or walking along, and attacks before and after the move on either hex."""
    leaders = draw(st.lists(st.sampled_from(["8-0", "9-1", "7-0", "9-2"]), min_size=0, max_size=2))
    riders = ["sq"] + [f"l{i}" for i in range(len(leaders))]
    units = [{"id": "sq", "counter": "4-6-7", "hex": "C5", "side": "g"}]
    units += [{"id": f"l{i}", "counter": c, "hex": "C5", "side": "g"} for i, c in enumerate(leaders)]
    foot = draw(st.lists(st.sampled_from(["2-4-7", "2-2-8", "8-1"]), max_size=3))
    units += [{"id": f"f{i}", "counter": c, "hex": "C5", "side": "g"} for i, c in enumerate(foot)]
    moves = [{"id": "ride", "units": riders, "steps": [{"action": "start"}, {"action": "ride", "hex": "D5"}]}]
    if foot and draw(st.booleans()):
        moves.append({"id": "walk", "units": [f"f{i}" for i in range(len(foot))], "steps": [{"action": "enter", "hex": "D5"}]})
    fires = []
    for k in range(draw(st.integers(1, 2))):
        fires.append({"id": f"a{k}", "kind": "ordnance", "target": draw(st.sampled_from(["C5", "D5"])), "range": draw(st.integers(1, 8)),
                      "fp": draw(st.sampled_from([4, 8, 12, 20])), "phase": draw(st.sampled_from(["pfph", "dfph"]))})
    d5 = {"id": "D5", "road": "paved"}
    if draw(st.booleans()):
        d5["features"] = ["stream"]
    return scenario_data(hex=[{"id": "C5", "road": "paved"}, d5], unit=units,
                         motorcycle=[{"id": "cyc", "type": "cycle", "machines": 3, "hex": "C5", "side": "g", "mp": 28, "vca": "ne/se",
                                      "riders": riders}], move=moves, fire=fires)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(rides())
def test_fast_02_marginals_equal_brute_force_with_moves(data):
    """FAST-02, ASL-MOV-06: random rides (Wreck Checks, a walk alongside) between attacks before and after the move:
    the odds of every key equal the joint distribution's."""
    try:
        s = hardpoint.parse_scenario(data)
        joint = joint_outcomes(s, max_states=5_000)
    except HardpointError:
        assume(False)
    assert hardpoint.parse_scenario(data).exact_outcomes() == joint


@given(st.integers(1, 7), st.integers(1, 5), st.sampled_from([TieRule.ALL, TieRule.REROLL]))
@settings(max_examples=40, deadline=None)
def test_a9_law_of_sizes_matches_the_rounds(n, count, ties):
    """A.9: `selection_size_law` (a given set of k candidates is the final selection with probability q[k]) equals
    playing the rounds out: one round's closed form (`selection_distribution`), rerolled ties followed to the end."""
    cands = tuple(f"u{i}" for i in range(n))
    final: dict = {}
    frontier = {(cands, count, ()): Fraction(1)}
    while frontier:
        nxt: dict = {}
        for (c, k, already), p in frontier.items():
            outcomes = selection_distribution(c, k, ties)
            # a round where every candidate ties rolls again: a geometric series
            loop = outcomes.get(((), (c, k)), Fraction(0))
            for (chosen, pending), q in outcomes.items():
                if pending == (c, k) and not chosen:
                    continue
                w = p * q / (1 - loop)
                if pending is None:
                    key = frozenset(already + chosen)
                    final[key] = final.get(key, Fraction(0)) + w
                else:
                    nkey = (pending[0], pending[1], already + chosen)
                    nxt[nkey] = nxt.get(nkey, Fraction(0)) + w
        frontier = nxt
    law = selection_size_law(n, count, ties)
    assert sum(final.values()) == 1
    for chosen, p in final.items():
        assert p == law[len(chosen)], (chosen, p, law)
    # and one round is the law's first step when no reroll can happen
    if ties is TieRule.ALL:
        def step(state, dice):
            chosen, pending, _ = random_selection_round(cands, count, ties, dice, "test")
            return frozenset(chosen), []
        assert all(p == law[len(k)] for k, p in chance.enumerate_step(step, None).items())
