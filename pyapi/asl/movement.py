"""The D15 movement ledger: every MF and MP a moving stack spends, step by step (ASL-MOV-01..06).

A move is a sequence of steps (enter a hex on foot, mount, start, ride,
change VCA, stop, dismount, push, split, end the MPh). Each step is checked
against the rules and charged to a frozen `MoveLedger`; an illegal step raises
`RuleViolation` naming the rule that forbids it and returns nothing, so the
ledger and the situation are unchanged (ERR-01).

Costs:
- on foot: the hex's Infantry MF (A4.1), against the unit's MF allotment
  (4 for MMC, 6 for SMC, 3 wounded SMC; +2 leader bonus, +1 Double Time);
- mount / dismount (D15.41): 1 MF of the rider's basic four plus 1/4 of the
  motorcycle's MP allotment; while riding, 1 MF per quarter (FRU) of the
  allotment spent riding (SPEC ruling: the mount's own quarter is paid by its
  1 MF); once the four MF are gone the rider goes no farther and cannot
  dismount;
- riding: the terrain's motorcycle MP (road 1/2; others from the scenario or a
  user table, never invented), Start and Stop 1 MP each, VCA changes only
  when a cost is given;
- bicycles (D15.81): the rider's own MF, road hexsides only, halved there
  except in shellholes/entrenchments, gaining elevation, dirt road in Mud,
  unplowed road in Snow; +1 MF per level descended on a road and +1 MF for
  staying on the road all MPh; mounting and dismounting free.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable

from ..data import Rules
from ..dice import DiceSource
from ..errors import RuleViolation, ScenarioError
from ..events import Event, Modifier, Note, StateChanged
from .enums import Ground, Hexside, Motion, Phase
from .events import ManhandlingCheck, MoveStep, StepRefused, WreckCheck
from .motorcycles import (
    check_can_move, check_capacity, check_portage, mount_cost, push_drm, riding_mf, split_smc, wreck_check_required,
    wreck_dismount_hex,
)
from .tables import infantry_settings, morale_settings, motorcycle_settings, terrain_table
from .units import Board, Hex, Infantry, Motorcycle, Situation, fail_morale, is_good_order

__all__ = ["MoveAction", "RiderMF", "MoveLedger", "start_ledger", "apply_step", "Movement", "ACTIONS", "run_move"]

ACTIONS = ("enter", "mount", "start", "ride", "change_vca", "stop", "dismount", "push", "split", "reverse", "end")


@dataclass(frozen=True)
class MoveAction:
    """One declared step of a move."""

    action: str
    hex: str | None = None
    machine: str | None = None
    hexside: Hexside | None = None
    spines: int = 1
    unit: str | None = None
    new_id: str | None = None
    drm: tuple[Modifier, ...] = ()
    attempt: bool = False

    def describe(self) -> str:
        bits = [self.action]
        if self.machine:
            bits.append(self.machine)
        if self.hex:
            bits.append(f"into {self.hex}")
        if self.hexside is not None:
            bits.append(f"across a {self.hexside} hexside")
        if self.action == "change_vca":
            bits.append(f"{self.spines} hexspine(s)")
        if self.unit:
            bits.append(self.unit)
        return " ".join(bits)


@dataclass(frozen=True)
class RiderMF:
    """One moving unit's MF: `spent` is final (on foot, mount, dismount, finished rides); the
    current ride's `riding_mp` costs 1 MF per quarter of the allotment (D15.41)."""

    unit: str
    allotment: int
    spent: Fraction = Fraction(0)
    riding_mp: Fraction = Fraction(0)


@dataclass(frozen=True)
class MoveLedger:
    """What a moving stack has spent this MPh, and where it is."""

    move: str
    units: tuple[str, ...]
    mf: tuple[RiderMF, ...]
    hex: str
    machine: str | None = None
    mp_used: Fraction = Fraction(0)
    on_road_all: bool = True
    descent_bonus: int = 0
    ended: str = ""
    carrying: tuple[str, ...] = ()

    def rider(self, uid: str) -> RiderMF:
        return next(r for r in self.mf if r.unit == uid)


@dataclass(frozen=True)
class _Ctx:
    rules: Rules
    board: Board


# --- allotments and totals ---------------------------------------------------------------

def foot_allotment(rules: Rules, unit: Infantry, movers: list[Infantry], double_time: bool = False) -> int:
    """A4.1: 4 MF for MMC, 6 for SMC (3 for a wounded SMC, A17); +2 for an MMC moving with a
    good-order leader (A4.12); + Double Time (A4.5)."""
    inf = infantry_settings(rules)
    base = inf.types[unit.type].mf
    if unit.is_smc and unit.wounded:
        base = morale_settings(rules).wounded_mf
    if not unit.is_smc and any(u.is_leader and is_good_order(u) for u in movers):
        base += inf.leader_bonus
    if double_time:
        base += inf.double_time
    return base


