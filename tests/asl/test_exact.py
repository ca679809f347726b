"""Exact odds of the IFT chain against a motorcycle stack, and Monte Carlo agreement (FAST-02, ASL-TGT-02, A.9)."""
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import SeededDice
from hardpoint.asl.chance import enumerate_step, exact_chain
from hardpoint.asl.enums import TieRule
from hardpoint.asl.morale import random_selection_round, selection_distribution

from .conftest import d15_55_data

F = Fraction


class _NoHooks:
    """The same chain without its closed forms: every die enumerated."""

    def __init__(self, chain):
        self.chain = chain

    def done(self, state):
        return self.chain.done(state)

    def step(self, state, dice):
        return self.chain.step(state, dice)


@pytest.fixture(scope="module")
def d15_55():
    return hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")


def test_fast_02_exact_distribution_sums_to_one(d15_55):
    """FAST-02: the exact distribution of final states of the D15.55 attack sums to 1."""
    states = d15_55.exact_states()
    assert sum(states.values()) == 1
    assert sum(d15_55.exact_distribution().values()) == 1


def test_fast_02_closed_forms_equal_full_dice_enumeration(d15_55):
    """FAST-02, A.9: the chain's closed forms (Random Selection, one-DR steps) give exactly what enumerating every
    die of every step gives, state by state."""
    chain = d15_55.chain()
    assert exact_chain(chain, d15_55.initial()) == exact_chain(_NoHooks(chain), d15_55.initial())


def test_fast_02_hooks_match_enumeration_step_by_step(d15_55):
    """FAST-02: for every state reached, exact_step equals the enumeration of that step's dice."""
    chain = d15_55.chain()
    frontier, checked = [d15_55.initial()], 0
    seen = set()
    while frontier and checked < 60:
        s = frontier.pop()
        if chain.done(s) or s in seen:
            continue
        seen.add(s)
        brute = enumerate_step(chain.step, s)
        hook = chain.exact_step(s)
        if hook is not None:
            assert hook == brute
            checked += 1
        frontier += list(brute)
    assert checked >= 20


@given(st.integers(1, 4), st.integers(1, 4), st.sampled_from([TieRule.ALL, TieRule.REROLL]))
@settings(max_examples=30, deadline=None)
def test_a9_selection_distribution_matches_enumeration(n, count, ties):
    """A.9: the closed form of one Random Selection round equals enumerating every dr."""
    cands = tuple(f"u{i}" for i in range(n))

    def step(state, dice):
        chosen, pending, _ = random_selection_round(cands, count, ties, dice, "test")
        return (chosen, pending), []

    assert selection_distribution(cands, count, ties) == enumerate_step(step, None)


def lone_leader_scenario(**rules):
    data = d15_55_data()
    data["unit"] = [{"id": "rider", "counter": "8-0", "hex": "target", "side": "german"}]
    data["motorcycle"][0].update(machines=1, riders=["rider"])
    if rules:
        data["rules"] = rules
    return hardpoint.parse_scenario(data)


def test_fast_02_hand_derived_elimination_of_a_lone_rider():
    """FAST-02, ASL-TGT-01, ASL-RES-03: a lone 8-0 on a cycle in Motion under the 75mm at 6 hexes, derived by hand:
    hit on DR <= 7 (21/36); on the 12 FP column DR 2 is 1KIA; DR 3 K/3 wounds him (morale 7), a failed 3MC breaks him
    and a failed Bail Out NMC eliminates him; DR 4 3MC, 5-6 2MC, 7-8 1MC, 9 NMC: break, then fail the NMC."""
    dr = {t: F(6 - abs(t - 7), 36) for t in range(2, 13)}
    at_least = lambda n: sum((p for t, p in dr.items() if t >= n), F(0))   # noqa: E731
    nmc_fail = at_least(9)                    # broken, morale 8: Final DR 9+
    p = dr[2]
    p += dr[3] * at_least(5) * at_least(8)    # wounded: morale 7: 3MC fails on 5+, the NMC on 8+
    p += dr[4] * at_least(6) * nmc_fail       # 3MC
    p += (dr[5] + dr[6]) * at_least(7) * nmc_fail
    p += (dr[7] + dr[8]) * at_least(8) * nmc_fail
    p += dr[9] * at_least(9) * nmc_fail
    p *= at_least(2) - at_least(8)            # hit: Original DR <= 7
    exact = lone_leader_scenario().exact_outcomes()
    assert exact["rider eliminated"] == p
    assert exact["gun hits rider"] == F(21, 36)
    assert exact["counter cycle removed"] == F(21, 36) * dr[2]


def test_fast_02_d15_55_hit_odds(d15_55):
    """FAST-02, ASL-TGT-02: P(crew hit) = P(DR <= 8) = 13/18; P(each rider hit) = P(DR <= 7) = 7/12."""
    exact = d15_55.exact_outcomes()
    assert exact["gun hits crew"] == F(13, 18)
    assert exact["gun hits squad"] == exact["gun hits leader"] == F(7, 12)
    assert exact["squad reduced"] + exact["squad eliminated"] <= F(7, 12)


def test_a9_reroll_setting_exact_via_geometric_series():
    """A.9 (ties = reroll): the exact chain renormalises the reroll loop; the distribution still sums to 1 and every
    candidate is equally likely to be the one Casualty Reduced."""
    data = d15_55_data()
    data["rules"] = {"asl": {"morale": {"random_selection": {"ties": "reroll"}}}}
    data["motorcycle"][0]["motion"] = "stopped"
    data["fire"][0]["to_hit_drm"] = [{"name": "test: always hit", "value": -12}]
    scn = hardpoint.parse_scenario(data)
    states = scn.exact_states()
    assert sum(states.values()) == 1
    exact = scn.exact_outcomes()
    p_k = F(2, 36)                                             # IFT DR 3 on the 12 FP column: K/3
    assert exact["squad reduced"] == exact["leader wounded"] == p_k / 3
    default = hardpoint.parse_scenario({k: v for k, v in data.items() if k != "rules"}).exact_outcomes()
    assert default["squad reduced"] > p_k / 3                  # ties = all: a tie selects several units


def test_fast_02_monte_carlo_agrees_with_exact(d15_55):
    """FAST-02: 20,000 SeededDice trials of the D15.55 attack agree with the exact odds of every outcome (|z| < 4)."""
    n = 20_000
    sums: dict[str, float] = {}
    for t in range(n):
        for k, v in d15_55.trial_outcome(SeededDice(2026, t)).items():
            sums[k] = sums.get(k, 0.0) + v
    exact = d15_55.exact_outcomes()
    assert set(exact) == set(sums)
    for k, p in exact.items():
        p = float(p)
        mean = sums[k] / n
        if p in (0.0, 1.0):
            assert mean == p, k
            continue
        z = (mean - p) / math.sqrt(p * (1 - p) / n)
        assert abs(z) < 4, (k, mean, p, z)
