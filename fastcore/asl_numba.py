"""hardpoint.fastcore.asl_numba: the ASL fire chain over N trials, compiled with Numba (ARCH-03).

Reference: `hardpoint.asl.fire.ASLChain` (run with `run_chain`), with
`hardpoint.asl.morale` (MC, PTC, leadership, Random Selection) and
`hardpoint.asl.motorcycles.substitute_counter` and `hardpoint.asl.units.fail_bail_out`.
Trial t under seed s draws `die_face(s, t, k)` for k = 0, 1, ... in exactly
the reference's order (To Hit DR, IFT DR, Random Selection dr's with the tie
rule, MC DRs leaders first, PTC DRs, Bail Out NMC DRs; attack after attack, in
the order the wrapper packed them: the scenario's `attack_order`), so its
result equals `scenario.resolve(SeededDice(s, trial=t))`.

Kernels work on flat arrays packed by `hardpoint.asl.batch.pack_asl` and never
raise. Every rule number (IFT cells, To Hit numbers, DRM, capacities, morale
settings) comes in through those arrays; the constants below are only the
integer codes of `hardpoint.asl.enums` and the column layout of the arrays.

Two entry points with the same arguments: `run_serial` and `run_parallel`
(`parallel=True`, a `prange` over blocks of trials). They are separate
top-level functions because `cache=True` keys on bytecode, not on jit flags
(ENGINEERING.md). This module is imported only when an ASL batch runs
(`hardpoint.backend.compiled_module("asl_numba")`), so `import hardpoint`
never imports Numba.
"""
import numpy as np
from numba import carray, config, njit, prange, types
from numba.extending import intrinsic

# --- counter-based dice (DICE-03, docs/dice.md): every constant uint64, or shifts turn signed ---
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL2 = np.uint64(0x94D049BB133111EB)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_SIX = np.uint64(6)
_ONE = np.uint64(1)

# --- enum codes (hardpoint.asl.enums; the wrapper checks they agree) ---
SQUAD, HALF_SQUAD, CREW, LEADER, HERO = 0, 1, 2, 3, 4          # UnitType
CYCLE, SIDECAR, BICYCLE = 0, 1, 2                               # MachineType
STOPPED = 0                                                     # Motion.STOPPED
E_NONE, E_PTC, E_MC, E_K, E_KIA = 0, 1, 2, 3, 4                 # Effect
ORDNANCE = 0                                                    # FireKind.ORDNANCE
TIE_ALL = 0                                                     # TieRule.ALL

# --- column layouts ---
# ui (U, 11) int64: static unit data, scenario order (mount: the counter index, -1 none)
UI_TYPE, UI_MORALE, UI_LEAD, UI_BROKEN, UI_WOUNDED, UI_PINNED, UI_ELIM, UI_HEX, UI_MOUNT, UI_HS_MORALE, UI_SMC = range(11)
UI_LEN = 11
# mi (M, 4) int64: static counter data
MI_TYPE, MI_CAP, MI_MOTION, MI_REMOVED = range(4)
# ai (A, 4) int64: static attack data
AI_KIND, AI_HEX, AI_COLUMN, AI_SHIFT = range(4)
# cfg int64: settings
(CF_MIN_DR, CF_MAX_DR, CF_TIES, CF_PIN_ON_EQUAL, CF_SELF_OK, CF_PTC_BROKEN_EXEMPT, CF_BROKEN_FAILS_CR, CF_KIA_BREAK,
 CF_RED_SQUAD_ELIM, CF_RED_SMC_ELIM, CF_WOUND_MORALE, CF_WOUND_LEAD, CF_BAIL_DRM, CF_BAIL_BROKEN_CR, CF_BAIL_SMC_ELIM) = range(15)