def _used(ctx: _Ctx, machine: Motorcycle | None, r: RiderMF) -> Fraction:
    """MF used so far: final MF plus the quarters of the current ride (D15.41)."""
    if machine is None or machine.is_bicycle:
        return r.spent
    return r.spent + riding_mf(motorcycle_settings(ctx.rules), machine, r.riding_mp)


def _cap(ctx: _Ctx, ledger: MoveLedger, machine: Motorcycle | None, r: RiderMF) -> int:
    """The MF a unit may use: the basic four on a motorcycle (D15.41, D15.56); its own allotment
    on foot or on a bicycle (with the bicycle's road bonuses, D15.81)."""
    if machine is not None and not machine.is_bicycle:
        return motorcycle_settings(ctx.rules).basic_mf
    if machine is not None and machine.is_bicycle:
        s = motorcycle_settings(ctx.rules)
        return r.allotment + ledger.descent_bonus + (s.bicycle_road_bonus if ledger.on_road_all else 0)
    return r.allotment


def _violation(message: str, action: MoveAction, value, rule: str) -> RuleViolation:
    return RuleViolation(message, field=f"move.{action.action}", value=value, rule=rule)


def _event(ctx: _Ctx, ledger: MoveLedger, situation: Situation, action: MoveAction, detail: str,
           mf: dict[str, Fraction], mp: Fraction, rule: str) -> MoveStep:
    machine = situation.machine(ledger.machine) if ledger.machine else None
    used = {r.unit: _used(ctx, machine, r) for r in ledger.mf}
    caps = {r.unit: _cap(ctx, ledger, machine, r) for r in ledger.mf}
    mp_allot = machine.mp if machine is not None and not machine.is_bicycle else None
    motion = str(machine.motion) if machine is not None else "on foot"
    return MoveStep(ledger.move, action.action, detail, {u: mf.get(u, Fraction(0)) for u in ledger.units}, mp, used, caps,
                    ledger.mp_used if mp_allot is not None else None, mp_allot, ledger.hex, motion, rule)


def start_ledger(rules: Rules, situation: Situation, units: tuple[str, ...], move_id: str = "move",
                 spent: dict[str, Fraction] | None = None, double_time: bool = False, mp_used: Fraction = Fraction(0),
                 carrying: tuple[str, ...] = ()) -> MoveLedger:
    """A fresh ledger for a stack starting its MPh together (one hex; riders of one counter or on foot)."""
    if not units:
        raise ScenarioError("a move needs at least one unit", field="move.units", rule="CLI-02")
    movers = [situation.unit(u, "move.units") for u in units]
    hexes = {u.hex for u in movers}
    if len(hexes) != 1:
        raise ScenarioError("the units of a move must start in one hex", field="move.units", value=list(units), rule="CLI-02")
    for u in movers:
        if u.eliminated or u.broken:
            raise RuleViolation("a broken or eliminated unit does not move in the MPh", field="move.units", value=u.id, rule="A10")
    mounts = {situation.mount_of(u) for u in units}
    mounted = {m.id for m in mounts if m is not None}
    if len(mounts) != 1:
        raise ScenarioError("the units of a move are all on foot or all riders of one counter", field="move.units",
                            value=list(units), rule="CLI-02")
    for c in carrying:
        bike = situation.machine(c, "move.carrying")
        if not bike.is_bicycle:
            raise RuleViolation("only a bicycle is carried (as 1 PP); a motorcycle is ridden or Pushed", field="move.carrying",
                                value=c, rule="ASL-CAP-02")
        if bike.hex not in hexes or bike.riders:
            raise RuleViolation("the bicycle must be unmounted in the movers' hex", field="move.carrying", value=c, rule="ASL-CAP-02")
    spent = spent or {}
    mf = tuple(RiderMF(u.id, foot_allotment(rules, u, movers, double_time), Fraction(spent.get(u.id, 0))) for u in movers)
    return MoveLedger(move_id, tuple(units), mf, hexes.pop(), next(iter(mounted), None), Fraction(mp_used), carrying=carrying)


# --- the steps ----------------------------------------------------------------------------------

def _check_phase(ctx: _Ctx, action: MoveAction, machine: Motorcycle | None) -> None:
    """ASL-MOV-01 (D15.4): no motorcycle moved, Pushed, mounted or dismounted in the APh;
    ASL-BIC-01 (D15.81): no bicycle movement in the APh."""
    if ctx.board.phase is Phase.APH and machine is not None:
        rule = "ASL-BIC-01" if machine.is_bicycle else "ASL-MOV-01"
        raise _violation(f"no {machine.type} may be {action.action}ed in the Advance Phase", action, machine.id, rule)


def _movers(situation: Situation, ledger: MoveLedger) -> list[Infantry]:
    return [situation.unit(u) for u in ledger.units]


