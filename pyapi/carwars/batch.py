"""`hardpoint.carwars.batch`: N independent trials of a scenario, as arrays and a summary (FAST-01).

Trial t of a batch under seed s is `scenario.resolve(SeededDice(s, trial=t))`
(plus, with `end_of_turn`, the end of the turn's fire checks): the same in the
compiled core and in the reference, whatever N, the chunking or the threads.

The compiled core (`hardpoint.fastcore._carwars`, Cython, GIL released) runs
single phases and single turns of planned attacks (`run_phase`: collisions,
aimed and area-effect attacks, links of aimed weapons, damage location and
penetration for cars, cycles, sidecars and trikes, crew, driver consequences,
the end-of-turn fire checks) and whole fights (`run_fight`: any number of turns
of planned attacks and standing orders, collisions from movement, oil slicks,
fire carried from turn to turn, out of action, until decided). `pack` is the
one decision of what it runs: it returns the packed scenario or
`Unpackable(reason)`; what it refuses runs on the reference with a single
warning saying why (docs/architecture.md lists every kind, with its reason).
"""
from __future__ import annotations

import math
import os
import threading
import warnings
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from .. import backend as _backend
from . import _layout
from ..dice import SeededDice, parse_dice
from ..errors import ScenarioError
from ..ruleset import Unpackable
from ..trials import run_chunks
from .collision import ram_dice, weight_factor
from .fire import can_explode
from .phase import burst_dice

__all__ = ["BatchResult", "run_batch", "run_batch_dask", "concat", "reference_trial", "Packed", "Unpackable", "pack", "supports_compiled"]

_SIDES = ("front", "back", "left", "right", "top", "underbody")
DMG_BINS = 64          # damage histogram bins per attack in counted mode (fastcore/_carwars.pyx DMG_BINS); the last holds 63+
_SC_SIDES = ("front", "back", "left", "right", "underbody")
# the kernel's codes (fastcore/layout.toml) for a tire's place and for what a shot hits
_TIRE_POS = {name: getattr(_layout, f"TIRE_{name.upper()}") for name in
             ("front", "back", "front_left", "front_right", "back_left", "back_right", "sidecar")}
PARTS = {name: getattr(_layout, f"P_{name.upper()}") for name in ("side", "tire", "turret", "rider", "sidecar", "top")}


@dataclass
class BatchResult:
    """Per-trial arrays and labels. `state[t, j]` is slot j (labels[j]) after trial t.

    With `keep="summary"` the per-trial arrays are None and only the counts
    (`counts()`) are kept: memory stays flat however many trials run.
    """

    scenario: str
    seed: int
    first_trial: int
    backend: str
    attacks: list[str]
    labels: list[str]
    kinds: list[str]                  # per slot: armour | dp | crew_hits | crew_armour | ped_hits | ped_armour
    vehicles: list[str]
    hit: np.ndarray | None            # (N, A) uint8
    damage: np.ndarray | None         # (N, A) int32
    state: np.ndarray | None          # (N, S) int32
    flags: np.ndarray | None          # (N, V) uint8: 1 burning, 2 exploded, 4 uncontrolled, 8 obstacle dropped
    initial: np.ndarray               # (S,) int32
    seconds: float = 0.0
    n: int = -1                       # trials (kept when the arrays are not)
    tallies: dict | None = None       # hit, damage_sum, destroyed, flags: counts over the trials
    interrupted: bool = False         # stopped early (Ctrl-C, cancel): the arrays and counts cover trials done
    fight: dict | None = None         # FIGHT-05 per trial: out_turn (N, U) 0 = never, result (N,) side / -1 draw /
                                      # -2 undecided, turns (N,), shots, hits, damage (N, W); None: not a fight
    fight_layout: Any = None          # carwars.fight.FightLayout: the units, sides and weapons of those columns

    @property
    def trials(self) -> int:
        return self.n if self.hit is None else int(self.hit.shape[0])

    def counts(self) -> dict[str, np.ndarray]:
        """Totals over the trials: hits and damage per attack, destroyed per slot, flags per vehicle (4 bits)."""
        if self.tallies is not None:
            return self.tallies
        flags = self.flags if self.flags is not None else np.zeros((0, len(self.vehicles)), np.uint8)
        return {"hit": _column_sums(self.hit), "damage_sum": _column_sums(self.damage),
                "damage_sq": np.einsum("ij,ij->j", self.damage, self.damage, dtype=np.int64),
                "damage_hist": np.stack([np.bincount(np.minimum(self.damage[:, j], DMG_BINS - 1), minlength=DMG_BINS)
                                         for j in range(self.damage.shape[1])]).astype(np.int64)
                if self.damage.shape[1] else np.zeros((0, DMG_BINS), np.int64),
                **(_fight_counts(self.fight, self.fight_layout) if self.fight is not None else {}),
                "destroyed": self._destroyed_counts(),
                "flags": _flag_counts(flags)}

    def _slot_kinds(self) -> tuple[np.ndarray, np.ndarray]:
        """The slots that die at 3 hits (crew, pedestrians), and those destroyed at 0 that start above it."""
        kinds = np.array(self.kinds, dtype=object)
        lives = np.flatnonzero(np.isin(kinds, ("crew_hits", "ped_hits")))
        parts = np.flatnonzero(np.isin(kinds, ("dp", "armour")) & (np.asarray(self.initial) > 0))
        return lives, parts

    def destroyed(self) -> np.ndarray:
        """(N, S) bool: the slot ends at 0 (dp, armour) or dead (crew or pedestrian with 3 hits)."""
        lives, parts = self._slot_kinds()
        out = np.zeros_like(self.state, dtype=bool)
        out[:, lives] = self.state[:, lives] >= 3
        out[:, parts] = self.state[:, parts] == 0
        return out

    def _destroyed_counts(self) -> np.ndarray:
        """`destroyed().sum(axis=0)`, without the (N, S) array: in blocks of rows that stay in cache (2.7x faster
        than whole columns at 300,000 trials)."""
        lives, parts = self._slot_kinds()
        out = np.zeros(self.state.shape[1], np.int64)
        for lo in range(0, self.state.shape[0], 8192):
            block = self.state[lo:lo + 8192]
            out[lives] += _column_sums((block >= 3).view(np.uint8))[lives]
            out[parts] += _column_sums((block == 0).view(np.uint8))[parts]
        return out

    def summary(self) -> dict[str, float]:
        """Mean outcomes: hit rate and damage per attack; P(destroyed) per component, crew member and pedestrian
        that can change; per vehicle P(on fire), P(exploded), P(uncontrolled), P(obstacle)."""
        out: dict[str, float] = {}
        n = max(1, self.trials)
        c = self.counts()
        for i, a in enumerate(self.attacks):
            out[f"{a} hit"] = float(c["hit"][i]) / n
            out[f"{a} damage"] = float(c["damage_sum"][i]) / n
        for j, label in enumerate(self.labels):
            if self.kinds[j] not in ("crew_armour", "ped_armour") and c["destroyed"][j] and self.initial[j] > 0 \
                    and not (self.kinds[j] in ("crew_hits", "ped_hits") and self.initial[j] >= 3):
                word = "killed" if self.kinds[j] in ("crew_hits", "ped_hits") else "destroyed"
                out[f"{label} {word}"] = float(c["destroyed"][j]) / n
        for v, name in enumerate(self.vehicles):
            for b, what in enumerate(("on fire", "exploded", "uncontrolled", "drops an obstacle")):
                rate = float(c["flags"][v, b]) / n
                if rate:
                    out[f"{name} {what}"] = rate
        return out


# --- packing --------------------------------------------------------------------------------

@dataclass
class Packed:
    """A single-phase Car Wars scenario as flat int32 arrays for the kernel (see fastcore/_carwars.pyx)."""

    arrays: dict[str, np.ndarray]
    labels: list[str]
    kinds: list[str]
    vehicles: list[str]
    attacks: list[str]
    phases: int = 1
    layout: Any = None                # a fight (carwars.fight.FightLayout of its columns): the fight kernel runs it
    tire_index: dict | None = None    # (vehicle, tire id) -> tire row
    base: Any = None                  # a fight: the packing its variants (vehicles out of control) start from
    facts: list | None = None         # a fight: the `_Fact` each drop row stands for (its FACT column)
    variants: dict | None = None      # a fight: its packings per set of facts, made as trials need them (not pickled)
    drive: dict | None = None         # a fight that drives: what run_drive reads besides the arrays (drivepack.pack_drive)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "variants": None}


def _slots(scenario) -> tuple[list[str], list[str], Callable]:
    """The slot layout, and a function reading an arena's values in that layout (shared by both backends)."""
    arena = scenario.arena
    labels: list[str] = []
    kinds: list[str] = []
    for v in arena.vehicles.values():
        labels += [f"{v.id} {s} armour" for s in _SIDES]
        kinds += ["armour"] * 6
        if v.power_plant is not None:
            labels.append(f"{v.id} power plant")
            kinds.append("dp")
        for w in v.all_weapons():
            labels.append(f"{v.id} weapon {w.id}")
            kinds.append("dp")
        for c in v.all_crew():
            labels += [f"{v.id} {c.id}", f"{v.id} {c.id} body armour"]
            kinds += ["crew_hits", "crew_armour"]
        for k in v.cargo + (v.sidecar.cargo if v.sidecar else []):
            labels.append(f"{v.id} cargo {k.id}")
            kinds.append("dp")
        for t in v.tires + ([v.sidecar.tire] if v.sidecar else []):
            labels.append(f"{v.id} tire {t.id}")
            kinds.append("dp")
        if v.sidecar:
            labels += [f"{v.id} sidecar {s} armour" for s in _SC_SIDES]
            kinds += ["armour"] * 5
    for p in arena.pedestrians.values():
        labels += [f"{p.id}", f"{p.id} body armour"]
        kinds += ["ped_hits", "ped_armour"]

    def read(a) -> list[int]:
        from .enums import Side

        out: list[int] = []
        for v in a.vehicles.values():
            out += [v.armour[Side.parse(s)] for s in _SIDES]
            if v.power_plant is not None:
                out.append(v.power_plant)
            out += [w.dp for w in v.all_weapons()]
            for c in v.all_crew():
                out += [c.hits, c.body_armour]
            out += [k.dp for k in v.cargo + (v.sidecar.cargo if v.sidecar else [])]
            out += [t.dp for t in v.tires + ([v.sidecar.tire] if v.sidecar else [])]
            if v.sidecar:
                out += [v.sidecar.armour[Side.parse(s)] for s in _SC_SIDES]
        for p in a.pedestrians.values():
            out += [p.hits, p.body_armour]
        return out

    return labels, kinds, read


def supports_compiled(scenario) -> str | None:
    """None if the compiled core can run this scenario, else the reason it cannot: `pack`'s decision, read back
    (one decision, ARCH-04: there is no second list of what the kernel covers to drift from the packer)."""
    packed = pack(scenario)
    return packed.reason if isinstance(packed, Unpackable) else None


