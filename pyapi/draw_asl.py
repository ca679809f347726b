"""ASL scenarios on their hex grid (PIC-01): hexes, Infantry counters, motorcycles with their VCA, moves and fire.

Hexes named by board coordinates ("B5": column letters, row number) are drawn
where they lie on a geomorphic board: flat-topped hexes, a column a straight
line of hexes, the columns of odd index (B, D, ...) half a hex lower, as
`hardpoint.asl.geometry` and docs/asl.md lay the board out. Hexes named by
labels ("open", "road3") have no place on a board: they are drawn as a
schematic chain of adjacent hexes in the scenario's order, and the picture
says so. A motorcycle's VCA (a hexspine, 0 = between the top hexside and the
next one clockwise) is an arrow, drawn only on a real board.

Classes: `hex <terrain>`, `counter unit <type>`, `counter motorcycle`, `vca`,
`move`, `fire`. Scenario text goes only into escaped text content.
"""
from __future__ import annotations

import math
import re
from typing import Any

from .draw import FONTS, PALETTE, _slug, clean_text
from .asl.geometry import column_index

__all__ = ["hex_centre", "hex_layout", "asl_svg", "asl_scene"]

HEX = 34.0            # px from a hex's centre to a corner
COUNTER = 22.0        # px: the side of a counter
_COORD = re.compile(r"^(?P<letters>([A-Z])\2?)(?P<row>[0-9]{1,2})$")
_TERRAIN = {"open_ground": "#e6f4d7", "road": "#f1e7d0", "woods": "#9cc58a", "building": "#c8c1b6", "stone_building": "#b7aea0",
            "wooden_building": "#d3b58f", "brush": "#c4dca0", "grain": "#f3e3a1", "orchard": "#b9d99a", "marsh": "#b8d8d8",
            "shellhole": "#d9cfb8", "rubble": "#cfc3b0", "hill": "#e8d9b5"}


def _coordinate(hex_id: str) -> tuple[int, int] | None:
    """(column index, row) of a board coordinate such as "B5" or "GG10" (A = 0, AA = 26), else None (a label)."""
    m = _COORD.match(hex_id)
    if m is None:
        return None
    column = column_index(m["letters"])     # the board's own reading (hardpoint.asl.geometry)
    return None if column is None else (column, int(m["row"]))


def hex_centre(column: int, row: int, size: float = HEX) -> tuple[float, float]:
    """Pixel centre of a flat-topped hex: columns 1.5 sizes apart, rows sqrt(3) sizes, odd columns half a hex lower."""
    return (1.5 * size * column, math.sqrt(3) * size * (row + (0.5 if column % 2 else 0.0)))


def _corners(cx: float, cy: float, size: float = HEX) -> list[tuple[float, float]]:
    return [(cx + size * math.cos(math.radians(60 * k)), cy + size * math.sin(math.radians(60 * k))) for k in range(6)]


def hex_layout(hex_ids) -> tuple[dict[str, tuple[int, int]], bool]:
    """Grid positions (column, row) of the hexes, and whether any hex is only a label (placed schematically)."""
    pos: dict[str, tuple[int, int]] = {}
    labels = []
    for hid in hex_ids:
        c = _coordinate(hid)
        if c is None:
            labels.append(hid)
        else:
            pos[hid] = c
    first = (max(c for c, _ in pos.values()) + 2) if pos else 0
    row = min((r for _, r in pos.values()), default=1)
    for i, hid in enumerate(labels):     # a chain of adjacent hexes: A1, B1 (half a hex lower), C1, ...
        pos[hid] = (first + i, row)
    return pos, bool(labels)


