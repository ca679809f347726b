"""Charts of results (PIC-02): hit rates against the exact odds, damage distributions, survival curves, who wins.

Each chart takes plain data (dicts or the small dataclasses below) and
returns a matplotlib `Figure`, made without pyplot (no global state, no
window); `save_figure` writes it as .svg or .png. Thin adapters read today's
results: `rates_from_summary` (the `hardpoint run` Summary), `damage_counts`
(a `BatchResult` kept with arrays), `exact_damage` (an `AttackOdds`). The
fight charts (`survival`, `who_wins`) take per-turn curves and per-side
probabilities with intervals, the shape fight results will have.

Needs matplotlib: `pip install 'hardpoint[plot]'`.

    >>> from fractions import Fraction
    >>> from hardpoint import plot
    >>> fig = plot.hit_rates([{"name": "mg hit", "estimate": 0.58, "stderr": 0.01, "exact": Fraction(7, 12)}])
    >>> len(fig.axes)
    1
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

from .errors import ScenarioError

__all__ = [
    "Rate", "Curve", "Outcome", "hit_rates", "damage_distribution", "survival", "who_wins", "run_figure",
    "rates_from_summary", "damage_counts", "exact_damage", "save_figure", "figure_bytes", "available",
]

Z95 = 1.959963984540054     # two-sided 95% normal quantile
EXACT_COLOUR = "#cf222e"
MC_COLOUR = "#0072B2"
SIDE_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")


# --- plain data ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rate:
    """A Monte Carlo rate: an estimate with its standard error or interval, and the exact value when known."""

    name: str
    estimate: float
    stderr: float | None = None
    low: float | None = None
    high: float | None = None
    exact: Fraction | None = None

    def interval(self) -> tuple[float, float] | None:
        """The 95% interval: as given, else estimate +- 1.96 standard errors, kept within [0, 1]."""
        if self.low is not None and self.high is not None:
            return (self.low, self.high)
        if self.stderr is None or not math.isfinite(self.stderr):
            return None
        return (max(0.0, self.estimate - Z95 * self.stderr), min(1.0, self.estimate + Z95 * self.stderr))


@dataclass(frozen=True)
class Curve:
    """A unit's survival by turn: P(still in action) at the end of each turn (turn 0: the start), with a band."""

    name: str
    turns: tuple[int, ...]
    alive: tuple[float, ...]
    low: tuple[float, ...] | None = None
    high: tuple[float, ...] | None = None
    side: str | None = None


@dataclass(frozen=True)
class Outcome:
    """One bar of who wins: a side's P(win), or "draw" / "undecided", with its 95% interval."""

    label: str
    p: float
    low: float | None = None
    high: float | None = None
    exact: Fraction | None = None


def _coerce(cls, row: Any):
    if isinstance(row, cls):
        return row
    if isinstance(row, Mapping):
        known = cls.__dataclass_fields__
        extra = sorted(set(row) - set(known))
        if extra:
            raise ScenarioError(f"unknown field(s) {', '.join(extra)} (known: {', '.join(known)})", field=cls.__name__,
                                value=None, rule="PIC-02")
        data = dict(row)
        for k in ("turns", "alive", "low", "high"):
            if k in data and isinstance(data[k], list):
                data[k] = tuple(data[k])
        if "exact" in data and isinstance(data["exact"], str):
            data["exact"] = Fraction(data["exact"])
        return cls(**data)
    raise ScenarioError(f"expected a {cls.__name__} or a dict", field=cls.__name__, value=type(row).__name__, rule="PIC-02")


# --- matplotlib, without pyplot -----------------------------------------------------------------

def available() -> bool:
    """Whether matplotlib is installed (the `plot` extra)."""
    from importlib.util import find_spec

    return find_spec("matplotlib") is not None


def _figure(width: float, height: float):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ScenarioError("charts need matplotlib: pip install 'hardpoint[plot]'", field="plot", rule="PIC-02") from None
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    return fig


def _text(s: Any) -> str:
    """Scenario text as a label: `$` escaped so matplotlib never reads it as mathtext; control characters dropped."""
    from .draw import clean_text

    return clean_text(s).replace("\\", "\\\\").replace("$", r"\$")


