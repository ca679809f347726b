"""One front door for every rule set (ARCH-03): load, explain, resolve, batch and exact odds dispatch through
`hardpoint.ruleset`, and batches come back in one shape (`hardpoint.results`)."""
import json
from dataclasses import dataclass
from fractions import Fraction

import pytest

import hardpoint
from hardpoint import ruleset
from hardpoint.results import BatchResult, Outcome, wilson

CW = "builtin:cw_tohit_example"
ASL = "builtin:asl_d15_55_gun_on_cycle"


def test_arch_03_both_rule_sets_answer_through_the_front_door():
    """ARCH-03: the same calls for Car Wars and ASL; the result type is the same."""
    cw, asl = hardpoint.load_scenario(CW), hardpoint.load_scenario(ASL)
    assert ruleset.ruleset_of(cw).name == "carwars" and ruleset.ruleset_of(asl).name == "asl"
    a = hardpoint.run_batch(cw, 3000, seed=5)
    b = hardpoint.run_batch(asl, 3000, seed=5)
    assert type(a) is type(b) is BatchResult
    assert (a.ruleset, b.ruleset) == ("carwars", "asl")
    assert a.find("hit", attack="mg_at_tire").n == 3000
    assert b.find("eliminated", unit="squad").n == 3000
    assert hardpoint.explain(cw)[0].needed == 10
    assert hardpoint.resolve(cw, seed=3) == cw.resolve(hardpoint.SeededDice(3), seed=3)
    assert hardpoint.resolve(asl, hardpoint.SeededDice(4)).to_dict() == asl.resolve(hardpoint.SeededDice(4)).to_dict()


def test_arch_03_asl_batch_counts_equal_its_trials():
    """ARCH-03: an ASL batch through the front door counts exactly what its trials did, in summary and arrays mode."""
    s = hardpoint.load_scenario(ASL)
    lean = hardpoint.run_batch(s, 1500, seed=9, keep="summary", chunk=400)
    full = hardpoint.run_batch(s, 1500, seed=9, keep="arrays")
    assert [o.count for o in lean.outcomes] == [o.count for o in full.outcomes]
    per_trial = [s.trial_outcome(hardpoint.SeededDice(9, t)) for t in range(1500)]
    for o in lean.outcomes:
        assert o.count == sum(int(row[o.label]) for row in per_trial), o.label


def test_arch_03_batch_results_do_not_depend_on_chunking_or_keep():
    """FAST-01: Car Wars counts through the front door are the same for any chunk, thread count or keep mode."""
    s = hardpoint.load_scenario("builtin:default")
    a = hardpoint.run_batch(s, 4000, seed=2, keep="arrays", threads=1)
    b = hardpoint.run_batch(s, 4000, seed=2, keep="summary", threads=2, chunk=333)
    assert [(o.key, o.count, o.total, o.total_sq, o.histogram) for o in a.outcomes] == \
           [(o.key, o.count, o.total, o.total_sq, o.histogram) for o in b.outcomes]
    assert a.details is not None and a.hit.shape == (4000, len(s.attacks))
    assert b.details.hit is None


def test_arch_03_the_car_wars_exact_hit_sits_beside_the_estimate():
    """FAST-02: the run's hit probability carries the exact value from explain; the estimate sits inside its interval."""
    s = hardpoint.load_scenario(CW)
    o = hardpoint.run_batch(s, 60_000, seed=1).find("hit", attack="mg_at_tire")
    assert o.exact == Fraction(1, 6)
    lo, hi = o.interval()
    assert lo <= 1 / 6 <= hi


def test_proto_01_run_document_has_format_structured_keys_and_fractions():
    """PROTO-01: the run document is versioned, rows have structured keys, exact values are numbers and fraction strings."""
    doc = hardpoint.run_batch(hardpoint.load_scenario(CW), 500, seed=1).to_dict()
    json.dumps(doc)
    assert doc["format"] == "hardpoint/1" and doc["kind"] == "run"
    row = next(r for r in doc["probabilities"] if r["measure"] == "hit")
    assert row["attack"] == "mg_at_tire" and row["exact_fraction"] == "1/6" and row["exact"] == pytest.approx(1 / 6)
    dmg = next(r for r in doc["amounts"] if r["measure"] == "damage")
    assert set(dmg) >= {"mean", "stderr", "interval", "percentiles", "trials"}


