"""Fire and explosion (CW-FIRE-01..05): starting, putting out, burning and exploding.

A vehicle's fire state lives in `FireState`; the end of each turn runs the
SPEC's order: roll for new fire, extinguisher, fire damage, explosion.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..data import Rules
from ..dice import DiceSource, Roll, chance, parse_dice
from ..events import Event, Modifier, Note, StateChanged
from . import geometry as geo
from .damage import Ledger, damage_armour, damage_component, damage_crew, PowerPlant
from .crew import damage_pedestrian
from .enums import Side
from .model import Arena, Vehicle
from .tables import WeaponSpec

__all__ = ["FireSource", "FireState", "fire_modifier_total", "record_fire_hit", "record_component_hit", "roll_new_fire",
           "component_fire_roll",
           "try_extinguisher", "fire_damage", "can_explode", "roll_explosion", "explode", "end_of_turn_fire"]

_D1 = parse_dice("1d")
_2D = parse_dice("2d")


@dataclass(frozen=True)
class FireSource:
    """CW-FIRE-01: a hit by a weapon on the Vehicular Fire Table: its modifier counts on the turn
    of the hit and on each of the following `burn_duration` turns."""

    weapon: str
    modifier: int
    turn: int
    burn_duration: int

    def active(self, turn: int) -> bool:
        return self.turn <= turn <= self.turn + self.burn_duration


@dataclass
class FireState:
    """Everything fire-related about one vehicle."""

    burning: bool = False
    tire_only: str | None = None        # CW-FIRE-05: a burning tire on a fireproof vehicle burns alone
    sources: list[FireSource] = field(default_factory=list)
    component_hits: list[bool] = field(default_factory=list)   # this turn's CW-FIRE-02 chances (True: fiery source)
    exploded: bool = False


def record_fire_hit(state: FireState, spec: WeaponSpec, turn: int) -> Event | None:
    """CW-FIRE-01: remember a hit by a weapon with a fire modifier."""
    if spec.fire_modifier is None:
        return None
    state.sources.append(FireSource(spec.name, spec.fire_modifier, turn, spec.burn_duration or 0))
    return Note(f"hit by {spec.name}: fire modifier {spec.fire_modifier}, burn duration {spec.burn_duration or 0} turn(s)", "CW-FIRE-01")


def record_component_hit(state: FireState, component: str, spec: WeaponSpec | None) -> Event | None:
    """CW-FIRE-02: a hit on the power plant, a flamethrower or a flaming oil jet may start a fire this turn."""
    fiery = spec is not None and spec.fiery
    state.component_hits.append(fiery)
    return Note(f"{component} hit{' by ' + spec.name if spec else ''}: a chance of fire at the end of the turn", "CW-FIRE-02")


def fire_modifier_total(state: FireState, turn: int) -> tuple[int, list[Modifier]]:
    """CW-FIRE-01: the sum of every active fire modifier this turn (they add up)."""
    mods = [Modifier(f"{s.weapon} ({'hit this turn' if s.turn == turn else f'burning, turn {turn - s.turn} of {s.burn_duration}'})",
                     s.modifier, "CW-FIRE-01") for s in state.sources if s.active(turn)]
    return sum(m.value for m in mods), mods


def _in(band: Sequence[int], v: int) -> bool:
    return band[0] <= v <= band[1]


def roll_new_fire(rules: Rules, vehicle: Vehicle, state: FireState, turn: int, dice: DiceSource) -> list[Event]:
    """CW-FIRE-01 / CW-FIRE-02 / CW-FIRE-05: roll for a new fire at the end of the turn.

    2d6 at or under the sum of the active fire modifiers; then, if the power
    plant, a flamethrower or a flaming oil jet was hit this turn, ONE 1d roll
    for the vehicle however many such hits it took (SPEC ruling): 1-2, or 1-4
    if any of that damage came from a laser, flamethrower or flaming oil jet.
    Fireproof armour that holds keeps the fire-modifier roll from starting a fire.
    """
    out: list[Event] = []
    if state.burning:
        state.component_hits.clear()
        return out
    total, mods = fire_modifier_total(state, turn)
    if total > 0:
        out += mods
        if vehicle.fireproof:
            out.append(Note(f"{vehicle.id}: fireproof armour holds: no fire from the fire modifiers", "CW-FIRE-05"))
        else:
            r, rolls = chance(dice, Roll(_2D, f"{vehicle.id}: fire from fire modifiers (needs {total} or less)", "CW-FIRE-01",
                                         key=lambda v: v <= total))
            out += rolls
            if r.total <= total:
                state.burning = True
                out.append(StateChanged(vehicle.id, "on fire", False, True, "CW-FIRE-01"))
    if state.component_hits and not state.burning:
        out += component_fire_roll(rules, vehicle, state, dice)
    state.component_hits.clear()
    return out


def component_fire_roll(rules: Rules, vehicle: Vehicle, state: FireState, dice: DiceSource) -> list[Event]:
    """CW-FIRE-02 (SPEC ruling): the power plant, a flamethrower or a flaming oil jet was hit this turn: one 1d roll
    for the vehicle, 2 in 6 for fire, 4 in 6 if any of those hits came from a laser, flamethrower or flaming oil jet."""
    t = rules["carwars.fire"]["start"]
    band = t["component_hit_fiery"] if any(state.component_hits) else t["component_hit"]
    hits = len(state.component_hits)
    r, rolls = chance(dice, Roll(_D1, f"{vehicle.id}: fire from {hits} hit(s) on the power plant or a fire weapon this turn "
                                      f"(one roll a turn, needs {band[1]} or less)", "CW-FIRE-02", key=lambda v: _in(band, v)))
    out: list[Event] = list(rolls)
    if _in(band, r.total):
        state.burning = True
        out.append(StateChanged(vehicle.id, "on fire", False, True, "CW-FIRE-02"))
    return out


def try_extinguisher(rules: Rules, vehicle: Vehicle, state: FireState, dice: DiceSource) -> list[Event]:
    """CW-FIRE-03: a burning vehicle's extinguisher puts the fire out on 1-3 (improved 1-4).
    A portable one cannot put out a tire burning alone on a fireproof vehicle (CW-FIRE-05)."""
    kind = vehicle.extinguisher
    if not state.burning or kind == "none":
        return []
    if kind == "portable" and state.tire_only is not None:
        return [Note(f"{vehicle.id}: a portable extinguisher cannot reach the burning tire", "CW-FIRE-05")]
    band = rules["carwars.fire"]["extinguisher"][kind]
    r, rolls = chance(dice, Roll(_D1, f"{vehicle.id}: {kind} fire extinguisher (needs {band[1]} or less)", "CW-FIRE-03",
                                 key=lambda v: _in(band, v)))
    out: list[Event] = list(rolls)
    if _in(band, r.total):
        state.burning, state.tire_only = False, None
        out.append(StateChanged(vehicle.id, "on fire", True, False, "CW-FIRE-03"))
    return out


def fire_damage(rules: Rules, vehicle: Vehicle, state: FireState) -> Ledger:
    """CW-FIRE-03: a fire not put out: 1 hit to every occupant (body armour first), every component
    (tires included) and 1 point off every armour location. A tire burning alone hurts only itself."""
    n = rules["carwars.fire"]["damage"]["per_turn"]
    ledger = Ledger(vehicle.id)
    ledger.note(f"{vehicle.id} burns", "CW-FIRE-03")

    def hit(fn, *args) -> None:
        ledger.dealt += n
        rest = fn(*args)
        ledger.pass_out(rest, "of fire damage find nothing left to burn", "CW-FIRE-03")

    if state.tire_only is not None:
        hit(damage_component, vehicle, vehicle.tire(state.tire_only), n, ledger, "CW-FIRE-05")
        return ledger
    for person in vehicle.all_crew():
        hit(damage_crew, vehicle, person, n, ledger)
    for comp in [*vehicle.all_weapons(), *vehicle.cargo, *vehicle.tires] + ([vehicle.sidecar.tire] if vehicle.sidecar else []):
        if comp.dp > 0:
            hit(damage_component, vehicle, comp, n, ledger, "CW-FIRE-03")
    if vehicle.power_plant:
        hit(damage_component, vehicle, PowerPlant(vehicle), n, ledger, "CW-FIRE-03")
    for side in Side:
        if vehicle.armour[side] > 0:
            hit(damage_armour, vehicle, side, n, ledger)
    if vehicle.sidecar:
        for side, pts in vehicle.sidecar.armour.items():
            if pts > 0:
                hit(damage_armour, vehicle, side, n, ledger, vehicle.sidecar.armour, f"sidecar {side} armour")
    return ledger


def can_explode(vehicle: Vehicle) -> bool:
    """CW-FIRE-03: a burning vehicle carrying a flamethrower, flaming oil jet, any rocket or missile, or an AT gun may explode."""
    return any(w.spec.explosive for w in vehicle.all_weapons())


def roll_explosion(rules: Rules, vehicle: Vehicle, state: FireState, dice: DiceSource) -> tuple[bool, list[Event]]:
    """CW-FIRE-03: still burning after the damage, and carrying something that explodes: 1d, on 1 it explodes."""
    if not state.burning or state.tire_only is not None or not can_explode(vehicle):
        return False, []
    band = rules["carwars.fire"]["explosion"]["roll"]
    r, rolls = chance(dice, Roll(_D1, f"{vehicle.id}: does the burning vehicle explode (on {band[0]})", "CW-FIRE-03",
                                 key=lambda v: _in(band, v)))
    return _in(band, r.total), list(rolls)


def _exposed_side(victim: Vehicle, centre: tuple[float, float]) -> Side:
    """CW-FIRE-04: the side facing the blast; of two, the owner's pick (RULING: the one with more armour left)."""
    sides = [Side.parse(s) for s in ("front", "back", "left", "right") if s in geo.facing_sides(victim.counter, centre)]
    if not sides:
        return Side.UNDERBODY
    return max(sides, key=lambda s: (victim.armour[s], -int(s)))


