"""Tests of hardpoint.carwars.geometry: counters, arcs (CW-ARC-01), facing sides
(CW-TGT-01), exact line of fire and range (CW-LOF-01..03), clouds (CW-LOF-04)."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardpoint.carwars.geometry import (
    Counter,
    Polygon,
    clip_to_arc,
    cloud_penalty_length,
    distance,
    facing_sides,
    line_of_fire,
    nearest_point,
    point_arcs,
    polygon_arcs,
    segment_length_inside,
)

# Derandomized: the same examples on every run, so a failure is reproducible and never flaky (issue 19).
PROPS = settings(max_examples=200, deadline=None, derandomize=True)

# --- independent helpers (not the module's own code) ---------------------------------


def place(p, psi, ox, oy):
    """Rotate a local point by psi radians (counter-clockwise) and move it to (ox, oy)."""
    c, s = math.cos(psi), math.sin(psi)
    return (ox + c * p[0] - s * p[1], oy + s * p[0] + c * p[1])


def unplace(p, psi, ox, oy):
    c, s = math.cos(psi), math.sin(psi)
    dx, dy = p[0] - ox, p[1] - oy
    return (c * dx + s * dy, -s * dx + c * dy)


def seg_dist(p, a, b):
    ex, ey = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)
    t = min(1.0, max(0.0, t))
    return math.hypot(a[0] + t * ex - p[0], a[1] + t * ey - p[1])


def dist_to_polygon(poly, p):
    """Distance from p to a closed convex polygon, by brute force over its edges."""
    vs = poly.vertices
    inside = all((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0
                 for a, b in zip(vs, vs[1:] + vs[:1]))
    if inside:
        return 0.0
    return min(seg_dist(p, a, b) for a, b in zip(vs, vs[1:] + vs[:1]))


def seg_hits(p, q, poly, offset):
    """Does segment pq meet `poly` shrunk by `offset` inches (expanded when negative)?"""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    vs = poly.vertices
    for a, b in zip(vs, vs[1:] + vs[:1]):
        ex, ey = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(ex, ey)
        nx, ny = -ey / ln, ex / ln  # inward unit normal (counter-clockwise polygon)
        f = nx * (p[0] - a[0]) + ny * (p[1] - a[1]) - offset
        g = nx * dx + ny * dy
        if g == 0.0:
            if f < 0.0:
                return False
        elif g > 0.0:
            t0 = max(t0, -f / g)
        else:
            t1 = min(t1, -f / g)
    return t0 <= t1


def bearing(p, q):
    return math.atan2(q[0] - p[0], q[1] - p[1])


# --- counters and polygons -------------------------------------------------------------


def test_corners_and_facing_conventions():
    """CW-ARC-01 conventions: corners FL, FR, BR, BL; facing 0 = +y, 90 puts the front at +x."""
    c = Counter(0.0, 0.0, 1.0, 0.5, 0.0)
    assert c.corners() == ((-0.25, 0.5), (0.25, 0.5), (0.25, -0.5), (-0.25, -0.5))
    east = Counter(0.0, 0.0, 1.0, 0.5, 90.0)
    assert east.corners() == ((0.5, 0.25), (0.5, -0.25), (-0.5, -0.25), (-0.5, 0.25))
    assert east.side_midpoint("front") == (0.5, 0.0)
    assert east.side_midpoint("right") == (0.0, -0.25)  # facing east, the driver's right is south
    assert east.side_midpoint("left") == (0.0, 0.25)
    assert east.to_local((3.0, 0.0)) == (0.0, 3.0)
    south = Counter(2.0, 1.0, 1.0, 0.5, 180.0)
    assert south.side_midpoint("front") == (2.0, 0.5)
    assert Counter.car(0, 0).length == 1.0 and Counter.car(0, 0).width == 0.5
    assert (Counter.cycle(0, 0).length, Counter.cycle(0, 0).width) == (0.5, 0.25)
    with pytest.raises(ValueError):
        c.side_midpoint("top")


@settings(max_examples=50, deadline=None, derandomize=True)
@given(st.floats(-50, 50), st.floats(-50, 50), st.floats(0, 360), st.floats(-10, 10), st.floats(-10, 10))
def test_local_world_round_trip(cx, cy, facing, x, y):
    """CW-ARC-01 frame: to_world(to_local(p)) == p; local y is the facing direction."""
    c = Counter(cx, cy, 1.0, 0.5, facing)
    back = c.to_world(c.to_local((x, y)))
    assert back == pytest.approx((x, y), abs=1e-9)
    ahead = c.to_world((0.0, 1.0))
    f = math.radians(facing)
    assert ahead == pytest.approx((cx + math.sin(f), cy + math.cos(f)), abs=1e-9)
    fl, fr, br, bl = c.corners()
    assert c.to_local(fl) == pytest.approx((-0.25, 0.5), abs=1e-9)
    assert c.to_local(br) == pytest.approx((0.25, -0.5), abs=1e-9)


def test_polygon_normalises_and_contains():
    """CW-LOF-01 shapes: either orientation accepted, stored counter-clockwise; contains() is closed."""
    cw = Polygon(((0, 0), (0, 1), (1, 1), (1, 0)))
    ccw = Polygon(((0, 0), (1, 0), (1, 1), (0, 1)))
    assert cw.area() == ccw.area() == 1.0
    assert cw.contains((1.0, 0.5)) and cw.contains((0.0, 0.0)) and not cw.contains((1.0 + 1e-12, 0.5))
    assert cw.centroid() == pytest.approx((0.5, 0.5))
    assert Polygon.box(0, 0, 2, 1).centroid() == pytest.approx((1.0, 0.5))
    for bad in [((0, 0), (1, 0)), ((0, 0), (1, 0), (2, 0)), ((0, 0), (2, 0), (1, 0.2), (1, 2))]:
        with pytest.raises(ValueError):
            Polygon(bad)
    assert nearest_point(ccw, (3.0, 0.5)) == (1.0, 0.5)
    assert nearest_point(ccw, (0.5, 0.5)) == (0.5, 0.5)
    assert distance((0, 0), (3, 4)) == 5.0


def test_cw_lof_01_convex_outline_with_vertices_a_hair_apart_is_a_polygon():
    """CW-LOF-01: a convex outline two of whose vertices are 1e-323" apart is accepted and kept as given.

    Regression (issue 19): the turn at the tiny edge was computed from products of subnormal numbers, which
    lose every significant bit, and the polygon was rejected as "not convex (it winds 1.01 times)"; its turns
    are now judged on unit edge directions.
    Source: the example hypothesis found for test_normalize_rows_never_disagrees_with_polygon (four points of the
    ellipse x = cos t, y = 2 sin t at t = 0, 5e-324, 1 and 2).
    """
    pts = ((1.0, 0.0), (1.0, 1e-323), (0.5403023058681398, 1.682941969615793), (-0.4161468365471424, 1.8185948536513634))
    assert Polygon(pts).vertices == pts
    assert Polygon(pts[::-1]).vertices == pts
    # A real dent of the same size is still refused, and so is a reflex vertex next to a tiny edge.
    with pytest.raises(ValueError, match="not convex"):
        Polygon(((0.0, 0.0), (2.0, 0.0), (1.0, 0.2), (1.0, 2.0)))
    with pytest.raises(ValueError, match="not convex"):
        Polygon(((1.0, 0.0), (1.0, 1e-323), (0.9, 0.5), (0.95, 1.0), (-1.0, 1.0)))


# --- arcs and facing sides ---------------------------------------------------------------


def test_point_arcs_each_arc_and_dividing_line():
    """CW-ARC-01: a point in each arc; a point on a dividing line is in both; inside the counter, none."""
    c = Counter(0.0, 0.0, 1.0, 0.5, 0.0)
    assert point_arcs(c, (0, 3)) == {"front"}
    assert point_arcs(c, (0, -3)) == {"back"}
    assert point_arcs(c, (3, 0)) == {"right"}
    assert point_arcs(c, (-3, 0)) == {"left"}
    assert point_arcs(c, (1.25, 1.5)) == {"front", "right"}  # |x| - w == y - h
    assert point_arcs(c, (-1.25, -1.5)) == {"back", "left"}
    assert point_arcs(c, (0.25, 0.5)) == {"front", "right"}  # the corner itself
    assert point_arcs(c, (0.0, 0.0)) == frozenset()
    east = Counter(10.0, 0.0, 1.0, 0.5, 90.0)
    assert point_arcs(east, (15.0, 0.0)) == {"front"}
    assert point_arcs(east, (10.0, -5.0)) == {"right"}


def test_arc_angle_override():
    """CW-ARC-01: the arc angle is data; 30 degrees narrows the front arc, 60 widens it."""
    c = Counter(0.0, 0.0, 1.0, 0.5, 0.0)
    assert point_arcs(c, (1.25, 1.5), 30.0) == {"right"}
    assert point_arcs(c, (1.25, 1.5), 60.0) == {"front"}
    assert point_arcs(c, (0.25, 3.0), 0.0) == {"front", "right"}
    assert point_arcs(c, (3.0, 0.6), 90.0) == {"front"}
    with pytest.raises(ValueError):
        point_arcs(c, (0, 3), 120.0)


def test_polygon_arcs_straddle_and_touch():
    """CW-ARC-01: a counter straddling or touching a dividing line is in both arcs."""
    c = Counter(0.0, 0.0, 1.0, 0.5, 0.0)
    assert polygon_arcs(c, Counter.car(0.0, 5.0)) == {"front"}
    assert polygon_arcs(c, Counter.car(5.0, 5.25)) == {"front", "right"}  # centre on the line
    touching = Polygon.box(1.0, 2.25, 2.0, 3.25)  # corner (2, 2.25) on y = x + 0.25
    assert polygon_arcs(c, touching) == {"front", "right"}
    apart = Polygon.box(1.0, 2.25 + 1e-6, 2.0 - 1e-6, 3.25)
    assert polygon_arcs(c, apart) == {"front"}
    assert polygon_arcs(c, Counter(5.0, 5.25, 1.0, 0.5, 45.0), 30.0) == {"right"}
    rotated = Counter(3.0, -2.0, 1.0, 0.5, 30.0)
    far_ahead = rotated.to_world((0.0, 10.0))
    assert polygon_arcs(rotated, Counter.car(*far_ahead)) == {"front"}


def test_clip_to_arc():
    """CW-ARC-02 / CW-ARC-01: only the part of a target inside a weapon's arc is kept."""
    c = Counter(0.0, 0.0, 1.0, 0.5, 0.0)
    part = clip_to_arc(c, "front", Polygon.box(-2.0, 1.0, 2.0, 3.0))
    assert part is not None and part.area() == pytest.approx(4 * 2 - 2 * 0.5 * 1.25 * 1.25)
    assert all(point_arcs(c, v) >= {"front"} for v in part.vertices)
    assert clip_to_arc(c, "back", Polygon.box(-2.0, 1.0, 2.0, 3.0)) is None
    assert clip_to_arc(c, "right", Polygon.box(1.0, 2.25, 2.0, 3.25)) is None  # touches only


