"""Automatic and linked weapons, hand-worked (CW-AUTO-01, CW-LINK-01): the line a weapon on automatic fires along,
which thing on that line takes the shot, what fires at the end of the turn, and how a link's weapons are aimed.

The geometry is laid out by hand: the firing car sits at (1, 2) facing 90 (its front points along +x, its left side
along +y), so the four lines run along y = 2 (front +x, back -x) and x = 1 (left +y, right -y) and a mix-up of x and
y, of a sign or of a side shows. Candidates are listed farthest first, so "the first one found" is never the answer
by accident.
"""
import pytest

import hardpoint
from hardpoint import RuleViolation
from hardpoint.carwars import geometry as geo
from hardpoint.carwars.attack import Attack
from hardpoint.carwars.model import Arena, Building, build_pedestrian, build_vehicle
from hardpoint.carwars.special import automatic_attacks, automatic_target, expand_link, set_automatic

RULES = hardpoint.default_rules()

FOUR = [{"id": "f", "type": "MG", "mount": "front", "ammo": 20}, {"id": "b", "type": "MG", "mount": "back", "ammo": 20},
        {"id": "l", "type": "MG", "mount": "left", "ammo": 20}, {"id": "r", "type": "MG", "mount": "right", "ammo": 20}]


def firer(weapons=FOUR, **kw):
    return build_vehicle(RULES, {"id": "v", "design": "hunter", "x": 1, "y": 2, "facing": 90, "speed": 0,
                                 "weapon": weapons, **kw})


def ped(pid, x, y):
    return build_pedestrian(RULES, {"id": pid, "x": x, "y": y})


def arena(v, *others, buildings=()):
    return Arena(vehicles={v.id: v}, pedestrians={p.id: p for p in others}, buildings={b.id: b for b in buildings})


# --- CW-AUTO-01: the line and the nearest thing on it ------------------------------------------------------------

def test_cw_auto_01_each_side_fires_straight_out_from_its_middle():
    """CW-AUTO-01: with pedestrians 4" and 8" out along each of the four lines (the farther listed first) and others
    just beside the lines, each weapon picks the nearer one on its own line: front +x, back -x, left +y, right -y.
    Source: SPEC CW-AUTO-01 (straight out from its side; RULING: the nearest on the line)."""
    v = firer()
    people = [ped("front_far", 9, 2), ped("front_near", 5, 2), ped("back_far", -7, 2), ped("back_near", -3, 2),
              ped("left_far", 1, 10), ped("left_near", 1, 6), ped("right_far", 1, -6), ped("right_near", 1, -2),
              ped("beside_front", 3, 3), ped("beside_left", 2, 4)]
    a = arena(v, *people)
    assert {w: automatic_target(a, v, v.weapon(w)) for w in "fblr"} == {
        "f": "front_near", "b": "back_near", "l": "left_near", "r": "right_near"}


def test_cw_auto_01_only_what_crosses_the_line():
    """CW-AUTO-01: a pedestrian 1.5" off the front line (at (5, 3.5)) is not on it, nor one 3" to the side of the
    left line: nothing crosses either line."""
    v = firer()
    assert automatic_target(arena(v, ped("off", 5, 3.5), ped("behind", -4, 3.5)), v, v.weapon("f")) is None
    # the left line runs along x = 1 from (1, 2.25): a pedestrian at (4, 5.25), off to its right, is not on it
    assert automatic_target(arena(v, ped("diagonal", 4, 5.25)), v, v.weapon("l")) is None


def test_cw_auto_01_the_target_on_the_line_nearest_to_the_weapon_whatever_its_size():
    """CW-AUTO-01 (RULING): the nearest thing on the line is the one the line reaches first: a 4" wide building whose
    near face is 3" out (x = 4.5) against a pedestrian 2.5" out (x = 4): the pedestrian; move him to x = 7 and the
    building takes the shot."""
    v = firer()
    wall = Building("wall", geo.Polygon(((4.5, 0.0), (8.5, 0.0), (8.5, 4.0), (4.5, 4.0))))
    assert automatic_target(arena(v, ped("p", 4, 2), buildings=[wall]), v, v.weapon("f")) == "p"
    assert automatic_target(arena(v, ped("p", 7, 2), buildings=[wall]), v, v.weapon("f")) == "wall"


