"""What the compiled fight kernel reads to work out shots itself, in fights that drive (issue 34).

In a fight that drives, where the vehicles stand at each phase depends on the dice, so the kernel explains each
order's shots as the phase comes (fastcore/_cwtohit.pxd) instead of reading them from rows the packer worked out.
This module gathers, from the rules and the arena, the figures that explanation reads and that do not change in a
fight: the to-hit tables (`tohit_tables`), each vehicle's size modifiers and its firer's standing situation
(`tohit_vehicle`), each weapon's mount and to-hit number (`tohit_weapon`). Each is a plain dict whose keys are the
fields of the kernel's structs (ThTables, ThVehicle, ThWeapon), so the packer and the tests fill them alike.
"""
from __future__ import annotations

from typing import Any

from ..data import Rules
from . import tohit
from .enums import Mount, Side
from .model import Arena, Vehicle, Weapon

__all__ = ["tohit_tables", "tohit_vehicle", "tohit_weapon", "MAX_BANDS", "REL_CODES"]

MAX_BANDS = 16                       # fastcore/_cwtohit.pxd TH_MAX_BANDS
REL_CODES = {"half_target": 0, "half_difference": 1, "target": 2, "difference": 3}   # ThTables.rel
_ROWS = ("front", "back", "side")


def tohit_tables(rules: Rules) -> dict[str, Any]:
    """ThTables: carwars.tohit's range, speed bands, relative movement and targeting figures, and the arcs' angle."""
    t = rules["carwars.tohit"]
    bands = t["speed_bands"]["bands"]
    if len(bands) > MAX_BANDS:
        raise ValueError(f"more than {MAX_BANDS} speed bands")
    rm = t["relative_movement"]
    return {"arc_angle": float(rules["carwars.bodies"]["arcs"]["angle"]),
            "pb_under": float(t["range"]["point_blank_under"]), "pb": int(t["range"]["point_blank"]),
            "step": float(t["range"]["long_range_step"]), "per_step": int(t["range"]["long_range_per_step"]),
            "band_lo": [float(lo) for lo, _ in bands], "band_mod": [int(m) for _, m in bands],
            "target_still": int(t["speed_bands"]["target_not_moving"]), "firer_still": int(t["speed_bands"]["firer_not_moving"]),
            "rel": [REL_CODES[rm[r][c]] for r in _ROWS for c in _ROWS], "literal": int(bool(rm["literal_difference"])),
            "wrong_arc": int(t["targeting"]["wrong_arc"]), "max_needed": int(t["to_hit"]["max_needed"])}


def _size(rules: Rules, v: Vehicle, direction: str) -> int:
    return sum(m.value for m in tohit.target_size_modifiers(rules, v.body.size, direction))


def firer_static(rules: Rules, arena: Arena, v: Vehicle) -> int:
    """What a vehicle's firer adds for what does not change in a fight that drives: the weather and light
    (CW-HIT-07), a searchlight's glare, its computer and a bad surface under it (CW-HIT-08); his skill and wounds
    are his own, sustained fire, paint and handling the kernel's."""
    mods = tohit.visibility_modifiers(rules, arena.weather, arena.light, blinded=v.blinded)
    mods += tohit.firer_modifiers(rules, computer=v.computer, bad_surface=v.on_bad_surface)
    return sum(m.value for m in mods)


def tohit_vehicle(rules: Rules, arena: Arena, v: Vehicle) -> dict[str, Any]:
    """ThVehicle: where it stands now, its speed, body and sidecar, its size seen from an end and from a side
    (CW-HIT-05), and its firer's standing situation (`firer_static`), its handling this turn and hazard this phase
    (CW-HIT-10) and paint on its windows (CW-HIT-07)."""
    cnt = v.counter
    paint = v.paint_until_turn is not None and arena.turn <= v.paint_until_turn
    return {"cnt": (cnt.cx, cnt.cy, cnt.length, cnt.width, cnt.facing), "speed": float(v.speed),
            "body_width": float(v.body.width), "sc_width": float(v.body.sidecar_width) if v.sidecar else 0.0,
            "sc_side": int(v.sidecar.side) if v.sidecar else -1,
            "size_fb": _size(rules, v, "front_back"), "size_side": _size(rules, v, "side"),
            "handling": rules["carwars.tohit"]["handling"][v.handling] if v.handling else 0,
            "hazard": int(v.hazard_difficulty), "firer_static": firer_static(rules, arena, v),
            "paint": rules["carwars.tohit"]["visibility"]["paint_on_windows"] if paint else 0}


def tohit_weapon(v: Vehicle, w: Weapon) -> dict[str, Any]:
    """ThWeapon: its mount, whether it is on the sidecar, its to-hit number."""
    return {"mount": int(w.mount), "sidecar": int(v.sidecar is not None and w in v.sidecar.weapons), "to_hit": int(w.spec.to_hit)}


assert int(Side.LEFT) == 2 and int(Side.RIGHT) == 3 and int(Mount.TURRET) == 6
