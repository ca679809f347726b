"""Exact odds of one Car Wars attack, computed over the reference rules (FAST-02).

`exact_attack(scenario, attack_id)` returns an `AttackOdds`: P(hit), the
distribution of the damage rolled, and for every component of the target the
exact distribution of its value after the attack, all as Fractions.

Method (docs/exact.md). The to-hit and damage rolls are chance points with
known distributions (`tohit.is_hit` over the 36 faces of 2d6,
`DiceExpr.distribution()`). The damage location is not re-implemented: the
reference `apply_shot` (or `damage_pedestrian`) is run on a deep copy of the
target with a dice source that replays a prefix of roll outcomes and raises a
private sentinel when the rules ask for one more. A depth-first search
branches over that roll's outcomes, so every sequence of faces the rules can
draw is visited, each weighted by (1/6) per face. Two refinements keep it
exact and finite:

- Totals: a roll of several dice is branched over its totals (weighted by the
  number of face combinations) as long as no path reads the roll's faces; if
  one does, that roll is re-branched face by face (`faces=True` forces this).
- Re-rolls: a rule that re-rolls (a random pick among 4 re-rolls 5-6; the
  cycle side table re-rolls "no weapon") loops. When a roll is asked for in
  the same state as an earlier roll of the same path (same frames at the same
  instruction with equal locals, the target's component values and the
  ledger's books unchanged), the path is a loop back to that roll, and the
  geometric series is summed exactly: X = (what ends) / (1 - P(loop back)).
"""
from __future__ import annotations

import copy
import dataclasses
import dis
import enum
import functools
import itertools
import pickle
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from .carwars import tohit
from .carwars.crew import damage_pedestrian
from .carwars.damage import Ledger, PowerPlant, apply_shot
from .carwars.model import Building, Pedestrian, Vehicle
from .carwars.attack import attack_weapon
from .carwars.phase import _shot_for, hits_against_vehicle
from .dice import DiceExpr, parse_dice
from .errors import HardpointError, ScenarioError
from .events import DiceRolled

__all__ = ["AttackOdds", "ExactError", "exact_attack", "component_values", "location_outcomes"]

_ONE = Fraction(1)
_MAX_ROLLS = 64          # rolls on one path before the search gives up (a loop it cannot recognise)


class ExactError(HardpointError, RuntimeError):
    """The exact enumeration cannot finish (FAST-02): a rule loops in a way the search does not recognise."""


# --- the result -------------------------------------------------------------------------

