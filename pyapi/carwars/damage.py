"""Car Wars damage: recording, location and penetration (CW-DMG-01..05, CW-TGT-04..06, CW-CREW-01).

Each rule is one function that takes the vehicle, the hits still travelling,
the dice source and a `Ledger`, applies what the rule decides and returns the
hits it passes on. The ledger collects the events and keeps the books:
hits dealt = hits absorbed + hits passed out harmlessly or lost.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..data import Rules
from ..dice import DiceSource, Pick, Roll, chance, parse_dice
from ..events import DamageApplied, Event, Note, StateChanged
from .enums import Location, Mount, Side
from .model import CargoItem, CrewMember, Tire, Vehicle, Weapon

__all__ = [
    "Ledger", "random_pick", "damage_armour", "damage_component", "damage_crew", "penetrate_end", "penetrate_flank",
    "penetrate_vertical", "damage_turret", "damage_tire", "cycle_hit_location", "sidecar_share", "sidecar_hit",
    "trike_end_hit", "apply_shot", "Shot", "hazard_difficulty",
]

_D1 = parse_dice("1d")
_2D = parse_dice("2d")


@dataclass
class Ledger:
    """Events of one shot (or collision) and the conservation books."""

    target: str
    dealt: int = 0
    absorbed: int = 0
    lost: int = 0
    events: list[Event] = field(default_factory=list)
    worn_armour: int = 0      # of `absorbed`, the hits taken by an occupant's body armour (no hazard, CW-CREW-01)

    @property
    def hazard_hits(self) -> int:
        """CW-DMG-01 / CW-CREW-01: the hits that count for the vehicle's hazard: all but those its occupants'
        body armour took."""
        return self.dealt - self.worn_armour

    def note(self, text: str, rule: str) -> None:
        self.events.append(Note(text, rule))

    def pass_out(self, hits: int, why: str, rule: str) -> None:
        """Hits that leave the vehicle or are lost: they are booked, not absorbed."""
        if hits > 0:
            self.lost += hits
            self.note(f"{hits} hit(s) {why}", rule)


def random_pick(dice: DiceSource, n: int, why: str, ledger: Ledger, rule: str) -> int:
    """A uniform pick among n candidates with d6 (docs/rulings.md, "random picks"): the chance point
    `Pick` (one candidate: no roll; up to six: one die, the faces split evenly and the rest re-rolled;
    up to 36: two dice, re-rolled above the largest multiple of n). Its dice go to the ledger."""
    index, rolls = chance(dice, Pick(n, why, rule))
    ledger.events += rolls
    return index


# --- absorbing hits -----------------------------------------------------------------

def damage_armour(vehicle: Vehicle, side: Side, hits: int, ledger: Ledger, armour: dict[Side, int] | None = None,
                  label: str | None = None) -> int:
    """CW-DMG-01: armour loses one point per hit; what it cannot stop goes inward."""
    armour = vehicle.armour if armour is None else armour
    before = armour[side]
    taken = min(before, hits)
    if taken:
        armour[side] = before - taken
        ledger.absorbed += taken
        ledger.events.append(DamageApplied(vehicle.id, label or f"{side} armour", taken, before, before - taken, "CW-DMG-01"))
    return hits - taken


def damage_component(vehicle: Vehicle, comp: Weapon | CargoItem | Tire | "PowerPlant", hits: int, ledger: Ledger,
                     rule: str = "CW-DMG-01") -> int:
    """CW-DMG-01 / CW-DMG-05: a component absorbs hits up to its remaining DP; a destroyed one passes all on."""
    if isinstance(comp, CrewMember):
        return damage_crew(vehicle, comp, hits, ledger)
    before = comp.dp
    taken = min(before, hits)
    if taken:
        comp.dp = before - taken
        ledger.absorbed += taken
        ledger.events.append(DamageApplied(vehicle.id, _name(comp), taken, before, before - taken, rule))
        if comp.dp == 0:
            ledger.events.append(StateChanged(f"{vehicle.id} {_name(comp)}", "destroyed", False, True, "CW-VEH-03"))
    elif hits:
        ledger.note(f"{_name(comp)} is already destroyed: the hits pass through", "CW-DMG-05")
    return hits - taken


def damage_crew(vehicle: Vehicle | None, person: CrewMember, hits: int, ledger: Ledger, owner: str | None = None) -> int:
    """CW-CREW-01: body armour (3 DP) takes hits first; then 1st hit wounded, 2nd unconscious, 3rd dead."""
    who = owner or (vehicle.id if vehicle else person.id)
    rest = hits
    if person.body_armour and rest:
        taken = min(person.body_armour, rest)
        ledger.events.append(DamageApplied(who, f"{person.id} body armour", taken, person.body_armour, person.body_armour - taken, "CW-CREW-01"))
        person.body_armour -= taken
        ledger.absorbed += taken
        ledger.worn_armour += taken
        rest -= taken
    if rest:
        state_before = person.state
        taken = min(rest, max(0, 3 - person.hits))
        if taken:
            ledger.events.append(DamageApplied(who, person.id, taken, 3 - person.hits, 3 - person.hits - taken, "CW-CREW-01"))
            person.hits += taken
            ledger.absorbed += taken
            rest -= taken
            ledger.events.append(StateChanged(f"{who} {person.id}", "state", str(state_before), str(person.state), "CW-CREW-01"))
        elif rest:
            ledger.note(f"{person.id} is already dead: the hits pass through", "CW-DMG-05")
    return rest


class PowerPlant:
    """Adapter giving the vehicle's power plant the component interface (`dp`)."""

    def __init__(self, vehicle: Vehicle) -> None:
        self.vehicle = vehicle

    @property
    def dp(self) -> int:
        return self.vehicle.power_plant or 0

    @dp.setter
    def dp(self, value: int) -> None:
        self.vehicle.power_plant = value


