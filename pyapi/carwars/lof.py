"""`hardpoint.carwars.lof`: line of fire for many (origin, target) pairs in one call (CW-LOF-01..04, ARCH-03).

Each query must agree with the reference, `hardpoint.carwars.geometry`:

    sight = line_of_fire(origin, target, blockers + (clouds if laser else []))
    cloud_length = cloud_penalty_length(origin, sight.aim_point, clouds)   # not laser

which is how `explain_attack` traces an attack (the target already clipped to
the weapon's arc by `clip_to_arc`). The compiled kernel
(`hardpoint.fastcore._lof`, Cython, GIL released) computes the common case with
the reference's operations in the reference's order, so its figures are
bit-identical; the queries it does not handle (the origin within 1e-9" of a
blocker's edge, a blocker overlapping the target, polygons of more than 64
vertices) come back with status 1 and are recomputed here with the reference.
So the results always equal the reference's.

    >>> from hardpoint.carwars.geometry import Polygon
    >>> wall = Polygon.box(5.0, -0.4, 6.0, 3.0)
    >>> smoke = Polygon.box(7.0, -3.0, 7.75, -0.5)
    >>> batch = trace_many([(0.0, 0.0), (0.0, 6.0)], Polygon.box(10.0, -1.0, 11.0, 1.0), [wall], [smoke])
    >>> batch.clear.tolist(), batch.range.round(4).tolist(), batch.cloud_penalty.tolist()
    ([True, True], [10.0319, 11.1803], [-2, 0])
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .. import backend as _backend
from . import geometry as geo
from ..errors import ScenarioError

__all__ = ["LofBatch", "trace_many", "cloud_penalty"]

# tohit.cloud_modifier (CW-LOF-04): -1 per 1/2" crossed, rounded up; nothing up to 1e-9".
_CLOUD_PER = 0.5
_CLOUD_PENALTY = -1


@dataclass(frozen=True, eq=False)
class LofBatch:
    """Per query results of `trace_many` (CW-LOF-01..04).

    Attributes:
        clear: (Q,) bool, a line of fire exists.
        range: (Q,) float64, inches to the aim point; NaN when hidden.
        aim: (Q, 2) float64, the nearest visible point of the target; NaN when hidden.
        cloud_length: (Q,) float64, inches of smoke or paint on the line from
            the origin to the aim point (union of the clouds); 0.0 for lasers
            (clouds block them instead); NaN when hidden.
        cloud_penalty: (Q,) int64, the to-hit modifier for it, as
            `tohit.cloud_modifier`: -ceil(length / 0.5 - 1e-9), 0 up to 1e-9"
            and when hidden.
        recomputed: (Q,) bool, queries the reference computed (all of them
            with the reference backend).
        backend: "compiled" or "reference".
        laser: whether clouds blocked (True) or only cost a penalty.
    """

    clear: np.ndarray
    range: np.ndarray
    aim: np.ndarray
    cloud_length: np.ndarray
    cloud_penalty: np.ndarray
    recomputed: np.ndarray
    backend: str
    laser: bool

    def __len__(self) -> int:
        return int(self.clear.shape[0])

    def __repr__(self) -> str:
        return (f"LofBatch({len(self)} queries, {int(self.clear.sum())} clear, backend={self.backend!r}, "
                f"laser={self.laser}, recomputed={int(self.recomputed.sum())})")


def cloud_penalty(cloud_length: np.ndarray) -> np.ndarray:
    """CW-LOF-04: the to-hit modifier for inches of cloud crossed, as `tohit.cloud_modifier` (NaN gives 0)."""
    length = np.asarray(cloud_length, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        halves = np.ceil(length / _CLOUD_PER - 1e-9)
        out = np.where(length > 1e-9, halves * _CLOUD_PENALTY, 0.0)
    return out.astype(np.int64)


# --- validation and packing -------------------------------------------------------------------


def _polygon(shape: Any, field: str) -> geo.Polygon:
    """A Polygon or Counter, or a sequence of (x, y) vertices, as the reference's Polygon."""
    if isinstance(shape, geo.Polygon):
        return shape
    if isinstance(shape, geo.Counter):
        return shape.polygon()
    try:
        pts = np.asarray(shape, dtype=np.float64)
    except (TypeError, ValueError):
        raise ScenarioError("expected a Polygon, a Counter or an (N, 2) array of vertices", field=field,
                            value=type(shape).__name__, rule="CW-LOF-01") from None
    if pts.ndim != 2 or pts.shape[1] != 2:
        raise ScenarioError(f"expected an (N, 2) array of vertices, got shape {pts.shape}", field=field, rule="CW-LOF-01")
    try:
        return geo.Polygon(tuple((float(x), float(y)) for x, y in pts))
    except ValueError as exc:
        raise ScenarioError(str(exc), field=field, rule="CW-LOF-01") from None


