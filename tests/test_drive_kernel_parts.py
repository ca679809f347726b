"""The compiled driver's parts agree with the reference bit for bit (issue 34; CW-ARC-01/02, CW-TGT-01, CW-LOF-03,
FIGHT-04, FIGHT-07, FIGHT-08, FIGHT-09).

Each `cdef inline` function of fastcore/_cwgeom.pxd and fastcore/_cwdrive.pxd, called through its wrapper in
fastcore/_cwcheck.pyx, is compared with the reference function it transcribes (geometry.py, contact.py,
driving.py, motion.py, turn.py, handling.py) on thousands of seeded random inputs: every double equal with its bit
pattern (0.0 is not -0.0), every int, mask and index equal. Then the standing driver's decisions (choose_maneuver,
choose_speed) end to end, on random arenas and on the arenas of real fights the reference runs.
"""
import math
import random
import struct

import pytest

import hardpoint
from hardpoint.carwars import contact, geometry as geo

K = pytest.importorskip("hardpoint.fastcore._cwcheck")

RULES = hardpoint.default_rules()
ARC = RULES["carwars.bodies"]["arcs"]["angle"]
DESIGNS = list(RULES["carwars.designs"]["design"])
OK, NONE, UNSURE = 0, 1, 2


# --- comparing ----------------------------------------------------------------------------------------------------------

def same(a, b) -> bool:
    """Bit for bit: floats by their bit pattern, ints, bools and None by value, sequences item by item."""
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    if isinstance(a, float) or isinstance(b, float):
        return False
    return a == b


def check(cases, name, ref, got) -> None:
    """Asserts a case agrees, naming the function and the input."""
    assert same(ref, got), f"{name}{cases!r}: reference {ref!r}, kernel {got!r}"


def mask(names) -> int:
    """A frozenset of arc or side names as the kernel's bitmask (front 0, back 1, left 2, right 3)."""
    return sum(1 << geo.ARCS.index(n) for n in names)


# --- random inputs (seeded) -------------------------------------------------------------------------------------------

def _design_sizes() -> list:
    data = {"scenario": {"name": "sizes", "ruleset": "carwars"},
            "vehicle": [{"id": d, "design": d, "x": 3.0 * i, "y": 0.0} for i, d in enumerate(DESIGNS)]}
    arena = hardpoint.parse_scenario(data).arena
    return sorted({(v.counter.length, v.counter.width) for v in arena.vehicles.values()}) + [(0.25, 0.25)]


SIZES = _design_sizes()
SPECIAL_ANGLES = [0.0, -0.0, 15.0, 45.0, 90.0, 180.0, 270.0, 360.0, -90.0, -360.0, 720.0, 345.0, 1e-13, -1e-13,
                  359.99999999999994, 89.99999999999999, 90.00000000000001]


def angle(rng) -> float:
    """A facing: often an exact multiple of 15 or 90 degrees, sometimes a special value, else anything."""
    r = rng.random()
    if r < 0.3:
        return 15.0 * rng.randint(-48, 48)
    if r < 0.45:
        return 90.0 * rng.randint(-8, 8)
    if r < 0.5:
        return rng.choice(SPECIAL_ANGLES)
    return rng.uniform(-720.0, 720.0)


def coord(rng) -> float:
    """A coordinate at one of several scales (to the arena's 10,000 inches), or a quarter inch, or -0.0."""
    r = rng.random()
    if r < 0.15:
        return rng.randint(-40, 40) * 0.25
    if r < 0.2:
        return -0.0
    return rng.uniform(-1.0, 1.0) * rng.choice([1.0, 5.0, 50.0, 1000.0, 10000.0])


def counter(rng, at=None) -> tuple:
    """A counter (cx, cy, length, width, facing): a stock body's size or a pedestrian's, sometimes any size."""
    length, width = rng.choice(SIZES) if rng.random() < 0.85 else (rng.uniform(0.05, 3.0), rng.uniform(0.05, 3.0))
    cx, cy = at if at is not None else (coord(rng), coord(rng))
    return (cx, cy, length, width, angle(rng))


def near(rng, c, spread=2.0) -> tuple:
    """A point near counter c: random, or one of its corners or side midpoints exactly, or on a line from a corner."""
    k = geo.Counter(*c)
    r = rng.random()
    if r < 0.15:
        return rng.choice(k.corners())
    if r < 0.25:
        return k.side_midpoint(rng.choice(geo.SIDES))
    if r < 0.35:
        s, co = geo._sincos_deg(rng.choice([ARC, 45.0, 30.0]))
        px, py = rng.choice(k.corners())
        t = rng.uniform(0.0, spread)
        return (px + t * s, py + t * co)
    return (c[0] + rng.uniform(-spread, spread), c[1] + rng.uniform(-spread, spread))


