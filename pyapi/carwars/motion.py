"""A phase's movement with the collisions it causes (FIGHT-04).

Vehicles move in straight lines by the movement chart (`turn.phase_distances`)
and walking pedestrians one step; while they move, the first moment two
counters come to touch is found exactly (`contact.first_contact`), the contact
is turned into collisions for the phase (CW-COL-01..04, resolved before its
combat, CW-ROF-02), the vehicles that collided stop where they touched, and
the search goes on with the rest. docs/fights.md states the rulings: the sides
that touch, the kind and speed of the collision, what stops.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..data import Rules
from ..events import Event, Note, StateChanged
from . import geometry as geo
from .contact import first_contact, side_facing, touching
from .enums import Side
from .model import Arena, Pedestrian, Vehicle
from .phase import Collision
from .terrain import ditch_effect

__all__ = ["move_with_contacts", "straight_displacement", "vehicle_weight", "collision_kind", "collision_speed"]


def vehicle_weight(rules: Rules, v: Vehicle) -> float:
    """A vehicle's weight (lb) for the collision weight classes (CW-COL-04): its own `weight_lb`, else its body's
    (fight.toml [weights], a ruling: the body's loaded weight)."""
    own = getattr(v, "weight_lb", None)
    if own:
        return float(own)
    return float(rules["carwars.fight"]["weights"][v.body.name])


def collision_kind(side_a: str, side_b: str) -> str:
    """head-on (front to front), rear-end (an end into the other's opposite end), T-bone (an end into a side),
    sideswipe (side to side)."""
    ends = ("front", "back")
    if side_a in ends and side_b in ends:
        return "head-on" if side_a == side_b else "rear-end"
    if side_a in ends or side_b in ends:
        return "T-bone"
    return "sideswipe"


def collision_speed(kind: str, a: Vehicle, b: Vehicle, side_a: str) -> float:
    """The speed the collision table is read at (docs/fights.md): head-on the sum of the speeds, rear-end and
    sideswipe the difference, T-bone the speed of the vehicle whose end struck."""
    sa, sb = abs(a.speed), abs(b.speed)
    if kind == "head-on":
        return sa + sb
    if kind == "T-bone":
        return sa if side_a in ("front", "back") else sb
    return abs(sa - sb)


@dataclass
class _Mover:
    uid: str
    corners: list[tuple[float, float]]      # at the start of the phase
    velocity: tuple[float, float]            # inches over the whole phase
    stopped_at: float | None = None          # the time it stopped (a collision), None while it moves

    def shift(self, t: float) -> tuple[float, float]:
        """Its displacement at time t of the phase."""
        s = t if self.stopped_at is None else min(t, self.stopped_at)
        return (self.velocity[0] * s, self.velocity[1] * s)

    def at(self, t: float) -> list[tuple[float, float]]:
        dx, dy = self.shift(t)
        return [(x + dx, y + dy) for x, y in self.corners]

    def moving(self, t: float) -> tuple[float, float]:
        return self.velocity if self.stopped_at is None else (0.0, 0.0)

    def stop(self, t: float) -> None:
        if self.stopped_at is None:
            self.stopped_at = t


def straight_displacement(rules: Rules, unit: Vehicle | Pedestrian, phase: int) -> tuple[float, float]:
    """The phase's displacement, computed as the straight-line movement computes it (turn.move_vehicle)."""
    from .turn import phase_distances

    if isinstance(unit, Pedestrian):
        if unit.speed <= 0:
            return (0.0, 0.0)
        s, c = geo.sincos_deg(unit.facing)
        step = rules["carwars.turn"]["pedestrian_step"]
        return (step * s, step * c)
    d = phase_distances(rules, unit.speed)[phase - 1]
    if d == 0:
        return (0.0, 0.0)
    sign = -1.0 if unit.speed < 0 else 1.0
    s, c = geo.sincos_deg(unit.facing)
    return (sign * d * s, sign * d * c)


def move_with_contacts(rules: Rules, arena: Arena, phase: int, moves: dict | None = None) -> tuple[list[Event], list[Collision]]:
    """Move every vehicle and walking pedestrian for the phase, stopping at collisions; return the events and the
    collisions (vehicles and pedestrians hit), in the order they happened. `moves` (FIGHT-07/08): a vehicle's
    `driving.ManeuverMove` in place of its straight move: its slide is the phase's motion, and its turn is made at
    the end of the phase if no collision stopped it (`_turn_at_end`)."""
    events: list[Event] = []
    collisions: list[Collision] = []
    moves = moves or {}
    velocity = {v.id: (m.dx, m.dy) if (m := moves.get(v.id)) is not None else straight_displacement(rules, v, phase)
                for v in arena.vehicles.values()}
    velocity.update((p.id, straight_displacement(rules, p, phase)) for p in arena.pedestrians.values())
    # nothing moves (the stopped vehicles of a long fight): no contact can start, so no pair is looked at
    still = not moves and all(d == (0.0, 0.0) for d in velocity.values())
    movers = {u.id: _Mover(u.id, [] if still else list(u.counter.corners()), velocity[u.id])
              for u in [*arena.vehicles.values(), *arena.pedestrians.values()]}
    buildings = [(b.id, list(b.polygon.vertices)) for b in arena.buildings.values()]
    # a ditch a vehicle falls into at its speed stops it as a wall would (CW-SEED-03); any other it drives over
    ditches = {a.id: a for a in arena.ditches()}
    buildings += [(d.id, list(d.polygon.vertices)) for d in ditches.values()]
    vids, pids = list(arena.vehicles), list(arena.pedestrians)
    pairs = [] if still else _pairs(movers, vids, buildings, pids)
    if ditches:
        pairs = [(a, b) for a, b in pairs if b not in ditches or ditch_effect(ditches[b].across_ft, arena.vehicles[a].speed, rules).falls_in]
    static = dict(buildings)
    done: set[tuple[str, str]] = set()

    def shape(uid: str, t: float):
        return (static[uid], (0.0, 0.0)) if uid in static else (movers[uid].at(t), movers[uid].moving(t))

    for a, b in pairs:
        if touching(shape(a, 0.0)[0], shape(b, 0.0)[0]):
            done.add((a, b))
    t = 0.0
    enabled = rules["carwars.fight"]["collisions"]["from_movement"]
    while enabled:
        best = None
        for a, b in pairs:
            if (a, b) in done:
                continue
            pa, va = shape(a, t)
            pb, vb = shape(b, t)
            if va == (0.0, 0.0) and vb == (0.0, 0.0):
                continue
            c = first_contact(pa, va, pb, vb, t, 1.0)
            if c is not None and (best is None or c.time < best[0].time):
                best = (c, a, b)
        if best is None:
            break
        c, a, b = best
        t = c.time
        done.add((a, b))
        collisions += _collide(rules, arena, a, b, c.normal, t, phase, len(collisions), events)
        if b in arena.pedestrians:
            movers[b].stop(t)              # a pedestrian struck is knocked down where he stood; the vehicle goes on
        elif b in ditches:
            movers[a].stop(t)              # in the ditch: it stays there (CW-SEED-03)
        elif rules["carwars.fight"]["collisions"]["after"] == "stop":
            for uid in (a, b):
                if uid in movers:
                    movers[uid].stop(t)
    # every counter to where it is at the end of the phase
    for v in arena.vehicles.values():
        m = movers[v.id]
        dx, dy = m.shift(1.0)
        if dx or dy:
            before = (round(v.x, 4), round(v.y, 4))
            v.x += dx
            v.y += dy
            events.append(StateChanged(v.id, "position", before, (round(v.x, 4), round(v.y, 4)), "CW-ROF-02"))
        if m.stopped_at is not None and v.speed != 0:
            events.append(StateChanged(v.id, "speed", v.speed, 0.0, "FIGHT-04"))
            v.speed = 0.0
    for p in arena.pedestrians.values():
        dx, dy = movers[p.id].shift(1.0)
        p.x += dx
        p.y += dy
    for v in arena.vehicles.values():
        m = moves.get(v.id)
        if m is not None and m.angle != 0.0 and movers[v.id].stopped_at is None:
            events += _turn_at_end(arena, v, m)
    return events, collisions


def _turn_at_end(arena: Arena, v: Vehicle, m) -> list[Event]:
    """FIGHT-08: a maneuver's (or a spinout's) turn about its pivot at the end of the phase's slide; a turn that
    would put the counter onto a vehicle or building it does not touch is not made (a ruling)."""
    from .driving import blocked, turned

    new = turned(v.counter, m.angle, m.pivot)
    if blocked(arena, v, new):
        return [Note(f"{v.id}: its turn of {m.angle:g} degrees is blocked", "FIGHT-08")]
    before = (round(v.x, 4), round(v.y, 4), round(v.facing, 4))
    v.x, v.y, v.facing = new.cx, new.cy, new.facing
    return [StateChanged(v.id, "position and facing", before, (round(v.x, 4), round(v.y, 4), round(v.facing, 4)), "FIGHT-08")]


_NEAR = 1e-3   # inches: counters whose swept boxes are farther apart never touch, whatever the rounding


def _pairs(movers: dict[str, _Mover], vids: list[str], buildings: list, pids: list[str]) -> list[tuple[str, str]]:
    """The pairs that can collide this phase, in a fixed order (vehicle and vehicle, vehicle and building, vehicle
    and pedestrian; each in file order): those whose boxes swept over the phase come within 1e-3" (found through a
    grid, in time linear in the counters; a pair farther apart can neither touch at the start nor meet)."""
    from .boxgrid import BoxGrid, bounds

    def swept(m: _Mover):
        return bounds(m.at(0.0) + m.at(1.0))

    grid = BoxGrid()
    for v in vids:
        grid.add(swept(movers[v]))
    for _, corners in buildings:
        grid.add(bounds(corners))
    for p in pids:
        grid.add(swept(movers[p]))
    V, B = len(vids), len(buildings)
    keyed = []
    for i, v in enumerate(vids):
        for j in grid.near(grid.boxes[i], _NEAR):
            if j < V:
                if j > i:
                    keyed.append((0, i, j, v, vids[j]))
            elif j < V + B:
                keyed.append((1, i, j, v, buildings[j - V][0]))
            else:
                keyed.append((2, i, j, v, pids[j - V - B]))
    keyed.sort()
    return [(a, b) for _, _, _, a, b in keyed]


def _collide(rules: Rules, arena: Arena, a: str, b: str, normal, t: float, phase: int, n: int,
             events: list[Event]) -> list[Collision]:
    """The collisions one contact makes (docs/fights.md)."""
    va = arena.vehicles[a]
    cid = f"t{arena.turn}p{phase}c{n}"
    back = (-normal[0], -normal[1])
    if b in arena.vehicles:
        vb = arena.vehicles[b]
        sa, sb = side_facing(va.facing, normal), side_facing(vb.facing, back)
        kind = collision_kind(sa, sb)
        speed = collision_speed(kind, va, vb, sa)
        events.append(Note(f"{va.id} and {vb.id} collide ({kind}) {t:.2f} of the way through the phase: {va.id}'s {sa} "
                           f"against {vb.id}'s {sb} at {speed:g} mph", "FIGHT-04"))
        if speed <= 0:
            return []
        return [Collision(f"{cid}/{a}", a, Side.parse(sa), speed, vehicle_weight(rules, vb)),
                Collision(f"{cid}/{b}", b, Side.parse(sb), speed, vehicle_weight(rules, va))]
    if b in arena.pedestrians:
        sa = side_facing(va.facing, normal)
        speed = abs(va.speed)
        events.append(Note(f"{va.id} strikes {b} with its {sa} at {speed:g} mph", "FIGHT-04"))
        if speed <= 0:
            return []
        return [Collision(f"{cid}/{b}", b, Side.FRONT, speed, vehicle_weight(rules, va)),
                Collision(f"{cid}/{a}", a, Side.parse(sa), speed, None, pedestrian=True)]
    sa = side_facing(va.facing, normal)
    speed = abs(va.speed)
    ditch = arena.areas.get(b)
    if ditch is not None and ditch.kind == "ditch":
        events.append(Note(f"{va.id} falls into ditch {b} ({ditch.across_ft:g} ft across) at {speed:g} mph and hits its far wall "
                           f"with its {sa}: stopped there", "CW-SEED-03"))
        va.in_ditch = b
        return [Collision(f"{cid}/{a}", a, Side.parse(sa), speed, None)] if speed > 0 else []
    events.append(Note(f"{va.id} drives into building {b} with its {sa} at {speed:g} mph", "FIGHT-04"))
    return [Collision(f"{cid}/{a}", a, Side.parse(sa), speed, None)] if speed > 0 else []
