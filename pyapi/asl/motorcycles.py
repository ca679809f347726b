"""ASL D15: motorcycle and bicycle counters, one small function per rule.

Movement (the MF/MP ledger) lives in hardpoint.asl.movement; the fire chain
in hardpoint.asl.fire. Every function here reads its numbers from
seeds/asl/motorcycles.toml (`motorcycle_settings`).
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import ceil

from ..data import Rules
from ..dice import DiceSource
from ..errors import RuleViolation, ScenarioError
from ..events import Event, Modifier
from .enums import Capacity, Hexside, MachineType, Motion, Phase, UnitType
from .events import CounterChanged
from .tables import CapacitySpec, MotorcycleSettings, motorcycle_settings
from .units import Board, Hex, Infantry, Motorcycle, Situation, is_good_order, parse_designation, unit_size

__all__ = [
    "capacity_spec", "check_capacity", "check_portage", "bicycle_portage_pp", "check_can_move", "required_capacity",
    "mount_cost", "riding_mf", "check_not_carried", "bog_check_required", "wreck_check_required", "wreck_dismount_hex",
    "check_overrun", "check_overrun_moment", "overrun_rider_fp", "rider_fire_multiplier", "check_close_combat", "is_support_weapon",
    "recover", "smc_groups", "substitute_counter", "split_smc", "deploy_squad", "recombine_unmounted", "recombine_riders",
    "case_j_applies", "push_drm",
]


def capacity_spec(rules: Rules, machines: Capacity) -> CapacitySpec:
    return motorcycle_settings(rules).capacity[machines]


def check_capacity(rules: Rules, machine: Motorcycle, riders: list[Infantry], field: str = "motorcycle") -> None:
    """ASL-CAP-01 (D15.1): three machines carry a squad and up to four SMC; two a HS or crew and
    up to four SMC; one machine up to two SMC (three on a sidecar). Anything more is refused."""
    spec = capacity_spec(rules, machine.machines)
    mmc = [u for u in riders if not u.is_smc]
    smc = [u for u in riders if u.is_smc]
    if len(mmc) > 1:
        raise RuleViolation(f"a motorcycle counter carries one MMC, not {len(mmc)} ({', '.join(u.id for u in mmc)})",
                            field=f"{field}.riders", value=machine.id, rule="ASL-CAP-01")
    if mmc:
        size = unit_size(rules, mmc[0])
        if spec.mmc is None or size > spec.mmc:
            room = "no MMC" if spec.mmc is None else f"at most a {spec.mmc}"
            raise RuleViolation(f"a {machine.machines.name.lower()}-machine counter carries {room}; {mmc[0].id} is a {size}",
                                field=f"{field}.riders", value=machine.id, rule="ASL-CAP-01")
    limit = spec.smc_limit(machine.type)
    if len(smc) > limit:
        raise RuleViolation(f"a {machine.machines.name.lower()}-machine {machine.type} carries at most {limit} SMC, not {len(smc)}",
                            field=f"{field}.riders", value=machine.id, rule="ASL-CAP-01")


def check_portage(rules: Rules, machine: Motorcycle, riders: list[Infantry], field: str = "motorcycle",
                  carried: tuple[Motorcycle, ...] = ()) -> None:
    """ASL-CAP-02 (D15.2, D15.82): what the riders bring, their SW and any bicycle they carry (1 PP a
    machine), may not exceed the counter's portage: cycles none, sidecars 3/2/1 PP by size; a
    bicycle carries nothing at all (no SW, no other bicycle)."""
    weapons = [w for u in riders for w in u.weapons]
    if not weapons and not carried:
        return
    loads = [w.id for w in weapons] + [b.id for b in carried]
    if machine.is_bicycle:
        raise RuleViolation(f"a bicycle carries nothing: no support weapon, no other bicycle ({', '.join(loads)})",
                            field=f"{field}.riders", value=machine.id, rule="ASL-CAP-02")
    capacity = motorcycle_settings(rules).portage[(machine.type, machine.machines)]
    pp = sum(w.pp for w in weapons) + sum(bicycle_portage_pp(rules, b) for b in carried)
    if pp > capacity:
        raise RuleViolation(f"riders bring {pp} PP ({', '.join(loads)}); a {machine.machines.name.lower()}-machine {machine.type} "
                            f"carries {capacity}", field=f"{field}.riders", value=machine.id, rule="ASL-CAP-02")


def bicycle_portage_pp(rules: Rules, machine: Motorcycle) -> int:
    """ASL-CAP-02 (D15.82): a bicycle is carried as one PP per machine; a motorcycle cannot be carried."""
    if not machine.is_bicycle:
        raise RuleViolation("a motorcycle is never carried: it is ridden or Pushed", field="motorcycle", value=machine.id, rule="ASL-MOV-01")
    return motorcycle_settings(rules).bicycle_pp * machine.machines.value


def check_can_move(rules: Rules, machine: Motorcycle, movers: list[Infantry], field: str = "move") -> None:
    """ASL-MOV-01 (D15.4): a counter is moved only by an Infantry unit as big as what it carries
    (extra SMC aside): a squad-size counter by a squad, a HS-size one by a HS or crew."""
    need = capacity_spec(rules, machine.machines).mmc
    if need is None:
        if not movers:
            raise RuleViolation("no unit to move it", field=field, value=machine.id, rule="ASL-MOV-01")
        return
    sizes = [unit_size(rules, u) for u in movers if not u.is_smc]
    if not any(s >= need for s in sizes):
        raise RuleViolation(f"a {machine.machines.name.lower()}-machine counter can only be moved by a {need}-size unit; "
                            f"{', '.join(u.id for u in movers) or 'nobody'} is smaller", field=field, value=machine.id, rule="ASL-MOV-01")


def required_capacity(rules: Rules, machine: Motorcycle, riders: list[Infantry]) -> Capacity | None:
    """D15.52: the smallest counter (no bigger than the current one) that carries the riders; None for no riders."""
    if not riders:
        return None
    for cap in (Capacity.SINGLE, Capacity.TWO, Capacity.THREE):
        if cap > machine.machines:
            break
        try:
            check_capacity(rules, replace(machine, machines=cap), riders)
        except RuleViolation:
            continue
        return cap
    return machine.machines


def check_not_carried(carried_by: str | None, machine_id: str, field: str) -> None:
    """ASL-MOV-01 (D15.4): a vehicle may not carry or tow a motorcycle."""
    if carried_by:
        raise RuleViolation(f"a vehicle ({carried_by}) may not carry or tow a motorcycle", field=field, value=machine_id, rule="ASL-MOV-01")


def bog_check_required(machine: Motorcycle) -> bool:
    """ASL-MOV-03 (D15.47): motorcycles never bog; bicycles are not vehicles. Always False."""
    return False


def case_j_applies(machine: Motorcycle) -> bool:
    """ASL-TGT-01 (D15.5, C6 Case J): a motorcycle moving or in Motion; never a bicycle (not a vehicle, D15.85)."""
    return not machine.is_bicycle and machine.motion.is_moving


# --- movement figures (D15.41, D15.46) ------------------------------------------------------

def mount_cost(settings: MotorcycleSettings, machine: Motorcycle) -> tuple[int, Fraction]:
    """ASL-MOV-02 (D15.41): mounting or dismounting costs the rider 1 MF and the motorcycle
    1/4 of its MP allotment; bicycles cost nothing (ASL-BIC-01, D15.81)."""
    if machine.is_bicycle:
        return 0, Fraction(0)
    return settings.mount_mf, settings.mount_fraction * (machine.mp or 0)


def riding_mf(settings: MotorcycleSettings, machine: Motorcycle, riding_mp: Fraction) -> int:
    """ASL-MOV-02 (D15.41 and the SPEC ruling): the rider loses 1 MF per quarter (FRU) of the
    allotment spent riding; the mount's own quarter is paid by its 1 MF."""
    if riding_mp <= 0:
        return 0
    quarter = settings.mount_fraction * (machine.mp or 0)
    return ceil(riding_mp / quarter)


