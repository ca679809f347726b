"""The batch line-of-fire kernel and its wrapper `hardpoint.carwars.lof` against the reference geometry
(ARCH-03 cross-check; CW-LOF-01 blockers, CW-LOF-02 grazing and gaps, CW-LOF-03 range and aim
point, CW-LOF-04 clouds)."""
from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import ScenarioError
from hardpoint.carwars import tohit
from hardpoint.carwars.geometry import Counter, Polygon, cloud_penalty_length, line_of_fire
from hardpoint.carwars.lof import LofBatch, trace_many

from .carwars.test_geometry import counter_poly, dist_to_polygon, place, sector, seg_hits, unplace

fast = pytest.importorskip("hardpoint.fastcore._lof")

RULES = hardpoint.default_rules()
# Derandomized (issue 19): the same scenes on every run, so a failure reproduces and nothing is flaky.
SCENES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


# --- the reference, query by query ----------------------------------------------------------


def reference(origin, target, blockers, clouds, laser):
    """What explain_attack does for one shot: LOF, then the cloud crossing to the aim point."""
    sight = line_of_fire(origin, target, list(blockers) + (list(clouds) if laser else []))
    length = None
    if sight.clear:
        length = 0.0 if laser else cloud_penalty_length(origin, sight.aim_point, clouds)
    return sight, length


def pack(polys):
    k = max([len(p.vertices) for p in polys] + [3])
    arr = np.zeros((len(polys), k, 2))
    counts = np.zeros(len(polys), np.int64)
    for i, p in enumerate(polys):
        arr[i, :len(p.vertices)] = p.vertices
        counts[i] = len(p.vertices)
    return arr, counts


def kernel(origins, targets, blockers, clouds, laser):
    """The bare kernel: (clear, range, aim, cloud length, status)."""
    q = len(origins)
    out = (np.zeros(q, np.uint8), np.zeros(q), np.zeros((q, 2)), np.zeros(q), np.zeros(q, np.int8))
    n = fast.trace_many(np.asarray(origins, np.float64).reshape(q, 2), *pack(targets), *pack(blockers), *pack(clouds),
                        laser, *out)
    assert n == int((out[4] != 0).sum())
    return out


def range_mod(r):
    return sum(m.value for m in tohit.range_modifiers(RULES, r))


def cloud_mod(length):
    return sum(m.value for m in tohit.cloud_modifier(RULES, length))


def near_band_edge(r):
    """Within 1e-9 of 1" (point blank) or of a multiple of 4" (CW-HIT-02)."""
    return abs(r - 1.0) <= 1e-9 or abs(r - 4.0 * round(r / 4.0)) <= 1e-9


def near_half_inch(length):
    """Within 1e-9 of a penalty step (CW-LOF-04): a multiple of 1/2", or the 1e-9" below which nothing counts."""
    k = round(length / 0.5)
    return (k >= 1 and abs(length - 0.5 * k) <= 1e-9) or 0.0 < length <= 2e-9


def check_against_reference(origins, targets, blockers, clouds, laser):
    """ARCH-03: the bare kernel's status-0 queries and the wrapper's every query agree with the reference.

    Returns counts of what was compared (and skipped at band edges)."""
    clear, rng, aim, length, status = kernel(origins, targets, blockers, clouds, laser)
    batch = trace_many(origins, targets, blockers, clouds, laser=laser)
    assert batch.backend == "compiled"
    assert batch.recomputed.tolist() == (status != 0).tolist()
    seen = {"queries": 0, "status1": 0, "clear": 0, "range_edge_skips": 0, "cloud_edge_skips": 0}
    for i, (o, t) in enumerate(zip(origins, targets)):
        sight, ref_len = reference(o, t, blockers, clouds, laser)
        seen["queries"] += 1
        assert bool(batch.clear[i]) == sight.clear
        if status[i]:
            seen["status1"] += 1
            # recomputed by the wrapper with the reference itself: equal, not just close
            if sight.clear:
                assert (batch.range[i], tuple(batch.aim[i]), batch.cloud_length[i]) == (sight.range, sight.aim_point, ref_len)
            continue
        assert bool(clear[i]) == sight.clear, (o, t, blockers, clouds, laser)
        if not sight.clear:
            assert math.isnan(rng[i]) and math.isnan(batch.range[i]) and batch.cloud_penalty[i] == 0
            continue
        seen["clear"] += 1
        assert abs(rng[i] - sight.range) <= 1e-9 and batch.range[i] == rng[i]
        assert abs(aim[i, 0] - sight.aim_point[0]) <= 1e-9 and abs(aim[i, 1] - sight.aim_point[1]) <= 1e-9
        assert abs(length[i] - ref_len) <= 1e-9 and batch.cloud_length[i] == length[i]
        if near_band_edge(sight.range):
            seen["range_edge_skips"] += 1
        else:
            assert range_mod(rng[i]) == range_mod(sight.range)
        if near_half_inch(ref_len):
            seen["cloud_edge_skips"] += 1
        else:
            assert batch.cloud_penalty[i] == cloud_mod(ref_len) == cloud_mod(length[i])
    return seen


