"""Line of fire as the arena grows (FAST-03, CW-LOF-01..04): blockers 8..4096, one thread.

The scene is the town block of `test_bench_lof.py` (8 buildings in 40" x 40")
tiled into a square town of n / 8 blocks, so the density of buildings stays
the same while the arena grows. Queries: a car counter shot at from a random
point in the streets at up to 24" (a long weapon range on the Car Wars map).

Figures, per query, measured in one run:
- the kernel with its grid (`use_grid=1`, the default) and with the linear cull
  it replaced (`use_grid=0`): the results are the same, bit for bit (checked);
- shapely's STRtree (optional: `pip install '.[bench]'`) on the same scene, asked
  only for the candidate blockers of each query (the convex hull of the origin
  and the target): the cull alone, no line of fire at all, in one bulk call
  and one query at a time.
Targets: 4096 blockers at most 2 us a query and at least 3x under the STRtree;
8 blockers no slower than the linear cull.
Run: `pytest benchmarks/test_bench_lof_scale.py -s`.
"""
import numpy as np
import pytest

from .conftest import interleaved, scaled
from .test_bench_lof import BUILDINGS

fast = pytest.importorskip("hardpoint.fastcore._lof")
Q = scaled(100_000)
RANGE = 24.0
TILE = 40.0


def town_of(n_blockers: int, n_queries: int, seed: int = 2026):
    """(blockers, counts, origins, cars): the block tiled to n_blockers buildings, queries in its streets."""
    rng = np.random.default_rng(seed)
    block = np.array([p.vertices for p in BUILDINGS], dtype=np.float64)      # (8, 4, 2), centred on 0
    tiles = max(1, n_blockers // len(block))
    side = int(np.ceil(np.sqrt(tiles)))
    offsets = np.array([(TILE * (k % side), TILE * (k // side)) for k in range(tiles)], dtype=np.float64)
    blockers = (block[None, :, :, :] + offsets[:, None, None, :]).reshape(-1, 4, 2)[:n_blockers]
    blockers = np.ascontiguousarray(blockers)
    lo, hi = blockers[:, :, :].min(axis=1), blockers[:, :, :].max(axis=1)
    extent = TILE * side

    def in_buildings(p):
        inside = np.zeros(len(p), bool)
        for s in range(0, len(lo), 512):   # in slices: 4096 blockers x 200,000 points would not fit
            l, h = lo[s:s + 512], hi[s:s + 512]
            inside |= ((p[:, None, 0] > l[:, 0] - 0.6) & (p[:, None, 0] < h[:, 0] + 0.6)
                       & (p[:, None, 1] > l[:, 1] - 0.6) & (p[:, None, 1] < h[:, 1] + 0.6)).any(axis=1)
        return inside

    origins = np.empty((0, 2))
    centres = np.empty((0, 2))
    while len(origins) < n_queries:
        o = rng.uniform(-TILE / 2, extent - TILE / 2, (n_queries, 2))
        ang = rng.uniform(0.0, 2 * np.pi, n_queries)
        d = rng.uniform(1.0, RANGE, n_queries)
        c = o + np.stack([np.cos(ang) * d, np.sin(ang) * d], axis=1)
        ok = ~in_buildings(o) & ~in_buildings(c)
        origins = np.concatenate([origins, o[ok]])
        centres = np.concatenate([centres, c[ok]])
    n = n_queries
    origins, centres = origins[:n], centres[:n]
    f = np.radians(rng.uniform(0.0, 360.0, n))
    s, c = np.sin(f), np.cos(f)
    local = np.array([(-0.25, 0.5), (0.25, 0.5), (0.25, -0.5), (-0.25, -0.5)])
    cars = np.empty((n, 4, 2))
    cars[:, :, 0] = centres[:, None, 0] + local[:, 0] * c[:, None] + local[:, 1] * s[:, None]
    cars[:, :, 1] = centres[:, None, 1] - local[:, 0] * s[:, None] + local[:, 1] * c[:, None]
    oriented = np.empty_like(cars)
    plain = np.empty(n, np.int8)
    fast.normalize_rows(cars, oriented, plain)
    return blockers, np.full(len(blockers), 4, np.int64), np.ascontiguousarray(origins), oriented


def _outputs(n):
    return (np.empty(n, np.uint8), np.empty(n), np.empty((n, 2)), np.empty(n), np.empty(n, np.int8))


def _same(a, b) -> bool:
    return all(np.array_equal(x, y, equal_nan=(x.dtype.kind == "f")) for x, y in zip(a, b))


@pytest.mark.parametrize("n_blockers", [8, 64, 512, 4096])
def test_fast_03_line_of_fire_scales_with_the_arena(benchmark, report, n_blockers):
    """FAST-03 / CW-LOF-01..04: us per query with the grid and with the linear cull (same results, checked), and
    shapely's STRtree asked only for the candidates. Targets: 4096 blockers <= 2 us and >= 3x under the STRtree;
    8 blockers no slower than the linear cull."""
    blockers, counts, origins, cars = town_of(n_blockers, Q)
    n = len(origins)
    tcounts = np.full(n, 4, np.int64)
    empty, ecount = np.zeros((0, 4, 2)), np.zeros(0, np.int64)
    grid_out, linear_out = _outputs(n), _outputs(n)

    def grid():
        return fast.trace_many(origins, cars, tcounts, blockers, counts, empty, ecount, False, *grid_out, use_grid=1)

    def linear():
        return fast.trace_many(origins, cars, tcounts, blockers, counts, empty, ecount, False, *linear_out, use_grid=0)

    grid()
    linear()
    assert _same(grid_out, linear_out), "the grid changed a result"
    t_grid, t_linear = interleaved(grid, linear, rounds=3, reps=2)
    benchmark.pedantic(grid, rounds=2, iterations=1)
    figures = dict(blockers=n_blockers, queries=n, grid_us=t_grid / n * 1e6, linear_us=t_linear / n * 1e6,
                   grid_over_linear=t_grid / t_linear, clear_fraction=float(grid_out[0].mean()))
    try:
        import shapely
    except ImportError:
        figures["strtree"] = "shapely not installed (pip install '.[bench]')"
    else:
        tree = shapely.STRtree(shapely.polygons(blockers))
        points = np.concatenate([origins[:, None, :], cars], axis=1)          # origin + the car's corners
        hulls = shapely.convex_hull(shapely.multipoints(points))

        def strtree():
            return tree.query(hulls)

        few = hulls[:scaled(2_000)]

        def strtree_one_by_one():     # as a caller asks it, one query at a time
            for h in few:
                tree.query(h)

        t_tree, t_one = interleaved(strtree, strtree_one_by_one, rounds=3, reps=2)
        figures.update(strtree_bulk_cull_us=t_tree / n * 1e6, strtree_bulk_over_grid=t_tree / t_grid,
                       strtree_one_by_one_cull_us=t_one / len(few) * 1e6, strtree_one_by_one_over_grid=(t_one / len(few)) / (t_grid / n))
    report(f"line of fire, {n_blockers} blockers", **figures)