def _name(comp: object) -> str:
    if isinstance(comp, Weapon):
        return f"weapon {comp.id}"
    if isinstance(comp, CargoItem):
        return f"cargo {comp.id}"
    if isinstance(comp, Tire):
        return f"tire {comp.id}"
    if isinstance(comp, PowerPlant):
        return "power plant"
    if isinstance(comp, CrewMember):
        return comp.id
    return str(comp)


def _pick_and_damage(vehicle: Vehicle, items: Sequence[object], hits: int, dice: DiceSource, ledger: Ledger,
                     why: str, rule: str) -> int:
    """CW-DMG-02/05: one item of a group takes the shot (random if several, destroyed ones included)."""
    if not items or hits <= 0:
        return hits
    item = items[random_pick(dice, len(items), why, ledger, rule)]
    return damage_component(vehicle, item, hits, ledger)  # type: ignore[arg-type]


def _weapons_on(vehicle: Vehicle, mount: Mount) -> list[Weapon]:
    return [w for w in vehicle.weapons if w.mount is mount]


def _location_items(vehicle: Vehicle, loc: Location) -> list[object]:
    """The items of an internal location (CW-VEH-04): crew compartment, power plant, cargo."""
    if loc is Location.CREW:
        return list(vehicle.crew)
    if loc is Location.POWER_PLANT:
        return [PowerPlant(vehicle)] if vehicle.power_plant is not None else []
    return list(vehicle.cargo)


# --- penetration ----------------------------------------------------------------------

def penetrate_end(vehicle: Vehicle, side: Side, hits: int, dice: DiceSource, ledger: Ledger) -> int:
    """CW-DMG-02: from the front: front armour, one front weapon, one item of each internal
    location front to back, one back weapon, back armour (from the back, the reverse).
    Left-over hits go inward, never sideways to a second weapon of the same side."""
    far = side.opposite
    hits = damage_armour(vehicle, side, hits, ledger)
    hits = _pick_and_damage(vehicle, _weapons_on(vehicle, Mount(int(side))), hits, dice, ledger, f"which {side} weapon", "CW-DMG-02")
    order = vehicle.layout if side is Side.FRONT else tuple(reversed(vehicle.layout))
    for loc in order:
        if hits <= 0:
            break
        items = _location_items(vehicle, loc)
        if not items:
            ledger.note(f"{loc} location is empty: it passes the hits on", "CW-DMG-05")
            continue
        hits = _pick_and_damage(vehicle, items, hits, dice, ledger, f"which item of the {loc} location", "CW-DMG-02")
    hits = _pick_and_damage(vehicle, _weapons_on(vehicle, Mount(int(far))), hits, dice, ledger, f"which {far} weapon", "CW-DMG-02")
    return damage_armour(vehicle, far, hits, ledger)