def test_facing_sides():
    """CW-TGT-01: a firer dead ahead sees only the front; diagonally, two sides."""
    c = Counter(0.0, 0.0, 1.0, 0.5, 0.0)
    assert facing_sides(c, (0.0, 5.0)) == {"front"}
    assert facing_sides(c, (3.0, 3.0)) == {"front", "right"}
    assert facing_sides(c, (-3.0, -3.0)) == {"back", "left"}
    assert facing_sides(c, (0.25, 3.0)) == {"front"}  # on the right edge's line: not outside it
    east = Counter(0.0, 0.0, 1.0, 0.5, 90.0)
    assert facing_sides(east, (5.0, 0.0)) == {"front"}
    assert facing_sides(east, (0.0, 5.0)) == {"left"}


# --- line of fire: worked cases -------------------------------------------------------------

TARGET = Polygon.box(10.0, -1.0, 11.0, 1.0)


def test_grazing_corner_does_not_block():
    """CW-LOF-02 RULING: two blockers meeting at one corner on the line leave a zero-width gap."""
    b1 = Polygon(((5.0, 0.0), (6.0, -5.0), (4.0, -5.0)))
    b2 = Polygon(((5.0, 0.0), (4.0, 5.0), (6.0, 5.0)))
    s = line_of_fire((0.0, 0.0), TARGET, [b1, b2])
    assert s.clear and s.aim_point == (10.0, 0.0) and s.range == 10.0
    assert s.intervals == ((math.pi / 2, math.pi / 2),)
    assert s.blocked_by == (0, 1)
    # The same figure turned and moved: the shared corner still leaves the gap.
    psi, ox, oy = 0.7, 3.3, -2.1
    moved = [Polygon(tuple(place(v, psi, ox, oy) for v in p.vertices)) for p in (TARGET, b1, b2)]
    s = line_of_fire((ox, oy), moved[0], moved[1:])
    assert s.clear and s.range == pytest.approx(10.0, abs=1e-9)
    # A blocker whose edge runs along the line from the side does not block either.
    s = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(4.0, 0.0, 6.0, 5.0), Polygon.box(4.0, -5.0, 6.0, 0.0)])
    assert s.clear and s.aim_point == (10.0, 0.0)


def test_blockers_in_front_and_behind():
    """CW-LOF-01/03: a wall in front hides what it covers; range goes to the nearest visible point."""
    s = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(5.0, -0.4, 6.0, 3.0)])
    assert s.clear and s.blocked_by == (0,)
    assert s.aim_point == pytest.approx((10.0, -0.8)) and s.range == pytest.approx(math.hypot(10, 0.8))
    # Only the target's corner is left: a single visible bearing.
    corner = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(5.0, -0.5, 6.0, 3.0)])
    assert corner.aim_point == (10.0, -1.0) and len(corner.intervals) == 1
    assert corner.intervals[0][0] == corner.intervals[0][1]
    assert not line_of_fire((0.0, 0.0), TARGET, [Polygon.box(5.0, -3.0, 6.0, 3.0)]).clear
    behind = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(12.0, -3.0, 13.0, 3.0)])
    assert behind.clear and behind.blocked_by == () and behind.range == 10.0


def test_cloud_overlapping_target_partly():
    """CW-LOF-04 (lasers) / CW-LOF-02: the part of a target outside a cloud it sits in is still visible."""
    cloud = Polygon.box(9.0, -0.5, 12.0, 3.0)
    s = line_of_fire((0.0, 0.0), TARGET, [cloud])
    assert s.clear and s.blocked_by == (0,)
    assert s.aim_point == pytest.approx((10.0, -5.0 / 9.0))
    assert not line_of_fire((0.0, 0.0), TARGET, [Polygon.box(9.0, -3.0, 12.0, 3.0)]).clear
    # A cloud over the far half only: the near face is seen.
    far = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(10.5, -3.0, 12.0, 3.0)])
    assert far.clear and far.range == 10.0 and far.blocked_by == ()
    # A cloud whose front edge is the target's front edge does not hide it (entered at the same depth).
    flush = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(10.0, -3.0, 12.0, 3.0)])
    assert flush.clear and flush.range == 10.0


def test_overlapping_blocker_touching_target_corner():
    """CW-LOF-02: a blocker overlapping the target, whose edge passes through the target's nearest
    corner, hides both sides of that bearing but not the corner itself (entered at the same depth)."""
    target = Polygon.box(3.0, 1.0, 6.0, 4.0)
    wedge = Polygon(((11.0, -2.0), (2.0, 2.0), (8.0, -4.0)))
    s = line_of_fire((-3.0, -1.0), target, [wedge])
    assert s.clear and s.blocked_by == (0,)
    assert s.aim_point == (3.0, 1.0) and s.range == pytest.approx(math.sqrt(40.0))
    assert s.intervals[-1][0] == s.intervals[-1][1] == pytest.approx(math.atan2(6.0, 2.0))
    # Regression: a crossing of edge lines on the target's extreme bearing (computed an ulp off)
    # must not leave a sliver of that bearing visible.
    wall = Polygon(((6.0, -4.0), (-4.0, 2.0), (-2.0, -12.0)))
    assert not line_of_fire((0.0, 2.0), Polygon.box(-5.0, -5.0, -2.0, -1.0), [wall]).clear


def test_origin_cases():
    """CW-LOF-01: origin inside the target (range 0), inside a blocker (hidden), on a blocker's edge."""
    s = line_of_fire((10.5, 0.0), TARGET, [Polygon.box(10.2, -0.2, 10.8, 0.2)])
    assert s.clear and s.range == 0.0 and s.aim_point == (10.5, 0.0)
    s = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(-1.0, -1.0, 1.0, 1.0)])
    assert not s.clear and s.blocked_by == (0,)
    facing_away = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(-1.0, -1.0, 0.0, 1.0)])
    assert facing_away.clear and facing_away.blocked_by == ()
    assert not line_of_fire((0.0, 0.0), TARGET, [Polygon.box(0.0, -1.0, 1.0, 1.0)]).clear
    # Origin at a blocker's corner: it hides the directions into it, up to but not including its edges.
    corner = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(0.0, 0.0, 1.0, 1.0)])
    assert corner.clear and corner.blocked_by == (0,) and corner.aim_point == (10.0, 0.0)
    assert corner.intervals == ((math.pi / 2, pytest.approx(math.atan2(10.0, -1.0))),)
    # A blocker identical to the target is entered at the same depth everywhere: it hides nothing.
    same = line_of_fire((0.0, 0.0), TARGET, [TARGET])
    assert same.clear and same.blocked_by == () and same.range == 10.0