def test_outcome_statistics_are_the_textbook_ones():
    """The Wilson interval and the amounts' percentiles, checked by hand."""
    lo, hi = wilson(30, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.2189, 0.3958)
    o = Outcome("damage", kind="amount", total=10, total_sq=30, n=4, histogram=((0, 1), (2, 1), (3, 1), (5, 1)))
    assert o.estimate == 2.5 and o.percentiles() == {0.5: 2, 0.9: 5, 0.99: 5}
    assert o.stderr == pytest.approx(((30 / 4 - 6.25) / 4) ** 0.5)
    merged = o.merged(o)
    assert merged.n == 8 and merged.histogram == ((0, 2), (2, 2), (3, 2), (5, 2))


@dataclass
class _CoinScenario:
    name: str
    p: Fraction

    def explain(self):
        return []


class _Coin:
    """A third rule set, in the test only: a coin lands heads with probability p (one d6: 1..6*p)."""

    name = "coin"
    title = "Coin"
    schema_parts = {"coin": {"type": "object", "properties": {"sixths": {"type": "integer", "minimum": 0, "maximum": 6}},
                             "additionalProperties": False}}

    def load(self, data, rules, source):
        return _CoinScenario(data["scenario"]["name"], Fraction(data.get("coin", {}).get("sixths", 3), 6))

    def owns(self, scenario):
        return isinstance(scenario, _CoinScenario)

    def explain(self, scenario):
        return []

    def resolve(self, scenario, dice, seed=None):
        return dice.roll("1d", "coin", "")

    def batch(self, scenario, trials, seed, options):
        heads = sum(hardpoint.SeededDice(seed, options.first_trial + t).roll("1d", "coin", "").total <= scenario.p * 6
                    for t in range(trials))
        return BatchResult(scenario.name, self.name, seed, options.first_trial, trials, "reference", 0.0,
                           [Outcome("heads", count=heads, n=trials, exact=scenario.p)])

    def exact(self, scenario, **query):
        return [Outcome("heads", exact=scenario.p)]

    def pack(self, scenario):
        return ruleset.Unpackable("a coin has no kernel")


def test_arch_03_a_third_rule_set_plugs_in_without_touching_the_core():
    """ARCH-03: a rule set defined outside the package registers and works through every front-door call."""
    coin = _Coin()
    ruleset.register(coin)
    try:
        assert "coin" in hardpoint.scenario_schema()["properties"]["scenario"]["properties"]["ruleset"]["enum"]
        s = hardpoint.parse_scenario({"scenario": {"name": "flip", "ruleset": "coin"}, "coin": {"sixths": 2}})
        b = hardpoint.run_batch(s, 600, seed=1)
        assert b.ruleset == "coin" and b.find("heads").exact == Fraction(1, 3)
        assert hardpoint.exact(s)[0].exact == Fraction(1, 3)
        with pytest.raises(hardpoint.ScenarioError):
            hardpoint.parse_scenario({"scenario": {"name": "flip", "ruleset": "coin"}, "coin": {"sixths": 9}})
    finally:
        ruleset.unregister("coin")
    assert "coin" not in hardpoint.scenario_schema()["properties"]["scenario"]["properties"]["ruleset"]["enum"]


def test_arch_03_unknown_rule_set_names_the_known_ones():
    """ARCH-03: a scenario object no rule set owns is a clear error."""
    with pytest.raises(hardpoint.ScenarioError, match="rule set"):
        hardpoint.run_batch(object(), 10)


def test_arch_03_old_import_paths_work_for_one_release_with_a_warning():
    """ARCH-03: hardpoint.batch, hardpoint.lof and the Car Wars names of hardpoint.exact moved into hardpoint.carwars;
    the old paths still import, with a DeprecationWarning, and hardpoint.exact stays the front door's callable."""
    import importlib
    import sys

    for name in ("hardpoint.batch", "hardpoint.lof"):
        sys.modules.pop(name, None)
        with pytest.warns(DeprecationWarning, match="deprecated"):
            module = importlib.import_module(name)
        assert module.__all__
    from hardpoint.carwars import batch as new_batch

    assert sys.modules["hardpoint.batch"].run_batch is new_batch.run_batch
    import hardpoint.exact as old_exact

    with pytest.warns(DeprecationWarning, match="hardpoint.carwars.exact"):
        exact_attack = old_exact.exact_attack
    from hardpoint.carwars.exact import exact_attack as moved

    assert exact_attack is moved
    s = hardpoint.load_scenario(CW)
    assert hardpoint.exact(s)[0].exact == Fraction(1, 6)       # still callable after the module was imported