def penetrate_flank(vehicle: Vehicle, side: Side, hits: int, dice: DiceSource, ledger: Ledger) -> int:
    """CW-DMG-03: from a side: its armour, one of its weapons, ONE internal location at random
    (re-rolled for locations that do not exist), one far-side weapon, the far armour."""
    far = side.opposite
    hits = damage_armour(vehicle, side, hits, ledger)
    hits = _pick_and_damage(vehicle, _weapons_on(vehicle, Mount(int(side))), hits, dice, ledger, f"which {side} weapon", "CW-DMG-03")
    if hits > 0 and vehicle.layout:
        loc = vehicle.layout[random_pick(dice, len(vehicle.layout), "which internal location", ledger, "CW-DMG-03")]
        items = _location_items(vehicle, loc)
        if items:
            hits = _pick_and_damage(vehicle, items, hits, dice, ledger, f"which item of the {loc} location", "CW-DMG-03")
        else:
            ledger.note(f"{loc} location is empty: it passes the hits on", "CW-DMG-05")
    hits = _pick_and_damage(vehicle, _weapons_on(vehicle, Mount(int(far))), hits, dice, ledger, f"which {far} weapon", "CW-DMG-03")
    return damage_armour(vehicle, far, hits, ledger)


def _vertical_pick(vehicle: Vehicle, hits: int, dice: DiceSource, ledger: Ledger) -> int:
    """CW-DMG-04 (RULING): one random pick among the power plant, each crew member and the cargo location."""
    candidates: list[object] = []
    if vehicle.power_plant is not None:
        candidates.append(PowerPlant(vehicle))
    candidates += vehicle.crew
    if Location.CARGO in vehicle.layout:
        candidates.append(Location.CARGO)
    if not candidates or hits <= 0:
        return hits
    choice = candidates[random_pick(dice, len(candidates), "power plant, crew member or cargo", ledger, "CW-DMG-04")]
    if choice is Location.CARGO:
        if not vehicle.cargo:
            ledger.note("cargo location is empty: it passes the hits on", "CW-DMG-05")
            return hits
        return _pick_and_damage(vehicle, vehicle.cargo, hits, dice, ledger, "which cargo item", "CW-DMG-04")
    return damage_component(vehicle, choice, hits, ledger, "CW-DMG-04")  # type: ignore[arg-type]


def penetrate_vertical(vehicle: Vehicle, side: Side, hits: int, dice: DiceSource, ledger: Ledger) -> int:
    """CW-DMG-04: underbody armour, one of power plant / crew member / cargo, one turret weapon,
    top armour; from the top, the reverse."""
    turret = _weapons_on(vehicle, Mount.TURRET)
    if side is Side.UNDERBODY:
        hits = damage_armour(vehicle, Side.UNDERBODY, hits, ledger)
        hits = _vertical_pick(vehicle, hits, dice, ledger)
        hits = _pick_and_damage(vehicle, turret, hits, dice, ledger, "which turret weapon", "CW-DMG-04")
        return damage_armour(vehicle, Side.TOP, hits, ledger)
    hits = damage_armour(vehicle, Side.TOP, hits, ledger)
    hits = _pick_and_damage(vehicle, turret, hits, dice, ledger, "which turret weapon", "CW-DMG-04")
    hits = _vertical_pick(vehicle, hits, dice, ledger)
    return damage_armour(vehicle, Side.UNDERBODY, hits, ledger)


def damage_turret(vehicle: Vehicle, hits: int, dice: DiceSource, ledger: Ledger) -> int:
    """CW-DMG-04: a targeted turret: top armour, then one turret weapon; shot from the side, the rest passes over."""
    hits = damage_armour(vehicle, Side.TOP, hits, ledger)
    hits = _pick_and_damage(vehicle, _weapons_on(vehicle, Mount.TURRET), hits, dice, ledger, "which turret weapon", "CW-DMG-04")
    ledger.pass_out(hits, "pass over the vehicle", "CW-DMG-04")
    return 0


def damage_tire(vehicle: Vehicle, tire: Tire, hits: int, ledger: Ledger) -> int:
    """CW-DMG-04: a targeted tire takes the hits; the left-over is lost."""
    hits = damage_component(vehicle, tire, hits, ledger, "CW-DMG-04")
    ledger.pass_out(hits, f"left over after tire {tire.id}: lost", "CW-DMG-04")
    return 0


# --- cycles, sidecars, trikes -----------------------------------------------------------

def _in(band: Sequence[int], value: int) -> bool:
    return band[0] <= value <= band[1]


