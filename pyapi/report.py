"""`hardpoint report` (PIC-03): one self-contained HTML page about a scenario.

The page holds the arena picture (inline SVG), the explain tables with every
modifier's rule id, the outcome table of a run with its charts (SVG as data
URIs), and the event log of one seeded resolution. Everything is inline: no
script, no external font, style sheet or image, so it opens anywhere with no
network. Every piece of scenario text is HTML-escaped. The layout is one
column that reflows to a phone's width; wide tables scroll sideways.

    >>> import hardpoint
    >>> from hardpoint.report import report_html
    >>> page = report_html(hardpoint.load_scenario("builtin:cw_tohit_example"), trials=200)
    >>> page.startswith("<!DOCTYPE html>") and "CW-HIT-05" in page
    True
"""
from __future__ import annotations

import base64
import html
import time
from fractions import Fraction
from typing import Any

__all__ = ["report_html", "default_trials", "CSS"]

CSS = """
*{box-sizing:border-box}
body{margin:0;padding:12px;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1f2328;background:#f6f8fa}
main{max-width:980px;margin:0 auto}
section{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:12px 14px;margin:0 0 14px}
h1{font-size:1.35rem;margin:.2em 0 .3em}
h2{font-size:1.1rem;margin:.1em 0 .5em}
h3{font-size:1rem;margin:.9em 0 .3em}
p.meta{color:#57606a;margin:.2em 0}
figure{margin:0}
figure svg,figure img{display:block;max-width:100%;height:auto;margin:0 auto}
figcaption{color:#57606a;font-size:.85rem;margin-top:.3em}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:.88rem;min-width:100%}
th,td{border-bottom:1px solid #d8dee4;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code,.rule{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.85em}
.rule{background:#ddf4ff;border-radius:4px;padding:0 4px;white-space:nowrap}
.ok{color:#1a7f37}.bad{color:#cf222e}
pre{white-space:pre-wrap;word-break:break-word;font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;background:#f6f8fa;
padding:8px;border-radius:6px;margin:0}
details summary{cursor:pointer;color:#0969da}
nav a{margin-right:.8em}
"""


def _e(text: Any) -> str:
    from .draw import clean_text

    return html.escape(clean_text(text), quote=True)


def _p(p: Any) -> str:
    try:
        f = Fraction(p)
    except (TypeError, ValueError):
        return _e(p)
    return f"{_e(f)} <span class=\"meta\">({float(f):.4f})</span>"


def _inline_svg(svg: str, label: str, cls: str) -> str:
    """An SVG document as inline markup: the XML declaration dropped, a role and a label for screen readers."""
    body = svg[svg.index("<svg"):] if "<svg" in svg else svg
    return body.replace("<svg", f'<svg role="img" aria-label="{_e(label)}" class="{cls}"', 1)


def _data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


# --- sections ---------------------------------------------------------------------------------

def _arena(scenario) -> str:
    from .draw import arena_svg

    parts = ['<section id="arena"><h2>Arena</h2>']
    turns = getattr(scenario, "turns", None) or 0
    first = getattr(getattr(scenario, "arena", None), "turn", 1)
    shown = range(first, first + min(turns, 3)) if turns else [None]
    for i, turn in enumerate(shown):
        svg = arena_svg(scenario, turn) if turn is not None else arena_svg(scenario)
        caption = (f"turn {turn}: start of the turn, the movement of each phase (p1..p5) and every attack planned that turn"
                   if turn is not None else "the arena at the scenario's moment, with every declared attack")
        figure = f'<figure>{_inline_svg(svg, f"arena, {caption}", "arena")}<figcaption>{_e(caption)}</figcaption></figure>'
        parts.append(figure if i == 0 else f"<details><summary>turn {turn}</summary>{figure}</details>")
    if turns > 3:
        parts.append(f'<p class="meta">turns {first + 3} to {first + turns - 1}: <code>hardpoint draw --turn T</code></p>')
    parts.append("</section>")
    return "".join(parts)


def _explain(scenario) -> str:
    parts = ['<section id="explain"><h2>Explained: every modifier with its rule id</h2>']
    if getattr(scenario, "ruleset", "carwars") != "carwars":
        parts.append(f"<pre>{_e(scenario.render_explain())}</pre></section>")
        return "".join(parts)
    breakdowns = scenario.explain()
    if not breakdowns:
        parts.append('<p class="meta">no declared attack</p>')
    for b in breakdowns:
        lof = (f'<span class="ok">clear</span>, range {b.range:.2f}"' if b.lof else '<span class="bad">blocked</span>')
        parts.append(f"<h3>{_e(b.attack)}: {_e(b.attacker)} fires {_e(b.weapon)} at {_e(b.target)} ({_e(b.aimed_at)})</h3>")
        parts.append(f'<p class="meta">line of fire {lof}; base to-hit {b.base}; rule <span class="rule">{_e(b.rule)}</span></p>')
        rows = "".join(f'<tr><td class="num">{m.value:+d}</td><td>{_e(m.name)}</td><td><span class="rule">{_e(m.rule)}</span></td></tr>'
                       for m in b.modifiers)
        verdict = (f"needs {b.needed} on 2d6: {_p(b.probability)}" if b.possible else f'<span class="bad">no hit possible</span>: {_e(b.reason)}')
        parts.append('<div class="scroll"><table><thead><tr><th>modifier</th><th>why</th><th>rule</th></tr></thead>'
                     f'<tbody>{rows}</tbody><tfoot><tr><th class="num">{b.total_modifier:+d}</th><th colspan="2">{verdict}</th></tr>'
                     "</tfoot></table></div>")
    parts.append("</section>")
    return "".join(parts)