def test_intervals_wrap_past_south():
    """CW-LOF-02: bearings are clockwise from +y; a target due south gives one range across pi."""
    s = line_of_fire((0.0, 0.0), Polygon.box(-1.0, -11.0, 1.0, -10.0), [])
    (lo, hi), = s.intervals
    assert -math.pi <= lo < math.pi and lo < math.pi < hi
    assert lo == pytest.approx(math.pi - math.atan(0.1)) and hi == pytest.approx(math.pi + math.atan(0.1))
    half = line_of_fire((0.0, 0.0), Polygon.box(-1.0, -11.0, 1.0, -10.0), [Polygon.box(-3.0, -6.0, 0.0, -5.0)])
    assert half.intervals == ((pytest.approx(math.pi - math.atan(0.1)), math.pi),)
    assert half.aim_point == (0.0, -10.0)


def test_segment_length_inside_and_cloud_penalty():
    """CW-LOF-04: inches of the line inside clouds; grazing an edge counts nothing; overlaps count once."""
    cloud = Polygon.box(2.0, -0.5, 3.0, 0.5)
    assert segment_length_inside((0.0, 0.0), (5.0, 0.0), cloud) == 1.0
    assert segment_length_inside((0.0, 0.0), (2.5, 0.0), cloud) == 0.5
    assert segment_length_inside((0.0, -0.5), (5.0, -0.5), cloud) == 0.0
    assert segment_length_inside((2.0, -0.5), (3.0, 0.5), cloud) == pytest.approx(math.sqrt(2))
    assert segment_length_inside((0.0, 2.0), (5.0, 2.0), cloud) == 0.0
    other = Polygon.box(2.5, -1.0, 4.0, 1.0)
    assert cloud_penalty_length((0.0, 0.0), (5.0, 0.0), [cloud, other]) == pytest.approx(2.0)
    assert cloud_penalty_length((0.0, 0.0), (5.0, 0.0), []) == 0.0


# --- line of fire: properties -------------------------------------------------------------

sizes = st.floats(0.25, 1.5)
angles = st.floats(0.0, 2 * math.pi)
spots = st.floats(-30.0, 30.0)


def counter_poly(cx, cy, length, width, facing, psi, ox, oy):
    local = Counter(cx, cy, length, width, facing).corners()
    return Polygon(tuple(place(v, psi, ox, oy) for v in local))


@PROPS
@given(spots, spots, spots, spots, sizes, sizes, st.floats(0, 360))
def test_plain_view_range_is_distance(ox, oy, cx, cy, length, width, facing):
    """CW-LOF-01/03: with no blockers there is always LOF and range is the distance to the nearest point."""
    target = Counter(cx, cy, length, width, facing).polygon()
    s = line_of_fire((ox, oy), target, [])
    assert s.clear and s.blocked_by == ()
    assert s.range == pytest.approx(dist_to_polygon(target, (ox, oy)), abs=1e-9)
    assert target.contains(s.aim_point, tol=1e-9)
    assert distance((ox, oy), s.aim_point) == pytest.approx(s.range, abs=1e-9)


@PROPS
@given(st.floats(3.0, 20.0), sizes, sizes, st.floats(0, 360), st.floats(0.05, 0.5), st.floats(0.01, 2.0),
       angles, spots, spots)
def test_blocker_covering_target_hides_it(dist, length, width, facing, thick, margin, psi, ox, oy):
    """CW-LOF-01/02: a wall between firer and target that covers its whole bearing range hides it."""
    r = 0.5 * math.hypot(length, width)
    target = counter_poly(dist, 0.0, length, width, facing, psi, ox, oy)
    xw = dist / 2
    half = xw * r / math.sqrt(dist * dist - r * r) + margin
    corners = ((xw - thick, -half), (xw, -half), (xw, half), (xw - thick, half))
    wall = Polygon(tuple(place(v, psi, ox, oy) for v in corners))
    s = line_of_fire((ox, oy), target, [wall])
    assert not s.clear and s.aim_point is None and s.range is None and s.intervals == ()
    assert s.blocked_by == (0,)


def sector(r1, r2, a, b, psi, ox, oy):
    pts = [(r1 * math.cos(a), r1 * math.sin(a)), (r2 * math.cos(a), r2 * math.sin(a)),
           (r2 * math.cos(b), r2 * math.sin(b)), (r1 * math.cos(b), r1 * math.sin(b))]
    return Polygon(tuple(place(p, psi, ox, oy) for p in pts))


@PROPS
@given(st.floats(3.0, 15.0), sizes, sizes, st.floats(0, 360), st.floats(1e-6, 0.01), st.floats(0.02, 0.98),
       st.floats(0.1, 0.5), angles, spots, spots)
def test_narrow_gap_still_has_lof(dist, length, width, facing, gap, frac, thick, psi, ox, oy):
    """CW-LOF-02: a target seen only through a gap down to 1e-6" wide has LOF, aimed through the gap."""
    local = Counter(dist, 0.0, length, width, facing).corners()
    tlo = min(math.atan2(y, x) for x, y in local)
    thi = max(math.atan2(y, x) for x, y in local)
    r1, r2 = dist / 2 - thick, dist / 2
    delta = min(gap / r2, 0.5 * (thi - tlo))
    g1 = tlo + frac * (thi - tlo - delta)
    g2 = g1 + delta
    target = Polygon(tuple(place(v, psi, ox, oy) for v in local))
    walls = [sector(r1, r2, tlo - 0.2, g1, psi, ox, oy), sector(r1, r2, g2, thi + 0.2, psi, ox, oy)]
    s = line_of_fire((ox, oy), target, walls)
    assert s.clear and s.blocked_by == (0, 1)
    ax, ay = unplace(s.aim_point, psi, ox, oy)
    assert g1 - 1e-9 <= math.atan2(ay, ax) <= g2 + 1e-9
    assert target.contains(s.aim_point, tol=1e-9)
    assert sum(hi - lo for lo, hi in s.intervals) == pytest.approx(delta, abs=1e-9)
    assert not any(seg_hits((ox, oy), s.aim_point, w, 1e-9) for w in walls)


# Blockers scattered along the line of sight, some overlapping the target or the origin:
# (fraction of the way to the target, offset across it, size, facing).
blocker_specs = st.lists(st.tuples(st.floats(0.05, 1.2), st.floats(-2.0, 2.0), st.floats(0.2, 3.0), st.floats(0, 360)),
                         min_size=1, max_size=4)


def scene(dist, tlen, twid, tfacing, specs, psi, ox, oy):
    target = counter_poly(dist, 0.0, tlen, twid, tfacing, psi, ox, oy)
    blockers = [counter_poly(u * dist, v, size, 0.2 + abs(v) * size / 2, bf, psi, ox, oy) for u, v, size, bf in specs]
    return target, blockers


@PROPS
@given(st.floats(2.0, 15.0), sizes, sizes, st.floats(0, 360), blocker_specs, angles, spots, spots, st.integers(0, 3))
def test_blocker_order_does_not_matter(dist, tlen, twid, tfacing, specs, psi, ox, oy, shift):
    """CW-LOF-02/03: permuting the blockers changes neither LOF, range, aim point nor intervals."""
    target, blockers = scene(dist, tlen, twid, tfacing, specs, psi, ox, oy)
    n = len(blockers)
    perm = [(n - 1 - i + shift) % n for i in range(n)]  # reversed, then rotated
    a = line_of_fire((ox, oy), target, blockers)
    b = line_of_fire((ox, oy), target, [blockers[i] for i in perm])
    assert a.clear == b.clear
    assert sorted(perm[i] for i in b.blocked_by) == list(a.blocked_by)
    assert len(a.intervals) == len(b.intervals)
    for (l1, h1), (l2, h2) in zip(a.intervals, b.intervals):
        assert abs(l1 - l2) <= 1e-12 and abs(h1 - h2) <= 1e-12
    if a.clear:
        assert abs(a.range - b.range) <= 1e-12
        assert distance(a.aim_point, b.aim_point) <= 1e-12


def samples(poly):
    vs = poly.vertices
    cx, cy = poly.centroid()
    out = [(cx, cy)]
    for (ax, ay), (bx, by) in zip(vs, vs[1:] + vs[:1]):
        out += [(ax + k / 4 * (bx - ax), ay + k / 4 * (by - ay)) for k in range(4)]
        out.append((0.5 * (ax + cx), 0.5 * (ay + cy)))
    return out