CF_CAP_MMC = 15          # 3 entries, capacity 1..3: largest MMC size carried, -1 none
CF_CAP_SMC = 18          # 3 entries: SMC limit (cycle, bicycle)
CF_CAP_SMC_SIDECAR = 21  # 3 entries: SMC limit (sidecar)
CF_TYPE_SIZE = 24        # 5 entries: Size code of each UnitType
CF_LEN = 29
# per-trial unit state us (U, 8)
S_TYPE, S_MORALE, S_LEAD, S_BROKEN, S_WOUNDED, S_PINNED, S_ELIM, S_MOUNT = range(8)
# per-trial counter state ms (Mt, 6)
C_TYPE, C_CAP, C_MOTION, C_REMOVED, C_PARENT, C_FIRST = range(6)
# scratch rows sc (10, U)
R_TARG, R_EFF, R_N, R_CAND, R_DRS, R_SEL, R_TOUCHED, R_QUEUE, R_START_BROKEN, R_LEAVE = range(10)
# status bits (same meaning as the scenario's trial_outcome keys)
ST_ELIMINATED, ST_BROKEN, ST_REDUCED, ST_WOUNDED, ST_PINNED, ST_MOUNTED = 1, 2, 4, 8, 16, 32


@njit(cache=True)
def mix64(z):
    """SplitMix64's output function (hardpoint.dice.mix64), uint64 in and out."""
    z = z + _GOLDEN
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    return z ^ (z >> _S31)


@njit(cache=True)
def stream_key(seed, trial):
    return mix64(mix64(seed) ^ trial)


@njit(cache=True)
def face(key, k):
    """The k-th d6 of the stream `key` (hardpoint.dice.face_from_key)."""
    return np.int64(1) + np.int64(((mix64(key ^ k) >> _S32) * _SIX) >> _S32)


@njit(cache=True)
def faces(seed, trial, count):
    """The first `count` faces of trial `trial` (for the dice-vector tests)."""
    key = stream_key(seed, trial)
    out = np.empty(count, np.int64)
    for k in range(count):
        out[k] = face(key, np.uint64(k))
    return out


@njit(cache=True, _nrt=False)
def _d6(key, dk):
    f = face(key, dk[0])
    dk[0] += _ONE
    return f


# --- borrowed views (see "the trial loops" below) ------------------------------------------------

if config.DISABLE_JIT:
    # NUMBA_DISABLE_JIT=1 runs every function below as plain Python, where an intrinsic cannot run:
    # the array itself is the view (the same memory; plain Python has no reference counts to save).
    def _view(a):
        return a
else:
    @intrinsic
    def _data_pointer(typingctx, arr):
        sig = types.CPointer(arr.dtype)(arr)

        def codegen(context, builder, signature, args):
            return context.make_array(signature.args[0])(context, builder, args[0]).data
        return sig, codegen

    @njit(cache=True)
    def _view(a):
        """A borrowed view of a C-contiguous array: same memory, no reference counting. The caller keeps
        the owner alive while the view is used."""
        return carray(_data_pointer(a), a.shape)


# --- morale (hardpoint.asl.morale, hardpoint.asl.units) ---------------------------------------

@njit(cache=True, _nrt=False)
def _leadership(u, us, ui, cfg):
    """A10.7: the best (lowest) leadership modifier of a good-order leader in the unit's Location."""
    best = 0
    found = False
    hx = ui[u, UI_HEX]
    for v in range(ui.shape[0]):
        if ui[v, UI_HEX] != hx or us[v, S_ELIM] != 0 or us[v, S_TYPE] != LEADER or us[v, S_BROKEN] != 0:
            continue
        if v == u and cfg[CF_SELF_OK] == 0:
            continue
        if not found or us[v, S_LEAD] < best:
            best = us[v, S_LEAD]
            found = True
    return best


@njit(cache=True, _nrt=False)
def _motorcyclist(u, us, ms):
    m = us[u, S_MOUNT]
    return m >= 0 and ms[m, C_TYPE] != BICYCLE


@njit(cache=True, _nrt=False)
def _reduce(u, us, ui, cfg):
    """A7.302 casualty_reduction."""
    if us[u, S_ELIM] != 0:
        return
    t = us[u, S_TYPE]
    if t == SQUAD:
        if cfg[CF_RED_SQUAD_ELIM] != 0:
            us[u, S_ELIM] = 1
        else:
            us[u, S_TYPE] = HALF_SQUAD
            us[u, S_MORALE] = ui[u, UI_HS_MORALE]
    elif t == HALF_SQUAD or t == CREW:
        us[u, S_ELIM] = 1
    elif us[u, S_WOUNDED] != 0 or cfg[CF_RED_SMC_ELIM] != 0:
        us[u, S_ELIM] = 1
    else:
        us[u, S_WOUNDED] = 1
        us[u, S_MORALE] -= cfg[CF_WOUND_MORALE]
        if t == LEADER:
            us[u, S_LEAD] += cfg[CF_WOUND_LEAD]