def other_counter(rng, c) -> tuple:
    """A second counter near c: far, near, touching it edge to edge (exactly, at quarter turns), or overlapping."""
    r = rng.random()
    if r < 0.15:
        return counter(rng)
    if r < 0.35:
        return counter(rng, near(rng, c, 3.0))
    if r < 0.55:
        return counter(rng, (c[0] + rng.uniform(-0.5, 0.5), c[1] + rng.uniform(-0.5, 0.5)))
    # edge to edge at a quarter turn, on quarter-inch coordinates: exact corners, exact contact
    q = 90.0 * rng.randint(0, 3)
    length, width = rng.choice(SIZES)
    a = (rng.randint(-40, 40) * 0.25, rng.randint(-40, 40) * 0.25, c[2], c[3], q)
    s, co = geo._sincos_deg(q)
    along = rng.choice([(a[2] + length) / 2, (a[3] + width) / 2, (a[2] + width) / 2])
    side = rng.choice([1.0, -1.0])
    return (a[0] + side * along * s + rng.choice([0.0, 0.25]) * co, a[1] + side * along * co, length, width,
            q + 90.0 * rng.randint(0, 1))


def polygon_points(rng) -> list:
    """Vertex lists for Polygon: counters' corners either way round, from any start, with repeats, collinear points,
    non-convex outlines, slivers and clip results."""
    c = counter(rng)
    pts = list(geo.Counter(*c).corners())
    r = rng.random()
    if r < 0.2:
        pts.reverse()
    elif r < 0.3:
        i = rng.randrange(4)
        pts.insert(i, pts[i])                                    # an exact repeat
    elif r < 0.35:
        pts.append(pts[0])                                       # closed
    elif r < 0.45:
        (ax, ay), (bx, by) = pts[0], pts[1]
        pts.insert(1, ((ax + bx) / 2, (ay + by) / 2))           # collinear
    elif r < 0.5:
        pts = [pts[0], pts[2], pts[1], pts[3]]                  # crossed: not convex
    elif r < 0.55:
        pts = [pts[0], pts[1], pts[0]]                          # two distinct
    elif r < 0.6:
        (ax, ay), (bx, by) = pts[0], pts[1]
        pts = [(ax, ay), (bx, by), (2 * bx - ax, 2 * by - ay)]   # zero area
    elif r < 0.65:
        cx, cy = c[0], c[1]
        pts.insert(2, (cx, cy))                                  # dented: not convex
    elif r < 0.8:
        poly = geo.clip_to_arc(geo.Counter(*counter(rng, near(rng, c))), rng.choice(geo.ARCS), geo.Counter(*c))
        if poly is not None:
            pts = list(poly.vertices)
    k = rng.randrange(len(pts))
    return pts[k:] + pts[:k]


def reference_polygon(pts):
    try:
        return geo.Polygon(tuple(pts))
    except ValueError:
        return None


# --- geometry.py (CW-ARC-01/02, CW-TGT-01, CW-LOF-03) ------------------------------------------------------------------

def test_sincos_deg_agrees_bit_for_bit():
    """geometry._sincos_deg: 5,000 angles, the exact quarter turns among them."""
    rng = random.Random(1)
    angles = SPECIAL_ANGLES + [angle(rng) for _ in range(5000)]
    for a in angles:
        check((a,), "sincos_deg", geo._sincos_deg(a), K.sincos_deg(a))


def test_counter_frames_corners_and_side_midpoints_agree():
    """Counter.to_local, to_world, corners, side_midpoint: 4,000 counters, a point each way and each side."""
    rng = random.Random(2)
    for _ in range(4000):
        c = counter(rng)
        k = geo.Counter(*c)
        p = near(rng, c, rng.choice([1.0, 50.0]))
        check((c, p), "to_local", k.to_local(p), K.to_local(c, *p))
        check((c, p), "to_world", k.to_world(p), K.to_world(c, *p))
        check((c,), "corners", list(k.corners()), K.corners(c))
        for i, side in enumerate(geo.SIDES):
            check((c, side), "side_midpoint", k.side_midpoint(side), K.side_midpoint(c, i))


