"""`hardpoint.asl.batch`: N trials of an ASL scenario's attacks as arrays, compiled or reference (ARCH-03, ARCH-04).

Trial t of a batch under seed s is `scenario.resolve(SeededDice(s, trial=t))`:
the compiled kernel (`hardpoint.fastcore.asl_numba`, Numba) draws the same
dice in the same order as the reference chain (`hardpoint.asl.fire`), so every
trial agrees bit for bit, whatever the number of trials, the chunking, or
serial against parallel.

    >>> import hardpoint
    >>> from hardpoint.asl.batch import run_asl_batch
    >>> s = hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")
    >>> b = run_asl_batch(s, 1000, seed=7, backend="reference")
    >>> sorted(b.summary())[:2]
    ['counter cycle removed', 'crew broken']

What the kernel covers: scenarios whose moves come before their attacks and
roll no die (walking, mounting, Start, riding, Stop: the packer runs them once
on the reference's chain, `_after_moves`, and every trial starts from there),
and whose attacks (ordnance with
the Infantry or Area Target Type, small arms, overrun) are resolved on the
Locations they target, in the order of the turn (`ASLScenario.attack_order`):
To Hit (one Original DR, each unit's own number, Case J and the mounted DRM),
one IFT DR with cowering, every unit's own DRM, Random Selection with either
tie rule, nKIA / K/n, Casualty Reduction and wounds, counter substitution and
removal (SMC left with no MMC on single-machine counters), MCs (leaders first,
leadership, pins, the motorcyclist's immunity to pins), PTCs, Bail Out
(dismount, bail out with its NMC and the Casualty Reduction of a broken rider
failing it, two SMC on one machine, single-machine counters for SMC left
behind), one attack after another.

What falls back to the reference (one `hardpoint.backend.BackendWarning` per
reason): moves that roll dice (Wreck Checks, Manhandling DRs, Recovery) or
come after an attack; attacks
whose firers, directing leader or overrunning riders (or those who share
their counter) are themselves targets of an attack (their FP, cowering and
legality would change from trial to trial); more than 100 units or 40
counters; counter ids that clash with the ids the engine gives new
single-machine counters; settings the kernel cannot express (a
single-machine counter carrying no SMC).
"""
from __future__ import annotations

import contextlib
import math
import threading
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from .. import backend as _backend
from ..dice import MASK64, SeededDice
from ..errors import HardpointError, ScenarioError

__all__ = ["ASLBatchResult", "PackedASL", "run_asl_batch", "supports_kernel", "pack_asl", "reference_rows", "STATUS_BITS"]

#: status bits of `ASLBatchResult.status` (the keys of the scenario's `trial_outcome`)
STATUS_BITS = {"eliminated": 1, "broken": 2, "reduced": 4, "wounded": 8, "pinned": 16, "mounted": 32}
_STATUS_ORDER = ("eliminated", "broken", "reduced", "wounded", "pinned", "mounted")

_MAX_UNITS = 100
_MAX_COUNTERS = 40


@dataclass
class PackedASL:
    """An ASL scenario as flat int64 arrays for the kernel (column layouts: fastcore/asl_numba.py)."""

    arrays: dict[str, np.ndarray]
    units: list[str]
    counters: list[str]                       # the scenario's counters (slots 0..M-1)
    attacks: list[str]
    ordnance: list[bool]
    slots: int                                # counter slots: the scenario's + room for new single-machine counters
    hit_keys: list[tuple[int, int]]           # (attack, unit) pairs of the "<attack> hits <unit>" outcome keys
    new_ids: dict[str, tuple[int, int]] = field(default_factory=dict)   # "parent+first" -> (parent slot, first unit)


_KERNEL_ORDER = ("ui", "rord", "mi", "ai", "excl", "th", "drm", "ceff", "cn", "cfg")



_WORKQUEUE_LOCK = threading.Lock()


@contextlib.contextmanager
def _parallel_guard():
    """Numba's fallback threading layer (workqueue, when neither OpenMP nor TBB is there) ends the process if two
    threads enter parallel code at once; the servers and the C interface run batches on several threads, so there
    the parallel kernel runs one at a time. With OpenMP or TBB nothing is held."""
    import numba

    try:
        layer = numba.threading_layer()
    except ValueError:        # no parallel code has run yet: the layer is chosen on this first run
        layer = "workqueue"
    if layer == "workqueue":
        with _WORKQUEUE_LOCK:
            yield
    else:
        yield