@njit(cache=True, _nrt=False)
def _fail(u, us, ui, cfg):
    """A10 fail_morale: good order breaks (unpinned); broken is eliminated or Casualty Reduced."""
    if us[u, S_ELIM] != 0:
        return
    if us[u, S_BROKEN] == 0:
        us[u, S_BROKEN] = 1
        us[u, S_PINNED] = 0
    elif cfg[CF_BROKEN_FAILS_CR] != 0:
        _reduce(u, us, ui, cfg)
    else:
        us[u, S_ELIM] = 1


@njit(cache=True, _nrt=False)
def _fail_bail_out(u, us, ui, cfg):
    """units.fail_bail_out (ASL-RES-03, the SPEC Bail Out ruling): good order breaks; a broken rider
    is Casualty Reduced (an SMC eliminated), or eliminated by the house-rule setting."""
    if us[u, S_ELIM] != 0:
        return
    if us[u, S_BROKEN] == 0:
        _fail(u, us, ui, cfg)
    elif cfg[CF_BAIL_BROKEN_CR] == 0 or (ui[u, UI_SMC] != 0 and cfg[CF_BAIL_SMC_ELIM] != 0):
        us[u, S_ELIM] = 1
    else:
        _reduce(u, us, ui, cfg)


@njit(cache=True, _nrt=False)
def _mc(u, drm, bail, key, dk, us, ms, ui, cfg):
    """A10 morale_check: one DR + drm + leadership against morale; a failure is `fail_morale`, or
    `fail_bail_out` for the Bail Out NMC (`bail`)."""
    if us[u, S_ELIM] != 0:
        return
    dr = _d6(key, dk) + _d6(key, dk)
    final = dr + drm + _leadership(u, us, ui, cfg)
    morale = us[u, S_MORALE]
    if final > morale:
        if bail:
            _fail_bail_out(u, us, ui, cfg)
        else:
            _fail(u, us, ui, cfg)
    elif final == morale and cfg[CF_PIN_ON_EQUAL] != 0 and us[u, S_BROKEN] == 0:
        if not _motorcyclist(u, us, ms):          # ASL-RES-04: a Pin has no effect on a motorcyclist
            us[u, S_PINNED] = 1


@njit(cache=True, _nrt=False)
def _ptc(u, key, dk, us, ms, ui, cfg):
    """A7.8 pin_task_check; none for a motorcyclist (ASL-RES-04) or a broken unit (setting)."""
    if us[u, S_ELIM] != 0 or _motorcyclist(u, us, ms):
        return
    if us[u, S_BROKEN] != 0 and cfg[CF_PTC_BROKEN_EXEMPT] != 0:
        return
    dr = _d6(key, dk) + _d6(key, dk)
    if dr + _leadership(u, us, ui, cfg) > us[u, S_MORALE]:
        us[u, S_PINNED] = 1


# --- counters (hardpoint.asl.motorcycles) ---------------------------------------------------

@njit(cache=True, _nrt=False)
def _smc_limit(cap, mtype, cfg):
    if mtype == SIDECAR:
        return cfg[CF_CAP_SMC_SIDECAR + cap - 1]
    return cfg[CF_CAP_SMC + cap - 1]


@njit(cache=True, _nrt=False)
def _new_single(m, u, us, ms, nm):
    """A new single-machine counter of counter m's type and motion, first rider u (named
    "<m>+<u>" by the wrapper); returns its slot."""
    cur = nm[0]
    nm[0] += 1
    ms[cur, C_TYPE] = ms[m, C_TYPE]
    ms[cur, C_CAP] = 1
    ms[cur, C_MOTION] = ms[m, C_MOTION]
    ms[cur, C_REMOVED] = 0
    ms[cur, C_PARENT] = m
    ms[cur, C_FIRST] = u
    return cur