def asl_scene(scenario) -> dict[str, Any]:
    """The plain data of an ASL picture: hexes with their pixel centres, units and machines per hex, moves, fire."""
    board, sit = scenario.board, scenario.situation
    pos, schematic = hex_layout(list(board.hexes))
    hexes = []
    for hid, hx in board.hexes.items():
        c, r = pos[hid]
        hexes.append({"id": hid, "terrain": str(hx.terrain), "road": hx.road is not None, "column": c, "row": r,
                      "centre": hex_centre(c, r), "level": hx.level})
    moves = []
    for m in scenario.moves:
        path = [s.hex for s in m.steps if getattr(s, "hex", None) in board.hexes]
        start = next((u.hex for u in sit.units if u.id in m.units and u.hex in board.hexes), None)
        start = start or next((x.hex for x in sit.machines if x.id in m.units and x.hex in board.hexes), None)
        if start and (not path or path[0] != start):
            path = [start] + path
        moves.append({"id": m.id, "phase": str(m.phase), "hexes": path})
    fires = []
    for f in scenario.fires:
        froms = sorted({u.hex for u in sit.units if u.id in f.firers and u.hex in board.hexes})
        fires.append({"id": f.id, "kind": str(f.kind), "target": f.target, "range": f.range, "from": froms})
    return {"title": str(scenario.name), "schematic": schematic, "hexes": hexes, "units": list(sit.units),
            "machines": list(sit.machines), "moves": moves, "fires": fires}


def asl_svg(scenario) -> str:
    """The scenario's hexes, counters, moves and fire as SVG text (PIC-01)."""
    import drawsvg as dw

    sc = asl_scene(scenario)
    centres = {h["id"]: h["centre"] for h in sc["hexes"]}
    xs = [c[0] for c in centres.values()] or [0.0]
    ys = [c[1] for c in centres.values()] or [0.0]
    pad = HEX * 2.2
    ox, oy = min(xs) - pad, min(ys) - pad - 30
    width = max(max(xs) - min(xs) + 2 * pad, 520)
    height = max(ys) - min(ys) + 2 * pad + 30 + 40

    def at(p):
        return (round(p[0] - ox, 2), round(p[1] - oy, 2))

    d = dw.Drawing(round(width, 2), round(height, 2), id_prefix="hpasl", font_family=FONTS)
    d.append(dw.Rectangle(0, 0, width, height, fill="#ffffff", class_="background"))
    d.append(dw.Text(clean_text(sc["title"]), 15, 8, 19, font_weight="bold", class_="title"))
    note = ("hexes named by labels: a schematic chain, not board positions" if sc["schematic"]
            else "board coordinates: flat-topped hexes, odd columns half a hex lower")
    d.append(dw.Text(note, 11, 8, 36, fill="#57606a", class_="moment"))
    grid = dw.Group(class_="hexes")
    for h in sc["hexes"]:
        cx, cy = at(h["centre"])
        g = dw.Group(class_=f"hex {_slug(h['terrain'])}", id=f"hex-{_slug(h['id'])}")
        g.append(dw.Title(clean_text(f"{h['id']}: {h['terrain']}" + (", road" if h["road"] else "") +
                                     (f", level {h['level']}" if h["level"] else ""))))
        pts = [v for p in _corners(cx, cy) for v in p]
        g.append(dw.Lines(*pts, close=True, fill=_TERRAIN.get(h["terrain"], "#eeeeee"), stroke="#6e7781", stroke_width=1))
        if h["road"]:
            g.append(dw.Circle(cx, cy, HEX * 0.3, fill="#d4b483", fill_opacity=0.8, class_="road"))
        g.append(dw.Text(clean_text(h["id"]), 9, cx, cy - HEX * 0.62, text_anchor="middle", fill="#24292f"))
        grid.append(g)
    d.append(grid)
    _moves(d, dw, sc, centres, at)
    _counters(d, dw, sc, centres, at)
    _fires(d, dw, sc, centres, at)
    d.append(dw.Text("blue dashes: moves; red: fire; arrows on cycles: VCA", 10, 8, height - 10, fill="#57606a", class_="legend"))
    return d.as_svg()


def _moves(d, dw, sc, centres, at) -> None:
    layer = dw.Group(class_="moves")
    for i, m in enumerate(sc["moves"]):
        if len(m["hexes"]) < 2:
            continue
        g = dw.Group(class_="move", id=f"move-{i}-{_slug(m['id'])}")
        g.append(dw.Title(clean_text(f"move {m['id']} ({m['phase']}): {' - '.join(m['hexes'])}")))
        pts = [v for h in m["hexes"] for v in at(centres[h])]
        g.append(dw.Lines(*pts, close=False, fill="none", stroke="#0969da", stroke_width=2.2, stroke_dasharray="6 4"))
        layer.append(g)
    d.append(layer)