def test_cw_auto_01_a_thing_that_only_touches_the_line_is_on_it():
    """CW-AUTO-01: a building whose corner just touches the front line (the triangle (6, 2), (7, 3), (5, 3)) crosses
    it: it takes the shot against a pedestrian farther along the line (x = 8), and loses it to one nearer (x = 4).
    The touching point is 4.5" from the weapon (the front's middle is at x = 1.5)."""
    v = firer()
    corner = Building("corner", geo.Polygon(((6.0, 2.0), (7.0, 3.0), (5.0, 3.0))))
    assert automatic_target(arena(v, ped("far", 8, 2), buildings=[corner]), v, v.weapon("f")) == "corner"
    assert automatic_target(arena(v, ped("near", 4, 2), buildings=[corner]), v, v.weapon("f")) == "near"
    # the same corner touching the left line (x = 1) from the right side: (1, 7), (2, 6), (2, 8)
    side = Building("side", geo.Polygon(((1.0, 7.0), (2.0, 6.0), (2.0, 8.0))))
    assert automatic_target(arena(v, ped("far", 1, 9), buildings=[side]), v, v.weapon("l")) == "side"
    assert automatic_target(arena(v, ped("near", 1, 5), buildings=[side]), v, v.weapon("l")) == "near"


def test_cw_auto_01_turret_and_other_mounts_have_no_line():
    """CW-AUTO-01: only a front, back or side weapon has a line to fire along: a top-mounted one finds nothing."""
    v = firer(weapons=[{"id": "t", "type": "MG", "mount": "top"}])
    assert automatic_target(arena(v, ped("p", 5, 2)), v, v.weapon("t")) is None


# --- CW-AUTO-01: what fires at the end of the turn ---------------------------------------------------------------

def test_cw_auto_01_every_weapon_on_automatic_fires_at_its_own_line():
    """CW-AUTO-01: at the end of the turn's movement each weapon on automatic fires: the front one finds nothing on its
    line (a note, no attack), the back one fires at the pedestrian behind; weapons not on automatic, out of
    ammunition, destroyed or dropped do not fire; the empty one says so."""
    weapons = [{"id": "f", "type": "MG", "mount": "front", "ammo": 20, "automatic": True},
               {"id": "b", "type": "MG", "mount": "back", "ammo": 20, "automatic": True},
               {"id": "l", "type": "MG", "mount": "left", "ammo": 0, "automatic": True},
               {"id": "r", "type": "MG", "mount": "right", "ammo": 20},
               {"id": "md", "type": "Minedropper", "mount": "back", "ammo": 10, "automatic": True}]
    v = firer(weapons)
    a = arena(v, ped("behind", -3, 2), ped("left", 1, 6), ped("right", 1, -2))
    attacks, events = automatic_attacks(a, 3)
    assert attacks == [Attack("auto:v.b.t3", "v", "b", "behind", "auto")]
    assert [(e.text, e.rule) for e in events] == [
        ("v f on automatic: nothing crosses its line", "CW-AUTO-01"),
        ("v b on automatic fires at behind, the first thing on its line", "CW-AUTO-01"),
        ("v l on automatic is out of ammunition", "CW-AUTO-01")]
    v.weapon("b").dp = 0
    assert automatic_attacks(a, 3)[0] == []


def test_cw_auto_01_switching_on_and_off_is_a_state_change_once():
    """CW-AUTO-01: switching a weapon on automatic is a state change (off -> on), switching it again to the state it
    is in changes nothing; a weapon the engine cannot fire (CW-VEH-06) cannot be switched on, but one that is on can
    always be switched off."""
    v = firer(weapons=[{"id": "f", "type": "MG", "mount": "front"}, {"id": "mf", "type": "Mine Flinger", "mount": "back"}])
    f = v.weapon("f")
    assert [(e.subject, e.field, e.before, e.after, e.rule) for e in set_automatic(v, f, True)] == [
        ("v f", "automatic", False, True, "CW-AUTO-01")]
    assert set_automatic(v, f, True) == [] and f.automatic
    mf = v.weapon("mf")
    with pytest.raises(RuleViolation, match="CW-VEH-06"):
        set_automatic(v, mf, True)
    assert not mf.automatic
    mf.automatic = True
    assert [(e.before, e.after) for e in set_automatic(v, mf, False)] == [(True, False)] and not mf.automatic


# --- CW-LINK-01 --------------------------------------------------------------------------------------------------