def _check_codes(k, packed: PackedASL) -> None:
    """The kernel's enum codes are those of hardpoint.asl.enums, and its array layouts those packed here."""
    from .enums import Effect, FireKind, MachineType, Motion, TieRule, UnitType

    pairs = [(k.SQUAD, UnitType.SQUAD), (k.HALF_SQUAD, UnitType.HALF_SQUAD), (k.CREW, UnitType.CREW), (k.LEADER, UnitType.LEADER),
             (k.HERO, UnitType.HERO), (k.CYCLE, MachineType.CYCLE), (k.SIDECAR, MachineType.SIDECAR), (k.BICYCLE, MachineType.BICYCLE),
             (k.STOPPED, Motion.STOPPED), (k.E_NONE, Effect.NONE), (k.E_PTC, Effect.PTC), (k.E_MC, Effect.MC), (k.E_K, Effect.K),
             (k.E_KIA, Effect.KIA), (k.ORDNANCE, FireKind.ORDNANCE), (k.TIE_ALL, TieRule.ALL)]
    for code, member in pairs:
        if code != int(member):
            raise RuntimeError(f"hardpoint.fastcore.asl_numba: code {code} for {member!r} disagrees with hardpoint.asl.enums")
    if packed.arrays["cfg"].shape[0] != k.CF_LEN or packed.arrays["ui"].shape[1] != k.UI_LEN:
        raise RuntimeError("hardpoint.fastcore.asl_numba: array layout differs from hardpoint.asl.batch's packing")


# --- packing -----------------------------------------------------------------------------------

