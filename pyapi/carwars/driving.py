"""Fights that drive (FIGHT-07, FIGHT-08): movement orders, maneuvers and the standing driver.

A vehicle under a movement order (`[[drive]]`) is driven by the standing
driver, who decides from the state alone (no dice of his own), by the
procedure docs/fights.md states:

- at the start of each turn, its speed: the tactic's speed, as near as the
  acceleration and the safe braking allow (FIGHT-08);
- in each phase in which it moves, one maneuver of the menu (seeds:
  carwars.maneuvers, carwars.fight [driver]): of those whose chance of losing
  control stays within the driver's limit (FIGHT-09) and whose end leaves no
  new contact with a vehicle or building, the one whose end pose scores best
  for the tactic; ties go to the earlier in the menu (straight first).

A maneuver's movement is a slide (its forward inches and sideways offset,
spread over the phase) and then a turn about a corner of the counter
(`ManeuverMove`); `turn` moves every vehicle that way, with the collisions
the slide finds (FIGHT-04).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..data import Rules
from ..errors import ScenarioError
from . import geometry as geo
from .contact import touching
from .enums import Mount, Side
from .model import Arena, Pedestrian, Vehicle, slowed

__all__ = ["TACTICS", "MANEUVER_KINDS", "DriveOrder", "Maneuver", "ManeuverMove", "parse_drive", "maneuver_menu", "maneuver_difficulty",
           "maneuver_move", "end_counter", "turned", "blocked", "gap", "drive_target", "choose_speed", "choose_maneuver", "top_speed", "acceleration",
           "braking_difficulty", "braking_limit"]

TACTICS = ("hold_course", "pursue", "keep_range", "bring_to_bear", "evade")
MANEUVER_KINDS = ("straight", "drift", "steep_drift", "bend", "swerve", "pivot", "bootlegger", "t_stop")


@dataclass(frozen=True)
class DriveOrder:
    """A movement order (FIGHT-07): `unit` is driven by the standing driver with `tactic` against `target` (a unit
    id or "nearest_enemy"), at `speed` mph (None: the tactic's default, carwars.fight [driver]), keeping `range`
    inches (keep_range), bringing `weapons` to bear (None: every aimed weapon), from `from_turn` to `until_turn`."""

    id: str
    unit: str
    tactic: str
    target: str = "nearest_enemy"
    speed: float | None = None
    range: float | None = None
    weapons: tuple[str, ...] | None = None
    from_turn: int = 1
    until_turn: int | None = None

    def holds(self, turn: int) -> bool:
        return turn >= self.from_turn and (self.until_turn is None or turn <= self.until_turn)


@dataclass(frozen=True)
class Maneuver:
    """One maneuver as made (FIGHT-08): its kind, its turn (degrees, right positive), its sideways slide (inches,
    right positive) and its own D (before the additions of `maneuver_difficulty`)."""

    kind: str
    angle: float = 0.0
    lateral: float = 0.0
    d: int = 0

    @property
    def name(self) -> str:
        """As a player says it: "straight", "drift left", "bend right 45", "T-stop left"..."""
        if self.kind == "straight":
            return "straight"
        way = "right" if (self.angle > 0 or (self.angle == 0 and self.lateral > 0)) else "left"
        label = {"steep_drift": "steep drift", "t_stop": "T-stop"}.get(self.kind, self.kind)
        if self.kind in ("drift", "steep_drift", "bootlegger", "t_stop"):
            return f"{label} {way}"
        return f"{label} {way} {abs(self.angle):g}"


@dataclass(frozen=True)
class ManeuverMove:
    """A phase's movement of a vehicle: slide by (dx, dy) over the phase, then turn `angle` degrees about the
    point `pivot` (given in the counter's own frame, x right and y forward, at the end of the slide)."""

    dx: float
    dy: float
    angle: float = 0.0
    pivot: tuple[float, float] = (0.0, 0.0)


# --- parsing (SAFE-01) --------------------------------------------------------------------------------------------

def parse_drive(data: list[dict], arena: Arena) -> list[DriveOrder]:
    """Movement orders from `[[drive]]`, every reference resolved now: one a vehicle, a target that is a unit or
    nearest_enemy, the weapons the vehicle's own aimed weapons (FIGHT-07)."""
    out: list[DriveOrder] = []
    seen: set[str] = set()
    driven: set[str] = set()
    for i, o in enumerate(data):
        path = f"drive[{i}]"
        oid = str(o.get("id", f"drive{i}"))
        if oid in seen:
            raise ScenarioError("two movement orders with one id", field=f"{path}.id", value=oid, rule="FIGHT-07")
        seen.add(oid)
        unit = o["unit"]
        if unit not in arena.vehicles:
            raise ScenarioError("no vehicle with this id (only vehicles are driven)", field=f"{path}.unit", value=unit, rule="FIGHT-07")
        if unit in driven:
            raise ScenarioError("a vehicle has one movement order", field=f"{path}.unit", value=unit, rule="FIGHT-07")
        driven.add(unit)
        target = o.get("target", "nearest_enemy")
        if target != "nearest_enemy" and target not in arena.vehicles and target not in arena.pedestrians:
            raise ScenarioError("a unit id or nearest_enemy", field=f"{path}.target", value=target, rule="FIGHT-07")
        if target == unit:
            raise ScenarioError("a vehicle does not drive at itself", field=f"{path}.target", value=target, rule="FIGHT-07")
        weapons = o.get("weapons")
        if weapons is not None:
            v = arena.vehicles[unit]
            for j, w in enumerate(weapons):
                v.weapon(w, f"{path}.weapons[{j}]")
            weapons = tuple(weapons)
        tactic = o.get("tactic", "hold_course")
        if tactic == "keep_range" and o.get("range") is None:
            raise ScenarioError("keep_range needs its range (inches)", field=f"{path}.range", rule="FIGHT-07")
        until = o.get("until_turn")
        order = DriveOrder(oid, unit, tactic, target, None if o.get("speed") is None else float(o["speed"]),
                           None if o.get("range") is None else float(o["range"]), weapons, int(o.get("from_turn", 1)),
                           None if until is None else int(until))
        if order.until_turn is not None and order.until_turn < order.from_turn:
            raise ScenarioError("until_turn comes before from_turn", field=f"{path}.until_turn", value=until, rule="FIGHT-07")
        out.append(order)
    return out


# --- speed (FIGHT-08) ---------------------------------------------------------------------------------------------

def acceleration(rules: Rules, v: Vehicle) -> int:
    """FIGHT-08: mph a turn the vehicle can gain (its own figure, else its body kind's)."""
    return v.acceleration if v.acceleration is not None else rules["carwars.maneuvers"]["speed"]["acceleration"][v.kind]


def top_speed(rules: Rules, v: Vehicle) -> int:
    """FIGHT-08: the vehicle's top speed (its own figure, else its body kind's)."""
    return v.top_speed if v.top_speed is not None else rules["carwars.maneuvers"]["speed"]["top_speed"][v.kind]


def _desired_speed(rules: Rules, v: Vehicle, order: DriveOrder, target) -> float:
    """FIGHT-07: the speed the tactic wants this turn: its own (the order's, else carwars.fight [driver] speed);
    pursuing, the target's speed within `standoff` of it (matching it rather than ramming). Bringing weapons to
    bear: while one bears, no faster than he can still stop by braking safely within the room left to the standoff
    (counter to counter; half of it, as the target may close the other half, even one standing still now), so a
    stop once there (he stands and fires); while none bears, its own speed within `turning_room` (his body kind's)
    of the target (to open the range and come round: no turn brings a car's gun round on a car beside it), else the
    turning speed (slow enough to pivot)."""
    drv = rules["carwars.fight"]["driver"]
    cruise = order.speed if order.speed is not None else float(drv["speed"][order.tactic])
    if target is None or order.tactic not in ("pursue", "bring_to_bear"):
        return cruise
    dist = gap(v.counter, target.counter)
    near = dist <= drv["standoff"]
    if order.tactic == "bring_to_bear":
        if _bearing(rules, v, order, v.counter, target)[0] == 0:
            return cruise if dist < drv["turning_room"][v.kind] else float(drv["turning_speed"])
        room = dist - drv["standoff"]
        return min(cruise, _stopping_speed(rules, 0.5 * room))
    return abs(target.speed) if near else cruise


def _stopping_speed(rules: Rules, room: float) -> float:
    """The highest speed (a step apart) from which safe braking stops the vehicle within `room` inches: this
    turn's move at that speed, then one a turn, each `safe_braking` slower, down to a stop."""
    s = rules["carwars.maneuvers"]["speed"]
    best, speed = 0.0, float(s["step"])
    while speed <= 300.0:
        inches, k = 0.0, speed
        while k > 0:
            inches += k / 10.0
            k -= s["safe_braking"]
        if inches > room:
            break
        best, speed = speed, speed + s["step"]
    return best


def braking_difficulty(rules: Rules, lost: float) -> int:
    """FIGHT-08: the D of braking `lost` mph in one turn: 0 within safe braking, else that of the first band of
    [speed] braking that covers it (the hardest band's beyond it; nobody brakes past max_braking)."""
    s = rules["carwars.maneuvers"]["speed"]
    if lost <= s["safe_braking"]:
        return 0
    for mph, d in s["braking"]:
        if lost <= mph:
            return d
    return s["braking"][-1][1] if s["braking"] else 0


def braking_limit(rules: Rules, v: Vehicle) -> float:
    """FIGHT-07/09: the most mph the standing driver sheds in a turn: safe braking, or a band of [speed] braking
    (up to max_braking) whose D, a hazard, leaves the control roll at his speed within max_control_roll."""
    from .handling import control_needed

    s = rules["carwars.maneuvers"]["speed"]
    limit = float(s["safe_braking"])
    if v.handling_status is None:
        return limit
    most = rules["carwars.fight"]["driver"]["max_control_roll"]
    for mph, d in s["braking"]:
        if mph > s["max_braking"] or control_needed(rules, v.speed, v.handling_status - d) > most:
            break
        limit = max(limit, float(mph))
    return limit


def choose_speed(rules: Rules, arena: Arena, v: Vehicle, order: DriveOrder, target) -> float:
    """FIGHT-07/08: the speed the standing driver sets at the start of a turn: of the speeds a step apart from
    his braking limit (`braking_limit`: harder than safe braking only within his risk) to the acceleration limit,
    within 0 and the top speed, the one nearest the tactic's (`_desired_speed`; a tie to the smaller change).
    hold_course keeps the speed, and so does a driver with no target. In contact with a vehicle or building, if
    going straight at that speed would keep it in contact, he stops."""
    s = rules["carwars.maneuvers"]["speed"]
    if order.tactic == "hold_course" or target is None:
        return v.speed
    want = _desired_speed(rules, v, order, target)
    lo = max(0.0, v.speed - braking_limit(rules, v))
    hi = min(float(top_speed(rules, v)), v.speed + acceleration(rules, v))
    best = v.speed if lo <= v.speed <= hi else (lo if v.speed < lo else hi)
    k = math.ceil((lo - v.speed) / s["step"] - 1e-9)
    while v.speed + k * s["step"] <= hi + 1e-9:
        cand = v.speed + k * s["step"]
        if abs(cand - want) < abs(best - want) or (abs(cand - want) == abs(best - want) and abs(cand - v.speed) < abs(best - v.speed)):
            best = cand
        k += 1
    if best > 0 and _pushing(rules, arena, v, best):
        return 0.0
    return best


def _pushing(rules: Rules, arena: Arena, v: Vehicle, speed: float) -> bool:
    """Whether going straight one inch at `speed` keeps the vehicle in contact with a vehicle or building it touches
    now: drives into it, not along it (the counter pared by LOOK_GRAIN a side, so that two counters edge to edge,
    side by side, may drive apart)."""
    now = v.counter.corners()
    s, c = geo.sincos_deg(v.facing)
    ahead = [(x + s, y + c) for x, y in _pared(v.counter).corners()]
    for poly in _obstacles(arena, v):
        if touching(now, poly) and touching(ahead, poly):
            return True
    return False


def blocked(arena: Arena, v: Vehicle, cnt: geo.Counter, rules: Rules | None = None, phase: int = 0) -> bool:
    """Whether the vehicle's counter moved to `cnt` would touch a vehicle or building it does not touch now; given
    the rules and a phase, also where each other moving vehicle may be at the end of that phase (`_straight_on`:
    the standing driver's look ahead; he does not ram)."""
    now = v.counter.corners()
    corners = cnt.corners()
    if any(touching(corners, p) and not touching(now, p) for p in _obstacles(arena, v)):
        return True
    if rules is None:
        return False
    return any(touching(corners, p) and not touching(now, p) for p in _straight_on(rules, arena, v, phase))


def _straight_on(rules: Rules, arena: Arena, v: Vehicle, phase: int) -> list:
    """Where every other vehicle may be at the end of the phase: its counter gone straight on (the movement chart),
    and that counter slid a steep drift to either side (it may maneuver too)."""
    from .motion import straight_displacement

    lateral = rules["carwars.maneuvers"]["maneuver"]["steep_drift"]["lateral"]
    out = []
    for o in arena.vehicles.values():
        if o.id == v.id:
            continue
        dx, dy = straight_displacement(rules, o, phase)
        if dx == 0.0 and dy == 0.0:
            continue
        s, c = geo.sincos_deg(o.facing)
        for k in (0.0, -lateral, lateral):
            out.append([(x + dx + k * c, y + dy - k * s) for x, y in o.counter.corners()])
    return out


def on_collision_course(rules: Rules, arena: Arena, v: Vehicle, cnt: geo.Counter, phase: int) -> bool:
    """Whether the vehicle, from the end pose `cnt`, and another vehicle, from where it will be at the end of the
    phase going straight on, would come to touch within the next turn if both went straight on, each at the
    speed it can brake to safely by then (the standing driver's second look ahead: he does not line up a ram he
    cannot brake out of; two cars closing at 10 mph stop face to face). Pairs already touching do not count."""
    from .contact import first_contact
    from .motion import straight_displacement

    safe = rules["carwars.maneuvers"]["speed"]["safe_braking"]
    mine = cnt.corners()
    s, c = geo.sincos_deg(cnt.facing)
    go = slowed(v.speed, safe) / 10.0
    va = (go * s, go * c)
    for o in arena.vehicles.values():
        if o.id == v.id:
            continue
        dx, dy = straight_displacement(rules, o, phase)
        theirs = [(x + dx, y + dy) for x, y in o.counter.corners()]
        if touching(mine, theirs):
            continue
        os_, oc = geo.sincos_deg(o.facing)
        ob = slowed(o.speed, safe) / 10.0
        vb = (ob * os_, ob * oc)
        if (va != (0.0, 0.0) or vb != (0.0, 0.0)) and first_contact(mine, va, theirs, vb) is not None:
            return True
    return False


def _obstacles(arena: Arena, v: Vehicle) -> list:
    """The counters a standing driver keeps clear of: the other vehicles and the buildings."""
    out = [list(o.counter.corners()) for o in arena.vehicles.values() if o.id != v.id]
    out += [list(b.polygon.vertices) for b in arena.buildings.values()]
    return out


# --- maneuvers (FIGHT-08) -----------------------------------------------------------------------------------------

def maneuver_menu(rules: Rules, v: Vehicle, distance: float, kinds: list[str]) -> list[Maneuver]:
    """FIGHT-08: the maneuvers of `kinds` (in that order, each left then right, angles rising) the vehicle may make
    in a phase in which it moves `distance` inches: none when it does not move; straight only on a half inch
    (and a pivot at its speed); in water none whose own D is over the seed's limit; speed limits as the table."""
    m = rules["carwars.maneuvers"]
    t = m["maneuver"]
    if distance <= 0:
        return []
    speed = abs(v.speed)
    out = [Maneuver("straight", d=t["straight"]["d"])]
    whole = distance >= 1.0
    for kind in kinds:
        if kind == "straight":
            continue
        if kind == "pivot":
            if speed == t["pivot"]["speed"]:
                out += _turns(t["pivot"], "pivot", 0.0, lambda k: t["pivot"]["d"])
            continue
        if not whole:
            continue
        if kind in ("drift", "steep_drift"):
            out += [Maneuver(kind, 0.0, side * t[kind]["lateral"], t[kind]["d"]) for side in (-1, 1)]
        elif kind == "bend":
            out += _turns(t["bend"], "bend", 0.0, lambda k: k * t["bend"]["d_per_step"])
        elif kind == "swerve":
            sw = t["swerve"]
            out += _turns(sw, "swerve", sw["lateral"], lambda k: k * t["bend"]["d_per_step"] + sw["d_extra"])
        elif kind == "bootlegger":
            b = t["bootlegger"]
            if b["min_speed"] <= speed <= b["max_speed"] and v.kind not in b["not_for"]:
                out += [Maneuver("bootlegger", side * 180.0, 0.0, b["d"]) for side in (-1, 1)]
        elif kind == "t_stop":
            ts = t["t_stop"]
            d = math.ceil(speed / 10 - 1e-9) * ts["d_per_10_mph"]
            out += [Maneuver("t_stop", side * ts["angle"], 0.0, d) for side in (-1, 1)]
    if v.water_depth_ft > 0:
        out = [x for x in out if x.d <= m["water_max_d"]]
    return out


def _turns(t: dict, kind: str, lateral: float, d_of) -> list[Maneuver]:
    """Left then right, angle by angle: the turns of a bend, swerve or pivot (a swerve slides the other way first)."""
    steps = int(t["max_angle"] // t["step"] + 1e-9)
    out = []
    for side in (-1, 1):
        for k in range(1, steps + 1):
            out.append(Maneuver(kind, side * k * t["step"], -side * lateral, d_of(k)))
    return out


def maneuver_difficulty(rules: Rules, v: Vehicle, m: Maneuver) -> int:
    """FIGHT-08: a maneuver's D with the seed's additions that the vehicle carries: off-road +D1 (CW-OFF-01), in
    reverse +D1, a substitute driver +D2 (CW-CREW-04). Straight ahead is no maneuver: D0. (An oil slick's +D2,
    CW-DROP-04, depends on where the maneuver ends: `dropped.oil_extra_difficulty`.)"""
    if m.kind == "straight":
        return 0
    d = m.d
    if v.off_road:
        d += 1
    if v.speed < 0:
        d += rules["carwars.maneuvers"]["reverse_extra_d"]
    if v.substitute is not None:
        d += rules["carwars.damage"]["crew"]["substitute_maneuver_penalty"]
    return d


def maneuver_move(rules: Rules, v: Vehicle, m: Maneuver, distance: float) -> ManeuverMove:
    """FIGHT-08: the slide and the turn of a maneuver in a phase of `distance` inches (docs/fights.md, "Maneuvers"):
    forward `distance` (a pivot and a bootlegger their own advance) plus the sideways slide, then the turn: a bend,
    swerve or pivot about its back corner on the inside (its front corner in reverse), a bootlegger or a T-stop
    about its centre."""
    t = rules["carwars.maneuvers"]["maneuver"]
    sign = -1.0 if v.speed < 0 else 1.0
    ahead = distance
    if m.kind in ("pivot", "bootlegger"):
        ahead = t[m.kind]["advance"]
    s, c = geo.sincos_deg(v.facing)
    dx = sign * ahead * s + m.lateral * c
    dy = sign * ahead * c - m.lateral * s
    if m.angle == 0.0:
        return ManeuverMove(dx, dy)
    if m.kind in ("bootlegger", "t_stop"):
        return ManeuverMove(dx, dy, m.angle, (0.0, 0.0))
    cnt = v.counter
    px = 0.5 * cnt.width * (1.0 if m.angle > 0 else -1.0)
    py = 0.5 * cnt.length * (sign if v.speed < 0 else -1.0)
    return ManeuverMove(dx, dy, m.angle, (px, py))


def end_counter(v: Vehicle, move: ManeuverMove) -> geo.Counter:
    """The vehicle's counter after a move: slid, then turned about its pivot (exact for quarter turns)."""
    cnt = v.counter
    moved = geo.Counter(cnt.cx + move.dx, cnt.cy + move.dy, cnt.length, cnt.width, cnt.facing)
    if move.angle == 0.0:
        return moved
    return turned(moved, move.angle, move.pivot)


def turned(cnt: geo.Counter, angle: float, pivot: tuple[float, float]) -> geo.Counter:
    """A counter turned `angle` degrees (right positive) about a point of its own frame: the pivot stays where it
    is, the centre swings about it."""
    px, py = cnt.to_world(pivot)
    s, c = geo.sincos_deg(angle)
    rx, ry = cnt.cx - px, cnt.cy - py
    cx = px + rx * c + ry * s
    cy = py - rx * s + ry * c
    return geo.Counter(cx, cy, cnt.length, cnt.width, (cnt.facing + angle) % 360.0)


# --- the standing driver (FIGHT-07) -----------------------------------------------------------------------------

def drive_target(fight, arena: Arena, v: Vehicle, order: DriveOrder, out: dict[str, int]) -> Vehicle | Pedestrian | None:
    """FIGHT-07: whom the driver steers by: the named unit while it is in action; nearest_enemy, the enemy in action
    whose centre is nearest his (ties to the first in the file); None when there is none."""
    units = list(arena.vehicles.values()) + list(arena.pedestrians.values())
    if order.target != "nearest_enemy":
        return None if order.target in out else arena.unit(order.target, "drive.target")
    best, best_d = None, 0.0
    for u in units:
        if u.id == v.id or u.id in out or not fight.enemies(v.id, u.id, arena):
            continue
        d = geo.distance((v.x, v.y), (u.x, u.y))
        if best is None or d < best_d:
            best, best_d = u, d
    return best


_AXES = {Mount.FRONT: (0.0, 1.0), Mount.BACK: (0.0, -1.0), Mount.RIGHT: (1.0, 0.0), Mount.LEFT: (-1.0, 0.0)}


def manned(v: Vehicle, w) -> bool:
    """Whether someone aboard who can act may fire the weapon (CW-CREW-01; attack.default_firer_pool: a sidecar
    weapon's riders, the gunners, the driver): a gun whose every firer is down does not bear."""
    from .attack import default_firer_pool

    return any(c.can_act for c in default_firer_pool(v, w))


def _bearing(rules: Rules, v: Vehicle, order: DriveOrder, cnt: geo.Counter, target) -> tuple[int, float]:
    """How the order's weapons bear on the target from a counter: how many usable ones, manned, have some of its
    counter in their arc as an attack judges it (CW-ARC-02, `geometry.clip_to_arc`: more than a touch; a sidecar
    weapon's arc is the sidecar's), and the least pointing error among them (1 - the cosine between the weapon's axis and the line to the target's centre; 0 for a turret or top
    mount)."""
    from .fight import weapon_can_fire

    arc_angle = rules["carwars.bodies"]["arcs"]["angle"]
    tx, ty = target.x, target.y
    lx, ly = cnt.to_local((tx, ty))
    r = math.sqrt(lx * lx + ly * ly)
    count, err = 0, 2.0
    for w in v.all_weapons():
        if (order.weapons is not None and w.id not in order.weapons) or not w.spec.aimed or not weapon_can_fire(w) \
                or not manned(v, w):
            continue
        if w.mount in (Mount.TURRET, Mount.TOP):
            count, err = count + 1, 0.0
            continue
        axis = _AXES.get(w.mount)
        if axis is None:
            continue
        body = v.sidecar_counter(cnt) if v.sidecar is not None and w in v.sidecar.weapons else cnt
        if geo.clip_to_arc(body, str(w.mount), target.counter, arc_angle) is not None:
            count += 1                                   # the attack's own test (CW-ARC-02): more than a touch
        e = 1.0 - (axis[0] * lx + axis[1] * ly) / r if r > 0.0 else 0.0
        err = min(err, e)
    return count, err


SCORE_GRAIN = 1e-6     # scores are compared in millionths: two poses a rounding apart score alike (their order decides)


LOOK_GRAIN = 1e-6      # inches `_pushing` pares his counter by a side: two counters edge to edge may drive apart


def _pared(cnt: geo.Counter) -> geo.Counter:
    """The counter less LOOK_GRAIN on every side (`_pushing`: going straight drives him into what he touches, not
    along it)."""
    return geo.Counter(cnt.cx, cnt.cy, cnt.length - 2.0 * LOOK_GRAIN, cnt.width - 2.0 * LOOK_GRAIN, cnt.facing)


def _grain(x: float) -> float:
    """A score rounded to SCORE_GRAIN, so that what is equal but for floating-point rounding (two cars placed
    symmetrically) ties, and the menu's order decides alike for both."""
    return math.floor(x / SCORE_GRAIN + 0.5)


def gap(a: geo.Counter, b: geo.Counter) -> float:
    """The distance between two counters (0 when they touch or overlap): the least distance from a corner of one to
    the other's outline (CW-LOF-03's range, counter to counter)."""
    pa, pb = a.polygon(), b.polygon()
    best = math.inf
    for poly, other in ((pa, pb), (pb, pa)):
        for v in poly.vertices:
            best = min(best, geo.distance(v, geo.nearest_point(other, v)))
    return best


def _heading(cnt: geo.Counter, target) -> float:
    """How far the counter's heading is from the line to the target's centre: 1 - the cosine between them (0 dead
    ahead, 2 dead behind)."""
    lx, ly = cnt.to_local((target.x, target.y))
    r = math.sqrt(lx * lx + ly * ly)
    return 1.0 - ly / r if r > 0.0 else 0.0


def _score(rules: Rules, v: Vehicle, order: DriveOrder, cnt: geo.Counter, target) -> tuple:
    """The tactic's score of an end pose (the lower the better; docs/fights.md, "The standing driver"). A driver who
    must close or open the range steers his heading toward or away from the target (a phase's move changes the
    distance little; where the car points decides the next turns')."""
    tx, ty = target.x, target.y
    dist = _grain(geo.distance((cnt.cx, cnt.cy), (tx, ty)))
    heading = _grain(_heading(cnt, target))
    if order.tactic == "evade":
        facing = geo.facing_sides(cnt, (tx, ty))
        shown = max((v.armour[Side.parse(s)] for s in facing), default=0)
        return (-heading, -dist, -shown)
    count, err = _bearing(rules, v, order, cnt, target)
    err = _grain(err)
    if order.tactic == "pursue":
        return (heading, dist, -count, err)
    if order.tactic == "keep_range":
        want = _grain(order.range or 0.0)
        way = heading if dist > want else (-heading if dist < want else 0)
        return (way, abs(dist - want), -count, err)
    drv = rules["carwars.fight"]["driver"]
    standoff = _grain(drv["standoff"])
    apart = _grain(gap(cnt, target.counter))
    room = -min(apart, _grain(drv["turning_room"][v.kind])) if count == 0 else 0.0    # nothing bears: room to turn in
    return (-count, room, err, heading if apart > standoff else 0, abs(apart - standoff))      # bring_to_bear


def choose_maneuver(rules: Rules, arena: Arena, v: Vehicle, order: DriveOrder, target, distance: float) -> Maneuver:
    """FIGHT-07: the standing driver's maneuver for a phase in which the vehicle moves `distance` inches: straight
    for hold_course or with no target; else, of the menu's maneuvers whose chance of losing control (the Control
    Table at its speed, its status less the maneuver's D) is within the limit, one whose end pose makes no new
    contact (with the others where they are, or where they may be at the phase's end: `blocked`) if there is one,
    then one that does not put it on a collision course (`on_collision_course`) if there is one, and of those the
    best for the tactic (the first of equals)."""
    from .dropped import oil_extra_difficulty
    from .handling import control_needed

    straight = Maneuver("straight")
    if order.tactic == "hold_course" or target is None:
        return straight
    drv = rules["carwars.fight"]["driver"]
    menu = maneuver_menu(rules, v, distance, drv["menu"])
    if not menu:
        return straight
    best, best_score = None, None
    for m in menu:
        if v.handling_status is not None and m.kind != "straight":
            d = maneuver_difficulty(rules, v, m) + oil_extra_difficulty(rules, arena, v)
            if control_needed(rules, v.speed, v.handling_status - d) > drv["max_control_roll"]:
                continue
        cnt = end_counter(v, maneuver_move(rules, v, m, distance))
        score = (blocked(arena, v, cnt, rules, arena.phase), on_collision_course(rules, arena, v, cnt, arena.phase)) \
            + _score(rules, v, order, cnt, target)
        if best_score is None or score < best_score:
            best, best_score = m, score
    return best or straight