def _move_units(situation: Situation, ledger: MoveLedger, hid: str, machine: Motorcycle | None = None) -> Situation:
    after = situation.with_units(replace(situation.unit(u), hex=hid) for u in ledger.units)
    if machine is not None:
        after = after.with_machine(replace(after.machine(machine.id), hex=hid))
    for c in ledger.carrying:
        after = after.with_machine(replace(after.machine(c), hex=hid))
    return after


def _step_enter(ctx, ledger, situation, action, dice):
    """A4.1: Infantry on foot enter a hex for its MF cost (the road rate across a road hexside, B3)."""
    if ledger.machine is not None:
        raise _violation("a mounted unit rides; dismount first to move on foot", action, ledger.units, "ASL-MOV-02")
    if ledger.carrying and ctx.board.phase is Phase.APH:
        raise _violation("a bicycle cannot be carried in the Advance Phase", action, ledger.carrying, "ASL-CAP-02")
    target = ctx.board.hex(action.hex or "", "move.enter.hex")
    here = ctx.board.hex(ledger.hex)
    road = _road_hexside(here, target, action.hexside)
    cost = terrain_table(ctx.rules).road_infantry_mf if road else ctx.board.infantry_mf(ctx.rules, target, "move.enter.hex")
    mf = []
    for r in ledger.mf:
        if r.spent + cost > r.allotment:
            raise _violation(f"{r.unit} has {r.allotment - r.spent} MF left; entering {target.id} costs {cost}", action, r.unit, "A4.1")
        mf.append(replace(r, spent=r.spent + cost))
    new = replace(ledger, mf=tuple(mf), hex=target.id, on_road_all=ledger.on_road_all and road)
    after = _move_units(situation, ledger, target.id)
    return new, after, [_event(ctx, new, after, action, f"into {target.id} ({target.terrain})", {r.unit: cost for r in ledger.mf},
                               Fraction(0), "A4.1")]


def _step_mount(ctx, ledger, situation, action, dice):
    """ASL-MOV-02 (D15.41): mounting costs each rider 1 MF of his basic four and the motorcycle 1/4
    of its MP allotment (a bicycle nothing, ASL-BIC-01); capacity and portage are checked
    (ASL-CAP-01, ASL-CAP-02); the counter must be stopped in the riders' hex."""
    if ledger.machine is not None:
        raise _violation("already mounted", action, ledger.machine, "ASL-MOV-02")
    machine = situation.machine(action.machine or "", "move.mount.machine")
    _check_phase(ctx, action, machine)
    if machine.removed or machine.hex != ledger.hex:
        raise _violation(f"counter {machine.id} is not in {ledger.hex}", action, machine.id, "ASL-MOV-02")
    if machine.motion is not Motion.STOPPED:
        raise _violation(f"counter {machine.id} is {machine.motion}: riders mount a stopped motorcycle", action, machine.id, "ASL-MOV-02")
    riders = situation.riders(machine) + _movers(situation, ledger)
    check_capacity(ctx.rules, machine, riders, "move.mount")
    check_portage(ctx.rules, machine, riders, "move.mount")
    s = motorcycle_settings(ctx.rules)
    mf_cost, mp_cost = mount_cost(s, machine)
    new_mf = []
    for r in ledger.mf:
        if not machine.is_bicycle and r.spent + mf_cost > s.basic_mf:
            raise _violation(f"{r.unit} has used {r.spent} of his basic {s.basic_mf} MF; mounting needs {mf_cost} more", action,
                             r.unit, "ASL-MOV-02")
        new_mf.append(replace(r, spent=r.spent + mf_cost, riding_mp=Fraction(0)))
    if not machine.is_bicycle and ledger.mp_used + mp_cost > (machine.mp or 0):
        raise _violation(f"{machine.id} has {(machine.mp or 0) - ledger.mp_used} MP left; mounting needs {mp_cost}", action,
                         machine.id, "ASL-MOV-02")
    new = replace(ledger, mf=tuple(new_mf), machine=machine.id, mp_used=ledger.mp_used + mp_cost)
    after = situation.with_machine(replace(machine, riders=machine.riders + ledger.units))
    rule = "ASL-BIC-01" if machine.is_bicycle else "ASL-MOV-02"
    return new, after, [_event(ctx, new, after, action, machine.id, {r.unit: Fraction(mf_cost) for r in ledger.mf}, mp_cost, rule)]


def _riding(ctx, ledger, situation, action) -> Motorcycle:
    if ledger.machine is None:
        raise _violation("not mounted", action, ledger.units, "ASL-MOV-01")
    machine = situation.machine(ledger.machine)
    _check_phase(ctx, action, machine)
    return machine


