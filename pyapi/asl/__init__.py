"""ASL rule D15 (Motorcycles & Bicycles) with the slice of the ASL core it needs.

    >>> import hardpoint
    >>> s = hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")
    >>> [(b.target, b.needed) for b in s.explain() if b.kind == "asl_to_hit_breakdown"]
    [('crew', 8), ('squad', 7), ('leader', 7)]
    >>> r = s.resolve(hardpoint.ScriptedDice([3, 4, 1, 2, 2, 5, 3, 2, 2, 1, 3, 3, 3, 4, 4]))
    >>> r.units["squad"], r.counters["cycle+leader"]
    ('eliminated', 'single-machine (SMC) cycle, motion in target, riders leader')

Modules: `units` (Infantry, motorcycle counters, hexes), `tables` (the TOML
tables of seeds/asl), `geometry` (board coordinates, hexsides, the VCA),
`ift` (A7), `tohit` (C3), `morale` (A10, A7.8, A.9), `motorcycles` (D15
rules), `movement` (the Movement Phase and its MF/MP ledger), `fire` (the
To Hit / IFT / MC / Bail Out chain), `chance` (rolled or exact), `scenario`.
See docs/asl.md.
"""
from .enums import Capacity, FireKind, Hexside, MachineType, Motion, Moving, Phase, TargetType, UnitType
from .fire import FireDeclaration, explain_fire, firepower
from .morale import morale_check, pin_task_check, random_selection
from .movement import MoveAction, Movement, MovementPhase, PhaseRecord
from .units import Board, Hex, Infantry, Motorcycle, Situation, make_unit
from . import ruleset as _ruleset  # noqa: F401  (registers the rule set with the front door)

__all__ = [
    "Capacity", "FireKind", "Hexside", "MachineType", "Motion", "Moving", "Phase", "TargetType", "UnitType",
    "FireDeclaration", "explain_fire", "firepower", "morale_check", "pin_task_check", "random_selection",
    "MoveAction", "Movement", "MovementPhase", "PhaseRecord", "Board", "Hex", "Infantry", "Motorcycle", "Situation", "make_unit",
]
