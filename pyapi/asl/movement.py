"""The D15 movement ledger and the Movement Phase it belongs to (ASL-MOV-01..06, ASL-BIC-01, ASL-BIC-02).

A Movement Phase (`MovementPhase`; its frozen record is `PhaseRecord`) holds
moves one after the other, in the ASL sequence: a unit moves once, a machine is
moved (and spends its MP allotment) once, and a move is over as soon as another
unit starts moving (ASL-MOV-02: the rider's MF and the machine's MP are those of
"that MPh"). At the end of the phase a motorcycle still moving is in Motion.

A move is a sequence of steps (enter a hex on foot, mount, start, ride, change
VCA, stop, dismount, push, split, end the move). Each step is checked against
the rules and charged to a frozen `MoveLedger`; an illegal step raises
`RuleViolation` naming the rule that forbids it and returns nothing, so the
ledger, the phase and the situation are unchanged (ERR-01).

Geometry (ASL-MOV-03, hardpoint.asl.geometry): hexes are board coordinates;
each step enters an adjacent hex; a motorcycle rides across one of the two
hexsides beside the hexspine of its VCA, turning its VCA first (MP per hexspine,
D2.11/D15.42) when the next hex lies elsewhere; roads are hexsides.

Costs:
- on foot: the hex's Infantry MF (A4.1), against the unit's MF allotment
  (4 for MMC, 6 for SMC, 3 wounded SMC; +2 leader bonus, +1 Double Time);
- mount / dismount (D15.41): 1 MF of the rider's basic four plus 1/4 of the
  motorcycle's MP allotment; while riding, 1 MF per quarter (FRU) of the
  allotment spent riding (SPEC ruling: the mount's own quarter is paid by its
  1 MF); once the four MF are gone the rider goes no farther and cannot
  dismount;
- riding: the terrain's motorcycle MP (road 1/2; others from the scenario or a
  user table, never invented), Start and Stop 1 MP each, a VCA change 1 MP per
  hexspine (2 in buildings, woods, rubble: data);
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
from .geometry import adjacent_hexside, direction_number, spines_between, turn_vca, vca_to_cross
from .motorcycles import (
    bicycle_portage_pp, check_can_move, check_capacity, check_portage, mount_cost, push_drm, riding_mf, split_smc,
    wreck_check_required, wreck_dismount_hex,
)
from .tables import board_settings, infantry_settings, morale_settings, motorcycle_settings, terrain_table
from .units import Board, Hex, Infantry, Motorcycle, Situation, fail_morale, is_good_order

__all__ = [
    "MoveAction", "RiderMF", "PhaseRecord", "MoveLedger", "start_ledger", "apply_step", "finish_move", "end_phase",
    "Movement", "MovementPhase", "ACTIONS", "run_move", "vca_name", "portage_mf_lost", "foot_allotment",
]

ACTIONS = ("enter", "mount", "start", "ride", "change_vca", "stop", "dismount", "push", "split", "reverse", "end")


@dataclass(frozen=True)
class MoveAction:
    """One declared step of a move. `change_vca` turns to the hexspine named `vca`, or by `spines`
    hexspines (clockwise positive)."""

    action: str
    hex: str | None = None
    machine: str | None = None
    spines: int | None = None
    vca: str | None = None
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
        if self.vca:
            bits.append(f"to {self.vca}")
        elif self.spines:
            bits.append(f"{self.spines:+d} hexspine(s)")
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
class PhaseRecord:
    """What one Movement Phase (or Advance Phase) has seen so far (ASL-MOV-02): the units whose move
    is over, the machines moved (ridden, mounted, Pushed, carried), the MP each machine spent, the
    moves made; `ended` once the phase is over."""

    phase: Phase = Phase.MPH
    moved: frozenset[str] = frozenset()
    machines: frozenset[str] = frozenset()
    machine_mp: tuple[tuple[str, Fraction], ...] = ()
    moves: tuple[str, ...] = ()
    ended: bool = False

    def mp_of(self, machine: str) -> Fraction:
        """MP the machine spent in this phase."""
        return dict(self.machine_mp).get(machine, Fraction(0))


@dataclass(frozen=True)
class MoveLedger:
    """What a moving stack has spent in this move, and where it is. `mp_used` is the MP this phase of
    the counter it rides (or last rode); `machine_mp` the MP of every machine it has used; `record`
    the phase as it stood when the move began; `took_part` every unit of the move (those an SMC
    left behind when he split off included)."""

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
    record: PhaseRecord = PhaseRecord()
    took_part: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    machine_mp: tuple[tuple[str, Fraction], ...] = ()
    preset_mp: Fraction = Fraction(0)

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


def portage_mf_lost(rules: Rules, movers: list[Infantry], carried: list[Motorcycle]) -> int:
    """A4.42, ASL-CAP-02 (D15.82): Infantry on foot carry their Inherent Portage Capacity without
    loss; each PP beyond it costs MF. A moving stack pools its capacity and what it carries (its
    units' SW, and each bicycle it carries at 1 PP a machine); the excess costs every unit of the
    stack (they move together). Figures: seeds/asl/infantry.toml [portage]."""
    inf = infantry_settings(rules)
    pp = sum(w.pp for u in movers for w in u.weapons) + sum(bicycle_portage_pp(rules, b) for b in carried)
    excess = max(0, pp - sum(inf.ipc[u.type] for u in movers))
    return excess * inf.mf_per_excess_pp


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


def vca_name(rules: Rules, machine: Motorcycle) -> str:
    """The VCA of a counter as seeds/asl/board.toml names its hexspine ("" if it has none)."""
    return "" if machine.vca is None else board_settings(rules).hexspines[machine.vca]


def _event(ctx: _Ctx, ledger: MoveLedger, situation: Situation, action: MoveAction, detail: str,
           mf: dict[str, Fraction], mp: Fraction, rule: str, name: str | None = None) -> MoveStep:
    machine = situation.machine(ledger.machine) if ledger.machine else None
    used = {r.unit: _used(ctx, machine, r) for r in ledger.mf}
    caps = {r.unit: _cap(ctx, ledger, machine, r) for r in ledger.mf}
    mp_allot = machine.mp if machine is not None and not machine.is_bicycle else None
    motion = str(machine.motion) if machine is not None else "on foot"
    vca = vca_name(ctx.rules, machine) if machine is not None and not machine.is_bicycle else ""
    return MoveStep(ledger.move, name or action.action, detail, {u: mf.get(u, Fraction(0)) for u in ledger.units}, mp, used, caps,
                    ledger.mp_used if mp_allot is not None else None, mp_allot, ledger.hex, motion, rule, vca)


def _mp_before(ledger: MoveLedger, machine: str) -> Fraction:
    """MP the machine has spent this phase before this step: in this move, or (for the first machine
    a move mounts) the MP declared as already spent (`mp_used` of the move)."""
    mp = dict(ledger.machine_mp)
    if machine in mp:
        return mp[machine]
    return ledger.preset_mp if not mp else Fraction(0)


def _with_mp(ledger: MoveLedger, machine: str, mp: Fraction) -> MoveLedger:
    """The ledger with the machine's MP this phase set to `mp` (and shown as `mp_used`)."""
    mps = dict(ledger.machine_mp)
    mps[machine] = mp
    return replace(ledger, machine_mp=tuple(mps.items()), mp_used=mp)


def _phase_name(phase: Phase) -> str:
    return {Phase.MPH: "MPh", Phase.APH: "APh"}.get(phase, str(phase))


def start_ledger(rules: Rules, situation: Situation, units: tuple[str, ...], move_id: str = "move",
                 spent: dict[str, Fraction] | None = None, double_time: bool = False, mp_used: Fraction = Fraction(0),
                 carrying: tuple[str, ...] = (), record: PhaseRecord | None = None) -> MoveLedger:
    """A fresh ledger for a stack starting its move together (one hex; on foot, or every rider of one
    counter), in the phase `record` describes. ASL-MOV-02: a unit whose move in this phase is over,
    or a machine already moved in it, moves no more; nothing moves once the phase has ended."""
    record = record if record is not None else PhaseRecord()
    where = _phase_name(record.phase)
    if not units:
        raise ScenarioError("a move needs at least one unit", field="move.units", rule="CLI-02")
    if record.ended:
        raise RuleViolation(f"the {where} is over: nothing moves in it any more", field="move.units", value=list(units), rule="ASL-MOV-02")
    movers = [situation.unit(u, "move.units") for u in units]
    hexes = {u.hex for u in movers}
    if len(hexes) != 1:
        raise ScenarioError("the units of a move must start in one hex", field="move.units", value=list(units), rule="CLI-02")
    for u in movers:
        if u.eliminated or u.broken:
            raise RuleViolation("a broken or eliminated unit does not move in the MPh", field="move.units", value=u.id, rule="A10")
        if u.id in record.moved:
            raise RuleViolation(f"{u.id} has moved in this {where} already: a unit moves once, and not again once another unit "
                                "has moved", field="move.units", value=u.id, rule="ASL-MOV-02")
    mounts = {situation.mount_of(u) for u in units}
    mounted = next(iter(mounts)) if len(mounts) == 1 else None
    if len(mounts) != 1:
        raise ScenarioError("the units of a move are all on foot or all riders of one counter", field="move.units",
                            value=list(units), rule="CLI-02")
    if mounted is not None:
        if set(mounted.riders) != set(units):
            raise RuleViolation(f"every rider of {mounted.id} ({', '.join(mounted.riders)}) moves with it; an SMC may split off "
                                "during the move (ASL-MOV-05)", field="move.units", value=list(units), rule="ASL-MOV-02")
        if mounted.id in record.machines:
            raise RuleViolation(f"{mounted.id} has been moved in this {where} already ({record.mp_of(mounted.id)} MP spent): "
                                "a machine moves once", field="move.units", value=mounted.id, rule="ASL-MOV-02")
    bikes = []
    for c in carrying:
        bike = situation.machine(c, "move.carrying")
        if not bike.is_bicycle:
            raise RuleViolation("only a bicycle is carried (as 1 PP); a motorcycle is ridden or Pushed", field="move.carrying",
                                value=c, rule="ASL-CAP-02")
        if bike.hex not in hexes or bike.riders:
            raise RuleViolation("the bicycle must be unmounted in the movers' hex", field="move.carrying", value=c, rule="ASL-CAP-02")
        if c in record.machines:
            raise RuleViolation(f"{c} has been moved in this {where} already", field="move.carrying", value=c, rule="ASL-MOV-02")
        bikes.append(bike)
    if mounted is not None and bikes:
        check_portage(rules, mounted, movers, "move", tuple(bikes))
    spent = spent or {}
    lost = portage_mf_lost(rules, movers, bikes)
    mf = tuple(RiderMF(u.id, max(0, foot_allotment(rules, u, movers, double_time) - lost), Fraction(spent.get(u.id, 0))) for u in movers)
    ledger = MoveLedger(move_id, tuple(units), mf, hexes.pop(), None if mounted is None else mounted.id, carrying=tuple(carrying),
                        record=record, took_part=tuple(units), preset_mp=Fraction(mp_used))
    if mounted is not None:
        ledger = replace(_with_mp(ledger, mounted.id, Fraction(mp_used)), used=(mounted.id,), preset_mp=Fraction(0))
    return ledger


def finish_move(record: PhaseRecord, ledger: MoveLedger) -> PhaseRecord:
    """ASL-MOV-02: a move is over (another unit starts moving, or the phase ends): its units have
    moved, its machines have been moved, their MP are spent for the phase."""
    mps = dict(record.machine_mp)
    mps.update(ledger.machine_mp)
    return replace(record, moved=record.moved | set(ledger.took_part), machines=record.machines | set(ledger.used) | set(ledger.carrying),
                   machine_mp=tuple(sorted(mps.items())), moves=record.moves + (ledger.move,))


def end_phase(rules: Rules, record: PhaseRecord, situation: Situation) -> tuple[PhaseRecord, Situation, list[Event]]:
    """ASL-MOV-03: the phase ends; a motorcycle still moving (it has not Stopped) is now in Motion,
    whichever move moved it, a counter an SMC split away from included."""
    if record.ended:
        raise RuleViolation(f"the {_phase_name(record.phase)} has ended already", field="phase", value=str(record.phase), rule="ASL-MOV-02")
    after, events = situation, []
    for m in situation.machines:
        if not m.removed and m.motion is Motion.MOVING:
            after = after.with_machine(replace(m, motion=Motion.MOTION))
            events.append(StateChanged(m.id, "motion", "moving", "motion", "ASL-MOV-03"))
    return replace(record, ended=True), after, events


# --- the steps ----------------------------------------------------------------------------------

def _check_phase(ctx: _Ctx, action: MoveAction, machine: Motorcycle | None) -> None:
    """ASL-MOV-01 (D15.4): no motorcycle moved, Pushed, mounted or dismounted in the APh;
    ASL-BIC-01 (D15.81): no bicycle movement in the APh."""
    if ctx.board.phase is Phase.APH and machine is not None:
        rule = "ASL-BIC-01" if machine.is_bicycle else "ASL-MOV-01"
        raise _violation(f"no {machine.type} may be {action.action}ed in the Advance Phase", action, machine.id, rule)


def _check_not_moved(ledger: MoveLedger, machine: Motorcycle, action: MoveAction) -> None:
    """ASL-MOV-02: a machine moved in an earlier move of this phase has spent its MP for the phase
    and moves no more (not mounted, ridden, Pushed or carried by another move)."""
    if machine.id in ledger.record.machines:
        raise _violation(f"{machine.id} has been moved in this {_phase_name(ledger.record.phase)} already "
                         f"({ledger.record.mp_of(machine.id)} MP spent): a machine moves once per phase", action, machine.id, "ASL-MOV-02")


def _movers(situation: Situation, ledger: MoveLedger) -> list[Infantry]:
    return [situation.unit(u) for u in ledger.units]


def _move_units(situation: Situation, ledger: MoveLedger, hid: str, machine: Motorcycle | None = None) -> Situation:
    after = situation.with_units(replace(situation.unit(u), hex=hid) for u in ledger.units)
    if machine is not None:
        after = after.with_machine(replace(after.machine(machine.id), hex=hid))
    for c in ledger.carrying:
        after = after.with_machine(replace(after.machine(c), hex=hid))
    return after


def _infantry_cost(ctx: _Ctx, here: Hex, target: Hex, field: str) -> tuple[Fraction, bool]:
    """A4.1, B3: the Infantry MF to enter `target` from `here`, and whether the hexside crossed is a
    road hexside. The hex's own `infantry_mf` is its cost from every side, road hexsides included
    (a road climbing a hill: 2 MF); without one, the road rate across a road hexside (it replaces
    the terrain's cost, B3), else the terrain's figure."""
    road = ctx.board.hexside(here, target) is Hexside.ROAD
    if target.infantry_mf is not None:
        return target.infantry_mf, road
    if road:
        return terrain_table(ctx.rules).road_infantry_mf, True
    return ctx.board.infantry_mf(ctx.rules, target, field), False


def _step_enter(ctx, ledger, situation, action, dice):
    """A4.1: Infantry on foot enter the adjacent hex for its MF cost (the road rate across a road
    hexside, B3)."""
    if ledger.machine is not None:
        raise _violation("a mounted unit rides; dismount first to move on foot", action, ledger.units, "ASL-MOV-02")
    if ledger.carrying and ctx.board.phase is Phase.APH:
        raise _violation("a bicycle cannot be carried in the Advance Phase", action, ledger.carrying, "ASL-CAP-02")
    target = ctx.board.hex(action.hex or "", "move.enter.hex")
    here = ctx.board.hex(ledger.hex)
    adjacent_hexside(ctx.rules, here.id, target.id, "move.enter.hex", "A4.1")
    cost, road = _infantry_cost(ctx, here, target, "move.enter.hex")
    mf = []
    for r in ledger.mf:
        if r.spent + cost > r.allotment:
            raise _violation(f"{r.unit} has {r.allotment - r.spent} MF left; entering {target.id} costs {cost}", action, r.unit, "A4.1")
        mf.append(replace(r, spent=r.spent + cost))
    new = replace(ledger, mf=tuple(mf), hex=target.id, on_road_all=ledger.on_road_all and road)
    after = _move_units(situation, ledger, target.id)
    return new, after, [_event(ctx, new, after, action, f"into {target.id} ({'road' if road else target.terrain})",
                               {r.unit: cost for r in ledger.mf}, Fraction(0), "A4.1")]


def _step_mount(ctx, ledger, situation, action, dice):
    """ASL-MOV-02 (D15.41): mounting costs each rider 1 MF of his basic four and the motorcycle 1/4
    of its MP allotment (a bicycle nothing, ASL-BIC-01); capacity and portage are checked
    (ASL-CAP-01, ASL-CAP-02); the counter must be stopped in the riders' hex and not yet moved in
    this phase."""
    if ledger.machine is not None:
        raise _violation("already mounted", action, ledger.machine, "ASL-MOV-02")
    machine = situation.machine(action.machine or "", "move.mount.machine")
    _check_phase(ctx, action, machine)
    _check_not_moved(ledger, machine, action)
    if machine.removed or machine.hex != ledger.hex:
        raise _violation(f"counter {machine.id} is not in {ledger.hex}", action, machine.id, "ASL-MOV-02")
    if machine.motion is not Motion.STOPPED:
        raise _violation(f"counter {machine.id} is {machine.motion}: riders mount a stopped motorcycle", action, machine.id, "ASL-MOV-02")
    riders = situation.riders(machine) + _movers(situation, ledger)
    check_capacity(ctx.rules, machine, riders, "move.mount")
    check_portage(ctx.rules, machine, riders, "move.mount", tuple(situation.machine(c) for c in ledger.carrying))
    s = motorcycle_settings(ctx.rules)
    mf_cost, mp_cost = mount_cost(s, machine)
    new_mf = []
    for r in ledger.mf:
        if not machine.is_bicycle and r.spent + mf_cost > s.basic_mf:
            raise _violation(f"{r.unit} has used {r.spent} of his basic {s.basic_mf} MF; mounting needs {mf_cost} more", action,
                             r.unit, "ASL-MOV-02")
        new_mf.append(replace(r, spent=r.spent + mf_cost, riding_mp=Fraction(0)))
    mp = _mp_before(ledger, machine.id)
    if not machine.is_bicycle and mp + mp_cost > (machine.mp or 0):
        raise _violation(f"{machine.id} has {(machine.mp or 0) - mp} MP left; mounting needs {mp_cost}", action, machine.id, "ASL-MOV-02")
    new = replace(_with_mp(ledger, machine.id, mp + mp_cost), mf=tuple(new_mf), machine=machine.id, used=ledger.used + (machine.id,))
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
    return replace(_with_mp(ledger, machine.id, ledger.mp_used + cost), mf=tuple(new_mf)), charged


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


def _motorcycle_mp(ctx: _Ctx, target: Hex, road: bool, action: MoveAction) -> Fraction:
    """The motorcycle MP to enter `target` (Terrain Chart, motorcycle column): the hex's own figure
    (or its NA) from every side, as for Infantry MF; else the road rate across a road hexside; else
    its terrain's from the table; NA forbids entry (ASL-MOV-03: restrictions apply to entry only);
    a missing figure is an error, never invented."""
    s = motorcycle_settings(ctx.rules)
    if target.motorcycle_na:
        cost = None
    elif target.motorcycle_mp is not None:
        cost = target.motorcycle_mp
    elif road and target.road is not None and "road" in s.terrain_mp:
        cost = s.terrain_mp["road"]
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
    for c in ledger.carrying:
        after = after.with_machine(replace(after.machine(c), hex=where))
    events.append(Note(f"{machine.id} stays usable, unmounted in {where}; no Bail Out; resolved before Defensive Fire for this MP",
                       "ASL-MOV-06"))
    new = replace(ledger, hex=where, machine=None, ended="wreck",
                  mf=tuple(replace(r, spent=_used(ctx, machine, r), riding_mp=Fraction(0)) for r in ledger.mf))
    return new, after, events


def _vca_of(machine: Motorcycle) -> int:
    """ASL-MOV-03: a motorcycle that moves has a VCA; the scenario must give it (never invented)."""
    if machine.vca is None:
        raise ScenarioError("a motorcycle that changes hex or VCA needs its VCA (vca: the hexspine it faces, such as \"ne/se\")",
                            field="motorcycle.vca", value=machine.id, rule="ASL-MOV-03")
    return machine.vca


def _turn(ctx, ledger, situation, machine: Motorcycle, to: int, action: MoveAction, why: str
          ) -> tuple[MoveLedger, Situation, list[Event]]:
    """ASL-MOV-03 (D15.42, D2.11): change VCA to hexspine `to`, paying the normal MP per hexspine
    turned (the short way) in the hex it is in (`vca_change_mp`, more in the terrain of
    `vca_change_terrain`); not "farther" for the rider's quarters."""
    names = board_settings(ctx.rules).hexspines
    frm = _vca_of(machine)
    spines = spines_between(frm, to)
    here = ctx.board.hex(ledger.hex)
    cost = motorcycle_settings(ctx.rules).vca_change_cost(here.terrain) * spines
    new, charged = _charge_ride(ctx, ledger, machine, action, cost, farther=False)
    after = situation.with_machine(replace(machine, vca=to))
    detail = f"{names[frm]} -> {names[to]}: {spines} hexspine(s) in {here.id}{why}"
    return new, after, [_event(ctx, new, after, action, detail, charged, cost, "ASL-MOV-03", name="change_vca")]


def _step_ride(ctx, ledger, situation, action, dice):
    """Ride into the adjacent hex: ASL-MOV-03 (across one of the two hexsides beside the VCA's
    hexspine, turning the VCA first when the hex lies elsewhere; the counter must be started; no MP
    for a wreck or vehicle there), ASL-MOV-02 (MP and the rider's quarters), ASL-CAP-03 (other
    motorcycles there change nothing), ASL-MOV-04 (a hex the enemy holds may be ridden into and out of),
    ASL-MOV-06 (Wreck Check). Bicycles: ASL-BIC-01 and ASL-BIC-02."""
    machine = _riding(ctx, ledger, situation, action)
    here = ctx.board.hex(ledger.hex)
    target = ctx.board.hex(action.hex or "", "move.ride.hex")
    side = adjacent_hexside(ctx.rules, here.id, target.id, "move.ride.hex", "ASL-BIC-01" if machine.is_bicycle else "ASL-MOV-03")
    hexside = ctx.board.hexside(here, target)
    road = hexside is Hexside.ROAD
    enemies = situation.known_enemy_in(target.id, situation.unit(ledger.units[0]).side)
    if machine.is_bicycle:
        return _ride_bicycle(ctx, ledger, situation, action, dice, machine, here, target, road, hexside, enemies)
    if machine.motion is Motion.STOPPED:
        raise _violation(f"{machine.id} is stopped: Start it first (normal MP to Start)", action, machine.id, "ASL-MOV-03")
    check_can_move(ctx.rules, machine, situation.riders(machine), "move.ride")
    new, after, events = ledger, situation, []
    want = vca_to_cross(_vca_of(machine), side)
    if want != machine.vca:
        new, after, events = _turn(ctx, new, after, machine, want, action, f", to ride into {target.id}")
        machine = after.machine(machine.id)
    cost = _motorcycle_mp(ctx, target, road, action)
    new, charged = _charge_ride(ctx, new, machine, action, cost, farther=True)
    new = replace(new, hex=target.id)
    after = _move_units(after, new, target.id, machine)
    after = after.with_machine(replace(after.machine(machine.id), motion=Motion.MOVING))
    notes = []
    if target.features & {"wreck", "vehicle"} or situation.machines_in(target.id):
        notes.append("no extra MP for the wreck/vehicle/motorcycle there (ASL-MOV-03, ASL-CAP-03)")
    if enemies:
        notes.append(f"rides through enemy-occupied {target.id} (ASL-MOV-04)")
    detail = f"into {target.id} ({'road' if road else target.terrain})" + (f"; {'; '.join(notes)}" if notes else "")
    events.append(_event(ctx, new, after, action, detail, charged, cost, "ASL-MOV-02"))
    if wreck_check_required(ctx.rules, machine, target, hexside):
        new, after, wreck_events = _wreck(ctx, new, after, after.machine(machine.id), here, target, dice)
        events += wreck_events
    return new, after, events


def _bicycle_cost(ctx, ledger, here: Hex, target: Hex) -> tuple[Fraction, str]:
    """ASL-BIC-01 (D15.81): the rider's Infantry cost across a road hexside, halved unless the hex
    entered is a shellhole or entrenchment hex, the bicycle gains elevation, or the road is dirt in
    Mud or unplowed in Snow."""
    s = motorcycle_settings(ctx.rules)
    base, _ = _infantry_cost(ctx, here, target, "move.ride.hex")
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
    """ASL-MOV-03 (D15.42, D2.11): change VCA in the hex, to the hexspine named `vca` or by `spines`
    hexspines, for the normal MP per hexspine; the counter must be moving or in Motion."""
    machine = _riding(ctx, ledger, situation, action)
    _no_bicycle(machine, action)
    if machine.motion is Motion.STOPPED:
        raise _violation(f"{machine.id} is stopped: Start it first (normal MP to Start)", action, machine.id, "ASL-MOV-03")
    frm = _vca_of(machine)
    if action.vca is not None:
        to = direction_number(board_settings(ctx.rules).hexspines, action.vca, "move.change_vca.vca")
    elif action.spines:
        to = turn_vca(frm, action.spines)
    else:
        raise ScenarioError("give the hexspine to face (vca) or the hexspines to turn (spines)", field="move.change_vca",
                            value=action.spines, rule="ASL-MOV-03")
    if to == frm:
        raise ScenarioError("the counter faces that hexspine already", field="move.change_vca", value=action.vca or action.spines,
                            rule="ASL-MOV-03")
    return _turn(ctx, ledger, situation, machine, to, action, "")


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
    new = replace(_with_mp(ledger, machine.id, ledger.mp_used + mp_cost), mf=tuple(new_mf), machine=None)
    after = situation.with_machine(replace(machine, riders=tuple(r for r in machine.riders if r not in ledger.units)))
    rule = "ASL-BIC-01" if machine.is_bicycle else "ASL-MOV-02"
    ev = _event(ctx, new, after, action, machine.id, charged, mp_cost, rule)
    return new, after, [ev]


def _step_push(ctx, ledger, situation, action, dice):
    """ASL-MOV-01 (D15.4): an unmounted motorcycle is Pushed as a Gun with its M# (C10.3): a
    Manhandling DR at or under the M# moves it and its pushers into the adjacent hex (the pushers
    pay the hex's Infantry MF); a single-machine counter by one SMC, a second SMC helping -1;
    bigger counters only by an MMC of their size. Terrain it may not be ridden into may be Pushed
    into (ASL-MOV-03). Ruling: a failed DR ends the pushers' move; nothing moves."""
    if ledger.machine is not None:
        raise _violation("riders cannot push their own counter", action, ledger.machine, "ASL-MOV-01")
    machine = situation.machine(action.machine or "", "move.push.machine")
    _check_phase(ctx, action, machine)
    _check_not_moved(ledger, machine, action)
    if machine.is_bicycle:
        raise _violation("a bicycle is a SW: it is carried (1 PP), not Pushed", action, machine.id, "ASL-BIC-01")
    if machine.removed or machine.hex != ledger.hex or machine.riders:
        raise _violation(f"{machine.id} must be unmounted in {ledger.hex}", action, machine.id, "ASL-MOV-01")
    pushers = _movers(situation, ledger)
    check_can_move(ctx.rules, machine, pushers, "move.push")
    if machine.m_number is None:
        raise ScenarioError("a Pushed motorcycle needs its M# (m_number)", field="motorcycle.m_number", value=machine.id, rule="ASL-MOV-01")
    here = ctx.board.hex(ledger.hex)
    target = ctx.board.hex(action.hex or "", "move.push.hex")
    adjacent_hexside(ctx.rules, here.id, target.id, "move.push.hex", "ASL-MOV-01")
    cost, _ = _infantry_cost(ctx, here, target, "move.push.hex")
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
    new = replace(ledger, mf=tuple(replace(r, spent=r.spent + cost) for r in ledger.mf), hex=target.id, on_road_all=False,
                  used=ledger.used + (machine.id,))
    after = _move_units(situation, ledger, target.id, machine)
    events.append(_event(ctx, new, after, action, f"{machine.id} into {target.id}", {r.unit: cost for r in ledger.mf}, Fraction(0),
                         "ASL-MOV-01"))
    return new, after, events


def _step_split(ctx, ledger, situation, action, dice):
    """ASL-MOV-05 (D15.44): during the MPh an SMC riding an MMC counter takes a single-machine
    counter of his own (same hex, Motion, VCA and MP spent); this move follows him; the others stay
    on the MMC counter, their move over (they moved with the stack)."""
    if ctx.board.phase is not Phase.MPH:
        raise _violation("an SMC splits off a counter during the MPh (or to absorb losses)", action, action.unit, "ASL-MOV-05")
    machine = _riding(ctx, ledger, situation, action)
    smc = action.unit or ""
    if smc not in ledger.units:
        raise _violation("the SMC splitting off must be one of this move's units", action, smc, "ASL-MOV-05")
    new_id = action.new_id or f"{machine.id}+{smc}"
    after, events = split_smc(ctx.rules, situation, machine.id, smc, new_id, "split off to move alone")
    new = replace(_with_mp(ledger, new_id, ledger.mp_used), units=(smc,), mf=(ledger.rider(smc),), machine=new_id,
                  used=ledger.used + (new_id,))
    return new, after, events


def _step_reverse(ctx, ledger, situation, action, dice):
    """ASL-MOV-03 (D15.42): a motorcycle may not use Reverse movement."""
    raise _violation("a motorcycle may not use Reverse movement", action, ledger.machine, "ASL-MOV-03")


def _step_end(ctx, ledger, situation, action, dice):
    """The end of this move (its units move no more this phase, ASL-MOV-02). A motorcycle still
    moving stays so until the phase ends; then it is in Motion (`end_phase`)."""
    return replace(ledger, ended="end of move"), situation, []


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
    """A mutable front end to one move's ledger: each call checks a step and commits it only if legal.

        m = Movement(rules, board, situation, ("leader",))
        m.enter("C5"); m.mount("cycle"); m.start(); m.ride("D5"); m.stop()
        m.dismount()   # RuleViolation (ASL-MOV-02): ledger and situation unchanged

    Made on its own, a Movement is a Movement Phase of one move (`end` ends both). Made by
    `MovementPhase.move`, it is one move of that phase, refused once another move has begun.
    """

    def __init__(self, rules: Rules, board: Board, situation: Situation, units: tuple[str, ...], move_id: str = "move",
                 dice: DiceSource | None = None, *, phase: "MovementPhase | None" = None, record: PhaseRecord | None = None,
                 **kw) -> None:
        self.rules, self.board, self.dice = rules, board, dice
        self.phase = phase
        self.situation = situation
        record = record if record is not None else PhaseRecord(board.phase)
        self.ledger = start_ledger(rules, situation, tuple(units), move_id, record=record, **kw)
        self.events: list[Event] = []

    def do(self, action: MoveAction) -> list[Event]:
        if self.phase is not None:
            self.phase.check_current(self, action)
        ledger, situation, events = apply_step(self.rules, self.board, self.ledger, self.situation, action, self.dice)
        self.ledger, self.situation = ledger, situation
        self.events += events
        return events

    def enter(self, hex: str) -> list[Event]:
        return self.do(MoveAction("enter", hex=hex))

    def mount(self, machine: str) -> list[Event]:
        return self.do(MoveAction("mount", machine=machine))

    def start(self) -> list[Event]:
        return self.do(MoveAction("start"))

    def ride(self, hex: str) -> list[Event]:
        return self.do(MoveAction("ride", hex=hex))

    def change_vca(self, spines: int | None = None, vca: str | None = None) -> list[Event]:
        return self.do(MoveAction("change_vca", spines=spines, vca=vca))

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
        """End this move; a Movement made on its own also ends its phase (a motorcycle still moving is
        then in Motion)."""
        events = self.do(MoveAction("end"))
        if self.phase is None:
            _, self.situation, more = end_phase(self.rules, finish_move(self.ledger.record, self.ledger), self.situation)
            self.events += more
            events += more
        return events

    def mf_used(self, unit: str) -> Fraction:
        machine = self.situation.machine(self.ledger.machine) if self.ledger.machine else None
        return _used(_Ctx(self.rules, self.board), machine, self.ledger.rider(unit))


class MovementPhase:
    """One Movement Phase (or Advance Phase: `board.phase`), its moves one after the other (ASL-MOV-02).

        mph = MovementPhase(rules, board, situation)
        m = mph.move(("leader",)); m.enter("C5"); m.mount("cycle"); m.start(); m.ride("D5")
        mph.move(("squad",))    # the leader's move is over; a second move for him is refused
        mph.end()               # a motorcycle still moving is now in Motion

    A new move settles the one before (its units and machines have moved, their MP are spent);
    a move that is refused changes nothing, and the move before it goes on.
    """

    def __init__(self, rules: Rules, board: Board, situation: Situation, dice: DiceSource | None = None) -> None:
        self.rules, self.board, self.dice = rules, board, dice
        self._situation = situation
        self._record = PhaseRecord(board.phase)
        self._events: list[Event] = []
        self.current: Movement | None = None

    @property
    def situation(self) -> Situation:
        return self.current.situation if self.current is not None else self._situation

    @property
    def record(self) -> PhaseRecord:
        """The phase so far, the move in progress counted as over."""
        return finish_move(self._record, self.current.ledger) if self.current is not None else self._record

    @property
    def events(self) -> list[Event]:
        return self._events + (self.current.events if self.current is not None else [])

    def move(self, units: tuple[str, ...], move_id: str | None = None, **kw) -> Movement:
        """Begin the next move (ASL-MOV-02: the move in progress is over once it begins)."""
        record, situation, events = self.record, self.situation, self.events
        move = Movement(self.rules, self.board, situation, tuple(units), move_id or f"move{len(record.moves) + 1}", self.dice,
                        phase=self, record=record, **kw)
        self._record, self._situation, self._events, self.current = record, situation, events, move
        return move

    def end(self) -> list[Event]:
        """ASL-MOV-03: end the phase; no unit moves in it any more."""
        record, situation, events = end_phase(self.rules, self.record, self.situation)
        self._events = self.events + events
        self._record, self._situation, self.current = record, situation, None
        return events

    def check_current(self, movement: Movement, action: MoveAction) -> None:
        """ASL-MOV-02: a move is over once another has begun or the phase has ended."""
        if movement is not self.current:
            why = "the phase has ended" if self._record.ended else "another unit has moved since"
            raise RuleViolation(f"move {movement.ledger.move} is over: {why}", field=f"move.{action.action}", value=movement.ledger.move,
                                rule="ASL-MOV-02")