@njit(cache=True, _nrt=False)
def _substitute(m, us, ui, ms, nm, rord, cfg):
    """D15.52 substitute_counter: drop eliminated riders; no rider left: removed; SMC alone, more
    than a single machine carries: single-machine counters (the first keeps slot m, the others
    new slots, in rider order); else the smallest counter (no bigger than the current one) that
    carries the survivors (ASL-RES-01/02)."""
    n_riders = 0
    n_alive = 0
    n_mmc = 0
    n_smc = 0
    mmc_size = 0
    for u in range(ui.shape[0]):
        if us[u, S_MOUNT] != m:
            continue
        n_riders += 1
        if us[u, S_ELIM] != 0:
            us[u, S_MOUNT] = -1
            continue
        n_alive += 1
        if ui[u, UI_SMC] != 0:
            n_smc += 1
        else:
            n_mmc += 1
            mmc_size = cfg[CF_TYPE_SIZE + us[u, S_TYPE]]
    if n_alive == 0:
        if n_riders == 0:
            return
        ms[m, C_REMOVED] = 1
        ms[m, C_MOTION] = STOPPED
        return
    limit = _smc_limit(1, ms[m, C_TYPE], cfg)
    if n_mmc == 0 and limit >= 1 and n_smc > limit:
        ms[m, C_CAP] = 1
        cur = m
        in_group = 0
        for j in range(ui.shape[0]):
            u = rord[j]
            if us[u, S_MOUNT] != m:
                continue
            if in_group >= limit:
                cur = _new_single(m, u, us, ms, nm)
                in_group = 0
            us[u, S_MOUNT] = cur
            in_group += 1
        return
    cur = ms[m, C_CAP]
    for c in range(1, 4):
        if c > cur:
            break
        ok = n_mmc <= 1
        if ok and n_mmc == 1:
            room = cfg[CF_CAP_MMC + c - 1]
            ok = room >= 0 and mmc_size <= room
        if ok and n_smc > _smc_limit(c, ms[m, C_TYPE], cfg):
            ok = False
        if ok:
            ms[m, C_CAP] = c
            return


@njit(cache=True, _nrt=False)
def _select(eff, n, i0, nt, key, dk, us, ui, ms, nm, rord, sc, cfg):
    """A.9 Random Selection within the IFT group (eff, n) that first appears at target i0, then nKIA
    (eliminate the selected, break the rest) or K/n (Casualty Reduce the selected), then
    counter substitution for every counter whose riders were touched (fire._DoSelect)."""
    U = ui.shape[0]
    for u in range(U):
        sc[R_SEL, u] = 0
        sc[R_TOUCHED, u] = 0
    count = n if eff == E_KIA else 1
    nc = 0
    for j in range(i0, nt):
        if sc[R_EFF, j] == eff and sc[R_N, j] == n:
            u = sc[R_TARG, j]
            if us[u, S_ELIM] == 0:
                sc[R_CAND, nc] = u
                nc += 1
    while True:
        if count >= nc:
            for c in range(nc):
                sc[R_SEL, sc[R_CAND, c]] = 1
            break
        for c in range(nc):
            sc[R_DRS, c] = _d6(key, dk)
        cutoff = 1
        cum = 0
        for v in range(6, 0, -1):
            for c in range(nc):
                if sc[R_DRS, c] == v:
                    cum += 1
            if cum >= count:
                cutoff = v
                break
        above = 0
        tied = 0
        for c in range(nc):
            if sc[R_DRS, c] > cutoff:
                above += 1
            elif sc[R_DRS, c] == cutoff:
                tied += 1
        if above + tied == count or cfg[CF_TIES] == TIE_ALL:
            for c in range(nc):
                if sc[R_DRS, c] >= cutoff:
                    sc[R_SEL, sc[R_CAND, c]] = 1
            break
        # TieRule.REROLL: the units above are selected; the tied roll again for what is left.
        k = 0
        for c in range(nc):
            u = sc[R_CAND, c]
            if sc[R_DRS, c] > cutoff:
                sc[R_SEL, u] = 1
            elif sc[R_DRS, c] == cutoff and us[u, S_ELIM] == 0:
                sc[R_CAND, k] = u
                k += 1
        nc = k
        count -= above
    for j in range(i0, nt):
        if sc[R_EFF, j] != eff or sc[R_N, j] != n:
            continue
        u = sc[R_TARG, j]
        if us[u, S_ELIM] != 0:
            continue
        if sc[R_SEL, u] != 0:
            if eff == E_KIA:
                us[u, S_ELIM] = 1
            else:
                _reduce(u, us, ui, cfg)
        elif eff == E_KIA and cfg[CF_KIA_BREAK] != 0:
            _fail(u, us, ui, cfg)
        else:
            continue
        sc[R_TOUCHED, u] = 1
    for m in range(nm[0]):
        if ms[m, C_REMOVED] != 0:
            continue
        hit = False
        for u in range(U):
            if sc[R_TOUCHED, u] != 0 and us[u, S_MOUNT] == m:
                hit = True
                break
        if hit:
            _substitute(m, us, ui, ms, nm, rord, cfg)


