"""Arena pictures (PIC-01): `hardpoint draw` and hardpoint.draw, checked as a person would look at them.

Each built-in scenario is drawn and parsed as XML; the elements a player
looks for (counters, arcs, lines of fire, blockers, paths) are found by their
classes and checked against what the rules modules say: the positions after
each phase's movement, the arcs of the geometry, the explain breakdowns.
"""
import math
import re
import xml.etree.ElementTree as ET

import pytest

import hardpoint
from hardpoint.carwars import geometry as geo
from hardpoint.carwars.turn import phase_distances
from hardpoint.cli import main
from hardpoint.draw import PX_PER_INCH, arena_svg, scene

SVG = "{http://www.w3.org/2000/svg}"
CARWARS = [n for n in hardpoint.builtin_scenarios() if not n.startswith("asl_")]
ASL = [n for n in hardpoint.builtin_scenarios() if n.startswith("asl_")]

BLOCKED = """
[scenario]
name = "A wall in the way"
ruleset = "carwars"
turns = 1

[[vehicle]]
id = "shooter"
design = "shogun"
x = 0.0
y = 0.0
speed = 0

[[vehicle]]
id = "target"
design = "stinger"
x = 0.0
y = 6.0
facing = 180.0
speed = 0

[[building]]
id = "wall"
x = 0.0
y = 3.0
width = 3.0
length = 0.5

[[attack]]
id = "mg_at_target"
turn = 1
phase = 1
attacker = "shooter"
weapon = "mg"
firer = "driver"
target = "target"
"""


def _load(name):
    return hardpoint.load_scenario(f"builtin:{name}")


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    assert len(root.get("viewBox").split()) == 4
    return root


def _classed(root, *words):
    return [e for e in root.iter() if set(words) <= set((e.get("class") or "").split())]


def _points(el) -> list[tuple[float, float]]:
    """The vertices of a drawn outline (a <path d="M x y L x y ... Z">)."""
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", el.get("d"))]
    return list(zip(nums[0::2], nums[1::2]))


def _text(el) -> str:
    return "".join(el.itertext())


@pytest.mark.parametrize("name", CARWARS)
def test_pic_01_every_builtin_arena_is_a_valid_svg_with_counters_arcs_and_rays(name):
    """PIC-01: each built-in Car Wars scenario draws as well-formed SVG with a viewBox, one counter per vehicle and
    pedestrian, an arc per weapon mount, and one line of fire (a ray) per explained attack."""
    s = _load(name)
    root = _parse(arena_svg(s))
    arena = s.arena
    vehicles = _classed(root, "counter", "vehicle")
    people = _classed(root, "counter", "pedestrian")
    assert {e.get("id") for e in vehicles} == {f"unit-{v}" for v in arena.vehicles}
    assert {e.get("id") for e in people} == {f"unit-{p}" for p in arena.pedestrians}
    armed = {v.id for v in arena.vehicles.values() if any(w.spec.needs_to_hit and not w.spec.dropped for w in v.all_weapons())}
    armed |= {p.id for p in arena.pedestrians.values() if p.weapons}
    arc_units = {e.get("id").split("-")[2] for e in _classed(root, "arc")}
    assert armed <= arc_units
    lofs = _classed(root, "lof")
    assert len(lofs) == len(s.explain())
    for g in lofs:
        assert [e for e in g if "ray" in (e.get("class") or "")], "each line of fire has its ray"
    assert len(_classed(root, "building")) == len(arena.buildings)
    assert len(_classed(root, "cloud")) == len(arena.clouds)


def test_pic_01_counters_are_to_scale_and_face_their_facing():
    """PIC-01: a car counter is 1" x 1/2" at `scale` px to the inch, and its facing arrow points along its facing."""
    s = _load("cw_tohit_example")
    for scale in (PX_PER_INCH, 100):
        root = _parse(arena_svg(s, scale=scale))
        for vid, v in s.arena.vehicles.items():
            g = next(e for e in root.iter() if e.get("id") == f"unit-{vid}")
            outline = next(e for e in g if e.get("class") == "outline")
            pts = _points(outline)
            sides = sorted(math.dist(pts[i], pts[(i + 1) % 4]) for i in range(4))
            body = v.cycle_counter()
            assert sides[0] == pytest.approx(body.width * scale, abs=0.05)
            assert sides[3] == pytest.approx(body.length * scale, abs=0.05)
            tip = _points(next(e for e in g if e.get("class") == "facing"))[0]
            cx = sum(p[0] for p in pts) / 4
            cy = sum(p[1] for p in pts) / 4
            # north is up the page: the tip is at (sin f, -cos f) from the centre, half a length away
            f = math.radians(v.facing)
            assert tip[0] - cx == pytest.approx(math.sin(f) * body.length * scale / 2, abs=0.1)
            assert tip[1] - cy == pytest.approx(-math.cos(f) * body.length * scale / 2, abs=0.1)