def _pack(scenario) -> tuple[PackedASL | None, str | None]:
    """(packed, None) when the kernel covers the scenario, else (None, the reason)."""
    from .enums import Capacity, FireKind, MachineType, Motion, UnitType
    from .fire import _column_and_shift, _unit_ift_drm, fire_exclusions, fire_targets
    from .motorcycles import capacity_spec
    from .scenario import ASLScenario
    from .tables import ift_table, infantry_settings, morale_settings
    from .tohit import to_hit_breakdown
    from .units import Motorcycle, Situation, parse_designation

    if not isinstance(scenario, ASLScenario):
        return None, "only ASL scenarios have a compiled fire-chain kernel"
    sit = scenario.situation
    if scenario.moves:
        sit, reason = _after_moves(scenario)
        if sit is None:
            return None, reason
    rules, board = scenario.rules, scenario.board
    units, machines, fires = list(sit.units), list(sit.machines), scenario.attack_order()
    if len(units) > _MAX_UNITS or len(machines) > _MAX_COUNTERS:
        return None, f"more than {_MAX_UNITS} units or {_MAX_COUNTERS} counters"
    uidx = {u.id: i for i, u in enumerate(units)}
    midx = {m.id: i for i, m in enumerate(machines)}
    hexes = {h: i for i, h in enumerate(board.hexes)}
    t = ift_table(rules)
    ms = morale_settings(rules)
    inf = infantry_settings(rules)

    # Static parts of every attack, and the units each may reach (ASL-TGT-02).
    statics, reach, actors = [], [], set()
    for f in fires:
        try:
            fpb, column, shift, lead = _column_and_shift(rules, sit, f)
        except HardpointError as exc:
            return None, f"attack {f.id} is refused on the initial situation ({exc})"
        exclude = fire_exclusions(sit, f)
        statics.append((fpb, column, shift, lead, exclude))
        reach.append(set(fire_targets(sit, f)))
        acting = set(f.firers) | ({f.directed_by} if f.directed_by else set())
        if f.kind is FireKind.OVERRUN and f.machine:
            acting |= set(sit.machine(f.machine).riders)
        for a in list(acting):
            m = sit.mount_of(a)
            if m is not None:
                acting |= set(m.riders)
        actors |= acting
    for f, r in zip(fires, reach):
        clash = sorted(r & actors)
        if clash:
            return None, (f"attack {f.id} reaches {', '.join(clash)}, who fire, direct or ride with the firers of an attack "
                          "(their FP and legality change from trial to trial)")

    # New single-machine counters for SMC left behind by a bailing-out MMC (D15.53) or left with no
    # MMC by a casualty (D15.52): room for them, and their ids. A counter makes at most one of the two.
    new_ids: dict[str, tuple[int, int]] = {}
    slots = len(machines)
    for i, m in enumerate(machines):
        riders = [sit.unit(r) for r in m.riders]
        smc = sum(1 for u in riders if u.is_smc)
        limit = capacity_spec(rules, Capacity.SINGLE).smc_limit(m.type)
        if smc and (any(not u.is_smc for u in riders) or smc > limit):
            if limit < 1:
                return None, f"a single-machine {m.type} counter carries no SMC in these rules"
            slots += math.ceil(smc / limit)
        for r in m.riders:
            new_ids[f"{m.id}+{r}"] = (i, uidx[r])
    if slots > 120:
        return None, "more than 120 counter slots (the arrays hold counter indices as int8)"
    if set(new_ids) & set(midx):
        return None, "a counter id clashes with the id of a new single-machine counter (\"<counter>+<rider>\")"

    U, M, A = len(units), len(machines), len(fires)
    ui = np.zeros((U, 11), np.int64)
    for i, u in enumerate(units):
        mount = sit.mount_of(u.id)
        hs_morale = parse_designation(u.half_squad, UnitType.HALF_SQUAD)[2] if u.type is UnitType.SQUAD and u.half_squad else 0
        ui[i] = [int(u.type), u.morale, u.leadership, u.broken, u.wounded, u.pinned, u.eliminated, hexes[u.hex],
                 -1 if mount is None else midx[mount.id], hs_morale, u.is_smc]
    rider_rank = {r: (i, j) for i, m in enumerate(machines) for j, r in enumerate(m.riders)}
    rord = np.array(sorted(range(U), key=lambda k: rider_rank.get(units[k].id, (M, k))), dtype=np.int64)
    mi = np.array([[int(m.type), m.machines.value, int(m.motion), int(m.removed)] for m in machines], dtype=np.int64).reshape(M, 4)

    ai = np.zeros((A, 4), np.int64)
    excl = np.zeros((A, U), np.int64)
    th = np.zeros((A, U, 4), np.int64)
    drm = np.zeros((A, U, 3), np.int64)
    hit_keys: list[tuple[int, int]] = []
    for a, (f, (fpb, column, shift, lead, exclude)) in enumerate(zip(fires, statics)):
        ai[a] = [int(f.kind), hexes[f.target], -1 if column is None else t.columns.index(column), shift]
        for uid in exclude:
            excl[a, uidx[uid]] = 1
        if f.kind is FireKind.ORDNANCE:
            # the outcome keys `ASLScenario.outcome_values` gives: the units in the target hex at the start
            hit_keys += [(a, uidx[u.id]) for u in scenario.situation.units_in(f.target)]
        for u in sit.units_in(f.target, alive=False):
            i = uidx[u.id]
            # Each unit's To Hit number and IFT DRM for each way it may be mounted when the attack comes, from
            # the reference's own functions on a probe counter: on foot; a motorcycle stopped; a motorcycle moving
            # or in Motion; a bicycle (ASL-TGT-01, ASL-BIC-02). Cycle and sidecar riders take the same DRM there.
            probes = [None, (MachineType.CYCLE, Motion.STOPPED), (MachineType.CYCLE, Motion.MOTION), (MachineType.BICYCLE, Motion.STOPPED)]
            try:
                for cls, probe in enumerate(probes):
                    if probe is None:
                        psit = Situation((u,))
                    else:
                        psit = Situation((u,), (Motorcycle("_probe", probe[0], Capacity.THREE, u.hex, motion=probe[1], riders=(u.id,)),))
                    if f.kind is FireKind.ORDNANCE:
                        th[a, i, cls] = to_hit_breakdown(rules, psit, f.id, u, f.target_type, f.firer_row, f.range, f.to_hit_drm).needed
                    d = sum(m.value for m in _unit_ift_drm(rules, board, psit, f, u, lead))
                    drm[a, i, {0: 0, 1: 1, 2: 1, 3: 2}[cls]] = d
            except HardpointError as exc:
                return None, f"attack {f.id} cannot be packed ({exc})"

    cols = len(t.columns)
    rows = t.max_dr - t.min_dr + 1
    ceff = np.zeros((cols, rows), np.int64)
    cn = np.zeros((cols, rows), np.int64)
    for ci, c in enumerate(t.columns):
        for r in range(rows):
            res = t.cells[c][r]
            ceff[ci, r], cn[ci, r] = int(res.effect), res.n

    caps = [capacity_spec(rules, Capacity(c)) for c in (1, 2, 3)]
    cfg = [t.min_dr, t.max_dr, int(ms.ties), ms.pin_on_equal, ms.leadership_applies_to_self, ms.ptc_broken_exempt,
           ms.broken_fails == "casualty_reduction", ms.kia_survivors_break, ms.reduction["squad"] == "eliminated",
           ms.reduction["smc"] == "eliminated", ms.wound_morale_penalty, ms.wound_leadership_penalty, ms.bail_out_nmc_drm,
           ms.bail_out_broken_fails == "casualty_reduction", ms.bail_out_smc == "eliminated"]
    cfg += [-1 if s.mmc is None else int(s.mmc) for s in caps]
    cfg += [s.smc for s in caps]
    cfg += [s.smc_sidecar for s in caps]
    cfg += [int(inf.types[ut].size) for ut in UnitType]
    arrays = {"ui": ui, "rord": rord, "mi": mi, "ai": ai, "excl": excl, "th": th, "drm": drm, "ceff": ceff, "cn": cn,
              "cfg": np.array(cfg, dtype=np.int64)}
    arrays = {k: np.ascontiguousarray(v, dtype=np.int64) for k, v in arrays.items()}
    packed = PackedASL(arrays, [u.id for u in units], [m.id for m in machines], [f.id for f in fires],
                       [f.kind is FireKind.ORDNANCE for f in fires], slots, hit_keys, new_ids)
    return packed, None


