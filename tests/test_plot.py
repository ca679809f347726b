"""Charts of results (PIC-02): hit rates against exact odds, damage distributions, survival curves, who wins.

The charts are read back from the matplotlib figure they return (bar heights,
the positions of the exact marks, the steps of the curves), so a chart that
draws the wrong numbers fails here. The fight charts are built on plain data:
they will be fed by fight results when those exist.
"""
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

pytest.importorskip("matplotlib")

import hardpoint
from hardpoint import plot
from hardpoint.cli import main
from hardpoint.results import BatchResult, Outcome


def _bars(ax):
    from matplotlib.patches import Rectangle

    return [p for p in ax.patches if isinstance(p, Rectangle)]


def test_pic_02_hit_rates_bars_intervals_and_exact_marks():
    """PIC-02: one bar per rate at its estimate, with its 95% interval, and the exact value marked where known."""
    rows = [{"name": "mg hit", "estimate": 0.58, "stderr": 0.01, "exact": Fraction(7, 12)},
            plot.Rate("laser hit", 0.40, low=0.35, high=0.45, exact=Fraction(5, 12)),
            {"name": "on fire", "estimate": 0.03, "stderr": 0.002}]
    fig = plot.hit_rates(rows)
    (ax,) = fig.axes
    widths = sorted(round(b.get_width(), 6) for b in _bars(ax))
    assert widths == [0.03, 0.40, 0.58]
    marks = [c for c in ax.collections if c.get_gid() == "exact-marks"]
    (mark,) = marks
    assert sorted(round(x, 6) for x, _ in mark.get_offsets()) == [round(5 / 12, 6), round(7 / 12, 6)]
    top_down = sorted(ax.get_yticklabels(), key=lambda t: -t.get_position()[1])
    assert [t.get_text() for t in top_down] == ["mg hit", "laser hit", "on fire"]     # in the order given, top down
    assert plot.Rate("x", 0.5, stderr=0.1).interval() == pytest.approx((0.5 - 0.196, 0.5 + 0.196), abs=1e-3)
    assert plot.Rate("x", 0.5, low=0.2, high=0.9).interval() == (0.2, 0.9)


def test_pic_02_damage_distribution_with_exact_overlay():
    """PIC-02: damage frequencies as bars summing to 1, the exact distribution as marks at its own probabilities."""
    exact = {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)}
    fig = plot.damage_distribution("mg", samples=[0, 0, 1, 2, 2, 0, 1, 0], exact=exact)
    (ax,) = fig.axes
    heights = {round(b.get_x() + b.get_width() / 2): b.get_height() for b in _bars(ax)}
    assert heights == {0: 0.5, 1: 0.25, 2: 0.25}
    (line,) = [ln for ln in ax.lines if ln.get_gid() == "exact-marks"]
    assert list(line.get_xdata()) == [0, 1, 2] and list(line.get_ydata()) == [0.5, 0.25, 0.25]
    same = plot.damage_distribution("mg", counts={0: 4, 1: 2, 2: 2})
    assert {round(b.get_x() + b.get_width() / 2): b.get_height() for b in _bars(same.axes[0])} == heights


def test_pic_02_survival_curves_by_turn_on_plain_data():
    """PIC-02 (fights): each unit's P(still in action) by turn as a step curve with its band, from plain data."""
    curves = [{"name": "shogun", "side": "red", "turns": [0, 1, 2, 3], "alive": [1.0, 0.9, 0.7, 0.5],
               "low": [1.0, 0.88, 0.67, 0.47], "high": [1.0, 0.92, 0.73, 0.53]},
              plot.Curve("outrider", (0, 1, 2, 3), (1.0, 0.6, 0.3, 0.1))]
    fig = plot.survival(curves)
    (ax,) = fig.axes
    steps = {ln.get_gid(): ln for ln in ax.lines}
    assert list(steps["survival-0"].get_ydata()) == [1.0, 0.9, 0.7, 0.5]
    assert list(steps["survival-1"].get_xdata()) == [0, 1, 2, 3]
    assert len(ax.collections) == 1            # one band: only shogun has an interval
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["shogun (red)", "outrider"]
    with pytest.raises(hardpoint.ScenarioError, match="one value per turn"):
        plot.survival([{"name": "x", "turns": [0, 1], "alive": [1.0]}])


def test_pic_02_who_wins_bars_with_intervals_on_plain_data():
    """PIC-02 (fights): P(win) per side and P(draw), P(undecided) as bars with their 95% intervals."""
    rows = [{"label": "red", "p": 0.55, "low": 0.53, "high": 0.57}, {"label": "blue", "p": 0.35, "low": 0.33, "high": 0.37},
            plot.Outcome("draw", 0.06), plot.Outcome("undecided", 0.04)]
    fig = plot.who_wins(rows)
    (ax,) = fig.axes
    assert sorted(round(b.get_width(), 6) for b in _bars(ax)) == [0.04, 0.06, 0.35, 0.55]
    top_down = sorted(ax.get_yticklabels(), key=lambda t: -t.get_position()[1])
    assert [t.get_text() for t in top_down] == ["red", "blue", "draw", "undecided"]
    errorbars = [c for c in ax.collections if c.__class__.__name__ == "LineCollection"]
    assert len(errorbars) == 2                 # red and blue have intervals
    with pytest.raises(hardpoint.ScenarioError, match="unknown field"):
        plot.who_wins([{"label": "red", "p": 0.5, "colour": "red"}])