# --- random scenes ----------------------------------------------------------------------------

# Coordinates either anywhere or on a 1/2" grid, so that corners meet, edges line up and the
# origin falls on the lines of polygon edges: the ties the reference rules on (CW-LOF-02).
coord = st.one_of(st.floats(-20.0, 20.0), st.integers(-40, 40).map(lambda k: k / 2.0))
facing = st.one_of(st.sampled_from([0.0, 90.0, 45.0]), st.floats(0.0, 360.0))


def rect(size_lo, size_hi):
    return st.builds(lambda cx, cy, length, width, f: Counter(cx, cy, length, width, f).polygon(),
                     coord, coord, st.floats(size_lo, size_hi), st.floats(size_lo, size_hi), facing)


scenes = st.tuples(
    st.lists(st.tuples(st.tuples(coord, coord), rect(0.25, 2.0)), min_size=1, max_size=8),  # (origin, target) queries
    st.lists(rect(0.25, 6.0), min_size=0, max_size=10),                                     # blockers
    st.lists(rect(0.5, 8.0), min_size=0, max_size=2),                                      # clouds
    st.booleans(),                                                                          # laser
)


@SCENES
@given(scenes)
def test_arch_03_random_scenes_agree_with_the_reference(scene):
    """ARCH-03, CW-LOF-01..04: on random scenes (0-10 rectangular blockers, 0-2 clouds, laser or not) the
    kernel's verdict equals the reference's, range and aim point agree within 1e-9, the range band and
    the cloud penalty are the reference's (except within 1e-9 of a band edge, skipped explicitly), and
    the queries the kernel hands back (status 1) come out of the wrapper equal to the reference."""
    queries, blockers, clouds, laser = scene
    origins = [o for o, _ in queries]
    targets = [t for _, t in queries]
    check_against_reference(origins, targets, blockers, clouds, laser)


def test_arch_03_seeded_sweep_is_bit_identical_and_mostly_native():
    """ARCH-03: on a seeded sweep of 4,000 queries the kernel's figures are not just close but equal to
    the reference's (same operations in the same order, same libm), and it hands back few queries."""
    rng = np.random.default_rng(2026)
    origins, targets = [], []
    blockers = [Counter(*rng.uniform(-15, 15, 2), *rng.uniform(0.5, 5, 2), rng.uniform(0, 360)).polygon() for _ in range(8)]
    clouds = [Polygon.box(-2.0, -1.0, 1.0, 0.5)]
    for _ in range(4000):
        origins.append(tuple(rng.uniform(-20, 20, 2)))
        targets.append(Counter.car(*rng.uniform(-20, 20, 2), rng.uniform(0, 360)).polygon())
    for laser in (False, True):
        clear, rng_, aim, length, status = kernel(origins, targets, blockers, clouds, laser)
        assert (status != 0).mean() < 0.1
        for i in np.flatnonzero(status == 0):
            sight, ref_len = reference(origins[i], targets[i], blockers, clouds, laser)
            assert bool(clear[i]) == sight.clear
            if sight.clear:
                assert (rng_[i], aim[i, 0], aim[i, 1], length[i]) == (sight.range, *sight.aim_point, ref_len)


# --- the worked cases of tests/carwars/test_geometry.py through the kernel ----------------------

TARGET = Polygon.box(10.0, -1.0, 11.0, 1.0)


def one(origin, target, blockers, clouds=(), laser=False) -> LofBatch:
    check_against_reference([origin], [target], list(blockers), list(clouds), laser)
    return trace_many([origin], [target], blockers, clouds, laser=laser)


def test_cw_lof_02_grazing_corners_and_edges_do_not_block():
    """CW-LOF-02 RULING: two blockers meeting at a corner on the line leave a zero-width gap; edges along
    the line do not block either."""
    b1 = Polygon(((5.0, 0.0), (6.0, -5.0), (4.0, -5.0)))
    b2 = Polygon(((5.0, 0.0), (4.0, 5.0), (6.0, 5.0)))
    s = one((0.0, 0.0), TARGET, [b1, b2])
    assert s.clear[0] and tuple(s.aim[0]) == (10.0, 0.0) and s.range[0] == 10.0 and not s.recomputed[0]
    s = one((0.0, 0.0), TARGET, [Polygon.box(4.0, 0.0, 6.0, 5.0), Polygon.box(4.0, -5.0, 6.0, 0.0)])
    assert s.clear[0] and tuple(s.aim[0]) == (10.0, 0.0)