@njit(cache=True, _nrt=False)
def _bail_out(key, dk, us, ui, ms, nm, rord, sc, cfg):
    """ASL-RES-03 (fire._DoBailOut): riders who broke in this attack bail out (NMC) of a counter moving
    or in Motion, or just dismount from a stopped one or a bicycle; two SMC on one machine leave
    together; an MMC leaving SMC behind: its counter stays (stopped, unmounted), the SMC go on on
    single-machine counters of the same motion. Then the Bail Out NMCs, in that order."""
    U = ui.shape[0]
    nq = 0
    # Every counter with riders now, those made by this attack's substitution included (D15.52).
    for m in range(nm[0]):
        if ms[m, C_REMOVED] != 0:
            continue
        n_riders = 0
        n_broke = 0
        n_smc = 0
        for j in range(U):
            u = rord[j]
            if us[u, S_MOUNT] != m:
                continue
            n_riders += 1
            if ui[u, UI_SMC] != 0:
                n_smc += 1
            if us[u, S_BROKEN] != 0 and sc[R_START_BROKEN, u] == 0:
                n_broke += 1
        if n_riders == 0 or n_broke == 0:
            continue
        mtype = ms[m, C_TYPE]
        if mtype == BICYCLE or ms[m, C_MOTION] == STOPPED:
            for u in range(U):
                if us[u, S_MOUNT] == m and us[u, S_BROKEN] != 0 and sc[R_START_BROKEN, u] == 0:
                    us[u, S_MOUNT] = -1
            continue
        all_leave = ms[m, C_CAP] == 1 and n_smc >= 2
        n_stay = 0
        mmc_left = False
        for j in range(U):
            u = rord[j]
            if us[u, S_MOUNT] != m:
                continue
            leave = all_leave or (us[u, S_BROKEN] != 0 and sc[R_START_BROKEN, u] == 0)
            sc[R_LEAVE, u] = 1 if leave else 0
            if leave:
                sc[R_QUEUE, nq] = u
                nq += 1
                if ui[u, UI_SMC] == 0:
                    mmc_left = True
            else:
                n_stay += 1
        if n_stay > 0 and mmc_left:
            limit = _smc_limit(1, mtype, cfg)
            cur = -1
            in_group = limit
            for j in range(U):
                u = rord[j]
                if us[u, S_MOUNT] != m:
                    continue
                if sc[R_LEAVE, u] != 0:
                    us[u, S_MOUNT] = -1
                    continue
                if in_group >= limit:
                    cur = _new_single(m, u, us, ms, nm)
                    in_group = 0
                us[u, S_MOUNT] = cur
                in_group += 1
            ms[m, C_MOTION] = STOPPED
        elif n_stay > 0:
            for u in range(U):
                if us[u, S_MOUNT] == m and sc[R_LEAVE, u] != 0:
                    us[u, S_MOUNT] = -1
        else:
            for u in range(U):
                if us[u, S_MOUNT] == m:
                    us[u, S_MOUNT] = -1
            ms[m, C_MOTION] = STOPPED
    for q in range(nq):
        _mc(sc[R_QUEUE, q], cfg[CF_BAIL_DRM], True, key, dk, us, ms, ui, cfg)