@PROPS
@given(st.floats(2.0, 15.0), sizes, sizes, st.floats(0, 360), blocker_specs, angles, spots, spots)
def test_sampling_never_contradicts_exact(dist, tlen, twid, tfacing, specs, psi, ox, oy):
    """CW-LOF-01/02/03: an unblocked sampled segment implies LOF; the exact aim segment is unblocked
    and no sampled visible point is nearer than the reported range."""
    target, blockers = scene(dist, tlen, twid, tfacing, specs, psi, ox, oy)
    o = (ox, oy)
    s = line_of_fire(o, target, blockers)
    for p in samples(target):
        if not any(seg_hits(o, p, b, -1e-9) for b in blockers):
            assert s.clear
            assert s.range <= distance(o, p) + 1e-9
    if s.clear:
        assert target.contains(s.aim_point, tol=1e-9)
        assert distance(o, s.aim_point) == pytest.approx(s.range, abs=1e-9)
        if s.range > 0.0:
            assert not any(seg_hits(o, s.aim_point, b, 1e-8) for b in blockers)
    else:
        assert s.aim_point is None and s.range is None and s.blocked_by


# --- hand-worked cases added for issue 19: each fails when the rule it names is broken ----------------------

CAR = Counter(0.0, 0.0, 1.0, 0.5, 0.0)  # front-right corner (0.25, 0.5), front-left (-0.25, 0.5)


def arcs_by_hand(x, y, angle, h=0.5, w=0.25):
    """The arcs of a counter at the origin facing +y that hold the local point (x, y), worked from CW-ARC-01's
    wording: each arc lies beyond its side's edge and between the two lines through that side's corners at
    `angle` degrees to the counter's axis. Independent of geometry.py (no half-planes, no EPS)."""
    t = math.tan(math.radians(angle)) if angle < 90 else math.inf
    out = set()
    if y >= h and (abs(x) - w <= (y - h) * t):
        out.add("front")
    if y <= -h and (abs(x) - w <= (-y - h) * t):
        out.add("back")
    # at 90 degrees the corner lines are the front and back edge lines: the side arcs end there
    if x >= w and ((abs(y) <= h) if t == math.inf else (abs(y) - h) * t <= x - w):
        out.add("right")
    if x <= -w and ((abs(y) <= h) if t == math.inf else (abs(y) - h) * t <= -x - w):
        out.add("left")
    return out


@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0, 60.0, 90.0])
def test_cw_arc_01_every_arc_matches_the_hand_reading_at_every_angle(angle):
    """CW-ARC-01: on a grid of points around a car counter, each arc's membership is the hand reading of the
    rule (beyond the side's edge, between the corner lines at the data angle), for all four arcs and angles
    0, 30, 45, 60 and 90; points within 1e-6" of a dividing line are left to the tie tests.

    Source: CW-ARC-01 (arcs bounded by lines through the corners at 45 degrees, the angle being data).
    """
    t = math.tan(math.radians(angle)) if angle < 90 else math.inf
    checked = 0
    for i in range(-12, 13):
        for j in range(-12, 13):
            x, y = 0.37 * i + 0.011, 0.41 * j + 0.007
            # distance to the lines that bound the arcs, to skip ties
            near = [abs(abs(x) - 0.25), abs(abs(y) - 0.5)]
            if angle not in (0.0, 90.0):
                near += [abs((abs(x) - 0.25) - (abs(y) - 0.5) * t)]
            if min(near) < 1e-6:
                continue
            assert point_arcs(CAR, (x, y), angle) == arcs_by_hand(x, y, angle), (x, y, angle)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("facing", [0.0, 90.0, 180.0, 270.0, 33.0])
def test_cw_arc_01_dividing_lines_of_all_four_corners_are_in_both_arcs(facing):
    """CW-ARC-01: a point on the 45-degree line through any corner is in both arcs it divides, whatever the
    counter's facing; one just off the line (1e-6") is in one arc only.

    Source: CW-ARC-01: a counter that touches a dividing line is in both arcs; 45 degrees from (w, h) = (0.25, 0.5).
    """
    c = Counter(2.0, -1.0, 1.0, 0.5, facing)
    for (sx, sy), pair in {(1, 1): {"front", "right"}, (-1, 1): {"front", "left"},
                           (1, -1): {"back", "right"}, (-1, -1): {"back", "left"}}.items():
        on = c.to_world((sx * (0.25 + 2.0), sy * (0.5 + 2.0)))
        assert point_arcs(c, on) == pair
        inside_front_or_back = c.to_world((sx * (0.25 + 2.0 - 1e-6), sy * (0.5 + 2.0)))
        assert point_arcs(c, inside_front_or_back) == {"front" if sy > 0 else "back"}
        inside_side = c.to_world((sx * (0.25 + 2.0), sy * (0.5 + 2.0 - 1e-6)))
        assert point_arcs(c, inside_side) == {"right" if sx > 0 else "left"}
    with pytest.raises(ValueError, match="CW-ARC-01"):
        point_arcs(c, (0.0, 9.0), -1.0)
    with pytest.raises(ValueError, match="CW-ARC-01"):
        clip_to_arc(c, "top", Polygon.box(0, 5, 1, 6))


def test_cw_arc_01_a_long_counter_across_the_front_is_in_three_arcs():
    """CW-ARC-01: membership is judged on the whole counter: a long bar passing in front of a car from its
    left arc to its right arc is in left, front and right; a bar behind it in left, back and right; a small
    counter wholly inside one arc is in that arc only.

    Source: CW-ARC-01 ("judged by its whole counter: a counter that straddles ... is in both arcs").
    """
    assert polygon_arcs(CAR, Polygon.box(-6.0, 1.0, 6.0, 1.5)) == {"left", "front", "right"}
    assert polygon_arcs(CAR, Polygon.box(-6.0, -1.5, 6.0, -1.0)) == {"left", "back", "right"}
    assert polygon_arcs(CAR, Polygon.box(3.0, -0.2, 3.5, 0.2)) == {"right"}
    assert polygon_arcs(CAR, Polygon.box(-3.5, -0.2, -3.0, 0.2)) == {"left"}
    assert polygon_arcs(CAR, Polygon.box(-0.2, -3.5, 0.2, -3.0)) == {"back"}
    # touching the back-left dividing line y = x - 0.25 (through the corner (-0.25, -0.5)) from the left arc
    assert polygon_arcs(CAR, Polygon.box(-3.0, -2.25, -2.0, -1.0)) == {"left", "back"}
    assert polygon_arcs(CAR, Polygon.box(-3.0, -2.25 + 1e-6, -2.0 - 1e-6, -1.0)) == {"left"}


@pytest.mark.parametrize("arc,box,area", [
    ("front", (-2.0, 1.0, 2.0, 3.0), 8.0 - 2 * 0.5 * 1.25 * 1.25),  # two corner triangles cut off
    ("back", (-2.0, -3.0, 2.0, -1.0), 8.0 - 2 * 0.5 * 1.25 * 1.25),
    ("right", (1.0, -2.0, 3.0, 2.0), 8.0 - 2 * 0.5 * 1.25 * 1.25 + 0.0),
    ("left", (-3.0, -2.0, -1.0, 2.0), 8.0 - 2 * 0.5 * 1.25 * 1.25),
])
def test_cw_arc_02_the_part_of_a_target_inside_each_arc(arc, box, area):
    """CW-ARC-02: clip_to_arc keeps the part of a 4" x 2" box inside a weapon's arc, for each of the four
    arcs: the box less the two triangles beyond the dividing lines (each 1.25" on a side).

    Source: by hand: for the front arc the lines y - 0.5 = |x| - 0.25 cut the box 1 <= y <= 3, -2 <= x <= 2
    at |x| = 0.75 + (y - 1), leaving triangles with legs 1.25 at the far corners.
    """
    part = clip_to_arc(CAR, arc, Polygon.box(*box))
    assert part is not None
    if arc in ("right", "left"):
        # the side arcs: the lines are |y| - 0.5 = |x| - 0.25, cutting the box 1 <= |x| <= 3, |y| <= 2
        area = 8.0 - 2 * 0.5 * (2.0 - 0.5 - (1.0 - 0.25)) ** 2 - 0.0
    assert part.area() == pytest.approx(area, abs=1e-12)
    assert all(arc in point_arcs(CAR, v) for v in part.vertices)
    opposite = {"front": "back", "back": "front", "left": "right", "right": "left"}[arc]
    assert clip_to_arc(CAR, opposite, Polygon.box(*box)) is None