def cycle_hit_location(rules: Rules, vehicle: Vehicle, side: Side, hits: int, dice: DiceSource, ledger: Ledger) -> int:
    """CW-TGT-04: a cycle hit from front or back: 2d6 2-10 that armour (the rest, if it is gone, to the
    side table), 11-12 the exposed wheel; from a side: 2d6 2-5 driver, 6-7 power plant, 8-10 a weapon
    (random; roll again if none), 11-12 a tire (random). One component only; returns what is left."""
    t = rules["carwars.damage"]["cycle"]
    if side.is_end:
        wheel_band = t["end_wheel"]
        r, rolls = chance(dice, Roll(_2D, f"cycle hit location from the {side}", "CW-TGT-04", key=lambda v: _in(wheel_band, v)))
        ledger.events += rolls
        if _in(t["end_wheel"], r.total):
            wheel = next((x for x in vehicle.tires if x.id == str(side)), None)
            if wheel is None:
                return hits
            return damage_component(vehicle, wheel, hits, ledger, "CW-TGT-04")
        hits = damage_armour(vehicle, side, hits, ledger)
        if hits <= 0:
            return 0
        ledger.note(f"{side} armour gone: the rest goes to the side table", "CW-TGT-04")
    # one chance point: the side table, rolled again on "a weapon" when the cycle has none
    again = frozenset() if vehicle.weapons else frozenset({"weapon"})
    r, rolls = chance(dice, Roll(_2D, "cycle hit location, side table", "CW-TGT-04", key=lambda v: _side_row(t, v), again=again,
                                 again_note="the cycle has no weapon: roll again"))
    ledger.events += rolls
    if _in(t["side_driver"], r.total):
        driver = next((c for c in vehicle.crew if c.seat == "cycle"), vehicle.driver)
        return damage_crew(vehicle, driver, hits, ledger) if driver else hits
    if _in(t["side_power_plant"], r.total):
        return damage_component(vehicle, PowerPlant(vehicle), hits, ledger, "CW-TGT-04") if vehicle.power_plant is not None else hits
    if _in(t["side_weapon"], r.total):
        return _pick_and_damage(vehicle, vehicle.weapons, hits, dice, ledger, "which cycle weapon", "CW-TGT-04")
    tires = [x for x in vehicle.tires]
    return _pick_and_damage(vehicle, tires, hits, dice, ledger, "which cycle tire", "CW-TGT-04")


def _side_row(t: dict, total: int) -> str:
    """CW-TGT-04: the row of the cycle side table a 2d6 total falls in."""
    for row in ("driver", "power_plant", "weapon"):
        if _in(t[f"side_{row}"], total):
            return row
    return "tire"


def sidecar_share(rules: Rules, dice: DiceSource, ledger: Ledger) -> bool:
    """CW-TGT-05: firing at the cycle as a whole from the sidecar's side: 1d, 1-4 the cycle, 5-6 the sidecar."""
    band = rules["carwars.damage"]["sidecar"]["sidecar"]
    r, rolls = chance(dice, Roll(_D1, "cycle or sidecar", "CW-TGT-05", key=lambda v: _in(band, v)))
    ledger.events += rolls
    return _in(band, r.total)


def sidecar_hit(vehicle: Vehicle, side: Side, hits: int, dice: DiceSource, ledger: Ledger) -> int:
    """CW-TGT-05: the sidecar is a small car: that side's armour, then an equal chance of each
    interior component (weapons, rider, cargo); one component; the rest passes out."""
    sc = vehicle.sidecar
    assert sc is not None
    hits = damage_armour(vehicle, side, hits, ledger, armour=sc.armour, label=f"sidecar {side} armour")
    interior: list[object] = [*sc.weapons, *sc.crew, *sc.cargo]
    if hits > 0 and interior:
        hits = _pick_and_damage(vehicle, interior, hits, dice, ledger, "which sidecar component", "CW-TGT-05")
    ledger.pass_out(hits, "pass out of the sidecar", "CW-TGT-05")
    return 0


def trike_end_hit(rules: Rules, vehicle: Vehicle, side: Side, hits: int, dice: DiceSource, ledger: Ledger) -> int:
    """CW-TGT-06: a hit on a trike's single-wheel end (front; back if reversed): 2d6 11-12 that wheel
    (the rest is lost), 2-10 that armour and then inward as a car."""
    t = rules["carwars.damage"]["trike"]
    r, rolls = chance(dice, Roll(_2D, f"trike {side} hit: wheel or armour", "CW-TGT-06", key=lambda v: _in(t["wheel"], v)))
    ledger.events += rolls
    if _in(t["wheel"], r.total):
        wheel = next(x for x in vehicle.tires if x.id == str(side))
        hits = damage_component(vehicle, wheel, hits, ledger, "CW-TGT-06")
        ledger.pass_out(hits, "left over after the wheel: lost", "CW-TGT-06")
        return 0
    return penetrate_end(vehicle, side, hits, dice, ledger)