# --- one trial -------------------------------------------------------------------------------

@njit(cache=True, inline='always')
def _trial(key, i, ui, rord, mi, ai, excl, th, drm, ceff, cn, cfg, us, ms, nm, sc, dk,
           o_status, o_mount, o_cap, o_motion, o_removed, o_parent, o_first, o_th, o_ift, o_hits, o_dice):
    U = ui.shape[0]
    M = mi.shape[0]
    A = ai.shape[0]
    Mt = ms.shape[0]
    dk[0] = np.uint64(0)
    for u in range(U):
        us[u, S_TYPE] = ui[u, UI_TYPE]
        us[u, S_MORALE] = ui[u, UI_MORALE]
        us[u, S_LEAD] = ui[u, UI_LEAD]
        us[u, S_BROKEN] = ui[u, UI_BROKEN]
        us[u, S_WOUNDED] = ui[u, UI_WOUNDED]
        us[u, S_PINNED] = ui[u, UI_PINNED]
        us[u, S_ELIM] = ui[u, UI_ELIM]
        us[u, S_MOUNT] = ui[u, UI_MOUNT]
    for m in range(M):
        ms[m, C_TYPE] = mi[m, MI_TYPE]
        ms[m, C_CAP] = mi[m, MI_CAP]
        ms[m, C_MOTION] = mi[m, MI_MOTION]
        ms[m, C_REMOVED] = mi[m, MI_REMOVED]
        ms[m, C_PARENT] = -1
        ms[m, C_FIRST] = -1
    nm[0] = M
    min_dr = cfg[CF_MIN_DR]
    max_dr = cfg[CF_MAX_DR]
    for a in range(A):
        o_th[i, a] = 0
        o_ift[i, a] = 0
        for u in range(U):
            o_hits[i, a, u] = 0
    for a in range(A):
        # DoFire: the situation at the start of the attack (for Bail Out).
        for u in range(U):
            sc[R_START_BROKEN, u] = us[u, S_BROKEN]
        # fire_targets: alive units in the target hex but the firers (ASL-TGT-02).
        hx = ai[a, AI_HEX]
        nt = 0
        for u in range(U):
            if ui[u, UI_HEX] == hx and us[u, S_ELIM] == 0 and excl[a, u] == 0:
                sc[R_TARG, nt] = u
                nt += 1
        roll_ift = True
        if ai[a, AI_KIND] == ORDNANCE:
            # ASL-TGT-02: one Original To Hit DR against each unit's own number (C3, ASL-TGT-01).
            dr = _d6(key, dk) + _d6(key, dk)
            o_th[i, a] = dr
            nh = 0
            for j in range(nt):
                u = sc[R_TARG, j]
                m = us[u, S_MOUNT]
                if m < 0:
                    cls = 0
                elif ms[m, C_TYPE] == BICYCLE:
                    cls = 3
                elif ms[m, C_MOTION] != STOPPED:
                    cls = 2
                else:
                    cls = 1
                if dr <= th[a, u, cls]:
                    o_hits[i, a, u] = 1
                    sc[R_TARG, nh] = u
                    nh += 1
            nt = nh
            roll_ift = nh > 0
        if roll_ift and nt > 0:
            # ASL-TGT-02: one IFT DR; each unit's Final DR with its own DRM (A7, A7.9 cowering).
            d1 = _d6(key, dk)
            d2 = _d6(key, dk)
            o_ift[i, a] = d1 + d2
            col = ai[a, AI_COLUMN]
            if d1 == d2 and ai[a, AI_SHIFT] > 0 and col >= 0:
                col = col - ai[a, AI_SHIFT]
                if col < 0:
                    col = -1
            for j in range(nt):
                u = sc[R_TARG, j]
                if col < 0:
                    sc[R_EFF, j] = E_NONE
                    sc[R_N, j] = 0
                    continue
                m = us[u, S_MOUNT]
                if m < 0:
                    cls = 0
                elif ms[m, C_TYPE] == BICYCLE:
                    cls = 2
                else:
                    cls = 1
                final = d1 + d2 + drm[a, u, cls]
                if final < min_dr:
                    final = min_dr
                if final > max_dr:
                    final = max_dr
                sc[R_EFF, j] = ceff[col, final - min_dr]
                sc[R_N, j] = cn[col, final - min_dr]
            # Random Selection for each KIA / K group, in the order the groups first appear.
            for j in range(nt):
                e = sc[R_EFF, j]
                if e != E_K and e != E_KIA:
                    continue
                first = True
                for j2 in range(j):
                    if sc[R_EFF, j2] == e and sc[R_N, j2] == sc[R_N, j]:
                        first = False
                        break
                if first:
                    _select(e, sc[R_N, j], j, np.int64(nt), key, dk, us, ui, ms, nm, rord, sc, cfg)
            # MCs: leaders first, then the others, each in scenario order (A10.7).
            for pas in range(2):
                leaders = pas == 0
                for j in range(nt):
                    e = sc[R_EFF, j]
                    u = sc[R_TARG, j]
                    if (e == E_MC or e == E_K) and (ui[u, UI_TYPE] == LEADER) == leaders:
                        _mc(u, sc[R_N, j], False, key, dk, us, ms, ui, cfg)
            for j in range(nt):
                if sc[R_EFF, j] == E_PTC:
                    _ptc(sc[R_TARG, j], key, dk, us, ms, ui, cfg)
        _bail_out(key, dk, us, ui, ms, nm, rord, sc, cfg)
    # outputs: the same flags as the scenario's outcome_values
    for u in range(U):
        s = 0
        if us[u, S_ELIM] != 0:
            s = ST_ELIMINATED
        else:
            if us[u, S_BROKEN] != 0:
                s |= ST_BROKEN
            if us[u, S_TYPE] != ui[u, UI_TYPE]:
                s |= ST_REDUCED
            if us[u, S_WOUNDED] != 0:
                s |= ST_WOUNDED
            if us[u, S_PINNED] != 0:
                s |= ST_PINNED
            if us[u, S_MOUNT] >= 0:
                s |= ST_MOUNTED
        o_status[i, u] = s
        o_mount[i, u] = us[u, S_MOUNT]
    for m in range(Mt):
        if m < nm[0]:
            o_cap[i, m] = ms[m, C_CAP]
            o_motion[i, m] = ms[m, C_MOTION]
            o_removed[i, m] = ms[m, C_REMOVED]
            o_parent[i, m] = ms[m, C_PARENT]
            o_first[i, m] = ms[m, C_FIRST]
        else:
            o_cap[i, m] = 0
            o_motion[i, m] = 0
            o_removed[i, m] = 0
            o_parent[i, m] = -1
            o_first[i, m] = -1
    o_dice[i] = np.int32(dk[0])