class _Rolled(Exception):
    """A move asked for a die."""


class _NoDice:
    """The dice of the moves the packer runs: any die asked for (a Wreck Check, a Manhandling DR, a Recovery dr)
    means the moves are not the same in every trial."""

    def __getattr__(self, name: str):
        raise _Rolled(name)


def _after_moves(scenario):
    """(the situation the attacks meet, None) when every move and end of phase comes before the first attack and
    no die decides them (D15.41: walk, mount, Start, ride, Stop, a refused dismount): the packer runs them once,
    on the reference's own chain, and every trial of the kernel starts from there. Else (None, the reason)."""
    from .fire import DoFire

    chain, state = scenario.chain(), scenario.initial()
    try:
        while state.pending and not isinstance(state.pending[0], DoFire):
            state, _ = chain.step(state, _NoDice())
    except _Rolled:
        return None, "moves that roll dice (Wreck Checks, Manhandling DRs, Recovery) run on the reference"
    except HardpointError as exc:
        return None, f"the moves are refused ({exc})"
    if any(not isinstance(step, DoFire) for step in state.pending):
        return None, "moves, or the end of a phase, after an attack run on the reference (they meet what its dice did)"
    before, after = scenario.situation, state.situation
    if [(u.id, u.type) for u in before.units] != [(u.id, u.type) for u in after.units] \
            or [m.id for m in before.machines] != [m.id for m in after.machines]:
        return None, "moves that make, remove or change units or counters run on the reference"
    return after, None


def supports_kernel(scenario) -> str | None:
    """None if the compiled kernel covers the scenario, else the reason it does not."""
    return _pack(scenario)[1]


def pack_asl(scenario) -> PackedASL:
    """Pack a scenario the kernel covers (ScenarioError naming the reason otherwise)."""
    packed, reason = _pack(scenario)
    if packed is None:
        raise ScenarioError(f"the compiled kernel does not cover this scenario: {reason}", field="backend", value="compiled", rule="ARCH-03")
    return packed


# --- results ---------------------------------------------------------------------------------------

