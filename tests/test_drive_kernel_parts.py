"""The compiled driver's parts agree with the reference bit for bit (issue 34; CW-ARC-01/02, CW-TGT-01, CW-LOF-03,
FIGHT-04, FIGHT-07, FIGHT-08, FIGHT-09).

Each `cdef inline` function of fastcore/_cwgeom.pxd and fastcore/_cwdrive.pxd, called through its wrapper in
fastcore/_cwcheck.pyx, is compared with the reference function it transcribes (geometry.py, contact.py,
driving.py, motion.py, turn.py, handling.py) on thousands of seeded random inputs: every double equal with its bit
pattern (0.0 is not -0.0), every int, mask and index equal. Then the standing driver's decisions (choose_maneuver,
choose_speed) end to end, on random arenas and on the arenas of real fights the reference runs.
"""
import copy
import math
import random

import pytest

import hardpoint
from hardpoint.carwars import contact, driving, geometry as geo, handling, motion, turn
from hardpoint.carwars.driving import MANEUVER_KINDS, TACTICS

from .drive_kernel_pack import pack_arena, pack_counter, pack_order, pack_rules, same, unit_index

K = pytest.importorskip("hardpoint.fastcore._cwcheck")

RULES = hardpoint.default_rules()
ARC = RULES["carwars.bodies"]["arcs"]["angle"]
DESIGNS = list(RULES["carwars.designs"]["design"])
OK, NONE, UNSURE = 0, 1, 2


# --- comparing ----------------------------------------------------------------------------------------------------------

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
        s, co = geo.sincos_deg(rng.choice([ARC, 45.0, 30.0]))
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
    s, co = geo.sincos_deg(q)
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
    elif r < 0.7:
        w, h = rng.choice(SIZES)
        pts = [(-0.0, -0.0), (w, -0.0), (w, h), (-0.0, h)]      # negative zeros: Polygon stores +0.0
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
    """geometry.sincos_deg: 5,000 angles, the exact quarter turns among them."""
    rng = random.Random(1)
    angles = SPECIAL_ANGLES + [angle(rng) for _ in range(5000)]
    for a in angles:
        check((a,), "sincos_deg", geo.sincos_deg(a), K.sincos_deg(a))


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
        if rng.random() < 0.1:
            p = (-0.0, -0.0) if rng.random() < 0.5 else (c[0] * 0.0 - 0.0, c[1])    # nearest_point makes them +0.0
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
        s, c = geo.sincos_deg(angle(rng))
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
        xs = [rng.choice([rng.uniform(-1, 1) * 10 ** rng.randint(-3, 16), -0.0, 0.0]) for _ in range(rng.randint(1, 8))]
        if rng.random() < 0.1:
            xs = [-0.0] * len(xs)                                # sum() starts from 0: its sum is +0.0
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


# --- the standing driver: driving.py and what it calls (FIGHT-07, FIGHT-08, FIGHT-09) -----------------------------------

RULES_ALL = RULES.with_overrides({"carwars": {"fight": {"driver": {"menu": list(MANEUVER_KINDS), "max_control_roll": 4}}}})
PACKED = {id(RULES): K.Rules(pack_rules(RULES)), id(RULES_ALL): K.Rules(pack_rules(RULES_ALL))}
SPEEDS = [5.0 * k for k in range(-4, 25)]                  # -20 to 120 mph in 5 mph steps
ODD_SPEEDS = [0.0, -0.0, 2.5, 7.5, 12.5, -2.5, 33.0, 100.0, 300.0, -100.0]


def fleet(designs, pedestrians=0):
    """An arena of the stock designs (ids v0, v1, ...) and pedestrians (p0, ...), and a fight of it."""
    from hardpoint.carwars.fight import Fight

    data = {"scenario": {"name": "parts", "ruleset": "carwars"},
            "vehicle": [{"id": f"v{i}", "design": d, "x": 5.0 * i, "y": 0.0} for i, d in enumerate(designs)],
            "pedestrian": [{"id": f"p{i}", "x": -5.0 - i, "y": 0.0} for i in range(pedestrians)]}
    arena = hardpoint.parse_scenario(data).arena
    return arena, Fight({u: u for u in [*arena.vehicles, *arena.pedestrians]})