def _charge_ride(ctx, ledger, machine, action, cost: Fraction, *, farther: bool) -> tuple[MoveLedger, dict[str, Fraction]]:
    """ASL-MOV-02 (D15.41): charge `cost` MP of riding; each rider's MF used (final MF plus one per
    quarter, FRU) must stay within his basic four; a rider whose four MF are gone is carried no
    farther (`farther`: the step moves the counter into another hex). The MP allotment holds too."""
    s = motorcycle_settings(ctx.rules)
    if ledger.mp_used + cost > (machine.mp or 0):
        raise _violation(f"{machine.id} has {(machine.mp or 0) - ledger.mp_used} MP left; this costs {cost}", action, machine.id, "ASL-MOV-02")
    new_mf, charged = [], {}
    for r in ledger.mf:
        before = _used(ctx, machine, r)
        if farther and before >= s.basic_mf:
            raise _violation(f"{r.unit} has used all {s.basic_mf} basic MF: he can be carried no farther", action, r.unit, "ASL-MOV-02")
        nr = replace(r, riding_mp=r.riding_mp + cost)
        after = _used(ctx, machine, nr)
        if after > s.basic_mf:
            raise _violation(f"{r.unit} would use {after} MF (quarters of {machine.mp} MP, rounded up); his basic allotment is {s.basic_mf}",
                             action, r.unit, "ASL-MOV-02")
        new_mf.append(nr)
        charged[r.unit] = after - before
    return replace(ledger, mf=tuple(new_mf), mp_used=ledger.mp_used + cost), charged


def _no_bicycle(machine: Motorcycle, action: MoveAction) -> None:
    if machine.is_bicycle:
        raise _violation("bicycles use Infantry movement: no Start, Stop or VCA", action, machine.id, "ASL-BIC-01")


def _step_start(ctx, ledger, situation, action, dice):
    """ASL-MOV-03 (D15.42): Starting costs its normal MP (1, D15.41 example); ASL-MOV-01: only a
    unit as big as the counter's load moves it."""
    machine = _riding(ctx, ledger, situation, action)
    _no_bicycle(machine, action)
    if machine.motion is not Motion.STOPPED:
        raise _violation(f"{machine.id} is already {machine.motion}", action, machine.id, "ASL-MOV-03")
    check_can_move(ctx.rules, machine, situation.riders(machine), "move.start")
    cost = motorcycle_settings(ctx.rules).start_mp
    new, charged = _charge_ride(ctx, ledger, machine, action, cost, farther=False)
    after = situation.with_machine(replace(machine, motion=Motion.MOVING))
    return new, after, [_event(ctx, new, after, action, "", charged, cost, "ASL-MOV-03")]


def _road_hexside(here: Hex, target: Hex, hexside: Hexside | None) -> bool:
    if hexside is not None:
        return hexside is Hexside.ROAD
    return here.road is not None and target.road is not None


def _motorcycle_mp(ctx: _Ctx, target: Hex, road: bool, action: MoveAction) -> Fraction:
    """The motorcycle MP to enter `target` (Terrain Chart, motorcycle column): the road rate across a
    road hexside, else the hex's own figure, else its terrain's from the table; NA forbids entry
    (ASL-MOV-03: restrictions apply to entry only); a missing figure is an error, never invented."""
    s = motorcycle_settings(ctx.rules)
    if road and target.road is not None and "road" in s.terrain_mp:
        cost = s.terrain_mp["road"]
    elif target.motorcycle_na:
        cost = None
    elif target.motorcycle_mp is not None:
        cost = target.motorcycle_mp
    elif target.terrain in s.terrain_mp:
        cost = s.terrain_mp[target.terrain]
    else:
        raise ScenarioError(f"no motorcycle MP cost for terrain {target.terrain!r}: the seeds give only the road; give "
                            "motorcycle_mp in the hex or asl.motorcycles.terrain_mp", field="hex.motorcycle_mp", value=target.id,
                            rule="ASL-MOV-02")
    if cost is None:
        raise _violation(f"a motorcycle may not be ridden into {target.id} ({target.terrain})", action, target.id, "ASL-MOV-03")
    return cost


def _wreck(ctx, ledger, situation, machine, here, target, dice) -> tuple[MoveLedger, Situation, list[Event]]:
    """ASL-MOV-06 (D15.46): a dr of 6 breaks the riders, dismounted at the base level of the hex
    left (or the hex entered, if lower), before any Defensive Fire for that MP; no Bail Out; the
    motorcycle stays usable."""
    s = motorcycle_settings(ctx.rules)
    roll = dice.roll("dr", f"Wreck Check of {machine.id} entering {target.id}", "ASL-MOV-06")
    if roll.total < s.wreck_on:
        return ledger, situation, [roll, WreckCheck(machine.id, roll, False, target.id)]
    where = wreck_dismount_hex(ctx.board, here.id, target.id)
    events: list[Event] = [roll, WreckCheck(machine.id, roll, True, where)]
    after = situation
    ms = morale_settings(ctx.rules)
    for uid in machine.riders:
        u = after.unit(uid)
        broken = replace(fail_morale(u, ms), hex=where)
        events.append(StateChanged(uid, "status", u.status(), broken.status(), "ASL-MOV-06"))
        after = after.with_unit(broken)
    after = after.with_machine(replace(machine, hex=where, riders=(), motion=Motion.STOPPED))
    events.append(Note(f"{machine.id} stays usable, unmounted in {where}; no Bail Out; resolved before Defensive Fire for this MP",
                       "ASL-MOV-06"))
    new = replace(ledger, hex=where, machine=None, ended="wreck",
                  mf=tuple(replace(r, spent=_used(ctx, machine, r), riding_mp=Fraction(0)) for r in ledger.mf))
    return new, after, events


