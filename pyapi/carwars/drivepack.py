"""Fights that drive, packed for the compiled kernel (`run_drive`, fastcore/_cwfightdrive.pxi; issue 34).

In a fight that drives, where the vehicles stand at each phase depends on the dice, so the kernel drives them and
explains each order's shots as the phase comes (fastcore/_cwtohit.pxd) instead of reading rows the packer worked
out. This module gathers, from the rules and the arena, what that reads and what does not change in a fight: the
to-hit tables (`tohit_tables`), each vehicle's size modifiers and its firer's standing situation (`tohit_vehicle`),
each weapon's mount and to-hit number (`tohit_weapon`), the standing driver's rules (`driver_rules`), the crash
tables (`DriveTables`), and the fight's packing with each vehicle's drive spec (`DrivePacker`, `pack_drive`). What
the kernel does not run is refused by name before anything runs (`drive_unsupported`). Each is a plain dict whose
keys are the fields of the kernel's structs, so the packer and the tests fill them alike.
"""
from __future__ import annotations

from typing import Any

from ..data import Rules
from ..ruleset import Unpackable
from . import _layout, tohit
from .batch import Packed
from .enums import Mount, Side
from .model import Arena, Vehicle, Weapon

__all__ = ["tohit_tables", "tohit_vehicle", "tohit_weapon", "MAX_BANDS", "REL_CODES", "driver_rules", "DriveTables", "DrivePacker",
           "drive_unsupported", "pack_drive"]

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


# --- the rules the standing driver reads (fastcore/_cwdrive.pxd CwDriveRules) ------------------------------------------

KINDS = ("car", "trike", "cycle")            # CwVehicle.kind: CW_CAR, CW_TRIKE, CW_CYCLE
MAXKINDS, MAXROWS, MAXCOLS, CHART_SPEEDS, PHASES, MAXBRAKING = 16, 64, 30, 301, 5, 32      # _cwdrive.pxd's capacities


def driver_rules(rules: Rules) -> dict[str, Any]:
    """CwDriveRules: carwars.maneuvers, carwars.damage [crew], carwars.fight [driver], carwars.handling [control],
    carwars.bodies [arcs], carwars.turn, as the standing driver reads them (FIGHT-07, FIGHT-08, FIGHT-09)."""
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
           **_braking_fields(s), "straight_d": t["straight"]["d"], "bend_d_per_step": t["bend"]["d_per_step"],
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


def _braking_fields(s: dict) -> dict:
    bands = s["braking"]
    pad = MAXBRAKING - len(bands)
    return {"n_braking": len(bands), "braking_mph": [float(m) for m, _ in bands] + [0.0] * pad,
            "braking_d": [int(d) for _, d in bands] + [0] * pad, "max_braking": float(s["max_braking"])}


def _driver_fields(drv: dict) -> dict:
    from .driving import MANEUVER_KINDS, TACTICS

    menu = [MANEUVER_KINDS.index(k) if k in MANEUVER_KINDS else -1 for k in drv["menu"]]
    return {"n_menu": len(menu), "menu": menu + [-1] * (MAXKINDS - len(menu)), "max_control_roll": drv["max_control_roll"],
            "tactic_speed": [float(drv["speed"][t]) for t in TACTICS], "turning_speed": float(drv["turning_speed"]),
            "standoff": float(drv["standoff"]), "turning_room": [float(drv["turning_room"][k]) for k in KINDS]}


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


# --- a fight that drives, packed for the kernel (run_drive) -------------------------------------------------------------

MAX_VEHICLES = 16        # fastcore/_cwfightdrive.pxi DRV_MAXV: the vehicles of a fight that drives
MAX_EFFECTS = 64         # DRV_MAXEFF: crash results (handling.toml's effects, and any other name a vehicle starts with)
MAX_OBSTACLES = 128      # DRV_MAXOBS: obstacles on the map (the scenario's and those dropped in a trial)
MAX_POOL = 4             # DW_POOL_N: the most people who may fire one weapon (a sidecar's riders, the gunners, the driver)
MAX_BANDS_CT = 32        # DRV_MAXBANDS: bands of a Crash Table, of the hazard table, rows of the ram table
_EFFECT_KINDS = ("skid", "fishtail", "spinout", "roll", "vault")