def test_cw_lof_01_03_blockers_in_front_and_behind():
    """CW-LOF-01/03: a wall in front hides what it covers; the range goes to the nearest visible point;
    only a corner left gives that corner; a wall behind changes nothing."""
    s = one((0.0, 0.0), TARGET, [Polygon.box(5.0, -0.4, 6.0, 3.0)])
    assert s.clear[0] and s.aim[0] == pytest.approx((10.0, -0.8)) and s.range[0] == pytest.approx(math.hypot(10, 0.8))
    corner = one((0.0, 0.0), TARGET, [Polygon.box(5.0, -0.5, 6.0, 3.0)])
    assert tuple(corner.aim[0]) == (10.0, -1.0)
    assert not one((0.0, 0.0), TARGET, [Polygon.box(5.0, -3.0, 6.0, 3.0)]).clear[0]
    behind = one((0.0, 0.0), TARGET, [Polygon.box(12.0, -3.0, 13.0, 3.0)])
    assert behind.clear[0] and behind.range[0] == 10.0


def test_cw_lof_01_origin_cases_and_targets_due_south():
    """CW-LOF-01: origin inside the target (range 0), inside a blocker (hidden), on a blocker's edge or
    corner (handed back to the reference); a target due south (the frame turned half a turn)."""
    s = one((10.5, 0.0), TARGET, [Polygon.box(10.2, -0.2, 10.8, 0.2)])
    assert s.clear[0] and s.range[0] == 0.0 and tuple(s.aim[0]) == (10.5, 0.0) and not s.recomputed[0]
    inside = one((0.0, 0.0), TARGET, [Polygon.box(-1.0, -1.0, 1.0, 1.0)])
    assert not inside.clear[0] and not inside.recomputed[0]
    on_edge = one((0.0, 0.0), TARGET, [Polygon.box(0.0, -1.0, 1.0, 1.0)])
    assert not on_edge.clear[0] and on_edge.recomputed[0]
    corner = one((0.0, 0.0), TARGET, [Polygon.box(0.0, 0.0, 1.0, 1.0)])
    assert corner.clear[0] and tuple(corner.aim[0]) == (10.0, 0.0) and corner.recomputed[0]
    south = one((0.0, 0.0), Polygon.box(-1.0, -11.0, 1.0, -10.0), [Polygon.box(-3.0, -6.0, 0.0, -5.0)])
    assert tuple(south.aim[0]) == (0.0, -10.0) and not south.recomputed[0]


def test_cw_lof_04_clouds_block_lasers_and_cost_the_others():
    """CW-LOF-04: for a laser a cloud is a blocker (one overlapping the target is handed back to the
    reference); for other weapons it costs -1 per 1/2" crossed on the line to the aim point, rounded up,
    overlapping clouds counted once."""
    cloud = Polygon.box(9.0, -0.5, 12.0, 3.0)
    laser = one((0.0, 0.0), TARGET, [], [cloud], laser=True)
    assert laser.clear[0] and laser.aim[0] == pytest.approx((10.0, -5.0 / 9.0)) and laser.recomputed[0]
    assert laser.cloud_length[0] == 0.0 and laser.cloud_penalty[0] == 0
    smoke = [Polygon.box(4.0, -2.0, 5.2, 2.0), Polygon.box(5.0, -2.0, 5.4, 2.0)]
    s = one((0.0, 0.0), TARGET, [], smoke)
    assert s.clear[0] and s.cloud_length[0] == pytest.approx(1.4) and s.cloud_penalty[0] == -3
    assert not one((0.0, 0.0), TARGET, [], smoke, laser=True).clear[0]


# --- the property tests of tests/carwars/test_geometry.py through the kernel --------------------

sizes = st.floats(0.25, 1.5)
angles = st.floats(0.0, 2 * math.pi)
spots = st.floats(-30.0, 30.0)
PROPS = settings(max_examples=150, deadline=None, derandomize=True)


@PROPS
@given(spots, spots, spots, spots, sizes, sizes, st.floats(0, 360))
def test_cw_lof_01_03_plain_view_range_is_distance(ox, oy, cx, cy, length, width, f):
    """CW-LOF-01/03: with no blockers there is always LOF and range is the distance to the nearest point."""
    target = Counter(cx, cy, length, width, f).polygon()
    s = one((ox, oy), target, [])
    assert s.clear[0] and not s.recomputed[0]
    assert s.range[0] == pytest.approx(dist_to_polygon(target, (ox, oy)), abs=1e-9)
    assert target.contains(tuple(s.aim[0]), tol=1e-9)