@dataclass
class ASLBatchResult:
    """Per-trial arrays; row i is trial first_trial + i.

    status[i, u]: bits of STATUS_BITS, with the meaning of `trial_outcome` (eliminated excludes the others).
    mount[i, u]: the counter slot the unit rides, -1 none. Counter slots 0..M-1 are the scenario's
    counters, M.. the single-machine counters made for SMC left behind by a bailing-out MMC (D15.53)
    or left with no MMC by a casualty (D15.52), in the order they were made: parent[i, c] and first_rider[i, c] name them ("<parent>+<first rider>").
    capacity[i, c]: machines on the counter (1-3; 0: slot not used); motion[i, c]: Motion code;
    removed[i, c]: 1 if removed (no wreck). to_hit_dr / ift_dr[i, a]: the attack's Original To Hit DR and
    IFT DR (0: not rolled). hits[i, a, u]: the ordnance attack a hit unit u. dice[i]: faces drawn.
    """

    scenario: str
    seed: int
    first_trial: int
    backend: str
    units: list[str]
    counters: list[str]
    attacks: list[str]
    ordnance: list[bool]
    hit_keys: list[tuple[int, int]]
    status: np.ndarray
    mount: np.ndarray
    capacity: np.ndarray
    motion: np.ndarray
    removed: np.ndarray
    parent: np.ndarray
    first_rider: np.ndarray
    to_hit_dr: np.ndarray
    ift_dr: np.ndarray
    hits: np.ndarray
    dice: np.ndarray
    seconds: float = 0.0
    slot_ids: list[str] | None = None        # fallback runs only: the id of every counter slot

    @property
    def trials(self) -> int:
        return int(self.status.shape[0])

    def _columns(self) -> dict[str, np.ndarray]:
        cols: dict[str, np.ndarray] = {}
        for j, uid in enumerate(self.units):
            for name in _STATUS_ORDER:
                cols[f"{uid} {name}"] = (self.status[:, j] & STATUS_BITS[name]) != 0
        for c, mid in enumerate(self.counters):
            cols[f"counter {mid} removed"] = self.removed[:, c] != 0
        for a, u in self.hit_keys:
            cols[f"{self.attacks[a]} hits {self.units[u]}"] = self.hits[:, a, u] != 0
        return cols

    def summary(self) -> dict[str, float]:
        """The mean of every key of the scenario's `trial_outcome` over the trials."""
        n = self.trials
        return {k: (float(v.sum()) / n if n else 0.0) for k, v in self._columns().items()}

    def outcome(self, i: int) -> dict[str, float]:
        """Trial first_trial + i as the scenario's `trial_outcome` gives it."""
        return {k: float(v[i]) for k, v in self._columns().items()}

    def counter_id(self, i: int, slot: int) -> str | None:
        """The id of counter slot `slot` in trial row i (None if unused)."""
        if self.slot_ids is not None:
            return self.slot_ids[slot] if self.capacity[i, slot] or slot < len(self.counters) else None
        if slot < len(self.counters):
            return self.counters[slot]
        if self.capacity[i, slot] == 0:
            return None
        return f"{self.counters[self.parent[i, slot]]}+{self.units[self.first_rider[i, slot]]}"


def _empty(packed: PackedASL, n: int) -> dict[str, np.ndarray]:
    U, A, C = len(packed.units), len(packed.attacks), packed.slots
    return {"status": np.zeros((n, U), np.uint8), "mount": np.full((n, U), -1, np.int8), "capacity": np.zeros((n, C), np.int8),
            "motion": np.zeros((n, C), np.int8), "removed": np.zeros((n, C), np.uint8), "parent": np.full((n, C), -1, np.int8),
            "first_rider": np.full((n, C), -1, np.int8), "to_hit_dr": np.zeros((n, A), np.int8), "ift_dr": np.zeros((n, A), np.int8),
            "hits": np.zeros((n, A, U), np.uint8), "dice": np.zeros(n, np.int32)}


_OUT_ORDER = ("status", "mount", "capacity", "motion", "removed", "parent", "first_rider", "to_hit_dr", "ift_dr", "hits", "dice")