def _unsupported(scenario) -> str | None:
    """The reason the kernel cannot run this scenario, or None; `pack` asks it before packing anything."""
    from .dropped import damaging_gas
    from .scenario import CarWarsScenario

    if not isinstance(scenario, CarWarsScenario):
        return "only Car Wars scenarios have a compiled phase kernel"
    arena = scenario.arena
    jumps = scenario.rules["carwars.damage"]["crew"]["passenger_jumps_on"]
    if any(v.kind == "cycle" and v.sidecar is None and any(c is not v.driver and (jumps if c.jumps_on is None else c.jumps_on)
                                                           for c in v.crew) for v in arena.vehicles.values()):
        return "a passenger who may jump off a cycle without a sidecar (CW-SEED-01; the kernels keep him aboard)"
    if scenario.turns and any(damaging_gas(w.spec) for v in arena.vehicles.values() for w in v.all_weapons()):
        return "a weapon that lays a damaging gas (a flame cloud, CW-SEED-01): the kernels do not roll its damage"
    if scenario.turns:
        reason = _fight_unsupported(scenario) if _runs_as_fight(scenario) else _turn_unsupported(scenario)
        if reason:
            return reason
    reason = _kernel_limits(scenario)
    if reason:
        return reason
    if any(f.tire_only for f in arena.fires.values()):
        return "a tire-only fire carried in (CW-FIRE-05)"
    for a in scenario.attacks:
        unit = arena.unit(a.attacker, "attack")
        if hasattr(unit, "links") and a.weapon in unit.links:
            from .special import flatten_link

            if any(not w.spec.aimed for w in flatten_link(unit, a.weapon, "attack")):
                return "links that drop weapons"
    attacks = [a for xs in scenario.plan.attacks.values() for a in xs] if scenario.turns else scenario.attacks
    collisions = [c for xs in scenario.plan.collisions.values() for c in xs] if scenario.turns else scenario.collisions
    if collisions and not (scenario.turns and _runs_as_fight(scenario)):    # the fight kernel picks the firer again
        for a in attacks:
            # who fires may depend on the collision's dice: a single weapon's attack takes its default firers
            # (_default_firers), a link's or an area-effect attack's does not
            unit = arena.unit(a.attacker, "attack")
            if hasattr(unit, "crew") and not a.firer and len(list(unit.all_crew())) > 1 \
                    and (scenario.turns or a.victims or a.weapon in unit.links or unit.substitute is not None):
                # (a substitute who steered may not fire, even the first able for a weapon on automatic: crew.py)
                return "collisions with an unnamed firer of a link or an area-effect attack, or with a substitute driver"
    return None


_KERNEL_VEHICLES = 16384    # fastcore/_carwars.pyx MAX_VEHICLES (its scratch is sized to the scenario)
_KERNEL_ATTACKS = 65536     # fastcore/_carwars.pyx MAX_ATTACKS: attack rows of one turn
_KERNEL_PHASES = 6          # fastcore/_cwcore.pxd: PhaseRun.a_lo[8] holds n_phases + 1 bounds
_KERNEL_ITEMS = 128         # fastcore/_carwars.pyx MAXI: the candidates of one pick or collision layer


def _kernel_limits(scenario) -> str | None:
    """What the kernel's arrays cannot hold, as the reason to run the reference: vehicles, components of one
    vehicle, attack rows after links expand, phases a turn. The rules' figures (fire bands, fire damage, the
    blast's dice, location bands) are the kernel's `consts` and `cyc`, whatever a house rule makes them. `pack`
    asks it first, so the kernel only ever sees what its arrays hold (SAFE-01)."""
    rules = scenario.rules
    if len(scenario.arena.vehicles) > _KERNEL_VEHICLES:
        return f"more than {_KERNEL_VEHICLES} vehicles"
    for v in scenario.arena.vehicles.values():
        items = len(list(v.all_weapons())) + len(list(v.all_crew())) + len(v.cargo) + len(v.tires) + 2
        items += len(v.sidecar.cargo) + 1 if v.sidecar else 0
        if items > _KERNEL_ITEMS:
            return f"vehicle {v.id!r} has more than {_KERNEL_ITEMS} components, crew and cargo (the kernel's pick lists)"
    if _attack_rows(scenario) > _KERNEL_ATTACKS:
        return f"more than {_KERNEL_ATTACKS} attacks (links counted weapon by weapon)"
    if scenario.turns and rules["carwars.turn"]["phases"] > _KERNEL_PHASES:
        return f"more than {_KERNEL_PHASES} phases a turn"
    return None


def _attack_rows(scenario) -> int:
    """The rows `pack` gives the kernel: one per attack planned, one per weapon a link aims or fires as automatic."""
    if scenario.turns:
        return sum(len(xs) for xs in scenario.plan.attacks.values())
    from .phase import _expand
    from ..errors import HardpointError

    try:
        return len(_expand(scenario.attacks, scenario.arena))
    except HardpointError:
        return len(scenario.attacks)


def turn_names(scenario) -> list[str]:
    """The batch's attack columns in a scenario of turns: every attack planned, in the order they come; a link's,
    one per weapon it aims or fires as if on automatic (`special.expand_link` names them <attack>/<weapon>; its
    dropped, smoke and paint weapons roll nothing); an area-effect attack's, one per intended victim
    (<attack>@<victim>): as a single phase names them (CW-LINK-01, CW-DMG-07)."""
    from .special import attack_columns

    return [name for key in sorted(scenario.plan.attacks) for a in scenario.plan.attacks[key]
            for name, _, aimed in attack_columns(scenario.arena, a) if aimed]


def _movement_collides(scenario) -> bool:
    """Whether the turn's movement brings two counters together (FIGHT-04): a collision, or a counter stopped short
    of where straight-line movement would take it. In one turn it does not depend on the dice (speeds change only
    at its end), so a dry run on copies tells."""
    from .motion import move_with_contacts
    from .turn import move_phase

    arena, straight = scenario.arena.copy(), scenario.arena.copy()
    for phase in range(1, scenario.rules["carwars.turn"]["phases"] + 1):
        if move_with_contacts(scenario.rules, arena, phase)[1]:
            return True
        move_phase(scenario.rules, straight, phase)
    where = [(u.x, u.y) for u in [*arena.vehicles.values(), *arena.pedestrians.values()]]
    return where != [(u.x, u.y) for u in [*straight.vehicles.values(), *straight.pedestrians.values()]]


def _turn_unsupported(scenario) -> str | None:
    """A one-turn scenario runs in the kernel when nothing in it depends on the dice but damage: no actions,
    counters, paint, automatic or linked weapons, off-road driving; each weapon and each firer used once; the
    firer of a vehicle weapon named when the vehicle has more than one crew member."""
    arena = scenario.arena
    plan = scenario.plan
    if scenario.turns != 1:
        return "scenarios of more than one turn run on the reference"
    if scenario.fight is not None and scenario.fight.orders:
        return "standing orders (fights run on the reference until the kernel learns them)"
    if _movement_collides(scenario):
        return "collisions from movement (FIGHT-04) in the turn"
    if any(plan.actions.values()):
        return "declared actions (maneuvers, drops, automatic switches) in a turn"
    if arena.counters or any(c.kind == "paint" for c in arena.clouds.values()):
        return "dropped counters or paint clouds in a turn"
    if _obstacle_met_in_turn(scenario):
        return "an obstacle that may drop where a vehicle's movement runs onto it later in the turn (CW-SEED-04)"
    weapons, firers = set(), set()
    for v in arena.vehicles.values():
        if v.off_road:
            return "off-road driving"
        if any(w.automatic for w in v.all_weapons()):
            return "weapons on automatic in a turn"
    for attacks in plan.attacks.values():
        for a in attacks:
            unit = arena.unit(a.attacker, "attack")
            if getattr(unit, "links", None) and a.weapon in unit.links:
                return "linked weapons in a turn"
            if a.victims:
                return "area-effect attacks"
            firer = a.firer or (unit.id if not hasattr(unit, "crew") else (unit.crew[0].id if len(unit.crew) == 1 else None))
            if firer is None:
                return "a vehicle weapon in a turn without a named firer (the default firer depends on the dice)"
            if (a.attacker, a.weapon) in weapons or (a.attacker, firer) in firers:
                return "a weapon or a firer used twice in a turn"
            weapons.add((a.attacker, a.weapon))
            firers.add((a.attacker, firer))
            if arena.pedestrians:
                from ..errors import HardpointError

                try:
                    if _attack_spec(scenario, a).burst_radius > 0:
                        return "burst weapons near pedestrians in a turn"
                except HardpointError:
                    pass
    return None


def _obstacle_met_in_turn(scenario) -> bool:
    """CW-DMG-08 / CW-SEED-04: whether an obstacle a car may drop in the turn lies where another vehicle's movement
    runs onto it in a later phase (the turn kernel does not follow obstacles; the fight kernel does)."""
    from .fightpack import obstacle_met, obstacle_places
    from .motion import move_with_contacts

    if not any(v.kind == "car" for v in scenario.arena.vehicles.values()) or not any(v.speed for v in scenario.arena.vehicles.values()):
        return False
    arena, at, swept = scenario.arena.copy(), [], []
    for phase in range(1, scenario.rules["carwars.turn"]["phases"] + 1):
        arena.phase = phase
        before = {v.id: v.counter for v in arena.vehicles.values()}
        move_with_contacts(scenario.rules, arena, phase)
        a, w = obstacle_places(arena, before)
        at.append(a)
        swept.append(w)
    return bool(obstacle_met(scenario.rules, [v.kind for v in arena.vehicles.values()], at, swept))


def _attack_spec(scenario, b):
    from .attack import attack_weapon

    return attack_weapon(scenario.arena, scenario.arena.unit(b.attacker, "attack"), b.weapon, scenario.rules)


def _moved(scenario, phases: int):
    """A copy of the arena after `phases` phases of movement."""
    from .turn import move_phase

    arena = scenario.arena.copy()
    for phase in range(1, phases + 1):
        move_phase(scenario.rules, arena, phase)
    return arena


def _planned(scenario, crew_index: dict, ped_index: dict, slots: dict):
    """The attacks in the order they are rolled, as (phase index, attack, breakdown or the id of an attack the
    rules cancel at its phase, firer's hits slot, weapon slot, firer already wounded).

    One phase: the scenario's declared attacks. One turn: each phase's planned
    attacks explained at the positions after that phase's straight-line
    movement (run_turns moves vehicles and pedestrians the same way), against
    the state at the start of the turn; what the dice change by then (a weapon
    destroyed, a firer wounded or out) is decided in the kernel.
    """
    from .attack import _default_firer
    from .enums import CrewState
    from .model import Pedestrian
    from ..errors import HardpointError

    from .turn import planned_breakdowns

    arena = scenario.arena
    if scenario.turns:
        planned = list(planned_breakdowns(arena, scenario.rules, scenario.plan, scenario.history))
    else:
        from .phase import _expand

        expanded = _expand(scenario.attacks, arena)     # an area-effect attack: one row per intended victim
        planned = list(zip([1] * len(expanded), expanded, scenario.explain()))
    for phase, a, b in planned:
        if isinstance(b, HardpointError):
            yield phase - 1, a, a.id, -1, -1, False
            continue
        unit = arena.unit(a.attacker, "attack")
        if isinstance(unit, Pedestrian):
            firer_slot, wounded, weapon_slot = slots["p_hits"][ped_index[unit.id]], unit.state is CrewState.WOUNDED, -1
        else:
            mounted = next((w for w in unit.all_weapons() if w.id == a.weapon), None)
            # the named firer, or the weapon's default firer at the start (attack._default_firer; who it is after
            # a single phase's collisions is the kernel's pick among `_default_firers`)
            crew = unit.crew_member(a.firer) if a.firer else (_default_firer(unit, mounted) if mounted is not None else None)
            if mounted is not None and mounted.automatic:
                crew = None     # a weapon on automatic fires by itself: no firer to wound or knock out (CW-AUTO-01)
            firer_slot = slots["c_hits"][crew_index[(unit.id, crew.id)]] if crew is not None else -1
            wounded = crew is not None and crew.state is CrewState.WOUNDED
            ids = [w.id for w in unit.all_weapons()]
            first = slots["v_w0"][list(arena.vehicles).index(unit.id)]
            weapon_slot = slots["w_slot"][first + ids.index(a.weapon)] if a.weapon in ids else -1
        yield phase - 1, a, b, firer_slot, weapon_slot, wounded



