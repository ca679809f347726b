"""The fight packer: a whole Car Wars fight as the flat int32 arrays of the fight kernel (FIGHT-01..05).

`pack_fight` adds to a scenario's one-turn packing (`batch.pack`) what `fastcore/_carwars.pyx:run_fight` needs:
the orders' candidate shots at every phase of every turn, the collisions and contacts of the movement, the
declared and automatic drops, where explosions reach at each turn's end, the out-of-action switches and the
sides. It plays the fight on a copy of the arena as `carwars.turn.run_turns` does, with everything the dice
decide left to the kernel; `FightPacker` holds that copy and the rows, one method per concern.
"""
from __future__ import annotations

import dataclasses
import math
import pickle

import numpy as np

from ..dice import parse_dice
from ..errors import HardpointError, RuleViolation, ScenarioError
from ..ruleset import Unpackable
from . import _layout
from . import geometry as geo
from .attack import Attack, Scene, attack_weapon, default_firer_pool
from .batch import (KERNEL_WEAPON_KEYS, PARTS, Packed, blast_rows, burst_rows, carried_fire, fire_ring, kernel_row, padded_rows,
                    shot_columns, turn_names)
from .boxgrid import BoxGrid, bounds
from .collision import ram_dice, weight_factor
from .crew import crash_table_band, substitute_barred, take_controls
from .dropped import (OIL_KINDS, contact, counter_id, damages_again, drop_weapon, dropped_kind, expire_counters, intersects, oil_maneuver,
                      paint_contact, spiked_tires, swept_polygon)
from .enums import CrewRole, Mount, Side
from .fight import TARGET_POLICIES, Fight, FightLayout, counts_for_orders, order_min36, ordered_weapons, weapons_of
from .model import Obstacle, Pedestrian, slowed
from .motion import move_with_contacts
from .phase import burst_dice, explain_phase
from .special import (automatic_target, expand_link, fetched_grenade, fires_on_automatic, flatten_link, grenade_boxes,
                      grenade_equivalents, set_automatic)
from .tables import check_usable, weapon_spec
from .terrain import ditch_hazards, gully_hazards, obstacle_hazards, offroad_rolls, on_ditches, on_obstacles
from .tohit import hit_probability
from .turn import FiredThisTurn, do_action, drops_now, end_handling, phase_distances
from .validate import check_drop_static

__all__ = ["FightPacker", "TurnStates", "fact_turn", "layout_of", "pack_fight"]


def pack_fight(scenario, base: Packed, facts: frozenset = frozenset(), cache: dict | None = None,
               states: dict | None = None) -> Packed | Unpackable:
    """Add to the packed arrays what the fight kernel needs: the orders' candidate shots at every phase of every
    turn (in the order `carwars.fight.order_attacks` weighs them), the collisions of the movement, where
    explosions reach at each turn's end, the out-of-action switches (FIGHT-03) and the sides (FIGHT-01).
    Mirrors `carwars.turn.run_turns` over the fight's turns; the kernel must agree with it trial by trial.

    `facts` (`_Fact` tuples) are what the dice decided in the trials this packing is for, where the default
    packing guessed otherwise: ("slow", vehicle index, turn): that vehicle went out of control in that turn
    (counted from 1) and slows down from its end as `turn._end_of_turn` slows it (CW-CREW-03); ("gone",
    vehicle, weapon, turn, phase): the weapon was destroyed by then, so it drops nothing more; ("cancel", turn,
    phase, action index): that drop, switch or substitution was cancelled (its driver or weapon had fired; the
    driver was still able or the substitute down); ("substitute", turn, phase, action index): that substitution
    went ahead. Otherwise every drop and switch happens, no mines go off (the kernel skips mines that did), and a
    substitution goes ahead as the state the packing knows allows. `cache` keeps the explained shots between
    packings of one scenario. `states` keeps each packing's state at the start of its turns (`TurnStates`, by
    set of facts): a packing whose facts agree with one's there up to a turn goes on from that turn instead of
    packing the turns before it again (the same arrays, bit for bit)."""
    first, source = _resume_point(states or {}, facts, scenario.arena.turn, int(scenario.turns))
    # the arena to play the fight on: a copy of the scenario's, or the same unpickled from the start of a packing
    # this one goes on from (ten times cheaper)
    arena = scenario.arena.copy() if source is None else pickle.loads(source.starts[0][1])[0]
    layout = layout_of(scenario)
    reason = _unpackable(scenario, arena, layout)
    if reason is not None:
        return Unpackable(reason)
    packer = FightPacker(scenario, base, arena, layout, facts, cache)
    if source is not None:
        packer.resume(source, first)
    starts = {ti: state for ti, state in source.starts.items() if ti <= first} if source is not None else {}
    for ti in range(first, packer.T):
        if states is not None and ti not in starts and (ti == 0 or packer.may_go_on()):
            starts[ti] = packer.turn_state()
        packer.pack_turn(ti)
    if states is not None:
        states[facts] = TurnStates(packer.row_lists(), starts)
    return packer.packed()


def obstacle_met(rules, kinds: list[str], at: list, swept: list) -> list[int]:
    """CW-DMG-08 / CW-SEED-04: per phase and vehicle (tp * V + v), 1 where an obstacle the car drops at the end of
    that phase (where it stands then, `at[tp][v]`) would be run onto by another vehicle's movement in a later phase
    (`swept[tq][j]`: the counters before and after it, None when it did not move); empty when no car could drop
    one anyone meets. The fight kernel hands such a trial to the reference (obs_met). Conservative: a vehicle on
    the obstacle as it drops counts as meeting it if it moves on over it later (the reference lets it off).
    A box round each move (its counters' centres, widened by their half diagonal) picks the candidates; the swept
    area (`dropped.swept_polygon`) decides."""
    V, n = len(kinds), len(at)
    cars = [i for i, k in enumerate(kinds) if k == "car"]
    moves = [(tq, j, m) for tq, row in enumerate(swept) for j, m in enumerate(row) if m is not None]
    if not cars or not moves:
        return []
    h = rules["carwars.damage"]["obstacle"]["size_in"] / 2.0
    tq_of = np.array([tq for tq, _, _ in moves])
    j_of = np.array([j for _, j, _ in moves])
    box = np.array([[min(b.cx, a.cx), min(b.cy, a.cy), max(b.cx, a.cx), max(b.cy, a.cy), 0.5 * math.hypot(a.length, a.width)]
                    for _, _, (b, a) in moves])
    lo_x, lo_y = box[:, 0] - box[:, 4] - h - 1e-9, box[:, 1] - box[:, 4] - h - 1e-9
    hi_x, hi_y = box[:, 2] + box[:, 4] + h + 1e-9, box[:, 3] + box[:, 4] + h + 1e-9
    met = [0] * (n * V)
    tps = np.arange(n)
    for v in cars:
        xy = np.array([at[tp][v] for tp in range(n)])
        near = (tq_of[None, :] > tps[:, None]) & (j_of[None, :] != v) & (lo_x[None, :] <= xy[:, :1]) & (hi_x[None, :] >= xy[:, :1]) \
            & (lo_y[None, :] <= xy[:, 1:]) & (hi_y[None, :] >= xy[:, 1:])
        for tp in np.flatnonzero(near.any(axis=1)):
            square = Obstacle("", float(xy[tp, 0]), float(xy[tp, 1]), 0, size=2.0 * h).polygon
            met[tp * V + v] = int(any(intersects(swept_polygon(*moves[k][2]), square) for k in np.flatnonzero(near[tp])))
    return met if any(met) else []


def obstacle_places(arena, before: dict) -> tuple[tuple, tuple]:
    """Where each vehicle stands after a phase's movement, and each moving one's counters before and after it (None:
    it did not move), for `obstacle_met`."""
    vehicles = list(arena.vehicles.values())
    return (tuple((v.x, v.y) for v in vehicles),
            tuple(None if before[v.id] == v.counter else (before[v.id], v.counter) for v in vehicles))


@dataclasses.dataclass
class TurnStates:
    """A packing's state at the start of some of its turns (the first always), to go on from (`pack_fight`): per
    turn the lengths of the packer's row lists (only ever appended to, so their first rows are the state's) and
    the rest of its state pickled (`FightPacker.turn_state`); `lists` the row lists themselves."""

    lists: dict[str, list]
    starts: dict[int, tuple[dict[str, int], bytes]]


def fact_turn(f: tuple, turn0: int) -> int:
    """The first of a fight's turns (from 0) whose packing a fact changes: a vehicle slowing down from the end of
    turn d (CW-CREW-03) changes turn d - 1 (counted from 0); a weapon gone, an action cancelled or a substitution
    made change their own turn (the arena's, `turn0` the fight's first)."""
    if f[0] == "slow":
        return max(0, f[2] - 1)
    if f[0] == "gone":
        return max(0, f[3] - turn0)
    if f[0] in ("cancel", "substitute"):
        return max(0, f[1] - turn0)
    return 0


def _resume_point(states: dict, facts: frozenset, turn0: int, T: int) -> tuple[int, TurnStates | None]:
    """The latest turn (from 0) at which a packing of `states` has kept the state a packing of `facts` has there
    (the facts the two do not share change no turn before it), and that packing's states; (0, None) if none."""
    best, found = 0, None
    for other, turns in states.items():
        first = min([fact_turn(f, turn0) for f in other ^ facts] + [T])
        kept = max((ti for ti in turns.starts if ti <= first), default=0)
        if kept > best:
            best, found = kept, turns
    return best, found


def layout_of(scenario) -> FightLayout:
    """The fight's columns (`fight.FightLayout`); a scenario without a fight is one of every unit for itself."""
    if scenario.fight is not None:
        return FightLayout.of(scenario)
    units = list(scenario.arena.vehicles) + list(scenario.arena.pedestrians)
    saved = scenario.fight
    try:
        scenario.fight = Fight({u: u for u in units})
        return FightLayout.of(scenario)
    finally:
        scenario.fight = saved


def _unpackable(scenario, arena, layout) -> str | None:
    """What this packing cannot hold, found before anything is packed: more weapons than the kernel's keys, or a
    vehicle whose plan may get more grenades out of its boxes than one holds (CW-HAND-01), or None."""
    if len(layout.weapons) > KERNEL_WEAPON_KEYS or sum(len(list(v.all_weapons())) for v in arena.vehicles.values()) > KERNEL_WEAPON_KEYS:
        return f"more than {KERNEL_WEAPON_KEYS} weapons in a fight"
    # a box of grenades holds grenade_box_count (CW-HAND-01): the kernel reads only whether a box is whole, so a
    # vehicle whose plan could get more out than its emptiest box holds is the reference's
    plan, turn0, T = scenario.plan, arena.turn, int(scenario.turns)
    box_count = scenario.rules["carwars.hand_weapons"]["grenade_box_count"]
    for v in arena.vehicles.values():
        fetches = sum(1 for (turn, _), acts in (plan.actions.items() if plan is not None else ()) for a in acts
                      if a.kind == "fetch_grenade" and a.vehicle == v.id and turn0 <= turn < turn0 + T)
        if fetches and fetches > min((box_count - k.grenades_taken for k in grenade_boxes(v)), default=0):
            return (f"vehicle {v.id!r} may get more grenades out of its boxes than one holds "
                    f"({box_count}): the kernel does not count what is left in a box")
    return None