@PROPS
@given(st.floats(3.0, 20.0), sizes, sizes, st.floats(0, 360), st.floats(0.05, 0.5), st.floats(0.01, 2.0), angles, spots, spots)
def test_cw_lof_01_02_full_enclosure_by_a_covering_wall(dist, length, width, f, thick, margin, psi, ox, oy):
    """CW-LOF-01/02: a wall between firer and target covering its whole bearing range hides it."""
    r = 0.5 * math.hypot(length, width)
    target = counter_poly(dist, 0.0, length, width, f, psi, ox, oy)
    xw = dist / 2
    half = xw * r / math.sqrt(dist * dist - r * r) + margin
    wall = Polygon(tuple(place(v, psi, ox, oy) for v in ((xw - thick, -half), (xw, -half), (xw, half), (xw - thick, half))))
    s = one((ox, oy), target, [wall])
    assert not s.clear[0] and math.isnan(s.range[0]) and not s.recomputed[0]


@PROPS
@given(st.floats(0.5, 3.0), st.floats(0.2, 1.0), st.floats(0, 360), spots, spots, st.floats(-6.0, 6.0), st.floats(-6.0, 6.0),
       st.booleans())
def test_cw_lof_01_target_walled_in_on_four_sides(size, thick, f, cx, cy, dx, dy, gap):
    """CW-LOF-01/02: a target enclosed by four walls is hidden from outside; a door in one wall lets a
    firer in line with it see through."""
    target = Counter(cx, cy, size, size, f).polygon()
    h = size + 0.5
    walls = [Polygon.box(cx - h - thick, cy - h - thick, cx + h + thick, cy - h),
             Polygon.box(cx - h - thick, cy + h, cx + h + thick, cy + h + thick),
             Polygon.box(cx - h - thick, cy - h, cx - h, cy + h)]
    if gap:  # the east wall in two pieces with a door in line with the target's centre
        walls += [Polygon.box(cx + h, cy - h, cx + h + thick, cy - 0.05), Polygon.box(cx + h, cy + 0.05, cx + h + thick, cy + h)]
    else:
        walls.append(Polygon.box(cx + h, cy - h, cx + h + thick, cy + h))
    outside = (cx + h + thick + 3.0 + abs(dx), cy)
    s = one(outside, target, walls)
    assert bool(s.clear[0]) == gap
    far = (cx + dx * 4.0 + math.copysign(h + thick + 1.0, dx), cy + dy * 4.0 + math.copysign(h + thick + 1.0, dy))
    assert not one(far, target, walls[:3] + [Polygon.box(cx + h, cy - h, cx + h + thick, cy + h)]).clear[0]


@PROPS
@given(st.floats(3.0, 15.0), sizes, sizes, st.floats(0, 360), st.floats(1e-6, 0.01), st.floats(0.02, 0.98),
       st.floats(0.1, 0.5), angles, spots, spots)
def test_cw_lof_02_narrow_gap_still_has_lof(dist, length, width, f, gap, frac, thick, psi, ox, oy):
    """CW-LOF-02: a target seen only through a gap down to 1e-6" wide has LOF, aimed through the gap."""
    local = Counter(dist, 0.0, length, width, f).corners()
    tlo = min(math.atan2(y, x) for x, y in local)
    thi = max(math.atan2(y, x) for x, y in local)
    r1, r2 = dist / 2 - thick, dist / 2
    delta = min(gap / r2, 0.5 * (thi - tlo))
    g1 = tlo + frac * (thi - tlo - delta)
    g2 = g1 + delta
    target = Polygon(tuple(place(v, psi, ox, oy) for v in local))
    walls = [sector(r1, r2, tlo - 0.2, g1, psi, ox, oy), sector(r1, r2, g2, thi + 0.2, psi, ox, oy)]
    s = one((ox, oy), target, walls)
    assert s.clear[0] and not s.recomputed[0]
    ax, ay = unplace(tuple(s.aim[0]), psi, ox, oy)
    assert g1 - 1e-9 <= math.atan2(ay, ax) <= g2 + 1e-9
    assert not any(seg_hits((ox, oy), tuple(s.aim[0]), w, 1e-9) for w in walls)


# --- the wrapper: inputs, validation, backends -------------------------------------------------