def arc_angle(rng) -> float:
    return rng.choice([ARC, ARC, 0.0, 90.0, 15.0 * rng.randint(0, 6), rng.uniform(0.0, 90.0)])


def test_arcs_and_facing_sides_of_points_agree():
    """CW-ARC-01, CW-TGT-01: _arc_halfplanes, point_arcs and facing_sides: 4,000 counters and points near them, on
    their corners, side midpoints and the arcs' dividing lines."""
    rng = random.Random(3)
    for _ in range(4000):
        c, a = counter(rng), arc_angle(rng)
        k = geo.Counter(*c)
        p = near(rng, c)
        for i, arc in enumerate(geo.ARCS):
            check((c, arc, a), "arc_halfplanes", geo._arc_halfplanes(k, arc, a), K.arc_halfplanes(c, i, a))
        check((c, p, a), "point_arcs", mask(geo.point_arcs(k, p, a)), K.point_arcs(c, *p, a))
        check((c, p), "facing_sides", mask(geo.facing_sides(k, p)), K.facing_sides(c, *p))


def test_clip_agrees():
    """geometry._clip (Sutherland-Hodgman): 4,000 polygons and half-planes through them, with and without slack."""
    rng = random.Random(4)
    for _ in range(4000):
        c = counter(rng)
        k = geo.Counter(*c)
        pts = [k.to_local(v) for v in geo.Counter(*other_counter(rng, c)).corners()]
        hp = rng.choice(geo._arc_halfplanes(k, rng.choice(geo.ARCS), arc_angle(rng)))
        if rng.random() < 0.3:
            hp = (rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-2, 2))
        slack = rng.choice([geo.EPS, 0.0])
        check((pts, hp, slack), "clip", geo._clip(pts, *hp, slack), K.clip(pts, *hp, slack))


def test_polygon_stores_vertices_as_the_reference_or_says_unsure():
    """Polygon.__post_init__: 4,000 vertex lists. Where the reference stores the polygon the kernel stores the same
    vertices (+0.0, repeats dropped, counter-clockwise); where it raises (zero area, too few vertices, not convex)
    the kernel says CW_UNSURE; here it never says so of a polygon the reference accepts."""
    rng = random.Random(5)
    raised = 0
    for _ in range(4000):
        pts = polygon_points(rng)
        poly = reference_polygon(pts)
        status, got = K.polygon(pts)
        if poly is None:
            raised += 1
            check((pts,), "polygon", UNSURE, status)
        else:
            check((pts,), "polygon", (OK, list(poly.vertices)), (status, got))
    assert raised > 300


def test_polygon_within_a_rounding_of_the_convexity_tolerance_is_unsure():
    """A dent of 0.175e-9" in the middle of a 1" edge turns it by -0.7e-9 (4 x the dent): the reference accepts it (its
    tolerance is 1e-9), the kernel leaves it to the reference (its margin is half that) rather than trust its own
    hypot there."""
    pts = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.5, 1.0 - 0.175e-9), (0.0, 1.0)]
    assert geo.Polygon(tuple(pts)).vertices == tuple(pts)
    assert K.polygon(pts) == (UNSURE, None)


def test_polygon_arcs_and_clip_to_arc_agree():
    """CW-ARC-01/02: polygon_arcs and clip_to_arc of 4,000 counter pairs (far, near, touching edge to edge,
    overlapping) at arc angles 0-90; clip_to_arc's None is CW_NONE, a Polygon.__post_init__ that raises CW_UNSURE."""
    rng = random.Random(6)
    unsure = 0
    for _ in range(4000):
        c, a = counter(rng), arc_angle(rng)
        k, t = geo.Counter(*c), geo.Counter(*other_counter(rng, c))
        verts = list(t.polygon().vertices)
        check((c, t, a), "polygon_arcs", mask(geo.polygon_arcs(k, t, a)), K.polygon_arcs(c, verts, a))
        for i, arc in enumerate(geo.ARCS):
            ref = geo.clip_to_arc(k, arc, t, a)
            status, got = K.clip_to_arc(c, i, verts, a)
            if status == UNSURE:
                unsure += 1
                check((c, t, arc, a), "clip_to_arc", None, ref)
            else:
                check((c, t, arc, a), "clip_to_arc", (NONE, None) if ref is None else (OK, list(ref.vertices)),
                      (status, got))
    assert unsure < 40