class _NoDice:
    """The packer's dice: a drop rolls only in water, which the kernel rolls (drop rows' `water`)."""

    def roll(self, *args, **kwargs):
        raise RuntimeError("no die in the packer")

    def chance(self, *args, **kwargs):
        raise RuntimeError("no die in the packer")


_NO_DICE = _NoDice()
_UNSEEN = object()     # a shot not explained yet (None is a shot explained as no candidate)
_FIR_ROW = kernel_row(_layout.FIR_COLUMNS, character=0, cand_lo=0, cand_hi=0)    # every column of a firer row (filled in)


def _int32(x, cols=None) -> np.ndarray:
    """Rows (or a vector) as the kernel reads them: contiguous int32, `cols` wide."""
    a = np.ascontiguousarray(np.array(x, dtype=np.int32))
    return a.reshape((len(x), cols)) if cols is not None else a


class _Situation:
    """The explained shots of one unit at one target in one situation (`FightPacker._situation`), each with the
    lines of fire its explain traced, and `like`: the pair's situation before it that differed only in the units
    between, whose shots it takes where those lines come out the same (`FightPacker._as_before`)."""

    __slots__ = ("shots", "sights", "like")

    def __init__(self, like: "_Situation | None") -> None:
        self.shots: dict = {}
        self.sights: dict = {}
        self.like = like