def test_arrays_counters_and_polygons_give_the_same_batch():
    """CW-LOF-01: targets as Polygons, Counters, or (Q, M, 2) arrays in either orientation (with negative
    zeros and a repeated vertex, which go through Polygon) give the same results; one target or one
    origin is broadcast."""
    counters = [Counter.car(12.0, 1.0, 30.0), Counter(-1.0, 9.0, 2.0, 1.0, 90.0), Counter.cycle(-6.0, -7.0, 200.0)]
    polys = [c.polygon() for c in counters]  # the second one has vertices on x = 0
    origins = [(0.0, 0.0), (1.0, -2.0), (-3.0, 3.0)]
    blockers = [Polygon.box(5.0, -1.0, 6.0, 1.5), Counter(-3.0, -3.0, 2.0, 2.0, 10.0)]
    a = trace_many(origins, polys, blockers)
    rows = np.array([p.vertices for p in polys])
    cw = rows[:, ::-1].copy()
    assert (cw == 0.0).any()
    cw[cw == 0.0] = -0.0
    padded = [list(p.vertices) + [p.vertices[-1]] for p in polys]  # repeated last vertex: Polygon drops it
    for other in (trace_many(origins, counters, blockers), trace_many(origins, rows, blockers),
                  trace_many(origins, cw, blockers), trace_many(origins, np.array(padded), blockers)):
        assert np.array_equal(other.range, a.range, equal_nan=True) and np.array_equal(other.aim, a.aim, equal_nan=True)
    one_target = trace_many(origins, polys[0], blockers)
    ref = [line_of_fire(o, polys[0], blockers).range for o in origins]
    assert np.array_equal(one_target.range, np.array([math.nan if r is None else r for r in ref]), equal_nan=True)
    assert one_target.clear.any() and not one_target.clear.all()
    one_origin = trace_many((0.0, 0.0), polys, blockers)
    ref = [line_of_fire((0.0, 0.0), p, blockers).range for p in polys]
    assert np.array_equal(one_origin.range, np.array([math.nan if r is None else r for r in ref]), equal_nan=True)


convex_rows = st.builds(
    lambda angles, rx, ry, cx, cy, reverse: [(cx + rx * math.cos(t), cy + ry * math.sin(t)) for t in
                                             (sorted(angles, reverse=reverse))],
    st.lists(st.floats(0.0, 2 * math.pi), min_size=3, max_size=8, unique=True),
    st.floats(1e-3, 50.0), st.floats(1e-3, 50.0), coord, coord, st.booleans())


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.one_of(convex_rows, st.lists(st.tuples(coord, coord), min_size=3, max_size=6)))
# Found by a randomized run (issue 19): a convex row with two vertices 1e-323 apart, which the kernel rightly
# calls plain and Polygon() wrongly refused ("not convex, winds 1.01 times") until its turns used unit directions.
@example([(1.0, 0.0), (1.0, 1e-323), (0.5403023058681398, 1.682941969615793), (-0.4161468365471424, 1.8185948536513634)])
def test_normalize_rows_never_disagrees_with_polygon(pts):
    """CW-LOF-01: a row the kernel calls plain is exactly what Polygon() stores (orientation, negative
    zeros and all); the rows it does not vouch for are left to Polygon(). Derandomized, with the
    near-degenerate rows found so far as explicit examples."""
    rows = np.array([pts])
    out = np.zeros_like(rows)
    plain = np.zeros(1, np.int8)
    assert fast.normalize_rows(rows, out, plain) == 0
    if plain[0]:
        assert tuple(map(tuple, out[0])) == Polygon(tuple(pts)).vertices
    # check_rows (the wrapper's first look, FAST-03): the same verdict, and "as given" only when the row is
    # already what Polygon() stores, bit for bit (negative zeros included)
    code = np.zeros(1, np.int8)
    assert fast.check_rows(rows, code) == int(code[0] != 1)
    assert bool(code[0]) == bool(plain[0])
    if code[0] == 1:
        assert rows[0].tobytes() == out[0].tobytes()
    elif code[0] == 2:
        assert rows[0].tobytes() != out[0].tobytes()


def test_fast_03_the_wrapper_traces_rows_as_given_and_the_kernel_writes_the_penalty():
    """FAST-03, CW-LOF-04: rows already stored as Polygon stores them are traced without a copy, reversed rows and
    rows with a negative zero are rewritten first, and the cloud penalty the kernel writes is the one
    `cloud_penalty` computes from the crossing length: the batch equals the one of Polygon targets."""
    smoke = Polygon.box(-1.0, 2.0, 1.0, 3.5)
    ccw = np.array([Counter(0.3 * k - 3, 6.0, 1.0, 0.5, 11.0 * k).polygon().vertices for k in range(20)])
    rows = ccw.copy()
    rows[5] = rows[5, ::-1]                      # clockwise
    rows[9] = [(-0.0, 5.5), (0.5, 5.5), (0.5, 6.5), (-0.0, 6.5)]   # a negative zero to make positive
    origins = [(0.1 * k, 0.0) for k in range(20)]
    as_arrays = trace_many(origins, rows, [], [smoke])
    as_polygons = trace_many(origins, [Polygon(tuple(map(tuple, r))) for r in rows], [], [smoke])
    for field in ("clear", "range", "aim", "cloud_length", "cloud_penalty"):
        assert np.array_equal(getattr(as_arrays, field), getattr(as_polygons, field), equal_nan=field != "clear"), field
    assert as_arrays.cloud_penalty.min() < 0
    assert np.array_equal(as_arrays.cloud_penalty, cloud_penalty_of(as_arrays.cloud_length))


