"""Pictures of the arena (PIC-01): counters, arcs, lines of fire and movement, as SVG or PNG.

The picture is built in two steps. `scene()` reads a Car Wars scenario and
returns plain data (a `Scene`): every counter, building, cloud, area and
dropped counter at the moment asked for, the arc of every aimed weapon, the
line of fire of every planned attack (from the reference's `explain`
breakdowns) and each vehicle's path through the turn (from the reference's
movement, `carwars.turn.move_phase`, run on copies of the arena). `render()`
turns a `Scene` into SVG with drawsvg. Nothing here decides a rule: every
figure comes from the rules modules, which are only read.

Coordinates are the rules' own (inches, facing 0 = north = up, clockwise);
the picture is to scale, `scale` pixels to the inch, with a light 1/4" grid
(the map's squares) and stronger lines every inch.

Every element a person or a test looks for carries a class: `counter vehicle`,
`counter pedestrian`, `building`, `cloud smoke`, `area`, `dropped`, `arc`,
`path`, `ghost`, `lof clear` / `lof blocked` / `lof smoke`, `blocker`. Ids are
made from the scenario's ids reduced to safe characters; the scenario's own
text only ever goes into text content, which is XML-escaped.

    >>> import hardpoint
    >>> from hardpoint.draw import arena_svg
    >>> svg = arena_svg(hardpoint.load_scenario("builtin:cw_tohit_example"))
    >>> svg.startswith("<?xml") and 'class="counter vehicle' in svg
    True
"""
from __future__ import annotations

import math
import os
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from .errors import ScenarioError

__all__ = [
    "PX_PER_INCH", "MAX_PIXELS", "Shape", "Piece", "Arc", "LineOfFire", "Path", "Scene",
    "scene", "render", "arena_svg", "svg_to_png", "write_picture", "picture_bytes",
]

PX_PER_INCH = 64          # the default scale: pixels per inch of the map
MIN_WIDTH = 640          # px: a narrow map is widened to this
MAX_PIXELS = 6000         # the longest side of a picture; a larger map is drawn at a smaller scale
ARC_RADIUS = 3.0          # inches: how far a weapon's arc wedge reaches on the picture
_HEADER = 46              # px above the map: title and moment
_FOOTER = 30              # px below it: the legend

# colours: one per unit, in order (Okabe-Ito, readable by colour-blind players)
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
FONTS = "DejaVu Sans, Verdana, Arial, sans-serif"
LOF_COLOURS = {"clear": "#1a7f37", "blocked": "#cf222e", "smoke": "#9a6700"}

Point = tuple[float, float]


# --- the scene: plain data -------------------------------------------------------------

@dataclass(frozen=True)
class Shape:
    """Something on the map that is not a unit: a building, cloud, area, dropped counter or obstacle."""

    kind: str                 # building | cloud | area | dropped | obstacle
    id: str
    sub: str                  # smoke / paint, rubble, mines / spikes / oil...
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Piece:
    """A unit's counter at one moment: its outline, centre and facing (a cycle and its sidecar are two pieces)."""

    kind: str                 # vehicle | pedestrian
    id: str
    label: str
    body: str                 # car, cycle, trike, pedestrian...
    points: tuple[Point, ...]
    centre: Point
    facing: float
    colour: str
    sidecar: tuple[Point, ...] | None = None
    speed: float = 0.0


@dataclass(frozen=True)
class Arc:
    """A weapon's arc (CW-ARC-02) as a wedge, or all round (`all_round`) for turrets and people on foot."""

    unit: str
    arc: str                  # front | back | left | right | all
    weapons: tuple[str, ...]
    points: tuple[Point, ...]
    colour: str


@dataclass(frozen=True)
class LineOfFire:
    """One planned attack's line of fire, from the reference's to-hit breakdown (CW-LOF-01..04)."""

    attack: str
    attacker: str
    target: str
    weapon: str
    phase: int | None
    state: str                # clear | blocked | smoke
    origin: Point
    end: Point                # the aim point; for a blocked line the target's centre
    needed: int
    possible: bool
    probability: Any          # Fraction
    reason: str = ""
    blockers: tuple[tuple[str, tuple[Point, ...]], ...] = ()   # (id, outline) of what hides the target
    clouds: tuple[tuple[str, tuple[Point, ...]], ...] = ()     # (id, outline) of smoke or paint crossed
    cloud_modifier: int = 0


@dataclass(frozen=True)
class Path:
    """A vehicle's straight-line movement through the turn: its centre after each phase (CW-ROF-02)."""

    unit: str
    colour: str
    start: Point
    steps: tuple[tuple[int, Point, tuple[Point, ...]], ...]   # (phase, centre, outline) after that phase's movement