class _PhaseScene:
    """A phase's scene (`attack.Scene`), each line of fire traced once: the same origin, part and laser from the
    same firer at the same target have the same answer (two firers of one weapon trace the same lines)."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.seen: dict = {}

    def sight(self, origin, part, firer, target, laser: bool):
        key = (origin, part.vertices, laser, id(firer), id(target))
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = self.scene.sight(origin, part, firer, target, laser)
        return found


class _SightLog:
    """A scene (`attack.Scene`) that keeps the lines of fire asked of it: (origin, part, laser, the Sight)."""

    def __init__(self, scene: _PhaseScene) -> None:
        self.scene = scene
        self.traced: list = []

    def sight(self, origin, part, firer, target, laser: bool):
        sight = self.scene.sight(origin, part, firer, target, laser)
        self.traced.append((origin, part, laser, sight))
        return sight


class FightPacker:
    """One packing of a fight (`pack_fight`): the arena it plays the fight on, the kernel's indices of its units,
    weapons and characters, and the rows it adds turn by turn and phase by phase."""

    def __init__(self, scenario, base: Packed, arena, layout, facts: frozenset, cache: dict | None):
        self.scenario, self.base, self.arena, self.layout, self.facts = scenario, base, arena, layout, facts
        self.rules, self.plan, self.fight = scenario.rules, scenario.plan, scenario.fight
        self.turn0 = arena.turn
        self.T, self.P = int(scenario.turns), self.rules["carwars.turn"]["phases"]
        self.cache = {} if cache is None else cache
        self._index_units()
        self._index_weapons_and_crew()
        self._index_thrown()
        self._constants()
        self._start_rows()
        self._guard_declared_drops()
        self._read_facts()

    # --- setup: indices of units, weapons, crew and hand weapons ------------------------------------------------

    def _index_units(self) -> None:
        """The kernel's unit indices: vehicles, then pedestrians (FIGHT-01: each unit's side)."""
        arena, fight = self.arena, self.fight
        self.vids, self.pids = list(arena.vehicles), list(arena.pedestrians)
        self.ped_index = {p: i for i, p in enumerate(self.pids)}
        self.V = len(self.vids)
        self.units = self.vids + self.pids
        self.uidx = {u: i for i, u in enumerate(self.units)}
        self.vpos = {v: i for i, v in enumerate(self.vids)}
        self.ppos = {p: i for i, p in enumerate(self.pids)}
        self.wkey = {k: i for i, k in enumerate(self.layout.weapons)}
        self.sides = list(self.layout.sides)
        self.u_side = [self.sides.index(fight.side(u) if fight is not None else u) for u in self.units]
        self.enemies = {u: [e for e in self.units if e != u and fight.enemies(u, e)] for u in self.units} if fight is not None else {}
        self.mounted: tuple | None = None    # (arena, its vehicles' mounted weapons), `_mounted`

    def _mounted(self) -> list:
        """Every vehicle's mounted weapons as (vehicle, weapon), in file order (kept for the packer's arena: no weapon
        comes or goes in a fight)."""
        if self.mounted is None or self.mounted[0] is not self.arena:
            self.mounted = (self.arena, [(v, w) for v in self.arena.vehicles.values() for w in v.all_weapons()])
        return self.mounted[1]

    def _usable(self, name: str) -> bool:
        """Whether a hand weapon of this name may fire (CW-HAND-01)."""
        return not weapon_spec(self.rules, name, hand=True).refused

    def _thrown(self, name: str) -> bool:       # a grenade: counted, each throw using one up (CW-HAND-01)
        return self._usable(name) and weapon_spec(self.rules, name, hand=True).thrown

    def _index_weapons_and_crew(self) -> None:
        """Per mounted weapon its key, whether it counts shots, its ammunition and whether it may fire; per crew
        member whether he may take over the controls (CW-CREW-04) and whether he holds a hand weapon he fires."""
        self.crew_index: dict[tuple[str, str], int] = {}
        self.weapon_index: dict[tuple[str, str], int] = {}
        self.w_key, self.w_shots, self.w_ammo0, self.w_usable, self.c_takeover, self.c_hand = [], [], [], [], [], []
        for v in self.arena.vehicles.values():
            wanted = ordered_weapons(self.fight, v.id)       # FIGHT-10: only what the orders use keeps it in action
            for w in v.all_weapons():
                self.weapon_index[(v.id, w.id)] = len(self.w_key)
                self.w_key.append(self.wkey[(v.id, w.id)])
                self.w_shots.append(int(w.spec.shots > 0))
                self.w_ammo0.append(int(w.ammo))
                self.w_usable.append(int(not w.spec.refused and counts_for_orders(wanted, w)))
            sidecar_crew = list(v.sidecar.crew) if v.sidecar else []
            for c in v.all_crew():
                self.crew_index[(v.id, c.id)] = len(self.c_takeover)
                if v.kind == "cycle":
                    self.c_takeover.append(int(c in sidecar_crew))
                else:
                    self.c_takeover.append(int(c in v.crew and c.seat.startswith("front") and c.role is not CrewRole.DRIVER))
                self.c_hand.append(int(any(self._usable(h) and not self._thrown(h) for h in c.hand_weapons)))

    def _index_thrown(self) -> None:
        """Thrown hand weapons (grenades) are counted, each throw using one up (CW-HAND-01, phase._use_ammo): the
        usable kinds carried at the start, and the one a box of grenades holds if a vehicle carries a box; per
        character (crew, then NC + the pedestrians) how many of each he holds at the start."""
        arena, rules = self.arena, self.rules
        carriers = [c.hand_weapons for v in arena.vehicles.values() for c in v.all_crew()] + [p.weapons for p in arena.pedestrians.values()]
        kinds = {h for held in carriers for h in held if self._thrown(h)}
        if self._thrown(fetched_grenade(rules)) and any(grenade_boxes(v) for v in arena.vehicles.values()):
            kinds.add(fetched_grenade(rules))
        self.hand_kinds = sorted(kinds)
        self.hand_of = {h: i for i, h in enumerate(self.hand_kinds)}
        self.hand0 = [sum(1 for x in held if x == h) for held in carriers for h in self.hand_kinds]
        self.hand_eq = [grenade_equivalents(rules, h) for h in self.hand_kinds]     # what one counts toward a load (a FETCH's ROOM)

    # --- out of action and the constants row (fc) ------------------------------------------------------------

    def _constants(self) -> None:
        """The fight's figures: when a unit is out of action (FIGHT-03: the crash table's results, CW-OFF-01
        off-road), off-road and water damage (CW-OFF-02, CW-DROP-06), the chance of each roll needed, the fire
        ring (CW-FIRE-01), in the constants row `fc` and its vectors."""
        rules, arena, fight = self.rules, self.arena, self.fight
        t = self.out_t = rules["carwars.fight"]["out_of_action"]
        th = rules["carwars.tohit"]
        sf = th["sustained_fire"]
        crew_t = rules["carwars.damage"]["crew"]
        off_t = self.off_t = rules["carwars.terrain"]
        self.crash_out = [int(r >= 2 and crash_table_band(rules, r + crew_t["crash_table_bonus"] + off) in t["crash_results_out"])
                          for off in (0, off_t["offroad"]["crash_modifier"]) for r in range(13)]     # on the road, off-road (CW-OFF-01)
        off_dice = parse_dice(off_t["damage"]["dice"])
        water = rules["carwars.dropped"]["water"]            # a drop from a vehicle in water (CW-DROP-06)
        water_dice = parse_dice(water["backup_damage"])
        self.v_off = [int(v.off_road) for v in arena.vehicles.values()]
        self.t_immune = [int(t.type in off_t["damage"]["immune_tire_types"]) for v in arena.vehicles.values()
                         for t in v.tires + ([v.sidecar.tire] if v.sidecar else [])]
        self.prob36 = [int(hit_probability(rules, n) * 36) for n in range(13)]
        self.ring = fire_ring(self.scenario)      # the turns of fire modifiers the kernel keeps (fc FIRE_RING; fring0 is laid out by it)
        self.fc = kernel_row(
            _layout.FC_NAMES, t=self.T, p=self.P, until=bool(fight is not None and fight.until_decided), wpen=-th["firer"]["wounded_skill"],
            nm=th["to_hit"]["natural_miss"], maxn=th["to_hit"]["max_needed"], sf2=sf["second"], sf3=sf["third_and_later"],
            nodriver=t["no_driver"], noweapon=t["no_weapon"], destroyed=0, crashed=t["crashed"],
            peddown=t["pedestrian_down"], sides=len(self.sides), counters=0, first=arena.turn, off_count=off_dice.count,
            off_bonus=off_dice.bonus, off_floor=off_dice.floor, off_ub_lo=off_t["damage"]["underbody"][0],
            off_ub_hi=off_t["damage"]["underbody"][1], off_t_lo=off_t["damage"]["tire"][0], off_t_hi=off_t["damage"]["tire"][1],
            off_points=off_t["damage"]["points"], fire_ring=self.ring, water_lo=water["backup"][0], water_hi=water["backup"][1],
            water_count=water_dice.count, water_bonus=water_dice.bonus, water_floor=water_dice.floor,
            hands=len(self.hand_kinds), fetch_hand=self.hand_of.get(fetched_grenade(rules), -1))
        self.max_needed = th["to_hit"]["max_needed"]
        # the most an order's roll needed can fall in the kernel (sustained fire, a wounded firer's skill if a bonus): a
        # candidate shot still above max_needed after it can never be chosen (fight._choose), so its row is left out
        self.best_bonus = max(0, sf["second"], sf["third_and_later"]) + max(0, th["firer"]["wounded_skill"])

    def _start_rows(self) -> None:
        """The rows the turns add to, empty, and what the phases keep between them."""
        rules = self.rules
        self.names = turn_names(self.scenario)    # as the reference's batch names them
        self.name_pos = {n: i for i, n in reversed(list(enumerate(self.names)))}
        self.ent: list[list[int]] = []
        self.fir: list[list[int]] = []
        self.cand: list[list[int]] = []
        self.fcol: list[list[int]] = []
        self.tp_lo, self.col_lo = [0], [0]
        self.radius = rules["carwars.fire"]["explosion"]["radius"]
        self.near_v: list[list[int]] = []
        self.near_p: list[list[int]] = []
        self.moving_end = [0] * (self.T * max(1, self.V))
        self.slow = rules["carwars.damage"]["crew"]["uncontrolled_slowdown_mph"]
        self.where: dict = {}      # per phase: each unit's (pose, box), filled by `_place`
        self.units_now: list = []  # per phase: the units' (id, pose), and their boxes in a grid
        self.now: dict = {}        # per phase: the grid, and the arena's Scene once an explain needs it
        self.brst: list[list[int]] = []
        self.ocon: list[list[int]] = []        # counters driven over (turn._contacts, CW-DROP-02..04): dice, damage, fire
        self.ocon_lo = [0]
        self.touching: dict = {}     # (vehicle, counter) in contact last phase: phases in a row (`turn._contacts`)
        # (vehicle, ditch) in contact last phase (`terrain.ditch_hazards`); None: no ditch on the map
        self.crossing: set | None = on_ditches(self.arena) if self.arena.ditches() else None
        # (vehicle, obstacle) in contact last phase (`terrain.obstacle_hazards`); None: no obstacle on the map
        self.meeting: set | None = on_obstacles(self.arena) if self.arena.obstacles else None
        # per phase, where each vehicle stands after its movement and what each moving one swept (`_obstacle_rows`)
        self.obs_at: list = []
        self.obs_swept: list = []
        self.o_t = rules["carwars.dropped"]["oil"]
        self.oil_spec = weapon_spec(rules, rules["carwars.fire"]["start"]["flaming_oil_weapon"])
        self.d_t = rules["carwars.dropped"]
        self.one_die = parse_dice("1d")
        self.counter_of: dict[int, int] = {}   # the counters with rows, by object: the kernel's `gone` flags (mines gone off, drops
        self.counter_objs: list = []           # that did not happen); the objects are kept so that no id is reused
        self.drops: list[list[int]] = []       # drops and automatic switches (turn.do_action, turn._automatic_drops)
        self.detonations = any(a.kind == "detonate" for xs in self.plan.actions.values() for a in xs)
        self.offr: list[list[int]] = []        # off-road damage rolls at the start of each turn (turn._start_of_turn, CW-OFF-02)
        self.offr_lo = [0]

    def _guard_declared_drops(self) -> None:
        """A declared drop the kernel may follow as cancelled must leave the packer nothing to get wrong later: its
        weapons are dropped by no other action and never on automatic (the packer has spent their ammunition), and
        its driver makes no other action that turn (the packer has him fire). Counts each weapon's drops and each
        vehicle's actions per turn."""
        self.drop_uses: dict = {}
        self.later_actions: dict = {}
        for (t_, p_), xs in self.plan.actions.items():
            for a in xs:
                v_ = self.arena.vehicles.get(a.vehicle)
                if a.kind != "maneuver":
                    self.later_actions[(a.vehicle, t_)] = self.later_actions.get((a.vehicle, t_), 0) + 1
                if a.kind == "drop" and v_ is not None:
                    for w in (flatten_link(v_, a.weapon, "action") if a.weapon in v_.links else [v_.weapon(a.weapon or "", "action")]):
                        self.drop_uses[(v_.id, w.id)] = self.drop_uses.get((v_.id, w.id), 0) + 1
                if a.kind == "automatic_on":
                    self.drop_uses[(a.vehicle, a.weapon)] = self.drop_uses.get((a.vehicle, a.weapon), 0) + 2

    def _read_facts(self) -> None:
        """The packing's facts (`pack_fight`) by what they change: vehicles slowing down out of control
        (CW-CREW-03; out of control from the start slows at the end of every turn), weapons destroyed by a phase."""
        self.drop_lo = [0]
        self.fact_list: list = []
        self.fact_at: dict = {}
        self.slow_from = {(f[0], f[1]): f[2] for f in self.facts if f[0] == "slow"}
        for i, v in enumerate(self.scenario.arena.vehicles.values()):
            if v.uncontrolled:
                self.slow_from[("slow", i)] = 1
        self.grenade = fetched_grenade(self.rules)
        self.grenade_usable = self._usable(self.grenade) and not self._thrown(self.grenade)      # (a thrown one is counted in hand0 instead)
        self.drivers_out: set = set()    # drivers a substitution in this packing has found incapacitated (hits never heal)
        self.gone_at: dict = {}
        for f in self.facts:
            if f[0] == "gone":
                self.gone_at.setdefault((f[3], f[4]), []).append((f[1], f[2]))

    # --- the orders' candidate shots ------------------------------------------------------------------------

    def _place(self) -> None:
        """Where every unit stands this phase (its pose and box, in a grid) and the counters' and clouds' places:
        what an explained shot depends on. The same places (every unit's where it was, in this phase or another, in
        this packing or another of the fight: a unit's counter never changes size) share one placing, and the same
        situation (the places, the units' handling, hazards, slicks and paint, the counters) one dict of pairs."""
        arena = self.arena
        units = [*arena.vehicles.values(), *arena.pedestrians.values()]
        poses = tuple((u.id, u.x, u.y, u.facing, u.speed) for u in units)
        placed = self.cache.get(("placed", poses))
        if placed is None:
            placed = self.cache[("placed", poses)] = self._placing(units)
        self.where, self.units_now, grid = placed
        counters = (tuple((c.id, c.polygon.vertices, c.inert, frozenset(c.still_on)) for c in arena.counters),
                    tuple((c.id, c.kind, c.polygon.vertices) for c in arena.clouds.values()))
        # (a pedestrian has no handling, hazard, slick or paint)
        states = tuple((v.handling, v.hazard_difficulty, v.on_oil, self._painted(v)) for v in arena.vehicles.values())
        pairs, rows = self.cache.setdefault(("situation", poses, states, counters), ({}, {}))
        self.now = {"grid": grid, "counters": counters, "pairs": pairs, "rows": rows}

    def _placing(self, units: list) -> tuple[dict, list, BoxGrid]:
        """Each unit's (pose, box) and each building's, the units' (id, pose) in file order, their boxes in a grid."""
        where: dict = {}
        units_now: list = []
        grid = BoxGrid()
        for u in units:
            where[u.id] = ((u.id, round(u.x, 9), round(u.y, 9), u.facing, u.speed), bounds(u.counter.corners()))
            units_now.append((u.id, where[u.id][0]))
            grid.add(where[u.id][1])
        for b in self.arena.buildings.values():     # targets of planned attacks; fixed, and never between (blockers are)
            where[b.id] = ((b.id,), bounds(b.polygon.vertices))
        return where, units_now, grid

    def _painted(self, unit) -> bool:
        """Whether paint covers the unit's windows this turn (CW-HIT-07)."""
        paint = getattr(unit, "paint_until_turn", None)
        return paint is not None and self.arena.turn <= paint

    def _scene(self) -> "_PhaseScene":
        """The arena's Scene for this phase's explains, made once a phase when first needed."""
        if "scene" not in self.now:
            self.now["scene"] = _PhaseScene(Scene(self.arena))
        return self.now["scene"]

    def _situation(self, unit, target) -> "_Situation":
        """The explained shots of `unit` at `target` in this phase's situation (`_Situation`, kept in the cache,
        shared by the packings of the fight); found once a phase per pair. The situation is what a shot depends on:
        the firer's and the target's places and speeds, the firer's handling, hazard, slick and paint, the places of
        the units that could stand between them (a unit outside the box around both, widened by 2" for a sidecar,
        cannot block the line of fire) and of the counters and clouds."""
        now = self.now
        pair = (unit.id, target)
        found = now["pairs"].get(pair)
        if found is None:
            (fpose, (fx0, fy0, fx1, fy1)), (tpose, (tx0, ty0, tx1, ty1)) = self.where[unit.id], self.where[target]
            box = (min(fx0, tx0) - 2.0, min(fy0, ty0) - 2.0, max(fx1, tx1) + 2.0, max(fy1, ty1) + 2.0)
            units_now = self.units_now
            between = tuple(p for uid, p in (units_now[i] for i in now["grid"].near(box)) if uid != unit.id and uid != target)
            alike = (unit.id, fpose, tpose, getattr(unit, "handling", None), getattr(unit, "hazard_difficulty", 0),
                     getattr(unit, "on_oil", False), self._painted(unit), now["counters"])
            key = ("shots", alike, between)
            found = self.cache.get(key)
            if found is None:
                # the last situation of the pair that differed only in the units between (`_Situation.like`)
                found = self.cache[key] = self.cache[("alike", alike)] = _Situation(self.cache.get(("alike", alike)))
            now["pairs"][pair] = found
        return found

    def _barred(self, unit, firer) -> bool:
        """A substitute driver may not fire before the turn he may act, nor in a turn he steered (CW-CREW-04)."""
        return firer is not None and not isinstance(unit, Pedestrian) and substitute_barred(unit, firer, self.arena.turn) is not None

    def _shot(self, unit, wid, firer, target, aim, planned: bool, barred: bool):
        """The shot as `_explain_one` found it, cached by what it depends on: its situation (`_situation`), the
        weapon, firer and aim, and whether the firer is barred."""
        situation = self._situation(unit, target)
        key = (planned, wid, firer, aim, barred)
        found = situation.shots.get(key, _UNSEEN)
        if found is _UNSEEN:
            found = self._as_before(situation, key, unit, target)
            if found is _UNSEEN:
                sights = _SightLog(self._scene())
                found = self._explain_one(unit, wid, firer, target, aim, planned, sights)
                situation.sights[key] = sights.traced
            situation.shots[key] = found
        return found

    def _as_before(self, situation: "_Situation", key: tuple, unit, target):
        """The shot as the pair's situation before found it, if only the units between differ and every line of fire
        that explain traced comes out the same now (an explain reads the blockers only through its lines of fire,
        `attack.Scene.sight`); else _UNSEEN."""
        like = situation.like
        if like is None or key not in like.sights:
            return _UNSEEN
        scene = self._scene()
        tgt = self.arena.buildings.get(target) or self.arena.unit(target, "target")
        traced = []
        for origin, part, laser, seen in like.sights[key]:
            sight = scene.sight(origin, part, unit, tgt, laser)
            if sight != seen:
                return _UNSEEN
            traced.append((origin, part, laser, sight))
        situation.sights[key] = traced
        return like.shots[key]

    def explained(self, unit, wid, firer, target, aim, planned: bool = False):
        """The shot's range and kernel row (None: not a candidate), with the pedestrians its burst reaches now."""
        found = self._shot(unit, wid, firer, target, aim, planned, self._barred(unit, firer))
        if found is None or found[2] is None:
            return None if found is None else found[:2]
        return found[0], self.burst_of(found[1], *found[2], target)

    def _explain_one(self, unit, wid, firer, target, aim, planned: bool, scene):
        """`explained` once (`phase.explain_phase` of the one attack, against `scene`'s blockers): (range, row, (aim
        point, burst radius, burst dice) or None), or None."""
        arena, rules = self.arena, self.rules
        shooter = None if isinstance(unit, Pedestrian) else (unit.crew_member(firer) if firer else None)
        person = unit if isinstance(unit, Pedestrian) else shooter
        saved = person.hits if person is not None else 0
        if person is not None:
            person.hits = 0       # the firer's own state is the kernel's: explained as able and unhurt
        try:
            b = explain_phase(arena, [Attack("order", unit.id, wid, target, aim, firer)], rules, None, scene)[0]
        except HardpointError:
            b = None
        finally:
            if person is not None:
                person.hits = saved
        # an order drops a shot no die can make possible; a planned attack is rolled unless the rules cancel it
        possible = b is not None and (b.possible or (b.lof and b.reason.startswith("needs ") and b.needed > self.max_needed))
        if b is not None and not possible and not planned:
            b = None
        if b is None:
            return None
        spec = attack_weapon(arena, unit, wid, rules)
        burst = None
        if spec.burst_radius > 0 and b.aim_point is not None and arena.pedestrians:
            burst = (b.aim_point, spec.burst_radius, burst_dice(rules, spec))
        return b.range, self.row_of(unit, wid, target, b, possible), burst

    def burst_of(self, row: list[int], centre, radius: float, expr, target: str) -> list[int]:
        """The row with the pedestrians its burst reaches now (`batch.burst_rows`, CW-DMG-06)."""
        out = list(row)
        out[_layout.CAND_BURST_LO], out[_layout.CAND_BURST_HI] = burst_rows(self.arena, self.brst, centre, radius, expr, target)
        return out

    def row_of(self, unit, wid, target, b, possible: bool) -> list[int]:
        """A candidate shot as the kernel reads it (fastcore/layout.toml, rows.cand)."""
        arena = self.arena
        spec = attack_weapon(arena, unit, wid, self.rules)
        tgt = arena.buildings.get(target) or arena.unit(target, "orders.target")
        shot = shot_columns(b, spec, tgt, self.ppos, self.vpos, self.base.tire_index)
        shot["possible"] = int(possible)
        unit_col = len(self.units) + list(arena.buildings).index(target) if target in arena.buildings else self.uidx[target]
        return kernel_row(_layout.CAND_COLUMNS, unit=unit_col, **shot,
                          fire_mod=spec.fire_modifier if spec.fire_modifier is not None else -1,
                          fiery=int(spec.fiery), burn=spec.burn_duration or 0, burst_lo=0, burst_hi=0)

    def rows_for(self, unit, wid, firer, targets, aim) -> tuple[list, bool]:
        """The candidate rows of one firer's weapon, in the order `carwars.fight._choose` weighs them: by range, then
        by the unit's place in the file; and whether they are kept. The same in every phase of one situation, so
        kept with it; but rows with a burst, whose reach is added to the packing's rows each time."""
        barred = self._barred(unit, firer)
        memo = (unit.id, wid, firer, aim, tuple(targets), barred)
        rows = self.now["rows"].get(memo)
        if rows is not None:
            return rows, True
        scored, burst = [], False
        for target in targets:
            found = self._shot(unit, wid, firer, target, aim, False, barred)
            if found is None:
                continue
            row = found[1]
            if found[2] is not None:
                row, burst = self.burst_of(row, *found[2], target), True
            if row[_layout.CAND_NEEDED] - self.best_bonus <= self.max_needed:
                scored.append((found[0], self.uidx[target], row))
        scored.sort(key=lambda s: (s[0], s[1]))
        rows = [row for _, _, row in scored]
        if not burst:
            self.now["rows"][memo] = rows
        return rows, not burst

    def _firer_rows(self, character: int, rows: list[list[int]]) -> None:
        """A firer row holding its candidate rows (fastcore/layout.toml, rows.fir)."""
        row = list(_FIR_ROW)
        row[_layout.FIR_CHARACTER], row[_layout.FIR_CAND_LO], row[_layout.FIR_CAND_HI] = character, len(self.cand), len(self.cand) + len(rows)
        self.fir.append(row)
        self.cand.extend(rows)

    def _entry(self, tp: int, unit, wkey: int, weapon: int, ped: int, fir_lo: int, choose: int, *, atk: int = -1, link: int = 0,
               shot: int = -1, rank: int = 0, hand: int = -1, fir_hi: int | None = None, min36: int = 0) -> None:
        """An entry of phase `tp` (fastcore/layout.toml, rows.ent): what fires, its firer rows, how it chooses."""
        self.ent.append(kernel_row(_layout.ENT_COLUMNS, tp=tp, unit=self.uidx[unit.id], wkey=wkey, weapon=weapon, ped=ped, fir_lo=fir_lo,
                                   fir_hi=len(self.fir) if fir_hi is None else fir_hi, choose=choose, atk=atk, link=link, shot=shot,
                                   rank=rank, hand=hand, min36=min36))

    # --- movement and contacts ------------------------------------------------------------------------------

    def _offroad_rows(self, ti: int) -> None:
        """Off-road damage rolls at the start of the turn (turn._start_of_turn, CW-OFF-02)."""
        for i, v in enumerate(self.arena.vehicles.values()):
            rolls = offroad_rolls(v.speed, self.rules) if v.off_road else 0
            if rolls:
                self.offr.append(kernel_row(_layout.OFFR_COLUMNS, turn=ti, vehicle=i, rolls=rolls,
                                            high=int(v.off_road_suspension or v.kind in self.off_t["damage"]["no_underbody_kinds"])))
        self.offr_lo.append(len(self.offr))

    def _move(self, phase: int) -> list:
        """The phase's movement (`motion.move_with_contacts`, FIGHT-04), the automatic drops it makes, the counters
        it drives over and the slicks it crosses (`turn._contacts`, `dropped.oil_maneuver`); the collisions found."""
        arena = self.arena
        # where each vehicle was, for the counters and clouds it may drive over (none on the map, and nothing to
        # lay one: no swept areas, `contacts_of`)
        laying = any(w.automatic and w.spec.dropped for _, w in self._mounted())
        touch = laying or arena.counters or any(c.kind == "paint" for c in arena.clouds.values()) or self.crossing is not None \
            or self.meeting is not None
        before_move = {v.id: v.counter for v in arena.vehicles.values()}
        moved = {v.id: phase_distances(self.rules, v.speed)[phase - 1] for v in arena.vehicles.values()} if laying else {}
        found = self._movement(phase)
        if laying:                  # (no dropped weapon on automatic: no automatic drop)
            self.automatic_drops(moved, phase)
        self.drop_lo.append(len(self.drops))
        self.contacts_of(before_move if touch else {})
        if self.crossing is not None:
            ditch_hazards(self.rules, arena, before_move, self.crossing)    # CW-SEED-03: the hazard of the phase (to hit)
        gully_hazards(self.rules, arena, before_move)                       # CW-SEED-03: a gully's banks (to hit)
        if self.meeting is not None:
            obstacle_hazards(self.rules, arena, before_move, self.meeting)  # CW-SEED-04: the hazard of the phase (to hit)
        self._obstacle_places(before_move)
        self.ocon_lo.append(len(self.ocon))
        for v in arena.vehicles.values():
            oil_maneuver(self.rules, arena, v)
        return found

    def _obstacle_places(self, before_move: dict) -> None:
        """CW-DMG-08 / CW-SEED-04: where each vehicle stands after this phase's movement (where an obstacle it drops
        would lie) and the area each moving vehicle swept (what runs onto one), for `obstacle_met`."""
        at, swept = obstacle_places(self.arena, before_move)
        self.obs_at.append(at)
        self.obs_swept.append(swept)

    def obstacle_met(self) -> list[int]:
        """obs_met (fastcore/layout.toml) of this packing's movement (`obstacle_met`)."""
        return obstacle_met(self.rules, [v.kind for v in self.arena.vehicles.values()], self.obs_at, self.obs_swept)

    def _movement(self, phase: int) -> list:
        """`motion.move_with_contacts` (FIGHT-04): the collisions found. It reads only where the units are, which
        way they face and how fast they go (their counters never change size), and the turn for the collisions'
        ids: the same places and speeds in a phase move the same way in any turn, so its outcome is kept and set
        again (in a turn of its own only if it found a collision)."""
        arena = self.arena
        vehicles, people = list(arena.vehicles.values()), list(arena.pedestrians.values())
        key = ("movement", phase, tuple((v.id, v.x, v.y, v.facing, v.speed) for v in vehicles),
               tuple((p.id, p.x, p.y, p.facing, p.speed) for p in people))
        done = self.cache.get(key)
        if done is None or (done[3] and done[2] != arena.turn):
            _, found = move_with_contacts(self.rules, arena, phase)
            self.cache[key] = ([(v.x, v.y, v.facing, v.speed) for v in vehicles], [(p.x, p.y) for p in people], arena.turn, found)
            return found
        for v, (x, y, facing, speed) in zip(vehicles, done[0]):
            v.x, v.y, v.facing, v.speed = x, y, facing, speed
        for p, (x, y) in zip(people, done[1]):
            p.x, p.y = x, y
        return done[3]

    def _collision_rows(self, ti: int, turn: int, phase: int, found: list) -> None:
        """The phase's collisions, declared and found in the movement (FIGHT-04, `phase._apply_collisions`): the
        ram dice and the weight factor of each (CW-COL-04)."""
        rules, arena = self.rules, self.arena
        for c in list(self.plan.collisions.get((turn, phase), [])) + found:
            expr = ram_dice(rules, c.speed)
            f = weight_factor(rules, c.weight_lb, c.pedestrian)
            is_ped = c.vehicle in arena.pedestrians
            self.fcol.append(kernel_row(_layout.FCOL_COLUMNS, index=self.ppos[c.vehicle] if is_ped else self.vpos[c.vehicle],
                                        count=expr.count if expr else 0, bonus=expr.bonus if expr else 0,
                                        floor=expr.floor if expr else 0, num=f.numerator, den=f.denominator,
                                        side=0 if is_ped else int(c.side), tp=ti * self.P + phase - 1, is_ped=int(is_ped)))
        self.col_lo.append(len(self.fcol))

    def index_of(self, counter) -> int:
        """The counter's row index (its `gone` flag in the kernel), given when first needed."""
        if id(counter) not in self.counter_of:
            self.counter_of[id(counter)] = len(self.counter_objs)
            self.counter_objs.append(counter)
        return self.counter_of[id(counter)]

    def _damage_row(self, vi_: int, expr, part: str, side: int, tire: int, counter: int, armed: int = 0, half: int = 0) -> list[int]:
        """A contact's damage to a part of vehicle `vi_` (rows.ocon DAMAGE; `armed`: only if its trigger went off)."""
        return kernel_row(_layout.OCON_COLUMNS, tp=len(self.ocon_lo) - 1, vehicle=vi_, kind=_layout.CONTACT_DAMAGE, a=expr.count,
                          b=expr.bonus, c=expr.floor, part=PARTS[part], side=side, tire=tire, armed=armed, half=half, counter=counter)

    def _trigger_row(self, vi_: int, band, counter: int, goes: bool) -> list[int]:
        """A contact's die: the counter goes off on `band` (rows.ocon TRIGGER, CW-DROP-02/03; `goes`: mines, gone once off)."""
        return kernel_row(_layout.OCON_COLUMNS, tp=len(self.ocon_lo) - 1, vehicle=vi_, kind=_layout.CONTACT_TRIGGER, a=band[0], b=band[1],
                          c=int(goes), part=0, side=0, tire=0, armed=0, half=0, counter=counter)

    def contacts_of(self, before_move: dict) -> None:
        """The counters and clouds each vehicle touches in this phase's movement, as `turn._contacts` finds them
        (no die decides it), as rows for the kernel: flaming oil (a hazard that phase, damage to the underbody and
        tires, a fire source), spikes and mines (a die, then damage to tires and underbody if they go off);
        paint on the windows. Mines stay in the packing: the kernel skips rows of mines that went off."""
        arena = self.arena
        paints = [cloud for cloud in arena.clouds.values() if cloud.kind == "paint"]
        if not arena.counters and not paints:
            self.touching.clear()          # nothing on the map to drive over (no swept areas to find)
            return
        touched: dict = {}
        vids_ = {v.id: i for i, v in enumerate(arena.vehicles.values())}
        for vi_, v in enumerate(arena.vehicles.values()):
            area = swept_polygon(before_move[v.id], v.counter)
            for counter in list(arena.counters):
                self._counter_contact(vi_, v, area, counter, before_move, touched, vids_)
            for cloud in paints:
                if intersects(area, cloud.polygon):
                    paint_contact(self.rules, v, cloud, arena.turn)
        self.touching.clear()
        self.touching.update(touched)

    def _counter_contact(self, vi_: int, v, area, counter, before_move: dict, touched: dict, vids_: dict) -> None:
        """One vehicle's swept area against one counter (`turn._contacts`): whether it is on or beside it (cached: the
        same in every packing of the fight), and the rows of what that does the first phase it touches it, and for
        a damaging liquid every five phases it stays on it (CW-SEED-01)."""
        if counter.inert and counter.kind != "oil":
            return
        ck = ("contact", area.vertices, counter.polygon.vertices)     # the same in every packing of the fight
        if ck not in self.cache:
            self.cache[ck] = contact(self.rules, area, counter)
        where_ = self.cache[ck]
        if v.id in counter.still_on:
            if where_ is None:
                counter.still_on.discard(v.id)   # it has left the counter it laid
            return
        if where_ is None or (counter.kind in OIL_KINDS and where_ != "on"):
            return                 # a slick ends at its counter's edge
        if counter.kind in OIL_KINDS and not counter.inert:
            v.on_oil = True       # every phase it crosses a slick, not only the first: firing from it (CW-HIT-08)
        key = (v.id, counter.id)
        touched[key] = self.touching.get(key, 0) + 1
        if key in self.touching:
            if damages_again(self.rules, counter, touched[key]):
                self._liquid_rows(vi_, v, counter, weapon_spec(self.rules, counter.weapon))
            return
        spec = weapon_spec(self.rules, counter.weapon)
        if counter.kind == "spikes":
            self._spikes_rows(vi_, v, counter, spec, where_, before_move)
        elif counter.kind == "mines":
            self._mines_rows(vi_, counter, spec, where_, vids_)
        elif counter.kind == "flaming_oil" and not counter.inert:
            v.hazard_difficulty += self.o_t["flaming_hazard"]     # driven onto: a hazard that phase (`dropped.oil_effect`)
            self._liquid_rows(vi_, v, counter, spec)

    def _spikes_rows(self, vi_: int, v, counter, spec, where_: str, before_move: dict) -> None:
        """Spikes driven over (`dropped.spikes_effect`, CW-DROP-02): a die, then damage to the tires they reach."""
        d_t = self.d_t
        band = d_t["spikes"]["on_counter"] if where_ == "on" else d_t["spikes"]["adjacent"]
        ci = self.index_of(counter)
        self.ocon.append(self._trigger_row(vi_, band, ci, False))
        expr = spec.tire_damage or spec.damage or self.one_die
        for tire in spiked_tires(self.rules, v, counter, where_, before_move[v.id]):
            self.ocon.append(self._damage_row(vi_, expr, "tire", -1, self.base.tire_index[(v.id, tire.id)], ci, armed=1,
                                              half=int(tire.type in d_t["spikes"]["half_for"])))

    def _mines_rows(self, vi_: int, counter, spec, where_: str, vids_: dict) -> None:
        """Mines driven over (`dropped.mines_effect`, CW-DROP-03): a die, then damage to every tire within the blast
        and to the underbody of the vehicle that set them off."""
        d_t = self.d_t
        band = d_t["mines"]["on_counter"] if where_ == "on" else d_t["mines"]["adjacent"]
        ci = self.index_of(counter)
        self.ocon.append(self._trigger_row(vi_, band, ci, True))
        for other in self.arena.vehicles.values():
            for tire in other.tires:
                tp_ = other.tire_counter(tire).polygon()
                gap = min(geo.distance(geo.nearest_point(counter.polygon, q), q) for q in tp_.vertices)
                if (intersects(tp_, counter.polygon) or gap <= d_t["mines"]["tire_radius"] + 1e-9) \
                        and spec.tire_damage is not None:
                    self.ocon.append(self._damage_row(vids_[other.id], spec.tire_damage, "tire", -1,
                                                      self.base.tire_index[(other.id, tire.id)], ci, armed=1))
        if spec.underbody_damage is not None:
            self.ocon.append(self._damage_row(vi_, spec.underbody_damage, "side", int(Side.UNDERBODY), -1, ci, armed=1))

    def _liquid_rows(self, vi_: int, v, counter, spec) -> None:
        """Flaming oil's damage (`dropped.liquid_damage`, CW-DROP-04, CW-SEED-01): to the underbody and tires, and a
        fire source (CW-FIRE-01)."""
        ci = self.index_of(counter)
        if spec.damage is not None:
            self.ocon.append(self._damage_row(vi_, spec.damage, "side", int(Side.UNDERBODY), -1, ci))
            for tire in v.tires:
                self.ocon.append(self._damage_row(vi_, spec.damage, "tire", -1, self.base.tire_index[(v.id, tire.id)], ci))
        if self.oil_spec.fire_modifier is not None:
            self.ocon.append(kernel_row(_layout.OCON_COLUMNS, tp=len(self.ocon_lo) - 1, vehicle=vi_, kind=_layout.CONTACT_FIRE,
                                        a=self.oil_spec.fire_modifier, b=self.oil_spec.burn_duration or 0, c=0, part=0, side=0,
                                        tire=0, armed=0, half=0, counter=ci))

    # --- declared actions: drops, switches, detonations, substitutions, fetches ------------------------------

    def fact_id(self, f: tuple) -> int:
        """The fact's number in this packing (a drop row's FACT column)."""
        if f not in self.fact_at:
            self.fact_at[f] = len(self.fact_list)
            self.fact_list.append(f)
        return self.fact_at[f]

    def drop_row(self, kind: int, v, w, assumed: bool, fact: tuple, counter: int = -1, crew=None, slot: int = -1,
                 room: int = -1) -> None:
        """A drop row (fastcore/layout.toml, rows.drop): what the packing has happen, and the fact that flips it."""
        driver = v.driver
        wkey, weapon_index, crew_index = self.wkey, self.weapon_index, self.crew_index
        self.drops.append(kernel_row(_layout.DROP_COLUMNS, tp=len(self.drop_lo) - 1, kind=kind,
                                     weapon=weapon_index[(v.id, w.id)] if w is not None else -1,
                                     wkey=wkey[(v.id, w.id)] if w is not None else -1,
                                     driver=crew_index[(v.id, driver.id)] if driver is not None else -1, assumed=int(assumed),
                                     fact=self.fact_id(fact), counter=counter, water=int(w is not None and v.water_depth_ft > 0),
                                     crew=crew_index[(v.id, crew.id)] if crew is not None else -1, slot=slot, room=room))

    def declared(self, turn: int, phase: int, fired: FiredThisTurn) -> None:
        """The phase's declared actions as `turn.do_action` does them, each a drop row the kernel checks against
        the dice: a maneuver changes no die; a switch or drop happens unless a fact says it was cancelled, and a
        drop's weapon is dropped unless a fact says it was destroyed (or it is empty)."""
        for i, a in enumerate(self.plan.actions.get((turn, phase), [])):
            where_ = f"action(turn {a.turn}, phase {a.phase})[{i}]"
            v = self.arena.vehicles[a.vehicle]
            if a.kind == "maneuver":
                do_action(self.rules, self.arena, a, _NO_DICE, fired, where_)
            elif a.kind == "steer":
                self._steer(a, fired, where_)
            elif a.kind == "substitute":
                self.substitute(v, a, turn, phase, i)
            elif a.kind == "fetch_grenade":
                self.fetch(v, a, turn, phase, i, fired)
            elif a.kind == "detonate":
                self._detonate(v, a, ("cancel", turn, phase, i), fired)
            elif a.kind in ("automatic_on", "automatic_off"):
                self._switch(v, a, ("cancel", turn, phase, i), fired, where_)
            else:
                self._declared_drop(v, a, turn, phase, ("cancel", turn, phase, i), fired, where_)

    def _steer(self, a, fired: FiredThisTurn, where_: str) -> None:
        """The substitute steers (CW-CREW-04): he may not fire for the rest of the turn, which the shots explained
        from here on hold; it rolls nothing, and goes ahead if he is the packing's substitute (the start's, or one a
        substitution the packing has happen made)."""
        try:
            do_action(self.rules, self.arena, a, _NO_DICE, fired, where_)
        except (RuleViolation, ScenarioError):
            pass                          # not the substitute: cancelled whatever the dice

    @staticmethod
    def _driver_fired(v, fired: FiredThisTurn) -> bool:
        """Whether the vehicle's driver has fired this turn (then a drop, switch or detonation is cancelled)."""
        driver = v.driver
        return driver is not None and fired.characters.get((v.id, driver.id), 0) >= 1

    def _detonate(self, v, a, cancel: tuple, fired: FiredThisTurn) -> None:
        """Mines set off by remote control (turn.do_action): they stay on the packer's map; the kernel flags them
        gone unless the driver has fired or they are gone already (then nothing happens)."""
        driver = v.driver
        drv_fired = self._driver_fired(v, fired)
        counter = next((c for c in self.arena.counters if c.id == a.counter), None)
        if counter is None or counter.kind != "mines":
            return                        # cancelled whatever the dice
        ok = cancel not in self.facts and not drv_fired
        self.drops.append(kernel_row(_layout.DROP_COLUMNS, tp=len(self.drop_lo) - 1, kind=_layout.DR_DETONATE, weapon=-1, wkey=-1,
                                     driver=self.crew_index[(v.id, driver.id)] if driver is not None else -1, assumed=int(ok),
                                     fact=self.fact_id(cancel), counter=self.index_of(counter), water=0, crew=-1, slot=-1, room=-1))
        if ok and driver is not None:
            fired.characters[(v.id, driver.id)] = 1

    def _switch(self, v, a, cancel: tuple, fired: FiredThisTurn, where_: str) -> None:
        """A weapon switched to or from automatic (turn.do_action, CW-AUTO-01): it happens unless a fact says it was
        cancelled or the driver has fired; then the driver has fired."""
        driver = v.driver
        drv_fired = self._driver_fired(v, fired)
        w = v.weapon(a.weapon or "", f"{where_}.weapon")
        try:
            if a.kind == "automatic_on":
                check_usable(w.spec, f"{where_}.weapon", w.id)
                if w.mount is Mount.TURRET:
                    raise RuleViolation("turret weapons cannot go on automatic", field=where_, value=w.id, rule="CW-AUTO-01")
        except (RuleViolation, ScenarioError):
            return                        # cancelled before anything, whatever the dice
        ok = cancel not in self.facts and not drv_fired
        self.drop_row(_layout.DR_SWITCH, v, None, ok, cancel)
        if ok:
            set_automatic(v, w, a.kind == "automatic_on")
            if driver is not None:
                fired.characters[(v.id, driver.id)] = 1

    def _declared_drop(self, v, a, turn: int, phase: int, cancel: tuple, fired: FiredThisTurn, where_: str) -> None:
        """A declared drop of a weapon or a link (turn.do_action, CW-DROP-01): an ACTION row, then a MEMBER row per
        weapon with what it laid on the packer's map."""
        driver = v.driver
        drv_fired = self._driver_fired(v, fired)
        linked = a.weapon in v.links
        members = flatten_link(v, a.weapon, f"{where_}.weapon") if linked else [v.weapon(a.weapon or "", f"{where_}.weapon")]
        try:
            for w in members:
                if not w.spec.dropped:
                    raise RuleViolation("not a dropped weapon", field=where_, value=w.id, rule="CW-DROP-01")
                check_drop_static(w, a.placement, f"{where_}.weapon")
        except (RuleViolation, ScenarioError):
            return                        # cancelled whatever the dice: no row
        # cancelled whole (validate.check_drop) if a weapon of it has fired, is destroyed or is empty, or the
        # driver has fired: the packer knows only what the facts and its own drops say, the kernel checks
        ok = cancel not in self.facts and not drv_fired and not any((v.id, w.id) in fired.weapons or w.destroyed
                                                                    or (w.spec.shots > 0 and w.ammo <= 0) for w in members)
        alone = self.later_actions.get((v.id, turn), 0) == 1 and all(self.drop_uses.get((v.id, w.id), 0) == 1 and not w.automatic
                                                                      for w in members)
        self.drop_row(_layout.DR_ACTION, v, None, ok, cancel, 0 if alone and all(self.followed(w) for w in members) else -1)
        if ok and driver is not None:
            fired.characters[(v.id, driver.id)] = 1
        as_mount = Mount.parse(a.placement) if a.placement else None
        for w in members:
            if ok:
                fired.weapons.add((v.id, w.id))
            self.drop_row(_layout.DR_MEMBER, v, w, ok, ("gone", v.id, w.id, turn, phase), self.dropped(v, w, as_mount) if ok else -1)

    def fetch(self, v, a, turn: int, phase: int, i: int, fired: FiredThisTurn) -> None:
        """A `fetch_grenade` action (turn.do_action, CW-HAND-01): the character spends his turn getting a grenade
        out of a box in the cargo. How many he may carry is the packing's; whether a box is still whole is the
        dice's: the packing has it happen unless a fact says it was cancelled (a box destroyed before the fight
        cancels it whatever the dice). Once it happens he has fired this turn, and from this turn on holds a hand
        weapon, which keeps his vehicle in action (`fight.out_of_action`; c_hand holds from which turn)."""
        rules = self.rules
        try:
            crew = v.crew_member(a.crew or "", "crew")
            # his load (CW-HAND-01): what is not counted in hand0 is the packing's (carried, or got out of a box);
            # the grenades counted there the kernel adds up when the fetch comes (the dice decide how many he threw)
            room = rules["carwars.hand_weapons"]["max_grenade_equivalents"] - grenade_equivalents(rules, self.grenade) \
                - sum(grenade_equivalents(rules, h) for h in crew.hand_weapons if h not in self.hand_of)
        except (RuleViolation, ScenarioError):
            return                            # cancelled whatever the dice: no row
        if room < 0:
            return                            # more than he may carry, whatever he threw: no row
        if not crew.can_act:
            return                            # CW-CREW-01: out from the start, so for the whole fight (hits never heal)
        k0 = int(self.base.arrays["v_k0"][self.vids.index(v.id)])
        boxes = [(k, int(self.base.arrays["k_slot"][k0 + v.cargo.index(k)])) for k in grenade_boxes(v)]     # (cargo first, then the sidecar's)
        if not any(k.dp > 0 for k, _ in boxes):
            return
        cancel = ("cancel", turn, phase, i)
        ok = cancel not in self.facts
        self.drop_row(_layout.DR_FETCH, v, None, ok, cancel, crew=crew, room=room)
        for _, slot in boxes:
            self.drop_row(_layout.DR_BOX, v, None, False, cancel, slot=slot)
        if ok:
            fired.characters[(v.id, crew.id)] = fired.characters.get((v.id, crew.id), 0) + 1
            crew.hand_weapons = crew.hand_weapons + (self.grenade,)
            ci = self.crew_index[(v.id, crew.id)]
            if self.grenade_usable and not self.c_hand[ci]:
                self.c_hand[ci] = turn - self.turn0 + 1     # the fight's turn, counted from 1 (the kernel's)

    def substitute(self, v, a, turn: int, phase: int, i: int) -> None:
        """A `substitute` action (crew.substitute_driver, CW-CREW-04). Where he sits and the vehicle's speed (the
        packing's) decide whether it can happen; the dice decide whether it does: the driver incapacitated, the
        substitute able to act. The packing has it happen as the state it knows says (the start's, or a driver found
        out by an earlier substitution), or as a fact says; the kernel checks the dice and, where they say
        otherwise, the trial runs again under the fact that flips it. Once it happens, the packing's shots and
        maneuvers are the substitute's rules' (when he may fire, +D2 a maneuver)."""
        before = v.substitute, v.substitute_from_turn
        try:
            person = v.crew_member(a.crew or "", "substitute")
            take_controls(self.rules, v, person.id, turn)        # the seat and the speed allow it? (refused: nothing changed)
        except (RuleViolation, ScenarioError):
            return                            # cancelled whatever the dice: no row
        driver = v.driver
        guess = (driver is None or not driver.can_act or (v.id, driver.id) in self.drivers_out) and person.can_act
        happens, cancel = ("substitute", turn, phase, i), ("cancel", turn, phase, i)
        ok = happens in self.facts or (guess and cancel not in self.facts)
        self.drop_row(_layout.DR_SUBSTITUTE, v, None, ok, cancel if ok else happens, crew=person)
        if not ok:
            v.substitute, v.substitute_from_turn = before
        elif driver is not None:
            self.drivers_out.add((v.id, driver.id))

    def followed(self, w) -> bool:
        """Whether what the weapon lays matters only where it is driven over (mines, spikes, junk...): a drop of
        it that does not happen the kernel follows by itself (the counter is gone); smoke, paint and oil change the
        shots (line of fire, firing from a slick), so the packing must change."""
        kind = dropped_kind(w.spec)
        return kind != "cloud" and kind not in OIL_KINDS and not self.detonations     # (ids must then be the reference's)

    def dropped(self, v, w, as_mount=None) -> int:
        """Drop the weapon on the packer's map (`dropped.drop_weapon`): the index of what it laid, if followed."""
        arena = self.arena
        _, counter = drop_weapon(self.rules, arena, v, w, counter_id(arena, v, w), _NO_DICE, as_mount, water_roll=False)
        if counter is None:
            return -1
        arena.counters.append(counter)
        return self.index_of(counter) if self.followed(w) else -1

    # --- automatic drops ------------------------------------------------------------------------------------

    def automatic_drops(self, moved: dict, phase: int) -> None:
        """`turn._automatic_drops`: a dropped weapon on automatic lays a counter every phase its vehicle moves; one
        destroyed (a fact) drops nothing and has no row. One the packer finds empty has a row all the same: a drop
        the kernel followed as not made left it ammunition the packer spent."""
        arena = self.arena
        for v in arena.vehicles.values():
            for w in v.all_weapons():
                if not drops_now(v, w, moved, phase):
                    continue
                if w.spec.shots > 0 and w.ammo <= 0:
                    self.drop_row(_layout.DR_AUTO, v, w, False, ("gone", v.id, w.id, arena.turn, phase))
                    continue
                self.drop_row(_layout.DR_AUTO, v, w, True, ("gone", v.id, w.id, arena.turn, phase), self.dropped(v, w))

    # --- links and area attacks -----------------------------------------------------------------------------

    def linked(self, unit, a, tp: int) -> None:
        """A planned attack with a link (CW-LINK-01) as the kernel reads it: a LINK entry whose firer rows (the named
        firer, or the default firer of the link's first weapon: the first able when the phase comes) each hold the
        candidate of the aimed group (`special.expand_link`: identical weapons, aimed together with the first one's
        modifiers, `phase.explain_phase`) then one per other weapon firing as if on automatic at what crosses its
        line now; then a MEMBER entry per weapon of the link. No candidate: the rules cancel it whatever the dice."""
        members = flatten_link(unit, a.weapon, "attack")
        try:
            subs, _ = expand_link(self.arena, a, "attack")
        except HardpointError:
            subs = []
        sub_of = {s.weapon: s for s in subs}
        order = [m for m in members if m.id in sub_of and not sub_of[m.id].as_automatic] + \
                [m for m in members if not (m.id in sub_of and not sub_of[m.id].as_automatic)]
        autos = [m.id for m in order if m.id in sub_of and sub_of[m.id].as_automatic]
        if a.firer:
            firers = [a.firer]
        else:     # attack._default_firer of the link's first weapon
            firers = [c.id for c in default_firer_pool(unit, members[0])]
        f0 = len(self.fir)
        for firer in firers:
            rows = self.link_rows(unit, a, firer, sub_of, autos) if subs and not sub_of[order[0].id].as_automatic else []
            self._firer_rows(self.crew_index[(unit.id, firer)], rows)
        self._entry(tp, unit, -1, -1, -1, f0, _layout.CHOOSE_LINK, link=len(order))
        for m in order:
            sub = sub_of.get(m.id)
            shot = -1 if sub is None else (0 if not sub.as_automatic else 1 + autos.index(m.id))
            self._entry(tp, unit, self.wkey[(unit.id, m.id)], self.weapon_index[(unit.id, m.id)], -1, 0, _layout.CHOOSE_MEMBER,
                        atk=self.name_pos.get(f"{a.id}/{m.id}", -1), shot=shot, fir_hi=0)

    def link_rows(self, unit, a, firer, sub_of, autos) -> list[list[int]]:
        """The candidate rows of a link for one firer (explained able and unhurt, as `explained` does): the aimed
        group's (one row: its weapons are identical and share the first one's modifiers), then each automatic one's;
        none if the rules cancel the link whatever the dice."""
        arena, rules = self.arena, self.rules
        person = unit.crew_member(firer)
        saved, person.hits = person.hits, 0
        try:
            bs = explain_phase(arena, [dataclasses.replace(a, firer=firer)], rules, None, self._scene())
        except HardpointError:
            return []
        finally:
            person.hits = saved
        by_weapon = {b.weapon: b for b in bs}
        rows = []
        for wid in [next(w for w, s in sub_of.items() if not s.as_automatic)] + autos:
            b = by_weapon[wid]
            possible = b.possible or (b.lof and b.reason.startswith("needs ") and b.needed > self.max_needed)
            target = sub_of[wid].target
            row = self.row_of(unit, wid, target, b, possible)
            spec = attack_weapon(arena, unit, wid, rules)
            if spec.burst_radius > 0 and b.aim_point is not None and arena.pedestrians:
                row = self.burst_of(row, b.aim_point, spec.burst_radius, burst_dice(rules, spec), target)
            rows.append(row)
        return rows

    def _area_firers(self, unit, a) -> tuple[list, list, list[int], int, int]:
        """Who may fire an area-effect attack: (firers, the people they are, their characters, the weapon's global
        index or -1 for a hand weapon, the pedestrian's index or -1)."""
        if isinstance(unit, Pedestrian):
            # a pedestrian's hand weapon (a portable flamethrower): he fires it; no damage points or ammunition
            # to count (phase._use_ammo); his character is NC + his index, as fired_ch numbers them
            ped = self.pids.index(unit.id)
            return [None], [unit], [len(self.c_takeover) + ped], -1, ped
        if not any(x.id == a.weapon for x in unit.all_weapons()):
            # a crew member's hand weapon (CW-HAND-01): the named firer fires it; no damage points or ammunition
            return [a.firer], [unit.crew_member(a.firer)], [self.crew_index[(unit.id, a.firer)]], -1, -1
        w = unit.weapon(a.weapon, "attack")
        w_global = self.weapon_index[(unit.id, w.id)]
        # the named firer, or attack._default_firer's pool: the first able fires it
        firers = [a.firer] if a.firer else [c.id for c in default_firer_pool(unit, w)]
        return firers, [unit.crew_member(f) for f in firers], [self.crew_index[(unit.id, f)] for f in firers], w_global, -1

    def area_attack(self, unit, a, tp: int) -> None:
        """A planned area-effect attack (CW-DMG-07) as the kernel reads it: an AREA entry with the firer rows (the
        named firer, or the weapon's default firers), each holding one candidate per intended victim (explained
        able and unhurt; none if the rules cancel it whatever the dice); then a MEMBER entry per victim, with its
        place in the defender's order."""
        firers, people, characters, w_global, ped = self._area_firers(unit, a)
        f0 = len(self.fir)
        for firer, person, character in zip(firers, people, characters):
            saved, person.hits = person.hits, 0
            rows: list[list[int]] = []
            try:
                bs = explain_phase(self.arena, [dataclasses.replace(a, firer=firer)], self.rules, None, self._scene())
                for v, b in zip(a.victims, bs):
                    possible = b.possible or (b.lof and b.reason.startswith("needs ") and b.needed > self.max_needed)
                    rows.append(self.row_of(unit, a.weapon, v, b, possible))
            except HardpointError:
                rows = []
            finally:
                person.hits = saved
            self._firer_rows(character, rows)
        order = list(a.defender_order) + [v for v in a.victims if v not in a.defender_order]
        wkey = self.wkey[(unit.id, a.weapon)]
        self._entry(tp, unit, wkey, w_global, ped, f0, _layout.CHOOSE_AREA, link=len(a.victims),
                    rank=int(bool(attack_weapon(self.arena, unit, a.weapon, self.rules).flamethrower)),
                    hand=self.hand_of.get(a.weapon, -1) if w_global < 0 else -1)
        for i, v in enumerate(a.victims):
            self._entry(tp, unit, wkey, w_global, ped, 0, _layout.CHOOSE_MEMBER, atk=self.name_pos[f"{a.id}@{v}"], shot=i,
                        rank=order.index(v), fir_hi=0)

    # --- the attacks of a phase: planned, automatic, orders ---------------------------------------------------

    def planned_attacks(self, turn: int, phase: int, tp: int) -> None:
        """The phase's planned attacks (`turn.TurnPlan.attacks`, `phase.resolve_phase`): links and area attacks as
        theirs, any other one an entry with its firer rows."""
        arena = self.arena
        for a in self.plan.attacks.get((turn, phase), []):
            unit = arena.vehicles.get(a.attacker) or arena.pedestrians[a.attacker]
            if not isinstance(unit, Pedestrian) and a.weapon in unit.links:
                self.linked(unit, a, tp)
            elif a.victims:
                self.area_attack(unit, a, tp)
            else:
                self._planned_attack(unit, a, tp)

    def _planned_attack(self, unit, a, tp: int) -> None:
        """A planned attack of one weapon: its firer rows (the named firer, or attack._default_firer's pool), each
        with the one candidate the rules allow (explained as planned: rolled unless they cancel it)."""
        choose = _layout.CHOOSE_PLANNED
        if isinstance(unit, Pedestrian):
            firers, w_global, ped = [None], -1, self.pids.index(unit.id)
        elif not any(x.id == a.weapon for x in unit.all_weapons()):
            firers, w_global, ped = [a.firer], -1, -1      # a crew member's hand weapon (CW-HAND-01)
        else:
            w = next(x for x in unit.all_weapons() if x.id == a.weapon)
            w_global, ped = self.weapon_index[(unit.id, a.weapon)], -1
            if w.automatic:
                # on automatic it fires by itself at the planned target, aimed by no one (CW-AUTO-01): an
                # AUTOMATIC entry in the planned attack's place, with its column; the weapon's own shot at
                # the end of the turn's movement is then cancelled, as it has fired (CW-ROF-01)
                firers, choose = [None], _layout.CHOOSE_AUTOMATIC
            elif a.firer:
                firers = [a.firer]
            else:     # attack._default_firer: the first able of these, when the phase comes
                firers = [c.id for c in default_firer_pool(unit, w)]
        f0 = len(self.fir)
        for firer in firers:
            found = self.explained(unit, a.weapon, firer, a.target, a.aim, planned=True)
            self._firer_rows(-1 if firer is None else self.crew_index[(unit.id, firer)], [found[1]] if found is not None else [])
        self._entry(tp, unit, self.wkey[(unit.id, a.weapon)], w_global, ped, f0, choose, atk=self.name_pos[a.id],
                    hand=self.hand_of.get(a.weapon, -1) if w_global < 0 else -1)

    def automatic_fire(self, tp: int) -> None:
        """Weapons on automatic fire at the end of the turn's movement at what crosses their line
        (special.automatic_attacks, CW-AUTO-01; destroyed or empty ones are skipped in the kernel, by the dice)."""
        for unit in self.arena.vehicles.values():
            for w in unit.all_weapons():
                if not fires_on_automatic(w):
                    continue
                target = automatic_target(self.arena, unit, w)
                if target is None:
                    continue
                found = self.explained(unit, w.id, None, target, "auto", planned=True)
                f0 = len(self.fir)
                self._firer_rows(-1, [found[1]] if found is not None else [])
                self._entry(tp, unit, self.wkey[(unit.id, w.id)], self.weapon_index[(unit.id, w.id)], -1, f0, _layout.CHOOSE_AUTOMATIC)

    def orders(self, turn: int, phase: int, tp: int) -> None:
        """The standing orders that hold this phase (FIGHT-02, `fight.order_attacks`): per order and weapon, an
        entry whose firer rows hold the candidate shots the order chooses from. The same as in an earlier phase of
        the same situation where the same orders hold and the same weapons and firers may fire (kept with the
        situation), but for bursts, whose reach is added to the rows each time."""
        fight, arena = self.fight, self.arena
        if fight is None:
            return
        # (only a vehicle's substitute driver may be barred from firing, `crew.substitute_barred`)
        key = ("orders", tuple(order.holds(turn, phase) for order in fight.orders),
               tuple(w.automatic for _, w in self._mounted()),
               tuple((v.id, v.substitute, self._barred(v, v.substitute)) for v in arena.vehicles.values() if v.substitute is not None))
        entries = self.now["rows"].get(key)
        if entries is None:
            entries, kept = [], True
            for order, hold in zip(fight.orders, key[1]):
                if not hold:
                    continue
                unit = arena.vehicles.get(order.unit) or arena.pedestrians[order.unit]
                targets = self.enemies[unit.id] if order.target in TARGET_POLICIES else [order.target]
                for wid in weapons_of(order, unit):
                    entry, kept_ = self._order_weapon(order, unit, wid, targets)
                    kept = kept and kept_
                    if entry is not None:
                        entries.append(entry)
            if kept:
                self.now["rows"][key] = entries
        for entry, firers in entries:
            row = list(entry)
            row[_layout.ENT_TP], row[_layout.ENT_FIR_LO] = tp, len(self.fir)
            for character, rows in firers:
                self._firer_rows(character, rows)
            row[_layout.ENT_FIR_HI] = len(self.fir)
            self.ent.append(row)

    def _order_weapon(self, order, unit, wid: str, targets: list) -> tuple[tuple | None, bool]:
        """One weapon of an order: its entry (nearest or best odds, `fight._choose`) as its row but for the phase and
        the firer rows, and each firer's (character, candidate rows); None if it holds fire in every trial or has no
        shot for any firer in this phase. And whether it may be kept (no burst)."""
        if isinstance(unit, Pedestrian):
            firers, w_global, ped = [None], -1, self.pids.index(unit.id)
        else:
            w = next((x for x in unit.all_weapons() if x.id == wid), None)
            if w is None or w.automatic or w.spec.refused:
                return None, True       # holds fire in every trial (carwars.fight._holds_fire)
            w_global, ped = self.weapon_index[(unit.id, wid)], -1
            if order.firer is not None:
                firers = [order.firer]
            else:
                firers = [c.id for c in default_firer_pool(unit, w)]
        shots = [(firer, *self.rows_for(unit, wid, firer, targets, order.aim)) for firer in firers]
        kept = all(kept_ for _, _, kept_ in shots)
        if not any(rows for _, rows, _ in shots):
            return None, kept           # no shot for any firer in this phase: the order chooses nothing here
        entry = kernel_row(_layout.ENT_COLUMNS, tp=0, unit=self.uidx[unit.id], wkey=self.wkey[(unit.id, wid)], weapon=w_global, ped=ped,
                           fir_lo=0, fir_hi=0, choose=_layout.CHOOSE_BEST_ODDS if order.target == "best_odds" else _layout.CHOOSE_NEAREST,
                           atk=-1, link=0, shot=-1, rank=0, hand=self.hand_of.get(wid, -1) if w_global < 0 else -1,
                           min36=order_min36(self.rules, order, unit, wid))
        return (entry, [(-1 if firer is None else self.crew_index[(unit.id, firer)], rows) for firer, rows, _ in shots]), kept

    # --- the state at the start of a turn, to go on from (`pack_fight`'s states) --------------------------------

    # the rows, only ever appended to: a state holds their lengths
    _ROW_LISTS = ("ent", "fir", "cand", "fcol", "tp_lo", "col_lo", "near_v", "near_p", "brst", "ocon", "ocon_lo", "drops",
                  "drop_lo", "offr", "offr_lo", "obs_at", "obs_swept")
    # the rest of what the turns change: the arena, the counters with rows (the same objects as the arena's), what
    # touches what, the facts numbered, drivers found out, who holds a hand weapon from when, who still moves
    _TURN_STATE = ("arena", "counter_objs", "touching", "crossing", "meeting", "fact_list", "fact_at", "drivers_out", "c_hand",
                   "moving_end")

    def row_lists(self) -> dict[str, list]:
        """The packer's row lists (`TurnStates.lists`)."""
        return {name: getattr(self, name) for name in self._ROW_LISTS}

    def turn_state(self) -> tuple[dict[str, int], bytes]:
        """The packer's state now, between two turns: the row lists' lengths, the rest pickled in one piece (the
        counters it has rows for are the arena's own objects)."""
        lengths = {name: len(getattr(self, name)) for name in self._ROW_LISTS}
        return lengths, pickle.dumps(tuple(getattr(self, name) for name in self._TURN_STATE), protocol=pickle.HIGHEST_PROTOCOL)

    def may_go_on(self) -> bool:
        """Whether a variant may go on from this turn's start, so that its state is worth keeping: something moves (a
        vehicle out of control slows down from a turn it moves in), an action is declared this turn or a dropped
        weapon is on automatic (either may go otherwise than packed). Any other turn's variant goes on from an
        earlier one."""
        arena = self.arena
        return (any(u.speed for u in [*arena.vehicles.values(), *arena.pedestrians.values()])
                or any(turn == arena.turn for turn, _ in self.plan.actions)
                or any(w.automatic and w.spec.dropped for _, w in self._mounted()))

    def resume(self, states: TurnStates, ti: int) -> None:
        """Take another packing's state at the start of turn `ti` (`turn_state`), to pack the turns from there."""
        lengths, blob = states.starts[ti]
        for name in self._ROW_LISTS:
            setattr(self, name, states.lists[name][:lengths[name]])
        for name, value in zip(self._TURN_STATE, pickle.loads(blob)):
            setattr(self, name, value)
        self.counter_of = {id(c): i for i, c in enumerate(self.counter_objs)}

    # --- the per-turn and per-phase loop, and the end of turn ------------------------------------------------

    def pack_turn(self, ti: int) -> None:
        """The fight's turn `ti` (from 0) as `turn.run_turns` plays one: off-road rolls at its start, its phases,
        then its end."""
        turn = self.arena.turn
        self._offroad_rows(ti)
        fired_by_actions = FiredThisTurn()
        for phase in range(1, self.P + 1):
            self.pack_phase(ti, turn, phase, fired_by_actions)
        self.end_of_turn(ti)

    def pack_phase(self, ti: int, turn: int, phase: int, fired: FiredThisTurn) -> None:
        """One phase (`turn.run_turns`, `phase.resolve_phase`): the facts' destroyed weapons, the declared actions, the
        movement and its collisions, then the planned attacks, the automatic fire at the turn's end and the orders."""
        arena = self.arena
        arena.phase = phase
        for vid, wid in self.gone_at.get((turn, phase), []):
            arena.vehicles[vid].weapon(wid, "facts").dp = 0      # destroyed by then in these trials
        for v in arena.vehicles.values():
            v.hazard_difficulty, v.on_oil, v.maneuvered = 0, False, False
        self.declared(turn, phase, fired)
        found = self._move(phase)
        self._collision_rows(ti, turn, phase, found)
        self._place()
        tp = ti * self.P + phase - 1
        self.planned_attacks(turn, phase, tp)
        if phase == self.P:
            self.automatic_fire(tp)
        self.orders(turn, phase, tp)
        self.tp_lo.append(len(self.ent))

    def end_of_turn(self, ti: int) -> None:
        """The turn's end (`turn._end_of_turn`): where an explosion now reaches (CW-FIRE-04) and who still moves;
        smoke and flaming oil going, paint wearing off, handling recovered, and vehicles out of control slowing
        down (CW-CREW-03)."""
        arena = self.arena
        places = tuple((u.id, u.x, u.y, u.facing) for u in [*arena.vehicles.values(), *arena.pedestrians.values()])
        if ("blast", places) not in self.cache:     # the same places, the same reach (a unit's counter never changes size)
            self.cache[("blast", places)] = blast_rows(arena, self.radius, self.ped_index)
        reach_v, reach_p = self.cache[("blast", places)]
        self.near_v += reach_v or [[]]
        self.near_p += reach_p or [[]]
        for i, v in enumerate(arena.vehicles.values()):
            self.moving_end[ti * self.V + i] = int(v.speed != 0)
        expire_counters(self.rules, arena, arena.counters, arena.turn)     # smoke and flaming oil going (turn._end_of_turn)
        for v in arena.vehicles.values():
            if v.paint_until_turn is not None and v.paint_until_turn <= arena.turn:
                v.paint_until_turn = None
        for v in arena.vehicles.values():
            end_handling(v)
        for i, v in enumerate(arena.vehicles.values()):
            if ("slow", i) in self.slow_from and ti + 1 >= self.slow_from[("slow", i)] and v.speed != 0:
                v.speed = slowed(v.speed, self.slow)
        arena.turn += 1
        arena.phase = 1

    # --- assembling the arrays ------------------------------------------------------------------------------

    def _history(self) -> list[int]:
        """The sustained-fire history the scenario starts with (CW-HIT-09): per weapon key its last target (a
        candidate's unit column; none that can be shot never matches), streak and last turn, the scenario's first
        turn being 1."""
        arena, scenario = self.arena, self.scenario
        W = len(self.layout.weapons)
        rec0 = [-1] * W + [0] * W + [-100] * W
        first_turn = scenario.arena.turn
        for (attacker, weapon), rec in scenario.history.items():
            k = self.wkey.get((attacker, weapon))
            if k is None:
                continue          # a weapon no fight entry fires: its record is never read
            if rec.target in arena.buildings:
                rec0[k] = len(self.units) + list(arena.buildings).index(rec.target)
            else:
                rec0[k] = self.uidx.get(rec.target, -2)
            rec0[W + k] = rec.streak
            rec0[2 * W + k] = max(rec.last_turn - first_turn + 1, -100)
        return rec0

    def packed(self) -> Packed:
        """The base packing's arrays with the fight's added (fastcore/layout.toml, arrays.fight), as a `Packed`."""
        rec0 = self._history()
        self.fc[_layout.F_COUNTERS] = len(self.counter_objs)
        start = self.scenario.arena
        arrays = dict(self.base.arrays)
        arrays.update(
            fc=_int32(self.fc), crash_out=_int32(self.crash_out), prob36=_int32(self.prob36), u_side=_int32(self.u_side),
            w_key=_int32(self.w_key), w_shots=_int32(self.w_shots), w_ammo0=_int32(self.w_ammo0), w_usable=_int32(self.w_usable),
            c_takeover=_int32(self.c_takeover), c_hand=_int32(self.c_hand), hand0=_int32(self.hand0), hand_eq=_int32(self.hand_eq),
            ent=_int32(self.ent, _layout.ENT_NCOLS), tp_lo=_int32(self.tp_lo), fir=_int32(self.fir, _layout.FIR_NCOLS),
            cand=_int32(self.cand, _layout.CAND_NCOLS), fcol=_int32(self.fcol, _layout.FCOL_NCOLS), col_lo=_int32(self.col_lo),
            near_v=_int32(padded_rows(self.near_v, 2)), near_p=_int32(padded_rows(self.near_p, 1)), moving_end=_int32(self.moving_end),
            ocon=_int32(self.ocon, _layout.OCON_NCOLS), known_unc=_int32([int(("slow", i) in self.slow_from) for i in range(self.V)]),
            obs_met=_int32(self.obstacle_met()),
            ocon_lo=_int32(self.ocon_lo), drop=_int32(self.drops, _layout.DROP_NCOLS), drop_lo=_int32(self.drop_lo),
            v_off=_int32(self.v_off), t_immune=_int32(self.t_immune), offr=_int32(self.offr, _layout.OFFR_NCOLS),
            offr_lo=_int32(self.offr_lo), brst=_int32(self.brst, _layout.BRST_NCOLS), rec0=_int32(rec0),
            fring0=_int32(sum(carried_fire(start, self.T, self.ring), [])),
            crash0=_int32([int(v.crash in self.out_t["crash_results_out"]) for v in start.vehicles.values()]))
        base = self.base
        return Packed(arrays, base.labels, base.kinds, base.vehicles, self.names, self.P, layout=self.layout, tire_index=base.tire_index,
                      base=base, facts=self.fact_list)
