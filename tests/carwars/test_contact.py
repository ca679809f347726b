"""FIGHT-04: when moving counters come to touch (hardpoint.carwars.contact), hand-worked and by property."""
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from hardpoint.carwars.contact import first_contact, side_facing, touching
from hardpoint.carwars.geometry import Counter


def test_fight_04_head_on_cars_touch_when_the_gap_closes():
    """FIGHT-04: two cars (1" long) 4" apart centre to centre, driving at each other 2" a phase each:
    the 3" gap closes at 4" a phase, so they touch 3/4 of the way through it, front to front."""
    a, b = Counter.car(0, 0, 0), Counter.car(0, 4, 180)
    c = first_contact(a.corners(), (0, 2), b.corners(), (0, -2))
    assert c.time == 0.75
    assert side_facing(0, c.normal) == "front" and side_facing(180, (-c.normal[0], -c.normal[1])) == "front"


def test_fight_04_rear_end_front_into_back():
    """FIGHT-04: a car 2" behind another (gap 1"), 3" a phase against 1": the gap closes at 2" a phase, t = 1/2,
    the follower's front into the leader's back."""
    a, b = Counter.car(0, 0, 0), Counter.car(0, 2, 0)
    c = first_contact(a.corners(), (0, 3), b.corners(), (0, 1))
    assert c.time == 0.5
    assert side_facing(0, c.normal) == "front" and side_facing(0, (-c.normal[0], -c.normal[1])) == "back"


def test_fight_04_t_bone_strikes_the_crossing_cars_side():
    """FIGHT-04: a car heading north into one facing east 3" ahead (its half-width 1/4"): the gap of
    3 - 1/2 - 1/4 = 2.25" closes at 3" a phase, t = 3/4; the eastbound car is struck on its right (south) side."""
    a, b = Counter.car(0, 0, 0), Counter.car(0, 3, 90)
    c = first_contact(a.corners(), (0, 3), b.corners(), (0, 0))
    assert c.time == 0.75
    assert side_facing(90, (-c.normal[0], -c.normal[1])) == "right"


def test_fight_04_cars_passing_side_by_side_never_touch():
    """FIGHT-04: two cars 1" apart side to side, driving past each other: no contact."""
    a, b = Counter.car(0, 0, 0), Counter.car(1, 3, 180)
    assert first_contact(a.corners(), (0, 5), b.corners(), (0, -5)) is None


def test_fight_04_already_touching_is_a_contact_at_the_start():
    """FIGHT-04: counters touching when the interval starts give a contact at its start (the caller skips them)."""
    a, b = Counter.car(0, 0, 0), Counter.car(0.5, 0, 0)    # side to side, edges touching
    assert touching(a.corners(), b.corners())
    c = first_contact(a.corners(), (0, 1), b.corners(), (0, 1))
    assert c is not None and c.time == 0.0


def test_fight_04_contact_after_the_interval_is_none():
    """FIGHT-04: a gap of 3" closing at 2" a phase does not close within the phase; measured from t0 = 1 with the
    counters where they are at t0, it closes at 1 + 3/2."""
    a, b = Counter.car(0, 0, 0), Counter.car(0, 4, 180)
    assert first_contact(a.corners(), (0, 1), b.corners(), (0, -1)) is None
    assert first_contact(a.corners(), (0, 1), b.corners(), (0, -1), 1.0, 2.0) is None
    c = first_contact(a.corners(), (0, 1), b.corners(), (0, -1), 1.0, 3.0)
    assert c is not None and c.time == 2.5


def _shift(poly, v, t):
    return [(x + v[0] * t, y + v[1] * t) for x, y in poly]


def _inflate(poly, eps):
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    return [(cx + (x - cx) * (1 + eps), cy + (y - cy) * (1 + eps)) for x, y in poly]


_coord = st.floats(-6, 6, allow_nan=False, width=32)
_speed = st.floats(-8, 8, allow_nan=False, width=32)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(_coord, _coord, st.floats(0, 359, width=32), _coord, _coord, st.floats(0, 359, width=32), _speed, _speed, _speed, _speed)
def test_fight_04_first_contact_is_exact(ax, ay, af, bx, by, bf, vax, vay, vbx, vby):
    """FIGHT-04: at the time reported the counters touch and never before (checked on a grid of earlier times,
    with a little slack); with no contact reported they stay apart all through the interval."""
    a, b = Counter.car(ax, ay, af).corners(), Counter.cycle(bx, by, bf).corners()
    va, vb = (vax, vay), (vbx, vby)
    c = first_contact(a, va, b, vb)
    times = [i / 64 for i in range(65)]
    if c is None:
        for t in times:
            assert not touching(_inflate(_shift(a, va, t), -1e-6), _inflate(_shift(b, vb, t), -1e-6))
        return
    assert 0.0 <= c.time <= 1.0
    assert touching(_inflate(_shift(a, va, c.time), 1e-6), _inflate(_shift(b, vb, c.time), 1e-6))
    for t in times:
        if t < c.time - 1e-9:
            assert not touching(_inflate(_shift(a, va, t), -1e-6), _inflate(_shift(b, vb, t), -1e-6))
    assert math.isfinite(c.normal[0]) and (c.normal[0], c.normal[1]) != (0.0, 0.0)