def _step_ride(ctx, ledger, situation, action, dice):
    """Ride into the next hex: ASL-MOV-02 (MP and the rider's quarters), ASL-MOV-03 (no MP for a
    wreck or vehicle in the hex; the counter must be started), ASL-CAP-03 (other motorcycles
    there change nothing), ASL-MOV-04 (may ride through an enemy-occupied hex), ASL-MOV-06
    (Wreck Check). Bicycles: ASL-BIC-01 and ASL-BIC-02."""
    machine = _riding(ctx, ledger, situation, action)
    here = ctx.board.hex(ledger.hex)
    target = ctx.board.hex(action.hex or "", "move.ride.hex")
    road = _road_hexside(here, target, action.hexside)
    hexside = action.hexside if action.hexside is not None else (Hexside.ROAD if road else Hexside.NORMAL)
    side = situation.unit(ledger.units[0]).side
    enemies = situation.known_enemy_in(target.id, side)
    if machine.is_bicycle:
        return _ride_bicycle(ctx, ledger, situation, action, dice, machine, here, target, road, hexside, enemies)
    if machine.motion is Motion.STOPPED:
        raise _violation(f"{machine.id} is stopped: Start it first (normal MP to Start)", action, machine.id, "ASL-MOV-03")
    check_can_move(ctx.rules, machine, situation.riders(machine), "move.ride")
    cost = _motorcycle_mp(ctx, target, road, action)
    new, charged = _charge_ride(ctx, ledger, machine, action, cost, farther=True)
    new = replace(new, hex=target.id)
    after = _move_units(situation, ledger, target.id, machine)
    after = after.with_machine(replace(after.machine(machine.id), motion=Motion.MOVING))
    notes = []
    if target.features & {"wreck", "vehicle"} or situation.machines_in(target.id):
        notes.append("no extra MP for the wreck/vehicle/motorcycle there (ASL-MOV-03, ASL-CAP-03)")
    if enemies:
        notes.append(f"rides through enemy-occupied {target.id} (ASL-MOV-04)")
    detail = f"into {target.id} ({'road' if road else target.terrain})" + (f"; {'; '.join(notes)}" if notes else "")
    events: list[Event] = [_event(ctx, new, after, action, detail, charged, cost, "ASL-MOV-02")]
    if wreck_check_required(ctx.rules, machine, target, hexside):
        new, after, wreck_events = _wreck(ctx, new, after, after.machine(machine.id), here, target, dice)
        events += wreck_events
    return new, after, events


def _bicycle_cost(ctx, ledger, here: Hex, target: Hex) -> tuple[Fraction, str]:
    """ASL-BIC-01 (D15.81): the rider's Infantry cost across a road hexside, halved unless the hex
    entered is a shellhole or entrenchment hex, the bicycle gains elevation, or the road is dirt in
    Mud or unplowed in Snow."""
    s = motorcycle_settings(ctx.rules)
    base = terrain_table(ctx.rules).road_infantry_mf
    reasons = []
    if target.features & s.bicycle_no_halving:
        reasons.append(", ".join(sorted(target.features & s.bicycle_no_halving)))
    if target.level > here.level:
        reasons.append("gaining elevation")
    if ctx.board.ground is Ground.MUD and target.road == "dirt":
        reasons.append("dirt road in Mud")
    if ctx.board.ground is Ground.SNOW and not target.plowed:
        reasons.append("unplowed road in Snow")
    if reasons:
        return base, "not halved: " + "; ".join(reasons)
    return base * s.bicycle_road_factor, "halved on the road"