def wreck_check_required(rules: Rules, machine: Motorcycle, target: Hex, hexside: Hexside) -> bool:
    """ASL-MOV-06 (D15.46): riding into shellholes or a stream, or across a non-road hexside by an
    Elevated Road, Double Crest or Abrupt Elevation Change; bicycles skip shellholes (ASL-BIC-02)."""
    s = motorcycle_settings(rules)
    features = set(target.features) & s.wreck_features
    if machine.is_bicycle:
        features -= s.bicycle_wreck_exempt
    return bool(features) or str(hexside) in s.wreck_hexsides


def wreck_dismount_hex(board: Board, leaving: str, entering: str) -> str:
    """ASL-MOV-06 (D15.46): the wreck happens at the hex being left, unless the hex entered has a lower base level."""
    return entering if board.hex(entering).level < board.hex(leaving).level else leaving


def push_drm(rules: Rules, machine: Motorcycle, pushers: list[Infantry], extra: tuple[Modifier, ...] = ()) -> tuple[Modifier, ...]:
    """ASL-MOV-01 (D15.4): a single-machine counter Pushed by an SMC with a second SMC helping: -1;
    the MMC Gun-pushing DRM (C10.3) come from the declaration (`extra`)."""
    mods = list(extra)
    if machine.machines is Capacity.SINGLE and sum(1 for u in pushers if u.is_smc) >= 2:
        mods.append(Modifier("second SMC helping to push", motorcycle_settings(rules).second_smc_helping, "ASL-MOV-01"))
    return tuple(mods)