def _style(ax) -> None:
    ax.grid(True, axis="both", color="#d0d7de", linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


# --- the charts ----------------------------------------------------------------------------------

def hit_rates(rows: Iterable[Rate | Mapping], title: str = "Hit rates: Monte Carlo and exact odds", ax=None):
    """PIC-02: one horizontal bar per rate with its 95% interval, and a red mark at the exact value where known."""
    data = [_coerce(Rate, r) for r in rows]
    fig = None
    if ax is None:
        fig = _figure(7.0, 1.2 + 0.42 * max(1, len(data)))
        ax = fig.add_subplot()
    ys = list(range(len(data)))[::-1]
    ax.barh(ys, [r.estimate for r in data], color=MC_COLOUR, alpha=0.75, height=0.6, label="Monte Carlo", gid="mc-bars")
    for y, r in zip(ys, data):
        iv = r.interval()
        if iv is not None:
            ax.errorbar([r.estimate], [y], xerr=[[max(0.0, r.estimate - iv[0])], [max(0.0, iv[1] - r.estimate)]], fmt="none", ecolor="#24292f",
                        elinewidth=1.2, capsize=4)
    exact = [(y, float(r.exact)) for y, r in zip(ys, data) if r.exact is not None]
    if exact:
        ax.scatter([e for _, e in exact], [y for y, _ in exact], marker="D", s=46, color=EXACT_COLOUR, zorder=5,
                   label="exact", gid="exact-marks")
    ax.set_yticks(ys, [_text(r.name) for r in data])
    ax.set_xlim(0, 1)
    ax.set_xlabel("probability (bars: estimate with 95% interval)")
    ax.set_title(_text(title), loc="left", fontsize=11)
    ax.legend(loc="lower right", fontsize=8, frameon=False)
    _style(ax)
    return fig if fig is not None else ax.figure


def damage_distribution(name: str, counts: Mapping[int, int] | None = None, exact: Mapping[int, Any] | None = None, *,
                        samples: Sequence[int] | None = None, title: str | None = None, ax=None):
    """PIC-02: the damage of one attack: Monte Carlo frequencies as bars, the exact distribution as red marks.

    Give `counts` ({damage: trials}) or `samples` (one damage per trial); `exact` is {damage: probability}.
    """
    if counts is None:
        counts = {}
        for s in samples or ():
            counts[int(s)] = counts.get(int(s), 0) + 1
    total = sum(counts.values())
    fig = None
    if ax is None:
        fig = _figure(6.0, 3.2)
        ax = fig.add_subplot()
    if total:
        xs = sorted(counts)
        ax.bar(xs, [counts[x] / total for x in xs], color=MC_COLOUR, alpha=0.7, width=0.8,
               label=f"Monte Carlo ({total:,} trials)", gid="mc-bars")
    if exact:
        xs = sorted(exact)
        ax.plot(xs, [float(exact[x]) for x in xs], linestyle="none", marker="_", markersize=16, markeredgewidth=2.5,
                color=EXACT_COLOUR, label="exact", gid="exact-marks")
    ax.set_xlabel("damage (0: a miss)")
    ax.set_ylabel("probability")
    ax.set_title(_text(title or f"{name}: damage"), loc="left", fontsize=11)
    ax.xaxis.get_major_locator().set_params(integer=True)
    if total or exact:
        ax.legend(fontsize=8, frameon=False)
    _style(ax)
    return fig if fig is not None else ax.figure


def survival(curves: Iterable[Curve | Mapping], title: str = "Survival by turn", ax=None):
    """PIC-02 (fights): each unit's P(still in action) at the end of each turn, as steps, with its band."""
    data = [_coerce(Curve, c) for c in curves]
    for c in data:
        if len(c.turns) != len(c.alive) or any(band is not None and len(band) != len(c.turns) for band in (c.low, c.high)):
            raise ScenarioError("turns, alive, low and high must have one value per turn", field=f"curve {c.name!r}",
                                value=len(c.turns), rule="PIC-02")
    fig = None
    if ax is None:
        fig = _figure(7.0, 3.6)
        ax = fig.add_subplot()
    # One colour a side (in the order sides first come, as in the who-wins bars), one line style a unit of it.
    side_index: dict[str, int] = {}
    seen_on_side: dict[str, int] = {}
    for i, c in enumerate(data):
        key = c.side if c.side is not None else f"\0{i}"
        k = side_index.setdefault(key, len(side_index))
        colour = SIDE_COLOURS[k % len(SIDE_COLOURS)]
        style = ("-", "--", ":", "-.")[seen_on_side.get(key, 0) % 4]
        seen_on_side[key] = seen_on_side.get(key, 0) + 1
        ax.step(c.turns, c.alive, where="post", color=colour, linestyle=style, linewidth=2,
                label=_text(c.name + (f" ({c.side})" if c.side else "")), gid=f"survival-{i}")
        if c.low is not None and c.high is not None:
            ax.fill_between(c.turns, c.low, c.high, step="post", color=colour, alpha=0.15, linewidth=0)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("turn")
    ax.set_ylabel("P(still in action)")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_title(_text(title), loc="left", fontsize=11)
    if data:
        if len(data) > 4:    # many units: the legend beside the plot, not over the curves
            ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        else:
            ax.legend(fontsize=8, frameon=False, loc="lower left")
    _style(ax)
    return fig if fig is not None else ax.figure


def who_wins(rows: Iterable[Outcome | Mapping], title: str = "Who wins", ax=None):
    """PIC-02 (fights): P(win) per side, and P(draw) / P(undecided), as bars with their 95% intervals."""
    data = [_coerce(Outcome, r) for r in rows]
    fig = None
    if ax is None:
        fig = _figure(6.0, 1.2 + 0.45 * max(1, len(data)))
        ax = fig.add_subplot()
    ys = list(range(len(data)))[::-1]
    colours = [("#8c959f" if r.label in ("draw", "undecided") else SIDE_COLOURS[i % len(SIDE_COLOURS)]) for i, r in enumerate(data)]
    ax.barh(ys, [r.p for r in data], color=colours, height=0.6, gid="win-bars")
    for y, r in zip(ys, data):
        if r.low is not None and r.high is not None:
            ax.errorbar([r.p], [y], xerr=[[max(0.0, r.p - r.low)], [max(0.0, r.high - r.p)]], fmt="none", ecolor="#24292f", elinewidth=1.2, capsize=4)
        ax.text(min(max(r.p, r.high if r.high is not None else r.p), 0.86) + 0.02, y, f"{r.p:.1%}", va="center", fontsize=8)
        if r.exact is not None:
            ax.scatter([float(r.exact)], [y], marker="D", s=40, color=EXACT_COLOUR, zorder=5)
    ax.set_yticks(ys, [_text(r.label) for r in data])
    ax.set_xlim(0, 1)
    ax.set_xlabel("probability (95% interval)")
    ax.set_title(_text(title), loc="left", fontsize=11)
    _style(ax)
    return fig if fig is not None else ax.figure


# --- adapters from today's results ------------------------------------------------------------

def rates_from_summary(result) -> list[Rate]:
    """The probabilities of a run (`hardpoint.run_batch`'s BatchResult: hit rates, destroyed, on fire...), exact beside."""
    return [Rate(o.name(), o.estimate, o.stderr, exact=o.exact) for o in result.probabilities()]


def damage_counts(batch, attack: str) -> dict[int, int]:
    """{damage: trials} of one attack from a BatchResult kept with arrays (0: a miss)."""
    if batch.damage is None:
        raise ScenarioError("the batch kept no per-trial arrays (keep='arrays')", field="batch", value=attack, rule="PIC-02")
    j = batch.attacks.index(attack)
    import numpy as np

    values, counts = np.unique(batch.damage[:, j], return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts)}