def test_pic_01_arc_wedges_are_the_geometry_arcs():
    """PIC-01 / CW-ARC-01: every point of a weapon's wedge lies in that arc of its counter, as the geometry judges it."""
    s = _load("default")
    sc = scene(s)
    wedges = [a for a in sc.arcs if a.arc != "all"]
    assert wedges
    for a in wedges:
        v = s.arena.vehicles[a.unit]
        counter = v.counter
        if v.sidecar and any(w in v.sidecar.weapons for w in v.all_weapons() if w.id in a.weapons):
            counter = v.sidecar_counter()
        for p in a.points:
            assert a.arc in geo.point_arcs(counter, p, 45.0) or geo.distance(p, (counter.cx, counter.cy)) < 1.0
    turret = [a for a in sc.arcs if a.unit == "shogun" and a.arc == "all"]
    assert turret and "laser" in turret[0].weapons


def test_pic_01_paths_go_through_each_phase_position():
    """PIC-01: the movement path of a vehicle passes through its position after each phase, from the movement chart."""
    s = _load("default")
    sc = scene(s)
    rules = s.rules
    for path in sc.paths:
        v = s.arena.vehicles[path.unit]
        x, y = v.x, v.y
        for (phase, centre, _), d in zip(path.steps, phase_distances(rules, v.speed)):
            x += d * math.sin(math.radians(v.facing))
            y += d * math.cos(math.radians(v.facing))
            assert centre == pytest.approx((x, y), abs=1e-9), (path.unit, phase)
    assert {p.unit for p in sc.paths} == {v.id for v in s.arena.vehicles.values() if v.speed}
    root = _parse(arena_svg(s))
    assert len(_classed(root, "path")) == len(sc.paths)
    assert _classed(root, "ghost")


def test_pic_01_lines_of_fire_match_explain_and_show_the_smoke_modifier():
    """PIC-01: rays run from the breakdown's origin to its aim point; a line through smoke is drawn as such with the
    breakdown's own CW-LOF-04 modifier; at a phase only that phase's attacks are drawn, at its positions."""
    s = _load("default")
    breakdowns = {b.attack: b for b in s.explain()}
    sc = scene(s)
    assert {lof.attack for lof in sc.lofs} == set(breakdowns)
    for lof in sc.lofs:
        b = breakdowns[lof.attack]
        assert lof.origin == pytest.approx(b.origin) and lof.end == pytest.approx(b.aim_point)
        smoke = sum(m.value for m in b.modifiers if m.rule == "CW-LOF-04")
        assert (lof.state == "smoke") == bool(smoke)
        assert lof.cloud_modifier == smoke
    assert {lof.attack for lof in sc.lofs if lof.state == "smoke"} == {"mg_at_stinger"}
    root = _parse(arena_svg(s))
    smoky = _classed(root, "lof", "smoke")
    assert len(smoky) == 1
    assert any("smoke -2" in _text(t) for g in smoky for t in g.iter(f"{SVG}text"))
    at2 = scene(s, phase=2)
    assert [lof.attack for lof in at2.lofs] == ["rocket_at_shogun"]
    shogun = next(p for p in at2.pieces if p.id == "shogun")
    assert shogun.centre == pytest.approx((0.0, sum(phase_distances(s.rules, 40)[:2])))


def test_pic_01_blocked_line_marks_its_blocker():
    """PIC-01 / CW-LOF-01: an attack with no line of fire is drawn blocked, its blocker (here the wall) marked."""
    s = hardpoint.parse_scenario(__import__("tomllib").loads(BLOCKED))
    sc = scene(s)
    (lof,) = sc.lofs
    assert lof.state == "blocked" and [b for b, _ in lof.blockers] == ["wall"]
    root = _parse(arena_svg(s))
    (g,) = _classed(root, "lof", "blocked")
    assert [e.get("id") for e in g if "blocker" in (e.get("class") or "")] == ["blocker-0-wall"]
    assert "blocked by wall" in _text(g)


def test_pic_01_scenario_text_is_escaped_never_markup(tmp_path):
    """PIC-01 / SAFE-02: names with <, >, & and quotes are text in the picture, never elements or attributes."""
    doc = BLOCKED.replace('name = "A wall in the way"', 'name = "<script>alert(1)</script> & \\"q\\""') \
                 .replace('"wall"', '"w\\"all<b>"')
    s = hardpoint.parse_scenario(__import__("tomllib").loads(doc))
    svg = arena_svg(s)
    root = _parse(svg)
    assert not [e for e in root.iter() if e.tag.endswith(("script", "}b"))]
    assert "<script>alert(1)</script>" in _text(next(e for e in root.iter() if e.get("class") == "title"))
    assert any(e.get("id", "").startswith("building-w_all_b_") for e in root.iter())