def _counters(d, dw, sc, centres, at) -> None:
    layer = dw.Group(class_="counters")
    stack: dict[str, int] = {}
    schematic = sc["schematic"]
    for u in sc["units"]:
        if u.hex not in centres or u.eliminated:
            continue
        k = stack.get(u.hex, 0)
        stack[u.hex] = k + 1
        cx, cy = at(centres[u.hex])
        x, y = cx - COUNTER / 2 - 8 + 6 * k, cy - COUNTER / 2 + 2 + 5 * k
        colour = PALETTE[abs(hash(u.side or "")) % 3] if u.side else PALETTE[0]
        g = dw.Group(class_=f"counter unit {_slug(str(u.type))}", id=f"unit-{_slug(u.id)}")
        g.append(dw.Title(clean_text(f"{u.id}: {u.status()}")))
        g.append(dw.Rectangle(x, y, COUNTER, COUNTER, rx=2, fill=colour, stroke="#24292f", stroke_width=1))
        g.append(dw.Text(clean_text(u.designation), 7, x + COUNTER / 2, y + COUNTER / 2 + 2.5, text_anchor="middle", fill="#ffffff"))
        if u.broken or u.wounded:
            g.append(dw.Line(x, y + COUNTER, x + COUNTER, y, stroke="#cf222e", stroke_width=2, class_="broken"))
        layer.append(g)
    for m in sc["machines"]:
        if m.hex not in centres or m.removed:
            continue
        k = stack.get(m.hex, 0)
        stack[m.hex] = k + 1
        cx, cy = at(centres[m.hex])
        x, y = cx + 2 + 5 * k, cy - COUNTER / 2 + 2 + 5 * k
        g = dw.Group(class_="counter motorcycle", id=f"machine-{_slug(m.id)}")
        g.append(dw.Title(clean_text(f"{m.id}: {m.label()}" + (f", riders {', '.join(m.riders)}" if m.riders else ""))))
        g.append(dw.Rectangle(x, y, COUNTER, COUNTER, rx=2, fill="#444c56", stroke="#24292f", stroke_width=1))
        g.append(dw.Text("M", 9, x + COUNTER / 2, y + COUNTER / 2 + 3, text_anchor="middle", fill="#ffffff"))
        vca = getattr(m, "vca", None)
        if vca is not None and not schematic:
            a = math.radians(60 * int(vca) + 30)      # hexspine k lies between hexsides k and k+1, 0 = top
            mx, my = x + COUNTER / 2, y + COUNTER / 2
            tip = (mx + math.sin(a) * COUNTER * 0.9, my - math.cos(a) * COUNTER * 0.9)
            g.append(dw.Line(mx, my, *tip, stroke="#cf222e", stroke_width=2, class_="vca"))
            g.append(dw.Circle(*tip, 2.5, fill="#cf222e", class_="vca-tip"))
        layer.append(g)
    d.append(layer)


def _fires(d, dw, sc, centres, at) -> None:
    layer = dw.Group(class_="fires")
    for i, f in enumerate(sc["fires"]):
        if f["target"] not in centres:
            continue
        tx, ty = at(centres[f["target"]])
        g = dw.Group(class_=f"fire {_slug(f['kind'])}", id=f"fire-{i}-{_slug(f['id'])}")
        g.append(dw.Title(clean_text(f"{f['id']}: {f['kind']} at {f['target']}, {f['range']} hexes")))
        sources = [at(centres[h]) for h in f["from"]] or [(tx - HEX * 1.5, ty - HEX * 1.0)]
        for sx, sy in sources:
            g.append(dw.Line(sx, sy, tx, ty, stroke="#cf222e", stroke_width=2.2, class_="ray"))
        g.append(dw.Circle(tx, ty, 5, fill="none", stroke="#cf222e", stroke_width=2, class_="aim"))
        sx, sy = sources[0]
        g.append(dw.Text(clean_text(f"{f['id']}: {f['range']} hexes"), 10, sx, sy - 6, fill="#cf222e", font_weight="bold",
                         stroke="#ffffff", stroke_width=3, paint_order="stroke"))
        layer.append(g)
    d.append(layer)