def drive_unsupported(scenario) -> str | None:
    """What the kernel's fights that drive (run_drive) do not run yet, each the reference's (ARCH-04), or None: the
    kernel drives vehicles on open ground and resolves the standing orders' aimed fire, collisions, handling and
    crashes, fire and explosions; anything else on the map or in the plan is the reference's."""
    from .attack import default_firer_pool

    arena, plan, fight, rules = scenario.arena, scenario.plan, scenario.fight, scenario.rules
    if len(arena.vehicles) > MAX_VEHICLES:
        return f"a fight that drives with more than {MAX_VEHICLES} vehicles"
    if arena.pedestrians:
        return "pedestrians in a fight that drives"
    if arena.buildings:
        return "buildings in a fight that drives (they block lines of fire)"
    if arena.counters or arena.clouds or getattr(arena, "areas", None):
        return "dropped counters, clouds or areas in a fight that drives"
    if len(arena.obstacles) > MAX_OBSTACLES:
        return f"more than {MAX_OBSTACLES} obstacles on the map in a fight that drives"
    if any(plan.attacks.values()) or any(plan.actions.values()) or any(plan.collisions.values()):
        return "planned attacks, actions or collisions in a fight that drives"
    for o in fight.orders:
        if o.unit not in arena.vehicles:
            return "a pedestrian's standing order in a fight that drives"
        v = arena.vehicles[o.unit]
        if o.weapons and any(not v.weapon(w).spec.aimed for w in o.weapons):
            return "standing orders that drop weapons (FIGHT-10) in a fight that drives"
        if o.aim != "auto":
            return f"an order aimed at {o.aim!r} in a fight that drives (the kernel aims 'auto')"
    for v in arena.vehicles.values():
        if v.off_road or v.water_depth_ft > 0:
            return f"vehicle {v.id!r} off-road or in water in a fight that drives"
        if v.crash_motion is not None or v.skids:
            return f"vehicle {v.id!r} starts in the middle of a crash (spinning, rolling or skidding)"
        if any(w.automatic for w in v.all_weapons()):
            return f"vehicle {v.id!r} has a weapon on automatic in a fight that drives"
        if any(w.mount is Mount.UNDERBODY and w.spec.aimed for w in v.all_weapons()):
            return f"vehicle {v.id!r} has an aimed underbody weapon in a fight that drives"
        if any(len(default_firer_pool(v, w)) > MAX_POOL for w in v.all_weapons()):
            return f"vehicle {v.id!r} has a weapon more than {MAX_POOL} people aboard may fire"
    h = rules["carwars.handling"]
    names = set(h["effect"])
    bands = [n for _, n in rules["carwars.damage"]["crew"]["crash_table_1"]] + [n for _, n in h["crash_table_2"]["bands"]]
    missing = [n for n in bands if n not in names]
    if missing:
        return f"Crash Table results with no effect in carwars.handling: {', '.join(sorted(set(missing)))}"
    if "spinout" not in names or "roll" not in names:
        return "carwars.handling has no 'spinout' or 'roll' effect (a crash in motion reads them)"
    if len(names) + len(arena.vehicles) + 1 > MAX_EFFECTS or max(len(bands), len(rules["carwars.collisions"]["ram"]),
                                                                 len(rules["carwars.damage"]["hazard"]["bands"])) > MAX_BANDS_CT:
        return "more crash results or table bands than the kernel holds"
    drv, control, chart = rules["carwars.fight"]["driver"], rules["carwars.handling"]["control"], rules["carwars.turn"]["chart"]
    if len(drv["menu"]) > MAXKINDS or len(control["rows"]) > MAXROWS or len(control["columns"]) > MAXCOLS \
            or any(len(row) > MAXCOLS for row in control["rows"]) or any(not 0 <= int(k) < CHART_SPEEDS for k in chart):
        return "a driver's menu, Control Table or movement chart larger than the compiled driver holds"
    return None