@dataclass(frozen=True)
class AttackOdds:
    """The exact outcome distribution of one declared attack (FAST-02).

    `damage`: the damage rolled (0 on a miss), as `AttackRoll.damage`.
    `hits`: the hits that reach the target after the hand-weapon rule (CW-HAND-01).
    `component_dp`: per component of the target, the distribution of its value
    after the attack: DP or armour points left, except crew members and
    pedestrians, whose value is the hits they have taken (3 = dead).
    `destroyed`: per component, P(it ends at 0 DP); for people, P(dead).
    """

    attack: str
    target: str
    aimed_at: str
    p_hit: Fraction
    damage: dict[int, Fraction]
    hits: dict[int, Fraction]
    component_dp: dict[str, dict[int, Fraction]]
    destroyed: dict[str, Fraction]

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: Fractions as strings ("5/12"), integer keys as strings."""
        def dist(d: dict[int, Fraction]) -> dict[str, str]:
            return {str(k): str(v) for k, v in sorted(d.items())}

        return {
            "attack": self.attack, "target": self.target, "aimed_at": self.aimed_at,
            "p_hit": str(self.p_hit), "damage": dist(self.damage), "hits": dist(self.hits),
            "component_dp": {k: dist(v) for k, v in self.component_dp.items()},
            "destroyed": {k: str(v) for k, v in self.destroyed.items()},
        }


# --- the target's components ----------------------------------------------------------------

def component_values(target: Vehicle | Pedestrian) -> dict[str, int]:
    """Every component of a vehicle or pedestrian and its current value, in a fixed order.

    Armour sides, power plant, weapons, tires, cargo (DP or points left); crew
    members (hits taken) and their body armour; a sidecar's armour, tire,
    weapons, crew and cargo under "sidecar ...". A pedestrian: its hits and body armour.
    """
    out: dict[str, int] = {}
    if isinstance(target, Pedestrian):
        out[f"pedestrian {target.id}"] = target.hits
        out[f"pedestrian {target.id} body armour"] = target.body_armour
        return out
    for side, points in target.armour.items():
        out[f"{side} armour"] = points
    if target.power_plant is not None:
        out["power plant"] = target.power_plant
    for w in target.weapons:
        out[f"weapon {w.id}"] = w.dp
    for t in target.tires:
        out[f"tire {t.id}"] = t.dp
    for c in target.cargo:
        out[f"cargo {c.id}"] = c.dp
    for p in target.crew:
        out[f"crew {p.id}"] = p.hits
        out[f"crew {p.id} body armour"] = p.body_armour
    sc = target.sidecar
    if sc is not None:
        for side, points in sc.armour.items():
            out[f"sidecar {side} armour"] = points
        out["sidecar tire"] = sc.tire.dp
        for w in sc.weapons:
            out[f"sidecar weapon {w.id}"] = w.dp
        for p in sc.crew:
            out[f"sidecar crew {p.id}"] = p.hits
            out[f"sidecar crew {p.id} body armour"] = p.body_armour
        for c in sc.cargo:
            out[f"sidecar cargo {c.id}"] = c.dp
    return out


def _values(target: Vehicle | Pedestrian) -> tuple[int, ...]:
    """`component_values(target)` as a tuple, without the names (the search calls it at every roll)."""
    if isinstance(target, Pedestrian):
        return (target.hits, target.body_armour)
    out = list(target.armour.values())
    if target.power_plant is not None:
        out.append(target.power_plant)
    out += [w.dp for w in target.weapons]
    out += [t.dp for t in target.tires]
    out += [c.dp for c in target.cargo]
    for p in target.crew:
        out += (p.hits, p.body_armour)
    sc = target.sidecar
    if sc is not None:
        out += sc.armour.values()
        out.append(sc.tire.dp)
        out += [w.dp for w in sc.weapons]
        for p in sc.crew:
            out += (p.hits, p.body_armour)
        out += [c.dp for c in sc.cargo]
    return tuple(out)


def _is_person(key: str) -> bool:
    return key.startswith(("crew ", "sidecar crew ", "pedestrian ")) and not key.endswith(" body armour")


# --- the replaying dice source ----------------------------------------------------------------

class _NeedRoll(BaseException):
    """Private sentinel: the rules asked for a roll beyond the replayed prefix.

    A BaseException so that no `except Exception` in the rules can swallow it.
    """


class _Rolled(DiceRolled):
    """A DiceRolled that tells the dice source when its faces are looked at."""

    def __getattribute__(self, name: str) -> Any:
        if name == "faces":
            source, index = object.__getattribute__(self, "_watch")
            source.face_reads.add(index)
        return object.__getattribute__(self, name)


@dataclass(frozen=True)
class _Request:
    """What the rules asked for when the prefix ran out: `count` dice of `expr` (None: a bare d6)."""

    expr: DiceExpr | None
    why: str


class _PrefixDice:
    """Replays roll outcomes (face tuples) in order; one more raises `_NeedRoll`.

    At every request it records the state the rules are in (for loop detection).
    """

    def __init__(self, prefix: tuple[tuple[int, ...], ...], target: object, stop: object) -> None:
        self.prefix = prefix
        self.used = 0
        self.target = target
        self.stop = stop                      # the code object of the caller: frames above it are not the rules'
        self.states: list[tuple] = []         # the state at each request, in order
        self.keep: list[object] = []          # frames kept alive so identities stay unique
        self.face_reads: set[int] = set()
        self.request: _Request | None = None

    def _next(self, request: _Request) -> tuple[int, ...]:
        self.states.append(self._state(request))
        if self.used < len(self.prefix):
            faces = self.prefix[self.used]
            self.used += 1
            return faces
        self.request = request
        raise _NeedRoll

    def d6(self) -> int:
        return self._next(_Request(None, ""))[0]

    def roll(self, expr: DiceExpr | str, why: str, rule: str = "") -> DiceRolled:
        e = parse_dice(expr) if isinstance(expr, str) else expr
        index = self.used
        faces = self._next(_Request(e, why))
        r = _Rolled(why=why, expr=str(e), faces=faces, total=e.total(faces), rule=rule)
        object.__setattr__(r, "_watch", (self, index))
        return r

    def _state(self, request: _Request) -> tuple[tuple, list[dict]]:
        """The state the rules are in: the request, the frames from the rules' entry point to here
        (identity and instruction), the target's values and every ledger's books; and a copy of
        each frame's locals, compared only when all the rest is equal."""
        where = []
        books = []
        snapshots = []
        f = sys._getframe(3)                  # above _state, _next and roll / d6
        while f is not None and f.f_code is not self.stop:
            self.keep.append(f)
            where.append((id(f), f.f_lasti))
            loc = dict(f.f_locals)
            books += [(v.dealt, v.absorbed, v.lost) for v in loc.values() if type(v) is Ledger]
            live = _live_locals(f.f_code, f.f_lasti)
            snapshots.append(loc if live is None else {k: v for k, v in loc.items() if k in live})
            f = f.f_back
        return (request, tuple(where), _values(self.target), tuple(books)), snapshots

    def loop_back(self) -> int | None:
        """The earlier request of this run made in the same state as the last one, if any."""
        key, snaps = self.states[-1]
        for j, (k, s) in enumerate(self.states[:-1]):
            if k == key and [_canon_locals(x) for x in s] == [_canon_locals(x) for x in snaps]:
                return j
        return None