# --- fire by and at riders (D15.43, D15.6) ---------------------------------------------------

def check_overrun(machine: Motorcycle) -> None:
    """ASL-MOV-04 (D15.43): only a sidecar may overrun; ASL-BIC-02 (D15.83): never a bicycle."""
    if machine.is_bicycle:
        raise RuleViolation("bicycles may not make an overrun", field="fire.firer", value=machine.id, rule="ASL-BIC-02")
    if machine.type is not MachineType.SIDECAR:
        raise RuleViolation("only a sidecar may overrun; a cycle may only ride through", field="fire.firer", value=machine.id, rule="ASL-MOV-04")


def check_overrun_moment(machine: Motorcycle, target_hex: str, phase: Phase, range_hexes: int, field: str) -> None:
    """ASL-MOV-04 (D15.43): a sidecar overruns as a vehicle does, in its own MPh, while moving,
    against the hex it has entered (range 0): not from a stopped counter, not in a fire phase, not
    at another hex."""
    if phase is not Phase.MPH:
        raise RuleViolation("an overrun is made in the sidecar's own MPh, as it enters the hex", field=f"{field}.phase",
                            value=str(phase), rule="ASL-MOV-04")
    if machine.motion is not Motion.MOVING:
        raise RuleViolation(f"{machine.id} is {machine.motion}: only a sidecar moving in its MPh overruns", field=f"{field}.machine",
                            value=machine.id, rule="ASL-MOV-04")
    if machine.hex != target_hex:
        raise RuleViolation(f"{machine.id} is in {machine.hex}: a sidecar overruns the hex it has entered", field=f"{field}.target",
                            value=target_hex, rule="ASL-MOV-04")
    if range_hexes != 0:
        raise RuleViolation("an overrun is made in the target's own Location (range 0)", field=f"{field}.range", value=range_hexes,
                            rule="ASL-MOV-04")


def overrun_rider_fp(rules: Rules, riders: list[Infantry], multiplier: int = 1) -> Fraction:
    """ASL-MOV-04 (D15.43): a sidecar's overrun adds 1/4 of its good-order riders' FP, after the
    TPBF multiplier (`multiplier`)."""
    fp = sum(u.fp for u in riders if is_good_order(u))
    return motorcycle_settings(rules).overrun_fraction * fp * multiplier


def rider_fire_multiplier(rules: Rules, situation: Situation, unit: Infantry, weapon_type: str | None) -> Fraction:
    """ASL-FIRE-01 (D15.6), ASL-BIC-01: cycle and bicycle riders cannot fire on the IFT; sidecar
    riders fire at half FP (Mounted Fire), use only an LMG or thrown DC, and a single sidecar
    needs two SMC riders to use one. Units not riding fire normally (1)."""
    machine = situation.mount_of(unit.id)
    if machine is None:
        return Fraction(1)
    if machine.is_bicycle:
        raise RuleViolation("a mounted bicyclist cannot attack on the IFT or CCT", field="fire.firers", value=unit.id, rule="ASL-BIC-01")
    if machine.type is MachineType.CYCLE:
        raise RuleViolation("riders mounted on a cycle cannot attack on the IFT or CCT", field="fire.firers", value=unit.id, rule="ASL-FIRE-01")
    s = motorcycle_settings(rules)
    if weapon_type is not None:
        if weapon_type not in s.sidecar_support_weapons:
            raise RuleViolation(f"sidecar riders may only use {' or '.join(sorted(s.sidecar_support_weapons))}",
                                field="fire.weapon", value=weapon_type, rule="ASL-FIRE-01")
        smc = sum(1 for u in situation.riders(machine) if u.is_smc)
        if machine.machines is Capacity.SINGLE and smc < s.single_sidecar_sw_smc:
            raise RuleViolation(f"a single sidecar needs {s.single_sidecar_sw_smc} SMC riders to use a support weapon",
                                field="fire.weapon", value=weapon_type, rule="ASL-FIRE-01")
    return s.sidecar_mounted_fire


