"""A weapons link that contains itself, refused where it is opened (CW-LINK-01).

The loader refuses such a link (validate.check_links, on the vehicle's links[i] path); flatten_link, which opens a
link for every attack and drop, refuses it too for a vehicle whose links were changed in Python after load,
instead of recursing without end.
"""
import pytest

import hardpoint
from hardpoint import ScenarioError
from hardpoint.carwars.model import build_vehicle
from hardpoint.carwars.special import Link, flatten_link

RULES = hardpoint.default_rules()


def linked(*links):
    return build_vehicle(RULES, {"id": "v", "design": "hunter", "links": [{"id": i, "weapons": list(m)} for i, m in links]})


def test_cw_link_01_a_link_that_contains_itself_is_refused_when_opened():
    """CW-LINK-01: "outer" holds "inner", which is made to hold "outer" again: opening either names the link met
    twice."""
    v = linked(("inner", ("mg",)), ("outer", ("inner", "md")))
    assert [w.id for w in flatten_link(v, "outer", "attack.weapon")] == ["mg", "md"]
    v.links["inner"] = Link("inner", ("mg", "outer"))
    with pytest.raises(ScenarioError) as err:
        flatten_link(v, "outer", "attack.weapon")
    assert (err.value.field, err.value.value, err.value.rule) == ("attack.weapon", "outer", "CW-LINK-01")
    v.links["solo"] = Link("solo", ("solo",))
    with pytest.raises(ScenarioError) as err:
        flatten_link(v, "solo", "action[0].weapon")
    assert (err.value.field, err.value.value, err.value.rule) == ("action[0].weapon", "solo", "CW-LINK-01")


def test_cw_link_01_the_loader_refuses_it_first():
    """CW-LINK-01: in a scenario the same link is refused on load, on the links' own path."""
    with pytest.raises(ScenarioError) as err:
        linked(("a", ("mg", "b")), ("b", ("a",)))
    assert err.value.rule == "CW-LINK-01" and err.value.field.startswith("vehicle.links[")