# --- one shot --------------------------------------------------------------------------

@dataclass(frozen=True)
class Shot:
    """Hits arriving at a vehicle: the side they come from and the part aimed at."""

    hits: int
    side: Side | None          # the side hit (None for a tire shot with no facing side)
    part: str = "side"         # side | tire | turret | rider | sidecar | top
    tire: str | None = None
    attack: str = ""
    sidecar_side: bool = False  # CW-TGT-05: fired at a cycle as a whole from its sidecar's side of the centre line


def apply_shot(rules: Rules, vehicle: Vehicle, shot: Shot, dice: DiceSource) -> Ledger:
    """Apply one hit's damage to a vehicle: location by body and aim (CW-DMG-02..05, CW-TGT-04..06)."""
    ledger = Ledger(vehicle.id, dealt=shot.hits)
    where = str(shot.side) if shot.part == "side" and shot.side is not None else (f"tire {shot.tire}" if shot.part == "tire" else shot.part)
    ledger.note(f"{shot.attack + ': ' if shot.attack else ''}{shot.hits} hit(s) on {vehicle.id} ({where})", "CW-DMG-01")
    hits = shot.hits
    if hits <= 0:
        return ledger
    side = shot.side
    if shot.part == "tire":
        damage_tire(vehicle, vehicle.tire(shot.tire or ""), hits, ledger)
        return ledger
    if shot.part == "turret" or (shot.part == "top" and vehicle.kind == "trike" and vehicle.turret):
        damage_turret(vehicle, hits, dice, ledger)
        return ledger
    if shot.part == "rider":
        driver = next((c for c in vehicle.crew if c.seat == "cycle"), vehicle.driver)
        rest = damage_crew(vehicle, driver, hits, ledger) if driver else hits
        ledger.pass_out(rest, "pass through the rider", "CW-TGT-07")
        return ledger
    if shot.part == "sidecar":
        sidecar_hit(vehicle, side if side is not None else Side.RIGHT, hits, dice, ledger)
        return ledger
    if shot.part == "top":
        side = Side.TOP
    assert side is not None
    if vehicle.rolled_onto is not None and side is vehicle.rolled_onto:
        side = Side.UNDERBODY
    if vehicle.kind == "cycle":
        if vehicle.sidecar is not None and (side is vehicle.sidecar.side or shot.sidecar_side) and sidecar_share(rules, dice, ledger):
            sidecar_hit(vehicle, side, hits, dice, ledger)
            return ledger
        rest = cycle_hit_location(rules, vehicle, side, hits, dice, ledger)
        if rest > 0 and side.is_flank and vehicle.sidecar is not None and vehicle.sidecar.side is side.opposite:
            spaces = vehicle.sidecar.spaces
            r, rolls = chance(dice, Roll(_D1, "does the rest hit the far sidecar", "CW-TGT-04", key=lambda v: v <= spaces))
            ledger.events += rolls
            if r.total <= spaces:
                sidecar_hit(vehicle, side, rest, dice, ledger)
                return ledger
        ledger.pass_out(rest, "pass through the cycle harmlessly", "CW-TGT-04")
        return ledger
    wheel_end = Side.BACK if vehicle.reversed_trike else Side.FRONT
    if vehicle.kind == "trike" and side is wheel_end:
        rest = trike_end_hit(rules, vehicle, side, hits, dice, ledger)
    elif side.is_end:
        rest = penetrate_end(vehicle, side, hits, dice, ledger)
    elif side.is_flank:
        rest = penetrate_flank(vehicle, side, hits, dice, ledger)
    else:
        rest = penetrate_vertical(vehicle, side, hits, dice, ledger)
    ledger.pass_out(rest, "pass out of the far side", "CW-DMG-02")
    return ledger


def hazard_difficulty(rules: Rules, hits: int) -> int:
    """CW-DMG-01: the hazard a vehicle suffers for the hits it took in a phase (0 for none)."""
    d = 0
    for low, diff in rules["carwars.damage"]["hazard"]["bands"]:
        if hits >= low:
            d = diff
    return d