def _read_trial(scenario, final, events, count: int, units: list[str], attacks: list[str], slot_of, new_ids, out, i: int) -> None:
    """Write one reference trial (its final ChainState, events and dice drawn) into row i of `out`."""
    from .events import IFTRoll, ToHitRoll

    sit = final.situation
    initial = scenario.situation
    for j, uid in enumerate(units):
        u = sit.unit(uid)
        m = sit.mount_of(uid)
        if u.eliminated:
            s = STATUS_BITS["eliminated"]
        else:
            s = ((STATUS_BITS["broken"] if u.broken else 0) | (STATUS_BITS["reduced"] if u.type != initial.unit(uid).type else 0)
                 | (STATUS_BITS["wounded"] if u.wounded else 0) | (STATUS_BITS["pinned"] if u.pinned else 0)
                 | (STATUS_BITS["mounted"] if m is not None else 0))
        out["status"][i, j] = s
        out["mount"][i, j] = -1 if m is None else slot_of(m.id, sit)
    for m in sit.machines:
        c = slot_of(m.id, sit)
        out["capacity"][i, c], out["motion"][i, c], out["removed"][i, c] = m.machines.value, int(m.motion), int(m.removed)
        if m.id in new_ids:
            out["parent"][i, c], out["first_rider"][i, c] = new_ids[m.id]
    aidx = {a: k for k, a in enumerate(attacks)}
    uidx = {u: k for k, u in enumerate(units)}
    for e in events:
        if isinstance(e, ToHitRoll):
            out["to_hit_dr"][i, aidx[e.attack]] = e.roll.total
        elif isinstance(e, IFTRoll):
            out["ift_dr"][i, aidx[e.attack]] = e.roll.total
    for f, u in final.hits:
        out["hits"][i, aidx[f], uidx[u]] = 1
    out["dice"][i] = count


def _reference_trial(scenario, seed: int, trial: int):
    from .chance import run_chain

    dice = SeededDice(seed, trial)
    final, events = run_chain(scenario.chain(), scenario.initial(), dice)
    return final, events, dice.count


def reference_rows(scenario, packed: PackedASL, seed: int, trials: int, first: int = 0) -> dict[str, np.ndarray]:
    """Trials first .. first+trials-1 on the reference chain (`run_chain` with `SeededDice(seed, trial)`),
    read into the batch's arrays: the oracle the kernel is checked against. A new counter's slot is its
    place in the trial's list of counters (the order the reference made them)."""
    out = _empty(packed, trials)

    def slot_of(mid, sit):
        return next(c for c, m in enumerate(sit.machines) if m.id == mid)

    for i in range(trials):
        final, events, count = _reference_trial(scenario, seed, first + i)
        _read_trial(scenario, final, events, count, packed.units, packed.attacks, slot_of, packed.new_ids, out, i)
    return out


def _run_compiled(kernel, packed: PackedASL, trials: int, seed: int, first: int, parallel: bool, chunk: int,
                  threads: int | None) -> dict[str, np.ndarray]:
    out = _empty(packed, trials)
    args = [packed.arrays[k] for k in _KERNEL_ORDER]
    restore = None
    if parallel and threads:
        import numba

        restore = numba.get_num_threads()
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    try:
        # Under NUMBA_DISABLE_JIT the kernel runs as Python on NumPy uint64 scalars, whose wrap-around (the
        # hash relies on it) NumPy reports as overflow; compiled code never looks at this setting.
        with np.errstate(over="ignore"):
            for lo in range(0, trials, chunk):
                hi = min(trials, lo + chunk)
                outs = [out[k][lo:hi] for k in _OUT_ORDER]
                start = np.uint64((first + lo) & MASK64)
                if parallel:
                    import numba

                    blocks = max(1, min(hi - lo, 8 * numba.get_num_threads()))
                    with _parallel_guard():
                        kernel.run_parallel(np.uint64(seed), start, hi - lo, *args, *outs, blocks)
                else:
                    kernel.run_serial(np.uint64(seed), start, hi - lo, *args, *outs)
    finally:
        if restore is not None:
            import numba

            numba.set_num_threads(restore)
    return out


_warned: set[str] = set()


def _warn_once(reason: str) -> None:
    if reason not in _warned:
        _warned.add(reason)
        warnings.warn(f"hardpoint.asl.batch: {reason}; running the reference", _backend.BackendWarning, stacklevel=3)