def place(rng, arena) -> None:
    """Random poses: the first unit anywhere, each next one near one already placed (touching it edge to edge,
    overlapping it, near or far)."""
    units = [*arena.vehicles.values(), *arena.pedestrians.values()]
    units[0].x, units[0].y, units[0].facing = coord(rng), coord(rng), angle(rng)
    placed = [pack_counter(units[0].counter)]
    for u in units[1:]:
        c = other_counter(rng, rng.choice(placed)) if rng.random() < 0.7 else counter(rng, near(rng, placed[0], 12.0))
        u.x, u.y, u.facing = c[0], c[1], c[4]
        placed.append(pack_counter(u.counter))


def unsettle(rng, arena, fight) -> None:
    """Random state: speeds (5 mph steps, some odd ones), handling statuses -6..7 or none, off-road, a substitute,
    water, an oil slick, own speed limits, weapons destroyed or empty, sides."""
    for v in arena.vehicles.values():
        v.speed = rng.choice(SPEEDS) if rng.random() < 0.9 else rng.choice(ODD_SPEEDS)
        v.handling_status = None if rng.random() < 0.2 else rng.randint(-6, 7)
        v.off_road, v.on_oil = rng.random() < 0.1, rng.random() < 0.1
        v.substitute = "sub" if rng.random() < 0.1 else None
        v.water_depth_ft = 2.0 if rng.random() < 0.1 else 0.0
        v.acceleration = rng.choice([None, None, None, 5, 15])
        v.top_speed = rng.choice([None, None, None, 40, 120])
        for w in v.all_weapons():
            w.dp, w.ammo = (0 if rng.random() < 0.1 else 3), (0 if rng.random() < 0.1 else 5)
    for p in arena.pedestrians.values():
        p.speed = rng.choice([0.0, 0.0, 5.0])
    sides = rng.choice([None, "ab", "abc"])
    fight.sides = {u: (u if sides is None else rng.choice(sides)) for u in fight.sides}


def drive_order(rng, arena, v) -> driving.DriveOrder:
    """A movement order of any tactic: nearest_enemy or a named unit, the tactic's speed or its own, a range, the
    weapons all or some."""
    tactic = rng.choice(TACTICS)
    units = [u for u in [*arena.vehicles, *arena.pedestrians] if u != v.id]
    target = "nearest_enemy" if rng.random() < 0.6 else rng.choice(units)
    speed = None if rng.random() < 0.6 else float(rng.randrange(0, 125, 5))
    rng_ = rng.choice([0.5, 2.0, 6.0, 12.0, 1.25]) if tactic == "keep_range" or rng.random() < 0.2 else None
    ids = [w.id for w in v.all_weapons()]
    weapons = None if rng.random() < 0.5 else tuple(rng.sample(ids, rng.randint(0, len(ids))))
    return driving.DriveOrder(f"d{v.id}", v.id, tactic, target, speed, rng_, weapons)


def arenas(seed, n, sizes=(2, 3), pedestrians=(0, 0, 1)):
    """n random situations: (arena, fight, out, the driven vehicle, its order), the vehicles of every stock design."""
    rng = random.Random(seed)
    made = {}
    for i in range(n):
        key = (tuple(rng.choice(DESIGNS) for _ in range(rng.choice(sizes))), rng.choice(pedestrians))
        if key not in made:
            made[key] = fleet(*key)
        arena, fight = made[key]
        place(rng, arena)
        unsettle(rng, arena, fight)
        arena.buildings = {}
        if rng.random() < 0.15:
            c = counter(rng, near(rng, pack_counter(next(iter(arena.vehicles.values())).counter), 3.0))
            arena.buildings = {"b": hardpoint.carwars.model.Building("b", geo.Counter(*c).polygon())}
        arena.phase = rng.randint(1, 5)
        v = rng.choice(list(arena.vehicles.values()))
        fight.drives = [drive_order(rng, arena, u) for u in arena.vehicles.values()]
        out = {u: 1 for u in fight.sides if u != v.id and rng.random() < 0.1}
        yield rng, arena, fight, out, v, fight.drive_of(v.id)


def packed(rules, arena, fight, out=()):
    return PACKED[id(rules)], K.Arena(pack_arena(rules, fight, arena, out))


def maneuver(m) -> tuple:
    return (MANEUVER_KINDS.index(m.kind), m.angle, m.lateral, m.d)