def cloud_penalty_of(length):
    from hardpoint.carwars.lof import cloud_penalty

    return cloud_penalty(length)


def test_normalize_rows_vouches_for_counters():
    """CW-LOF-01: counter outlines, either orientation, are plain rows (the fast path of the wrapper)."""
    rows = np.array([Counter(1.5 * k, -0.5 * k, 1.0, 0.5, 37.0 * k).corners() for k in range(50)])
    for r in (rows, rows[:, ::-1].copy()):
        out, plain = np.zeros_like(r), np.zeros(len(r), np.int8)
        assert fast.normalize_rows(r, out, plain) == 0 and plain.all()
        assert [tuple(map(tuple, o)) for o in out] == [Polygon(tuple(map(tuple, x))).vertices for x in r]


def test_validation_names_the_field():
    """ERR-01: malformed inputs raise ScenarioError naming the field, before anything is computed."""
    sq = Polygon.box(0, 0, 1, 1)
    cases = [
        (dict(origins=[(0, 0, 0)], targets=[sq]), "origins"),
        (dict(origins=[(0, math.nan)], targets=[sq]), "origins[0]"),
        (dict(origins=[(5, 5), (6, 6)], targets=[sq, sq, sq]), "targets"),
        (dict(origins=[(5, 5), (6, 6)], targets=np.array([[(0, 0), (2, 0), (1, 0.2), (1, 2)], sq.vertices])), "targets[0]"),
        (dict(origins=[(5, 5)], targets=[sq], blockers=[sq, [(0, 0), (1, 1)]]), "blockers[1]"),
        (dict(origins=[(5, 5)], targets=[sq], clouds=[[(0, 0), (1, 0), (2, 0)]]), "clouds[0]"),
        (dict(origins=[(5, 5)], targets=[sq], blockers=sq), "blockers"),
        (dict(origins=[(5, 5)], targets=[sq], backend="fastest"), "backend"),
    ]
    for kwargs, field in cases:
        with pytest.raises(ScenarioError) as err:
            trace_many(**kwargs)
        assert err.value.field == field, (kwargs, err.value)
        assert isinstance(err.value, ValueError)


def test_kernel_status_codes_for_what_it_does_not_take():
    """ARCH-03: the kernel never raises: mismatched lengths return -2; a polygon over MAX_VERTICES gives
    status 1 for the queries concerned (the wrapper then uses the reference)."""
    q = 2
    out = (np.zeros(q, np.uint8), np.zeros(q), np.zeros((q, 2)), np.zeros(q), np.zeros(q, np.int8))
    t, tc = pack([TARGET, TARGET])
    e, ec = pack([])
    assert fast.trace_many(np.zeros((3, 2)), t, tc, e, ec, e, ec, False, *out) == -2
    n = fast.MAX_VERTICES + 6
    big = Polygon(tuple((10.5 + 0.4 * math.cos(2 * math.pi * k / n), 0.4 * math.sin(2 * math.pi * k / n)) for k in range(n)))
    t, tc = pack([big, TARGET])
    assert fast.trace_many(np.zeros((2, 2)), t, tc, e, ec, e, ec, False, *out) == 1
    assert out[4].tolist() == [1, 0]
    batch = trace_many([(0.0, 0.0)] * 2, [big, TARGET])
    assert batch.recomputed.tolist() == [True, False] and batch.range[0] == line_of_fire((0, 0), big, []).range


def _run(code: str, **env) -> str:
    full = dict(os.environ, **env)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=full, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


SCRIPT = """
    import sys, warnings
    {prelude}
    from hardpoint.carwars.geometry import Polygon, line_of_fire
    from hardpoint.carwars.lof import trace_many
    t = Polygon.box(10, -1, 11, 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = trace_many([(0, 0), (0, -3)], [t, t], [Polygon.box(5, -0.4, 6, 3)]{kw})
        b = trace_many([(0, 0)], [t]{kw})
    ref = [line_of_fire(o, t, [Polygon.box(5, -0.4, 6, 3)]).range for o in [(0, 0), (0, -3)]]
    print(a.backend, "hardpoint.fastcore._lof" in sys.modules, a.range.tolist() == ref,
          sum(w.category.__name__ == "BackendWarning" for w in caught))
"""