def _default_firers(scenario, a, afir: list[list[int]], crew_index: dict, c_hits: list[int], wounded_penalty: int) -> tuple[int, int]:
    """A single phase's attack by a mounted weapon no one is named to fire, in a vehicle of more than one possible
    firer: after the collisions of the phase (which may knock out or wound its crew) the first able of
    `attack.default_firer_pool` fires it, at his own skill (phase._after_collisions explains it again). Adds to
    `afir` each one able now (nobody recovers within the phase) with the number he needs, and returns the rows'
    range; (0, 0) when the firer cannot change."""
    import dataclasses

    from .attack import default_firer_pool
    from .enums import CrewState
    from .phase import explain_phase
    from ..errors import HardpointError

    arena = scenario.arena
    unit = arena.vehicles.get(a.attacker)
    mounted = None if unit is None else next((w for w in unit.all_weapons() if w.id == a.weapon), None)
    if mounted is None or a.firer or mounted.automatic or a.as_automatic:
        return 0, 0
    pool = default_firer_pool(unit, mounted)
    if len(pool) < 2:
        return 0, 0
    lo = len(afir)
    for c in pool:
        if not c.can_act:
            continue
        try:
            needed, ok = explain_phase(arena, [dataclasses.replace(a, firer=c.id)], scenario.rules, scenario.history)[0].needed, 1
        except HardpointError:
            needed, ok = 0, 0     # he may not fire it (a substitute driver who steered...): cancelled if he is first
        afir.append(kernel_row(_layout.AFIR_COLUMNS, slot=c_hits[crew_index[(unit.id, c.id)]], needed=needed, ok=ok,
                               needed_wounded=needed if c.state is CrewState.WOUNDED else needed + wounded_penalty))
    return lo, len(afir)


_COLUMN_SETS: dict[tuple[str, ...], frozenset[str]] = {}     # a layout's columns as a set (the packers make rows by the million)


def kernel_row(columns: tuple[str, ...], **values: int) -> list[int]:
    """A kernel row (or vector) by its column names (fastcore/layout.toml): every column given, and no other."""
    names = _COLUMN_SETS.get(columns)
    if names is None:
        names = _COLUMN_SETS[columns] = frozenset(columns)
    if values.keys() != names:
        missing, extra = set(columns) - values.keys(), values.keys() - set(columns)
        raise AssertionError(f"kernel row: missing {sorted(missing)}, unknown {sorted(extra)}")
    return [int(values[c]) for c in columns]


def shot_columns(b, spec, target, ped_index: dict[str, int], veh_index: dict[str, int], tire_index: dict) -> dict[str, int]:
    """What a shot (a breakdown `b` of weapon `spec` at `target`) is, in the columns attack and candidate rows share:
    to hit, damage, what it hits (fastcore/layout.toml, rows.atk and rows.cand)."""
    from .model import Building, Pedestrian
    from .phase import shot_for

    out = dict(needed=b.needed, possible=int(b.possible), dmg_count=spec.damage.count if spec.damage else 0,
               dmg_bonus=spec.damage.bonus if spec.damage else 0, dmg_hits=spec.damage_hits or 0)
    if isinstance(target, Building):       # hit, but building damage is not modelled (CW-DMG-01)
        return out | dict(kind=_layout.TGT_BUILDING, index=-1, part=_layout.P_SIDE, side=-1, tire=-1, mode=0)
    if isinstance(target, Pedestrian):
        return out | dict(kind=_layout.TGT_PEDESTRIAN, index=ped_index[target.id], part=_layout.P_SIDE, side=-1, tire=-1, mode=0)
    shot = shot_for(b, 1)
    mode = 0
    if spec.hand and not (b.aimed_at.startswith("tire") or spec.vs_vehicles == "full"):
        mode = 1 if spec.vs_vehicles == "half" else (0 if b.range is not None and b.range < 1.0 else 2)
    tire = tire_index[(target.id, shot.tire)] if shot.part == "tire" else -1
    part = _layout.P_SIDE_SC if shot.part == "side" and shot.sidecar_side else PARTS[shot.part]
    return out | dict(kind=_layout.TGT_VEHICLE, index=veh_index[target.id], part=part,
                      side=-1 if shot.side is None else int(shot.side), tire=tire, mode=mode)


def blast_rows(arena, radius: float, ped_index: dict[str, int]) -> tuple[list[list[int]], list[list[int]]]:
    """Per vehicle of `arena`, in its order, whom an explosion of it reaches (CW-FIRE-04): the kernel's row of
    (vehicle index, mask of the sides facing the blast: front 1, back 2, left 4, right 8) pairs, and the row of
    pedestrian indices, each in arena order, not padded.

    Linear in the units: every counter is filed in a uniform grid by its centre, with cells as wide as the blast's
    radius plus the largest counter's half-diagonal (and 1e-6"), so a counter whose nearest point is within the
    radius of a centre lies in the 3 x 3 cells around it; the exact test (the nearest point within the radius and
    1e-9") runs on those only, in arena order."""
    from . import geometry as geo

    units = [(j, o) for j, o in enumerate(arena.vehicles.values())]
    people = [(ped_index[p.id], p) for p in arena.pedestrians.values()]
    half = max((0.5 * math.hypot(o.counter.length, o.counter.width) for _, o in units + people), default=0.0)
    cell = radius + half + 1e-6

    def key(o) -> tuple[int, int]:
        return (math.floor(o.x / cell), math.floor(o.y / cell))

    def filed(items) -> dict[tuple[int, int], list]:
        grid: dict[tuple[int, int], list] = {}
        for j, o in items:
            grid.setdefault(key(o), []).append((j, o))
        return grid

    def near(grid, v) -> list:
        cx, cy = key(v)
        found = [x for dx in (-1, 0, 1) for dy in (-1, 0, 1) for x in grid.get((cx + dx, cy + dy), ())]
        return sorted(found, key=lambda x: x[0])

    def reached(o, centre) -> bool:
        return geo.distance(geo.nearest_point(o.counter.polygon(), centre), centre) <= radius + 1e-9

    v_grid, p_grid = filed(units), filed(people)
    rows_v, rows_p = [], []
    for _, v in units:
        centre = (v.x, v.y)
        row: list[int] = []
        for j, o in near(v_grid, v):
            if o is v or not reached(o, centre):
                continue
            facing = geo.facing_sides(o.counter, centre)
            row += [j, sum(1 << s for s, name in enumerate(("front", "back", "left", "right")) if name in facing)]
        rows_v.append(row)
        rows_p.append([j for j, p in near(p_grid, v) if reached(p, centre)])
    return rows_v, rows_p


