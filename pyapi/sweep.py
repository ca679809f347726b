"""Sweeps of a duel (FIGHT-12): who wins over range x aspect x speed, as a table, a heatmap and JSON.

`sweep("hunter", "stinger")` fights the duel (`hardpoint.duel.build_duel`) at
every range, aspect and speed of the grid, each cell with the same trials and
seed, and gives per cell P(A wins), P(B wins), P(draw) and P(undecided) with
their 95% intervals; `heatmap` draws P(A wins) - P(B wins) for each aspect.

    >>> s = sweep("hunter", "stinger", ranges=(8.0,), aspects=("head-on",), speeds=(0.0,), trials=200, tactics="none")
    >>> [round(c.a_wins.estimate + c.b_wins.estimate + c.draw.estimate + c.undecided.estimate, 9) for c in s.cells]
    [1.0]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import ScenarioError
from .results import Outcome, shown_probability

__all__ = ["Cell", "Sweep", "sweep", "heatmap", "RANGES", "SPEEDS", "MAX_CELLS"]

RANGES = (4.0, 8.0, 12.0, 16.0)
SPEEDS = (0.0, 20.0, 40.0, 60.0)
MAX_CELLS = 4_096          # SAFE-03: the grid's size is bounded


@dataclass(frozen=True)
class Cell:
    """One duel of the sweep: where it starts, and its four outcomes (FIGHT-05)."""

    range: float
    aspect: str
    speed: float
    a_wins: Outcome
    b_wins: Outcome
    draw: Outcome
    undecided: Outcome
    backend: str

    def to_dict(self) -> dict[str, Any]:
        return {"range": self.range, "aspect": self.aspect, "speed": self.speed, "backend": self.backend,
                **{k: getattr(self, k).to_dict() for k in ("a_wins", "b_wins", "draw", "undecided")}}


@dataclass
class Sweep:
    """A whole sweep: the two designs, the grid, the options and every cell."""

    a: str
    b: str
    ranges: tuple[float, ...]
    aspects: tuple[str, ...]
    speeds: tuple[float, ...]
    options: dict
    cells: list[Cell] = field(default_factory=list)

    def cell(self, range_: float, aspect: str, speed: float) -> Cell:
        return next(c for c in self.cells if (c.range, c.aspect, c.speed) == (range_, aspect, speed))

    def to_dict(self) -> dict[str, Any]:
        """PROTO-01: the sweep document."""
        return {"format": "hardpoint/1", "kind": "sweep", "a": self.a, "b": self.b, "ranges": list(self.ranges),
                "aspects": list(self.aspects), "speeds": list(self.speeds), "options": self.options,
                "cells": [c.to_dict() for c in self.cells]}


def _grid(values, field_name: str, lo: float, hi: float) -> tuple[float, ...]:
    out = tuple(float(v) for v in values)
    if not out or any(not (lo <= v <= hi) for v in out):
        raise ScenarioError(f"one or more numbers from {lo:g} to {hi:g}", field=field_name, value=list(values), rule="FIGHT-12")
    return out


def sweep(a: str, b: str, ranges=RANGES, aspects=None, speeds=SPEEDS, trials: int = 10_000, seed: int = 1,
          turns: int = 20, tactics: str = "bring_to_bear", drops: bool = False, precision: float | None = None,
          progress: Callable[[int], Any] | None = None, **run: Any) -> Sweep:
    """FIGHT-12: the duel of `a` and `b` at every range x aspect x speed of the grid (each `trials` fights, or run
    until `precision` with FIGHT-11's `run_to_precision`), `run` going to `run_batch` (backend, threads, cancel)."""
    from .api import run_batch
    from .duel import ASPECTS, build_duel, parse_tactics
    from .precision import run_to_precision

    aspects = tuple(ASPECTS) if aspects is None else tuple(aspects)
    for x in aspects:
        if x not in ASPECTS:
            raise ScenarioError(f"expected one of {', '.join(ASPECTS)}", field="aspects", value=x, rule="FIGHT-12")
    ranges, speeds = _grid(ranges, "ranges", 0.5, 1000.0), _grid(speeds, "speeds", 0.0, 300.0)
    if len(ranges) * len(aspects) * len(speeds) > MAX_CELLS:
        raise ScenarioError(f"at most {MAX_CELLS:,} cells", field="ranges", value=len(ranges) * len(aspects) * len(speeds),
                            rule="SAFE-03")
    parse_tactics(tactics)
    out = Sweep(a, b, ranges, aspects, speeds, {"trials": trials, "seed": seed, "turns": turns, "tactics": tactics,
                                                "drops": drops, "precision": precision})
    for aspect in aspects:
        for speed in speeds:
            for range_ in ranges:
                scenario = build_duel(a, b, range_, aspect, speed, turns, tactics=tactics, drops=drops)
                if precision is None:
                    result = run_batch(scenario, trials, seed, keep="summary", **run)
                else:
                    result = run_to_precision(scenario, precision, seed, trials, **run).result
                sides = [o for o in result.outcomes if o.measure == "win"]
                out.cells.append(Cell(range_, aspect, speed, sides[0], sides[1], result.find("draw"), result.find("undecided"),
                                      result.backend))
                if progress is not None:
                    progress(1)
    return out


def print_sweep(s: Sweep, console=None) -> None:
    """The sweep as a person reads it: one table per aspect, speeds down and ranges across, each cell P(A wins)
    over P(B wins) with A's 95% interval (FIGHT-11's honest figures)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .limits import safe_text

    console = console or Console()
    for aspect in s.aspects:
        t = Table(title=Text(f"{safe_text(s.a)} against {safe_text(s.b)}, {aspect}: P(A wins) / P(B wins), A's 95% "
                             f"interval; tactics {s.options['tactics']}"), title_justify="left")
        t.add_column("speed \\ range")
        for r in s.ranges:
            t.add_column(f'{r:g}"', justify="right")
        for speed in s.speeds:
            row = []
            for r in s.ranges:
                c = s.cell(r, aspect, speed)
                a_shown, a_interval = shown_probability(c.a_wins.count, c.a_wins.n, digits=3)
                b_shown, _ = shown_probability(c.b_wins.count, c.b_wins.n, digits=3)
                undecided = c.undecided.count / c.undecided.n if c.undecided.n else 0.0
                extra = f"\nundecided {undecided:.3f}" if undecided > 0.05 else ""
                row.append(f"{a_shown} / {b_shown}\n{a_interval}{extra}")
            t.add_row(f"{speed:g} mph", *row)
        console.print(t)


def heatmap(s: Sweep, title: str | None = None):
    """PIC-02 / FIGHT-12: one panel per aspect, speed against range, each cell coloured by P(A wins) - P(B wins)
    (blue A, red B) and labelled with P(A wins)."""
    from .plot import _figure, _text

    n = len(s.aspects)
    fig = _figure(3.2 * n + 1.2, 0.5 * len(s.speeds) + 2.0)
    axes = fig.subplots(1, n, squeeze=False)[0]
    image = None
    for ax, aspect in zip(axes, s.aspects):
        grid = [[s.cell(r, aspect, v).a_wins.estimate - s.cell(r, aspect, v).b_wins.estimate for r in s.ranges] for v in s.speeds]
        image = ax.imshow(grid, cmap="RdBu", vmin=-1.0, vmax=1.0, origin="lower", aspect="auto", gid=f"heat-{aspect}")
        ax.set_xticks(range(len(s.ranges)), [f"{r:g}" for r in s.ranges])
        ax.set_yticks(range(len(s.speeds)), [f"{v:g}" for v in s.speeds])
        ax.set_xlabel("range (inches)")
        ax.set_ylabel("speed (mph)")
        ax.set_title(aspect, fontsize=10)
        for i, v in enumerate(s.speeds):
            for j, r in enumerate(s.ranges):
                ax.text(j, i, f"{s.cell(r, aspect, v).a_wins.estimate:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(image, ax=list(axes), label="P(A wins) - P(B wins)")
    import textwrap

    fig.suptitle("\n".join(textwrap.wrap(_text(title or f"{s.a} (A) against {s.b} (B): who wins, by range, aspect and "
                                                         f"speed; tactics {s.options['tactics']}"), 60)), fontsize=10)
    return fig