def test_cw_arc_02_a_sliver_or_a_touch_is_nothing_to_aim_at():
    """CW-ARC-02: a target that only touches the arc, or reaches into it by less than a hair (area under
    1e-12 square inch), leaves nothing to aim at; a target wholly inside the arc is returned unchanged.

    Source: clip_to_arc's contract (docs/geometry.md): None when the common part has no area.
    """
    assert clip_to_arc(CAR, "front", Polygon.box(-0.1, -0.1, 0.1, 0.5)) is None  # the counter's own front edge
    sliver = Polygon(((-1.0, 0.5 - 1e-14), (1.0, 0.5 - 1e-14), (1.0, 0.5 + 1e-13), (-1.0, 0.5 + 1e-13)))
    assert clip_to_arc(CAR, "front", sliver) is None
    whole = Polygon.box(-0.2, 2.0, 0.2, 2.5)
    kept = clip_to_arc(CAR, "front", whole)
    assert kept is not None and sorted(kept.vertices) == sorted(whole.vertices)
    assert clip_to_arc(CAR, "front", Counter.car(0.0, 5.0)).area() == pytest.approx(0.5)


@pytest.mark.parametrize("p,sides", [
    ((0.0, 0.5 + 1e-6), {"front"}), ((0.0, 0.5), set()), ((0.0, -0.5 - 1e-6), {"back"}), ((0.0, -0.5), set()),
    ((0.25 + 1e-6, 0.0), {"right"}), ((0.25, 0.0), set()), ((-0.25 - 1e-6, 0.0), {"left"}), ((-0.25, 0.0), set()),
    ((1.0, 1.0), {"front", "right"}), ((-1.0, 1.0), {"front", "left"}), ((1.0, -1.0), {"back", "right"}),
    ((-1.0, -1.0), {"back", "left"}), ((0.0, 0.0), set()),
])
def test_cw_tgt_01_a_side_faces_the_firer_only_from_outside_its_edge(p, sides):
    """CW-TGT-01: a side faces a firer who is outside that side's edge line (by more than a hair); on the
    edge line or inside the counter, it does not.

    Source: CW-TGT-01 ("the firer is on the outside of that side's edge line"); a car counter 1" x 1/2".
    """
    assert facing_sides(CAR, p) == sides
    turned = Counter(5.0, 5.0, 1.0, 0.5, 270.0)  # facing west: its front edge is x = 4.5
    assert facing_sides(turned, turned.to_world(p)) == sides


def test_cw_veh_01_counters_reject_empty_or_infinite_sizes_and_turn_exactly():
    """CW-VEH-01: a counter needs a positive length and width and finite figures; facings that are multiples
    of 90 degrees (any number of turns, negative too) give exact corners.

    Source: CW-VEH-01 counter footprints; 0 = +y, clockwise.
    """
    for bad in [dict(length=0.0), dict(width=-0.5), dict(cx=math.inf), dict(facing=math.nan), dict(cy=math.nan)]:
        kw = dict(cx=0.0, cy=0.0, length=1.0, width=0.5, facing=0.0, **{})
        kw.update(bad)
        with pytest.raises(ValueError):
            Counter(**kw)
    base = Counter(0.0, 0.0, 1.0, 0.5, 90.0).corners()
    for f in (450.0, -270.0, 810.0):
        assert Counter(0.0, 0.0, 1.0, 0.5, f).corners() == base
    assert Counter(0.0, 0.0, 1.0, 0.5, -90.0).corners() == Counter(0.0, 0.0, 1.0, 0.5, 270.0).corners()
    assert Counter(0.0, 0.0, 1.0, 0.5, 720.0).corners() == CAR.corners()
    assert Counter(0.0, 0.0, 1.0, 0.5, -1e-14).corners() == CAR.corners()  # -1e-14 + 360 rounds to 360
    assert Counter(0.0, 0.0, 1.0, 0.5, 180.0).corners() == ((0.25, -0.5), (-0.25, -0.5), (-0.25, 0.5), (0.25, 0.5))
    assert Counter.pedestrian(1.0, 2.0).polygon().area() == pytest.approx(0.0625)
    # The builders face north unless told otherwise.
    assert Counter.pedestrian(1.0, 2.0).corners() == ((0.875, 2.125), (1.125, 2.125), (1.125, 1.875), (0.875, 1.875))
    assert Counter.cycle(0.0, 0.0).corners() == ((-0.125, 0.25), (0.125, 0.25), (0.125, -0.25), (-0.125, -0.25))
    assert Counter.car(0.0, 0.0).corners() == CAR.corners()
    assert Counter(0.0, 0.0, 1.0, 0.5, 30.0).to_world((0.0, 1.0)) == pytest.approx((0.5, math.sqrt(3) / 2))
    assert Counter(0.0, 0.0, 1.0, 0.5, 30.0).side_midpoint("back") == pytest.approx((-0.25, -math.sqrt(3) / 4))


def test_cw_lof_01_polygon_outlines_repeats_windings_and_bad_vertices():
    """CW-LOF-01 shapes: repeated vertices (consecutive, or the first given again at the end) are dropped;
    a clockwise outline is stored counter-clockwise; a five-pointed star (winding twice), an outline with a
    non-finite vertex, or one with fewer than three distinct vertices is refused.

    Source: Polygon's contract (docs/geometry.md): convex, either orientation, exact repeats dropped.
    """
    sq = Polygon(((0, 0), (1, 0), (1, 0), (1, 1), (0, 1), (0, 0)))
    assert sq.vertices == ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    assert Polygon(((0, 1), (1, 1), (1, 0), (0, 0))).vertices == ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    assert Polygon(((-0.0, 0.0), (1.0, 0.0), (0.0, 1.0))).vertices[0] == (0.0, 0.0)
    assert math.copysign(1.0, Polygon(((-0.0, -0.0), (1.0, 0.0), (0.0, 1.0))).vertices[0][0]) == 1.0
    star = tuple((math.sin(4 * math.pi * k / 5), math.cos(4 * math.pi * k / 5)) for k in range(5))
    with pytest.raises(ValueError, match="not convex"):
        Polygon(star)
    with pytest.raises(ValueError, match="not finite"):
        Polygon(((0, 0), (1, 0), (math.inf, 1)))
    with pytest.raises(ValueError, match="three distinct"):
        Polygon(((0, 0), (1, 0), (1, 0), (0, 0)))
    with pytest.raises(ValueError, match="zero area"):
        Polygon(((0, 0), (1, 1), (2, 2), (1, 1.0)))
    # collinear vertices are kept
    assert len(Polygon(((0, 0), (1, 0), (2, 0), (2, 2))).vertices) == 4


def test_cw_lof_01_polygon_contains_area_and_centroid_by_hand():
    """CW-LOF-01 shapes: contains() is closed and takes a tolerance in inches; area and centroid of a right
    triangle far from the origin.

    Source: by hand: the triangle (1000, 1000), (1003, 1000), (1000, 1006) has area 9 and centroid (1001, 1002).
    """
    tri = Polygon(((1000.0, 1000.0), (1003.0, 1000.0), (1000.0, 1006.0)))
    assert tri.area() == 9.0 and tri.centroid() == pytest.approx((1001.0, 1002.0), abs=1e-9)
    sq = Polygon.box(0.0, 0.0, 1.0, 1.0)
    assert sq.contains((0.5, 1.0)) and sq.contains((1.0, 1.0)) and not sq.contains((0.5, 1.0 + 1e-9))
    assert sq.contains((0.5, 1.0 + 1e-10), tol=1e-9) and not sq.contains((0.5, 1.0 + 1e-8), tol=1e-9)
    assert sq.contains((1.0 + 1e-10, 0.5), tol=1e-9) and not sq.contains((-1e-8, 0.5), tol=1e-9)
    assert not sq.contains((2.0, 2.0), tol=0.5)


@pytest.mark.parametrize("p,expected", [((3.0, 0.5), (1.0, 0.5)), ((3.0, 3.0), (1.0, 1.0)), ((-2.0, -5.0), (0.0, 0.0)),
                                        ((0.5, -4.0), (0.5, 0.0)), ((-1.0, 0.25), (0.0, 0.25)), ((0.2, 0.3), (0.2, 0.3)),
                                        ((1.5, -0.5), (1.0, 0.0)), ((-0.5, 1.5), (0.0, 1.0))])
def test_cw_lof_03_nearest_point_of_a_square(p, expected):
    """CW-LOF-03: the nearest point of a target: a corner, a point of an edge, or the point itself inside.

    Source: by hand on the unit square.
    """
    assert nearest_point(Polygon.box(0.0, 0.0, 1.0, 1.0), p) == pytest.approx(expected, abs=1e-15)
    assert nearest_point(Counter(0.5, 0.5, 1.0, 1.0, 0.0), p) == pytest.approx(expected, abs=1e-15)