class _Opaque(Exception):
    pass


# --- which locals still matter (for recognising a re-roll loop) -------------------------------
#
# At a re-roll the frames are the same and at the same instruction, but a dead local (the roll
# just rejected) differs; comparing every local would never recognise the loop. So locals are
# compared only if they may still be read: later on some path (bytecode liveness), or already
# pushed on the value stack by the statement being evaluated. Anything the analysis does not
# cover (try/with blocks, for-loop iterators on the stack, unknown jumps) compares every local.

_TERMINAL = frozenset({"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"})
_UNCONDITIONAL = frozenset({"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_ABSOLUTE", "JUMP",
                            "JUMP_NO_INTERRUPT"})
_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)


def _names(instr: dis.Instruction) -> tuple:
    v = instr.argval
    return v if isinstance(v, tuple) else (v,)


@functools.lru_cache(maxsize=None)
def _live_locals(code: Any, lasti: int) -> frozenset[str] | None:
    """The locals of `code` that may still be read when the call at `lasti` returns; None: assume all."""
    try:
        if code.co_exceptiontable or code.co_cellvars or code.co_freevars:
            return None
        ins = list(dis.get_instructions(code))
        at = {i.offset: n for n, i in enumerate(ins)}
        # f_lasti may point into the inline caches after the CALL: take the instruction it belongs to
        here = max((n for n, i in enumerate(ins) if i.offset <= lasti), default=None)
        if here is None or ins[here].opname not in ("CALL", "CALL_FUNCTION", "CALL_METHOD", "CALL_KW", "CALL_FUNCTION_EX"):
            return None
        lasti = ins[here].offset
        succ: list[list[int]] = []
        for n, i in enumerate(ins):
            nxt = [n + 1] if n + 1 < len(ins) else []
            if i.opname in _TERMINAL:
                succ.append([])
            elif i.opname in _UNCONDITIONAL:
                succ.append([at[i.argval]])
            elif i.opcode in _JUMPS:
                if i.opname == "FOR_ITER" and i.offset < lasti < i.argval:
                    return None             # inside a for loop: its iterator is on the stack
                succ.append(nxt + [at[i.argval]])
            else:
                succ.append(nxt)
        # stack depth before each instruction (for what the current statement has pushed)
        depth: list[int | None] = [None] * len(ins)
        depth[0] = 0
        work = [0]
        while work:
            n = work.pop()
            i = ins[n]
            for m in succ[n]:
                if i.opcode in _JUMPS:
                    effect = dis.stack_effect(i.opcode, i.arg, jump=(m != n + 1 or i.opname in _UNCONDITIONAL))
                else:
                    effect = dis.stack_effect(i.opcode, i.arg) if i.opcode >= dis.HAVE_ARGUMENT else dis.stack_effect(i.opcode)
                d = depth[n] + effect  # type: ignore[operator]
                if depth[m] is None:
                    depth[m] = d
                    work.append(m)
                elif depth[m] != d:
                    return None
        live: set[str] = set()
        start = here
        while start > 0 and depth[start] != 0:
            start -= 1
        for i in ins[start:here]:
            if i.opname.startswith("LOAD_FAST") or i.opname == "LOAD_CLOSURE":
                live.update(_names(i))
        # read later on some path before being written
        for name in code.co_varnames:
            seen = set()
            work = list(succ[here])
            while work:
                n = work.pop()
                if n in seen:
                    continue
                seen.add(n)
                i = ins[n]
                if name in _names(i) and isinstance(i.argval, (str, tuple)):
                    if i.opname in ("STORE_FAST", "DELETE_FAST", "STORE_FAST_STORE_FAST"):
                        continue            # written before any read on this path
                    if "FAST" in i.opname or i.opname in ("LOAD_CLOSURE", "DELETE_DEREF"):
                        live.add(name)
                        break
                work += succ[n]
        return frozenset(live)
    except Exception:  # pragma: no cover - an interpreter whose bytecode this does not know: compare all
        return None