def _run(scenario, trials: int, seed: int, backend: str) -> str:
    import warnings

    from .plot import available, figure_bytes, is_fight
    from .run import run_chart, summarize

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # a scenario the compiled core does not cover runs on the reference
        summary = summarize(scenario, trials, seed, backend)
    from .run import scope

    rows = []
    for o in summary.probabilities():
        lo, hi = o.interval()
        rows.append(f'<tr><td>{_e(o.name())}</td><td class="num">{o.estimate:.4f}</td><td class="num">{lo:.4f} - {hi:.4f}</td>'
                    f'<td class="num">{"" if o.exact is None else _p(o.exact)}</td></tr>')
    amounts = []
    for o in summary.amounts():
        pct = o.percentiles() or {}
        amounts.append(f'<tr><td>{_e(o.name())}</td><td class="num">{o.estimate:.3f}</td><td class="num">{o.stderr:.3f}</td>'
                       + "".join(f'<td class="num">{pct.get(q, "")}</td>' for q in (0.5, 0.9, 0.99)) + "</tr>")
    parts = ['<section id="run"><h2>Outcomes of a run</h2>',
             f'<p class="meta">{summary.trials:,} trials of {_e(scope(scenario))}, seed {summary.seed}, '
             f"{_e(summary.backend)} backend, {summary.seconds:.2f} s</p>",
             '<h3>Probabilities</h3><div class="scroll"><table><thead><tr><th>outcome</th><th>probability</th><th>95% interval</th>'
             f'<th>exact</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>']
    if amounts:
        parts.append('<h3>Amounts</h3><div class="scroll"><table><thead><tr><th>amount</th><th>mean</th><th>± s.e.</th>'
                     f'<th>median</th><th>90%</th><th>99%</th></tr></thead><tbody>{"".join(amounts)}</tbody></table></div>')
    if available():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fig = run_chart(scenario, summary)
        uri = _data_uri(figure_bytes(fig, "svg"), "image/svg+xml")
        if is_fight(summary):
            alt, caption = ("who wins and each unit's survival by turn",
                            "bars: P(win) per side, draw and undecided, with 95% intervals; curves: P(still in action) by turn")
        else:
            alt, caption = "rates against the exact odds and damage distributions", "bars: Monte Carlo with 95% intervals; red: the exact odds"
        parts.append(f'<h3>Charts</h3><figure><img class="chart" alt="{alt}" '
                     f'src="{uri}"><figcaption>{caption}</figcaption></figure>')
    else:
        parts.append("<p class=\"meta\">charts need matplotlib: <code>pip install 'hardpoint[plot]'</code></p>")
    parts.append("</section>")
    return "".join(parts)


def _log(scenario, seed: int) -> str:
    from .dice import SeededDice

    result = scenario.resolve(SeededDice(seed), seed=seed)
    return (f'<section id="log"><h2>One resolution, seed {seed}</h2>'
            f'<p class="meta">every die, modifier and point of damage, as <code>hardpoint resolve --seed {seed}</code> prints it</p>'
            f"<pre>{_e(scenario.render_resolve(result))}</pre></section>")


TRIALS_FAST = 20_000     # default trials where a compiled kernel runs the scenario
TRIALS_REFERENCE = 2_000  # and where only the pure-Python reference does (several turns: about 200 a second)


def default_trials(scenario, backend: str = "auto") -> int:
    """The report's default number of trials: fewer where only the reference can run the scenario."""
    if getattr(scenario, "ruleset", "carwars") == "asl":
        return TRIALS_FAST
    from .carwars.batch import supports_compiled

    return TRIALS_FAST if backend != "reference" and supports_compiled(scenario) is None else TRIALS_REFERENCE


def report_html(scenario, trials: int | None = None, seed: int = 1, backend: str = "auto") -> str:
    """The report page of `scenario` as HTML text (PIC-03): arena, explain tables, a run of `trials` with its charts,
    and the event log of the resolution with `seed`. `trials` defaults to `default_trials(scenario)`."""
    from . import __version__

    if trials is None:
        trials = default_trials(scenario, backend)

    name = getattr(scenario, "name", "scenario")
    meta = []
    for label, value in (("rule set", getattr(scenario, "ruleset", "")), ("source", getattr(scenario, "source", "")),
                         ("turns", getattr(scenario, "turns", None))):
        if value:
            meta.append(f"{label}: {_e(value)}")
    desc = getattr(scenario, "description", "")
    body = "".join([
        f"<header><h1>{_e(name)}</h1>",
        f'<p class="meta">{" · ".join(meta)}</p>' if meta else "",
        f"<p>{_e(desc)}</p>" if desc else "",
        '<nav><a href="#arena">arena</a><a href="#explain">to hit</a><a href="#run">run</a><a href="#log">event log</a></nav>',
        "</header>",
        _arena(scenario), _explain(scenario), _run(scenario, trials, seed, backend), _log(scenario, seed),
        f'<footer><p class="meta">hardpoint {_e(__version__)}, {time.strftime("%Y-%m-%d")}</p></footer>',
    ])
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            # nothing may load from anywhere: inline style, data: images, no script
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
            f"<title>{_e(name)} - hardpoint report</title><style>{CSS}</style></head>"
            f"<body><main>{body}</main></body></html>\n")