def _ride_bicycle(ctx, ledger, situation, action, dice, machine, here, target, road, hexside, enemies):
    if not road or target.road is None:
        raise _violation("bicycles are ridden only across road hexsides", action, target.id, "ASL-BIC-01")
    if enemies:
        raise _violation(f"a bicycle may not be ridden into a Known enemy unit's hex ({', '.join(u.id for u in enemies)})", action,
                         target.id, "ASL-BIC-02")
    s = motorcycle_settings(ctx.rules)
    cost, why = _bicycle_cost(ctx, ledger, here, target)
    descent = max(0, here.level - target.level) * s.bicycle_descent_bonus
    new = replace(ledger, descent_bonus=ledger.descent_bonus + descent)
    new_mf = []
    for r in ledger.mf:
        nr = replace(r, spent=r.spent + cost)
        if nr.spent > _cap(ctx, new, machine, nr):
            raise _violation(f"{r.unit} has {_cap(ctx, new, machine, r) - r.spent} MF left; this costs {cost}", action, r.unit, "ASL-BIC-01")
        new_mf.append(nr)
    new = replace(new, mf=tuple(new_mf), hex=target.id)
    after = _move_units(situation, ledger, target.id, machine)
    detail = f"into {target.id} by road, {why}" + (f"; +{descent} MF for descending" if descent else "")
    events: list[Event] = [_event(ctx, new, after, action, detail, {r.unit: cost for r in ledger.mf}, Fraction(0), "ASL-BIC-01")]
    if wreck_check_required(ctx.rules, machine, target, hexside):
        new, after, wreck_events = _wreck(ctx, new, after, after.machine(machine.id), here, target, dice)
        events += wreck_events
    return new, after, events


def _step_change_vca(ctx, ledger, situation, action, dice):
    """ASL-MOV-03 (D15.42): changing VCA costs its normal MP. The seeds do not give the figure; without
    `asl.motorcycles.riding.vca_change_mp` (scenario or user table) the change is refused."""
    machine = _riding(ctx, ledger, situation, action)
    _no_bicycle(machine, action)
    s = motorcycle_settings(ctx.rules)
    if s.vca_change_mp is None:
        raise ScenarioError("the MP cost of a VCA change is not in the seeds: set asl.motorcycles.riding.vca_change_mp",
                            field="move.change_vca", value=machine.id, rule="ASL-MOV-03")
    if action.spines < 1:
        raise ScenarioError("change VCA by at least one hexspine", field="move.change_vca.spines", value=action.spines, rule="ASL-MOV-03")
    cost = s.vca_change_mp * action.spines
    new, charged = _charge_ride(ctx, ledger, machine, action, cost, farther=False)
    after = situation.with_machine(replace(machine, vca=(machine.vca + action.spines) % 6))
    return new, after, [_event(ctx, new, after, action, f"{action.spines} hexspine(s)", charged, cost, "ASL-MOV-03")]


def _step_stop(ctx, ledger, situation, action, dice):
    """ASL-MOV-03 (D15.42): Stopping costs its normal MP (1, D15.41 example)."""
    machine = _riding(ctx, ledger, situation, action)
    _no_bicycle(machine, action)
    if machine.motion is Motion.STOPPED:
        raise _violation(f"{machine.id} is already stopped", action, machine.id, "ASL-MOV-03")
    cost = motorcycle_settings(ctx.rules).stop_mp
    new, charged = _charge_ride(ctx, ledger, machine, action, cost, farther=False)
    after = situation.with_machine(replace(machine, motion=Motion.STOPPED))
    return new, after, [_event(ctx, new, after, action, "", charged, cost, "ASL-MOV-03")]


def _step_dismount(ctx, ledger, situation, action, dice):
    """ASL-MOV-02 (D15.41): dismounting costs 1 MF and 1/4 of the MP allotment; a rider whose four
    MF are gone cannot dismount (SPEC ruling: not even within a quarter paid for). The counter must
    be stopped. ASL-MOV-04 (D15.43): no voluntary dismount beside a Known enemy unit, except in
    Melee. ASL-MOV-01: not in the APh. Bicycles: free (ASL-BIC-01)."""
    machine = _riding(ctx, ledger, situation, action)
    if not machine.is_bicycle and machine.motion is not Motion.STOPPED:
        raise _violation(f"{machine.id} is {machine.motion}: Stop before dismounting", action, machine.id, "ASL-MOV-02")
    hx = ctx.board.hex(ledger.hex)
    enemies = situation.known_enemy_in(hx.id, situation.unit(ledger.units[0]).side)
    if enemies and not hx.melee:
        raise _violation(f"Known enemy unit(s) {', '.join(u.id for u in enemies)} in {hx.id}: no voluntary dismount (except in Melee)",
                         action, hx.id, "ASL-MOV-04")
    s = motorcycle_settings(ctx.rules)
    mf_cost, mp_cost = mount_cost(s, machine)
    new_mf, charged = [], {}
    for r in ledger.mf:
        used = _used(ctx, machine, r)
        if not machine.is_bicycle and used + mf_cost > s.basic_mf:
            if used >= s.basic_mf:
                msg = f"{r.unit} has used all {s.basic_mf} basic MF: he cannot dismount"
            else:
                msg = f"{r.unit} has used {used} of {s.basic_mf} basic MF; dismounting needs {mf_cost}"
            raise _violation(msg, action, r.unit, "ASL-MOV-02")
        new_mf.append(replace(r, spent=used + mf_cost, riding_mp=Fraction(0)))
        charged[r.unit] = Fraction(mf_cost)
    if not machine.is_bicycle and ledger.mp_used + mp_cost > (machine.mp or 0):
        raise _violation(f"{machine.id} has {(machine.mp or 0) - ledger.mp_used} MP left; dismounting needs {mp_cost}", action,
                         machine.id, "ASL-MOV-02")
    new = replace(ledger, mf=tuple(new_mf), machine=None, mp_used=ledger.mp_used + mp_cost)
    after = situation.with_machine(replace(machine, riders=tuple(r for r in machine.riders if r not in ledger.units)))
    rule = "ASL-BIC-01" if machine.is_bicycle else "ASL-MOV-02"
    ev = _event(ctx, new, after, action, machine.id, charged, mp_cost, rule)
    return new, after, [ev]