def test_cw_lof_04_cloud_crossings_by_hand():
    """CW-LOF-04: inches of the line inside clouds: a line that starts or ends inside a cloud, one that
    stops short of it, one along its edge or parallel inside it; separate clouds add, overlapping clouds
    count once, a cloud inside another adds nothing.

    Source: by hand on 1" x 1" clouds along the x axis.
    """
    a = Polygon.box(2.0, -0.5, 3.0, 0.5)
    b = Polygon.box(5.0, -0.5, 6.5, 0.5)
    assert segment_length_inside((2.5, 0.0), (10.0, 0.0), a) == 0.5  # starts inside
    assert segment_length_inside((0.0, 0.0), (2.25, 0.0), a) == 0.25  # ends inside
    assert segment_length_inside((0.0, 0.0), (1.5, 0.0), a) == 0.0  # stops short
    assert segment_length_inside((2.0, 0.2), (3.0, 0.2), a) == 1.0  # parallel to the x axis, inside
    assert segment_length_inside((2.0, 0.5), (3.0, 0.5), a) == 0.0  # along the top edge
    assert segment_length_inside((2.5, -3.0), (2.5, 3.0), Counter(2.5, 0.0, 1.0, 1.0, 0.0)) == 1.0
    assert cloud_penalty_length((0.0, 0.0), (10.0, 0.0), [a, b]) == 2.5
    assert cloud_penalty_length((0.0, 0.0), (10.0, 0.0), [b, a]) == 2.5
    inner = Polygon.box(2.2, -0.1, 2.4, 0.1)
    assert cloud_penalty_length((0.0, 0.0), (10.0, 0.0), [a, inner]) == pytest.approx(1.0)
    assert cloud_penalty_length((0.0, 0.0), (10.0, 0.0), [inner, a, b]) == pytest.approx(2.5)
    over = Polygon.box(2.5, -0.5, 5.5, 0.5)
    assert cloud_penalty_length((0.0, 0.0), (10.0, 0.0), [a, over, b]) == pytest.approx(4.5)
    assert cloud_penalty_length((0.0, 0.0), (4.0, 0.0), [b]) == 0.0


def test_cw_lof_02_two_gaps_give_two_visible_ranges_and_the_nearer_aim():
    """CW-LOF-02/03: a target seen through two gaps between three walls has two visible bearing ranges,
    ordered left to right, each bounded by a wall's extreme corner or the target's; the aim point is the
    nearest visible point; the wall whose bearings miss the target is not among those that block it.

    Source: by hand: the target's face x = 10 spans slopes y/x from -0.1 to 0.1; the walls hide slopes
    (-0.6, -0.109) (missing the target), (-0.08, 0.06) and (0.0909, 0.6): the face is seen for y in
    [-1, -0.8] and [0.6, 0.909], nearest at (10, 0.6).
    """
    walls = [Polygon.box(5.0, -3.0, 5.5, -0.6), Polygon.box(5.0, -0.4, 5.5, 0.3), Polygon.box(5.0, 0.5, 5.5, 3.0)]
    s = line_of_fire((0.0, 0.0), TARGET, walls)
    assert s.clear and s.blocked_by == (1, 2)
    assert s.intervals == (pytest.approx((math.atan2(5.5, 0.5), math.atan2(5.0, 0.3)), abs=1e-12),
                           pytest.approx((math.atan2(5.0, -0.4), math.atan2(10.0, -1.0)), abs=1e-12))
    assert s.aim_point == pytest.approx((10.0, 0.6), abs=1e-12) and s.range == pytest.approx(math.hypot(10.0, 0.6))


@pytest.mark.parametrize("target,blocker", [
    (Polygon.box(10.0, 0.0, 11.0, 1.0), Polygon.box(5.0, 0.0, 6.0, 3.0)),     # target's lower edge along the ray
    (Polygon.box(10.0, -1.0, 11.0, 0.0), Polygon.box(5.0, -3.0, 6.0, 0.0)),   # its upper edge along the ray
    (Polygon.box(-11.0, 0.0, -10.0, 1.0), Polygon.box(-6.0, 0.0, -5.0, 3.0)),  # the same due west
])
def test_cw_lof_03_only_an_edge_on_the_line_left_aims_at_its_nearer_end(target, blocker):
    """CW-LOF-02/03: when a wall leaves only the single bearing along which a target's edge runs away from
    the firer, LOF exists (grazing) and the aim point is the nearer end of that edge, 10" away, not the far one.

    Source: by hand: both ends of the edge lie on one ray from the firer; the nearer is 10" out, the far 11".
    """
    s = line_of_fire((0.0, 0.0), target, [blocker])
    assert s.clear and s.blocked_by == (0,) and len(s.intervals) == 1
    assert s.intervals[0][0] == s.intervals[0][1]
    assert s.range == 10.0 and abs(s.aim_point[0]) == 10.0 and s.aim_point[1] == 0.0


def test_cw_lof_02_blockers_across_due_south():
    """CW-LOF-02/03: bearings are cut at due south (+-pi): a blocker straddling that cut still hides the part
    of a target south-west or south-east of the firer that it covers, and a target straddling it is seen past
    a blocker that straddles due north behind the firer.

    Source: by hand: the wall spans x in [-1, 1] at y = -5 to -6; through its corner (-1, -5) the line of sight
    reaches y = -10 at x = -2, so of the target x in [-2.5, -1.5] only x <= -2 is seen, nearest at (-2, -10).
    """
    wall = Polygon.box(-1.0, -6.0, 1.0, -5.0)
    west = line_of_fire((0.0, 0.0), Polygon.box(-2.5, -11.0, -1.5, -10.0), [wall])
    assert west.clear and west.blocked_by == (0,)
    assert west.aim_point == pytest.approx((-2.0, -10.0), abs=1e-12) and west.range == pytest.approx(math.sqrt(104.0))
    assert west.intervals == (pytest.approx((math.atan2(-2.0, -10.0), math.atan2(-2.5, -10.0)), abs=1e-12),)
    east = line_of_fire((0.0, 0.0), Polygon.box(1.5, -11.0, 2.5, -10.0), [wall])
    assert east.aim_point == pytest.approx((2.0, -10.0), abs=1e-12)
    assert east.intervals == (pytest.approx((math.atan2(2.5, -10.0), math.atan2(2.0, -10.0)), abs=1e-12),)
    assert not line_of_fire((0.0, 0.0), Polygon.box(-0.5, -11.0, 0.5, -10.0), [wall]).clear
    south = line_of_fire((0.0, 0.0), Polygon.box(-1.0, -11.0, 1.0, -10.0),
                         [Polygon.box(-1.0, 5.0, 1.0, 6.0), Polygon.box(-3.0, -6.0, 0.0, -5.0)])
    assert south.clear and south.blocked_by == (1,) and south.aim_point == (0.0, -10.0)
    assert south.intervals == (pytest.approx((math.pi - math.atan(0.1), math.pi), abs=1e-12),)


def test_cw_arc_02_a_target_edge_along_the_counters_axis_and_a_hair_cut_corner():
    """CW-ARC-02: a target whose edge runs along the firer's axis keeps its full area in the arc (3.21875 sq in
    of a 2" x 2" box, a corner triangle of legs 1.25 cut off); a corner cut off by less than 1e-12" leaves one
    vertex there, not two (whether the corner comes first, in the middle or last in the outline).

    Source: by hand: box 0 <= x <= 2, 1 <= y <= 3 less the part below y = x + 0.25 (a triangle with legs 1.25).
    """
    part = clip_to_arc(CAR, "front", Polygon.box(0.0, 1.0, 2.0, 3.0))
    assert part.area() == pytest.approx(4.0 - 1.25 * 1.25 / 2, abs=1e-12) and len(part.vertices) == 5
    corner = (1.0, 1.25 - 1e-13)  # 1e-13" outside the front-right dividing line y = x + 0.25
    for pts in [((0.0, 1.0), corner, (0.0, 2.0)), (corner, (0.0, 2.0), (0.0, 1.0)), ((0.0, 2.0), (0.0, 1.0), corner)]:
        kept = clip_to_arc(CAR, "front", Polygon(pts))
        assert len(kept.vertices) == 3
        assert kept.area() == pytest.approx(0.5, abs=1e-9)