def test_cw_link_01_the_first_weapon_of_a_link_decides_which_are_aimed():
    """CW-LINK-01: non-identical linked weapons: the first weapon's kind is aimed, the others fire as if on automatic
    at whatever crosses their line. A link of rocket launcher, MG, MG (in that order) aims the rocket at the named
    target; both MGs (front-mounted) fire as if on automatic at the pedestrian on the front line."""
    weapons = [{"id": "rl", "type": "Rocket Launcher", "mount": "front"}, {"id": "mg1", "type": "MG", "mount": "front"},
               {"id": "mg2", "type": "MG", "mount": "front"}]
    v = firer(weapons=weapons, links=[{"id": "all", "weapons": ["rl", "mg1", "mg2"]}])
    a = arena(v, ped("ahead", 5, 2), ped("named", 1, 6))
    out, drops = expand_link(a, Attack("a", "v", "all", "named"), "attack")
    assert drops == []
    assert [(x.id, x.weapon, x.target, x.aim, x.as_automatic, x.link) for x in out] == [
        ("a/rl", "rl", "named", "auto", False, "all"),
        ("a/mg1", "mg1", "ahead", "auto", True, "all"),
        ("a/mg2", "mg2", "ahead", "auto", True, "all")]


def test_cw_link_01_an_attack_that_names_no_link_is_itself():
    """CW-LINK-01: a weapon that is not a link, or a pedestrian's attack, is returned as it is, nothing dropped."""
    v = firer()
    p = ped("p", 5, 2)
    a = arena(v, p)
    shot = Attack("a", "v", "f", "p")
    assert expand_link(a, shot, "attack") == ([shot], [])
    throw = Attack("g", "p", "Explosive Grenade", "v")
    assert expand_link(a, throw, "attack") == ([throw], [])


def test_cw_auto_01_a_thing_touching_the_weapons_own_point_is_nearest():
    """CW-AUTO-01 (RULING, touching counts as crossing): a building beside the front line whose corner touches the
    middle of the car's front, where the line starts ((1.5, 2), (2.5, 3), (1.5, 3)), is on the line at distance 0:
    it takes the shot before a pedestrian 3.5" along the line. (Until issue 19 it counted as on the line but
    1,000" away, so the pedestrian took the shot.)"""
    v = firer()
    touching = Building("touching", geo.Polygon(((1.5, 2.0), (2.5, 3.0), (1.5, 3.0))))
    assert automatic_target(arena(v, ped("p", 5, 2), buildings=[touching]), v, v.weapon("f")) == "touching"
    assert automatic_target(arena(v, buildings=[touching]), v, v.weapon("f")) == "touching"


def test_cw_auto_01_a_touching_corner_below_the_origin_line():
    """CW-AUTO-01: the same touching corner with the car at (1, -3), its front line along y = -3: the triangle
    (6, -3), (7, -2), (5, -2) touches it 4.5" from the weapon; a pedestrian at (5.6, -3) is entered 3.975" out and takes
    the shot; at (8, -3) the corner does."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter", "x": 1, "y": -3, "facing": 90, "speed": 0, "weapon": FOUR})
    corner = Building("corner", geo.Polygon(((6.0, -3.0), (7.0, -2.0), (5.0, -2.0))))
    assert automatic_target(arena(v, ped("p", 5.6, -3), buildings=[corner]), v, v.weapon("f")) == "p"
    assert automatic_target(arena(v, ped("p", 8, -3), buildings=[corner]), v, v.weapon("f")) == "corner"


def test_cw_auto_01_a_building_beside_the_line_is_not_on_it():
    """CW-AUTO-01: the car at (-5, 2) facing 90: its left line runs along x = -5; a building from x = -4 to -3 (y 5 to
    6), 1" to the right of the line, is not on it: nothing takes the shot. Moved to straddle the line (x from -5.5 to
    -4.5) it is, 2.75" out."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter", "x": -5, "y": 2, "facing": 90, "speed": 0, "weapon": FOUR})
    beside = Building("beside", geo.Polygon(((-4.0, 5.0), (-3.0, 5.0), (-3.0, 6.0), (-4.0, 6.0))))
    assert automatic_target(arena(v, buildings=[beside]), v, v.weapon("l")) is None
    across = Building("across", geo.Polygon(((-5.5, 5.0), (-4.5, 5.0), (-4.5, 6.0), (-5.5, 6.0))))
    assert automatic_target(arena(v, buildings=[across]), v, v.weapon("l")) == "across"