def _step_push(ctx, ledger, situation, action, dice):
    """ASL-MOV-01 (D15.4): an unmounted motorcycle is Pushed as a Gun with its M# (C10.3): a
    Manhandling DR at or under the M# moves it and its pushers into the hex (the pushers pay the
    hex's Infantry MF); a single-machine counter by one SMC, a second SMC helping -1; bigger
    counters only by an MMC of their size. Terrain it may not be ridden into may be Pushed into
    (ASL-MOV-03). Ruling: a failed DR ends the pushers' move; nothing moves."""
    if ledger.machine is not None:
        raise _violation("riders cannot push their own counter", action, ledger.machine, "ASL-MOV-01")
    machine = situation.machine(action.machine or "", "move.push.machine")
    _check_phase(ctx, action, machine)
    if machine.is_bicycle:
        raise _violation("a bicycle is a SW: it is carried (1 PP), not Pushed", action, machine.id, "ASL-BIC-01")
    if machine.removed or machine.hex != ledger.hex or machine.riders:
        raise _violation(f"{machine.id} must be unmounted in {ledger.hex}", action, machine.id, "ASL-MOV-01")
    pushers = _movers(situation, ledger)
    check_can_move(ctx.rules, machine, pushers, "move.push")
    if machine.m_number is None:
        raise ScenarioError("a Pushed motorcycle needs its M# (m_number)", field="motorcycle.m_number", value=machine.id, rule="ASL-MOV-01")
    target = ctx.board.hex(action.hex or "", "move.push.hex")
    cost = ctx.board.infantry_mf(ctx.rules, target, "move.push.hex")
    for r in ledger.mf:
        if r.spent + cost > r.allotment:
            raise _violation(f"{r.unit} has {r.allotment - r.spent} MF left; entering {target.id} costs {cost}", action, r.unit, "A4.1")
    mods = push_drm(ctx.rules, machine, pushers, action.drm)
    roll = dice.roll("DR", f"Manhandling DR pushing {machine.id}", "ASL-MOV-01")
    final = roll.total + sum(m.value for m in mods)
    moved = final <= machine.m_number
    events: list[Event] = [roll, ManhandlingCheck(machine.id, roll, mods, final, machine.m_number, moved)]
    if not moved:
        new = replace(ledger, ended="push failed")
        return new, situation, events
    new = replace(ledger, mf=tuple(replace(r, spent=r.spent + cost) for r in ledger.mf), hex=target.id, on_road_all=False)
    after = _move_units(situation, ledger, target.id, machine)
    events.append(_event(ctx, new, after, action, f"{machine.id} into {target.id}", {r.unit: cost for r in ledger.mf}, Fraction(0),
                         "ASL-MOV-01"))
    return new, after, events


def _step_split(ctx, ledger, situation, action, dice):
    """ASL-MOV-05 (D15.44): during the MPh an SMC riding an MMC counter takes a single-machine
    counter of his own; this move follows him, the others stay on the MMC counter."""
    if ctx.board.phase is not Phase.MPH:
        raise _violation("an SMC splits off a counter during the MPh (or to absorb losses)", action, action.unit, "ASL-MOV-05")
    machine = _riding(ctx, ledger, situation, action)
    smc = action.unit or ""
    if smc not in ledger.units:
        raise _violation("the SMC splitting off must be one of this move's units", action, smc, "ASL-MOV-05")
    after, events = split_smc(ctx.rules, situation, machine.id, smc, action.new_id or f"{machine.id}+{smc}", "split off to move alone")
    new = replace(ledger, units=(smc,), mf=(ledger.rider(smc),), machine=action.new_id or f"{machine.id}+{smc}")
    return new, after, events


def _step_reverse(ctx, ledger, situation, action, dice):
    """ASL-MOV-03 (D15.42): a motorcycle may not use Reverse movement."""
    raise _violation("a motorcycle may not use Reverse movement", action, ledger.machine, "ASL-MOV-03")


def _step_end(ctx, ledger, situation, action, dice):
    """End of the MPh: a motorcycle still moving is in Motion (its riders stay mounted)."""
    events: list[Event] = []
    after = situation
    if ledger.machine is not None:
        machine = situation.machine(ledger.machine)
        if machine.motion is Motion.MOVING:
            after = situation.with_machine(replace(machine, motion=Motion.MOTION))
            events.append(StateChanged(machine.id, "motion", "moving", "motion", "ASL-MOV-03"))
    new = replace(ledger, ended="end of MPh")
    return new, after, events