def test_arch_04_reference_backend_never_imports_the_kernel():
    """ARCH-04: HARDPOINT_BACKEND=reference (or backend="reference") runs the reference and never imports
    hardpoint.fastcore._lof."""
    out = _run(SCRIPT.format(prelude="", kw=""), HARDPOINT_BACKEND="reference")
    assert out.split() == ["reference", "False", "True", "0"]
    out = _run(SCRIPT.format(prelude="", kw=", backend='reference'"), HARDPOINT_BACKEND="auto")
    assert out.split() == ["reference", "False", "True", "0"]
    out = _run(SCRIPT.format(prelude="", kw=""), HARDPOINT_BACKEND="auto")
    assert out.split() == ["compiled", "True", "True", "0"]


def test_arch_04_missing_kernel_falls_back_with_one_warning():
    """ARCH-04: without the compiled module the wrapper falls back to the reference with the single
    BackendWarning of compiled_module("_lof"); backend="compiled" then refuses."""
    block = """
    import importlib.abc
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "hardpoint.fastcore._lof":
                raise ImportError("blocked for the test")
    sys.meta_path.insert(0, Block())
    """
    out = _run(SCRIPT.format(prelude=textwrap.indent(textwrap.dedent(block), "    ").strip(), kw=""), HARDPOINT_BACKEND="auto")
    assert out.split() == ["reference", "False", "True", "1"]
    code = SCRIPT.format(prelude=textwrap.indent(textwrap.dedent(block), "    ").strip(), kw=", backend='compiled'")
    full = dict(os.environ, HARDPOINT_BACKEND="auto")
    res = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=full, timeout=120)
    assert res.returncode != 0 and "ScenarioError" in res.stderr and "backend" in res.stderr


def test_batch_is_released_from_the_gil_and_repr_is_short():
    """ARCH-03: a LofBatch reads as a summary; the kernel runs without the GIL (two threads, same answers)."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(5)
    origins = rng.uniform(-20, 20, (4000, 2))
    targets = [Counter.car(*rng.uniform(-20, 20, 2), 30.0) for _ in range(4000)]
    blockers = [Polygon.box(-2, -2, 2, 2), Polygon.box(6, 6, 9, 8)]
    whole = trace_many(origins, targets, blockers)
    with ThreadPoolExecutor(2) as pool:
        parts = list(pool.map(lambda s: trace_many(origins[s], targets[s], blockers), [slice(0, 2000), slice(2000, 4000)]))
    assert np.array_equal(np.concatenate([p.range for p in parts]), whole.range, equal_nan=True)
    assert repr(whole).startswith("LofBatch(4000 queries, ") and "backend='compiled'" in repr(whole)


# --- the grid (FAST-03): many blockers, the same answers ------------------------------------------


def kernel_cull(origins, targets, blockers, clouds, laser, use_grid):
    q = len(origins)
    out = (np.zeros(q, np.uint8), np.zeros(q), np.zeros((q, 2)), np.zeros(q), np.zeros(q, np.int8))
    fast.trace_many(np.asarray(origins, np.float64).reshape(q, 2), *pack(targets), *pack(blockers), *pack(clouds),
                    laser, *out, use_grid=use_grid)
    return out


def same_outputs(a, b) -> bool:
    return all(np.array_equal(x, y, equal_nan=(x.dtype.kind == "f")) for x, y in zip(a, b))


def _needle(x, y, length, angle):
    """A triangle with a vertex angle of about 1e-7 rad: a sliver, which the cull never drops (infinite margin)."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    pts = [(0.0, 0.0), (length, 0.0), (length, length * 1e-7)]
    return Polygon(tuple((x + px * c - py * s, y + px * s + py * c) for px, py in pts))


needle = st.builds(_needle, coord, coord, st.floats(1.0, 10.0), st.floats(0.0, 360.0))

crowd = st.tuples(
    st.lists(st.tuples(st.tuples(coord, coord), rect(0.25, 2.0)), min_size=1, max_size=6),   # queries
    st.lists(st.one_of(rect(0.25, 6.0), needle, rect(0.25, 30.0)), min_size=192, max_size=240),  # slivers, long walls
    st.lists(rect(0.5, 8.0), min_size=0, max_size=2),
    st.booleans(),
)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(crowd)
def test_fast_03_the_grid_answers_as_the_linear_cull_and_the_reference(scene):
    """FAST-03, CW-LOF-01..04: with 192 blockers or more the kernel finds them through its grid; on crowded random
    scenes (lattice corners and edges that line up, slivers the cull never drops, long walls across many cells,
    origins inside or on blockers, targets overlapping them) every figure of every query equals the linear
    cull's, bit for bit, and the reference's as ARCH-03 checks it."""
    queries, blockers, clouds, laser = scene
    origins = [o for o, _ in queries]
    targets = [t for _, t in queries]
    assert same_outputs(kernel_cull(origins, targets, blockers, clouds, laser, 1),
                        kernel_cull(origins, targets, blockers, clouds, laser, 0))
    check_against_reference(origins, targets, blockers, clouds, laser)