def _dice(text: str) -> tuple[int, int, int]:
    from ..dice import parse_dice

    d = parse_dice(text)
    return d.count, d.bonus, d.floor


class DriveTables:
    """The crash results by index (the effects of carwars.handling, then any other name a vehicle's crash may take),
    the Crash Tables and the other figures run_drive reads (fastcore/_cwfightdrive.pxi DriveConsts, CrashEffect)."""

    def __init__(self, rules: Rules, arena: Arena):
        h = rules["carwars.handling"]
        out = set(rules["carwars.fight"]["out_of_action"]["crash_results_out"])
        self.names: list[str] = list(h["effect"])
        crew = rules["carwars.damage"]["crew"]
        from .crew import crash_table_band

        extra = [v.crash for v in arena.vehicles.values() if v.crash is not None]
        extra += [crash_table_band(rules, r + crew["crash_table_bonus"]) for r in range(13)]
        for name in extra:
            if name not in self.names:
                self.names.append(name)
        self.index = {n: i for i, n in enumerate(self.names)}
        fire_table = rules["carwars.tohit"]["handling"]
        self.effects = []
        for name in self.names:
            e = h["effect"].get(name)
            row = {"kind": -1, "fire_none": 0, "fire_value": 0, "skid": 0.0, "slow": 0.0, "tire_points": 0, "next": -1,
                   "fishtail": 0.0, "then_table_1": 0, "has_tire_dice": 0, "tire_dice": (0, 0, 0), "side_dice": (0, 0, 0),
                   "occupant_points": 0, "move_per_phase": 0.0, "slow_per_turn": 0.0, "has_burning": 0, "burning": (0, 0),
                   "out": int(name in out)}
            if e is not None:
                row["kind"] = _EFFECT_KINDS.index(e["kind"])
                if e["fire"] == "none":
                    row["fire_none"] = 1
                else:
                    row["fire_value"] = int(fire_table[e["fire"]])
                row["skid"] = float(e.get("skid", 0.0))
                row["slow"] = float(e.get("slow", 0))
                row["tire_points"] = int(e.get("tire_points", 0))
                row["next"] = self.index[e["next"]] if e.get("next") else -1
                row["fishtail"] = float(e.get("fishtail", 0.0))
                row["then_table_1"] = int(bool(e.get("then_table_1")))
                if "tire_dice" in e:
                    row["has_tire_dice"], row["tire_dice"] = 1, _dice(e["tire_dice"])
                if "side_dice" in e:
                    row["side_dice"] = _dice(e["side_dice"])
                row["occupant_points"] = int(e.get("occupant_points", 0))
                row["move_per_phase"] = float(e.get("move_per_phase", 0.0))
                row["slow_per_turn"] = float(e.get("slow_per_turn", 0))
                if e.get("burning"):
                    row["has_burning"], row["burning"] = 1, tuple(e["burning"])
            self.effects.append(row)
        self.cycle_crash = [self.index[crash_table_band(rules, r + crew["crash_table_bonus"])] for r in range(13)]

    def consts(self, rules: Rules) -> dict[str, Any]:
        """DriveConsts: the Crash Tables, the hazards, the collisions' ram table, the handling status and the
        maneuvers' tire damage and slowing."""
        h, crew, col = rules["carwars.handling"], rules["carwars.damage"]["crew"], rules["carwars.collisions"]
        t = rules["carwars.maneuvers"]["maneuver"]

        def bands(rows) -> tuple[int, list[int]]:        # (low, effect) pairs, flat, padded
            flat = [int(x) for lo, name in rows for x in (lo, self.index[name])]
            return len(rows), flat + [0] * (2 * MAX_BANDS_CT - len(flat))

        n1, ct1 = bands(crew["crash_table_1"])
        n2, ct2 = bands(h["crash_table_2"]["bands"])
        hz = [int(x) for lo, d in rules["carwars.damage"]["hazard"]["bands"] for x in (lo, d)]
        uppers = [float(upper) for upper, _ in col["ram"]]
        ram = [x for _, d in col["ram"] for x in _dice(d)]
        cm = list(h["control"]["crash_modifier"])
        return {"enabled": int(bool(h["enabled"])), "n_ct1": n1, "ct1": ct1, "n_ct2": n2, "ct2": ct2,
                "crash_offset": int(h["crash"]["difficulty_offset"]),
                "crash_modifier": cm + [0] * (MAXROWS - len(cm)),
                "status_floor": int(h["status"]["floor"]), "recover_min": int(h["status"]["recover_min"]),
                "hc_min": int(h["handling_class"]["min"]), "hc_max": int(h["handling_class"]["max"]),
                "n_hazard": len(hz) // 2, "hazard": hz + [0] * (2 * MAX_BANDS_CT - len(hz)),
                "driver_hazard": int(crew["driver_hazard"]), "uncontrolled_slow": float(crew["uncontrolled_slowdown_mph"]),
                "cycle_crash": self.cycle_crash,
                "n_ram": len(uppers), "ram_upper": uppers + [0.0] * (MAX_BANDS_CT - len(uppers)),
                "ram_dice": ram + [0] * (3 * MAX_BANDS_CT - len(ram)),
                "ram_step": float(col["speed_step"]), "ram_per_step_above": int(col["dice_per_5_mph_above"]),
                "radius": float(rules["carwars.fire"]["explosion"]["radius"]),
                "from_movement": int(bool(rules["carwars.fight"]["collisions"]["from_movement"])),
                "bootlegger_tire_points": int(t["bootlegger"]["tire_points"]),
                "t_stop_slow_per_inch": float(t["t_stop"]["slow_per_inch"]),
                "t_stop_tire_points_per_20": int(t["t_stop"]["tire_points_per_20_mph"]),
                "paint_mod": int(rules["carwars.tohit"]["visibility"]["paint_on_windows"]),
                "safe_braking": float(rules["carwars.maneuvers"]["speed"]["safe_braking"]),
                "eff_spinout": self.index["spinout"], "eff_roll": self.index["roll"], "n_effects": len(self.names),
                "obstacle_size": float(rules["carwars.damage"]["obstacle"]["size_in"]),
                "obstacle_hazard": int(rules["carwars.damage"]["obstacle"]["hazard"])}