@dataclass
class Scene:
    """Everything one picture shows, in the rules' coordinates (inches)."""

    title: str
    moment: str
    ruleset: str = "carwars"
    shapes: list[Shape] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    arcs: list[Arc] = field(default_factory=list)
    lofs: list[LineOfFire] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def bounds(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of what must be seen: shapes, counters, paths and lines of fire (not arcs)."""
        pts: list[Point] = []
        for s in self.shapes:
            pts += s.points
        for p in self.pieces:
            pts += p.points
            pts += p.sidecar or ()
        for path in self.paths:
            for _, _, outline in path.steps:
                pts += outline
        for lof in self.lofs:
            pts += [lof.origin, lof.end]
        if not pts:
            return (-1.0, -1.0, 1.0, 1.0)
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        return (min(xs), min(ys), max(xs), max(ys))


# --- reading a Car Wars scenario ----------------------------------------------------------

def _pts(poly) -> tuple[Point, ...]:
    return tuple((float(x), float(y)) for x, y in poly.vertices)


def _circle(cx: float, cy: float, r: float, n: int = 72) -> tuple[Point, ...]:
    return tuple((cx + r * math.sin(2 * math.pi * i / n), cy + r * math.cos(2 * math.pi * i / n)) for i in range(n))


def _check_moment(scenario, turn: int | None, phase: int | None) -> tuple[int, int | None, int]:
    """The moment to draw: (turn, phase or None for the start of the turn, number of phases)."""
    arena = scenario.arena
    phases = int(scenario.rules["carwars.turn"]["phases"])
    turns = getattr(scenario, "turns", None)
    if phase is not None and not 1 <= phase <= phases:
        raise ScenarioError(f"a turn has phases 1 to {phases}", field="--phase", value=phase, rule="PIC-01")
    if not turns:
        if turn is not None and turn != arena.turn:
            raise ScenarioError(f"the scenario is one phase, of turn {arena.turn}", field="--turn", value=turn, rule="PIC-01")
        if phase is not None and phase != arena.phase:
            raise ScenarioError(f"the scenario is one phase: phase {arena.phase}", field="--phase", value=phase, rule="PIC-01")
        return arena.turn, arena.phase, phases
    turn = arena.turn if turn is None else turn
    if not arena.turn <= turn < arena.turn + turns:
        raise ScenarioError(f"the scenario runs turns {arena.turn} to {arena.turn + turns - 1}", field="--turn", value=turn,
                            rule="PIC-01")
    return turn, phase, phases


def _advance(rules, arena, phases: int, to_turn: int):
    """The arena at the start of `to_turn`: the straight-line movement of every phase before it (no dice)."""
    from .carwars.turn import move_phase

    while arena.turn < to_turn:
        for p in range(1, phases + 1):
            move_phase(rules, arena, p)
        arena.turn += 1
    return arena


def _after_phases(rules, arena, first: int, phases: int) -> dict[int, Any]:
    """Copies of the arena after the movement of each phase from `first` to the last (`move_phase`)."""
    from .carwars.turn import move_phase

    out = {}
    a = arena.copy()
    for p in range(first, phases + 1):
        a.phase = p
        move_phase(rules, a, p)
        out[p] = a.copy()
    return out


def _colours(arena) -> dict[str, str]:
    ids = list(arena.vehicles) + list(arena.pedestrians)
    return {u: PALETTE[i % len(PALETTE)] for i, u in enumerate(ids)}


def _pieces(arena, colours: dict[str, str]) -> list[Piece]:
    out = []
    for v in arena.vehicles.values():
        side = _pts(v.sidecar_counter().polygon()) if v.sidecar else None
        body = v.cycle_counter() if v.sidecar else v.counter
        out.append(Piece("vehicle", v.id, v.id if v.name == v.id else f"{v.id} ({v.name})", v.kind,
                         _pts(body.polygon()), (v.counter.cx, v.counter.cy), v.facing, colours[v.id], side, float(v.speed)))
    for p in arena.pedestrians.values():
        c = p.counter
        out.append(Piece("pedestrian", p.id, p.id, "pedestrian", _pts(c.polygon()), (c.cx, c.cy), p.facing, colours[p.id],
                         None, float(p.speed)))
    return out


def _shapes(arena) -> list[Shape]:
    out = [Shape("area", a.id, a.kind, _pts(a.polygon)) for a in arena.areas.values()]
    out += [Shape("building", b.id, "building", _pts(b.polygon)) for b in arena.buildings.values()]
    out += [Shape("cloud", c.id, c.kind, _pts(c.polygon)) for c in arena.clouds.values()]
    out += [Shape("dropped", c.id, c.kind, _pts(c.polygon)) for c in arena.counters]
    out += [Shape("obstacle", o.id, "obstacle", _circle(o.x, o.y, 0.125, 16)) for o in arena.obstacles]
    return out


def _arcs(scenario, arena, colours: dict[str, str], radius: float) -> list[Arc]:
    """Every aimed weapon's arc (CW-ARC-02), one wedge per unit and arc, naming the weapons that fire into it."""
    from .carwars import geometry as geo
    from .carwars.enums import Mount

    angle = scenario.rules["carwars.bodies"]["arcs"]["angle"]
    out: list[Arc] = []
    for v in arena.vehicles.values():
        groups: dict[tuple[str, str], list[str]] = {}
        for w in v.all_weapons():
            if w.destroyed or not w.spec.aimed or w.mount is Mount.UNDERBODY:
                continue
            in_sidecar = v.sidecar is not None and w in v.sidecar.weapons
            arc = "all" if w.mount in (Mount.TURRET, Mount.TOP) else str(w.mount)
            groups.setdefault(("sidecar" if in_sidecar else "body", arc), []).append(w.id)
        for (where, arc), weapons in groups.items():
            counter = v.sidecar_counter() if where == "sidecar" else v.counter
            if arc == "all":
                pts = _circle(counter.cx, counter.cy, radius)
            else:
                reach = radius + math.hypot(counter.length, counter.width) / 2
                wedge = geo.clip_to_arc(counter, arc, geo.Polygon(_circle(counter.cx, counter.cy, reach)), angle)
                if wedge is None:
                    continue
                pts = _pts(wedge)
            out.append(Arc(v.id, arc, tuple(weapons), pts, colours[v.id]))
    for p in arena.pedestrians.values():
        if p.weapons:
            out.append(Arc(p.id, "all", tuple(p.weapons), _circle(p.x, p.y, radius), colours[p.id]))
    return out


def _target_shape(arena, target_id: str):
    if target_id in arena.buildings:
        b = arena.buildings[target_id]
        return b, b.polygon
    unit = arena.unit(target_id, "attack.target")
    return unit, unit.counter.polygon()


def _line_of_fire(scenario, arena, breakdown, phase: int | None) -> LineOfFire:
    """The picture of one to-hit breakdown; blockers and clouds named by tracing each one (read-only geometry)."""
    from .carwars import geometry as geo
    from .carwars.attack import attack_weapon

    origin = (float(breakdown.origin[0]), float(breakdown.origin[1]))
    firer = arena.unit(breakdown.attacker, "attack.attacker")
    target, poly = _target_shape(arena, breakdown.target)
    laser = attack_weapon(arena, firer, breakdown.weapon, scenario.rules).laser
    cloud_mod = sum(m.value for m in breakdown.modifiers if m.rule == "CW-LOF-04")
    if breakdown.lof and breakdown.aim_point is not None:
        end = (float(breakdown.aim_point[0]), float(breakdown.aim_point[1]))
        crossed = tuple((c.id, _pts(c.polygon)) for c in arena.clouds.values()
                        if geo.segment_length_inside(origin, end, c.polygon) > 1e-9)
        state = "smoke" if crossed and cloud_mod else "clear"
        return LineOfFire(breakdown.attack, breakdown.attacker, breakdown.target, breakdown.weapon, phase, state, origin, end,
                          breakdown.needed, breakdown.possible, breakdown.probability, breakdown.reason,
                          clouds=crossed if state == "smoke" else (), cloud_modifier=cloud_mod)
    # Blocked: name what hides the target, each blocker judged on its own (the same kinds that block, CW-LOF-01).
    named: list[tuple[str, Any]] = [(b.id, b.polygon) for b in arena.buildings.values() if b is not target]
    named += [(v.id, v.counter.polygon()) for v in arena.vehicles.values() if v is not firer and v is not target]
    named += [(p.id, p.counter.polygon()) for p in arena.pedestrians.values() if p is not firer and p is not target]
    if laser:
        named += [(c.id, c.polygon) for c in arena.clouds.values()]
    sight = geo.line_of_fire(origin, poly, [p for _, p in named])
    blockers = tuple((named[i][0], _pts(named[i][1])) for i in sight.blocked_by)
    end = poly.centroid()
    return LineOfFire(breakdown.attack, breakdown.attacker, breakdown.target, breakdown.weapon, phase, "blocked", origin,
                      (float(end[0]), float(end[1])), breakdown.needed, breakdown.possible, breakdown.probability,
                      breakdown.reason, blockers=blockers)


def _cancelled(scenario, arena, attack, exc, phase: int):
    """A planned attack the rules cancel when its phase comes: with no line of fire (CW-LOF-01) it is still drawn,
    blocked, from the reference's breakdown (which reports a missing line instead of refusing it); else a note."""
    from .carwars.attack import explain_attack
    from .errors import HardpointError

    if getattr(exc, "rule", "") == "CW-LOF-01":
        try:
            b = explain_attack(arena, attack, scenario.rules, scenario.history, where=f"attack {attack.id!r}")
        except HardpointError:
            b = None
        if b is not None and not b.lof:
            return b
    return f"{attack.id} (phase {phase}): cancelled when its phase comes: {exc}"


def scene(scenario, turn: int | None = None, phase: int | None = None, *, arc_radius: float = ARC_RADIUS) -> Scene:
    """The plain data of a picture of `scenario` at (turn, phase) (PIC-01).

    A one-phase scenario is drawn at its own turn and phase. A scenario of
    several turns is drawn at the start of `turn` (default: its first) with
    every attack planned that turn at its phase's positions, or, with
    `phase`, at the positions after that phase's movement with that phase's
    attacks. Later turns are reached by the movement alone: what the dice
    change on the way (speed lost, counters dropped, units knocked out) is in
    the event log, not in the picture.
    """
    if getattr(scenario, "ruleset", "carwars") == "asl":
        from .draw_asl import asl_scene

        return asl_scene(scenario)
    from .carwars.attack import ToHit
    from .errors import HardpointError

    turn, phase, phases = _check_moment(scenario, turn, phase)
    rules = scenario.rules
    multi = bool(getattr(scenario, "turns", None))
    start = _advance(rules, scenario.arena.copy(), phases, turn)
    colours = _colours(start)
    breakdowns: list[tuple[int | None, Any]] = []
    if multi:
        from .carwars.turn import planned_breakdowns

        after = _after_phases(rules, start, 1, phases)
        shown = after[phase] if phase is not None else start
        for p, attack, b in planned_breakdowns(start, rules, scenario.plan, scenario.history):
            if phase is not None and p != phase:
                continue
            if not isinstance(b, ToHit):
                b = _cancelled(scenario, after[p], attack, b, p)
            breakdowns.append((p, b))
        moment = f"turn {turn}, " + (f"after the movement of phase {phase}" if phase is not None else "start of the turn")
        path_first = 1
    else:
        after = _after_phases(rules, start, (phase or 1) + 1, phases) if (phase or 1) < phases else {}
        shown = start
        try:
            breakdowns = [(phase, b) for b in scenario.explain()]
        except HardpointError as exc:  # pragma: no cover - a loaded scenario explains; kept for safety
            breakdowns = [(phase, f"explain failed: {exc}")]
        moment = f"turn {turn}, phase {phase}"
        path_first = (phase or 1) + 1

    sc = Scene(title=str(scenario.name), moment=moment)
    sc.shapes = _shapes(shown)
    sc.pieces = _pieces(shown, colours)
    sc.arcs = _arcs(scenario, shown, colours, arc_radius)
    for p, b in breakdowns:
        if isinstance(b, str):
            sc.notes.append(b)
            continue
        arena_then = after.get(p, shown) if multi else shown
        sc.lofs.append(_line_of_fire(scenario, arena_then, b, p))
    for vid, v in start.vehicles.items():
        steps = []
        base = shown.vehicles[vid] if not multi else v
        for p in range(path_first, phases + 1):
            if p in after:
                w = after[p].vehicles[vid]
                steps.append((p, (w.x, w.y), _pts(w.counter.polygon())))
        moved = [s for s in steps if math.hypot(s[1][0] - base.x, s[1][1] - base.y) > 1e-9]
        if moved:
            sc.paths.append(Path(vid, colours[vid], (base.x, base.y), tuple(steps)))
    if multi and scenario.plan is not None:
        for (t, p), actions in sorted(scenario.plan.actions.items()):
            if t == turn and (phase is None or p == phase):
                sc.notes += [f"phase {p}: {a.vehicle} {a.kind.replace('_', ' ')}{' ' + a.weapon if a.weapon else ''}" for a in actions]
    return sc


# --- rendering -----------------------------------------------------------------------------

_SAFE_ID = re.compile(r"[^A-Za-z0-9_-]")


def _slug(text: str) -> str:
    """An id or class fragment from scenario text: only letters, digits, _ and - survive (attributes are not escaped)."""
    return _SAFE_ID.sub("_", str(text))[:60] or "_"


def clean_text(text: Any) -> str:
    """Scenario text fit for XML content: characters XML 1.0 cannot hold are dropped (escaping is drawsvg's)."""
    s = str(text).encode("utf-8", "replace").decode("utf-8")
    return "".join(c for c in s if (c in "\t\n" or unicodedata.category(c) not in ("Cc", "Cs")) and c not in "\ufffe\uffff")


def _fmt_p(p) -> str:
    try:
        return f"{float(p):.1%}"
    except (TypeError, ValueError):
        return str(p)


class _Canvas:
    """Map inches to pixels: x to the right, y up the page (north is up)."""

    def __init__(self, bounds: tuple[float, float, float, float], scale: float, pad: float = 0.75,
                 min_width: float = MIN_WIDTH) -> None:
        xmin, ymin, xmax, ymax = bounds
        self.xmin = math.floor(xmin - pad)
        self.ymin = math.floor(ymin - pad)
        self.xmax = math.ceil(xmax + pad)
        self.ymax = math.ceil(ymax + pad)
        span = max(self.xmax - self.xmin, self.ymax - self.ymin, 1)
        self.scale = min(float(scale), MAX_PIXELS / span)
        # a narrow map is widened, evenly, to leave room for the title and the labels
        short = math.ceil(min(min_width, MAX_PIXELS) / self.scale) - (self.xmax - self.xmin)
        if short > 0:
            self.xmin -= short // 2
            self.xmax += short - short // 2
        self.width = (self.xmax - self.xmin) * self.scale
        self.height = (self.ymax - self.ymin) * self.scale

    def x(self, x: float) -> float:
        return round((x - self.xmin) * self.scale, 2)

    def y(self, y: float) -> float:
        return round(_HEADER + (self.ymax - y) * self.scale, 2)

    def flat(self, pts) -> list[float]:
        out: list[float] = []
        for p in pts:
            out += [self.x(p[0]), self.y(p[1])]
        return out


def render(sc: Scene, scale: float = PX_PER_INCH):
    """A `Scene` as a drawsvg Drawing (to scale, north up)."""
    import drawsvg as dw

    longest = max([9.0 * len(sc.title) + 16] + [6.2 * len(n) + 16 for n in sc.notes])   # the title and notes fit
    cv = _Canvas(sc.bounds(), scale, min_width=max(MIN_WIDTH, longest))
    width = max(cv.width, 360)
    height = cv.height + _HEADER + _FOOTER + 14 * len(sc.notes)
    d = dw.Drawing(round(width, 2), round(height, 2), id_prefix="hp", font_family=FONTS)
    d.append(dw.Rectangle(0, 0, width, height, fill="#ffffff", class_="background"))
    d.append(dw.Text(clean_text(sc.title), 15, 8, 19, font_weight="bold", class_="title"))
    d.append(dw.Text(clean_text(f"{sc.moment}; 1 square = 1/4 inch, {cv.scale:g} px to the inch"), 11, 8, 36,
                     fill="#57606a", class_="moment"))
    _grid(d, dw, cv)
    layers = {name: dw.Group(class_=name) for name in ("areas", "buildings", "clouds", "arcs", "paths", "dropped", "counters",
                                                       "lofs", "labels")}
    for s in sc.shapes:
        _shape(layers, dw, cv, s)
    for i, a in enumerate(sc.arcs):
        g = dw.Group(class_=f"arc {a.arc}", id=f"arc-{i}-{_slug(a.unit)}-{a.arc}")
        g.append(dw.Title(clean_text(f"{a.unit}: {a.arc if a.arc != 'all' else 'all-round'} arc of {', '.join(a.weapons)}")))
        g.append(dw.Lines(*cv.flat(a.points), close=True, fill=a.colour, fill_opacity=0.08 if a.arc != "all" else 0.04,
                          stroke=a.colour, stroke_opacity=0.35, stroke_width=1, stroke_dasharray="5 4"))
        layers["arcs"].append(g)
    for path in sc.paths:
        _path(layers, dw, cv, path)
    for piece in sc.pieces:
        _piece(layers, dw, cv, piece)
    placed: list[tuple[float, float, float]] = []
    for i, lof in enumerate(sc.lofs):
        _lof(layers, dw, cv, lof, i, placed)
    for g in layers.values():
        d.append(g)
    _legend(d, dw, cv, sc, width)
    return d


def _grid(d, dw, cv: _Canvas) -> None:
    g = dw.Group(class_="grid")
    span = max(cv.xmax - cv.xmin, cv.ymax - cv.ymin)
    fine = 0.25 if span <= 80 else None
    step = 1 if span <= 200 else 10 ** math.ceil(math.log10(span / 200))    # at most about 200 lines each way
    top, bottom = cv.y(cv.ymax), cv.y(cv.ymin)
    left, right = cv.x(cv.xmin), cv.x(cv.xmax)
    if fine:
        n = int((cv.xmax - cv.xmin) / fine)
        for i in range(n + 1):
            x = cv.x(cv.xmin + i * fine)
            g.append(dw.Line(x, top, x, bottom, stroke="#eaeef2", stroke_width=0.6))
        n = int((cv.ymax - cv.ymin) / fine)
        for i in range(n + 1):
            y = cv.y(cv.ymin + i * fine)
            g.append(dw.Line(left, y, right, y, stroke="#eaeef2", stroke_width=0.6))
    for xi in range(math.ceil(cv.xmin / step) * step, int(cv.xmax) + 1, step):
        x = cv.x(xi)
        g.append(dw.Line(x, top, x, bottom, stroke="#c9d1d9", stroke_width=1, class_="inch"))
        if xi < cv.xmax:
            g.append(dw.Text(str(xi), 9, x + 2, bottom - 3, fill="#8c959f"))
    for yi in range(math.ceil(cv.ymin / step) * step, int(cv.ymax) + 1, step):
        y = cv.y(yi)
        g.append(dw.Line(left, y, right, y, stroke="#c9d1d9", stroke_width=1, class_="inch"))
        if yi > cv.ymin:
            g.append(dw.Text(str(yi), 9, left + 2, y + 10, fill="#8c959f"))
    d.append(g)


_SHAPE_STYLE = {
    "area": dict(fill="#d0b38a", fill_opacity=0.35, stroke="#8a6d3b", stroke_dasharray="3 3"),
    "building": dict(fill="#6e7781", fill_opacity=0.85, stroke="#24292f"),
    "cloud": dict(fill="#8c959f", fill_opacity=0.45, stroke="#57606a", stroke_dasharray="2 2"),
    "dropped": dict(fill="#fff8c5", fill_opacity=0.9, stroke="#9a6700"),
    "obstacle": dict(fill="#953800", fill_opacity=0.8, stroke="#3d1300"),
}
_CLOUD_FILL = {"smoke": "#8c959f", "paint": "#bf8700"}


def _shape(layers, dw, cv: _Canvas, s: Shape) -> None:
    style = dict(_SHAPE_STYLE[s.kind])
    if s.kind == "cloud":
        style["fill"] = _CLOUD_FILL.get(s.sub, style["fill"])
    layer = {"area": "areas", "building": "buildings", "cloud": "clouds", "dropped": "dropped", "obstacle": "dropped"}[s.kind]
    g = dw.Group(class_=f"{s.kind} {_slug(s.sub)}", id=f"{s.kind}-{_slug(s.id)}")
    g.append(dw.Title(clean_text(f"{s.kind} {s.id} ({s.sub})")))
    g.append(dw.Lines(*cv.flat(s.points), close=True, stroke_width=1.2, **style))
    cx = sum(p[0] for p in s.points) / len(s.points)
    cy = sum(p[1] for p in s.points) / len(s.points)
    colour = "#ffffff" if s.kind == "building" else "#24292f"
    g.append(dw.Text(clean_text(s.id), 10, cv.x(cx), cv.y(cy) + 3, text_anchor="middle", fill=colour))
    layers[layer].append(g)


def _arrow(dw, cv: _Canvas, centre: Point, facing: float, length: float, colour: str):
    """A triangle at the front of a counter, pointing along its facing."""
    s, c = math.sin(math.radians(facing)), math.cos(math.radians(facing))
    tip = (centre[0] + s * length / 2, centre[1] + c * length / 2)
    back = length * 0.28
    wide = max(length * 0.18, 0.06)
    base = (tip[0] - s * back, tip[1] - c * back)
    left = (base[0] - c * wide, base[1] + s * wide)
    right = (base[0] + c * wide, base[1] - s * wide)
    return dw.Lines(*cv.flat([tip, left, right]), close=True, fill=colour, stroke="#ffffff", stroke_width=0.8, class_="facing")


def _piece(layers, dw, cv: _Canvas, p: Piece) -> None:
    g = dw.Group(class_=f"counter {p.kind} {_slug(p.body)}", id=f"unit-{_slug(p.id)}")
    speed = f", {p.speed:g} mph" if p.speed else ""
    g.append(dw.Title(clean_text(f"{p.label}: {p.body}, facing {p.facing:g} degrees{speed}")))
    g.append(dw.Lines(*cv.flat(p.points), close=True, fill=p.colour, fill_opacity=0.85, stroke="#24292f", stroke_width=1.2,
                      class_="outline"))
    if p.sidecar:
        g.append(dw.Lines(*cv.flat(p.sidecar), close=True, fill=p.colour, fill_opacity=0.55, stroke="#24292f",
                          stroke_width=1.2, class_="sidecar"))
    length = math.dist(p.points[0], p.points[3]) if len(p.points) == 4 else 0.25
    if p.kind == "vehicle":
        g.append(_arrow(dw, cv, (sum(q[0] for q in p.points) / 4, sum(q[1] for q in p.points) / 4), p.facing, length, "#ffffff"))
    layers["counters"].append(g)
    top = max(q[1] for q in p.points + (p.sidecar or ()))
    lab = dw.Group(class_="label", id=f"label-{_slug(p.id)}")
    lab.append(dw.Text(clean_text(p.id), 11, cv.x(p.centre[0]), cv.y(top) - 5, text_anchor="middle", fill="#24292f",
                       font_weight="bold", stroke="#ffffff", stroke_width=3, paint_order="stroke"))
    layers["labels"].append(lab)


def _path(layers, dw, cv: _Canvas, path: Path) -> None:
    g = dw.Group(class_="path", id=f"path-{_slug(path.unit)}")
    g.append(dw.Title(clean_text(f"{path.unit}: position after each phase's movement")))
    pts = [path.start] + [s[1] for s in path.steps]
    g.append(dw.Lines(*cv.flat(pts), close=False, fill="none", stroke=path.colour, stroke_width=1.5, stroke_dasharray="6 4"))
    # phases that end at the same place (no movement that phase) share one ghost: "p2,p3"
    merged: list[tuple[list[int], Point, tuple[Point, ...]]] = []
    for phase, centre, outline in path.steps:
        if merged and math.dist(merged[-1][1], centre) < 1e-9:
            merged[-1][0].append(phase)
        else:
            merged.append(([phase], centre, outline))
    for phases, centre, outline in merged:
        ghost = dw.Group(class_="ghost", id=f"ghost-{_slug(path.unit)}-p{phases[0]}")
        ghost.append(dw.Lines(*cv.flat(outline), close=True, fill="none", stroke=path.colour, stroke_width=1, stroke_opacity=0.7))
        ghost.append(dw.Text(",".join(f"p{q}" for q in phases), 9, cv.x(centre[0]) + 0.32 * cv.scale, cv.y(centre[1]) + 3,
                             fill=path.colour))
        g.append(ghost)
    layers["paths"].append(g)


def _free_row(placed: list[tuple[float, float, float]], x: float, y: float, width: float, height: float = 13.0) -> float:
    """A baseline at or below y where a label of this width does not cover one already placed (lines of fire to
    several victims share their middle)."""
    while any(abs(y - py) < height and x < px + pw and px < x + width for px, py, pw in placed):
        y += height
    placed.append((x, y, width))
    return y


def _lof(layers, dw, cv: _Canvas, lof: LineOfFire, i: int, placed: list) -> None:
    colour = LOF_COLOURS[lof.state]
    g = dw.Group(class_=f"lof {lof.state}", id=f"lof-{i}-{_slug(lof.attack)}")
    when = f" (phase {lof.phase})" if lof.phase else ""
    if lof.state == "blocked":
        what = ", ".join(b for b, _ in lof.blockers) or "?"
        text = f"{lof.attack}{when}: blocked by {what}"
    else:
        odds = f"{lof.needed}+ ({_fmt_p(lof.probability)})" if lof.possible else "no hit possible"
        text = f"{lof.attack}{when}: {odds}"
        if lof.state == "smoke":
            text += f"; smoke {lof.cloud_modifier:+d}"
    g.append(dw.Title(clean_text(f"{lof.attacker} fires {lof.weapon} at {lof.target}: {text}"
                                 + (f" - {lof.reason}" if lof.reason else ""))))
    for bid, outline in lof.blockers:
        g.append(dw.Lines(*cv.flat(outline), close=True, fill=colour, fill_opacity=0.25, stroke=colour, stroke_width=2.5,
                          class_="blocker", id=f"blocker-{i}-{_slug(bid)}"))
    for cid, outline in lof.clouds:
        g.append(dw.Lines(*cv.flat(outline), close=True, fill="none", stroke=colour, stroke_width=2, stroke_dasharray="4 2",
                          class_="crossed", id=f"crossed-{i}-{_slug(cid)}"))
    x1, y1, x2, y2 = cv.x(lof.origin[0]), cv.y(lof.origin[1]), cv.x(lof.end[0]), cv.y(lof.end[1])
    g.append(dw.Line(x1, y1, x2, y2, stroke=colour, stroke_width=2.2, class_="ray",
                     stroke_dasharray="7 5" if lof.state == "blocked" else None))
    g.append(dw.Circle(x1, y1, 3.2, fill=colour, class_="origin"))
    if lof.state == "blocked":
        s = 5
        g.append(dw.Lines(x2 - s, y2 - s, x2 + s, y2 + s, x2, y2, x2 + s, y2 - s, x2 - s, y2 + s, close=False, fill="none",
                          stroke=colour, stroke_width=2.2, class_="aim"))
    else:
        g.append(dw.Circle(x2, y2, 4, fill="#ffffff", stroke=colour, stroke_width=2, class_="aim"))
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    right_half = mx > cv.width / 2
    my = _free_row(placed, mx - 4 - 5.6 * len(text) if right_half else mx + 4, my - 4, 5.6 * len(text)) + 4
    g.append(dw.Text(clean_text(text), 10, mx - 4 if right_half else mx + 4, my - 4, fill=colour,
                     text_anchor="end" if right_half else "start", font_weight="bold", stroke="#ffffff", stroke_width=3,
                     paint_order="stroke", class_="lof-label"))
    layers["lofs"].append(g)


def _legend(d, dw, cv: _Canvas, sc: Scene, width: float) -> None:
    g = dw.Group(class_="legend")
    y = cv.height + _HEADER + 18
    x = 8
    for state, words in (("clear", "clear line of fire"), ("smoke", "through smoke (modifier)"), ("blocked", "blocked (blocker marked)")):
        g.append(dw.Line(x, y - 4, x + 22, y - 4, stroke=LOF_COLOURS[state], stroke_width=2.2,
                         stroke_dasharray="7 5" if state == "blocked" else None))
        g.append(dw.Text(words, 10, x + 26, y, fill="#24292f"))
        x += 26 + 6.2 * len(words) + 14
    if x < width - 150:
        g.append(dw.Lines(x, y - 10, x + 18, y - 10, x + 9, y + 2, close=True, fill="#8c959f", fill_opacity=0.3,
                          stroke="#8c959f", stroke_dasharray="5 4"))
        g.append(dw.Text("weapon arc", 10, x + 24, y, fill="#24292f"))
    for k, note in enumerate(sc.notes):
        g.append(dw.Text(clean_text(note), 10, 8, y + 16 + 14 * k, fill="#57606a", class_="note"))
    d.append(g)


# --- output ---------------------------------------------------------------------------------

def arena_svg(scenario, turn: int | None = None, phase: int | None = None, *, scale: float = PX_PER_INCH,
              arc_radius: float = ARC_RADIUS) -> str:
    """The arena of `scenario` at (turn, phase) as SVG text (PIC-01); ASL scenarios on their hex grid."""
    if not (isinstance(scale, (int, float)) and math.isfinite(scale) and 4 <= scale <= 400):
        raise ScenarioError("pixels per inch, from 4 to 400", field="scale", value=scale, rule="PIC-01")
    if getattr(scenario, "ruleset", "carwars") == "asl":
        from .draw_asl import asl_svg

        if turn is not None or phase is not None:
            raise ScenarioError("an ASL scenario is drawn as declared, its units where they start; --turn and --phase are "
                                "for Car Wars", field="--phase" if phase is not None else "--turn",
                                value=phase if phase is not None else turn, rule="PIC-01")
        return asl_svg(scenario)
    return render(scene(scenario, turn, phase, arc_radius=arc_radius), scale).as_svg()


def svg_to_png(svg: str, zoom: float = 1.0) -> bytes:
    """Render SVG text to PNG bytes with resvg (`pip install 'hardpoint[draw]'`: a self-contained wheel)."""
    try:
        import resvg_py
    except ImportError:
        raise ScenarioError("PNG output needs the resvg renderer: pip install 'hardpoint[draw]' (or write .svg)",
                            field="-o", value="png", rule="PIC-01") from None
    kwargs: dict[str, Any] = {"background": "#ffffff"}
    if zoom != 1.0:
        kwargs["zoom"] = zoom
    fonts = _font_dirs()
    if fonts:
        kwargs["font_dirs"] = fonts
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, **kwargs))