def test_fast_03_a_town_of_a_thousand_buildings_through_the_grid():
    """FAST-03: 1,024 buildings, 20,000 shots at up to 24": the grid and the linear cull give the same figures, bit for
    bit; 300 of them equal the reference's exactly (CW-LOF-01..03)."""
    rng = np.random.default_rng(19)
    blockers = [Counter(*(rng.uniform(0, 240, 2)), *rng.uniform(0.5, 6, 2), rng.uniform(0, 360)).polygon() for _ in range(1024)]
    origins, targets = [], []
    for _ in range(20_000):
        o = rng.uniform(0, 240, 2)
        a, d = rng.uniform(0, 2 * math.pi), rng.uniform(1, 24)
        origins.append(tuple(o))
        targets.append(Counter.car(o[0] + d * math.cos(a), o[1] + d * math.sin(a), rng.uniform(0, 360)).polygon())
    with_grid = kernel_cull(origins, targets, blockers, [], False, 1)
    assert same_outputs(with_grid, kernel_cull(origins, targets, blockers, [], False, 0))
    clear, rng_, aim, _, status = with_grid
    assert 0.05 < clear.mean() < 0.95 and (status == 0).sum() > 10_000   # hand-backs: cars overlapping buildings
    for i in np.flatnonzero(status == 0)[:300]:
        sight = line_of_fire(origins[i], targets[i], blockers)
        assert bool(clear[i]) == sight.clear
        if sight.clear:
            assert (rng_[i], aim[i, 0], aim[i, 1]) == (sight.range, *sight.aim_point)


def test_fast_03_the_grid_keeps_a_blocker_in_line_with_an_edge_ray():
    """FAST-03, CW-LOF-02: the origin, an edge of the target and an edge of a blocker far beyond it in one line (the
    blocker outside the target's cone): a rounding can make the reference count that blocker in front and hide a
    hair of the target at that edge, which moves the aim point and the range in the last bit. The grid must find
    such blockers (along the edge rays, when the aim point is on one): every figure equals the linear cull's and the
    reference's. Found by review: the grid once missed 210 of 3,000 such scenes."""
    rng = np.random.default_rng(3)
    frng = np.random.default_rng(5)
    filler = []
    for _ in range(400):   # enough to turn the grid on, far from the scenes
        a, r = frng.uniform(0, 2 * math.pi), frng.uniform(95, 100)
        x, y = r * math.cos(a), r * math.sin(a)
        filler.append(Polygon(((x, y), (x + 0.01, y), (x + 0.01, y + 0.01), (x, y + 0.01))))

    def on_line(o, u, n, a, b, w):
        return Polygon(tuple((o[0] + s * u[0] + t * n[0], o[1] + s * u[1] + t * n[1]) for s, t in ((a, 0), (b, 0), (b, w), (a, w))))

    origins, targets, scenes = [], [], []
    for _ in range(300):
        o = tuple(rng.uniform(-20, 20, 2).round(int(rng.integers(1, 4))))
        th = rng.uniform(0, 2 * math.pi)
        u, n = (math.cos(th), math.sin(th)), (-math.sin(th), math.cos(th))
        d1 = rng.uniform(1, 10)
        d2 = d1 + rng.uniform(0.5, 3)
        d3 = d2 + rng.uniform(0.0, 30)
        side = -1 if rng.random() < 0.8 else 1
        target = on_line(o, u, n, d1, d2, rng.uniform(0.5, 2))
        blocker = on_line(o, u, (side * n[0], side * n[1]), d3, d3 + rng.uniform(0.5, 5), rng.uniform(0.5, 2))
        scenes.append((o, target, blocker))
    for o, target, blocker in scenes:
        blockers = [blocker] + filler
        grid = kernel_cull([o], [target], blockers, [], False, 1)
        assert same_outputs(grid, kernel_cull([o], [target], blockers, [], False, 0))
        if grid[4][0] == 0:
            sight = line_of_fire(o, target, [blocker])
            assert bool(grid[0][0]) == sight.clear
            if sight.clear:
                assert (grid[1][0], grid[2][0, 0], grid[2][0, 1]) == (sight.range, *sight.aim_point)