def test_cw_lof_01_firer_on_a_blockers_edge_or_corner_sees_past_it_but_not_into_it():
    """CW-LOF-01/02: a firer standing on a building's edge sees along the edge and away from it but not through
    the building; standing on its corner he sees everything but the quarter turn into it, edges included.

    Source: by hand: the firer at (0, 0) on the north edge of the building x in [-1, 1], y in [-1, 0]: every
    bearing through the south is hidden; on the north-east corner of x in [-1, 0], y in [-1, 0]: the bearings
    strictly between due south and due west are hidden.
    """
    edge = Polygon.box(-1.0, -1.0, 1.0, 0.0)
    assert not line_of_fire((0.0, 0.0), Polygon.box(-0.5, -11.0, 0.5, -10.0), [edge]).clear
    east = line_of_fire((0.0, 0.0), TARGET, [edge])
    assert east.clear and east.aim_point == (10.0, 0.0) and east.blocked_by == (0,)
    assert east.intervals == ((pytest.approx(math.atan2(10.0, 1.0)), math.pi / 2),)
    west = line_of_fire((0.0, 0.0), Polygon.box(-11.0, -1.0, -10.0, 1.0), [edge])
    assert west.clear and west.aim_point == (-10.0, 0.0)
    assert west.intervals == ((-math.pi / 2, pytest.approx(math.atan2(-10.0, 1.0))),)
    corner = Polygon.box(-1.0, -1.0, 0.0, 0.0)
    south = line_of_fire((0.0, 0.0), Polygon.box(-1.0, -11.0, 1.0, -10.0), [corner])
    assert south.clear and south.aim_point == (0.0, -10.0) and south.range == 10.0
    assert south.intervals == ((pytest.approx(math.pi - math.atan(0.1)), math.pi),)
    assert not line_of_fire((0.0, 0.0), Polygon.box(-6.0, -6.0, -5.0, -5.0), [corner]).clear
    assert line_of_fire((0.0, 0.0), Polygon.box(-11.0, -1.0, -10.0, 1.0), [corner]).aim_point == (-10.0, 0.0)
    assert line_of_fire((0.0, 0.0), Polygon.box(5.0, 5.0, 6.0, 6.0), [corner]).blocked_by == ()


def test_cw_lof_01_firer_on_a_slanted_blockers_edge_or_corner():
    """CW-LOF-01/02: the same with a building turned 45 degrees: on its edge (the line y = x) every bearing into
    it is hidden and those along or away from it are not; on its corner (edges along y = x and y = -x) the
    quarter turn between north-east and south-east is hidden, its two edges are not.

    Source: by hand: directions strictly into the building from the firer at (0, 0).
    """
    edge = Polygon(((-1.0, -1.0), (1.0, 1.0), (2.0, 0.0), (0.0, -2.0)))
    assert not line_of_fire((0.0, 0.0), Polygon.box(5.0, -6.0, 6.0, -5.0), [edge]).clear
    assert not line_of_fire((0.0, 0.0), Polygon.box(5.0, -1.0, 6.0, 1.0), [edge]).clear
    away = line_of_fire((0.0, 0.0), Polygon.box(-6.0, 5.0, -5.0, 6.0), [edge])
    assert away.clear and away.blocked_by == () and away.aim_point == (-5.0, 5.0)
    along = line_of_fire((0.0, 0.0), Polygon.box(5.0, 5.0, 6.0, 6.0), [edge])
    assert along.clear and along.blocked_by == (0,) and along.aim_point == (5.0, 5.0)
    assert along.intervals == ((pytest.approx(math.atan2(5.0, 6.0)), pytest.approx(math.pi / 4)),)
    corner = Polygon(((0.0, 0.0), (1.0, -1.0), (2.0, 0.0), (1.0, 1.0)))
    assert not line_of_fire((0.0, 0.0), Polygon.box(5.0, -1.0, 6.0, 1.0), [corner]).clear
    north = line_of_fire((0.0, 0.0), Polygon.box(5.0, 5.5, 6.0, 6.5), [corner])
    assert north.clear and north.aim_point == (5.0, 5.5) and north.blocked_by == (0,)
    assert north.intervals == ((pytest.approx(math.atan2(5.0, 6.5)), pytest.approx(math.pi / 4)),)
    south = line_of_fire((0.0, 0.0), Polygon.box(5.0, -6.0, 6.0, -5.0), [corner])
    assert south.clear and south.aim_point == (5.0, -5.0)
    assert south.intervals == ((pytest.approx(3 * math.pi / 4), pytest.approx(math.atan2(5.0, -6.0))),)
    assert line_of_fire((0.0, 0.0), Polygon.box(-6.0, -1.0, -5.0, 1.0), [corner]).blocked_by == ()


def test_cw_lof_02_a_target_due_south_seen_only_west_of_south():
    """CW-LOF-02: bearings run from -pi to pi: the visible part of a target straddling due south that lies west
    of it is reported from -pi, not beyond pi.

    Source: by hand: the wall x in [0, 3] at y = -5 to -6 hides the target's half x > 0; the rest, x in [-1, 0]
    at y = -10, is seen at bearings from due south (-pi) to -pi + atan(0.1), nearest at (0, -10).
    """
    s = line_of_fire((0.0, 0.0), Polygon.box(-1.0, -11.0, 1.0, -10.0), [Polygon.box(0.0, -6.0, 3.0, -5.0)])
    assert s.clear and s.aim_point == (0.0, -10.0) and s.range == 10.0
    assert s.intervals == ((-math.pi, pytest.approx(-math.pi + math.atan(0.1))),)


def test_cw_lof_02_a_blocker_overlapping_the_target_whose_front_edge_crosses_its_face():
    """CW-LOF-02/03: a cloud or wall that overlaps the target hides it only where the line meets the blocker
    first: a triangle whose near edge crosses the target's near face at (10, 0.4) hides the face below that
    point and leaves the part above it, nearest at (10, 0.4) itself (both entered at the same depth there);
    its mirror image hides the part above and leaves the rest, nearest at (10, 0).

    Source: by hand: the triangle's near edge runs from (9.5, -1.6) to (10.5, 2.4), meeting x = 10 at y = 0.4;
    below, it is nearer than the face, above, farther.
    """
    wedge = Polygon(((9.5, -1.6), (12.0, -1.6), (10.5, 2.4)))
    s = line_of_fire((0.0, 0.0), TARGET, [wedge])
    assert s.clear and s.blocked_by == (0,)
    assert s.aim_point == pytest.approx((10.0, 0.4), abs=1e-12) and s.range == pytest.approx(math.hypot(10.0, 0.4))
    assert s.intervals == ((pytest.approx(math.atan2(10.0, 1.0)), pytest.approx(math.atan2(10.0, 0.4))),)
    mirror = Polygon(((9.5, 2.4), (10.5, -1.6), (12.0, 2.4)))
    m = line_of_fire((0.0, 0.0), TARGET, [mirror])
    assert m.clear and m.aim_point == (10.0, 0.0) and m.range == 10.0
    assert m.intervals == ((pytest.approx(math.atan2(10.0, 0.4)), pytest.approx(math.atan2(10.0, -1.0))),)


def test_cw_lof_01_a_blocker_just_behind_a_slanted_target_hides_nothing():
    """CW-LOF-01: a building just behind a target (a diamond-shaped counter) and to one side, separated from it
    only along the target's own slanted edge, hides nothing: the whole target is seen, nearest at its tip.

    Source: by hand: the diamond's edge x + y = 11 has the box x in [10.8, 11.8], y in [0.8, 1.8] wholly beyond
    it (x + y >= 11.6), while the box's own sides leave the two overlapping in x and in y.
    """
    diamond = Polygon(((9.0, 0.0), (10.0, -1.0), (11.0, 0.0), (10.0, 1.0)))
    for box in (Polygon.box(10.8, 0.8, 11.8, 1.8), Polygon.box(10.8, -1.8, 11.8, -0.8)):
        s = line_of_fire((0.0, 0.0), diamond, [box])
        assert s.clear and s.blocked_by == () and s.aim_point == (9.0, 0.0)
        assert s.intervals == ((pytest.approx(math.atan2(10.0, 1.0)), pytest.approx(math.atan2(10.0, -1.0))),)


def test_cw_lof_03_a_firer_within_a_billionth_of_an_inch_touches_the_target():
    """CW-LOF-03 (docs/geometry.md, EPS = 1e-9"): a firer exactly 1e-9" from the target's edge counts as touching
    it (range 0, aimed where he stands); at 2e-9" he does not (range 2e-9", aimed at the edge).

    Source: docs/geometry.md's edge cases: origin inside or on the target within EPS gives range 0.
    """
    touching = line_of_fire((0.0, 0.0), Polygon.box(1e-9, -1.0, 1.0, 1.0), [])
    assert touching.clear and touching.range == 0.0 and touching.aim_point == (0.0, 0.0)
    apart = line_of_fire((0.0, 0.0), Polygon.box(2e-9, -1.0, 1.0, 1.0), [])
    assert apart.range == 2e-9 and apart.aim_point == (2e-9, 0.0)


