"""What fills the compiled driver's structs (fastcore/_cwdrive.pxd) from the reference's objects: plain dicts, one key a
field, for the test wrappers of fastcore/_cwcheck.pyx (tests/test_drive_kernel_parts.py). The fight kernel's packer
must fill the same fields from the same objects (FIGHT-07, FIGHT-08, FIGHT-09)."""
from hardpoint.carwars.dropped import oil_extra_difficulty
from hardpoint.carwars.driving import MANEUVER_KINDS, TACTICS
from hardpoint.carwars.enums import Side
from hardpoint.carwars.fight import weapon_can_fire

KINDS = ("car", "trike", "cycle")
MAXKINDS, MAXROWS, MAXCOLS, CHART_SPEEDS, PHASES = 16, 64, 30, 301, 5      # _cwdrive.pxd's capacities


def pack_counter(c) -> tuple:
    """geometry.Counter as (cx, cy, length, width, facing)."""
    return (c.cx, c.cy, c.length, c.width, c.facing)


def pack_rules(rules) -> dict:
    """CwDriveRules: carwars.maneuvers, carwars.damage [crew], carwars.fight [driver], carwars.handling [control],
    carwars.bodies [arcs], carwars.turn."""
    m = rules["carwars.maneuvers"]
    return {**_maneuver_fields(m), **_driver_fields(rules["carwars.fight"]["driver"]),
            **_control_fields(rules["carwars.handling"]["control"]), **_turn_fields(rules["carwars.turn"]),
            "water_max_d": m["water_max_d"], "reverse_extra_d": m["reverse_extra_d"],
            "substitute_maneuver_penalty": rules["carwars.damage"]["crew"]["substitute_maneuver_penalty"],
            "arc_angle": float(rules["carwars.bodies"]["arcs"]["angle"])}


def _maneuver_fields(m: dict) -> dict:
    s, t = m["speed"], m["maneuver"]
    out = {"speed_step": float(s["step"]), "acceleration": [float(s["acceleration"][k]) for k in KINDS],
           "top_speed": [float(s["top_speed"][k]) for k in KINDS], "safe_braking": float(s["safe_braking"]),
           "straight_d": t["straight"]["d"], "bend_d_per_step": t["bend"]["d_per_step"],
           "swerve_d_extra": t["swerve"]["d_extra"], "pivot_d": t["pivot"]["d"], "bootlegger_d": t["bootlegger"]["d"],
           "bootlegger_not_for": sum(1 << KINDS.index(k) for k in t["bootlegger"]["not_for"]),
           "t_stop_d_per_10_mph": t["t_stop"]["d_per_10_mph"], "t_stop_angle": float(t["t_stop"]["angle"])}
    for kind in ("drift", "steep_drift"):
        out[f"{kind}_d"], out[f"{kind}_lateral"] = t[kind]["d"], float(t[kind]["lateral"])
    for kind, keys in (("bend", ("step", "max_angle")), ("swerve", ("lateral", "step", "max_angle")),
                       ("pivot", ("speed", "advance", "step", "max_angle")),
                       ("bootlegger", ("min_speed", "max_speed", "advance"))):
        out.update({f"{kind}_{k}": float(t[kind][k]) for k in keys})
    return out


def _driver_fields(drv: dict) -> dict:
    menu = [MANEUVER_KINDS.index(k) if k in MANEUVER_KINDS else -1 for k in drv["menu"]]
    return {"n_menu": len(menu), "menu": menu + [-1] * (MAXKINDS - len(menu)), "max_control_roll": drv["max_control_roll"],
            "tactic_speed": [float(drv["speed"][t]) for t in TACTICS], "turning_speed": float(drv["turning_speed"]),
            "standoff": float(drv["standoff"])}


def _control_fields(c: dict) -> dict:
    table = [0] * (MAXROWS * MAXCOLS)
    for r, row in enumerate(c["rows"]):
        table[r * MAXCOLS: r * MAXCOLS + len(row)] = row
    cols = list(c["columns"])
    return {"n_rows": len(c["rows"]), "n_cols": len(cols), "columns": cols + [0] * (MAXCOLS - len(cols)), "control": table}


def _turn_fields(t: dict) -> dict:
    has, chart = [0] * CHART_SPEEDS, [0.0] * (CHART_SPEEDS * PHASES)
    for key, row in t["chart"].items():
        has[int(key)] = 1
        chart[int(key) * PHASES: int(key) * PHASES + PHASES] = [float(x) for x in row]
    return {"chart_has": has, "chart": chart, "spread_order": list(t["spread_order"]),
            "pedestrian_step": float(t["pedestrian_step"])}


def pack_unit(fight, u, out) -> dict:
    """CwUnit of a Vehicle or a Pedestrian."""
    return {"counter": pack_counter(u.counter), "speed": float(u.speed), "side": fight.side_names.index(fight.side(u.id)),
            "out": u.id in out}


def pack_vehicle(rules, fight, arena, v, out) -> dict:
    """CwVehicle, its weapons judged under its own movement order (none: no weapon usable)."""
    order = fight.drive_of(v.id)
    weapons = list(v.all_weapons())
    usable = [order is not None and (order.weapons is None or w.id in order.weapons) and w.spec.aimed and weapon_can_fire(w)
              for w in weapons]
    return {"unit": pack_unit(fight, v, out), "kind": KINDS.index(v.kind),
            "has_acceleration": v.acceleration is not None, "acceleration": float(v.acceleration or 0),
            "has_top_speed": v.top_speed is not None, "top_speed": float(v.top_speed or 0),
            "in_water": v.water_depth_ft > 0, "off_road": v.off_road, "substitute": v.substitute is not None,
            "has_handling": v.handling_status is not None, "handling_status": v.handling_status or 0,
            "oil_extra": oil_extra_difficulty(rules, arena, v),
            "armour": [v.armour.get(s, 0) for s in (Side.FRONT, Side.BACK, Side.LEFT, Side.RIGHT)],
            "weapon_mount": [int(w.mount) for w in weapons], "weapon_usable": [int(u) for u in usable]}


def pack_arena(rules, fight, arena, out=()) -> dict:
    """CwArena: the vehicles and pedestrians in the arena's order, the buildings' vertices, the phase."""
    xy, start = [], [0]
    for b in arena.buildings.values():
        for x, y in b.polygon.vertices:
            xy += [x, y]
        start.append(start[-1] + len(b.polygon.vertices))
    return {"vehicles": [pack_vehicle(rules, fight, arena, v, out) for v in arena.vehicles.values()],
            "pedestrians": [pack_unit(fight, p, out) for p in arena.pedestrians.values()],
            "building_xy": xy, "building_start": start, "phase": arena.phase}


def unit_index(arena, uid: str) -> int:
    """A unit's index in list(arena.vehicles) + list(arena.pedestrians)."""
    return (list(arena.vehicles) + list(arena.pedestrians)).index(uid)


def pack_order(arena, order) -> dict:
    """CwOrder of a DriveOrder."""
    return {"tactic": TACTICS.index(order.tactic),
            "target": -1 if order.target == "nearest_enemy" else unit_index(arena, order.target),
            "has_speed": order.speed is not None, "speed": float(order.speed or 0.0), "range_inches": order.range or 0.0}
