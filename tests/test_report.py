"""The report page (PIC-03): one self-contained HTML file, opened in a real headless browser.

The browser is Debian's Chromium (`.ci/run` installs it when missing), driven
by Playwright's client with `executable_path` (no browser download). The page
is served from a loopback HTTP server; the test checks it loads with no
console error and no request beyond the page itself, that the arena picture
and the chart are drawn with a real size, that it fits a phone's width, and
takes a screenshot.
"""
import functools
import http.server
import re
import shutil
import threading

import pytest

import hardpoint
from hardpoint.cli import main
from hardpoint.report import report_html

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), shutil.which("google-chrome")) if p), None)
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def default_page():
    return report_html(hardpoint.load_scenario("builtin:default"), trials=4000, seed=7)


def test_pic_03_report_is_self_contained_with_every_section(default_page):
    """PIC-03: one page: the arena (inline SVG), the explain tables with rule ids, the run's table and chart, the
    seeded event log; nothing to fetch (no script, no link, no external URL)."""
    page = default_page
    assert page.startswith("<!DOCTYPE html>")
    for section in ('id="arena"', 'id="explain"', 'id="run"', 'id="log"'):
        assert section in page
    assert '<svg role="img"' in page and 'class="counter vehicle' in page
    assert '<span class="rule">CW-LOF-04</span>' in page and '<span class="rule">CW-HIT-02</span>' in page
    assert "laser_at_outrider hit" in page and "7/12" in page
    assert 'src="data:image/svg+xml;base64,' in page
    s = hardpoint.load_scenario("builtin:default")
    log = s.render_resolve(s.resolve(hardpoint.SeededDice(7), seed=7))
    assert log.splitlines()[0].replace('"', "&quot;").replace("'", "&#x27;") in page
    assert not re.search(r"<script|<link|<iframe|@import|url\(", page, re.I)
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page, re.I)


def test_pic_03_report_escapes_scenario_text():
    """PIC-03 / SAFE-02: scenario text is escaped: a name holding markup stays text."""
    from tests.test_draw import BLOCKED

    doc = BLOCKED.replace('name = "A wall in the way"', 'name = "<script>alert(1)</script><img src=x>"')
    page = report_html(hardpoint.parse_scenario(__import__("tomllib").loads(doc)), trials=50)
    assert "<script>" not in page and "<img src=x>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_pic_03_cli_report_writes_a_new_file(tmp_path, capsys):
    """PIC-03: `hardpoint report -o` writes the page, refuses an existing file (exit 2) unless --overwrite."""
    out = tmp_path / "r.html"
    assert main(["report", "builtin:asl_d15_55_gun_on_cycle", "-o", str(out), "--trials", "300"]) == 0
    assert "ASL D15.55" in out.read_text(encoding="utf-8")
    assert main(["report", "builtin:asl_d15_55_gun_on_cycle", "-o", str(out), "--trials", "300"]) == 2
    assert "file exists" in capsys.readouterr().err
    assert main(["report", "builtin:cw_tohit_example", "-o", str(out), "--trials", "300", "--overwrite"]) == 0
    assert main(["report", "builtin:cw_tohit_example", "-o", str(tmp_path / "r.txt")]) == 2


@pytest.fixture()
def served(tmp_path, default_page):
    (tmp_path / "report.html").write_text(default_page, encoding="utf-8")
    handler = functools.partial(_QuietHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/report.html"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium; .ci/run installs it)")
def test_pic_03_report_in_a_real_headless_browser(served, tmp_path):
    """PIC-03: Chromium loads the report with no console error and no other request; the arena and the chart have
    a real size and decoded images; at a phone's width nothing overflows sideways; the screenshot is a picture."""
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True, timeout=60_000)
        try:
            page = browser.new_page(viewport=PHONE)
            page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
            page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
            page.on("request", lambda r: requests.append(r.url) if r.url.startswith(("http:", "https:")) else None)
            response = page.goto(served, wait_until="load", timeout=60_000)
            assert response is not None and response.ok
            assert page.title().startswith("Default firefight")
            boxes = page.evaluate("""() => [...document.querySelectorAll('svg.arena, img.chart')].map(e => {
                const r = e.getBoundingClientRect();
                return {tag: e.tagName, w: r.width, h: r.height, natural: e.naturalWidth || 0, complete: e.complete ?? true};
            })""")
            arena = [b for b in boxes if b["tag"].lower() == "svg"]
            charts = [b for b in boxes if b["tag"] == "IMG"]
            assert arena and charts
            for b in arena + charts:
                assert b["w"] > 200 and b["h"] > 150, b
                assert b["w"] <= PHONE["width"], b
            for b in charts:
                assert b["complete"] and b["natural"] > 300, b
            counters = page.evaluate("() => document.querySelectorAll('svg.arena .counter').length")
            assert counters == 4
            assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
            shot = tmp_path / "report-phone.png"
            page.screenshot(path=str(shot), full_page=True)
            data = shot.read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            assert int.from_bytes(data[16:20], "big") == PHONE["width"] and int.from_bytes(data[20:24], "big") > 2000
            page.set_viewport_size({"width": 1280, "height": 900})
            wide = page.evaluate("() => document.querySelector('svg.arena').getBoundingClientRect().width")
            assert wide > 500
        finally:
            browser.close()
    assert errors == []
    assert requests == [served]


def test_pic_03_module_examples():
    """PIC-03: hardpoint.report's docstring examples give what they show."""
    import doctest

    import hardpoint.report

    result = doctest.testmod(hardpoint.report)
    assert result.attempted > 0 and result.failed == 0