def _is_shape(obj: Any) -> bool:
    return isinstance(obj, (geo.Polygon, geo.Counter))


def _pack(polys: Sequence[geo.Polygon]) -> tuple[np.ndarray, np.ndarray]:
    """(N, K, 2) vertices, K the largest vertex count (at least 3), and the counts."""
    k = max([len(p.vertices) for p in polys] + [3])
    arr = np.zeros((len(polys), k, 2), dtype=np.float64)
    counts = np.zeros(len(polys), dtype=np.int64)
    for i, p in enumerate(polys):
        n = len(p.vertices)
        arr[i, :n] = p.vertices
        counts[i] = n
    return arr, counts


def _shared(items: Any, field: str) -> list[geo.Polygon]:
    """The blockers or clouds: Polygons/Counters, vertex lists, or an (N, K, 2) array."""
    if items is None:
        return []
    if _is_shape(items):
        raise ScenarioError("expected a sequence of shapes, got a single one", field=field, value=type(items).__name__,
                            rule="CW-LOF-01")
    if isinstance(items, np.ndarray) and (items.ndim != 3 or items.shape[-1] != 2):
        raise ScenarioError(f"expected an (N, K, 2) array, got shape {items.shape}", field=field, rule="CW-LOF-01")
    return [_polygon(s, f"{field}[{i}]") for i, s in enumerate(items)]


def _target_rows(arr: np.ndarray, kernel: Any) -> tuple[np.ndarray, np.ndarray]:
    """(Q, M, 2) vertex rows normalised as geometry.Polygon stores them.

    The kernel's `check_rows` finds the rows it can vouch for (finite,
    distinct, convex with every turn clearly to the left, one winding) and
    which of them are already stored as Polygon stores them: those are traced
    as given, without a copy; `normalize_rows` orients the others it vouches
    for; every other row goes through Polygon itself, which normalises it or
    says what is wrong with it.
    """
    q, m = arr.shape[0], arr.shape[1]
    counts = np.full(q, m, dtype=np.int64)
    if kernel is not None:
        plain = np.empty(q, dtype=np.int8)
        if kernel.check_rows(arr, plain) == 0:
            return arr, counts
        out = arr.copy()
        turn = np.flatnonzero(plain == 2)
        if turn.size:
            oriented = np.empty((turn.size, m, 2), dtype=np.float64)
            ok = np.empty(turn.size, dtype=np.int8)
            kernel.normalize_rows(np.ascontiguousarray(arr[turn]), oriented, ok)
            out[turn] = oriented
    else:
        out = np.zeros((q, m, 2), dtype=np.float64)
        plain = np.zeros(q, dtype=np.int8)
    for i in np.flatnonzero(plain == 0):
        poly = _polygon(arr[i], f"targets[{i}]")
        n = len(poly.vertices)
        out[i] = 0.0
        out[i, :n] = poly.vertices
        counts[i] = n
    return out, counts