def test_python_float_remainder_and_floor_division_agree():
    """cw_pymod, cw_pyfloordiv: Python's float % and // on 6,000 pairs (signs, zeros, -0.0, whole and half
    quotients)."""
    rng = random.Random(10)
    for _ in range(6000):
        x = rng.choice([rng.uniform(-1000, 1000), rng.randint(-50, 50) * 2.5, -0.0, 0.0, rng.uniform(-1e-9, 1e-9)])
        y = rng.choice([360.0, 10.0, -10.0, 15.0, 2.5, rng.uniform(-30, 30) or 1.0, 1e-3])
        check((x, y), "%", x % y, K.pymod(x, y))
        check((x, y), "//", x // y, K.pyfloordiv(x, y))


def test_phase_distances_and_the_control_table_agree():
    """CW-ROF-02, FIGHT-09: turn.phase_distances at every whole speed from -300 to 300 mph and 2,000 others;
    handling.control_needed at each with statuses -10..10."""
    rng = random.Random(11)
    speeds = [float(s) for s in range(-300, 301)] + [rng.choice([rng.uniform(-100, 300), rng.randint(-40, 120) * 2.5])
                                                     for _ in range(2000)]
    rules = PACKED[id(RULES)]
    for s in speeds:
        check((s,), "phase_distances", turn.phase_distances(RULES, s), K.phase_distances(rules, s))
        for status in range(-10, 11, 3 if abs(s) > 120 else 1):
            check((s, status), "control_needed", handling.control_needed(RULES, s, status),
                  K.control_needed(rules, s, status))


def test_straight_displacement_agrees():
    """FIGHT-04: motion.straight_displacement of 3,000 vehicles (every stock design, any facing and speed) in each
    phase."""
    for rng, arena, fight, out, v, order in arenas(12, 3000):
        rules, a = packed(RULES, arena, fight)
        i = list(arena.vehicles).index(v.id)
        for phase in range(1, 6):
            check((v.speed, v.facing, phase), "straight_displacement", motion.straight_displacement(RULES, v, phase),
                  K.straight_displacement(rules, a, i, phase))


def test_menus_difficulties_moves_and_end_poses_agree():
    """FIGHT-08: maneuver_menu (the stock menu, and every kind with bootleggers and T-stops), maneuver_difficulty,
    maneuver_move, end_counter and turned for each maneuver of 2,500 vehicles: every stock design, speeds -20..120 in
    5 mph steps, off-road, in reverse, with a substitute, in water, moving a phase's inches or any."""
    for rng, arena, fight, out, v, order in arenas(13, 2500):
        r = rng.choice([RULES, RULES_ALL])
        rules, a = packed(r, arena, fight)
        i = list(arena.vehicles).index(v.id)
        distance = rng.choice([*turn.phase_distances(r, v.speed), 0.5, 1.0, 2.0, 1.5, 0.0, rng.uniform(0, 3)])
        menu = driving.maneuver_menu(r, v, distance, r["carwars.fight"]["driver"]["menu"])
        check((v.speed, distance), "maneuver_menu", [maneuver(m) for m in menu], K.maneuver_menu(rules, a, i, distance))
        for m in menu:
            move = driving.maneuver_move(r, v, m, distance)
            check((m,), "maneuver_difficulty", driving.maneuver_difficulty(r, v, m),
                  K.maneuver_difficulty(rules, a, i, maneuver(m)))
            check((m, v.speed, v.facing), "maneuver_move", (move.dx, move.dy, move.angle, move.pivot),
                  K.maneuver_move(rules, a, i, maneuver(m), distance))
            check((m, v.counter), "end_counter", pack_counter(driving.end_counter(v, move)),
                  K.end_counter(pack_counter(v.counter), (move.dx, move.dy, move.angle, move.pivot)))
        c, turn_by, pivot = pack_counter(v.counter), angle(rng), (rng.uniform(-1, 1), rng.uniform(-1, 1))
        check((c, turn_by, pivot), "turned", pack_counter(driving.turned(v.counter, turn_by, pivot)),
              K.turned(c, turn_by, pivot))


def end_poses(rng, r, v, distance) -> list:
    """Where the vehicle's maneuvers end, and a few poses anywhere near it."""
    menu = driving.maneuver_menu(r, v, distance, r["carwars.fight"]["driver"]["menu"])
    ends = [driving.end_counter(v, driving.maneuver_move(r, v, m, distance)) for m in menu]
    return ends + [geo.Counter(*counter(rng, near(rng, pack_counter(v.counter), 1.5))) for _ in range(3)]


def test_blocked_straight_on_collision_course_and_pushing_agree():
    """FIGHT-07: blocked (with the look ahead, and without it as turn ends use it), _straight_on, on_collision_course
    and _pushing on 2,000 arenas of 2-4 vehicles, touching and overlapping ones, with and without a building."""
    hits = [0, 0, 0]
    for rng, arena, fight, out, v, order in arenas(14, 2000, sizes=(2, 3, 4)):
        rules, a = packed(RULES, arena, fight)
        i = list(arena.vehicles).index(v.id)
        ours = [K.straight_on(rules, a, j, arena.phase) for j, o in enumerate(arena.vehicles.values()) if o is not v]
        check((arena.phase,), "_straight_on", driving._straight_on(RULES, arena, v, arena.phase), sum(ours, []))
        check((v.counter,), "_pushing", driving._pushing(RULES, arena, v, v.speed), K.pushing(a, i))
        distance = turn.phase_distances(RULES, v.speed)[arena.phase - 1] or 1.0
        for cnt in end_poses(rng, RULES, v, distance):
            c = pack_counter(cnt)
            got = (K.blocked(rules, a, i, c, arena.phase), K.blocked(None, a, i, c, arena.phase),
                   K.on_collision_course(rules, a, i, c, arena.phase))
            ref = (driving.blocked(arena, v, cnt, RULES, arena.phase), driving.blocked(arena, v, cnt),
                   driving.on_collision_course(RULES, arena, v, cnt, arena.phase))
            check((c, arena.phase), "blocked, blocked without rules, on_collision_course", ref, got)
            hits = [h + x for h, x in zip(hits, ref)]
    assert min(hits) > 500


def target_of(rng, arena, v):
    return rng.choice([u for u in [*arena.vehicles.values(), *arena.pedestrians.values()] if u is not v])


def test_gap_heading_bearing_grain_and_scores_agree():
    """FIGHT-07, CW-ARC-01/02, CW-LOF-03: gap, _heading, _bearing, _grain and _score (each tactic, the order's
    weapons all or some) of the end poses of 2,000 vehicles against a vehicle or a pedestrian; scores as the
    reference's whole numbers."""
    for rng, arena, fight, out, v, order in arenas(15, 2000, pedestrians=(0, 1)):
        rules, a = packed(RULES, arena, fight)
        i = list(arena.vehicles).index(v.id)
        target = target_of(rng, arena, v)
        t = unit_index(arena, target.id)
        o = pack_order(arena, order)
        for cnt in end_poses(rng, RULES, v, rng.choice([1.0, 2.0])):
            c = pack_counter(cnt)
            check((c, target.counter), "gap", (OK, driving.gap(cnt, target.counter)), K.gap(c, pack_counter(target.counter)))
            check((c, target.counter), "_heading", driving._heading(cnt, target), K.heading(c, a, t))
            check((c, order), "_bearing", (OK, *driving._bearing(RULES, v, order, cnt, target)), K.bearing(rules, a, i, c, t))
            ref = driving._score(RULES, v, order, cnt, target)
            status, got = K.score(rules, a, i, o, c, t)
            assert status == OK and all(x.is_integer() for x in got), (c, order, got)
            check((c, order), "_score", [float(x) for x in ref] + [0.0] * (5 - len(ref)), list(got))
        x = rng.uniform(-3, 3) * 10 ** rng.randint(-8, 4)
        assert float(driving._grain(x)) == K.grain(x) and driving._grain(x) == K.grain(x)


def test_score_comparison_is_python_tuple_comparison():
    """choose_maneuver compares scores as Python tuples: 5,000 pairs of small whole numbers, ties and all."""
    rng = random.Random(16)
    for _ in range(5000):
        a = tuple(rng.randint(-2, 2) for _ in range(7))
        b = tuple(x if rng.random() < 0.6 else rng.randint(-2, 2) for x in a)
        assert (a < b) == K.score_less([float(x) for x in a], [float(x) for x in b]), (a, b)


def test_drive_target_agrees():
    """FIGHT-07: drive_target of 3,000 drivers: named units, nearest_enemy among vehicles and pedestrians of
    random sides, some out of action, equal distances."""
    for rng, arena, fight, out, v, order in arenas(17, 3000, sizes=(2, 3, 4), pedestrians=(0, 1, 2)):
        _, a = packed(RULES, arena, fight, out)
        ref = driving.drive_target(fight, arena, v, order, out)
        check((order, out, fight.sides), "drive_target", -1 if ref is None else unit_index(arena, ref.id),
              K.drive_target(a, list(arena.vehicles).index(v.id), pack_order(arena, order)))


def test_stopping_speed_agrees():
    """driving._stopping_speed on 3,000 rooms: negative, none, exactly a stop's inches, and any."""
    rng = random.Random(18)
    rules = PACKED[id(RULES)]
    for _ in range(3000):
        room = rng.choice([rng.uniform(-1, 30), 0.5 * rng.randint(-2, 60), 0.0, -0.0, 1.5, 3.0, 0.25 * rng.randint(0, 40)])
        check((room,), "_stopping_speed", (OK, driving._stopping_speed(RULES, room)), K.stopping_speed(rules, room))


def test_desired_and_chosen_speeds_agree():
    """FIGHT-07/08: _desired_speed and choose_speed on 3,000 random arenas: each tactic, the order's speed or the
    tactic's, targets named or nearest (or none), near and far, touching (he stops if he would push)."""
    stops = 0
    for rng, arena, fight, out, v, order in arenas(19, 3000, pedestrians=(0, 0, 1)):
        rules, a = packed(RULES, arena, fight, out)
        i = list(arena.vehicles).index(v.id)
        target = driving.drive_target(fight, arena, v, order, out)
        t = None if target is None else unit_index(arena, target.id)
        o = pack_order(arena, order)
        if target is not None:
            check((order,), "_desired_speed", (OK, driving._desired_speed(RULES, v, order, target)),
                  K.desired_speed(rules, a, i, o, t))
        ref = driving.choose_speed(RULES, arena, v, order, target)
        stops += ref == 0.0 and v.speed > 0
        check((order, v.speed), "choose_speed", (OK, float(ref)), K.choose_speed(rules, a, i, o, t))
    assert stops > 50


def compare_choice(r, arena, fight, out, v, order, target, distance) -> int:
    """choose_maneuver and choose_speed of the reference and the kernel on one situation, the driver's target given
    (the reference's drive_target); returns the kernel's pick."""
    rules, a = packed(r, arena, fight, out)
    i = list(arena.vehicles).index(v.id)
    t = None if target is None else unit_index(arena, target.id)
    o = pack_order(arena, order)
    menu = driving.maneuver_menu(r, v, distance, r["carwars.fight"]["driver"]["menu"])
    chosen = driving.choose_maneuver(r, arena, v, order, target, distance)
    pick, got_menu = K.choose_maneuver(rules, a, i, o, t, distance)
    where = (pack_counter(v.counter), v.speed, v.handling_status, order, arena.phase, distance)
    plain = order.tactic == "hold_course" or target is None or not menu
    if not plain:
        check(where, "maneuver_menu", [maneuver(m) for m in menu], got_menu)
    # the reference returns the first of the best in its menu, or its own straight (hold_course, no target, no menu)
    check(where, "choose_maneuver", K.PICK_STRAIGHT if plain else [maneuver(m) for m in menu].index(maneuver(chosen)),
          pick)
    check(where, "choose_maneuver", maneuver(chosen),
          maneuver(driving.Maneuver("straight")) if pick == K.PICK_STRAIGHT else got_menu[pick])
    check(where, "choose_speed", (OK, float(driving.choose_speed(r, arena, v, order, target))),
          K.choose_speed(rules, a, i, o, t))
    return pick


def test_choose_maneuver_and_speed_agree_on_random_arenas():
    """FIGHT-07/08/09 end to end: the maneuver (by value and by its index in the menu) and the speed the standing
    driver chooses, on 2,500 random two- and three-vehicle arenas: each tactic, weapons all or some, handling
    statuses -6..7, each phase, the stock menu and every kind."""
    picks = set()
    for rng, arena, fight, out, v, order in arenas(20, 2500, sizes=(2, 3), pedestrians=(0, 0, 0, 1)):
        r = rng.choice([RULES, RULES, RULES_ALL])
        distance = turn.phase_distances(r, v.speed)[arena.phase - 1]
        if distance == 0 or rng.random() < 0.2:
            distance = rng.choice([0.5, 1.0, 2.0])
        target = driving.drive_target(fight, arena, v, order, out)
        picks.add(compare_choice(r, arena, fight, out, v, order, target, distance))
    assert len(picks) > 20 and K.PICK_UNSURE not in picks


FIGHTS = [(("hunter", "shogun"), ("bring_to_bear", "bring_to_bear")), (("shogun", "shogun"), ("pursue", "evade")),
          (("razor", "stinger"), ("keep_range", "bring_to_bear")), (("outrider", "hunter"), ("bring_to_bear", "pursue")),
          (("stinger", "razor"), ("evade", "keep_range")), (("hunter", "outrider"), ("hold_course", "bring_to_bear")),
          (("shogun", "razor"), ("pursue", "pursue")), (("stinger", "hunter"), ("bring_to_bear", "evade"))]


def real_fight(designs, tactics, k):
    """A stock duel that drives (FIGHT-07): both under movement orders (one keeps a range, one brings only some
    weapons to bear), with standing fire orders, until decided."""
    drive = [{"unit": u, "tactic": t, **({"range": 4.0} if t == "keep_range" else {})} for u, t in zip("ab", tactics)]
    if k % 2:
        drive[0]["target"], drive[1]["speed"] = "b", 40
    data = {"scenario": {"name": "t", "ruleset": "carwars", "turns": 20, "until": "decided"},
            "vehicle": [{"id": "a", "design": designs[0], "x": 0.0, "y": 0.0, "facing": 15.0 * k, "speed": 30},
                        {"id": "b", "design": designs[1], "x": 4.0 + k, "y": 10.0, "facing": 180.0 + 45.0 * k, "speed": 20}],
            "orders": [{"unit": "a"}, {"unit": "b"}], "drive": drive}
    return hardpoint.parse_scenario(data)


def test_decisions_agree_in_real_fights(monkeypatch):
    """FIGHT-07/08/09 on the arenas of real fights: eight stock duels that drive, run by the reference one turn at a
    time (turn.run_turns). Every decision the reference makes as it fights (each driver's speed at each turn's start,
    his maneuver at each phase's start) is made again by the kernel on the live state, and after each turn, on a
    snapshot, each driver's speed and his maneuver for every phase."""
    from hardpoint.carwars import drive_phase
    from hardpoint.carwars.fight import out_of_action

    live, speeds = [], []

    def maneuver_seen(r, arena, v, order, target, distance):
        live.append(compare_choice(r, arena, fight, out, v, order, target, distance))
        return driving.choose_maneuver(r, arena, v, order, target, distance)

    def speed_seen(r, arena, v, order, target):
        rules, a = packed(r, arena, fight, out)
        t = None if target is None else unit_index(arena, target.id)
        speeds.append(driving.choose_speed(r, arena, v, order, target))
        check((v.speed, order, arena.turn), "choose_speed", (OK, float(speeds[-1])),
              K.choose_speed(rules, a, list(arena.vehicles).index(v.id), pack_order(arena, order), t))
        return speeds[-1]

    monkeypatch.setattr(drive_phase, "choose_maneuver", maneuver_seen)
    monkeypatch.setattr(drive_phase, "choose_speed", speed_seen)
    snapshots = 0
    for k, (designs, tactics) in enumerate(FIGHTS):
        sc = real_fight(designs, tactics, k)
        arena, fight, out, dice = sc.arena, sc.fight, {}, hardpoint.SeededDice(k)
        for _ in range(sc.turns):
            snap = copy.deepcopy(arena)
            for v in snap.vehicles.values():
                order = fight.drive_of(v.id)
                if v.id in out:
                    continue
                target = driving.drive_target(fight, snap, v, order, out)
                for phase in range(1, 6):
                    snap.phase = phase
                    distance = turn.phase_distances(sc.rules, v.speed)[phase - 1]
                    if distance > 0:
                        compare_choice(sc.rules, snap, fight, out, v, order, target, distance)
                        snapshots += 1
            turn.run_turns(arena, sc.rules, sc.plan, 1, dice, sc.history, fight=fight)
            out.update({u: arena.turn - 1 for u in [*arena.vehicles, *arena.pedestrians]
                        if u not in out and out_of_action(sc.rules, arena, u, fight) is not None})
            if len({fight.side(u) for u in arena.vehicles if u not in out}) <= 1:
                break
    assert len(live) > 300 and len(speeds) > 60 and snapshots > 300 and len(set(live)) > 5 and K.PICK_UNSURE not in live