def check_close_combat(situation: Situation, unit: Infantry) -> None:
    """ASL-FIRE-01 (D15.6), ASL-BIC-01: riders mounted on a cycle or bicycle cannot attack in CC."""
    machine = situation.mount_of(unit.id)
    if machine is not None and machine.type in (MachineType.CYCLE, MachineType.BICYCLE):
        rule = "ASL-BIC-01" if machine.is_bicycle else "ASL-FIRE-01"
        raise RuleViolation(f"riders mounted on a {machine.type} cannot attack in Close Combat", field="unit", value=unit.id, rule=rule)


# --- counters as support weapons (D15.5, D15.7) ----------------------------------------------

def is_support_weapon(machine: Motorcycle) -> bool:
    """ASL-RES-05 (D15.5): an unmounted motorcycle is a SW for self- and Random Destruction;
    a bicycle is always a SW (ASL-BIC-01, D15.8)."""
    return not machine.removed and (machine.is_bicycle or not machine.riders)


def recover(rules: Rules, situation: Situation, machine_id: str, unit_id: str, dice: DiceSource) -> tuple[Situation, list[Event]]:
    """ASL-RES-05 (D15.7): an unmounted motorcycle is Recovered like a SW (a dr at or under the
    recovery number), never captured like a vehicle, and changes sides with no captured-use penalty."""
    machine = situation.machine(machine_id)
    unit = situation.unit(unit_id)
    if not is_support_weapon(machine):
        raise RuleViolation("only an unmounted motorcycle can be Recovered", field="motorcycle", value=machine_id, rule="ASL-RES-05")
    if machine.hex != unit.hex or not is_good_order(unit):
        raise RuleViolation("the recovering unit must be in good order in the motorcycle's Location", field="unit", value=unit_id, rule="ASL-RES-05")
    roll = dice.roll("dr", f"Recovery of {machine_id} by {unit_id}", "ASL-RES-05")
    events: list[Event] = [roll]
    if roll.total <= motorcycle_settings(rules).recovery_max:
        events.append(CounterChanged(machine_id, f"{machine.side} {machine.label()}", f"{unit.side} {machine.label()}", (),
                                     "Recovered like a SW; no captured-use penalty", "ASL-RES-05"))
        return situation.with_machine(replace(machine, side=unit.side)), events
    events.append(CounterChanged(machine_id, machine.label(), machine.label(), (), "Recovery failed", "ASL-RES-05"))
    return situation, events


# --- counter substitution, splitting, recombining (D15.44, D15.52, D15.53) -------------------

def smc_groups(rules: Rules, machine: Motorcycle, smc: list[Infantry]) -> list[list[Infantry]]:
    """D15.44, D15.52: SMC left without an MMC to move their counter ride single-machine counters,
    as many to a counter as a single machine of that type carries (two; three on a sidecar)."""
    limit = capacity_spec(rules, Capacity.SINGLE).smc_limit(machine.type)
    if limit < 1:       # house rules with no SMC on a single machine: nothing to split into
        return [smc]
    return [smc[i:i + limit] for i in range(0, len(smc), limit)]