def test_cw_lof_03_a_wall_overlapping_the_targets_near_face_leaves_the_aim_at_its_corner_line():
    """CW-LOF-02/03: a wall that overlaps the lower part of the target, its top corner (9.5, 0.2) in front of the
    target's face, hides everything below the line of sight through that corner: the nearest visible point is
    where that line meets the face, (10, 0.2 * 10 / 9.5); the mirror image leaves (10, -0.2 * 10 / 9.5).

    Source: by hand: the line of sight through (9.5, 0.2) reaches x = 10 at y = 4/19.
    """
    low = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(9.5, -3.0, 10.5, 0.2)])
    assert low.clear and low.blocked_by == (0,)
    assert low.aim_point == pytest.approx((10.0, 4.0 / 19.0), abs=1e-12)
    assert low.intervals == ((pytest.approx(math.atan2(10.0, 1.0)), pytest.approx(math.atan2(9.5, 0.2))),)
    high = line_of_fire((0.0, 0.0), TARGET, [Polygon.box(9.5, -0.2, 10.5, 3.0)])
    assert high.aim_point == pytest.approx((10.0, -4.0 / 19.0), abs=1e-12)
    assert high.intervals == ((pytest.approx(math.atan2(9.5, -0.2)), pytest.approx(math.atan2(10.0, -1.0))),)


def test_cw_arc_01_a_point_inside_the_counter_near_its_side_is_in_no_arc():
    """CW-ARC-01: the right arc begins at the right side's edge line (x = w = 0.25" in the car's frame), not
    before it: a point inside the car 0.05" short of that edge, level with its centre, is in no arc, and so is a
    small box inside the car beside that edge (both are within the 45-degree lines through the right corners, so
    only the edge line keeps them out).

    Source: CW-ARC-01 (arcs bounded by the side's edge and the lines through its corners; a point inside the
    counter is in no arc, docs/geometry.md).
    """
    assert point_arcs(CAR, (0.2, 0.0)) == frozenset()
    assert polygon_arcs(CAR, Polygon.box(0.1, -0.1, 0.2, 0.1)) == frozenset()
    assert point_arcs(CAR, (0.3, 0.0)) == {"right"}


def test_cw_lof_03_nearest_point_ties_keep_the_first_in_vertex_order():
    """CW-LOF-03: of two boundary points at the same computed distance, the nearest-point search keeps the first
    it meets, walking the edges in the polygon's vertex order (so the reference and the kernel that transcribes it
    pick the same aim point, ARCH-03).

    Source: by hand: seen from the origin, the quadrilateral (3, 0), (3, 2), (1, 1e-8), (1, 0) has the vertices
    (1, 1e-8) and (1, 0) at squared distances 1 + 1e-16 and 1, which are the same float (1e-16 is under half an
    ulp of 1); the edge (3, 2)-(1, 1e-8) meets (1, 1e-8) first, and the later edges only tie with it.
    """
    quad = Polygon(((3.0, 0.0), (3.0, 2.0), (1.0, 1e-8), (1.0, 0.0)))
    assert 1.0 + 1e-8 * 1e-8 == 1.0
    assert nearest_point(quad, (0.0, 0.0)) == (1.0, 1e-8)


def test_cw_lof_01_a_blocker_overlapping_the_far_side_of_the_target_blocks_nothing():
    """CW-LOF-01: a building that overlaps only the far half of the target, and whose bearings lie strictly
    inside the target's, is entered behind the target's near face on every bearing: it hides nothing and is not
    among the blockers; the target is seen whole, nearest at (0, 10).

    Source: by hand: the target is the box x in [-2, 2], y in [10, 12] (bearings +-atan(2/10)); the building
    x in [-0.5, 0.5], y in [11, 13] is entered at y = 11 or beyond, the target at y = 10.
    """
    s = line_of_fire((0.0, 0.0), Polygon.box(-2.0, 10.0, 2.0, 12.0), [Polygon.box(-0.5, 11.0, 0.5, 13.0)])
    assert s.clear and s.blocked_by == ()
    assert s.aim_point == (0.0, 10.0) and s.range == 10.0
    assert s.intervals == ((pytest.approx(-math.atan2(2.0, 10.0)), pytest.approx(math.atan2(2.0, 10.0))),)


def test_cw_lof_03_a_target_seen_only_along_its_extreme_bearing_is_aimed_at_that_vertex():
    """CW-LOF-02/03: a building in front of the target covers every bearing of the target but due north, along
    which it only grazes the building's west edge (x = 0): the line of fire is that one bearing, and the aim point
    is where it meets the target, the target's vertex (0, 12), range 12 (not the target's nearest point (2, 10),
    which is hidden).

    Source: by hand: the target (0, 12), (2, 10), (3, 11), (0, 14) spans bearings 0 to atan(3/11); the building
    x in [0, 3], y in [4, 5] spans 0 to atan(3/4) and is wholly in front; bearing 0 grazes it (RULING, CW-LOF-02).
    """
    target = Polygon(((0.0, 12.0), (2.0, 10.0), (3.0, 11.0), (0.0, 14.0)))
    s = line_of_fire((0.0, 0.0), target, [Polygon.box(0.0, 4.0, 3.0, 5.0)])
    assert s.clear and s.blocked_by == (0,)
    assert s.intervals == ((0.0, 0.0),)
    assert s.aim_point == (0.0, 12.0) and s.range == 12.0


def test_cw_lof_02_a_blocker_entered_just_past_its_corner_on_the_targets_edge_ray_hides_that_ray():
    """CW-LOF-02: a triangular building overlapping the target has a corner on the line of sight to the target's
    right-hand extreme corner (4.5, 4), 0.9 of the way, and its inside begins right after that corner along the
    line: that edge ray is hidden (grazing the corner alone would not block, but the line goes on into the
    building). The visible bearings are one range, from the target's left corner (3.5, 6) to where the building's
    near edge crosses the target's near face y = 4, at x = 4.05 + 0.45 * 0.4 / 1.9 = 78.75 / 19; no sliver of the
    edge ray is left visible (a test ray there misses the target by rounding, and is judged on the extreme corner
    it is next to, which is hidden, not on the far one). The nearest point (3.5, 4) is seen.

    Source: by hand: the building (6, 4), (4.5, 5.5), (4.05, 3.6); from its corner (4.05, 3.6) its edges leave at
    bearings of 11.6 and 76.7 degrees from the x axis, the line of sight at 41.6, between them.
    """
    target = Polygon.box(3.5, 4.0, 4.5, 6.0)
    s = line_of_fire((0.0, 0.0), target, [Polygon(((6.0, 4.0), (4.5, 5.5), (4.05, 3.6)))])
    assert s.clear and s.blocked_by == (0,)
    assert len(s.intervals) == 1
    assert s.intervals[0] == (pytest.approx(math.atan2(3.5, 6.0)), pytest.approx(math.atan2(78.75 / 19.0, 4.0)))
    assert s.aim_point == (3.5, 4.0) and s.range == math.sqrt(28.25)


def test_cw_lof_03_a_sliver_at_the_targets_edge_ray_is_aimed_at_the_targets_corner():
    """CW-LOF-03: a building in front of the target hides every bearing of it but a sliver (two adjacent floats)
    at its right-hand edge ray, the line of sight to its corner (1, 10): the building's corner sits on that line to
    rounding. The target's far edge from (1, 10) to (2 - 1e-9, 20) runs within 1e-10 radian of that line, so the
    ray along the building's corner misses the target by rounding (its entry and exit depths cross by more than
    the 1e-9 relative allowance): that ray gives no aim point, and the aim is the target's corner itself, (1, 10)
    exactly, range sqrt(101).

    Source: by hand: both corners are on the line x = y / 10; the rest of the target is hidden (RULING: a line
    grazing the building's corner is not blocked, CW-LOF-02).
    """
    target = Polygon(((0.0, 10.0), (1.0, 10.0), (2.0 - 1e-9, 20.0), (0.0, 20.0)))
    building = Polygon(((-2.0, 0.5), (0.4145747912019242, 4.145747912019242), (-2.0, 4.145747912019242)))
    s = line_of_fire((0.0, 0.0), target, [building])
    assert s.clear and s.blocked_by == (0,)
    assert len(s.intervals) == 1 and s.intervals[0][1] == math.atan2(1.0, 10.0)
    assert s.intervals[0][1] - s.intervals[0][0] < 1e-16
    assert s.aim_point == (1.0, 10.0) and s.range == math.sqrt(101.0)