def _targets(targets: Any, kernel: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """Packed targets, or None for a single shape (broadcast to every origin)."""
    if _is_shape(targets):
        return None
    if not isinstance(targets, np.ndarray):
        try:
            items = list(targets)
        except TypeError:
            raise ScenarioError("expected shapes or a (Q, M, 2) array", field="targets", value=type(targets).__name__,
                                rule="CW-LOF-01") from None
        if any(map(_is_shape, items)):
            return _pack([_polygon(t, f"targets[{i}]") for i, t in enumerate(items)])
    try:
        arr = np.asarray(targets, dtype=np.float64)
    except (TypeError, ValueError):  # ragged vertex lists
        return _pack([_polygon(t, f"targets[{i}]") for i, t in enumerate(targets)])
    if arr.ndim == 2 and arr.shape[1] == 2:
        return None  # one polygon given by its vertices
    if arr.ndim != 3 or arr.shape[2] != 2 or arr.shape[1] < 3:
        raise ScenarioError(f"expected (Q, M, 2) vertices with M >= 3, got shape {arr.shape}", field="targets",
                            rule="CW-LOF-01")
    return _target_rows(np.ascontiguousarray(arr), kernel)


def _origins(origins: Any) -> np.ndarray:
    try:
        arr = np.asarray(origins, dtype=np.float64)
    except (TypeError, ValueError):
        raise ScenarioError("expected (x, y) points", field="origins", value=type(origins).__name__, rule="CW-LOF-01") from None
    if arr.ndim == 1 and arr.shape == (2,):
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ScenarioError(f"expected a (Q, 2) array of points, got shape {arr.shape}", field="origins", rule="CW-LOF-01")
    if not np.isfinite(arr).all():
        bad = np.flatnonzero(~np.isfinite(arr).all(axis=1))
        raise ScenarioError("not a finite point", field=f"origins[{bad[0]}]", value=tuple(arr[bad[0]].tolist()),
                            rule="CW-LOF-01")
    return np.ascontiguousarray(arr)


# --- the batch --------------------------------------------------------------------------------


def trace_many(origins: Any, targets: Any, blockers: Any = (), clouds: Any = (), *, laser: bool = False,
               backend: str | None = None) -> LofBatch:
    """Line of fire, range, aim point and cloud crossing for Q queries (CW-LOF-01..04).

    Must agree with `geometry.line_of_fire` (then `geometry.cloud_penalty_length`
    on the line to the aim point), query by query; the compiled kernel is
    `hardpoint.fastcore._lof.trace_many`.

    Args:
        origins: (Q, 2) firing points, or one (x, y) for every target.
        targets: one shape for every origin, Q shapes (Polygon or Counter, or
            vertex lists), or a (Q, M, 2) array of convex polygons (either
            orientation, as Polygon accepts them).
        blockers: buildings and counters shared by all queries (Polygons,
            Counters, vertex lists, or an (N, K, 2) array). Leave the firer's
            own counter out.
        clouds: smoke and paint clouds, shared.
        laser: clouds block the line of fire (CW-LOF-04) instead of costing
            -1 per 1/2" crossed.
        backend: "compiled", "reference", or None/"auto" (HARDPOINT_BACKEND,
            then the compiled kernel when it loads).

    Raises:
        ScenarioError: a malformed input, naming the field (origins, targets[i],
            blockers[i], clouds[i], backend); or backend="compiled" without
            the compiled kernel.
    """
    choice = str(backend or _backend.requested()).strip().lower()
    if choice not in ("auto", "compiled", "reference"):
        raise ScenarioError("expected auto, compiled or reference", field="backend", value=backend, rule="ARCH-04")
    kernel = None
    if choice != "reference":
        kernel = _backend.compiled_module("_lof", choice)
        if kernel is None and choice == "compiled":
            raise ScenarioError("the compiled kernel _lof is not available", field="backend", value="compiled", rule="ARCH-04")
    pts = _origins(origins)
    packed = _targets(targets, kernel)
    if packed is None:
        one = _pack([_polygon(targets, "targets")])
        n = pts.shape[0]
        packed = (np.ascontiguousarray(np.broadcast_to(one[0], (n,) + one[0].shape[1:])), np.full(n, one[1][0], dtype=np.int64))
    tarr, tcounts = packed
    if pts.shape[0] == 1 and tarr.shape[0] != 1:
        pts = np.ascontiguousarray(np.broadcast_to(pts, (tarr.shape[0], 2)))
    if tarr.shape[0] != pts.shape[0]:
        raise ScenarioError(f"{pts.shape[0]} origins but {tarr.shape[0]} targets", field="targets", rule="CW-LOF-01")
    bpolys = _shared(blockers, "blockers")
    cpolys = _shared(clouds, "clouds")
    laser = bool(laser)
    q = pts.shape[0]

    if kernel is not None:  # the kernel writes every element
        clear, rng, aim, length = np.empty(q, np.uint8), np.empty(q), np.empty((q, 2)), np.empty(q)
        status = np.empty(q, np.int8)
        penalty = np.empty(q, np.int64)
        barr, bcounts = _pack(bpolys)
        carr, ccounts = _pack(cpolys)
        r = kernel.trace_many(pts, tarr, tcounts, barr, bcounts, carr, ccounts, laser, clear, rng, aim, length, status,
                              out_penalty=penalty)
        if r == -1:
            raise MemoryError("hardpoint.carwars.lof: the compiled kernel could not allocate its scratch memory")
        if r < 0:
            raise RuntimeError(f"hardpoint.carwars.lof: the compiled kernel rejected the packed arrays (code {r})")
    else:
        clear, rng, aim, length = np.zeros(q, np.uint8), np.full(q, np.nan), np.full((q, 2), np.nan), np.full(q, np.nan)
        status = np.ones(q, np.int8)  # every query goes to the reference
        penalty = np.zeros(q, np.int64)
    redo = np.flatnonzero(status != 0)
    if redo.size:
        blocking = bpolys + cpolys if laser else bpolys
        for i in redo:
            n = int(tcounts[i])
            tpoly = geo.Polygon(tuple((float(x), float(y)) for x, y in tarr[i, :n]))
            o = (float(pts[i, 0]), float(pts[i, 1]))
            sight = geo.line_of_fire(o, tpoly, blocking)
            clear[i] = sight.clear
            if sight.clear:
                rng[i] = sight.range
                aim[i] = sight.aim_point
                length[i] = 0.0 if laser else geo.cloud_penalty_length(o, sight.aim_point, cpolys)
            else:
                rng[i] = aim[i, 0] = aim[i, 1] = length[i] = np.nan
        penalty[redo] = cloud_penalty(length[redo])
    return LofBatch(clear=clear.view(bool), range=rng, aim=aim, cloud_length=length, cloud_penalty=penalty,
                    recomputed=status != 0, backend="compiled" if kernel is not None else "reference", laser=laser)