def substitute_counter(rules: Rules, situation: Situation, machine_id: str, why: str, rule: str) -> tuple[Situation, list[Event]]:
    """D15.52 (ASL-RES-02): after riders are eliminated or reduced, the counter shrinks to what the
    survivors need; with no rider left it is removed, with no wreck or blaze (ASL-RES-01). SMC left
    with no MMC, more than one machine carries, cannot Start the bigger counter (ASL-MOV-01): it is
    replaced by single-machine counters (`smc_groups`), the first keeping the counter's id, the
    others named "<counter>+<first rider>", each in the counter's hex, Motion and VCA."""
    machine = situation.machine(machine_id)
    alive = [u for u in situation.riders(machine) if not u.eliminated]
    if len(alive) != len(machine.riders):
        machine_after = replace(machine, riders=tuple(u.id for u in alive))
    else:
        machine_after = machine
    if not alive:
        if not machine.riders:
            return situation, []
        gone = replace(machine, riders=(), removed=True, motion=Motion.STOPPED)
        return situation.with_machine(gone), [CounterChanged(machine.id, machine.label(), "removed (no wreck, no blaze)", (), why, rule)]
    groups = smc_groups(rules, machine, alive) if all(u.is_smc for u in alive) else []
    if len(groups) > 1 and all(groups):
        first = replace(machine_after, machines=Capacity.SINGLE, riders=tuple(u.id for u in groups[0]))
        after = situation.with_machine(first)
        events: list[Event] = [CounterChanged(machine.id, machine.label(), first.label(), first.riders, why, rule)]
        for grp in groups[1:]:
            single = replace(first, id=f"{machine.id}+{grp[0].id}", riders=tuple(u.id for u in grp))
            after = after.with_machine(single)
            events.append(CounterChanged(single.id, "(none)", single.label(), single.riders,
                                         "single-machine counter for SMC left without an MMC", rule))
        return after, events
    cap = required_capacity(rules, machine_after, alive)
    if cap == machine.machines and machine_after == machine:
        return situation, []
    new = replace(machine_after, machines=cap)
    events: list[Event] = []
    if cap != machine.machines:
        events.append(CounterChanged(machine.id, machine.label(), new.label(), new.riders, why, rule))
    return situation.with_machine(new), events


def split_smc(rules: Rules, situation: Situation, machine_id: str, smc_id: str, new_id: str, why: str,
              rule: str = "ASL-MOV-05") -> tuple[Situation, list[Event]]:
    """ASL-MOV-05 (D15.44): an SMC riding an MMC counter takes a single-machine counter of the same
    type, in the same hex and motion, to move on alone or to absorb combat losses (D15.53)."""
    machine = situation.machine(machine_id)
    unit = situation.unit(smc_id)
    if smc_id not in machine.riders:
        raise RuleViolation("the SMC does not ride this counter", field="unit", value=smc_id, rule=rule)
    if not unit.is_smc:
        raise RuleViolation("only an SMC splits off a single-machine counter", field="unit", value=smc_id, rule=rule)
    if machine.machines is Capacity.SINGLE:
        raise RuleViolation("only an MMC counter (two or three machines) can be split", field="motorcycle", value=machine_id, rule=rule)
    if situation.has_machine(new_id):
        raise ScenarioError("a counter with that id exists already", field="new_id", value=new_id, rule="CLI-02")
    single = replace(machine, id=new_id, machines=Capacity.SINGLE, riders=(smc_id,))
    rest = replace(machine, riders=tuple(r for r in machine.riders if r != smc_id))
    after = situation.with_machine(rest).with_machine(single)
    return after, [CounterChanged(new_id, "(none)", single.label(), single.riders, why, rule)]


def deploy_squad(rules: Rules, situation: Situation, machine_id: str, squad_id: str, hs_ids: tuple[str, str], new_id: str
                 ) -> tuple[Situation, list[Event]]:
    """ASL-MOV-05 (D15.44): a squad on a motorcycle that Deploys into two HS flips its counter to
    the HS side and gets a second HS counter for the other HS; its SMC stay on the first."""
    machine = situation.machine(machine_id)
    squad = situation.unit(squad_id)
    if squad.type is not UnitType.SQUAD or squad_id not in machine.riders:
        raise RuleViolation("only a squad riding the counter deploys", field="unit", value=squad_id, rule="ASL-MOV-05")
    if situation.has_machine(new_id) or any(any(u.id == h for u in situation.units) for h in hs_ids if h != squad_id):
        raise ScenarioError("id already in use", field="new_id", value=new_id, rule="CLI-02")
    fp, rng, morale, _ = parse_designation(squad.half_squad or "", UnitType.HALF_SQUAD, f"{squad_id}.half_squad")
    hs = [replace(squad, id=h, type=UnitType.HALF_SQUAD, designation=squad.half_squad, fp=fp, range=rng, morale=morale,
                  half_squad=None, weapons=squad.weapons if i == 0 else ()) for i, h in enumerate(hs_ids)]
    units = tuple(u for u in situation.units if u.id != squad_id) + tuple(hs)
    first = replace(machine, machines=Capacity.TWO, riders=tuple(hs_ids[0] if r == squad_id else r for r in machine.riders))
    second = replace(machine, id=new_id, machines=Capacity.TWO, riders=(hs_ids[1],))
    after = Situation(units, situation.machines).with_machine(first).with_machine(second)
    return after, [CounterChanged(machine_id, machine.label(), first.label(), first.riders, "squad Deployed", "ASL-MOV-05"),
                   CounterChanged(new_id, "(none)", second.label(), second.riders, "second HS counter", "ASL-MOV-05")]