def run_asl_batch(scenario, trials: int, seed: int = 0, *, first_trial: int = 0, backend: str | None = None,
                  parallel: bool | None = None, chunk: int | None = None, threads: int | None = None) -> ASLBatchResult:
    """Trials first_trial .. first_trial+trials-1 of an ASL scenario (ARCH-03, ARCH-04).

    `backend`: "compiled", "reference", or None/"auto" (HARDPOINT_BACKEND, then the kernel where it
    covers the scenario; otherwise the reference with one BackendWarning naming the reason; asking
    for "compiled" there is a ScenarioError). `parallel` (default: from 20,000 trials) runs the
    kernel's prange variant on `threads` threads (default: Numba's); `chunk` splits the trials into
    kernel calls. Neither changes a single result.
    """
    if not isinstance(trials, int) or isinstance(trials, bool) or trials < 0:
        raise ScenarioError("must be a non-negative integer", field="trials", value=trials, rule="FAST-01")
    for name, v in (("seed", seed), ("first_trial", first_trial)):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MASK64:
            raise ScenarioError("must be from 0 to 2**64-1", field=name, value=v, rule="DICE-03")
    choice = (backend or _backend.requested()).lower()
    if choice not in ("auto", "compiled", "reference"):
        raise ScenarioError("expected auto, compiled or reference", field="backend", value=backend, rule="ARCH-04")
    packed, reason = _pack(scenario)
    kernel = None
    if choice != "reference":
        if packed is None:
            if choice == "compiled":
                raise ScenarioError(f"the compiled core does not cover this scenario: {reason}", field="backend", value="compiled",
                                    rule="ARCH-04")
            _warn_once(reason)
        else:
            kernel = _backend.compiled_module("asl_numba", choice)
            if kernel is None and choice == "compiled":
                raise ScenarioError("the compiled ASL kernel (Numba) is not available", field="backend", value="compiled", rule="ARCH-04")
            if kernel is not None:
                _check_codes(kernel, packed)
    start = time.perf_counter()
    if kernel is not None:
        assert packed is not None
        par = trials >= 20_000 if parallel is None else bool(parallel)
        out = _run_compiled(kernel, packed, trials, seed, first_trial, par, chunk or max(1, trials), threads)
        used = "compiled"
    elif packed is not None:
        out = reference_rows(scenario, packed, seed, trials, first_trial)
        used = "reference"
    else:
        return _run_uncovered(scenario, trials, seed, first_trial, start)
    return ASLBatchResult(scenario.name, seed, first_trial, used, packed.units, packed.counters, packed.attacks, packed.ordnance,
                          packed.hit_keys, *(out[k] for k in _OUT_ORDER), seconds=time.perf_counter() - start)


def _run_uncovered(scenario, trials: int, seed: int, first: int, start: float) -> ASLBatchResult:
    """A scenario the kernel does not cover (moves, ...): the reference chain, read into the same arrays.
    Counters made during the trials (splits, deploys, bail-outs) get slots after the scenario's own, by id,
    in the order they first appear (`slot_ids`)."""
    from .enums import FireKind
    from .scenario import ASLScenario

    if not isinstance(scenario, ASLScenario):
        raise ScenarioError("hardpoint.asl.batch runs ASL scenarios", field="scenario", value=getattr(scenario, "name", None), rule="ARCH-03")
    sit = scenario.situation
    units = [u.id for u in sit.units]
    counters = [m.id for m in sit.machines]
    fires = scenario.attack_order()
    uidx = {u: j for j, u in enumerate(units)}
    hit_keys = [(a, uidx[u.id]) for a, f in enumerate(fires) if f.kind is FireKind.ORDNANCE for u in sit.units_in(f.target)]
    rows = [_reference_trial(scenario, seed, first + i) for i in range(trials)]
    slots = list(counters)
    for final, _, _ in rows:
        slots += [m.id for m in final.situation.machines if m.id not in slots]
    index = {m: c for c, m in enumerate(slots)}
    new_ids = {}
    for c, mid in enumerate(slots[len(counters):], len(counters)):
        parent, _, rider = mid.partition("+")
        if parent in counters and rider in uidx:
            new_ids[mid] = (counters.index(parent), uidx[rider])
    packed = PackedASL({}, units, counters, [f.id for f in fires], [f.kind is FireKind.ORDNANCE for f in fires], len(slots), hit_keys)
    out = _empty(packed, trials)
    for i, (final, events, count) in enumerate(rows):
        _read_trial(scenario, final, events, count, units, packed.attacks, lambda mid, _s: index[mid], new_ids, out, i)
    return ASLBatchResult(scenario.name, seed, first, "reference", units, counters, packed.attacks, packed.ordnance, hit_keys,
                          *(out[k] for k in _OUT_ORDER), seconds=time.perf_counter() - start, slot_ids=slots)