def test_pic_01_cli_draw_writes_svg_and_png_and_refuses_to_overwrite(tmp_path, capsys):
    """PIC-01: `hardpoint draw -o` writes .svg or .png, refuses an existing file (exit 2) unless --overwrite."""
    out = tmp_path / "arena.svg"
    assert main(["draw", "builtin:default", "-o", str(out)]) == 0
    _parse(out.read_text())
    assert main(["draw", "builtin:default", "-o", str(out)]) == 2
    assert "file exists" in capsys.readouterr().err
    assert main(["draw", "builtin:default", "--phase", "2", "-o", str(out), "--overwrite"]) == 0
    assert "after the movement of phase 2" in out.read_text()
    pytest.importorskip("resvg_py")
    png = tmp_path / "arena.png"
    assert main(["draw", "builtin:cw_chase", "--turn", "2", "-o", str(png)]) == 0
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width >= 640 and height > 200


def test_pic_01_cli_draw_to_stdout_and_bad_moments(capsys):
    """PIC-01: without -o the SVG goes to standard output; a moment the scenario does not have is an error (exit 2)."""
    assert main(["draw", "builtin:cw_tohit_example"]) == 0
    _parse(capsys.readouterr().out)
    assert main(["draw", "builtin:cw_tohit_example", "--phase", "3"]) == 2
    assert "--phase" in capsys.readouterr().err
    assert main(["draw", "builtin:cw_chase", "--turn", "9"]) == 2
    assert main(["draw", "builtin:default", "--phase", "6"]) == 2
    assert main(["draw", "builtin:asl_d15_55_gun_on_cycle", "--phase", "1"]) == 2
    assert main(["draw", "builtin:default", "-o", "arena.gif"]) == 2
    assert ".svg or .png" in capsys.readouterr().err


@pytest.mark.parametrize("name", ASL)
def test_pic_01_asl_scenarios_draw_on_a_hex_grid(name):
    """PIC-01: ASL scenarios are drawn on their hex grid: one hex per board hex, counters for the units and the
    motorcycles, each on its hex."""
    s = _load(name)
    root = _parse(arena_svg(s))
    hexes = _classed(root, "hex")
    assert len(hexes) == len(s.board.hexes)
    units = _classed(root, "counter", "unit")
    assert len(units) == len(s.situation.units)
    assert len(_classed(root, "counter", "motorcycle")) == len(s.situation.machines)


def test_pic_01_asl_hex_layout_board_coordinates_and_labels():
    """PIC-01: board coordinates lie on the flat-topped grid (odd columns half a hex lower, so B1 touches A1 and A2);
    hexes named by labels make a chain of adjacent hexes beside them."""
    from hardpoint.draw_asl import HEX, hex_centre, hex_layout

    pos, schematic = hex_layout(["A1", "B1", "A2", "GG10"])
    assert not schematic and pos == {"A1": (0, 1), "B1": (1, 1), "A2": (0, 2), "GG10": (32, 10)}
    adjacent = math.sqrt(3) * HEX
    b1 = hex_centre(*pos["B1"])
    assert math.dist(b1, hex_centre(*pos["A1"])) == pytest.approx(adjacent)
    assert math.dist(b1, hex_centre(*pos["A2"])) == pytest.approx(adjacent)
    pos, schematic = hex_layout(["start", "open", "road1"])
    assert schematic
    chain = [hex_centre(*pos[h]) for h in ("start", "open", "road1")]
    assert all(math.dist(a, b) == pytest.approx(adjacent) for a, b in zip(chain, chain[1:]))


def test_pic_01_asl_motorcycle_vca_arrow_points_at_its_hexspine():
    """PIC-01: a motorcycle's VCA is drawn as an arrow towards its hexspine (k = 0: between the top hexside and the
    next one clockwise), 60 degrees a step."""
    from types import SimpleNamespace as NS

    from hardpoint.asl.units import Hex

    machines = [NS(id=f"m{k}", hex="C5", removed=False, riders=(), vca=k, label=lambda: "cycle") for k in range(6)]
    s = NS(name="VCA", board=NS(hexes={"C5": Hex("C5")}), situation=NS(units=(), machines=tuple(machines)), moves=(), fires=())
    root = _parse(__import__("hardpoint.draw_asl", fromlist=["asl_svg"]).asl_svg(s))
    for k in range(6):
        g = next(e for e in root.iter() if e.get("id") == f"machine-m{k}")
        line = next(e for e in g if e.get("class") == "vca")
        (x1, y1), (x2, y2) = _points(line)
        dx, dy = x2 - x1, y2 - y1
        bearing = math.degrees(math.atan2(dx, -dy)) % 360
        assert bearing == pytest.approx(60 * k + 30, abs=0.01)


def test_pic_01_module_examples():
    """PIC-01: hardpoint.draw's docstring examples give what they show."""
    import doctest

    import hardpoint.draw

    result = doctest.testmod(hardpoint.draw)
    assert result.attempted > 0 and result.failed == 0
