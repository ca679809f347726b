"""Line-of-fire benchmark (PERF-01, CW-LOF-01..04): the batch kernel against the reference, one thread.

A town block: 8 rectangular buildings and one smoke cloud (not a laser: the
cloud only costs its crossing length), and car counters shot at from random
points in the streets. Target: 5 million queries a second on one core.
Run: `pytest benchmarks/test_bench_lof.py -s`.
"""
import numpy as np
import pytest

from hardpoint.carwars.geometry import Polygon, cloud_penalty_length, line_of_fire
from hardpoint.carwars.lof import trace_many

from .conftest import interleaved, scaled

fast = pytest.importorskip("hardpoint.fastcore._lof")
N = scaled(200_000)
REF_N = scaled(2_000)

BUILDINGS = [Polygon.box(*b) for b in [
    (-18.0, -18.0, -12.0, -13.0), (-6.0, -17.0, -1.0, -11.0), (5.0, -18.0, 9.0, -12.5), (12.0, -16.0, 18.0, -9.0),
    (-17.0, 4.0, -11.0, 9.0), (-5.0, 6.0, 1.5, 10.0), (6.0, 3.0, 10.0, 8.5), (13.0, 10.0, 18.0, 17.0),
]]
SMOKE = Polygon.box(-1.0, -1.5, 1.0, 0.5)


def town(n: int, seed: int = 2026):
    """n (origin, car) queries in the streets: (Q, 2) origins, (Q, 4, 2) counter-clockwise car outlines."""
    rng = np.random.default_rng(seed)
    boxes = np.array([(p.vertices[0][0], p.vertices[0][1], p.vertices[2][0], p.vertices[2][1]) for p in BUILDINGS])

    def street_points(k):
        out = np.empty((0, 2))
        while len(out) < k:
            p = rng.uniform(-20.0, 20.0, (2 * k, 2))
            inside = ((p[:, None, 0] > boxes[:, 0] - 0.6) & (p[:, None, 0] < boxes[:, 2] + 0.6)
                      & (p[:, None, 1] > boxes[:, 1] - 0.6) & (p[:, None, 1] < boxes[:, 3] + 0.6)).any(axis=1)
            out = np.concatenate([out, p[~inside]])
        return out[:k]

    origins = street_points(n)
    centres = street_points(n)
    f = np.radians(rng.uniform(0.0, 360.0, n))
    s, c = np.sin(f), np.cos(f)
    local = np.array([(-0.25, 0.5), (0.25, 0.5), (0.25, -0.5), (-0.25, -0.5)])  # a car, 1" x 1/2"
    cars = np.empty((n, 4, 2))
    cars[:, :, 0] = centres[:, None, 0] + local[:, 0] * c[:, None] + local[:, 1] * s[:, None]
    cars[:, :, 1] = centres[:, None, 1] - local[:, 0] * s[:, None] + local[:, 1] * c[:, None]
    oriented = np.empty_like(cars)
    plain = np.empty(n, np.int8)
    fast.normalize_rows(cars, oriented, plain)
    assert plain.all()
    return np.ascontiguousarray(origins), oriented


def _packed(polys):
    arr = np.array([p.vertices for p in polys], dtype=np.float64)
    return arr, np.full(len(polys), arr.shape[1], dtype=np.int64)


def test_perf_01_line_of_fire_against_the_reference(benchmark, report):
    """PERF-01 / CW-LOF-01..04: 8 rectangular buildings + 1 smoke cloud, one thread: queries per second of
    the kernel (arrays packed) and of `hardpoint.carwars.lof.trace_many` (arrays in), and the speed-up over the
    reference per query (reference timed on ~2,000 queries). Target: >= 5 M queries/s."""
    origins, cars = town(N)
    counts = np.full(N, 4, dtype=np.int64)
    barr, bcounts = _packed(BUILDINGS)
    carr, ccounts = _packed([SMOKE])
    out = (np.empty(N, np.uint8), np.empty(N), np.empty((N, 2)), np.empty(N), np.empty(N, np.int8))

    def kernel():
        return fast.trace_many(origins, cars, counts, barr, bcounts, carr, ccounts, False, *out)

    def wrapper():
        return trace_many(origins, cars, BUILDINGS, [SMOKE])

    targets = [Polygon(tuple(map(tuple, row))) for row in cars[:REF_N]]

    def reference():
        for i in range(REF_N):
            o = (float(origins[i, 0]), float(origins[i, 1]))
            sight = line_of_fire(o, targets[i], BUILDINGS)
            if sight.clear:
                cloud_penalty_length(o, sight.aim_point, [SMOKE])

    handed_back = kernel()
    # the figures are the reference's (bit for bit on the queries the kernel computed)
    for i in range(0, REF_N, 10):
        o = (float(origins[i, 0]), float(origins[i, 1]))
        sight = line_of_fire(o, targets[i], BUILDINGS)
        assert bool(out[0][i]) == sight.clear
        if sight.clear and out[4][i] == 0:
            assert (out[1][i], out[2][i, 0], out[2][i, 1]) == (sight.range, *sight.aim_point)
            assert out[3][i] == cloud_penalty_length(o, sight.aim_point, [SMOKE])

    t_ref = interleaved(reference, lambda: None, rounds=1, reps=1)[0]
    t_kernel, t_wrapper = interleaved(kernel, wrapper, rounds=3, reps=3)
    benchmark.pedantic(kernel, rounds=3, iterations=1)
    per_ref, per_kernel = t_ref / REF_N, t_kernel / N
    report("line of fire", queries_per_s_millions=N / t_kernel / 1e6, wrapper_queries_per_s_millions=N / t_wrapper / 1e6,
           reference_queries_per_s=1.0 / per_ref, speedup=per_ref / per_kernel, clear_fraction=float(out[0].mean()),
           handed_back=int(handed_back))