_STEPS: dict[str, Callable] = {
    "enter": _step_enter, "mount": _step_mount, "start": _step_start, "ride": _step_ride, "change_vca": _step_change_vca,
    "stop": _step_stop, "dismount": _step_dismount, "push": _step_push, "split": _step_split, "reverse": _step_reverse,
    "end": _step_end,
}


def apply_step(rules: Rules, board: Board, ledger: MoveLedger, situation: Situation, action: MoveAction,
               dice: DiceSource | None = None) -> tuple[MoveLedger, Situation, list[Event]]:
    """Check and charge one step; return the new ledger, situation and events. Raises RuleViolation
    (or ScenarioError for missing data) and changes nothing when the step is illegal."""
    if action.action not in _STEPS:
        raise ScenarioError(f"unknown move action (expected one of {', '.join(ACTIONS)})", field="move.action", value=action.action,
                            rule="CLI-02")
    if ledger.ended:
        raise _violation(f"this move has ended ({ledger.ended})", action, ledger.move, "ASL-MOV-02")
    if dice is None:
        from ..dice import ScriptedDice
        dice = ScriptedDice([])
    return _STEPS[action.action](_Ctx(rules, board), ledger, situation, action, dice)


def run_move(rules: Rules, board: Board, situation: Situation, ledger: MoveLedger, actions: tuple[MoveAction, ...],
             dice: DiceSource) -> tuple[MoveLedger, Situation, list[Event]]:
    """Apply a declared move step by step. A step marked `attempt` that the rules refuse is logged
    (StepRefused) and skipped; any other illegal step raises. Steps after a wreck or a failed
    push are skipped with a note."""
    events: list[Event] = []
    for action in actions:
        if ledger.ended:
            events.append(Note(f"{ledger.move}: {action.describe()} not taken: the move ended ({ledger.ended})", "ASL-MOV-02"))
            continue
        try:
            ledger, situation, evs = apply_step(rules, board, ledger, situation, action, dice)
        except RuleViolation as exc:
            if not action.attempt:
                raise
            events.append(StepRefused(ledger.move, action.describe(), str(exc), exc.rule))
            continue
        events += evs
    return ledger, situation, events


class Movement:
    """A mutable front end to the ledger: each call checks a step and commits it only if legal.

        m = Movement(rules, board, situation, ("leader",))
        m.enter("B"); m.mount("cycle"); m.start(); m.ride("R1"); m.stop()
        m.dismount()   # RuleViolation (ASL-MOV-02): ledger and situation unchanged
    """

    def __init__(self, rules: Rules, board: Board, situation: Situation, units: tuple[str, ...], move_id: str = "move",
                 dice: DiceSource | None = None, **kw) -> None:
        self.rules, self.board, self.dice = rules, board, dice
        self.situation = situation
        self.ledger = start_ledger(rules, situation, units, move_id, **kw)
        self.events: list[Event] = []

    def do(self, action: MoveAction) -> list[Event]:
        ledger, situation, events = apply_step(self.rules, self.board, self.ledger, self.situation, action, self.dice)
        self.ledger, self.situation = ledger, situation
        self.events += events
        return events

    def enter(self, hex: str, hexside: Hexside | None = None) -> list[Event]:
        return self.do(MoveAction("enter", hex=hex, hexside=hexside))

    def mount(self, machine: str) -> list[Event]:
        return self.do(MoveAction("mount", machine=machine))

    def start(self) -> list[Event]:
        return self.do(MoveAction("start"))

    def ride(self, hex: str, hexside: Hexside | None = None) -> list[Event]:
        return self.do(MoveAction("ride", hex=hex, hexside=hexside))

    def change_vca(self, spines: int = 1) -> list[Event]:
        return self.do(MoveAction("change_vca", spines=spines))

    def stop(self) -> list[Event]:
        return self.do(MoveAction("stop"))

    def dismount(self) -> list[Event]:
        return self.do(MoveAction("dismount"))

    def push(self, machine: str, hex: str, drm: tuple[Modifier, ...] = ()) -> list[Event]:
        return self.do(MoveAction("push", machine=machine, hex=hex, drm=drm))

    def split(self, unit: str, new_id: str | None = None) -> list[Event]:
        return self.do(MoveAction("split", unit=unit, new_id=new_id))

    def reverse(self) -> list[Event]:
        return self.do(MoveAction("reverse"))

    def end(self) -> list[Event]:
        return self.do(MoveAction("end"))

    def mf_used(self, unit: str) -> Fraction:
        machine = self.situation.machine(self.ledger.machine) if self.ledger.machine else None
        return _used(_Ctx(self.rules, self.board), machine, self.ledger.rider(unit))
