"""Damage, hand-worked: the rest of a cycle's flank hit and the far sidecar (CW-TGT-04).

The test asserts every roll, every component's points before and after, and what passes out.
"""
import pytest

import hardpoint


@pytest.mark.parametrize("face,sidecar", [(3, True), (4, False)])
def test_cw_tgt_04_the_rest_of_a_flank_shot_hits_the_far_sidecar_on_at_most_its_spaces(face, sidecar):
    """CW-TGT-04: 12 hits on the outrider's left (its sidecar, 3 spaces, on the right): side table 6+1 = 7, the power
    plant (3 -> 0); the other 9 go on to the far sidecar if 1d is at most 3: on a 3 its left armour takes 4 (4 -> 0),
    then one component at random (the LMG, 2 -> 0) and 3 pass out; on a 4 all 9 pass through the cycle harmlessly.
    Source: SPEC CW-TGT-04 (hit if the roll is at most the sidecar's spaces)."""
    from hardpoint import ScriptedDice
    from hardpoint.carwars.damage import Shot, apply_shot
    from hardpoint.carwars.enums import Side
    from hardpoint.carwars.model import build_vehicle

    rules = hardpoint.default_rules()
    v = build_vehicle(rules, {"id": "b", "design": "outrider"})
    assert v.sidecar.spaces == 3
    ledger = apply_shot(rules, v, Shot(12, Side.LEFT), ScriptedDice([6, 1, face, 1]))
    rolls = [(e.why, e.total) for e in ledger.events if e.kind == "dice"]
    damage = [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"]
    assert rolls[:2] == [("cycle hit location, side table", 7), ("does the rest hit the far sidecar", face)]
    if sidecar:
        assert damage == [("power plant", 3, 3, 0), ("sidecar left armour", 4, 4, 0), ("weapon sc_lmg", 2, 2, 0)]
        assert ledger.lost == 3
    else:
        assert damage == [("power plant", 3, 3, 0)] and ledger.lost == 9