def exact_damage(odds) -> dict[int, Fraction]:
    """The exact damage distribution of an `AttackOdds` (hardpoint.exact_attack)."""
    return dict(odds.damage)


def run_figure(summary, damage: Mapping[str, tuple[Mapping[int, int], Mapping[int, Any] | None]] | None = None,
               max_damage_panels: int = 6):
    """The chart of a run: the rates against the exact odds, then one damage distribution per attack (`--plot`)."""
    rates = rates_from_summary(summary)
    panels = list((damage or {}).items())[:max_damage_panels]
    cols = 2 if len(panels) > 1 else 1
    rows_d = math.ceil(len(panels) / cols)
    rate_h = 1.0 + 0.36 * max(1, len(rates))
    fig = _figure(9.0, rate_h + 2.9 * rows_d + 0.3)
    grid = fig.add_gridspec(1 + rows_d, cols, height_ratios=[rate_h] + [2.9] * rows_d)
    hit_rates(rates, title=f"{summary.scenario}\n{summary.trials:,} trials, seed {summary.seed}: rates against the exact odds",
              ax=fig.add_subplot(grid[0, :]))
    for i, (name, (counts, exact)) in enumerate(panels):
        damage_distribution(name, counts, exact, ax=fig.add_subplot(grid[1 + i // cols, i % cols]))
    return fig


def is_fight(summary) -> bool:
    """Whether a run's outcomes are a fight's (who wins, out of action by turn)."""
    return any(o.measure == "win" for o in summary.probabilities())


def who_wins_rows(summary) -> list[Outcome]:
    """The who-wins bars of a fight's run: each side's P(win), then draw and undecided, with 95% intervals."""
    rows = []
    for o in summary.probabilities():
        if o.measure in ("win", "draw", "undecided"):
            low, high = o.interval()
            label = f"{o.side} wins" if o.measure == "win" else o.measure
            rows.append(Outcome(label, o.estimate, max(0.0, low), min(1.0, high), o.exact))
    return rows


def survival_curves(summary, sides: Mapping[str, str] | None = None) -> list[Curve]:
    """Each unit's survival by turn from a fight's run: P(still in action) = 1 - P(out by turn t), turn 0 = 1,
    with the 95% band; `sides` (unit id -> side) labels each curve."""
    by_unit: dict[str, list] = {}
    for o in summary.probabilities():
        if o.measure == "out_by_turn" and o.unit is not None and o.turn is not None:
            by_unit.setdefault(o.unit, []).append(o)
    curves = []
    for unit, rows in by_unit.items():
        rows.sort(key=lambda o: o.turn)
        turns, alive, low, high = [0], [1.0], [1.0], [1.0]
        for o in rows:
            lo, hi = o.interval()
            turns.append(o.turn)
            alive.append(1.0 - o.estimate)
            low.append(max(0.0, 1.0 - hi))
            high.append(min(1.0, 1.0 - lo))
        curves.append(Curve(unit, tuple(turns), tuple(alive), tuple(low), tuple(high), (sides or {}).get(unit)))
    return curves


def fight_figure(summary, sides: Mapping[str, str] | None = None):
    """The chart of a fight's run (`--plot`): who wins with intervals, then every unit's survival curve by turn."""
    rows = who_wins_rows(summary)
    curves = survival_curves(summary, sides)
    top = 1.2 + 0.45 * max(1, len(rows))
    fig = _figure(8.0 if len(curves) <= 4 else 10.0, top + 3.8)
    grid = fig.add_gridspec(2, 1, height_ratios=[top, 3.8])
    turns = f", {summary.turns} turns at most" if getattr(summary, "turns", None) else ""
    who_wins(rows, title=f"{summary.scenario}\n{summary.trials:,} trials, seed {summary.seed}{turns}: who wins",
             ax=fig.add_subplot(grid[0, 0]))
    survival(curves, title="Survival by turn: P(still in action), 95% band", ax=fig.add_subplot(grid[1, 0]))
    return fig


# --- output --------------------------------------------------------------------------------------

def figure_bytes(fig, fmt: str) -> bytes:
    """A figure as .svg or .png bytes (matplotlib's own SVG and Agg renderers)."""
    if fmt not in ("svg", "png"):
        raise ScenarioError("expected svg or png", field="format", value=fmt, rule="PIC-02")
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110 if fmt == "png" else 100, facecolor="white",
                metadata={"Date": None} if fmt == "svg" else None)
    return buf.getvalue()


def save_figure(fig, path: str, overwrite: bool = False, field_name: str = "--plot") -> str:
    """Write a figure to `path` as .svg or .png (by its suffix), never over an existing file unless `overwrite`."""
    from .draw import open_output, picture_format

    fmt = picture_format(path, field_name)
    data = figure_bytes(fig, fmt)
    with open_output(path, overwrite, field_name) as fh:
        fh.write(data)
    return fmt