# --- the trial loops ----------------------------------------------------------------------------
# Owned arrays passed between jitted functions cost an atomic incref/decref per array per call; with
# some thirty arrays per trial that was two thirds of the kernel's time. So the loops run on borrowed
# views (`_view`: no reference count) whose owners outlive them, and the functions below the entry
# points are compiled without the reference-counting runtime (`_nrt=False`: they allocate nothing).
# `_trial` is inlined into the loop (it takes every array).

@njit(cache=True)
def _views(ui, rord, mi, ai, excl, th, drm, ceff, cn, cfg, o_status, o_mount, o_cap, o_motion, o_removed, o_parent, o_first,
           o_th, o_ift, o_hits, o_dice):
    return ((_view(ui), _view(rord), _view(mi), _view(ai), _view(excl), _view(th), _view(drm), _view(ceff), _view(cn), _view(cfg)),
            (_view(o_status), _view(o_mount), _view(o_cap), _view(o_motion), _view(o_removed), _view(o_parent), _view(o_first),
             _view(o_th), _view(o_ift), _view(o_hits), _view(o_dice)))


@njit(cache=True)
def _scratch(blocks, U, Mt):
    """Per-trial state and scratch for `blocks` blocks of trials (owned arrays)."""
    return (np.zeros((blocks, U, 8), np.int64), np.zeros((blocks, Mt, 6), np.int64), np.zeros((blocks, 1), np.int64),
            np.zeros((blocks, 10, U), np.int64), np.zeros((blocks, 1), np.uint64))