def explode(rules: Rules, arena: Arena, vehicle: Vehicle, state: FireState, dice: DiceSource) -> list[Event]:
    """CW-FIRE-04: all occupants die; pedestrians and vehicles within 2" take 1d on their exposed side."""
    from .damage import Shot, apply_shot

    t = rules["carwars.fire"]["explosion"]
    out: list[Event] = [StateChanged(vehicle.id, "exploded", False, True, "CW-FIRE-04")]
    state.exploded, state.burning = True, False
    for person in vehicle.all_crew():
        if person.hits < 3:
            out.append(StateChanged(f"{vehicle.id} {person.id}", "state", str(person.state), "dead", "CW-FIRE-04"))
            person.hits, person.body_armour = 3, 0
    centre = (vehicle.x, vehicle.y)
    blast = parse_dice(t["damage"])
    for other in arena.vehicles.values():
        if other is vehicle:
            continue
        if geo.distance(geo.nearest_point(other.counter.polygon(), centre), centre) <= t["radius"] + 1e-9:
            side = _exposed_side(other, centre)
            r = dice.roll(blast, f"explosion of {vehicle.id} on {other.id} {side}", "CW-FIRE-04")
            out.append(r)
            out += apply_shot(rules, other, Shot(r.total, side, attack=f"{vehicle.id} explosion"), dice).events
    for ped in arena.pedestrians.values():
        if geo.distance(geo.nearest_point(ped.counter.polygon(), centre), centre) <= t["radius"] + 1e-9:
            r = dice.roll(blast, f"explosion of {vehicle.id} on {ped.id}", "CW-FIRE-04")
            ledger = Ledger(ped.id, dealt=r.total)
            ledger.events.append(r)
            damage_pedestrian(ped, r.total, ledger)
            out += ledger.events
    return out


def end_of_turn_fire(rules: Rules, arena: Arena, fires: dict[str, FireState], turn: int, dice: DiceSource) -> list[Event]:
    """CW-FIRE-03: for each vehicle in turn: new fire, extinguisher, fire damage, explosion."""
    out: list[Event] = []
    for v in arena.vehicles.values():
        state = fires.setdefault(v.id, FireState())
        if state.exploded:
            continue
        out += roll_new_fire(rules, v, state, turn, dice)
        was_burning = state.burning
        out += try_extinguisher(rules, v, state, dice)
        if was_burning and not state.burning:
            continue  # put out at once: no fire damage this turn
        if state.burning:
            out += fire_damage(rules, v, state).events
            boom, events = roll_explosion(rules, v, state, dice)
            out += events
            if boom:
                out += explode(rules, arena, v, state, dice)
    return out