def _fight_packer():
    from .fightpack import FightPacker

    return FightPacker


class DrivePacker(_fight_packer()):  # type: ignore[misc]
    """The packing of a fight that drives (`pack_drive`): the fight packer's vehicles, weapons, crew, constants and
    orders, but no candidate shots, collisions or blast rows, which depend on where the vehicles are and so on the
    dice: the kernel works them out as each phase comes (run_drive). Per phase, each order's weapons are entries
    whose firer rows start empty; `drive()` gives what the kernel reads besides (the vehicles' places and speeds,
    the standing driver's and the handling rules' figures, the crash results, each weapon's shot)."""

    def pack_phase(self, ti: int, turn: int, phase: int, fired) -> None:
        """A phase: the orders that hold in it, as entries (no movement, drop, counter or collision rows)."""
        self.arena.phase = phase
        self.drop_lo.append(len(self.drops))
        self.ocon_lo.append(len(self.ocon))
        self.col_lo.append(len(self.fcol))
        self.orders(turn, phase, ti * self.P + phase - 1)
        self.tp_lo.append(len(self.ent))

    def end_of_turn(self, ti: int) -> None:
        """No blast rows (the kernel finds who an explosion reaches where it happens); the next turn."""
        self.near_v += [[] for _ in range(max(1, self.V))]
        self.near_p += [[] for _ in range(max(1, self.V))]
        self.arena.turn += 1
        self.arena.phase = 1

    def orders(self, turn: int, phase: int, tp: int) -> None:
        """The standing orders that hold this phase (FIGHT-02, `fight.order_attacks`): per order and weapon an entry,
        in the orders' order (drive_unsupported leaves only vehicles' orders)."""
        from .fight import weapons_of

        for order in self.fight.orders:
            if order.holds(turn, phase):
                unit = self.arena.vehicles[order.unit]
                for wid in weapons_of(order, unit):
                    self._drive_weapon(order, unit, wid, tp)

    def _drive_weapon(self, order, unit, wid: str, tp: int) -> None:
        """One weapon of an order: an entry with a firer row per firer who may fire it, their candidates left to the
        kernel; its target: -1 for any enemy (nearest or best odds), else the named unit's index."""
        from .attack import default_firer_pool
        from .fight import TARGET_POLICIES, order_min36

        w = next((x for x in unit.all_weapons() if x.id == wid), None)
        if w is None or w.automatic or w.spec.refused:
            return              # holds fire in every trial (carwars.fight._holds_fire)
        firers = [order.firer] if order.firer is not None else [c.id for c in default_firer_pool(unit, w)]
        f0 = len(self.fir)
        for firer in firers:
            self._firer_rows(self.crew_index[(unit.id, firer)], [])
        self._entry(tp, unit, self.wkey[(unit.id, wid)], self.weapon_index[(unit.id, wid)], -1, f0,
                    _layout.CHOOSE_BEST_ODDS if order.target == "best_odds" else _layout.CHOOSE_NEAREST,
                    min36=order_min36(self.rules, order, unit, wid))
        self.ent_target.append(-1 if order.target in TARGET_POLICIES else self.uidx[order.target])

    def drive(self) -> dict[str, Any]:
        """What run_drive reads besides the fight's arrays (fastcore/_cwfightdrive.pxi)."""
        from .drive_phase import start_fight

        rules, fight = self.rules, self.fight
        arena = self.scenario.arena.copy()
        start_fight(rules, fight, arena)               # FIGHT-09: the status each driven vehicle starts with
        tables = DriveTables(rules, arena)
        th = rules["carwars.tohit"]
        vehicles = []
        for i, v in enumerate(arena.vehicles.values()):
            vehicles.append(self._vehicle(arena, v, tables))
        weapons = []
        for v in arena.vehicles.values():
            order = fight.drive_of(v.id)
            for w in v.all_weapons():
                spec = w.spec
                weapons.append([int(w.mount), int(v.sidecar is not None and w in v.sidecar.weapons), int(spec.to_hit),
                                spec.damage.count if spec.damage else 0, spec.damage.bonus if spec.damage else 0,
                                spec.damage_hits or 0, spec.fire_modifier if spec.fire_modifier is not None else -1,
                                int(spec.fiery), spec.burn_duration or 0,
                                int(order is not None and (order.weapons is None or w.id in order.weapons) and spec.aimed
                                    and not spec.refused)] + self._pool(v, w))
        skill = []
        for v in arena.vehicles.values():
            for c in v.all_crew():
                skill.append(sum(m.value for m in tohit.firer_modifiers(rules, skill=c.gunner)))
        fronts = [int(t.id.startswith("front")) for v in arena.vehicles.values() for t in v.tires + ([v.sidecar.tire] if v.sidecar else [])]
        from .terrain import on_obstacles

        start = arena.copy()
        on_obstacles(start)             # CW-SEED-04: the scenario's obstacles, and who stands on one (a bit each)
        ids = list(arena.vehicles)
        obstacles = [(o.x, o.y, sum(1 << ids.index(v) for v in o.still_on)) for o in start.obstacles]
        return {"rules": driver_rules(rules), "tohit": tohit_tables(rules), "consts": tables.consts(rules),
                "obstacles": obstacles,
                "effects": tables.effects, "vehicles": vehicles, "t_front": fronts, "c_skill": skill,
                "weapons": weapons, "ent_target": list(self.ent_target), "max_needed": int(th["to_hit"]["max_needed"])}

    def _pool(self, v: Vehicle, w) -> list[int]:
        """Who may fire the weapon (attack.default_firer_pool), as crew indices, -1 after (driving.manned)."""
        from .attack import default_firer_pool

        pool = [self.crew_index[(v.id, c.id)] for c in default_firer_pool(v, w)]
        return pool + [-1] * (MAX_POOL - len(pool))

    def _vehicle(self, arena: Arena, v: Vehicle, tables: DriveTables) -> dict[str, Any]:
        """DriveSpec: one vehicle's place, speed and fixed figures, its movement order and its handling and crash
        state as the fight starts."""
        from .collision import weight_factor
        from .driving import TACTICS
        from .motion import vehicle_weight

        rules, fight = self.rules, self.fight
        order = fight.drive_of(v.id)
        hc = rules["carwars.handling"]["handling_class"]
        crew = list(v.all_crew())
        f = weight_factor(rules, vehicle_weight(rules, v))
        cnt = v.counter
        t = tohit_vehicle(rules, arena, v)
        sub = next((i for i, c in enumerate(crew) if c.id == v.substitute), -1)
        c0 = sum(len(list(o.all_crew())) for o in list(arena.vehicles.values())[: list(arena.vehicles).index(v.id)])
        return {
            "driven": int(order is not None),
            "order": {"tactic": TACTICS.index(order.tactic) if order else 0,
                      "target": -1 if order is None or order.target == "nearest_enemy" else self.uidx[order.target],
                      "has_speed": int(order is not None and order.speed is not None),
                      "speed": float(order.speed or 0.0) if order else 0.0,
                      "range_inches": float(order.range or 0.0) if order else 0.0},
            "from_turn": order.from_turn if order else 0, "until_turn": order.until_turn or 0 if order else 0,
            "has_until": int(order is not None and order.until_turn is not None),
            "hc_base": hc["body"][v.body.name] + hc["suspension"]["off_road" if v.off_road_suspension else v.suspension],
            "reflexes": int(v.driver.reflexes) if v.driver is not None else 0,
            "stun_until": v.driver.stunned_until_turn if v.driver is not None and v.driver.stunned_until_turn is not None else -1000,
            "has_hs0": int(v.handling_status is not None), "hs0": int(v.handling_status or 0),
            "unc0": int(v.uncontrolled), "sub0": c0 + sub if sub >= 0 else -1,
            "sub_from0": v.substitute_from_turn if v.substitute_from_turn is not None else -1000,
            "steered0": v.steered_turn if v.steered_turn is not None else -1000,
            "crash0": tables.index[v.crash] if v.crash is not None else -1,
            "no_fire0": v.no_fire_turn if v.no_fire_turn is not None else -1000,
            "has_hv0": int(v.handling is not None),
            "hv0": int(rules["carwars.tohit"]["handling"][v.handling]) if v.handling is not None else 0,
            "paint_until": v.paint_until_turn if v.paint_until_turn is not None else -1000,
            "weight_num": f.numerator, "weight_den": f.denominator,
            "kind": KINDS.index(v.kind), "has_accel": int(v.acceleration is not None), "accel": float(v.acceleration or 0),
            "has_top": int(v.top_speed is not None), "top": float(v.top_speed or 0),
            "x": float(v.x), "y": float(v.y), "facing": float(v.facing), "speed": float(v.speed),
            "length": float(cnt.length), "width": float(cnt.width),
            "body_width": t["body_width"], "sc_width": t["sc_width"], "sc_side": t["sc_side"],
            "size_fb": t["size_fb"], "size_side": t["size_side"], "firer_static": t["firer_static"],
            "side": self.u_side[self.uidx[v.id]],
        }

    def packed(self) -> Packed:
        out = super().packed()
        out.drive = self.drive()
        return out


def pack_drive(scenario, base: Packed) -> Packed | Unpackable:
    """A fight that drives, packed for run_drive (ARCH-04: its reason to run on the reference, else the packing)."""
    from .fightpack import _unpackable, layout_of

    reason = drive_unsupported(scenario)
    if reason is not None:
        return Unpackable(reason)
    arena = scenario.arena.copy()
    layout = layout_of(scenario)
    reason = _unpackable(scenario, arena, layout)
    if reason is not None:
        return Unpackable(reason)
    packer = DrivePacker(scenario, base, arena, layout, frozenset(), None)
    packer.ent_target = []
    for ti in range(packer.T):
        packer.pack_turn(ti)
    return packer.packed()