def recombine_unmounted(rules: Rules, situation: Situation, machine_ids: tuple[str, ...], new_id: str) -> tuple[Situation, list[Event]]:
    """ASL-MOV-05 (D15.44): unmounted counters of one type in one Location recombine into a larger
    counter when their machines add up to two or three."""
    machines = [situation.machine(m) for m in machine_ids]
    if len(machines) < 2:
        raise RuleViolation("recombining needs two or more counters", field="motorcycles", value=list(machine_ids), rule="ASL-MOV-05")
    if len({m.type for m in machines}) != 1 or len({m.hex for m in machines}) != 1:
        raise RuleViolation("only counters of one type in one Location recombine", field="motorcycles", value=list(machine_ids), rule="ASL-MOV-05")
    if any(m.riders or m.removed for m in machines):
        raise RuleViolation("counters recombine only while unmounted (or when their riders recombine)", field="motorcycles",
                            value=list(machine_ids), rule="ASL-MOV-05")
    total = sum(m.machines.value for m in machines)
    if total not in (2, 3):
        raise RuleViolation(f"{total} machines make no counter (two or three)", field="motorcycles", value=list(machine_ids), rule="ASL-MOV-05")
    new = replace(machines[0], id=new_id, machines=Capacity(total), motion=Motion.STOPPED)
    rest = tuple(m for m in situation.machines if m.id not in machine_ids)
    after = Situation(situation.units, rest).with_machine(new)
    return after, [CounterChanged(new_id, " + ".join(machine_ids), new.label(), (), "recombined", "ASL-MOV-05")]


def recombine_riders(rules: Rules, situation: Situation, machine_ids: tuple[str, str], squad: Infantry, new_id: str
                     ) -> tuple[Situation, list[Event]]:
    """ASL-MOV-05 (D15.44, A1.32): two HS-size counters whose HS recombine into a squad become one
    squad-size counter carrying the squad and every SMC of both."""
    a, b = (situation.machine(m) for m in machine_ids)
    if a.type != b.type or a.hex != b.hex or a.machines is not Capacity.TWO or b.machines is not Capacity.TWO:
        raise RuleViolation("two HS-size counters of one type in one Location are needed", field="motorcycles",
                            value=list(machine_ids), rule="ASL-MOV-05")
    hs = [u for m in (a, b) for u in situation.riders(m) if not u.is_smc]
    if len(hs) != 2 or any(u.type is not UnitType.HALF_SQUAD or u.designation != squad.half_squad for u in hs):
        raise RuleViolation(f"each counter must carry one HS of the squad {squad.designation} ({squad.half_squad})",
                            field="motorcycles", value=list(machine_ids), rule="ASL-MOV-05")
    smc = [r for m in (a, b) for r in m.riders if situation.unit(r).is_smc]
    sq = replace(squad, hex=a.hex, side=hs[0].side)
    new = replace(a, id=new_id, machines=Capacity.THREE, riders=(sq.id, *smc))
    check_capacity(rules, new, [sq, *(situation.unit(s) for s in smc)])
    units = tuple(u for u in situation.units if u.id not in {h.id for h in hs}) + (sq,)
    rest = tuple(m for m in situation.machines if m.id not in machine_ids)
    after = Situation(units, rest).with_machine(new)
    return after, [CounterChanged(new_id, " + ".join(machine_ids), new.label(), new.riders, "riders recombined into a squad", "ASL-MOV-05")]