def carried_fire(arena, turns: int, ring: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """The fire state the vehicles bring in (arena.fires, CW-FIRE-01/02/04), for the kernels: per vehicle, the sum
    of its fire sources' modifiers active in each of the next `turns` turns (the arena's turn first) placed at
    turn % ring (kernel turns count from 1); whether a component hit earlier this turn may start a fire at its
    end, and whether by a fiery source; and whether it has exploded already. `ring` is longer than any source
    lasts (`fire_ring`), so every turn a source is active fits."""
    from .fire import fire_modifier_total

    V = len(arena.vehicles)
    future, hit, fiery = [0] * (ring * V), [0] * V, [0] * V
    exploded = [int(arena.fires[vid].exploded) if vid in arena.fires else 0 for vid in arena.vehicles]
    for v, vid in enumerate(arena.vehicles):
        state = arena.fires.get(vid)
        if state is None:
            continue
        for k in range(1, min(turns, ring - 1) + 1):
            future[v * ring + k % ring] += fire_modifier_total(state, arena.turn + k - 1)[0]
        hit[v] = int(bool(state.component_hits))
        fiery[v] = int(any(state.component_hits))
    return future, hit, fiery, exploded


def burst_rows(arena, brst: list[list[int]], centre, radius: float, expr, target: str) -> tuple[int, int]:
    """Add to `brst` the pedestrians a burst at `centre` reaches and nothing shelters (`phase.burst_reach`,
    CW-DMG-06), each with the burst's dice `expr` (`phase.burst_dice`). Returns the rows' range."""
    from .phase import burst_reach

    lo = len(brst)
    for pi, _, sheltered in burst_reach(arena, centre, radius, target):
        if not sheltered:
            brst.append(kernel_row(_layout.BRST_COLUMNS, ped=pi, count=expr.count, bonus=expr.bonus, floor=expr.floor))
    return lo, len(brst)


def padded_rows(rows: list[list[int]], step: int) -> list[list[int]]:
    """Rows padded with -1 to the longest (at least `step` wide): the kernel reads a row up to its first -1."""
    width = max([step] + [len(r) for r in rows])
    return [r + [-1] * (width - len(r)) for r in rows]


def pack(scenario) -> "Packed | Unpackable":
    """The scenario packed for the kernel, or `Unpackable(reason)`: the one decision of what the kernel runs (ARCH-04).

    Everything the kernel's fixed-size arrays and built-in figures cannot hold is refused here (`_kernel_limits`),
    so that the kernel, which runs without bounds checks, only ever sees what its arrays hold (SAFE-01). A packer
    error on a scenario the checks let through is turned into an `Unpackable` naming it, never raised."""
    from ..errors import HardpointError

    key = _state_key(scenario)
    cached = getattr(scenario, "_packed", None)
    if key is not None and cached is not None and cached[0] == key:
        return cached[1]
    try:
        reason = _unsupported(scenario)
        if reason is not None:
            packed: Packed | Unpackable = Unpackable(reason)
        else:
            base = _pack(scenario)
            if _runs_as_fight(scenario) and _drives(scenario):
                from .drivepack import pack_drive     # (it packs on `_pack`'s arrays: a cycle at import)

                packed = pack_drive(scenario, base)
            elif _runs_as_fight(scenario):
                from .fightpack import pack_fight     # (it packs on `_pack`'s arrays: a cycle at import)

                variants = _fight_variants()
                packed = pack_fight(scenario, base, cache=variants["explained"], states=variants["states"])
                if isinstance(packed, Packed):     # its variants go on from its turns, with its explained shots
                    variants["packings"][frozenset()] = packed
                    packed.variants = variants
            else:
                packed = base
    except HardpointError as exc:
        packed = Unpackable(f"the packer refused it: {exc}")
    if key is not None:
        scenario._packed = (key, packed)
    return packed


def _state_key(scenario) -> bytes | None:
    """A digest of everything `pack` reads (arena, attacks, plan, orders, history, rules, the kernel's limits), so that a scenario
    packed once is not packed again until it changes, however it is changed (FAST-03); None if it cannot be
    digested (then it is packed every time). A few percent of packing's cost: 55 ms at 4,096 vehicles."""
    import hashlib
    import pickle

    try:
        limits = (_KERNEL_VEHICLES, _KERNEL_ATTACKS, _KERNEL_PHASES, _KERNEL_ITEMS, KERNEL_WEAPON_KEYS, _KERNEL_UNITS,
                  _KERNEL_CHARACTERS, _KERNEL_FIRE_TURNS, _KERNEL_FIRE_RING)
        state = (scenario.arena, scenario.attacks, scenario.rules, scenario.history, scenario.fired, scenario.collisions,
                 scenario.turns, scenario.plan, scenario.fight, limits)
        return hashlib.blake2b(pickle.dumps(state, protocol=5), digest_size=32).digest()
    except Exception:   # noqa: BLE001 - anything unpicklable a caller put in: no cache, never an error
        return None


def _pack(scenario) -> Packed:
    """The scenario as the one-turn kernel (`fastcore/_carwars.pyx:run_phase`) reads it, and the base a fight's packing
    builds on (`fightpack.pack_fight`): every unit's slots, the rules' constants, the collisions, the planned attacks
    in the order `phase.resolve_phase` rolls them, where an explosion reaches and the fire carried in."""
    rules = scenario.rules
    arena = scenario.arena
    labels, kinds, read = _slots(scenario)
    init = read(arena)
    vids = list(arena.vehicles)
    vi = {v: i for i, v in enumerate(vids)}
    pids = list(arena.pedestrians)
    pi = {p: i for i, p in enumerate(pids)}
    A, crew_index, tire_index = _unit_slots(arena, len(init))
    cyc, consts = _constant_rows(rules)
    col_rows = _collision_rows(scenario, vi)
    atk_rows, names, brst, afir = _attack_rows_of(scenario, A, crew_index, tire_index, vi, pi)
    radius = rules["carwars.fire"]["explosion"]["radius"]
    end = _moved(scenario, rules["carwars.turn"]["phases"]) if scenario.turns else arena   # where explosions happen
    near_v, near_p = blast_rows(end, radius, pi)
    near_v, near_p = padded_rows(near_v or [[]], 2), padded_rows(near_p or [[]], 1)

    def arr(x, shape=None):
        a = np.ascontiguousarray(np.array(x, dtype=np.int32))
        return a.reshape(shape) if shape is not None else a

    arrays = {k: arr(v) for k, v in A.items()}
    arrays["init"] = arr(init)
    arrays["cyc"] = arr(cyc)
    arrays["consts"] = arr(consts)
    arrays["col"] = arr(col_rows, (len(col_rows), _layout.COL_NCOLS))
    arrays["atk"] = arr(atk_rows, (len(atk_rows), _layout.ATK_NCOLS))
    arrays["near_v"] = arr(near_v)
    arrays["near_p"] = arr(near_p)
    arrays["brst"] = arr(brst, (len(brst), _layout.BRST_NCOLS))
    arrays["afir"] = arr(afir, (len(afir), _layout.AFIR_NCOLS))
    future, hit, fiery, exploded = carried_fire(arena, 1, _KERNEL_FIRE_TURNS)
    arrays["fire0"] = arr([future[v * _KERNEL_FIRE_TURNS + 1] for v in range(len(vids))] + hit + fiery + exploded)
    return Packed(arrays, labels, kinds, vids, names, rules["carwars.turn"]["phases"] if scenario.turns else 1,
                  tire_index=tire_index)


_UNIT_VECTORS = ("v_armour", "v_pp", "v_kind", "v_reversed", "v_turret", "v_rolled", "v_metal", "v_layout", "v_sc_side", "v_sc_spaces",
                 "v_sc_armour", "v_w0", "v_w1", "v_c0", "v_c1", "v_k0", "v_k1", "v_t0", "v_t1", "v_driver", "v_cycle_rider",
                 "v_fireproof", "v_extinguisher", "v_can_explode", "v_burning", "v_is_car", "w_slot", "w_mount", "w_sidecar", "w_fiery",
                 "c_hits", "c_ba", "c_sidecar", "k_slot", "k_sidecar", "t_slot", "t_pos", "t_sidecar", "p_hits", "p_ba")


def _unit_slots(arena, slots: int) -> tuple[dict[str, list[int]], dict, dict]:
    """Per vehicle, its components' and crew's places in the state (`_slots`' order) and what the kernel reads of
    them; per pedestrian, his hits and body armour. Returns the vectors, and the crew and tire indices."""
    A: dict[str, list[int]] = {k: [] for k in _UNIT_VECTORS}
    slot = 0
    crew_index: dict[tuple[str, str], int] = {}
    tire_index: dict[tuple[str, str], int] = {}
    for v in arena.vehicles.values():
        slot = _vehicle_slots(A, arena, v, slot, crew_index, tire_index)
    for p in arena.pedestrians.values():
        A["p_hits"].append(slot)
        A["p_ba"].append(slot + 1)
        slot += 2
    assert slot == slots
    return A, crew_index, tire_index


def _vehicle_slots(A: dict[str, list[int]], arena, v, slot: int, crew_index: dict, tire_index: dict) -> int:
    """One vehicle's vectors (armour, power plant, weapons, crew, cargo, tires, sidecar, fire), from state slot
    `slot`; returns the slot after its last."""
    A["v_armour"].append(slot)
    slot += 6
    if v.power_plant is not None:
        A["v_pp"].append(slot)
        slot += 1
    else:
        A["v_pp"].append(-1)
    A["v_kind"].append(getattr(_layout, f"KIND_{v.kind.upper()}"))
    A["v_is_car"].append(1 if v.kind == "car" else 0)
    A["v_reversed"].append(int(v.reversed_trike))
    A["v_turret"].append(int(v.turret))
    A["v_rolled"].append(-1 if v.rolled_onto is None else int(v.rolled_onto))
    A["v_metal"].append(int(v.metal_armour))
    layout = [getattr(_layout, f"LOC_{x.name}") for x in v.layout]
    A["v_layout"] += layout + [-1] * (3 - len(layout))
    A["v_w0"].append(len(A["w_slot"]))
    for w in v.all_weapons():
        A["w_slot"].append(slot)
        slot += 1
        A["w_mount"].append(int(w.mount))
        A["w_sidecar"].append(int(v.sidecar is not None and w in v.sidecar.weapons))
        A["w_fiery"].append(int(w.spec.burns_when_hit))
    A["v_w1"].append(len(A["w_slot"]))
    A["v_c0"].append(len(A["c_hits"]))
    for c in v.all_crew():
        crew_index[(v.id, c.id)] = len(A["c_hits"])
        A["c_hits"].append(slot)
        A["c_ba"].append(slot + 1)
        slot += 2
        A["c_sidecar"].append(int(v.sidecar is not None and c in v.sidecar.crew))
    A["v_c1"].append(len(A["c_hits"]))
    A["v_k0"].append(len(A["k_slot"]))
    for k in v.cargo + (v.sidecar.cargo if v.sidecar else []):
        A["k_slot"].append(slot)
        slot += 1
        A["k_sidecar"].append(int(k not in v.cargo))
    A["v_k1"].append(len(A["k_slot"]))
    A["v_t0"].append(len(A["t_slot"]))
    for t in v.tires + ([v.sidecar.tire] if v.sidecar else []):
        tire_index[(v.id, t.id)] = len(A["t_slot"])
        A["t_slot"].append(slot)
        slot += 1
        A["t_pos"].append(_TIRE_POS[t.id])
        A["t_sidecar"].append(int(v.sidecar is not None and t is v.sidecar.tire))
    A["v_t1"].append(len(A["t_slot"]))
    if v.sidecar:
        A["v_sc_side"].append(int(v.sidecar.side))
        A["v_sc_spaces"].append(v.sidecar.spaces)
        A["v_sc_armour"].append(slot)
        slot += 5
    else:
        A["v_sc_side"].append(-1)
        A["v_sc_spaces"].append(0)
        A["v_sc_armour"].append(-1)
    driver = v.driver
    A["v_driver"].append(crew_index[(v.id, driver.id)] if driver is not None else -1)
    rider = next((c for c in v.crew if c.seat == "cycle"), driver)
    A["v_cycle_rider"].append(crew_index[(v.id, rider.id)] if rider is not None else -1)
    A["v_fireproof"].append(int(v.fireproof))
    A["v_extinguisher"].append(getattr(_layout, f"EXT_{v.extinguisher.upper()}"))
    A["v_can_explode"].append(int(can_explode(v)))
    A["v_burning"].append(int(arena.fires[v.id].burning) if v.id in arena.fires else 0)
    return slot


def _constant_rows(rules) -> tuple[list[int], list[int]]:
    """The rules' figures the kernel reads: the cycle, sidecar and trike hit-location bands (`cyc`), and the
    collision, fire, extinguisher, explosion, to-hit and area-effect constants (`consts`)."""
    dmg = rules["carwars.damage"]
    band = {"end_armour": dmg["cycle"]["end_armour"], "end_wheel": dmg["cycle"]["end_wheel"],
            "side_driver": dmg["cycle"]["side_driver"], "side_pp": dmg["cycle"]["side_power_plant"],
            "side_weapon": dmg["cycle"]["side_weapon"], "sidecar": dmg["sidecar"]["sidecar"], "trike_wheel": dmg["trike"]["wheel"]}
    cyc = kernel_row(_layout.CYC_NAMES, **{f"{k}_lo": lo for k, (lo, _) in band.items()}, **{f"{k}_hi": hi for k, (_, hi) in band.items()})
    fire = rules["carwars.fire"]
    col_t = rules["carwars.collisions"]
    cap = Fraction(col_t["metal_loss_cap_fraction"]).limit_denominator(1000)
    th = rules["carwars.tohit"]["to_hit"]
    blast = parse_dice(fire["explosion"]["damage"])
    consts = kernel_row(_layout.CONSTS_NAMES, metal_factor=col_t["metal_armour_factor"], cap_num=cap.numerator, cap_den=cap.denominator,
                        obstacle_hits=dmg["obstacle"]["hits_in_phase"], fire_hit_hi=fire["start"]["component_hit"][1],
                        fire_hit_fiery_hi=fire["start"]["component_hit_fiery"][1],
                        ext_standard_hi=fire["extinguisher"]["standard"][1], ext_improved_hi=fire["extinguisher"]["improved"][1],
                        ext_portable_hi=fire["extinguisher"]["portable"][1], explode_hi=fire["explosion"]["roll"][1],
                        natural_miss=th["natural_miss"], max_needed=th["max_needed"], area_divisor=dmg["area"]["share_divisor"],
                        fire_hit_lo=fire["start"]["component_hit"][0], fire_hit_fiery_lo=fire["start"]["component_hit_fiery"][0],
                        ext_standard_lo=fire["extinguisher"]["standard"][0], ext_improved_lo=fire["extinguisher"]["improved"][0],
                        ext_portable_lo=fire["extinguisher"]["portable"][0], explode_lo=fire["explosion"]["roll"][0],
                        fire_damage=fire["damage"]["per_turn"], blast_count=blast.count, blast_bonus=blast.bonus, blast_floor=blast.floor)
    return cyc, consts


def _collision_rows(scenario, vi: dict[str, int]) -> list[list[int]]:
    """The declared collisions (of the phase, or of every phase of a turn), with their ram dice and weight factor."""
    rules = scenario.rules
    col_rows = []
    collisions = [(0, c) for c in scenario.collisions]
    if scenario.turns:
        collisions = [(key[1] - 1, c) for key in sorted(scenario.plan.collisions) for c in scenario.plan.collisions[key]]
    for phase, c in collisions:
        expr = ram_dice(rules, c.speed)
        f = weight_factor(rules, c.weight_lb, c.pedestrian)
        col_rows.append(kernel_row(_layout.COL_COLUMNS, vehicle=vi[c.vehicle], count=expr.count if expr else 0,
                                   bonus=expr.bonus if expr else 0, floor=expr.floor if expr else 0, num=f.numerator,
                                   den=f.denominator, side=int(c.side), phase=phase))
    return col_rows


def _area_columns(scenario) -> dict[str, dict]:
    """An area-effect attack's columns per victim (CW-DMG-07): its place, the victims, the defender's rank of it,
    full damage (a flamethrower)."""
    area: dict[str, dict] = {}
    for a in ([] if scenario.turns else scenario.attacks):
        if a.victims:
            order = list(a.defender_order) + [v for v in a.victims if v not in a.defender_order]
            full = int(bool(_attack_spec(scenario, a).flamethrower))
            for i, v in enumerate(a.victims):
                area[f"{a.id}@{v}"] = dict(area_place=i, area_victims=len(a.victims), area_rank=order.index(v), area_full=full)
    return area


def _attack_rows_of(scenario, A: dict, crew_index: dict, tire_index: dict, vi: dict[str, int], pi: dict[str, int]):
    """The planned attacks' rows in the order they are rolled (`_planned`), with their names, the pedestrians their
    bursts reach and their default firers' rows: (atk, names, brst, afir)."""
    rules, arena = scenario.rules, scenario.arena
    atk_rows: list[list[int]] = []
    names: list[str] = []
    area = _area_columns(scenario)
    not_area = dict(area_place=-1, area_victims=0, area_rank=0, area_full=0)
    wounded_penalty = -rules["carwars.tohit"]["firer"]["wounded_skill"]
    brst: list[list[int]] = []
    afir: list[list[int]] = []
    for phase, a, b, firer_slot, weapon_slot, firer_wounded in _planned(scenario, crew_index, pi, A):
        if isinstance(b, str):    # cancelled by the rules when its phase comes, whatever the dice
            atk_rows.append(kernel_row(_layout.ATK_COLUMNS, **dict.fromkeys(_layout.ATK_COLUMNS[:13], 0), phase=phase, weapon_slot=-1,
                                       firer_slot=-1, needed_wounded=0, cancelled=1, **area.get(b, not_area), burst_lo=0, burst_hi=0,
                                       fir_lo=0, fir_hi=0))
            names.append(b)
            continue
        fir = _default_firers(scenario, a, afir, crew_index, A["c_hits"], wounded_penalty) if scenario.collisions else (0, 0)
        spec = _attack_spec(scenario, b)
        target = arena.buildings.get(b.target) or arena.unit(b.target, "attack.target")
        burst = (0, 0)
        if spec.burst_radius > 0 and b.aim_point is not None and arena.pedestrians and b.attack not in area \
                and not scenario.turns:
            # a single phase: nobody moves, so who the burst reaches is known before any die (a turn with
            # pedestrians and bursts runs in the fight kernel, which finds them phase by phase: _turn_unsupported)
            burst = burst_rows(arena, brst, b.aim_point, spec.burst_radius, burst_dice(rules, spec), b.target)
        atk_rows.append(kernel_row(_layout.ATK_COLUMNS, **shot_columns(b, spec, target, pi, vi, tire_index),
                                   fire_mod=spec.fire_modifier if spec.fire_modifier is not None else -1, fiery=int(spec.fiery),
                                   phase=phase, weapon_slot=weapon_slot, firer_slot=firer_slot,
                                   # the number needed if the firer is wounded when the phase comes (never for automatic fire, CW-AUTO-01)
                                   needed_wounded=b.needed if firer_wounded or b.automatic else b.needed + wounded_penalty,
                                   cancelled=0, **area.get(b.attack, not_area), burst_lo=burst[0], burst_hi=burst[1],
                                   fir_lo=fir[0], fir_hi=fir[1]))
        names.append(b.attack)
    return atk_rows, names, brst, afir


# --- the two backends ------------------------------------------------------------------------------

def reference_trial(scenario, seed: int, trial: int, end_of_turn: bool = False):
    """One trial on the reference: the phase, then (optionally) the end of the turn's fire checks.
    Returns (rolls, final arena)."""
    from .fire import end_of_turn_fire
    from .phase import resolve_phase

    arena = scenario.arena.copy()
    dice = SeededDice(seed, trial)
    if scenario.turns:
        from .turn import run_turns

        result = run_turns(arena, scenario.rules, scenario.plan, scenario.turns, dice, scenario.history, fight=scenario.fight)
    else:
        result = resolve_phase(arena, scenario.attacks, scenario.rules, dice, scenario.history, scenario.fired,
                               collisions=scenario.collisions)
        if end_of_turn:
            end_of_turn_fire(scenario.rules, arena, arena.fires, arena.turn, dice)
    flags = {}
    for v in arena.vehicles.values():
        f = 0
        state = arena.fires.get(v.id)
        if state is not None and state.burning:
            f |= 1
        if state is not None and state.exploded:
            f |= 2
        if v.uncontrolled and not scenario.arena.vehicles[v.id].uncontrolled:
            f |= 4
        flags[v.id] = f
    dropped = {o.source for o in arena.obstacles[len(scenario.arena.obstacles):]}
    for vid in dropped:
        flags[vid] |= 8
    return result, arena, flags


def _reference_rows(scenario, names, read, vids, lo: int, hi: int, seed: int, first: int, end_of_turn: bool, layout=None):
    """Trials first+lo .. first+hi-1 on the reference, as arrays (and the fight's, with a layout)."""
    n = hi - lo
    index = {name: j for j, name in enumerate(names)}
    hit = np.zeros((n, len(names)), dtype=np.uint8)
    dmg = np.zeros((n, len(names)), dtype=np.int32)
    state = None
    flags = np.zeros((n, len(vids)), dtype=np.uint8)
    fight = _fight_arrays(n, layout) if layout is not None else None
    for i in range(n):
        result, arena, fl = reference_trial(scenario, seed, first + lo + i, end_of_turn)
        for r in result.rolls:
            j = index.get(r.attack)
            if j is not None:
                hit[i, j] = r.hit
                dmg[i, j] = r.damage or 0
        row = read(arena)
        if state is None:
            state = np.zeros((n, len(row)), dtype=np.int32)
        state[i] = row
        flags[i] = [fl[v] for v in vids]
        if fight is not None:
            _fill_fight(fight, i, layout, result.fight)
    return hit, dmg, state, flags, fight


def saved_width(packed: "Packed") -> int:
    """The columns of a fight trial's saved state (run_fight's `saved`, from which a trial resumes): per vehicle 2,
    per mounted weapon 1, per weapon key 3 (the sustained-fire records), per unit 1, the fire ring, the grenade
    counts, then a flag per mines counter."""
    a, layout, V = packed.arrays, packed.layout, len(packed.vehicles)
    return 2 * V + int(a["w_key"].shape[0]) + 3 * len(layout.weapons) + len(layout.units) \
        + int(a["fc"][_layout.F_FIRE_RING]) * V + len(a["hand0"]) + int(a["fc"][_layout.F_COUNTERS])


def _fight_arrays(n: int, layout) -> dict:
    U, W = len(layout.units), len(layout.weapons)
    return {"out_turn": np.zeros((n, U), np.int16), "result": np.zeros(n, np.int16), "turns": np.zeros(n, np.int16),
            "shots": np.zeros((n, W), np.int32), "hits": np.zeros((n, W), np.int32), "damage": np.zeros((n, W), np.int32)}


def _fill_fight(arrays: dict, i: int, layout, fight: dict) -> None:
    uidx = {u: k for k, u in enumerate(layout.units)}
    widx = {w: k for k, w in enumerate(layout.weapons)}
    for o in fight["out"]:
        arrays["out_turn"][i, uidx[o["unit"]]] = o["turn"]
    arrays["result"][i] = layout.result_code(fight)
    arrays["turns"][i] = fight["turns"]
    for w in fight["weapons"]:
        k = widx.get((w["unit"], w["weapon"]))
        if k is not None:
            arrays["shots"][i, k] += w["shots"]
            arrays["hits"][i, k] += w["hits"]
            arrays["damage"][i, k] += w["damage"]


_FLAG_BITS = ((np.arange(256)[:, None] >> np.arange(4)) & 1).astype(np.int64)    # flag value -> its 4 bits


def _column_sums(a: np.ndarray) -> np.ndarray:
    """Exact int64 sums of a 2-D integer array's columns (einsum: 2-3x faster than `sum(axis=0, dtype=int64)` on
    the narrow arrays of a batch, docs/performance.md)."""
    return np.einsum("ij->j", a, dtype=np.int64)


def _flag_counts(flags: np.ndarray) -> np.ndarray:
    """(V, 4): per vehicle, the trials with each of the four flag bits set, from one histogram of the flag values
    (6x faster than a pass per bit)."""
    V = flags.shape[1]
    if V == 0:
        return np.zeros((0, 4), np.int64)
    values = (flags.astype(np.intp) + np.arange(V, dtype=np.intp) * 256).ravel()
    return np.bincount(values, minlength=256 * V).reshape(V, 256) @ _FLAG_BITS


def _fight_counts(arrays: dict, layout) -> dict:
    """FIGHT-05 totals: wins per side, draws, undecided; per unit trials out and a histogram of the turn it went
    out (bin t, 1..cap); per weapon sums and sums of squares of shots, hits and damage."""
    T = layout.turns
    out = arrays["out_turn"].astype(np.int64)
    ends = np.bincount(arrays["result"].astype(np.intp) + 2, minlength=len(layout.sides) + 2)   # -2 undecided, -1 draw, sides
    c = {"fight_wins": ends[2:2 + len(layout.sides)].astype(np.int64),
         "fight_draws": ends[1:2].astype(np.int64), "fight_undecided": ends[0:1].astype(np.int64),
         "fight_out_hist": np.stack([np.bincount(np.minimum(out[:, u], T), minlength=T + 1) for u in range(out.shape[1])])
         .astype(np.int64) if out.shape[1] else np.zeros((0, T + 1), np.int64),
         "fight_turns_hist": np.bincount(np.minimum(arrays["turns"].astype(np.int64), T), minlength=T + 1).astype(np.int64)}
    for k in ("shots", "hits", "damage"):
        a = arrays[k]
        c[f"fight_{k}_sum"] = _column_sums(a)
        c[f"fight_{k}_sq"] = np.einsum("ij,ij->j", a, a, dtype=np.int64)
    return c


def _run_reference(scenario, trials: int, seed: int, first: int, end_of_turn: bool, progress, keep: str = "arrays",
                   cancel=None) -> tuple:
    labels, kinds, read = _slots(scenario)
    names = turn_names(scenario) if scenario.turns else [b.attack for b in scenario.explain()]
    vids = list(scenario.arena.vehicles)
    initial = np.array(read(scenario.arena), dtype=np.int32)
    chunk = max(1, min(1000, trials // 100 or 1))
    from .fight import FightLayout, is_fight

    layout = FightLayout.of(scenario) if is_fight(scenario) else None

    def work(lo: int, hi: int):
        hit, dmg, state, flags, fight = _reference_rows(scenario, names, read, vids, lo, hi, seed, first, end_of_turn, layout)
        if state is None:
            state = np.zeros((0, len(labels)), dtype=np.int32)
        if progress is not None:
            progress(hi - lo)
        if keep == "arrays":
            return hit, dmg, state, flags, fight
        part = BatchResult(scenario.name, seed, first + lo, "reference", names, labels, kinds, vids, hit, dmg, state, flags, initial,
                           fight=fight, fight_layout=layout)
        return part.counts()

    run = run_chunks(work, trials, chunk, 1, cancel)
    if keep == "arrays":
        parts = run.results or [(np.zeros((0, len(names)), np.uint8), np.zeros((0, len(names)), np.int32),
                                 np.zeros((0, len(labels)), np.int32), np.zeros((0, len(vids)), np.uint8),
                                 _fight_arrays(0, layout) if layout is not None else None)]
        hit, dmg, state, flags = (np.concatenate([p[k] for p in parts]) for k in range(4))
        fight = None if layout is None else {k: np.concatenate([p[4][k] for p in parts]) for k in parts[0][4]}
        return names, labels, kinds, vids, hit, dmg, state, flags, initial, None, run.done, run.interrupted, fight, layout
    tallies = _sum_counts(run.results, len(names), len(labels), len(vids))
    return (names, labels, kinds, vids, None, None, None, None, initial, tallies, run.done, run.interrupted,
            None, layout)


def _sum_counts(parts: list[dict], A: int, S: int, V: int) -> dict:
    out = {"hit": np.zeros(A, np.int64), "damage_sum": np.zeros(A, np.int64), "damage_sq": np.zeros(A, np.int64),
           "destroyed": np.zeros(S, np.int64), "flags": np.zeros((V, 4), np.int64), "damage_hist": np.zeros((A, DMG_BINS), np.int64)}
    for p in parts:
        for k in p:
            out[k] = out[k] + p[k] if k in out else p[k].copy()
    return out


_SLOT_KIND = {"armour": 0, "dp": 0, "crew_hits": 1, "ped_hits": 1, "crew_armour": 2, "ped_armour": 2}


def _run_compiled(kernel, packed: Packed, trials: int, seed: int, first: int, end_of_turn: bool, threads: int,
                  chunk: int, progress, keep: str, cancel=None) -> tuple:
    a = packed.arrays
    A, S, V = a["atk"].shape[0], a["init"].shape[0], a["v_armour"].shape[0]
    if keep == "arrays":
        hit = np.zeros((trials, A), dtype=np.uint8)
        dmg = np.zeros((trials, A), dtype=np.int32)
        state = np.zeros((trials, S), dtype=np.int32)
        flags = np.zeros((trials, max(V, 1)), dtype=np.uint8)

        def work(lo: int, hi: int):
            rc = kernel.run_phase(seed, first + lo, a, int(end_of_turn), state[lo:hi], hit[lo:hi], dmg[lo:hi], flags[lo:hi],
                                  n_phases=packed.phases)
            if progress is not None:
                progress(hi - lo)
            return rc, None
    else:
        kinds = np.array([_SLOT_KIND[k] for k in packed.kinds], dtype=np.int32)

        def work(lo: int, hi: int):
            scratch = (np.zeros((1, S), np.int32), np.zeros((1, A), np.uint8), np.zeros((1, A), np.int32), np.zeros((1, max(V, 1)), np.uint8))
            acc = np.zeros(3 * A + S + 4 * V + DMG_BINS * A, dtype=np.int64)
            rc = kernel.run_phase(seed, first + lo, a, int(end_of_turn), *scratch, hi - lo, 0, kinds, acc, packed.phases)
            if progress is not None:
                progress(hi - lo)
            return rc, acc

    run = run_chunks(work, trials, chunk, threads, cancel)
    if any(rc != 0 for rc, _ in run.results):
        raise RuntimeError("compiled kernel refused the scenario")
    n = run.done
    if keep == "arrays":
        return (packed.attacks, packed.labels, packed.kinds, packed.vehicles, hit[:n], dmg[:n], state[:n], flags[:n, :V],
                a["init"].copy(), None, n, run.interrupted, None, None)
    acc = sum((x for _, x in run.results), np.zeros(3 * A + S + 4 * V + DMG_BINS * A, dtype=np.int64))
    tallies = {"hit": acc[:A], "damage_sum": acc[A:2 * A], "damage_sq": acc[2 * A:3 * A], "destroyed": acc[3 * A:3 * A + S],
               "flags": acc[3 * A + S:3 * A + S + 4 * V].reshape(V, 4), "damage_hist": acc[3 * A + S + 4 * V:].reshape(A, DMG_BINS)}
    return (packed.attacks, packed.labels, packed.kinds, packed.vehicles, None, None, None, None, a["init"].copy(), tallies, n,
            run.interrupted, None, None)


def _arrays_bytes(scenario, trials: int) -> int:
    """Bytes arrays mode holds for `trials` trials (hit, damage, every slot, the flags)."""
    labels, _, _ = _slots(scenario)
    attacks = sum(len(x) for x in scenario.plan.attacks.values()) if scenario.turns and scenario.plan else len(scenario.attacks)
    return trials * (attacks * 5 + len(labels) * 4 + len(scenario.arena.vehicles))


def run_batch(scenario, trials: int, seed: int = 0, *, first_trial: int = 0, backend: str | None = None,
              threads: int | None = None, chunk: int = 65536, end_of_turn: bool = False,
              progress: Callable[[int], Any] | None = None, keep: str = "arrays", cancel=None) -> BatchResult:
    """Run trials first_trial .. first_trial+trials-1 of `scenario` (FAST-01).

    `backend` is "compiled", "reference" or None/"auto" (HARDPOINT_BACKEND, then
    the compiled core when it covers the scenario). `threads` (default: the CPU
    count) split the trials into chunks run in parallel without the GIL; the
    results do not depend on `threads` or `chunk`. `keep="summary"` keeps only
    the counts (no per-trial arrays), for runs of millions of trials; arrays
    mode refuses, before anything runs, a batch that would not fit in memory.
    Ctrl-C or `cancel` (a threading.Event) stops the batch between chunks: the
    result covers the trials done, with `interrupted` set (SAFE-02).
    """
    import time

    from ..limits import check_chunk, check_seed, check_threads, check_trials
    from ..trials import check_memory

    if not _is_carwars(scenario):
        raise ScenarioError("hardpoint.carwars.batch.run_batch runs Car Wars scenarios; use hardpoint.run_batch for any rule set",
                            field="scenario", value=getattr(scenario, "name", type(scenario).__name__), rule="ARCH-03")
    trials, first_trial = check_trials(trials, first_trial)
    seed = check_seed(seed)
    threads = check_threads(threads) or os.cpu_count() or 1
    chunk = check_chunk(chunk)
    choice = backend if backend is not None else _backend.requested()
    if not isinstance(choice, str) or choice.lower() not in ("auto", "compiled", "reference"):
        raise ScenarioError("expected auto, compiled or reference", field="backend", value=backend, rule="ARCH-04")
    choice = choice.lower()
    if keep not in ("arrays", "summary"):
        raise ScenarioError("expected arrays or summary", field="keep", value=keep, rule="FAST-01")
    if keep == "arrays":
        check_memory(_arrays_bytes(scenario, trials), f"keeping the arrays of {trials:,} trials", value=trials)
    packed = pack(scenario) if choice != "reference" else None
    reason = packed.reason if isinstance(packed, Unpackable) else None
    kernel = None
    if choice != "reference":
        if reason is None:
            kernel = _backend.compiled_module("_carwars", "auto" if choice == "auto" else "compiled")
        elif choice == "compiled":
            raise ScenarioError(f"the compiled core does not cover this scenario: {reason}", field="backend", value="compiled", rule="ARCH-04")
        else:
            _warn_once(reason)
    start = time.perf_counter()
    if scenario.turns:
        end_of_turn = True   # a turn always ends with its fire checks (run_turns)
    if kernel is not None and packed.layout is not None:
        out = _run_fight_compiled(kernel, scenario, packed, trials, seed, first_trial, threads, chunk, progress, keep, cancel)
        used = "compiled"
    elif kernel is not None:
        out = _run_compiled(kernel, packed, trials, seed, first_trial, end_of_turn, threads, chunk, progress, keep, cancel)
        used = "compiled"
    else:
        out = _run_reference(scenario, trials, seed, first_trial, end_of_turn, progress, keep, cancel)
        used = "reference"
    names, labels, kinds, vids, hit, dmg, state, flags, initial, tallies, done, interrupted, fight, layout = out
    result = BatchResult(scenario.name, seed, first_trial, used, list(names), labels, kinds, vids, hit, dmg, state, flags,
                         initial, time.perf_counter() - start, done, tallies, interrupted, fight, layout)
    return result


def _is_carwars(scenario) -> bool:
    from .scenario import CarWarsScenario

    return isinstance(scenario, CarWarsScenario)


_warned: set[str] = set()


def _warn_once(reason: str) -> None:
    if reason not in _warned:
        _warned.add(reason)
        warnings.warn(f"hardpoint.carwars.batch: {reason}; running the reference", _backend.BackendWarning, stacklevel=3)


def concat(parts: list[BatchResult]) -> BatchResult:
    """Join consecutive batches of one scenario (in trial order) into one."""
    first = parts[0]
    return BatchResult(first.scenario, first.seed, first.first_trial, first.backend, first.attacks, first.labels, first.kinds,
                       first.vehicles, np.concatenate([p.hit for p in parts]), np.concatenate([p.damage for p in parts]),
                       np.concatenate([p.state for p in parts]), np.concatenate([p.flags for p in parts]), first.initial,
                       sum(p.seconds for p in parts))


def _dask_chunk(scenario, seed: int, first: int, count: int, backend: str | None, end_of_turn: bool) -> BatchResult:
    return run_batch(scenario, count, seed, first_trial=first, backend=backend, threads=1, end_of_turn=end_of_turn)


def run_batch_dask(scenario, trials: int, seed: int = 0, *, client=None, chunk: int = 1_000_000, first_trial: int = 0,
                   backend: str | None = None, end_of_turn: bool = False) -> BatchResult:
    """FAST-03: the same batch spread over a Dask cluster, one task per chunk of trials.

    Each task is a pure function of (scenario, seed, first trial, count), so the
    result is identical to `run_batch` in one process, whatever the chunk size
    or the number of workers. Needs `pip install hardpoint[dask]`.
    """
    try:
        from distributed import get_client
    except ImportError:  # pragma: no cover - the optional extra
        raise ScenarioError("Dask is not installed: pip install 'hardpoint[dask]'", field="client", rule="FAST-03") from None
    from ..limits import check_chunk, check_seed, check_trials

    trials, first_trial = check_trials(trials, first_trial)
    seed = check_seed(seed)
    chunk = check_chunk(chunk, rule="FAST-03")
    client = client or get_client()
    bounds = [(lo, min(trials, lo + chunk) - lo) for lo in range(0, trials, chunk)]
    futures = client.map(_dask_chunk, [scenario] * len(bounds), [seed] * len(bounds), [first_trial + lo for lo, _ in bounds],
                         [n for _, n in bounds], [backend] * len(bounds), [end_of_turn] * len(bounds), pure=False)
    parts = client.gather(futures)
    result = concat(parts)
    result.first_trial = first_trial
    return result


# --- whole fights: many turns and standing orders (FIGHT-01..05) -----------------------------------------------

KERNEL_WEAPON_KEYS = 262144  # fastcore/_carwars.pyx MAXW: weapons (mounted, and the hand weapons of the fight's layout)
_KERNEL_UNITS = 65536         # fastcore/_carwars.pyx MAXU: vehicles and pedestrians of a fight
_KERNEL_CHARACTERS = 262144   # fastcore/_carwars.pyx MAXCH: crew members and pedestrians (who fired this turn)
_KERNEL_FIRE_TURNS = 8      # the fewest turns the fight kernel keeps fire modifiers for (fc FIRE_RING, `fire_ring`)
_KERNEL_FIRE_RING = 128     # fastcore/_carwars.pyx MAX_FIRE_RING: the most it keeps them for


def _runs_as_fight(scenario) -> bool:
    """Whether the fight kernel runs it: more than one turn, or any turn with standing orders or until decided, or
    one turn of planned attacks that the one-turn kernel (`run_phase`) does not run."""
    f = getattr(scenario, "fight", None)
    if not scenario.turns:
        return False
    if scenario.turns > 1 or (f is not None and (bool(f.orders) or f.until_decided)):
        return True
    return _turn_unsupported(scenario) is not None


def _fight_unsupported(scenario) -> str | None:
    """What the fight kernel does not run (docs/architecture.md lists each with its reason), or None.

    Everything in it must be the same in every trial but what the dice decide in the kernel: damage, crew,
    fire, ammunition, sustained fire, who is out of action, whom the orders shoot, which mines go off. Movement
    goes straight and stops where counters collide (FIGHT-04), which no die changes. Three things the dice decide
    change what later phases are: a vehicle going out of control (it slows down at the end of the turn); a
    drop or automatic switch the packing has happen that the dice prevent (a weapon destroyed, a driver who
    has fired); and a substitution at the wheel or a grenade fetched from the cargo that goes otherwise than the
    packing has it (the driver still able, the substitute down; the box destroyed): the wrapper packs the fight
    again for such a trial (`_Fact`), and runs it on from there."""
    from .model import Vehicle as _Vehicle

    arena, plan = scenario.arena, scenario.plan
    if _drives(scenario):
        from .drivepack import drive_unsupported

        return drive_unsupported(scenario) or _fight_limits(scenario)
    if scenario.fight is not None and any(o.weapons and any(not arena.vehicles[o.unit].weapon(w).spec.aimed for w in o.weapons)
                                          for o in scenario.fight.orders if o.unit in arena.vehicles):
        return "standing orders that drop weapons (FIGHT-10): the fight kernel does not drop on orders yet"

    switched = {(a.vehicle, a.weapon) for actions in plan.actions.values() for a in actions
                if a.kind in ("automatic_on", "automatic_off")}
    for (turn, phase), planned in plan.attacks.items():
        for a in planned:
            unit = arena.unit(a.attacker, "attack")
            if isinstance(unit, _Vehicle):
                if a.weapon in unit.links:
                    from .special import flatten_link

                    members = flatten_link(unit, a.weapon, "attack")
                    if any(not w.spec.aimed for w in members):
                        return "a link with dropped, smoke or paint weapons fired as an attack in a turn"
                    if any(w.automatic for w in members) or any((a.attacker, w.id) in switched for w in members):
                        return "a link with a weapon on automatic fired as an attack in a turn"
                    if unit.sidecar and any(w in unit.sidecar.weapons for w in members):
                        return "a link with a sidecar weapon fired as an attack in a turn"
                if (a.firer or a.victims) and any(w.id == a.weapon and w.automatic for w in unit.all_weapons()):
                    return "a planned attack with a weapon on automatic that names a firer or sweeps an area, in a turn"
    for (turn, _phase), actions in plan.actions.items():
        for a in actions:
            if a.kind not in _FIGHT_ACTIONS and turn >= arena.turn:     # (a committed turn's actions are done)
                return f"the declared action {a.kind!r} in a turn"
    reason = _detonation_ids_unsure(arena, plan)
    if reason:
        return reason
    # a gun switched to or from automatic that orders fire runs: orders are chosen as each phase comes, from the
    # packing of whether the switch happened (a trial where the dice cancel it runs again under the "cancel" fact);
    # a planned attack's own entry is fixed when packed, as aimed or automatic
    planned = {(a.attacker, a.weapon) for xs in plan.attacks.values() for a in xs}
    if switched & planned:
        return "a weapon switched to or from automatic that a planned attack also fires"
    for v in arena.vehicles.values():
        if v.substitute is not None and v.steered_turn is not None and v.steered_turn >= arena.turn:
            return "a substitute driver who has steered in the fight's first turn"
    return _fight_limits(scenario)


def _drives(scenario) -> bool:
    """A fight with movement orders (FIGHT-07): the kernel's `run_drive` runs it (drivepack.pack_drive)."""
    f = getattr(scenario, "fight", None)
    return f is not None and bool(f.drives)


def _fight_limits(scenario) -> str | None:
    """What the fight kernels' sizes cannot hold: units, characters, phases a turn, the fire ring."""
    arena, rules = scenario.arena, scenario.rules
    units = len(arena.vehicles) + len(arena.pedestrians)
    if len(arena.vehicles) > _KERNEL_VEHICLES:
        return f"more than {_KERNEL_VEHICLES} vehicles"
    if units > _KERNEL_UNITS:
        return f"more than {_KERNEL_UNITS} units in a fight"
    if sum(len(list(v.all_crew())) for v in arena.vehicles.values()) + len(arena.pedestrians) > _KERNEL_CHARACTERS:
        return f"more than {_KERNEL_CHARACTERS} crew members and pedestrians"
    if rules["carwars.turn"]["phases"] > _KERNEL_PHASES:
        return f"more than {_KERNEL_PHASES} phases a turn"
    if fire_ring(scenario) > _KERNEL_FIRE_RING:
        return f"fire modifiers lasting more than {_KERNEL_FIRE_RING - 2} turns"
    return None


_FIGHT_ACTIONS = ("maneuver", "automatic_on", "automatic_off", "drop", "detonate", "steer", "substitute", "fetch_grenade")   # the declared actions the fight kernel runs


def _detonation_ids_unsure(arena, plan) -> str | None:
    """A counter a drop lays takes another id when its plain one is taken (`dropped.counter_id`); mines set off by
    remote control leave the reference's map but stay on the packer's, so mines laid and set off in one phase, with
    a weapon of the same id that may drop later in that phase, could leave the next counter named otherwise than in
    the reference: the kernel does not run it."""
    from .dropped import counter_base

    auto = {(a.vehicle, a.weapon) for xs in plan.actions.values() for a in xs if a.kind == "automatic_on"}
    for (turn, phase), actions in plan.actions.items():
        for a in actions:
            if a.kind != "detonate" or not (a.counter or "").endswith(f".t{turn}p{phase}"):
                continue                      # laid in an earlier phase: no drop of this phase can take its id
            base = counter_base(a.counter)
            dropping = {w.id for v in arena.vehicles.values() for w in v.all_weapons()
                        if w.spec.dropped and (w.automatic or (v.id, w.id) in auto)}
            dropping |= {x.weapon for x in actions if x.kind == "drop" and x.weapon}
            if any(base == wid or base.endswith(f".{wid}") for wid in dropping):
                return "a detonation in a phase in which a weapon of the same id may drop (the new counter's id would depend on the dice)"
    return None


def fire_ring(scenario) -> int:
    """How many turns the fight kernel keeps a vehicle's fire modifiers for (fc FIRE_RING; turn t at t % ring): more
    than the longest any of them lasts, so that none laid now still counts when its place comes round again: the
    longest burn of a weapon the scenario can fire or lay (vehicle, hand and flaming oil weapons) and of a fire
    source carried in, plus 2; at least 8 (CW-FIRE-01). At most 102: the schema's burns last 100 turns at most."""
    from .special import fetched_grenade, grenade_boxes
    from .tables import weapon_spec

    arena, rules = scenario.arena, scenario.rules
    specs = [w.spec for v in arena.vehicles.values() for w in v.all_weapons()]
    specs += [weapon_spec(rules, h, hand=True) for v in arena.vehicles.values() for c in v.all_crew() for h in c.hand_weapons]
    specs += [weapon_spec(rules, h, hand=True) for p in arena.pedestrians.values() for h in p.weapons]
    specs += [weapon_spec(rules, rules["carwars.fire"]["start"]["flaming_oil_weapon"])]
    if any(grenade_boxes(v) for v in arena.vehicles.values()):
        specs += [weapon_spec(rules, fetched_grenade(rules), hand=True)]     # got out of a box, then thrown
    longest = max([s.burn_duration or 0 for s in specs if s.fire_modifier is not None], default=0)
    carried = max([s.turn + s.burn_duration - arena.turn for f in arena.fires.values() for s in f.sources], default=0)
    return max(_KERNEL_FIRE_TURNS, longest + 2, carried + 2)


def _run_fight_compiled(kernel, scenario, packed: "Packed", trials: int, seed: int, first: int, threads: int, chunk: int,
                        progress, keep: str, cancel=None) -> tuple:
    """A batch of fights in the kernel. A trial in which a moving vehicle goes out of control goes on under a
    packing of the movement with that vehicle slowing down; one in which a drop or switch went otherwise than
    packed runs again from its start under a packing with that outcome (`fightpack.pack_fight`'s facts). One packing per
    set of facts, made when first needed and kept for the batch; if that packing fails, or a trial asks for a
    fact its packing already has, the trial runs on the reference."""
    run = (_DriveRun if packed.drive is not None else _FightRun)(kernel, scenario, packed, seed, first, progress, keep)
    result = run_chunks(run.chunk, trials, chunk, threads, cancel)
    for reason in dict.fromkeys(run.fallbacks):     # a performance bug to report, never a wrong result
        _warn_once(f"some trials of the fight: {reason}")
    return run.outputs(result)


def _fight_variants() -> dict:
    """A fight's packings per set of facts (`fightpack.pack_fight`), the shots they explained and the states at the
    start of their turns they go on from, kept with its default packing (`Packed.variants`)."""
    return {"packings": {}, "explained": {}, "states": {}}


def _counter_flags(p: "Packed") -> int:
    """How many counters a packing has rows for: the flags (mines gone off, drops not made) after `saved`'s width."""
    return int(p.arrays["fc"][_layout.F_COUNTERS])


class _FightRun:
    """One batch of fights in the kernel (`_run_fight_compiled`): what its chunks share, and the packings per set
    of facts (`fightpack.pack_fight`), made as the trials need them and kept with the packing for the next batch."""

    def __init__(self, kernel, scenario, packed: "Packed", seed: int, first: int, progress, keep: str):
        self.kernel, self.scenario, self.packed, self.seed, self.first = kernel, scenario, packed, seed, first
        self.progress, self.keep = progress, keep
        a = packed.arrays
        self.layout = packed.layout
        self.S, self.V = a["init"].shape[0], len(packed.vehicles)
        self.X = saved_width(packed) - _counter_flags(packed)     # `saved`, then a flag per mines counter
        self.labels, self.kinds, self.read = _slots(scenario)
        self.vids = list(scenario.arena.vehicles)
        self.fight_on = scenario.fight is not None and _is_fight(scenario)
        with _VARIANTS_LOCK:
            if packed.variants is None:           # kept with the packing (cached on the scenario) for the next batch
                packed.variants = _fight_variants()
                packed.variants["packings"][frozenset()] = packed
        self.variants, self.cache, self.states = packed.variants["packings"], packed.variants["explained"], packed.variants["states"]
        self.fallbacks: list[str] = []       # why some trials ran on the reference (a warning each, once the batch is done)
        self.A = len(packed.attacks)

    def variant(self, key: frozenset) -> "Packed | Unpackable":
        """The packing for a set of facts, made once (a packer error makes it Unpackable: those trials run on the
        reference, never a wrong result)."""
        from .fightpack import pack_fight     # (it packs on `_pack`'s arrays: a cycle at import)

        with _VARIANTS_LOCK:
            if key not in self.variants:
                try:
                    self.variants[key] = pack_fight(self.scenario, self.packed.base, key, self.cache, self.states)
                except Exception as exc:   # never a wrong result: the reference runs those trials
                    self.variants[key] = Unpackable(f"the packer refused a variant: {exc}")
            return self.variants[key]

    def kernel_run(self, p: "Packed", n: int, state, flags, fight, saved, saved_k, start, ids, hit, dmg):
        """`run_fight` on n trials under packing p: which diverged (a vehicle out of control, by turn) and which must
        run again (a drop row, from 1)."""
        diverged = np.zeros(n, np.int16)
        redo = np.zeros(n, np.int32)
        rc = self.kernel.run_fight(self.seed, self.first, p.arrays, state, flags, fight["out_turn"], fight["result"], fight["turns"],
                                   fight["shots"], fight["hits"], fight["damage"], diverged, saved, saved_k, start, ids, hit, dmg, redo)
        if rc != 0:
            raise RuntimeError("compiled kernel refused the scenario")
        return diverged, redo

    def trials(self, lo: int, hi: int) -> "_FightTrials":
        """The chunk of trials lo..hi-1, as this run plays them."""
        return _FightTrials(self, lo, hi)

    def chunk(self, lo: int, hi: int):
        """Trials lo..hi-1 (`trials.run_chunks`): their arrays, or their counts in summary mode."""
        trials = self.trials(lo, hi)
        trials.run_all()
        if self.progress is not None:
            self.progress(hi - lo)
        return trials.output()

    def outputs(self, result) -> tuple:
        """The chunks' results joined, as `run_batch` takes them."""
        A, S, V, layout, packed = self.A, self.S, self.V, self.layout, self.packed
        fight_layout = layout if self.fight_on else None
        init = packed.arrays["init"].copy()
        if self.keep == "arrays":
            parts = result.results or [(np.zeros((0, A), np.uint8), np.zeros((0, A), np.int32), np.zeros((0, S), np.int32),
                                        np.zeros((0, V), np.uint8), _fight_arrays(0, layout))]
            hit, dmg, state, flags = (np.concatenate([p[k] for p in parts]) for k in range(4))
            fight = {k: np.concatenate([p[4][k] for p in parts]) for k in parts[0][4]}
            return (list(packed.attacks), self.labels, self.kinds, self.vids, hit, dmg, state, flags, init, None, result.done,
                    result.interrupted, fight if self.fight_on else None, fight_layout)
        tallies = _sum_counts(result.results, A, S, V)
        return (list(packed.attacks), self.labels, self.kinds, self.vids, None, None, None, None, init, tallies, result.done,
                result.interrupted, None, fight_layout)


#: why a trial of a packed fight runs on the reference after an obstacle drops (the kernel's redo -1)
OBSTACLE_MET = "an obstacle dropped where a vehicle's movement runs onto it later (CW-SEED-04: no packing follows it)"


class _FightTrials:
    """The trials of one chunk of a fight batch: the kernel's outputs for them, run first under the default
    packing, then again, group by group, under the packings of the facts their dice decided, until none is left
    (the trials' sets of facts are numbered by `kid`)."""

    def __init__(self, run: _FightRun, lo: int, hi: int):
        self.run, self.lo, self.n = run, lo, hi - lo
        n = self.n
        self.state = np.zeros((n, run.S), np.int32)
        self.flags = np.zeros((n, max(run.V, 1)), np.uint8)
        self.fight = _fight_arrays(n, run.layout)
        self.saved = np.zeros((n, run.X + _counter_flags(run.packed)), np.int32)
        self.saved_k = np.zeros(n, np.uint64)
        self.hit, self.dmg = np.zeros((n, run.A), np.uint8), np.zeros((n, run.A), np.int32)
        self.key_list: list = [frozenset()]       # the trials' sets of facts, by number (`kid`)
        self.key_ids: dict = {frozenset(): 0}
        self.kid = np.zeros(n, np.int64)
        self.start = np.zeros(n, np.int16)

    def run_all(self) -> None:
        """Every trial under the default packing, then those handed back under their facts' packings."""
        run, lo = self.run, self.lo
        self.diverged, self.redo = run.kernel_run(run.packed, self.n, self.state, self.flags, self.fight, self.saved, self.saved_k,
                                                  np.zeros(self.n, np.int16), np.arange(run.first + lo, run.first + lo + self.n, dtype=np.uint64),
                                                  self.hit, self.dmg)
        todo = np.flatnonzero((self.diverged != 0) | (self.redo != 0))
        while len(todo):
            met = todo[self.redo[todo] < 0]
            if len(met):        # an obstacle dropped where a vehicle runs onto it later (CW-SEED-04): no packing follows it
                self.run.fallbacks.append(OBSTACLE_MET)
                self._on_reference(met)
                todo = todo[self.redo[todo] >= 0]
            groups: dict = {}
            self._redo_groups(todo, groups)
            self._slowdown_groups(todo, groups)
            groups = {key: np.concatenate(parts) for key, parts in groups.items()}
            self._number(groups)
            todo_next = []
            for key, rows in groups.items():
                left = self._run_group(key, rows)
                if left is not None:
                    todo_next.append(left)
            todo = np.concatenate(todo_next) if todo_next else np.zeros(0, np.int64)

    def _add(self, groups: dict, key, rows, at: int) -> None:
        """The rows join a group of its set of facts, each to start again at turn `at` (0: from the start)."""
        self.start[rows] = at
        groups.setdefault(key, []).append(rows)

    def _redo_groups(self, todo, groups: dict) -> None:
        """A drop or switch went otherwise than packed: run the trial again from its start, with that fact (None: no
        packing says what happened)."""
        again = todo[self.redo[todo] > 0]
        if not len(again):
            return
        variants, key_list = self.run.variants, self.key_list
        pairs, inv = _pairs(self.kid[again], self.redo[again])
        for j, (k, r) in enumerate(pairs):
            row = variants[key_list[k]].arrays["drop"][int(r) - 1]
            fact = variants[key_list[k]].facts[int(row[_layout.DROP_FACT])]
            # no packing says what happened: the packing had it as the fact says, or a drop, switch or
            # detonation went ahead that the packing has not happen (only a substitution has a fact for that)
            known = fact in key_list[k] or (not row[_layout.DROP_ASSUMED] and row[_layout.DROP_KIND] != _layout.DR_SUBSTITUTE)
            self._add(groups, None if known else key_list[k] | {fact}, again[inv == j], 0)

    def _slowdown_groups(self, todo, groups: dict) -> None:
        """Moving vehicles out of control (CW-CREW-03): on from the end of that turn, with them slowing."""
        on = todo[self.redo[todo] == 0]
        if not len(on):
            return
        V = self.run.V
        pairs, inv = _pairs(self.kid[on], self.diverged[on])
        unc = (self.flags[on, :V] & 4) != 0
        for j, (k, d) in enumerate(pairs):
            cur = self.run.variants[self.key_list[k]]
            moving = (cur.arrays["moving_end"][(d - 1) * V:d * V] != 0) & (cur.arrays["known_unc"] == 0)
            masks, inv2 = _rows(unc[inv == j] & moving)
            rows_j = on[inv == j]
            for q, mask in enumerate(masks):
                new = frozenset(("slow", int(v), int(d)) for v in np.flatnonzero(mask))
                self._add(groups, self.key_list[k] | new, rows_j[inv2 == q], int(d))

    def _number(self, groups: dict) -> None:
        """Each group's trials take its set of facts' number."""
        for key, rows in groups.items():
            if key is not None:
                if key not in self.key_ids:
                    self.key_ids[key] = len(self.key_list)
                    self.key_list.append(key)
                self.kid[rows] = self.key_ids[key]

    def _run_group(self, key, rows):
        """One group's trials under its packing (on the reference if there is none): the rows handed back again."""
        p = self.run.variant(key) if key is not None else None
        if p is None or isinstance(p, Unpackable):
            self.run.fallbacks.append(p.reason if p is not None else
                                      "a dropped weapon or a switch went otherwise than the packing of its trial knew it went")
            self._on_reference(rows)
            return None
        return self._resume(p, rows)

    def _on_reference(self, rows) -> None:
        """The trials whole on the reference (`_reference_rows`), in place of what the kernel had."""
        run = self.run
        for i in rows:
            h_, d_, st_, fl_, fi_ = _reference_rows(run.scenario, run.packed.attacks, run.read, run.vids, self.lo + int(i),
                                                    self.lo + int(i) + 1, run.seed, run.first, True, run.layout if run.fight_on else None)
            self.hit[i], self.dmg[i] = h_[0], d_[0]
            self.state[i] = st_[0]
            self.flags[i, :run.V] = fl_[0]
            if fi_ is not None:
                for k in self.fight:
                    self.fight[k][i] = fi_[k][0]

    def _resume(self, p: "Packed", rows):
        """The trials run on under packing p from their start turn (their saved state widened to its counters)."""
        run = self.run
        if self.saved.shape[1] < run.X + _counter_flags(p):
            self.saved = np.pad(self.saved, ((0, 0), (0, run.X + _counter_flags(p) - self.saved.shape[1])))
        sub_state, sub_flags = np.ascontiguousarray(self.state[rows]), np.ascontiguousarray(self.flags[rows])
        sub_fight = {k: np.ascontiguousarray(v[rows]) for k, v in self.fight.items()}
        sub_saved, sub_k = np.ascontiguousarray(self.saved[rows]), np.ascontiguousarray(self.saved_k[rows])
        sub_hit, sub_dmg = np.ascontiguousarray(self.hit[rows]), np.ascontiguousarray(self.dmg[rows])
        d2, r2 = run.kernel_run(p, len(rows), sub_state, sub_flags, sub_fight, sub_saved, sub_k, np.ascontiguousarray(self.start[rows]),
                                (run.first + self.lo + rows).astype(np.uint64), sub_hit, sub_dmg)
        self.state[rows], self.flags[rows], self.saved[rows], self.saved_k[rows] = sub_state, sub_flags, sub_saved, sub_k
        self.hit[rows], self.dmg[rows] = sub_hit, sub_dmg
        for k in self.fight:
            self.fight[k][rows] = sub_fight[k]
        self.diverged[rows], self.redo[rows] = d2, r2
        return rows[(d2 != 0) | (r2 != 0)]

    def output(self):
        """The chunk's arrays, or in summary mode its counts."""
        run = self.run
        flags = self.flags[:, :run.V]
        if run.keep == "arrays":
            return self.hit, self.dmg, self.state, flags, self.fight
        part = BatchResult(run.scenario.name, run.seed, run.first + self.lo, "compiled", run.packed.attacks, run.labels, run.kinds,
                           run.vids, self.hit, self.dmg, self.state, flags, run.packed.arrays["init"],
                           fight=self.fight if run.fight_on else None, fight_layout=run.layout if run.fight_on else None)
        return part.counts()


_VARIANTS_LOCK = threading.RLock()


class _DriveRun(_FightRun):
    """One batch of a fight that drives (FIGHT-07..12) in the kernel (`run_drive`): one packing, the vehicles' places
    worked out trial by trial; a trial the kernel hands back (REASONS) runs on the reference."""

    REASONS = {1: "a geometry call the compiled driver was unsure of (a polygon the reference might refuse)",
               2: "more contacts in a phase than the compiled driver keeps",
               3: "a third vehicle near a line of fire (the compiled driver traces no line past a blocker)"}

    def kernel_run(self, p: "Packed", n: int, state, flags, fight, saved, saved_k, start, ids, hit, dmg):
        """`run_drive` on n trials: none diverges; `redo` marks those the reference must run (its reason, from 1)."""
        redo = np.zeros(n, np.int32)
        rc = self.kernel.run_drive(self.seed, self.first, p.arrays, p.drive, state, flags, fight["out_turn"], fight["result"],
                                   fight["turns"], fight["shots"], fight["hits"], fight["damage"], ids, redo)
        if rc != 0:
            raise RuntimeError("compiled kernel refused the scenario")
        return np.zeros(n, np.int16), redo

    def trials(self, lo: int, hi: int) -> "_DriveTrials":
        return _DriveTrials(self, lo, hi)


class _DriveTrials(_FightTrials):
    """A chunk of a fight that drives: every trial in the kernel, those it hands back on the reference."""

    def run_all(self) -> None:
        run, lo = self.run, self.lo
        ids = np.arange(run.first + lo, run.first + lo + self.n, dtype=np.uint64)
        _, self.redo = run.kernel_run(run.packed, self.n, self.state, self.flags, self.fight, None, None, None, ids, self.hit,
                                      self.dmg)
        back = np.flatnonzero(self.redo)
        if len(back):
            for code in sorted(set(int(c) for c in self.redo[back])):
                run.fallbacks.append(_DriveRun.REASONS.get(code, f"the compiled driver handed a trial back ({code})"))
            self._on_reference(back)


def _pairs(a: np.ndarray, b: np.ndarray) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The distinct (a, b) pairs of two non-negative int columns, and each row's pair (np.unique on one int64)."""
    joined = a.astype(np.int64) << 32 | b.astype(np.int64)
    uniq, inv = np.unique(joined, return_inverse=True)
    return [(int(u >> 32), int(u & 0xFFFFFFFF)) for u in uniq], inv.ravel()


def _rows(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a boolean matrix, and each row's (np.unique, on one int64 per row up to 62 columns)."""
    if m.shape[1] > 62:
        uniq, inv = np.unique(m, axis=0, return_inverse=True)
        return uniq, inv.ravel()
    code = m.astype(np.int64) @ (np.int64(1) << np.arange(m.shape[1], dtype=np.int64))
    uniq, inv = np.unique(code, return_inverse=True)
    return ((uniq[:, None] >> np.arange(m.shape[1])) & 1).astype(bool), inv.ravel()


def _is_fight(scenario) -> bool:
    from .fight import is_fight

    return is_fight(scenario)
