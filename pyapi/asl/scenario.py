"""ASL scenarios: hexes, Infantry, motorcycle counters, declared moves and attacks (CLI-02).

    [scenario]  name = "...", ruleset = "asl"
    [asl]       ground = "dry"
    [[hex]]     id (a board coordinate such as "B5", or a label where nothing moves), terrain, level,
                road, features, infantry_mf, motorcycle_mp, tem, open, melee
    [[hexside]] hexes = ["B5", "C5"], kind (road, normal, elevated_road, double_crest, abrupt_elevation)
    [[unit]]    id, counter ("4-6-7", "8-0"), type, hex, side, broken, wounded, moving, weapons...
    [[motorcycle]] id, type (cycle/sidecar/bicycle), machines (1-3), hex, mp, m_number, motion, vca, riders
    [[move]]    id, units, phase, steps = [{action = "mount", machine = "..."}, ...]
    [[fire]]    id, kind (ordnance/small_arms/overrun), target, range, fp, firers, ...

The scenario is resolved in the order of the ASL player turn: attacks of the
PFPh; the moves of the MPh, one Movement Phase, in order; the attacks declared
in the MPh (Defensive First Fire, overruns); the end of the MPh (a motorcycle
still moving is in Motion); the DFPh and AFPh attacks; the APh moves; the CCPh
attacks. Within a phase, in the order declared; each against the state the
previous left. Everything is checked when the scenario loads, so a bad
scenario fails before anything is resolved (ERR-01).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable

from ..data import Rules
from ..dice import DiceSource
from ..errors import RuleViolation, ScenarioError
from ..events import Event, Modifier, Note, StateChanged
from ..scenario import register_ruleset
from .chance import ExactBoundError, ExactStats, exact_chain, exact_marginals, run_chain
from .enums import Capacity, FireKind, FirerRow, Ground, Hexside, MachineType, Motion, Moving, Phase, TargetType, UnitType, parse_enum
from .events import ASLResult, IFTBreakdown, MoveStep, OutcomeOdds, StepRefused, ToHitBreakdown, fmt_fraction
from .fire import ASLChain, ChainState, DoEndPhase, DoFire, DoMove, FireDeclaration, check_fire, explain_fire, initial_state
from .geometry import direction_number, hexside_between, parse_coordinate
from .motorcycles import check_capacity, check_not_carried, check_portage
from .movement import ACTIONS, MoveAction, PhaseRecord, end_phase, finish_move, run_move, start_ledger, vca_name
from .marginals import MarginalChain, unit_flags
from .tables import board_settings, to_fraction
from .units import HEX_FEATURES, Board, Hex, Infantry, Motorcycle, Situation, SupportWeapon, make_unit

__all__ = ["ASLScenario", "SCHEMA_PARTS", "load_asl", "MoveDeclaration", "JOINT_EXPLAIN_STATES", "MAX_EXACT_WORK"]

#: states times units an exact computation may go through (each state carries every unit): with more than
#: MAX_EXACT_WORK / MAX_EXACT_STATES = 20 units, fewer states (SAFE-03)
MAX_EXACT_WORK = 1_000_000

#: states `explain` lets the joint distribution of final outcomes take before it lists the odds of
#: each outcome instead (SAFE-03): the D15.55 example takes 434
JOINT_EXPLAIN_STATES = 1_000

# --- bounds of an ASL document (SAFE-01); the schema states each, docs/asl.md lists them ----------------

MAX_ID = 64                 # characters of an id or a name
MAX_UNITS = 4096            # [[unit]]
MAX_COUNTERS = 4096         # [[motorcycle]]
MAX_HEXES = 4096            # [[hex]]
MAX_HEXSIDES = 4096         # [[hexside]]
MAX_UNITS_PER_HEX = 64      # units that start in a hex or may move into it (A5.1 stacks 3 squads and 4 SMC)
MAX_FIRES = 256             # [[fire]]
MAX_MOVES = 256             # [[move]]
MAX_STEPS = 256             # steps of one move
MAX_RIDERS = 16             # riders listed on one counter (its capacity decides the rest)
MAX_WEAPONS = 8             # support weapons of one unit
MAX_FIRERS = 64             # firers of one attack
MAX_MODS = 16               # declared DRM of one list
MAX_HALVINGS = 8            # declared FP halvings of one attack
MAX_LEVEL = 10              # |base level| of a hex
MAX_COST = 100              # MF or MP of one hex, MF already spent
MAX_MP = 100                # a motorcycle's MP allotment, MP already used
MAX_RANGE = 1000            # hexes to the target
MAX_FP = 1000               # FP of an attack or a support weapon
DRM_LIMIT = 12              # |a declared DRM| or a hex's TEM: a DR is 2..12

_FRACTION = r"^\s*\d{1,3}(?:/\d{1,3}|\.\d{1,6})?\s*$"


def _id(what: str) -> dict:
    return {"type": "string", "minLength": 1, "maxLength": MAX_ID, "description": what}


def _int(lo: int, hi: int, what: str) -> dict:
    return {"type": "integer", "minimum": lo, "maximum": hi, "description": what}


def _bool(what: str) -> dict:
    return {"type": "boolean", "description": what}


def _enum(values: list[str], what: str) -> dict:
    return {"enum": values, "description": what}


def _list(items: dict, max_items: int, what: str, *, unique: bool = False, min_items: int = 0) -> dict:
    out = {"type": "array", "items": items, "maxItems": max_items, "description": what}
    if min_items:
        out["minItems"] = min_items
    if unique:
        out["uniqueItems"] = True
    return out


def _cost(hi: int, what: str, na: bool = False) -> dict:
    text = {"type": "string", "pattern": _FRACTION, "description": "a fraction such as \"1/2\" or a decimal"}
    options = [{"type": "number", "minimum": 0, "maximum": hi}, text]
    if na:
        options.append({"const": "NA", "description": "entry forbidden"})
    return {"anyOf": options, "description": what}


_MOD = {"type": "object", "required": ["name", "value"], "additionalProperties": False,
        "description": "a declared DRM: its name, value and the rule it comes from", "properties": {
            "name": _id("what the DRM is (shown in explain and the event log)"),
            "value": _int(-DRM_LIMIT, DRM_LIMIT, "the DRM, added to the DR (negative helps the roll)"),
            "rule": {"type": "string", "maxLength": MAX_ID, "description": "the rule it comes from (default \"scenario\")"}}}
_MODS = _list(_MOD, MAX_MODS, "DRM declared by the scenario")
_SW = {"type": "object", "required": ["id", "type", "fp", "range", "pp"], "additionalProperties": False,
       "description": "a support weapon the unit possesses (A7, ASL-FIRE-01)", "properties": {
           "id": _id("the weapon's id, unique among the unit's weapons; attacks name it in fire.weapons"),
           "type": _id("its type: LMG, MMG, HMG, DC... (sidecar riders may use only those of asl.motorcycles.rider_fire)"),
           "fp": _int(0, MAX_FP, "its FP (firepower factors)"),
           "range": _int(0, MAX_RANGE, "its normal range, in hexes"),
           "pp": _int(0, 20, "its portage points (PP)")}}
_STEP = {"type": "object", "required": ["action"], "additionalProperties": False,
         "description": "one step of a move; each action takes only its own fields (checked on load)", "properties": {
             "action": _enum(list(ACTIONS), "enter (on foot), mount, start, ride, change_vca, stop, dismount, push, split, reverse "
                                            "(always refused), end (of this move)"),
             "hex": _id("enter, ride, push: the adjacent hex entered (a board coordinate such as D5)"),
             "machine": _id("mount, push: the motorcycle counter"),
             "vca": _id("change_vca: the hexspine to face (seeds/asl/board.toml names, such as ne/se)"),
             "spines": _int(-5, 5, "change_vca: hexspines to turn, clockwise positive (instead of vca)"),
             "unit": _id("split: the SMC splitting off on a single-machine counter"),
             "new_id": _id("split: the id of the new counter (default \"<counter>+<unit>\")"),
             "drm": {**_MODS, "description": "push: the MMC Gun-pushing DRM of the Manhandling DR (C10.3)"},
             "attempt": _bool("log a refusal instead of failing the scenario (for examples of illegal steps); default false")}}

SCHEMA_PARTS: dict[str, Any] = {
    "asl": {"type": "object", "additionalProperties": False, "description": "ASL settings of the whole scenario", "properties": {
        "ground": _enum(Ground.choices(), "ground conditions for bicycles (D15.81: Mud, Snow); default dry")}},
    "hex": _list({"type": "object", "required": ["id"], "additionalProperties": False,
                  "description": "a hex of the board", "properties": {
                      "id": _id("a board coordinate (column letters, row: B5, GG10) or, where nothing moves, a label; unique"),
                      "terrain": _id("its terrain, a name of asl.terrain (open_ground, the default) or any other with tem and "
                                     "infantry_mf given here"),
                      "level": _int(-MAX_LEVEL, MAX_LEVEL, "its base level; default 0"),
                      "road": _enum(["paved", "dirt"], "the road in the hex, if any (a road hexside joins two road hexes)"),
                      "plowed": _bool("its road is plowed (bicycles in Snow, D15.81); default true"),
                      "features": _list(_enum(list(HEX_FEATURES), "a feature"), len(HEX_FEATURES),
                                        "features of the hex: shellholes, stream (Wreck Check, D15.46), entrenchment, wreck, vehicle",
                                        unique=True),
                      "infantry_mf": _cost(MAX_COST, "Infantry MF to enter it from any side; default: its terrain's, or the road's "
                                                     "across a road hexside"),
                      "motorcycle_mp": _cost(MAX_COST, "motorcycle MP to enter it, or \"NA\"; default: the road's across a road "
                                                       "hexside, else asl.motorcycles.terrain_mp", na=True),
                      "tem": _int(-DRM_LIMIT, DRM_LIMIT, "its TEM, an IFT DRM for units in it (B1); default: its terrain's"),
                      "open": _bool("open ground for FFMO (A4.6); default: its terrain's"),
                      "melee": _bool("a Melee is in progress there (a rider may dismount beside a Known enemy, D15.43); default "
                                     "false")}},
                 MAX_HEXES, f"the hexes of the scenario (at most {MAX_HEXES:,})"),
    "hexside": _list({"type": "object", "required": ["hexes", "kind"], "additionalProperties": False,
                      "description": "the kind of the hexside between two adjacent hexes", "properties": {
                          "hexes": {"type": "array", "items": _id("a hex id"), "minItems": 2, "maxItems": 2,
                                    "description": "the two adjacent hexes (board coordinates) the hexside joins"},
                          "kind": _enum(Hexside.choices(), "road, normal, elevated_road, double_crest, abrupt_elevation; default: "
                                                           "road between two road hexes, else normal")}},
                     MAX_HEXSIDES, f"hexsides of a kind other than the default (at most {MAX_HEXSIDES:,})"),
    "unit": _list({"type": "object", "required": ["id", "counter", "hex"], "additionalProperties": False,
                   "description": "an Infantry unit (A1)", "properties": {
                       "id": _id("unique among units and counters"),
                       "counter": {"type": "string", "minLength": 1, "maxLength": 8,
                                   "description": "its designation: FP-range-morale (4-6-7: two digits at most each) or a leader's "
                                                  "morale and modifier (8-0, 9-1, 6+1); morale 1..12 (checked on load, A1)"},
                       "type": _enum(UnitType.choices(), "squad, half_squad, crew, leader, hero; default: the counter's in "
                                                         "asl.infantry.counter"),
                       "hex": _id("the hex it is in"),
                       "side": {"type": "string", "maxLength": MAX_ID, "description": "its side (enemies are units of another side); "
                                                                                       "default \"\""},
                       "half_squad": {"type": "string", "minLength": 1, "maxLength": 8,
                                      "description": "a squad's half-squad designation, FP-range-morale (Casualty Reduction); "
                                                     "default: the catalogue's"},
                       "broken": _bool("broken; default false"), "wounded": _bool("an SMC wounded (A17); default false"),
                       "pinned": _bool("pinned; default false"),
                       "inexperienced": _bool("Inexperienced (cowering, A7.9); default false"),
                       "known": _bool("Known to the enemy; default true"),
                       "moving": _enum(Moving.choices(), "what it is doing when fired on in the MPh (FFMO/FFNAM, A4.6); default none"),
                       "weapons": _list(_SW, MAX_WEAPONS, "its support weapons")}},
                  MAX_UNITS, f"the Infantry units (at most {MAX_UNITS:,}; at most {MAX_UNITS_PER_HEX} may start in a hex or move into it)"),
    "motorcycle": _list({"type": "object", "required": ["id", "type", "machines", "hex"], "additionalProperties": False,
                         "description": "a motorcycle or bicycle counter (D15.1)", "properties": {
                             "id": _id("unique among units and counters"),
                             "type": _enum(MachineType.choices(), "cycle, sidecar or bicycle"),
                             "machines": _int(1, 3, "machines on the counter: 1 (SMC size), 2 (HS size), 3 (squad size)"),
                             "hex": _id("the hex it is in"),
                             "side": {"type": "string", "maxLength": MAX_ID, "description": "its side; default \"\""},
                             "mp": _int(1, MAX_MP, "a motorcycle's MP allotment (required; a bicycle has none)"),
                             "m_number": _int(1, 12, "its M#, for Pushing (a Manhandling DR at or under it moves the counter)"),
                             "motion": _enum(Motion.choices(), "stopped, moving (in its MPh) or motion (in Motion); default stopped"),
                             "riders": _list(_id("a unit id"), MAX_RIDERS, "the units riding it", unique=True),
                             "vca": _id("the hexspine its front faces (seeds/asl/board.toml names, such as ne/se); needed to ride"),
                             "carried_by": _id("a vehicle carrying it: always refused (ASL-MOV-01)")}},
                        MAX_COUNTERS, f"motorcycle and bicycle counters (at most {MAX_COUNTERS:,})"),
    "move": _list({"type": "object", "required": ["id", "units", "steps"], "additionalProperties": False,
                   "description": "a declared move: units on foot, or every rider of one counter, from one hex", "properties": {
                       "id": _id("unique among moves"),
                       "units": _list(_id("a unit id"), MAX_UNITS_PER_HEX, "the units moving together", unique=True, min_items=1),
                       "phase": _enum(["mph", "aph"], "the Movement Phase (default) or the Advance Phase"),
                       "double_time": _bool("Double Time (+1 MF, A4.5); default false"),
                       "spent": {"type": "object", "additionalProperties": _cost(MAX_COST, "MF"), "maxProperties": MAX_UNITS_PER_HEX,
                                 "description": "MF already spent this phase by units of the move (unit id: MF); default 0"},
                       "mp_used": _cost(MAX_MP, "MP of the counter already used this phase; default 0"),
                       "carrying": _list(_id("a bicycle counter id"), MAX_RIDERS, "bicycles carried (1 PP a machine)", unique=True),
                       "steps": _list(_STEP, MAX_STEPS, "its steps, in order")}},
                  MAX_MOVES, f"declared moves, in order (at most {MAX_MOVES})"),
    "fire": _list({"type": "object", "required": ["id", "kind", "target", "range"], "additionalProperties": False,
                   "description": "a declared attack on the units of one hex", "properties": {
                       "id": _id("unique among attacks"),
                       "kind": _enum(FireKind.choices(), "ordnance (To Hit, then the IFT), small_arms (the IFT) or overrun (a "
                                                         "sidecar's, ASL-MOV-04)"),
                       "target": _id("the hex attacked"),
                       "range": _int(0, MAX_RANGE, "range to the target, in hexes"),
                       "fp": _cost(MAX_FP, "ordnance: its IFT FP (a 75mm: 12); overrun: the vehicle's own OVR FP"),
                       "weapon": {"type": "string", "maxLength": MAX_ID, "description": "a name for the weapon (shown in explain)"},
                       "firers": _list(_id("a unit id"), MAX_FIRERS, "small arms: the firing units (a fire group); never "
                                                                     "attacked by it", unique=True),
                       "weapons": {"type": "object", "additionalProperties": _id("a support weapon id of that firer"),
                                   "maxProperties": MAX_FIRERS, "description": "small arms: firer id: the support weapon it fires"},
                       "machine": _id("overrun: the sidecar counter overrunning"),
                       "firer_row": _enum(["german", "other"], "the To Hit table row of the firer (C3); default other"),
                       "target_type": _enum(TargetType.choices(), "ordnance: the target type (C3); default infantry"),
                       "phase": _enum(["pfph", "mph", "dfph", "afph", "ccph"], "the phase it is made in (its place in the turn); "
                                                                              "default pfph"),
                       "directed_by": _id("a good-order leader directing the fire (his leadership is an IFT DRM)"),
                       "inexperienced": _bool("cowers two columns (A7.9); default false"),
                       "tpbf": _bool("Triple Point Blank Fire (A7.212); default false"),
                       "halvings": _list(_id("why the FP is halved (AFPh...)"), MAX_HALVINGS, "FP halvings, each /2"),
                       "to_hit_drm": {**_MODS, "description": "ordnance: To Hit DRM declared by the scenario"},
                       "ift_drm": {**_MODS, "description": "IFT DRM declared by the scenario, for every unit attacked"}}},
                  MAX_FIRES, f"declared attacks (at most {MAX_FIRES}), resolved in the order of the player turn"),
}

@dataclass(frozen=True)
class MoveDeclaration:
    id: str
    units: tuple[str, ...]
    phase: Phase
    steps: tuple[MoveAction, ...]
    double_time: bool = False
    spent: tuple[tuple[str, Fraction], ...] = ()
    mp_used: Fraction = Fraction(0)
    carrying: tuple[str, ...] = ()


class _BestCase:
    """Dice for explaining a move without rolling: every die a 1 (no wreck, a pushed counter moves)."""

    def d6(self) -> int:
        return 1

    def roll(self, expr, why, rule=""):
        from ..dice import parse_dice
        from ..events import DiceRolled
        e = parse_dice(expr) if isinstance(expr, str) else expr
        faces = (1,) * e.count
        return DiceRolled(why=why, expr=str(e), faces=faces, total=e.total(faces), rule=rule)


@dataclass
class ASLScenario:
    """An ASL D15 situation with declared moves and attacks."""

    name: str
    rules: Rules
    board: Board
    situation: Situation
    moves: tuple[MoveDeclaration, ...]
    fires: tuple[FireDeclaration, ...]
    description: str = ""
    source: str = ""
    ruleset: str = "asl"
    _exact: dict[ChainState, Fraction] | None = field(default=None, repr=False)
    _marginals: dict[str, Fraction] | None = field(default=None, repr=False)
    _chain: ASLChain | None = field(default=None, repr=False)

    # -- the chain --

    def sequence(self) -> tuple[Any, ...]:
        """The steps in the order of the player turn (the module docstring): per phase, its moves, its
        attacks, then (for the MPh and APh, when something moved) the end of the phase."""
        steps: list[Any] = []
        for phase in Phase:
            moves = [m for m in self.moves if m.phase is phase]
            steps += [DoMove(m.id, phase) for m in moves]
            steps += [DoFire(f.id) for f in self.fires if f.phase is phase]
            if moves:
                steps.append(DoEndPhase(phase))
        return tuple(steps)

    def attack_order(self) -> list[FireDeclaration]:
        """The attacks in the order they are resolved (`sequence`)."""
        fires = {f.id: f for f in self.fires}
        return [fires[s.fire] for s in self.sequence() if isinstance(s, DoFire)]

    def _start(self, decl: MoveDeclaration, situation: Situation, record: PhaseRecord):
        return start_ledger(self.rules, situation, decl.units, decl.id, dict(decl.spent), decl.double_time, decl.mp_used, decl.carrying,
                            record=record)

    def _move_fn(self, decl: MoveDeclaration):
        board = replace(self.board, phase=decl.phase)

        def run(situation: Situation, record: PhaseRecord, dice: DiceSource) -> tuple[Situation, PhaseRecord, list[Event]]:
            try:
                ledger = self._start(decl, situation, record)
            except RuleViolation as exc:
                # Legal when declared, made illegal by an earlier result (a wreck broke the unit).
                return situation, record, [Note(f"move {decl.id} cancelled: {getattr(exc, 'message', exc)}", exc.rule)]
            ledger, after, events = run_move(self.rules, board, situation, ledger, decl.steps, dice)
            return after, finish_move(record, ledger), events
        return run

    def _walk(self, on_fire: Callable[[FireDeclaration, Situation], None], on_events: Callable[[str, list[Event]], None] | None = None,
              strict: bool = True) -> Situation:
        """Follow the sequence without rolling (every die a 1): each move (refused moves raise when
        `strict`), each end of phase; `on_fire` sees each attack with the situation it will meet, as
        far as moves decide it (earlier attacks are not resolved)."""
        situation, record = self.situation, None
        moves = {m.id: m for m in self.moves}
        for step in self.sequence():
            if isinstance(step, DoMove):
                decl = moves[step.move]
                rec = record if record is not None else PhaseRecord(step.phase)
                if strict:
                    ledger = self._start(decl, situation, rec)
                    ledger, situation, events = run_move(self.rules, replace(self.board, phase=decl.phase), situation, ledger, decl.steps,
                                                         _BestCase())
                    record = finish_move(rec, ledger)
                else:
                    situation, record, events = self._move_fn(decl)(situation, rec, _BestCase())
                if on_events is not None:
                    on_events(f"move {decl.id} ({', '.join(decl.units)}, {decl.phase})", events)
            elif isinstance(step, DoEndPhase):
                rec = record if record is not None else PhaseRecord(step.phase)
                _, situation, events = end_phase(self.rules, rec, situation)
                record = None
                if on_events is not None:
                    on_events(f"end of the {'MPh' if step.phase is Phase.MPH else 'APh'}", events)
            else:
                on_fire(next(f for f in self.fires if f.id == step.fire), situation)
        return situation

    def chain(self) -> ASLChain:
        """The scenario's resolution chain (built once; it holds no state of its own)."""
        if self._chain is None:
            self._chain = ASLChain(self.rules, self.board, {f.id: f for f in self.fires}, {m.id: self._move_fn(m) for m in self.moves})
        return self._chain

    def initial(self) -> ChainState:
        return initial_state(self.situation, self.sequence())

    # -- explain --

    def explain(self) -> list[Event]:
        """LOG-02: each move's ledger, step by step (best case for any die it needs); each attack's
        FP, To Hit breakdown per unit, IFT column, DRM and exact result odds; then the exact
        probability of every final outcome of the whole scenario."""
        events: list[Event] = []

        def moved(title: str, evs: list[Event]) -> None:
            events.append(Note(title, "ASL-MOV-02"))
            events.extend(e for e in evs if isinstance(e, (MoveStep, StepRefused, Note, StateChanged)))

        def fired(fire: FireDeclaration, situation: Situation) -> None:
            fpb, evs = explain_fire(self.rules, self.board, situation, fire)
            events.append(Note(f"fire {fire.id}: {fire.kind} ({fire.weapon or ', '.join(fire.firers) or fire.machine}) at {fire.target}, "
                               f"{fire.range} hexes, {fire.phase}: {fmt_fraction(fpb.total)} FP", "A7"))
            events.extend(Note(line, "A7.2") for line in fpb.lines)
            events.extend(evs)

        self._walk(fired, moved, strict=False)
        return events + self._exact_events()

    def _exact_events(self) -> list[Event]:
        """The exact odds `explain` ends with (FAST-02, SAFE-03): every joint final outcome while the
        joint distribution takes at most JOINT_EXPLAIN_STATES states; beyond, the exact odds of each
        outcome key (`exact_outcomes`); beyond MAX_EXACT_STATES, a note naming the bound."""
        try:
            joint = self.exact_distribution(max_states=min(JOINT_EXPLAIN_STATES, self._budget(None)))
            return [OutcomeOdds(text, p, "FAST-02") for text, p in joint.items()]
        except ExactBoundError:
            pass
        note = Note(f"joint outcomes not listed: more than {JOINT_EXPLAIN_STATES:,} states to expand (SAFE-03); the exact odds of "
                    "each outcome follow", "SAFE-03")
        try:
            odds = self.exact_outcomes()
        except ExactBoundError as exc:
            return [Note(f"exact odds not computed: {exc}", "SAFE-03")]
        return [note] + [OutcomeOdds(k, p, "FAST-02") for k, p in odds.items() if p]

    def render_explain(self) -> str:
        lines = [f"scenario: {self.name}" + (f"  [{self.source}]" if self.source else "")]
        odds = []
        marginal = False
        for e in self.explain():
            if isinstance(e, OutcomeOdds):
                odds.append(e)
                continue
            if isinstance(e, Note) and e.rule == "SAFE-03":
                marginal = True
                lines.append(f"\n{e.text}")
                continue
            if isinstance(e, Note) and e.text.startswith(("move ", "fire ", "end of the ")):
                lines.append(f"\n{e.text}")
            elif isinstance(e, ToHitBreakdown):
                lines.append(f"  To Hit {e.target}: {e.target_type} target, {e.range} hexes, TH# {e.base} [C3]")
                lines += [f"      {m.value:+d}  {m.name} [{m.rule}]" for m in e.modifiers]
                lines.append(f"    hit on an Original DR <= {e.needed}: {e.probability} ({float(e.probability):.4f})")
            elif isinstance(e, IFTBreakdown):
                col = f"{e.column} FP column" if e.column is not None else "no column (below 1 FP): no effect"
                lines.append(f"  IFT {e.target}: {fmt_fraction(e.fp)} FP -> {col} [A7]; "
                             f"{'cowers one column on doubles [A7.9]' if e.cowers else 'no cowering'}")
                lines += [f"      {m.value:+d}  {m.name} [{m.rule}]" for m in e.modifiers]
                lines.append(f"    results{' once hit' if e.given_hit else ''}: "
                             + ", ".join(f"{k} {v}" for k, v in e.distribution.items()))
                lines += [f"    {n}" for n in e.notes]
            else:
                lines.append(f"  {e}")
        if odds and marginal:
            lines.append(f"exact odds of each outcome ({len(odds)} possible):")
            lines += [f"  {e}" for e in odds]
        elif odds:
            lines.append(f"\nexact outcomes of the whole scenario ({len(odds)}, most likely first):")
            for e in odds[:30]:
                lines.append(f"  {e}")
            if len(odds) > 30:
                rest = sum((e.probability for e in odds[30:]), Fraction(0))
                lines.append(f"  ... {len(odds) - 30} more outcomes, together {rest} ({float(rest):.4f})")
        return "\n".join(lines)

    # -- resolve --

    def resolve(self, dice: DiceSource, seed: int | None = None) -> ASLResult:
        """Roll every move and attack; every event in order, and the final state (LOG-01)."""
        final, events = run_chain(self.chain(), self.initial(), dice)
        return ASLResult(self.name, tuple(events), _unit_states(final.situation), _counter_states(final.situation, self.rules), seed)

    def render_resolve(self, result: ASLResult) -> str:
        lines = [str(e) if not isinstance(e, Note) or not e.text.startswith(("fire", "move", "end of the")) else f"\n{e}"
                 for e in result.events if not _is_plain_roll(e)]
        lines.append("\nfinal state:")
        lines += [f"  {u}: {s}" for u, s in result.units.items()]
        lines += [f"  counter {m}: {s}" for m, s in result.counters.items()]
        return "\n".join(lines)

    # -- Monte Carlo and exact odds --

    def outcome_values(self, state: ChainState) -> dict[str, float]:
        """The numbers `hardpoint run` averages: per unit eliminated / broken / reduced / wounded /
        pinned / mounted, per counter removed, per ordnance attack and unit hit (1 or 0)."""
        out: dict[str, float] = {}
        sit = state.situation
        for u0 in self.situation.units:
            out.update({k: float(v) for k, v in unit_flags(sit, sit.unit(u0.id), u0).items()})
        for m0 in self.situation.machines:
            out[f"counter {m0.id} removed"] = float(sit.machine(m0.id).removed)
        for f in self.fires:
            if f.kind is FireKind.ORDNANCE:
                for u in self.situation.units_in(f.target):
                    out[f"{f.id} hits {u.id}"] = float((f.id, u.id) in state.hits)
        return out

    def trial_outcome(self, dice: DiceSource) -> dict[str, float]:
        """One trial for `hardpoint run`."""
        final, _ = run_chain(self.chain(), self.initial(), dice)
        return self.outcome_values(final)

    def _budget(self, max_states: int | None) -> int:
        """States an exact computation may expand: `max_states` (default MAX_EXACT_STATES), and no more than
        MAX_EXACT_WORK / units, since every state carries every unit (SAFE-03)."""
        from . import chance

        limit = chance.MAX_EXACT_STATES if max_states is None else max_states
        return max(1, min(limit, MAX_EXACT_WORK // max(1, len(self.situation.units))))

    def exact_states(self, max_states: int | None = None, stats: ExactStats | None = None) -> dict[ChainState, Fraction]:
        """The exact distribution of final states (every die enumerated, equal states merged). It grows
        with every unit an attack can leave in one more state (some 4**n for n units under one attack),
        so it is bounded: past `max_states` states expanded, an ExactBoundError names the bound (SAFE-03);
        `exact_outcomes` needs no joint distribution and goes much further."""
        if self._exact is None:
            self._exact = exact_chain(self.chain(), self.initial(), max_states=self._budget(max_states), stats=stats,
                                      what=f"the joint outcomes of {self.name!r}")
        return self._exact

    def exact_outcomes(self, max_states: int | None = None, stats: ExactStats | None = None) -> dict[str, Fraction]:
        """Exact probabilities of the same keys as `trial_outcome` (FAST-02), from `exact_marginals`: each
        unit is forgotten (its keys counted) once no step to come can read or change it, so a hex of ten
        units under one attack keeps a few thousand states instead of some 4**10 (SAFE-03). Past
        `max_states` states expanded, an ExactBoundError names the bound."""
        if self._marginals is None:
            keys = list(self.outcome_values(self.initial()))
            self._marginals = exact_marginals(MarginalChain(self.chain(), self.situation), self.initial(), keys,
                                              max_states=self._budget(max_states), stats=stats,
                                              what=f"the exact odds of {self.name!r}")
        return dict(self._marginals)

    def exact_distribution(self, max_states: int | None = None) -> dict[str, Fraction]:
        """Each distinct final outcome (every unit's and counter's state) with its exact probability
        (bounded as `exact_states`)."""
        out: dict[str, Fraction] = {}
        for state, p in self.exact_states(max_states).items():
            text = describe_state(state.situation, self.rules)
            out[text] = out.get(text, Fraction(0)) + p
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def _is_plain_roll(e: Event) -> bool:
    # The To Hit / IFT / MC events already show their dice; bare DiceRolled events only
    # add a line for rolls no other event reports (Random Selection shows its drs too).
    from ..events import DiceRolled
    return isinstance(e, DiceRolled) and e.rule in ("C3", "A7", "A10", "A7.8", "ASL-RES-03", "A.9", "ASL-MOV-06", "ASL-MOV-01")


def _unit_states(sit: Situation) -> dict[str, str]:
    out = {}
    for u in sit.units:
        m = sit.mount_of(u.id)
        out[u.id] = u.status() + ("" if u.eliminated else f" in {u.hex}") + (f", riding {m.id}" if m else "")
    return out


def _counter_states(sit: Situation, rules: Rules | None = None) -> dict[str, str]:
    """Each counter: size, type, motion, hex, riders, and (when it has one and `rules` name it) its VCA."""
    out = {}
    for m in sit.machines:
        text = m.label() + ("" if m.removed else f" in {m.hex}") + (f", riders {', '.join(m.riders)}" if m.riders else "")
        if rules is not None and not m.removed and m.vca is not None:
            text += f", VCA {vca_name(rules, m)}"
        out[m.id] = text
    return out


def describe_state(sit: Situation, rules: Rules | None = None) -> str:
    """One line for a final state: each unit and counter."""
    units = "; ".join(f"{k}: {v}" for k, v in _unit_states(sit).items())
    counters = "; ".join(f"{k}: {v}" for k, v in _counter_states(sit, rules).items())
    return units + (f" | {counters}" if counters else "")


# --- loading -----------------------------------------------------------------------------------

def _mods(items: list[dict], path: str) -> tuple[Modifier, ...]:
    return tuple(Modifier(m["name"], m["value"], m.get("rule", "scenario")) for m in items)


def _hex(rules: Rules, h: dict, path: str) -> Hex:
    parse_coordinate(board_settings(rules), h["id"], f"{path}.id")       # a coordinate must be on the board
    mp = h.get("motorcycle_mp")
    na = mp == "NA"
    mp_val = None if mp is None or na else _frac(mp, f"{path}.motorcycle_mp", "ASL-MOV-02")
    mf = h.get("infantry_mf")
    return Hex(h["id"], h.get("terrain", "open_ground"), h.get("level", 0), h.get("road"), h.get("plowed", True),
               frozenset(h.get("features", ())), None if mf is None else _frac(mf, f"{path}.infantry_mf", "A4.1"), mp_val, na,
               h.get("tem"), h.get("open"), h.get("melee", False))


def _frac(value: Any, path: str, rule: str) -> Fraction:
    from ..errors import DataError
    try:
        v = to_fraction(value, path, rule)
    except DataError as exc:
        raise ScenarioError(str(exc).split(": ", 1)[-1], field=path, value=value, rule=rule) from None
    assert v is not None
    if v < 0:
        raise ScenarioError("must be 0 or more", field=path, value=value, rule=rule)
    return v


# What an attack of each kind reads; any other field given would be ignored, so it is refused (SAFE-01).
_FIRE_FIELDS = {
    FireKind.ORDNANCE: {"fp", "weapon", "firers", "firer_row", "target_type", "phase", "directed_by", "inexperienced", "to_hit_drm",
                        "ift_drm"},
    FireKind.SMALL_ARMS: {"weapon", "firers", "weapons", "phase", "directed_by", "inexperienced", "tpbf", "halvings", "ift_drm"},
    FireKind.OVERRUN: {"fp", "weapon", "machine", "phase", "directed_by", "inexperienced", "ift_drm"},
}
# The fields each action of a move reads (required, optional); `attempt` goes with any.
_STEP_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "enter": (("hex",), ()), "mount": (("machine",), ()), "start": ((), ()), "ride": (("hex",), ()), "change_vca": ((), ("vca", "spines")),
    "stop": ((), ()), "dismount": ((), ()), "push": (("machine", "hex"), ("drm",)), "split": (("unit",), ("new_id",)),
    "reverse": ((), ()), "end": ((), ()),
}


def _check_document(data: dict) -> None:
    """What the schema cannot say, checked before anything is built (SAFE-01, CLI-02): no key of another
    rule set, every id unique in its kind, every reference resolved (hexes, units, counters, support
    weapons, the fields of each attack and each step), and at most MAX_UNITS_PER_HEX units starting in a hex
    or moving into it. Each error names the field."""
    own = {"scenario", "rules", *SCHEMA_PARTS}
    for key in data:
        if key not in own:
            raise ScenarioError(f"not a key of an ASL scenario (it belongs to another rule set; ASL keys: {', '.join(sorted(own))})",
                                field=key, rule="CLI-02")
    if "turns" in data["scenario"]:
        raise ScenarioError("an ASL scenario is one player turn: its phases in order (docs/asl.md)", field="scenario.turns",
                            value=data["scenario"]["turns"], rule="CLI-02")
    hexes = {h["id"] for h in data.get("hex", [])}
    units = {u["id"]: u for u in data.get("unit", [])}
    counters = {m["id"]: m for m in data.get("motorcycle", [])}

    def ref(value: str, known, path: str, what: str) -> None:
        if value not in known:
            raise ScenarioError(f"no such {what}", field=path, value=value, rule="CLI-02")

    for i, u in enumerate(data.get("unit", [])):
        ids = [w["id"] for w in u.get("weapons", [])]
        if len(set(ids)) != len(ids):
            raise ScenarioError("two support weapons of one unit share an id", field=f"unit[{i}].weapons", value=ids, rule="CLI-02")
    for i, m in enumerate(data.get("motorcycle", [])):
        for r in m.get("riders", ()):
            ref(r, units, f"motorcycle[{i}].riders", "unit")
    population: dict[str, int] = {}
    for u in data.get("unit", []):
        population[u["hex"]] = population.get(u["hex"], 0) + 1
    made = set()      # counters a split may make
    for i, mv in enumerate(data.get("move", [])):
        path = f"move[{i}]"
        for u in mv["units"]:
            ref(u, units, f"{path}.units", "unit")
        for c in mv.get("carrying", ()):
            ref(c, counters, f"{path}.carrying", "counter")
        for k in mv.get("spent", {}):
            if k not in mv["units"]:
                raise ScenarioError("spent is given for the units of the move", field=f"{path}.spent.{k}", rule="CLI-02")
        entered = set()
        for j, st in enumerate(mv["steps"]):
            spath = f"{path}.steps[{j}]"
            required, optional = _STEP_FIELDS[st["action"]]
            for k in st:
                if k not in ("action", "attempt", *required, *optional):
                    raise ScenarioError(f"a {st['action']} step takes {', '.join((*required, *optional)) or 'no other field'}",
                                        field=f"{spath}.{k}", value=st[k] if not isinstance(st[k], (dict, list)) else None, rule="CLI-02")
            for k in required:
                if k not in st:
                    raise ScenarioError(f"a {st['action']} step needs {k}", field=f"{spath}.{k}", rule="CLI-02")
            if st["action"] == "change_vca" and ("vca" in st) == ("spines" in st):
                raise ScenarioError("give the hexspine to face (vca) or the hexspines to turn (spines), one of them",
                                    field=f"{spath}.vca", rule="ASL-MOV-03")
            if "hex" in st:
                ref(st["hex"], hexes, f"{spath}.hex", "hex")
                entered.add(st["hex"])
            if "unit" in st:
                ref(st["unit"], units, f"{spath}.unit", "unit")
            if "machine" in st and st["machine"] not in made:
                ref(st["machine"], counters, f"{spath}.machine", "counter")
            if st["action"] == "split":
                new = st.get("new_id")
                if new is not None and (new in units or new in counters or new in made):
                    raise ScenarioError("the new counter's id is in use", field=f"{spath}.new_id", value=new, rule="CLI-02")
                made.add(new if new is not None else "")
                made.update(f"{m}+{st['unit']}" for m in counters)
        for h in entered:
            population[h] = population.get(h, 0) + len(mv["units"])
    for h, n in population.items():
        if n > MAX_UNITS_PER_HEX:
            raise ScenarioError(f"{n} units start in the hex or may move into it; at most {MAX_UNITS_PER_HEX} (the bound keeps every attack's "
                                "work in proportion)", field="unit", value=h, rule="SAFE-01")
    for i, f in enumerate(data.get("fire", [])):
        path = f"fire[{i}]"
        kind = FireKind[f["kind"].upper()]
        for k in f:
            if k not in ("id", "kind", "target", "range") and k not in _FIRE_FIELDS[kind]:
                raise ScenarioError(f"{kind} attacks take no {k} (it would be ignored)", field=f"{path}.{k}", rule="CLI-02")
        ref(f["target"], hexes, f"{path}.target", "hex")
        for u in f.get("firers", ()):
            ref(u, units, f"{path}.firers", "unit")
        for u, w in f.get("weapons", {}).items():
            if u not in f.get("firers", ()):
                raise ScenarioError("a support weapon is given for a firer of the attack", field=f"{path}.weapons.{u}", rule="CLI-02")
            if w not in {sw["id"] for sw in units[u].get("weapons", [])}:
                raise ScenarioError(f"{u} has no such support weapon", field=f"{path}.weapons.{u}", value=w, rule="A7")
        if "directed_by" in f:
            ref(f["directed_by"], units, f"{path}.directed_by", "unit")
        if "machine" in f:
            ref(f["machine"], counters, f"{path}.machine", "counter")


def load_asl(data: dict, rules: Rules, source: str) -> ASLScenario:
    """Build an ASL scenario from schema-valid data; every reference, capacity and declaration is
    checked here, so a bad scenario fails on load naming the field and the rule."""
    meta = data["scenario"]
    conf = data.get("asl", {})
    _check_document(data)
    seen: set[str] = set()

    def unique(ident: str, path: str) -> None:
        if ident in seen:
            raise ScenarioError("duplicate id", field=f"{path}.id", value=ident, rule="CLI-02")
        seen.add(ident)

    hexes: dict[str, Hex] = {}
    for i, h in enumerate(data.get("hex", [])):
        if h["id"] in hexes:
            raise ScenarioError("duplicate hex id", field=f"hex[{i}].id", value=h["id"], rule="CLI-02")
        hexes[h["id"]] = _hex(rules, h, f"hex[{i}]")
    hexsides = _hexsides(rules, hexes, data.get("hexside", []))
    board = Board(hexes, Phase.MPH, parse_enum(Ground, conf.get("ground", "dry"), "asl.ground", "ASL-BIC-01"), hexsides)

    units: list[Infantry] = []
    for i, u in enumerate(data.get("unit", [])):
        path = f"unit[{i}]"
        unique(u["id"], path)
        board.hex(u["hex"], f"{path}.hex")
        weapons = tuple(SupportWeapon(w["id"], w["type"], w["fp"], w["range"], w["pp"]) for w in u.get("weapons", []))
        status = {k: u[k] for k in ("broken", "wounded", "pinned", "inexperienced", "known", "side") if k in u}
        if "half_squad" in u:
            status["half_squad"] = u["half_squad"]
        unit = make_unit(rules, u["id"], u["counter"], u.get("type"), field=path, hex=u["hex"],
                         moving=parse_enum(Moving, u.get("moving", "none"), f"{path}.moving", "A4.6"), weapons=weapons, **status)
        units.append(unit)
    situation = Situation(tuple(units))

    riding: dict[str, str] = {}
    for i, m in enumerate(data.get("motorcycle", [])):
        path = f"motorcycle[{i}]"
        unique(m["id"], path)
        board.hex(m["hex"], f"{path}.hex")
        check_not_carried(m.get("carried_by"), m["id"], f"{path}.carried_by")
        mtype = parse_enum(MachineType, m["type"], f"{path}.type", "D15.1")
        if m["machines"] not in (1, 2, 3):
            raise ScenarioError("a counter has one, two or three machines", field=f"{path}.machines", value=m["machines"], rule="ASL-CAP-01")
        if mtype is MachineType.BICYCLE and "mp" in m:
            raise ScenarioError("bicycles have no MP allotment: they use their riders' MF", field=f"{path}.mp", value=m["mp"], rule="ASL-BIC-01")
        if mtype is not MachineType.BICYCLE and "mp" not in m:
            raise ScenarioError("a motorcycle needs its MP allotment (mp)", field=f"{path}.mp", rule="ASL-MOV-02")
        motion = parse_enum(Motion, m.get("motion", "stopped"), f"{path}.motion", "ASL-RES-03")
        riders = tuple(m.get("riders", ()))
        if mtype is MachineType.BICYCLE and motion is not Motion.STOPPED:
            raise ScenarioError("a bicycle is no vehicle: it has no Motion status", field=f"{path}.motion", value=str(motion), rule="ASL-BIC-01")
        if not riders and motion is not Motion.STOPPED:
            raise ScenarioError("an unmounted motorcycle is stopped", field=f"{path}.motion", value=str(motion), rule="ASL-MOV-01")
        for r in riders:
            rider = situation.unit(r, f"{path}.riders")
            if r in riding:
                raise ScenarioError(f"already rides {riding[r]}", field=f"{path}.riders", value=r, rule="ASL-CAP-01")
            if rider.hex != m["hex"]:
                raise ScenarioError(f"rider is in {rider.hex}, the counter in {m['hex']}", field=f"{path}.riders", value=r, rule="CLI-02")
            if rider.broken or rider.eliminated:
                raise RuleViolation("a broken rider does not stay mounted (he bails out or dismounts)", field=f"{path}.riders", value=r,
                                    rule="ASL-RES-03")
            riding[r] = m["id"]
        if mtype is MachineType.BICYCLE and "vca" in m:
            raise ScenarioError("a bicycle is no vehicle: it has no VCA", field=f"{path}.vca", value=m["vca"], rule="ASL-BIC-01")
        vca = direction_number(board_settings(rules).hexspines, m["vca"], f"{path}.vca") if "vca" in m else None
        machine = Motorcycle(m["id"], mtype, Capacity.of(m["machines"]), m["hex"], m.get("side", ""), m.get("mp"), m.get("m_number"),
                             motion, riders, vca)
        rider_units = [situation.unit(r) for r in riders]
        check_capacity(rules, machine, rider_units, path)
        check_portage(rules, machine, rider_units, path)
        situation = situation.with_machine(machine)

    moves = []
    ids: Counter[str] = Counter()
    for i, mv in enumerate(data.get("move", [])):
        path = f"move[{i}]"
        ids[mv["id"]] += 1
        if ids[mv["id"]] > 1:
            raise ScenarioError("duplicate move id", field=f"{path}.id", value=mv["id"], rule="CLI-02")
        steps = []
        for j, st in enumerate(mv["steps"]):
            if "vca" in st:
                direction_number(board_settings(rules).hexspines, st["vca"], f"{path}.steps[{j}].vca")
            steps.append(MoveAction(st["action"], hex=st.get("hex"), machine=st.get("machine"), spines=st.get("spines"),
                                    vca=st.get("vca"), unit=st.get("unit"), new_id=st.get("new_id"),
                                    drm=_mods(st.get("drm", []), f"{path}.steps[{j}].drm"), attempt=st.get("attempt", False)))
        spent = tuple((k, _frac(v, f"{path}.spent.{k}", "ASL-MOV-02")) for k, v in mv.get("spent", {}).items())
        moves.append(MoveDeclaration(mv["id"], tuple(mv["units"]), parse_enum(Phase, mv.get("phase", "mph"), f"{path}.phase", "ASL-MOV-01"),
                                     tuple(steps), mv.get("double_time", False), spent,
                                     _frac(mv.get("mp_used", 0), f"{path}.mp_used", "ASL-MOV-02"), tuple(mv.get("carrying", ()))))

    fires = []
    fids: set[str] = set()
    for i, f in enumerate(data.get("fire", [])):
        path = f"fire[{i}]"
        if f["id"] in fids:
            raise ScenarioError("duplicate fire id", field=f"{path}.id", value=f["id"], rule="CLI-02")
        fids.add(f["id"])
        kind = parse_enum(FireKind, f["kind"], f"{path}.kind", "A7")
        fires.append(FireDeclaration(
            f["id"], kind, f["target"], f["range"], None if "fp" not in f else _frac(f["fp"], f"{path}.fp", "A7"),
            tuple(f.get("firers", ())), tuple(f.get("weapons", {}).items()), f.get("machine"), f.get("weapon", ""),
            parse_enum(FirerRow, f.get("firer_row", "other"), f"{path}.firer_row", "C3"),
            parse_enum(TargetType, f.get("target_type", "infantry"), f"{path}.target_type", "C3"),
            parse_enum(Phase, f.get("phase", "pfph"), f"{path}.phase", "A4.6"), f.get("directed_by"), f.get("inexperienced", False),
            f.get("tpbf", False), tuple(f.get("halvings", ())), _mods(f.get("to_hit_drm", []), f"{path}.to_hit_drm"),
            _mods(f.get("ift_drm", []), f"{path}.ift_drm")))

    scenario = ASLScenario(meta["name"], rules, board, situation, tuple(moves), tuple(fires), meta.get("description", ""),
                           meta.get("source", ""))
    # Check every declaration now, in the order of the turn, against the state the moves before it
    # leave (best case for their dice): one Movement Phase, each unit once (ASL-MOV-02).
    scenario._walk(lambda fire, sit: check_fire(rules, board, sit, fire))
    return scenario


def _hexsides(rules: Rules, hexes: dict[str, Hex], items: list[dict]) -> dict[frozenset[str], Hexside]:
    """[[hexside]] entries: the kind of the hexside between two adjacent hexes of the board (a road
    hexside needs a road in both hexes, B3). Undeclared hexsides between two road hexes are road
    hexsides; declare them "normal" where the roads do not meet."""
    grid = board_settings(rules)
    out: dict[frozenset[str], Hexside] = {}
    for i, h in enumerate(items):
        path = f"hexside[{i}]"
        a, b = h["hexes"]
        for x in (a, b):
            if x not in hexes:
                raise ScenarioError("no such hex", field=f"{path}.hexes", value=x, rule="CLI-02")
        ca, cb = (parse_coordinate(grid, x, f"{path}.hexes") for x in (a, b))
        if ca is None or cb is None or hexside_between(grid, ca, cb) is None:
            raise ScenarioError("the two hexes of a hexside are adjacent board coordinates", field=f"{path}.hexes", value=[a, b],
                                rule="ASL-MOV-03")
        key = frozenset((a, b))
        if key in out:
            raise ScenarioError("this hexside is declared twice", field=f"{path}.hexes", value=[a, b], rule="CLI-02")
        kind = parse_enum(Hexside, h["kind"], f"{path}.kind", "ASL-MOV-06")
        if kind is Hexside.ROAD and (hexes[a].road is None or hexes[b].road is None):
            raise ScenarioError("a road hexside joins two hexes that both have a road", field=f"{path}.kind", value=h["kind"], rule="B3")
        out[key] = kind
    return out


register_ruleset("asl", load_asl, SCHEMA_PARTS)
