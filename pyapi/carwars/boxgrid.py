"""Axis-aligned boxes filed in a uniform grid, to find which of many may overlap one (FAST-03).

Movement looks for the pairs of counters that can meet in a phase, and the
fight packer for the counters that can stand between a firer and a target:
both only need the boxes near a box, which a scan of every box finds in time
proportional to the arena, and this grid in time proportional to the answer.
The answer is exact for boxes (every box overlapping the query, widened by
`pad`, and no other), in the order the boxes were added.
"""
from __future__ import annotations

import math
from typing import Sequence

Box = tuple[float, float, float, float]   # x0, y0, x1, y1

__all__ = ["Box", "BoxGrid", "bounds"]

_MAX_CELLS = 1024   # a box over more cells than this is kept aside and looked at by every query


def bounds(points: Sequence[Sequence[float]]) -> Box:
    """The box around some points."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _overlap(a: Box, b: Box, pad: float) -> bool:
    return a[0] - pad <= b[2] and b[0] <= a[2] + pad and a[1] - pad <= b[3] and b[1] <= a[3] + pad


class BoxGrid:
    """Boxes filed by the cells of side `cell` (inches) they overlap."""

    def __init__(self, cell: float = 4.0) -> None:
        self.cell = cell
        self.boxes: list[Box] = []
        self._cells: dict[tuple[int, int], list[int]] = {}
        self._aside: list[int] = []

    def _span(self, box: Box) -> tuple[range, range]:
        c = self.cell
        return (range(math.floor(box[0] / c), math.floor(box[2] / c) + 1),
                range(math.floor(box[1] / c), math.floor(box[3] / c) + 1))

    def add(self, box: Box) -> int:
        """File a box; returns its index."""
        i = len(self.boxes)
        self.boxes.append(box)
        xs, ys = self._span(box)
        if len(xs) * len(ys) > _MAX_CELLS:
            self._aside.append(i)
        else:
            for cx in xs:
                for cy in ys:
                    self._cells.setdefault((cx, cy), []).append(i)
        return i

    def near(self, box: Box, pad: float = 0.0) -> list[int]:
        """Indices, ascending, of the boxes that overlap `box` widened by `pad` (touching counts)."""
        x0, y0, x1, y1 = wide = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
        xs, ys = self._span(wide)
        boxes = self.boxes
        if len(xs) * len(ys) >= len(boxes):
            # as many cells as boxes: every box looked at once, in order (`_overlap` inlined: the fight packer asks
            # this for every pair of units in every phase)
            return [i for i, b in enumerate(boxes) if x0 <= b[2] and b[0] <= x1 and y0 <= b[3] and b[1] <= y1]
        found = set(self._aside)
        for cx in xs:
            for cy in ys:
                found.update(self._cells.get((cx, cy), ()))
        return sorted(i for i in found if _overlap(box, boxes[i], pad))