def test_pic_02_adapters_from_summary_batch_and_exact_odds():
    """PIC-02: today's results feed the charts: a run's probabilities (not its amounts), a batch's damage counts,
    the exact damage distribution of an attack."""
    s = hardpoint.load_scenario("builtin:cw_tohit_example")
    summary = BatchResult("x", "carwars", 1, 0, 100, "compiled", 0.0, [
        Outcome("hit", attack="a", count=20, n=100, exact=Fraction(1, 6), label="a hit"),
        Outcome("damage", attack="a", kind="amount", total=70, total_sq=200, n=100, label="a damage"),
        Outcome("destroyed", unit="b", count=10, n=100, label="b destroyed")])
    rates = plot.rates_from_summary(summary)
    assert [(r.name, r.exact, r.estimate) for r in rates] == [("a hit", Fraction(1, 6), 0.2), ("b destroyed", None, 0.1)]
    b = hardpoint.run_batch(s, 2000, seed=3)
    counts = plot.damage_counts(b, "mg_at_tire")
    assert sum(counts.values()) == 2000 and counts[0] == int((b.damage[:, 0] == 0).sum())
    odds = hardpoint.exact_attack(s, "mg_at_tire")
    assert plot.exact_damage(odds) == odds.damage and sum(odds.damage.values()) == 1


def test_pic_02_labels_with_dollars_and_markup_are_plain_text():
    """PIC-02 / SAFE-02: scenario names are never read as mathtext or markup."""
    fig = plot.hit_rates([{"name": "$\\frac{a}{b}$ <b>x</b>", "estimate": 0.5, "stderr": 0.1}])
    svg = plot.figure_bytes(fig, "svg")
    ET.fromstring(svg)
    assert fig.axes[0].get_yticklabels()[0].get_text() == "\\$\\\\frac{a}{b}\\$ <b>x</b>"


def test_pic_02_run_plot_writes_the_chart(tmp_path, capsys):
    """PIC-02: `hardpoint run --plot` writes the run's chart (.svg or .png), refusing an existing file."""
    out = tmp_path / "run.svg"
    assert main(["run", "builtin:cw_tohit_example", "--trials", "3000", "--no-progress", "--plot", str(out)]) == 0
    root = ET.fromstring(out.read_bytes())
    assert root.tag.endswith("svg")
    assert main(["run", "builtin:cw_tohit_example", "--trials", "300", "--no-progress", "--plot", str(out)]) == 2
    assert "file exists" in capsys.readouterr().err
    png = tmp_path / "run.png"
    assert main(["run", "builtin:asl_d15_55_gun_on_cycle", "--trials", "500", "--no-progress", "--plot", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert main(["run", "builtin:cw_tohit_example", "--trials", "300", "--plot", str(tmp_path / "x.pdf")]) == 2


def test_pic_02_run_chart_overlays_the_exact_damage():
    """PIC-02: the run's chart has the rates panel and one damage panel per attack with the exact marks."""
    from hardpoint.run import run_chart, summarize

    s = hardpoint.load_scenario("builtin:default")
    summary = summarize(s, 5000, 2)
    fig = run_chart(s, summary)
    assert len(fig.axes) == 1 + len(s.attacks)
    damage_axes = fig.axes[1:]
    for ax, a in zip(damage_axes, s.attacks):
        (line,) = [ln for ln in ax.lines if ln.get_gid() == "exact-marks"]
        exact = hardpoint.exact_attack(s, a.id).damage
        assert dict(zip(line.get_xdata(), line.get_ydata())) == pytest.approx({k: float(v) for k, v in exact.items()})


def test_pic_02_a_fights_chart_is_who_wins_and_survival_by_turn(tmp_path):
    """PIC-02 / FIGHT-05: a fight's run charts who wins (each side, draw, undecided, with the run's Wilson intervals)
    and each unit's survival curve, P(still in action) = 1 - P(out by turn t), coloured by side."""
    from hardpoint.run import run_chart, summarize

    s = hardpoint.load_scenario("builtin:cw_duel")
    summary = summarize(s, 60, 3)
    fig = run_chart(s, summary)
    wins, curves = fig.axes
    probs = {o.key: o for o in summary.probabilities()}
    bars = _bars(wins)
    rows = plot.who_wins_rows(summary)
    assert [r.label for r in rows] == ["red wins", "blue wins", "draw", "undecided"]
    assert [b.get_width() for b in bars] == pytest.approx([r.p for r in rows])
    assert sum(r.p for r in rows) == pytest.approx(1.0)
    steps = {ln.get_gid(): ln for ln in curves.lines if (ln.get_gid() or "").startswith("survival-")}
    assert len(steps) == 2
    for c, gid in zip(plot.survival_curves(summary), sorted(steps)):
        line = steps[gid]
        assert line.get_xdata()[0] == 0 and line.get_ydata()[0] == 1.0
        for t, alive in zip(line.get_xdata()[1:], line.get_ydata()[1:]):
            out = probs[("out_by_turn", c.name, None, None, None, int(t), None)]
            assert alive == pytest.approx(1.0 - out.estimate)
    assert steps["survival-0"].get_color() != steps["survival-1"].get_color()     # two sides, two colours
    out = tmp_path / "duel.svg"
    out.write_bytes(plot.figure_bytes(fig, "svg"))
    ET.fromstring(out.read_bytes())


def test_pic_02_module_examples():
    """PIC-02: hardpoint.plot's docstring examples give what they show."""
    import doctest

    result = doctest.testmod(plot)
    assert result.attempted > 0 and result.failed == 0
