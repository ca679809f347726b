"""ASL board geometry: hex coordinates, adjacency, hexside directions and the VCA (ASL-MOV-03).

The convention is data (seeds/asl/board.toml) and docs/asl.md draws it: hexes
are named as on a geomorphic board ("B5": column letters, row number); the
hexes are flat-topped, so a column is a straight line of hexes; columns with an
odd index (B, D, ...) sit half a hex lower than their neighbours. Hexsides are
numbered 0-5 clockwise from the top ("n", "ne", "se", "s", "sw", "nw"), and
hexspine k lies between hexsides k and k+1. A motorcycle's VCA is a hexspine:
it may enter the hexes across the two hexsides beside it; changing it costs MP
per hexspine turned (D2.11, D15.42).

    >>> import hardpoint
    >>> from hardpoint.asl.geometry import neighbour, parse_coordinate, hex_label
    >>> from hardpoint.asl.tables import board_settings
    >>> grid = board_settings(hardpoint.default_rules())
    >>> [hex_label(neighbour(grid, parse_coordinate(grid, "B5"), k)) for k in range(6)]
    ['B4', 'C5', 'C6', 'B6', 'A6', 'A5']
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..data import Rules
from ..errors import RuleViolation, ScenarioError
from .tables import BoardSettings, board_settings

__all__ = [
    "HexCoord", "column_index", "column_letters", "parse_coordinate", "hex_label", "neighbour", "hexside_between",
    "vca_hexsides", "spines_between", "vca_to_cross", "turn_vca", "direction_number", "board_coordinate", "adjacent_hexside",
]

_COORD = re.compile(r"^(?P<letters>[A-Z]+)(?P<row>[0-9]+)$")


@dataclass(frozen=True)
class HexCoord:
    """A hex on the board: column index (A = 0, ..., Z = 25, AA = 26, ...) and row number."""

    column: int
    row: int


def column_index(letters: str) -> int | None:
    """"A" -> 0, "Z" -> 25, "AA" -> 26, "GG" -> 32 (a letter doubled); None for anything else."""
    if not letters or len(set(letters)) != 1 or len(letters) > 2:
        return None
    return 26 * (len(letters) - 1) + ord(letters[0]) - ord("A")


def column_letters(index: int) -> str:
    """The inverse of `column_index`."""
    return chr(ord("A") + index % 26) * (index // 26 + 1)


def parse_coordinate(grid: BoardSettings, text: str, field: str = "hex.id") -> HexCoord | None:
    """The board coordinate of a hex id such as "B5" or "GG10", or None if the id is a label (not
    capital letters followed by digits). An id written as a coordinate must be on the board: its
    column within `columns`, its row within its column's rows (even index 1-10, odd 0-10)."""
    m = _COORD.match(text)
    if m is None:
        return None
    col = column_index(m["letters"])
    if col is None or col >= grid.columns:
        raise ScenarioError(f"no such column: columns are A..{column_letters(grid.columns - 1)} (one letter, then a letter doubled)",
                            field=field, value=text, rule="ASL-MOV-03")
    row = int(m["row"])
    first, last = grid.rows_odd if col % 2 else grid.rows_even
    if not first <= row <= last:
        raise ScenarioError(f"column {m['letters']} has rows {first} to {last}", field=field, value=text, rule="ASL-MOV-03")
    return HexCoord(col, row)


def hex_label(coord: HexCoord) -> str:
    """"B5" for HexCoord(1, 5)."""
    return f"{column_letters(coord.column)}{coord.row}"


def neighbour(grid: BoardSettings, coord: HexCoord, side: int) -> HexCoord:
    """The hex across hexside `side` (0-5) of `coord` (it may lie off the board)."""
    dc, dr = (grid.neighbours_odd if coord.column % 2 else grid.neighbours_even)[side % 6]
    return HexCoord(coord.column + dc, coord.row + dr)


def hexside_between(grid: BoardSettings, a: HexCoord, b: HexCoord) -> int | None:
    """The hexside of `a` that `b` lies across, or None if they are not adjacent."""
    for side in range(6):
        if neighbour(grid, a, side) == b:
            return side
    return None


def vca_hexsides(vca: int) -> tuple[int, int]:
    """ASL-MOV-03 (D2.11): the two hexsides beside the hexspine a VCA faces, the ones a vehicle
    crosses without changing VCA."""
    return vca % 6, (vca + 1) % 6


def spines_between(a: int, b: int) -> int:
    """How many hexspines a VCA turns through from hexspine a to hexspine b (the short way)."""
    d = (b - a) % 6
    return min(d, 6 - d)


def vca_to_cross(vca: int, side: int) -> int:
    """ASL-MOV-03 (D2.11, D15.42): the VCA closest to `vca` that has hexside `side` beside it (the
    hexspine on either side of that hexside; `vca` itself when it already does)."""
    if side in vca_hexsides(vca):
        return vca
    return min(((side - 1) % 6, side % 6), key=lambda s: spines_between(vca, s))


def turn_vca(vca: int, spines: int) -> int:
    """The VCA after turning `spines` hexspines clockwise (negative: anticlockwise)."""
    return (vca + spines) % 6


def direction_number(names: tuple[str, ...], name: object, field: str, rule: str = "ASL-MOV-03") -> int:
    """The number (0-5) of a hexside or hexspine name of seeds/asl/board.toml."""
    if isinstance(name, str) and name in names:
        return names.index(name)
    raise ScenarioError(f"expected one of {', '.join(names)}", field=field, value=name, rule=rule)


def board_coordinate(rules: Rules, hex_id: str, field: str, rule: str) -> HexCoord:
    """The coordinate of a hex that a move enters or leaves: movement needs board coordinates (a
    hex named by a label has no neighbours, so a path through it could not be checked)."""
    coord = parse_coordinate(board_settings(rules), hex_id, field)
    if coord is None:
        raise ScenarioError("movement needs hexes named by board coordinates (such as B5): a label has no neighbours",
                            field=field, value=hex_id, rule=rule)
    return coord


def adjacent_hexside(rules: Rules, here: str, target: str, field: str, rule: str) -> int:
    """The hexside of `here` that a move crosses into `target`; refused unless they are adjacent
    (a move goes hex by hex: A4.1 on foot, ASL-MOV-03 riding)."""
    grid = board_settings(rules)
    a = board_coordinate(rules, here, field, rule)
    b = board_coordinate(rules, target, field, rule)
    side = hexside_between(grid, a, b)
    if side is None:
        raise RuleViolation(f"{target} is not adjacent to {here}: a move enters the next hex", field=field, value=target, rule=rule)
    return side