_ATOMS = frozenset({type(None), bool, int, float, str, Fraction})
_KINDS: dict[type, str] = {}


def _kind(t: type) -> str:
    k = _KINDS.get(t)
    if k is None:
        if t in _ATOMS or issubclass(t, enum.Enum):
            k = "atom"
        elif issubclass(t, Ledger):
            k = "ledger"
        elif issubclass(t, DiceRolled):
            k = "rolled"
        elif issubclass(t, PowerPlant):
            k = "power plant"
        elif issubclass(t, (tuple, list)):
            k = "seq"
        elif dataclasses.is_dataclass(t) and t.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            k = "frozen"
        else:
            k = "id"
        _KINDS[t] = k
    return k


def _canon(x: Any, depth: int = 0) -> Any:
    """A hashable stand-in for a local, equal for equal states within one run."""
    k = _KINDS.get(type(x)) or _kind(type(x))
    if k == "atom":
        return x
    if k == "id":
        # mutable objects (the target and its parts, rules tables): by identity; their state is the
        # target's component values, recorded beside; the kept frames keep them alive
        return ("id", id(x))
    if k == "ledger":
        return ("ledger", id(x), x.dealt, x.absorbed, x.lost)   # its events are written, never read
    if k == "rolled":
        g = object.__getattribute__
        return ("rolled", g(x, "expr"), g(x, "faces"), g(x, "total"))
    if k == "power plant":
        return ("power plant", id(x.vehicle))
    if depth > 3:
        raise _Opaque
    if k == "seq":
        return (id(x) if isinstance(x, list) else None, tuple([_canon(i, depth + 1) for i in x]))
    return (type(x), tuple([_canon(getattr(x, f.name), depth + 1) for f in dataclasses.fields(x)]))


def _canon_locals(loc: dict) -> tuple:
    try:
        return tuple([(k, _canon(v)) for k, v in loc.items()])   # same code object: same order
    except _Opaque:
        return (("opaque", object()),)      # never equal to anything: no loop is recognised here


# --- the search ------------------------------------------------------------------------------

Outcome = tuple[int, ...]
_Dist = dict[Outcome, Fraction]


def _branches(request: _Request, by_face: bool) -> list[tuple[tuple[int, ...], Fraction]]:
    """The outcomes of one roll: every face combination, or one representative per total."""
    count = 1 if request.expr is None else request.expr.count
    combos = list(itertools.product(range(1, 7), repeat=count))
    w = Fraction(1, 6 ** count)
    if by_face or request.expr is None or count == 1:
        return [(c, w) for c in combos]
    totals: dict[int, list] = {}
    for c in combos:
        t = request.expr.total(c)
        if t not in totals:
            totals[t] = [c, w]
        else:
            totals[t][1] += w
    return [(c, p) for c, p in totals.values()]