@njit(cache=True)
def _scratch_views(owners):
    a, b, c, d, e = owners
    return _view(a), _view(b), _view(c), _view(d), _view(e)


@njit(cache=True, _nrt=False)
def _block(s0, first, lo, hi, st, b, scratch, out):
    """Rows lo .. hi-1 (trials first+lo ..), one after the other, on block b of the scratch."""
    ui, rord, mi, ai, excl, th, drm, ceff, cn, cfg = st
    o_status, o_mount, o_cap, o_motion, o_removed, o_parent, o_first, o_th, o_ift, o_hits, o_dice = out
    us, ms, nm, sc, dk = scratch[0][b], scratch[1][b], scratch[2][b], scratch[3][b], scratch[4][b]
    for i in range(lo, hi):
        key = mix64(s0 ^ (first + np.uint64(i)))
        _trial(key, i, ui, rord, mi, ai, excl, th, drm, ceff, cn, cfg, us, ms, nm, sc, dk,
               o_status, o_mount, o_cap, o_motion, o_removed, o_parent, o_first, o_th, o_ift, o_hits, o_dice)


@njit(cache=True)
def run_serial(seed, first, n, ui, rord, mi, ai, excl, th, drm, ceff, cn, cfg,
               o_status, o_mount, o_cap, o_motion, o_removed, o_parent, o_first, o_th, o_ift, o_hits, o_dice):
    """Trials first .. first+n-1 under `seed` (uint64 both), one after the other; row i is trial first+i."""
    st, out = _views(ui, rord, mi, ai, excl, th, drm, ceff, cn, cfg, o_status, o_mount, o_cap, o_motion, o_removed, o_parent,
                     o_first, o_th, o_ift, o_hits, o_dice)
    owners = _scratch(np.int64(1), max(ui.shape[0], 1), max(o_cap.shape[1], 1))
    _block(mix64(seed), first, np.int64(0), np.int64(n), st, np.int64(0), _scratch_views(owners), out)
    return len(owners)    # the owners of the scratch views live until here


@njit(cache=True, parallel=True)
def run_parallel(seed, first, n, ui, rord, mi, ai, excl, th, drm, ceff, cn, cfg,
                 o_status, o_mount, o_cap, o_motion, o_removed, o_parent, o_first, o_th, o_ift, o_hits, o_dice, blocks):
    """The same trials as `run_serial`, in `blocks` blocks spread over Numba's threads (prange); each
    trial is a pure function of (seed, trial), so the rows are identical whatever the blocks."""
    st, out = _views(ui, rord, mi, ai, excl, th, drm, ceff, cn, cfg, o_status, o_mount, o_cap, o_motion, o_removed, o_parent,
                     o_first, o_th, o_ift, o_hits, o_dice)
    # Allocated outside the parallel body (np.zeros there would become parfors of their own); the
    # owners live until the end of the function.
    owners = _scratch(blocks, max(ui.shape[0], 1), max(o_cap.shape[1], 1))
    scratch = _scratch_views(owners)
    s0 = mix64(seed)
    for b in prange(blocks):
        _block(s0, first, (b * n) // blocks, ((b + 1) * n) // blocks, st, np.int64(b), scratch, out)
    return len(owners)


# --- the floor: the same dice, drawn and summed, nothing else (PERF) ----------------------------

@njit(cache=True)
def floor_serial(seed, first, counts):
    """Draw counts[i] faces of trial first+i and add them up: the cost of the dice alone."""
    s0 = mix64(seed)
    acc = 0
    for i in range(counts.shape[0]):
        key = mix64(s0 ^ (first + np.uint64(i)))
        for k in range(counts[i]):
            acc += face(key, np.uint64(k))
    return acc


@njit(cache=True, parallel=True)
def floor_parallel(seed, first, counts):
    """`floor_serial` over Numba's threads."""
    s0 = mix64(seed)
    acc = 0
    for i in prange(counts.shape[0]):
        key = mix64(s0 ^ (first + np.uint64(i)))
        s = 0
        for k in range(counts[i]):
            s += face(key, np.uint64(k))
        acc += s
    return acc