def _font_dirs() -> list[str]:
    """Font folders for resvg beside the system's: matplotlib's DejaVu fonts, when matplotlib is installed."""
    from importlib.util import find_spec

    spec = find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = os.path.join(list(spec.submodule_search_locations)[0], "mpl-data", "fonts", "ttf")
    return [folder] if os.path.isdir(folder) else []


def picture_bytes(svg: str, fmt: str) -> bytes:
    """SVG text as the bytes of an .svg or .png file."""
    if fmt == "svg":
        return svg.encode("utf-8")
    if fmt == "png":
        return svg_to_png(svg)
    raise ScenarioError("expected a .svg or .png file name", field="-o", value=fmt, rule="PIC-01")


def picture_format(path: str, field_name: str = "-o", allowed: tuple[str, ...] = ("svg", "png")) -> str:
    """The format a file name asks for, by its suffix."""
    ext = os.path.splitext(str(path))[1].lower().lstrip(".")
    if ext not in allowed:
        raise ScenarioError(f"the file name must end in {' or '.join('.' + a for a in allowed)}", field=field_name,
                            value=str(path), rule="PIC-01")
    return ext


def open_output(path: str, overwrite: bool, field_name: str = "-o"):
    """Open an output file before any work runs: an existing file is kept unless `overwrite` (SAFE-02)."""
    if os.path.isdir(path):
        raise ScenarioError("is a directory", field=field_name, value=path, rule="SAFE-02")
    if os.path.exists(path) and not overwrite:
        raise ScenarioError("file exists (add --overwrite to replace it)", field=field_name, value=path, rule="SAFE-02")
    try:
        return open(path, "wb" if overwrite else "xb")
    except OSError as exc:
        raise ScenarioError(f"cannot write: {exc.strerror}", field=field_name, value=path, rule="SAFE-02") from None


def write_picture(svg: str, path: str, overwrite: bool = False) -> str:
    """Write SVG text to `path` as .svg or .png (by its suffix); returns the format written."""
    fmt = picture_format(path)
    data = picture_bytes(svg, fmt)        # render first: a failure leaves no file behind
    with open_output(path, overwrite) as fh:
        fh.write(data)
    return fmt