class _Search:
    def __init__(self, target: Vehicle | Pedestrian, apply: Callable[[Any, Any], object], by_face: bool) -> None:
        self.target = target
        self.apply = apply
        self.by_face = by_face
        self.runs = 0
        try:
            # a deep copy per path: unpickling a snapshot is the fastest deep copy
            self._frozen = pickle.dumps(target, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # pragma: no cover - targets are plain dataclasses; keep deepcopy as the fallback
            self._frozen = None

    def _copy(self) -> Any:
        return pickle.loads(self._frozen) if self._frozen is not None else copy.deepcopy(self.target)

    def _run(self, prefix: tuple[tuple[int, ...], ...]):
        self.runs += 1
        t = self._copy()
        dice = _PrefixDice(prefix, t, _Search._run.__code__)
        try:
            self.apply(t, dice)
        except _NeedRoll:
            return False, dice.request, dice.loop_back(), dice.face_reads
        return True, _values(t), None, dice.face_reads

    def explore(self, prefix: tuple[tuple[int, ...], ...] = ()) -> tuple[_Dist, dict[int, Fraction], set[int]]:
        """Outcomes below this node, loop-backs to ancestors (by depth), rolls whose faces were read."""
        depth = len(prefix)
        if depth > _MAX_ROLLS:
            raise ExactError(f"more than {_MAX_ROLLS} rolls on one path of the damage location without a recognised "
                             "re-roll loop: the exact search cannot finish (FAST-02)")
        done, what, back, reads = self._run(prefix)
        if done:
            return {what: _ONE}, {}, set(reads)
        if back is not None:
            return {}, {back: _ONE}, set(reads)
        dist, loops, reads = self._children(prefix, what, self.by_face)
        if depth in reads and not self.by_face:
            dist, loops, reads = self._children(prefix, what, True)   # the faces matter: branch face by face
        reads.discard(depth)
        own = loops.pop(depth, Fraction(0))
        if own:
            if own >= 1:
                raise ExactError(f"the rules re-roll {what.why or 'a die'!r} forever from this state (FAST-02)")
            scale = 1 / (1 - own)
            dist = {k: v * scale for k, v in dist.items()}
            loops = {k: v * scale for k, v in loops.items()}
        return dist, loops, {r for r in reads if r < depth}

    def _children(self, prefix, request: _Request, by_face: bool):
        dist: _Dist = {}
        loops: dict[int, Fraction] = {}
        reads: set[int] = set()
        for faces, w in _branches(request, by_face):
            d, lp, rd = self.explore(prefix + (faces,))
            for k, v in d.items():
                dist[k] = dist.get(k, 0) + w * v
            for k, v in lp.items():
                loops[k] = loops.get(k, 0) + w * v
            reads |= rd
        return dist, loops, reads


def location_outcomes(target: Vehicle | Pedestrian, apply: Callable[[Any, Any], object],
                      faces: bool = False) -> dict[Outcome, Fraction]:
    """Exact distribution of the target's component values (`component_values` order) after
    `apply(copy_of_target, dice)`, over every roll the rules make (FAST-02).

    `apply` must change only the copy it is given. `faces=True` branches every roll
    face by face instead of by total (slower; the same result).
    """
    search = _Search(target, apply, faces)
    dist, loops, _ = search.explore()
    assert not loops, loops
    return dist


# --- one attack ------------------------------------------------------------------------------

def _find_attack(scenario: Any, attack_id: str):
    for a in scenario.attacks:
        if a.id == attack_id:
            return a
    raise ScenarioError(f"no declared attack with this id (attacks: {', '.join(a.id for a in scenario.attacks) or 'none'})",
                        field="attack", value=attack_id, rule="FAST-02")


def _marginals(keys: list[str], joint: _Dist) -> dict[str, dict[int, Fraction]]:
    out: dict[str, dict[int, Fraction]] = {k: {} for k in keys}
    for outcome, p in joint.items():
        for k, v in zip(keys, outcome):
            out[k][v] = out[k].get(v, 0) + p
    return {k: dict(sorted(d.items())) for k, d in out.items()}


def exact_attack(scenario: Any, attack_id: str, *, faces: bool = False) -> AttackOdds:
    """Exact odds of one declared attack of a single-phase or one-turn Car Wars scenario (FAST-02).

    The attack is taken alone, against the scenario's state before the phase (in a one-turn scenario: at the
    positions after its phase's movement, against the state at the start of the turn):
    P(hit) from 2d6 against the number needed (a natural 2 misses), the damage
    roll's distribution, the hits reaching the target (CW-HAND-01), then every
    damage location the reference rules can choose (`apply_shot`,
    `damage_pedestrian`). A building is not damaged: P(hit) and the damage only.

    Raises:
        ScenarioError: no attack with this id.
        NotImplementedError: multi-turn scenarios, area-effect attacks (declared
            victims, CW-DMG-07) and linked weapons (CW-LINK-01).
    """
    if getattr(scenario, "ruleset", "carwars") != "carwars":
        raise NotImplementedError(f"exact odds are for Car Wars scenarios only, not {scenario.ruleset!r} (FAST-02)")
    if (getattr(scenario, "turns", None) or 0) > 1:
        raise NotImplementedError("exact odds cover one attack of a phase or of a one-turn scenario, not of several turns (FAST-02)")
    attack = _find_attack(scenario, attack_id)
    arena, rules = scenario.arena, scenario.rules
    unit = arena.unit(attack.attacker, "attack.attacker")
    if attack.victims:
        raise NotImplementedError(f"attack {attack.id!r} is an area-effect attack on several victims (CW-DMG-07): "
                                  "exact odds are not implemented for it (FAST-02)")
    if (isinstance(unit, Vehicle) and attack.weapon in unit.links) or attack.link is not None or attack.as_automatic:
        raise NotImplementedError(f"attack {attack.id!r} fires linked weapons (CW-LINK-01): exact odds are not "
                                  "implemented for it (FAST-02)")
    breakdown = next((b for b in scenario.explain() if b.attack == attack.id), None)
    if breakdown is None:   # a one-turn scenario's attack that the rules cancel when its phase comes
        raise NotImplementedError(f"attack {attack.id!r} is cancelled by the rules when its phase comes (FAST-02)")

    # CW-HIT-01: the to-hit roll through the reference rule, over the 36 faces of 2d6
    p_hit = sum((Fraction(1, 36) for a in range(1, 7) for b in range(1, 7)
                 if tohit.is_hit(rules, a + b, breakdown.needed, breakdown.possible)), Fraction(0))
    spec = attack_weapon(arena, unit, breakdown.weapon, rules)
    rolled = spec.damage.distribution() if spec.damage is not None else {spec.damage_hits or 0: _ONE}

    target = arena.buildings.get(breakdown.target) or arena.unit(breakdown.target, "attack.target")
    damage: dict[int, Fraction] = {0: 1 - p_hit}
    hits: dict[int, Fraction] = {0: 1 - p_hit}
    by_hits: dict[int, Fraction] = {}
    for d, p in rolled.items():
        damage[d] = damage.get(d, 0) + p_hit * p
        h = d
        if isinstance(target, Vehicle):
            h = hits_against_vehicle(spec, breakdown, d, Ledger(target.id))
        hits[h] = hits.get(h, 0) + p_hit * p
        by_hits[h] = by_hits.get(h, 0) + p_hit * p
    damage = {k: v for k, v in sorted(damage.items()) if v}
    hits = {k: v for k, v in sorted(hits.items()) if v}

    if isinstance(target, Building):
        return AttackOdds(attack.id, breakdown.target, breakdown.aimed_at, p_hit, damage, hits, {}, {})

    keys = list(component_values(target))
    before = _values(target)
    assert len(before) == len(keys)
    joint: _Dist = {before: 1 - p_hit}
    for h, p in by_hits.items():           # memoised by hits: each distinct value is enumerated once
        if not p:
            continue
        if h <= 0:
            joint[before] = joint.get(before, 0) + p
            continue
        for outcome, q in _hits_outcomes(rules, target, breakdown, h, faces).items():
            joint[outcome] = joint.get(outcome, 0) + p * q
    joint = {k: v for k, v in joint.items() if v}
    dp = _marginals(keys, joint)
    destroyed = {k: sum((p for v, p in d.items() if (v >= 3 if _is_person(k) else v == 0)), Fraction(0))
                 for k, d in dp.items()}
    return AttackOdds(attack.id, breakdown.target, breakdown.aimed_at, p_hit, damage, hits, dp, destroyed)


def _hits_outcomes(rules, target: Vehicle | Pedestrian, breakdown, hits: int, faces: bool) -> _Dist:
    if isinstance(target, Pedestrian):
        def apply(t, dice):
            damage_pedestrian(t, hits, Ledger(t.id, dealt=hits))
    else:
        shot = _shot_for(breakdown, hits)

        def apply(t, dice):
            apply_shot(rules, t, shot, dice)
    return location_outcomes(target, apply, faces)