def test_nearest_points_and_distances_agree():
    """CW-LOF-03: Polygon.contains (with and without a tolerance), _nearest_on_boundary, nearest_point, distance and
    Counter.polygon: 4,000 counters and points in, on and near them."""
    rng = random.Random(7)
    for _ in range(4000):
        c = counter(rng)
        poly = geo.Counter(*c).polygon()
        verts = list(poly.vertices)
        p = near(rng, c, rng.choice([0.5, 3.0]))
        tol = rng.choice([0.0, 0.0, 1e-9, 0.1])
        check((c,), "counter_polygon", (OK, verts), K.counter_polygon(c))
        check((c, p, tol), "contains", poly.contains(p, tol), K.contains(verts, *p, tol))
        rel = ([v[0] - p[0] for v in verts], [v[1] - p[1] for v in verts])
        check((c, p), "nearest_on_boundary", (OK, *geo._nearest_on_boundary(*rel)),
              K.nearest_on_boundary(list(zip(*rel))))
        check((c, p), "nearest_point", (OK, *geo.nearest_point(poly, p)), K.nearest_point(verts, *p))
        q = near(rng, c, 50.0)
        check((p, q), "distance", geo.distance(p, q), K.distance(p, q))


# --- contact.py (FIGHT-04) --------------------------------------------------------------------------------------------

def velocity(rng) -> tuple:
    r = rng.random()
    if r < 0.2:
        return (0.0, 0.0)
    if r < 0.5:
        s, c = geo._sincos_deg(angle(rng))
        v = rng.choice([0.5, 1.0, 3.0, 12.0])
        return (v * s, v * c)
    return (rng.uniform(-10, 10), rng.uniform(-10, 10))


def contact_shapes(rng) -> tuple:
    """Two outlines as contact.py gets them: counters' corners (raw), sometimes a building's stored vertices, a
    degenerate one, or a shape of more vertices."""
    c = counter(rng)
    a = list(geo.Counter(*c).corners())
    b = list(geo.Counter(*other_counter(rng, c)).corners())
    r = rng.random()
    if r < 0.1:
        b = list(geo.Counter(*other_counter(rng, c)).polygon().vertices)
    elif r < 0.15:
        b = b[:1] + b                                           # a zero edge: no axis of its own
    elif r < 0.2:
        b = [(c[0] + 3 * math.cos(t / 7 * math.tau), c[1] + 3 * math.sin(t / 7 * math.tau)) for t in range(7)]
    return a, b


def test_axes_projections_and_centres_agree():
    """contact._axes, _project, _centre (and sum(): Python 3.12's compensated sum where it applies): 4,000 shapes."""
    rng = random.Random(8)
    for _ in range(4000):
        a, b = contact_shapes(rng)
        axes = contact._axes(b)
        check((b,), "axes", axes, K.axes(b))
        ax = rng.choice(axes) if axes else (0.0, 1.0)
        check((a, ax), "project", contact._project(a, *ax), K.project(a, *ax))
        check((b,), "centre", contact._centre(b), K.centre(b))
        xs = [rng.uniform(-1, 1) * 10 ** rng.randint(-3, 16) for _ in range(rng.randint(1, 8))]
        check((xs,), "sum", sum(xs), K.pysum(xs))


def test_touching_first_contact_and_side_facing_agree():
    """FIGHT-04: touching, first_contact (time and oriented normal, or none) and side_facing: 6,000 pairs moving
    or still, touching, overlapping and apart, over [0, 1] and other intervals."""
    rng = random.Random(9)
    found = 0
    for _ in range(6000):
        a, b = contact_shapes(rng)
        va, vb = velocity(rng), velocity(rng)
        t0, t1 = rng.choice([(0.0, 1.0), (0.0, 1.0), (0.25, 1.0), (rng.uniform(0, 1), 1.0)])
        check((a, b), "touching", contact.touching(a, b), K.touching(a, b))
        ref = contact.first_contact(a, va, b, vb, t0, t1)
        ref = None if ref is None else (ref.time, ref.normal)
        found += ref is not None
        check((a, va, b, vb, t0, t1), "first_contact", ref, K.first_contact(a, va, b, vb, t0, t1))
        f = angle(rng)
        d = rng.choice([ref[1] if ref else va, velocity(rng), (1.0, 1.0), (-1.0, 0.0)])
        check((f, d), "side_facing", geo.SIDES.index(contact.side_facing(f, d)), K.side_facing(f, d))
    assert found > 1000
