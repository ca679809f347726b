"""The compiled ASL fire-chain kernel against the reference (ARCH-03, ARCH-04, FAST-02).

Trial t of a compiled batch must be `run_chain(..., SeededDice(seed, trial=t))` of the reference:
every unit's state, every counter (new single-machine counters included), the To Hit and IFT DRs,
who was hit, and how many dice were drawn.
"""
import math
import os
import subprocess
import sys
import tomllib
import warnings
from importlib import resources

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import HardpointError, SeededDice
from hardpoint.asl.batch import _OUT_ORDER, _warned, pack_asl, reference_rows, run_asl_batch, supports_kernel
from hardpoint.backend import BackendWarning
from hardpoint.dice import die_face

from .conftest import d15_55_data

kernel = pytest.importorskip("hardpoint.fastcore.asl_numba")


@pytest.fixture(scope="module")
def d15_55():
    return hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")


def assert_same_rows(compiled, reference, label=""):
    """Every per-trial array of a compiled batch equals the reference's, naming the first trial that differs."""
    for k in _OUT_ORDER:
        a, b = getattr(compiled, k), reference[k] if isinstance(reference, dict) else getattr(reference, k)
        assert a.shape == b.shape, (label, k)
        bad = np.nonzero((a != b).reshape(len(a), -1).any(axis=1))[0]
        assert not len(bad), f"{label}: {k} differs first at trial row {bad[0]}: compiled {a[bad[0]]}, reference {b[bad[0]]}"


# --- the dice ----------------------------------------------------------------------------------

def test_arch_03_kernel_dice_are_the_reference_dice():
    """ARCH-03, DICE-03: the kernel's hash reproduces seeds/dice_vectors.toml and `die_face` (uint64 throughout,
    seeds and trials above 2**63 included)."""
    vec = tomllib.loads(resources.files("hardpoint.seeds").joinpath("dice_vectors.toml").read_text())
    for m in vec["mix64"]:
        assert int(kernel.mix64(np.uint64(int(m["input"], 16)))) == int(m["output"], 16)
    for s in vec["stream"]:
        seed, trial = int(s["seed"], 0), int(s["trial"], 0)
        assert int(kernel.stream_key(np.uint64(seed), np.uint64(trial))) == int(s["key"], 16)
        assert list(kernel.faces(np.uint64(seed), np.uint64(trial), len(s["faces"]))) == s["faces"]
    for seed, trial in ((2**64 - 1, 2**63 + 5), (2**63, 0), (12345, 2**64 - 1)):
        assert list(kernel.faces(np.uint64(seed), np.uint64(trial), 12)) == [die_face(seed, trial, k) for k in range(12)]


# --- D15.55 -------------------------------------------------------------------------------------

def test_arch_03_d15_55_thousands_of_trials_equal_the_reference(d15_55):
    """ARCH-03, ASL-TGT-02, ASL-TGT-01, ASL-RES-02, ASL-RES-03: 4,000 trials of the D15.55 example, compiled and
    reference, agree trial by trial on every array; the first 300 also equal the scenario's own `trial_outcome`.
    The trials cover every branch of the example: misses, the crew alone hit, K/3 with the squad reduced and its
    counter shrunk, KIA with the counter removed, bail-outs with the leader's new single-machine counter."""
    n = 4000
    compiled = run_asl_batch(d15_55, n, seed=2027, backend="compiled", parallel=False)
    assert compiled.backend == "compiled"
    assert_same_rows(compiled, reference_rows(d15_55, pack_asl(d15_55), 2027, n), "D15.55")
    for i in range(300):
        assert compiled.outcome(i) == d15_55.trial_outcome(SeededDice(2027, i)), i
    # the branches were there to compare
    squad, leader = compiled.units.index("squad"), compiled.units.index("leader")
    assert (compiled.capacity[:, 1] == 1).any() and compiled.counter_id(int(np.argmax(compiled.capacity[:, 1] == 1)), 1) == "cycle+leader"
    assert (compiled.status[:, squad] & 4).any() and (compiled.status[:, leader] & 8).any()
    assert compiled.removed[:, 0].any() and (compiled.to_hit_dr[:, 0] > 8).any() and (compiled.ift_dr[:, 0] == 0).any()
    assert ((compiled.capacity[:, 0] == 2) & (compiled.mount[:, squad] == 0)).any()


def test_arch_03_results_do_not_depend_on_chunks_threads_or_first_trial(d15_55):
    """ARCH-03, FAST-01: serial, parallel (any number of blocks), chunked and offset runs give the same rows for
    the same trials."""
    n = 3000
    whole = run_asl_batch(d15_55, n, seed=99, backend="compiled", parallel=False)
    for kw in ({"parallel": True}, {"parallel": True, "chunk": 777}, {"parallel": False, "chunk": 1}, {"parallel": True, "threads": 1}):
        assert_same_rows(run_asl_batch(d15_55, n, seed=99, backend="compiled", **kw), whole, str(kw))
    tail = run_asl_batch(d15_55, 1000, seed=99, first_trial=2000, backend="compiled", parallel=True)
    assert_same_rows(tail, {k: getattr(whole, k)[2000:] for k in _OUT_ORDER}, "first_trial=2000")
    # direct kernel calls with odd block counts
    p = pack_asl(d15_55)
    from hardpoint.asl.batch import _KERNEL_ORDER, _empty
    for blocks in (1, 3, 64):
        out = _empty(p, n)
        kernel.run_parallel(np.uint64(99), np.uint64(0), n, *(p.arrays[k] for k in _KERNEL_ORDER), *(out[k] for k in _OUT_ORDER), blocks)
        assert_same_rows(whole, out, f"blocks={blocks}")


def test_fast_02_compiled_summary_agrees_with_the_exact_odds(d15_55):
    """FAST-02, ARCH-03: 200,000 compiled trials of D15.55: every key of the summary within z < 4 of
    `exact_outcomes()` (the same keys as `trial_outcome`)."""
    n = 200_000
    summary = run_asl_batch(d15_55, n, seed=31337, backend="compiled").summary()
    exact = d15_55.exact_outcomes()
    assert set(summary) == set(exact)
    for k, p in exact.items():
        p = float(p)
        if p in (0.0, 1.0):
            assert summary[k] == p, k
            continue
        z = (summary[k] - p) / math.sqrt(p * (1 - p) / n)
        assert abs(z) < 4, (k, summary[k], p, z)


# --- random stacks ------------------------------------------------------------------------------

MMC = [("squad", "4-6-7", None), ("squad", "6-6-6", "3-3-6"), ("squad", "5-4-8", "2-4-8"), ("half_squad", "2-4-7", None),
       ("half_squad", "3-3-6", None), ("crew", "2-2-8", None), ("crew", "1-2-6", None)]
LEADERS = ["8-0", "9-1", "9-2", "7-0", "6+1", "10-2", "8-1"]
HEROES = ["1-4-9", "2-4-8"]
COLUMNS = [1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36]


def _unit(draw, uid, hexid):
    kind = draw(st.sampled_from(["mmc", "mmc", "mmc", "leader", "leader", "hero"]))
    if kind == "mmc":
        utype, counter, half = draw(st.sampled_from(MMC))
        u = {"id": uid, "counter": counter, "type": utype, "hex": hexid}
        if half:
            u["half_squad"] = half
    elif kind == "leader":
        u = {"id": uid, "counter": draw(st.sampled_from(LEADERS)), "type": "leader", "hex": hexid}
    else:
        u = {"id": uid, "counter": draw(st.sampled_from(HEROES)), "type": "hero", "hex": hexid}
    u["side"] = "german"
    if kind != "mmc" and draw(st.integers(0, 4)) == 0:
        u["wounded"] = True
    if draw(st.integers(0, 5)) == 0:
        u["pinned"] = True
    if draw(st.integers(0, 5)) == 0:
        u["broken"] = True
    u["moving"] = draw(st.sampled_from(["none", "none", "on_foot", "assault", "mounting", "dismounting", "riding"]))
    return u


def _mods(draw, name):
    return [{"name": f"{name}{i}", "value": draw(st.integers(-3, 3))} for i in range(draw(st.integers(0, 2)))]


@st.composite
def stacks(draw):
    """A random Location under fire: crews, squads, half-squads, leaders (with and without leadership) and heroes, on
    foot or riding cycle / sidecar / bicycle counters stopped, moving or in Motion; one or two attacks (ordnance,
    small arms with PBF/TPBF/long range/halvings/leadership direction/cowering, a sidecar overrun), any FP column,
    range and DRM, and the morale settings varied."""
    hexes = [{"id": "target", "terrain": "open_ground"}, {"id": "near", "terrain": "open_ground"}]
    if draw(st.booleans()):
        hexes[0]["tem"] = draw(st.integers(-1, 3))
        hexes[0]["open"] = draw(st.booleans())
    units = [_unit(draw, f"u{i}", "target") for i in range(draw(st.integers(1, 6)))]
    machines = []
    free = list(range(len(units)))
    for mi in range(draw(st.integers(0, 3))):
        mtype = draw(st.sampled_from(["cycle", "sidecar", "bicycle", "cycle", "sidecar"]))
        cap = draw(st.integers(1, 3))
        motion = "stopped" if mtype == "bicycle" else draw(st.sampled_from(["stopped", "moving", "motion", "motion"]))
        riders, mmc = [], None
        for i in list(free):
            u = units[i]
            smc = u["type"] in ("leader", "hero")
            if not smc:
                if mmc is not None or cap == 1 or (u["type"] == "squad" and cap < 3) or not draw(st.booleans()):
                    continue
                mmc = i
            else:
                limit = (3 if mtype == "sidecar" else 2) if cap == 1 else 4
                if sum(units[j]["type"] in ("leader", "hero") for j in riders) >= limit or not draw(st.booleans()):
                    continue
            riders.append(i)
        if not riders:
            motion = "stopped"
        for i in riders:
            free.remove(i)
            units[i].pop("broken", None)
        m = {"id": f"m{mi}", "type": mtype, "machines": cap, "hex": "target", "side": "german", "motion": motion,
             "riders": [units[i]["id"] for i in riders]}
        if mtype != "bicycle":
            m["mp"] = 28
        machines.append(m)
    # firers in the next hex, never targets
    firers = [{"id": "f_sq", "counter": "4-6-7", "hex": "near", "side": "russian"},
              {"id": "f_hs", "counter": "2-4-7", "hex": "near", "side": "russian"},
              {"id": "f_hero", "counter": "2-4-8", "type": "hero", "hex": "near", "side": "russian"},
              {"id": "f_ldr", "counter": draw(st.sampled_from(["8-0", "9-1", "9-2", "10-2"])), "hex": "near", "side": "russian"},
              {"id": "o_hs", "counter": "2-4-7", "hex": "near", "side": "russian"},
              {"id": "o_ldr", "counter": "8-1", "hex": "near", "side": "russian"}]
    # An overrun (ASL-MOV-04) is the sidecar's own attack on the hex it has ridden into, in its MPh: then it is the only
    # attack (another attack on that hex would reach its riders).
    overrunning = draw(st.integers(0, 4)) == 0
    machines.append({"id": "ovr", "type": "sidecar", "machines": 2, "hex": "target" if overrunning else "near", "side": "russian",
                     "mp": 28, "motion": "moving", "riders": ["o_hs", "o_ldr"]})
    if overrunning:
        for u in firers:
            if u["id"] in ("o_hs", "o_ldr"):
                u["hex"] = "target"
        if draw(st.booleans()):      # a friend of the riders on foot in the hex: not attacked by the overrun
            firers.append({"id": "o_foot", "counter": "4-4-7", "type": "squad", "half_squad": "2-2-7", "hex": "target",
                           "side": "russian"})
    fires = []
    for a in range(1 if overrunning else draw(st.integers(1, 2))):
        kind = "overrun" if overrunning else draw(st.sampled_from(["ordnance", "ordnance", "small_arms", "small_arms"]))
        f = {"id": f"a{a}", "kind": kind, "target": "target", "phase": draw(st.sampled_from(["pfph", "mph", "dfph", "afph"]))}
        if overrunning:
            f["phase"] = "mph"
        if kind == "ordnance":
            f.update(range=draw(st.integers(0, 20)), fp=draw(st.sampled_from(COLUMNS + [3, 10, "1/2"])),
                     firer_row=draw(st.sampled_from(["german", "other"])), to_hit_drm=_mods(draw, "th"))
            if not any(m["riders"] and m["type"] != "bicycle" and m["hex"] == "target" for m in machines):
                f["target_type"] = draw(st.sampled_from(["infantry", "area"]))      # area: no motorcyclist there
        elif kind == "small_arms":
            f["firers"] = draw(st.lists(st.sampled_from(["f_sq", "f_hs", "f_hero"]), min_size=1, max_size=3, unique=True))
            f["range"] = draw(st.integers(0, 8))
            if draw(st.booleans()):
                f["directed_by"] = "f_ldr"
            f["tpbf"] = draw(st.integers(0, 3)) == 0
            f["inexperienced"] = draw(st.booleans())
            f["halvings"] = ["AFPh"] * draw(st.integers(0, 2))
        else:
            f.update(machine="ovr", range=0, fp=draw(st.sampled_from([1, 4, 8, 12, 16, 20, 30])))
        f["ift_drm"] = _mods(draw, "ift")
        fires.append(f)
    data = {"scenario": {"name": "random stack", "ruleset": "asl"}, "hex": hexes, "unit": units + firers, "motorcycle": machines,
            "fire": fires}
    morale = {}
    if draw(st.booleans()):
        morale = {"random_selection": {"ties": draw(st.sampled_from(["all", "reroll"]))},
                  "morale_check": {"broken_fails": draw(st.sampled_from(["eliminate", "casualty_reduction"])),
                                   "pin_on_equal": draw(st.booleans())},
                  "kia": {"survivors_break": draw(st.booleans())},
                  "casualty_reduction": {"squad": draw(st.sampled_from(["half_squad", "eliminated"])),
                                         "smc": draw(st.sampled_from(["wounded", "eliminated"]))},
                  "leadership": {"applies_to_self": draw(st.booleans())},
                  "pin_task_check": {"broken_units_exempt": draw(st.booleans())},
                  "bail_out": {"nmc_drm": draw(st.integers(-1, 2)), "broken_fails": draw(st.sampled_from(["casualty_reduction", "eliminate"])),
                               "smc": draw(st.sampled_from(["eliminated", "wounded"]))},
                  "wounds": {"morale_penalty": draw(st.integers(0, 2)), "leadership_penalty": draw(st.integers(0, 2))}}
        data["rules"] = {"asl": {"morale": morale}}
    return data


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(stacks(), st.integers(0, 2**64 - 1))
def test_arch_03_random_stacks_equal_the_reference_trial_by_trial(data, seed):
    """ARCH-03, ASL-TGT-01, ASL-TGT-02, ASL-RES-01, ASL-RES-02, ASL-RES-03, ASL-RES-04, ASL-FIRE-01, ASL-BIC-02, A7, A7.9,
    A.9, A10: for random stacks and attacks the kernel and the reference agree on every array of 40 trials (serial and
    parallel), and the compiled outcome of each trial is the scenario's `trial_outcome` with the same dice."""
    try:
        s = hardpoint.parse_scenario(data)
    except HardpointError:
        from hypothesis import assume
        assume(False)
    assert supports_kernel(s) is None
    n = 40
    compiled = run_asl_batch(s, n, seed=seed, backend="compiled", parallel=False)
    ref = reference_rows(s, pack_asl(s), seed, n)
    assert_same_rows(compiled, ref, "random stack")
    assert_same_rows(run_asl_batch(s, n, seed=seed, backend="compiled", parallel=True), ref, "random stack, parallel")
    for i in range(0, n, 8):
        assert compiled.outcome(i) == s.trial_outcome(SeededDice(seed, i)), i


def test_arch_03_hand_picked_branches_equal_the_reference():
    """ARCH-03, ASL-RES-02, ASL-RES-03, A.9: branches random stacks reach only rarely, each for 600 trials: ties
    rerolled among a big group (nKIA with n < group), two SMC on a single sidecar bailing out together, a squad with
    three leaders on a three-machine cycle in Motion (two new single-machine counters), a stopped sidecar and a
    bicycle (plain dismount), and a second attack on what the first left."""
    data = d15_55_data()
    data["unit"] += [{"id": "l2", "counter": "9-1", "hex": "target"}, {"id": "l3", "counter": "7-0", "hex": "target"},
                     {"id": "h1", "counter": "1-4-9", "type": "hero", "hex": "target"},
                     {"id": "s1", "counter": "9-2", "hex": "target"}, {"id": "s2", "counter": "8-1", "hex": "target"},
                     {"id": "b1", "counter": "2-4-7", "hex": "target"}, {"id": "b2", "counter": "8-0", "hex": "target"}]
    data["motorcycle"][0]["riders"] = ["squad", "leader", "l2", "l3"]
    data["motorcycle"] += [{"id": "side", "type": "sidecar", "machines": 1, "hex": "target", "mp": 28, "motion": "moving",
                            "riders": ["s1", "s2"]},
                           {"id": "bike", "type": "bicycle", "machines": 2, "hex": "target", "riders": ["b1", "b2"]},
                           {"id": "stop", "type": "sidecar", "machines": 1, "hex": "target", "mp": 28, "riders": ["h1"]}]
    data["fire"] = [{"id": "gun", "kind": "ordnance", "target": "target", "range": 2, "fp": 36, "to_hit_drm": [{"name": "x", "value": -2}]},
                    {"id": "mg", "kind": "ordnance", "target": "target", "range": 3, "fp": 8}]
    for ties in ("all", "reroll"):
        data["rules"] = {"asl": {"morale": {"random_selection": {"ties": ties}}}}
        s = hardpoint.parse_scenario(data)
        n = 600
        compiled = run_asl_batch(s, n, seed=5, backend="compiled")
        assert_same_rows(compiled, reference_rows(s, pack_asl(s), 5, n), ties)
        assert (compiled.capacity[:, len(compiled.counters) + 1] == 1).any()      # a second new counter was made


def test_arch_03_bail_out_casualty_reduction_equals_the_reference():
    """ARCH-03, ASL-RES-03 (SPEC Bail Out ruling): a broken rider failing his Bail Out NMC is Casualty Reduced (a squad
    to a broken HS, dismounted; an SMC eliminated) in the kernel exactly as in the reference, under the default and
    both house-rule settings; the branch is reached (a squad reduced, broken and unmounted).
    Source: D15.53; D15.55 example
    """
    data = d15_55_data()
    data["unit"] = [{"id": "squad", "counter": "4-6-7", "hex": "target"}, {"id": "leader", "counter": "8-0", "hex": "target"},
                    {"id": "l2", "counter": "9-1", "hex": "target"}, {"id": "hs", "counter": "2-4-7", "hex": "target"}]
    data["motorcycle"] = [{"id": "cycle", "type": "cycle", "machines": 3, "hex": "target", "mp": 28, "motion": "motion",
                           "riders": ["squad", "leader"]},
                          {"id": "side", "type": "sidecar", "machines": 2, "hex": "target", "mp": 28, "motion": "moving",
                           "riders": ["hs", "l2"]}]
    data["fire"][0]["fp"] = 16
    for bail in ({}, {"smc": "wounded"}, {"broken_fails": "eliminate"}):
        data["rules"] = {"asl": {"morale": {"bail_out": bail}}}
        s = hardpoint.parse_scenario(data)
        n = 3000
        compiled = run_asl_batch(s, n, seed=17, backend="compiled", parallel=False)
        assert_same_rows(compiled, reference_rows(s, pack_asl(s), 17, n), str(bail))
        if not bail:
            # a squad broken by the 3MC/K and Reduced by its failed Bail Out NMC: reduced, broken, not mounted
            squad, leader = compiled.units.index("squad"), compiled.units.index("leader")
            assert ((compiled.status[:, squad] & (4 | 2 | 32)) == (4 | 2)).any()
            assert (compiled.status[:, leader] == 1).any()


def test_arch_03_counter_substitution_into_single_machine_counters_equals_the_reference():
    """ARCH-03, ASL-RES-02 (D15.52), ASL-RES-03: SMC left with no MMC on a counter bigger than a single machine get
    single-machine counters (the first keeps the slot, the others new slots) in the kernel exactly as in the
    reference, and riders on those new counters still bail out; the branch is reached.
    Source: D15.52
    """
    data = d15_55_data()
    data["unit"] = [{"id": "hs", "counter": "2-4-7", "hex": "target"}, {"id": "a", "counter": "8-0", "hex": "target"},
                    {"id": "b", "counter": "9-1", "hex": "target"}, {"id": "c", "counter": "7-0", "hex": "target"},
                    {"id": "sq", "counter": "4-6-7", "hex": "target"}, {"id": "d", "counter": "8-1", "hex": "target"},
                    {"id": "e", "counter": "6+1", "hex": "target"}, {"id": "f", "counter": "9-2", "hex": "target"},
                    {"id": "g", "counter": "10-2", "hex": "target"}]
    data["motorcycle"] = [{"id": "cycle", "type": "cycle", "machines": 2, "hex": "target", "mp": 28, "motion": "motion",
                           "riders": ["hs", "a", "b", "c"]},
                          {"id": "big", "type": "cycle", "machines": 3, "hex": "target", "mp": 28, "motion": "moving",
                           "riders": ["sq", "d", "e", "f", "g"]}]
    data["fire"] = [{"id": "gun", "kind": "ordnance", "target": "target", "range": 2, "fp": 24},
                    {"id": "mg", "kind": "ordnance", "target": "target", "range": 3, "fp": 8}]
    s = hardpoint.parse_scenario(data)
    n = 4000
    compiled = run_asl_batch(s, n, seed=23, backend="compiled", parallel=False)
    assert_same_rows(compiled, reference_rows(s, pack_asl(s), 23, n), "substitution")
    ids = {compiled.counter_id(i, c) for i in range(n) for c in range(2, compiled.capacity.shape[1]) if compiled.capacity[i, c]}
    assert {"cycle+c", "big+f"} <= ids
    hs = compiled.units.index("hs")
    split = (compiled.status[:, hs] == 1) & (compiled.capacity[:, 0] == 1) & (compiled.mount[:, compiled.units.index("c")] >= 2)
    assert split.any()


# --- coverage, fallback and the backend switch (ARCH-04) ------------------------------------------

def _mount_and_ride() -> dict:
    return tomllib.loads(resources.files("hardpoint.seeds").joinpath("scenarios/asl_d15_41_mount_and_ride.toml").read_text(encoding="utf-8"))


def test_arch_03_moves_no_die_decides_run_in_the_kernel():
    """ARCH-03 / ARCH-04 (Source: D15.41 example): the leader's walk, mount, Start, eleven road hexes, Stop and
    refused dismount roll no die, so the packer runs them once on the reference's chain and the kernel starts
    every trial from there: no BackendWarning, and the reference's rows. With a 75mm gun firing at N5 in the
    DFPh, the kernel resolves it against the leader where the ride left him (mounted, stopped) and agrees with
    the reference on 4,000 trials."""
    s = hardpoint.load_scenario("builtin:asl_d15_41_mount_and_ride")
    assert supports_kernel(s) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error", BackendWarning)
        b = run_asl_batch(s, 20, seed=1)
    assert b.backend == "compiled"
    assert [b.outcome(i) for i in range(20)] == [s.trial_outcome(SeededDice(1, i)) for i in range(20)]
    assert b.outcome(0)["leader mounted"] == 1.0
    data = _mount_and_ride()
    data["fire"] = [{"id": "gun", "kind": "ordnance", "weapon": "75mm Gun", "target": "N5", "range": 6, "fp": 12,
                     "firer_row": "other", "phase": "dfph"}]
    s = hardpoint.parse_scenario(data)
    assert supports_kernel(s) is None
    compiled = run_asl_batch(s, 4000, seed=3, backend="compiled", parallel=False)
    assert_same_rows(compiled, reference_rows(s, pack_asl(s), 3, 4000), "ride then fire")
    summary = compiled.summary()
    assert 0 < summary["leader broken"] < 1 and 0 < summary["leader mounted"] < 1
    # the same outcome keys as the reference's (`trial_outcome`, keyed on the situation at the start)
    assert [compiled.outcome(i) for i in range(50)] == [s.trial_outcome(SeededDice(3, i)) for i in range(50)]


def test_arch_04_moves_the_dice_decide_run_on_the_reference_with_one_warning():
    """ARCH-04: moves a die decides (here a Wreck Check crossing a Double Crest hexside, D15.46) and moves after an
    attack are not covered; auto runs the reference with a single BackendWarning naming the reason, and its rows are
    the reference's; asking for the compiled core is a ScenarioError."""
    data = _mount_and_ride()
    for h in data["hex"]:
        if h["id"] == "D5":
            h["motorcycle_mp"] = 1
    data["hexside"].append({"hexes": ["C5", "D5"], "kind": "double_crest"})
    s = hardpoint.parse_scenario(data)
    reason = supports_kernel(s)
    assert reason == "moves that roll dice (Wreck Checks, Manhandling DRs, Recovery) run on the reference"
    _warned.clear()
    with pytest.warns(BackendWarning, match="moves that roll dice") as record:
        b = run_asl_batch(s, 30, seed=1, backend="auto")
        run_asl_batch(s, 5, seed=1, backend="auto")
    assert len([w for w in record if issubclass(w.category, BackendWarning)]) == 1
    assert b.backend == "reference" and [b.outcome(i) for i in range(30)] == [s.trial_outcome(SeededDice(1, i)) for i in range(30)]
    assert 0 < b.summary()["leader broken"] < 1         # the Wreck Check's 6 breaks him in some trials
    with pytest.raises(HardpointError):
        run_asl_batch(s, 5, seed=1, backend="compiled")
    data = _mount_and_ride()
    data["fire"] = [{"id": "gun", "kind": "ordnance", "weapon": "75mm Gun", "target": "N5", "range": 6, "fp": 12,
                     "firer_row": "other", "phase": "mph"}]
    assert supports_kernel(hardpoint.parse_scenario(data)) == \
        "moves, or the end of a phase, after an attack run on the reference (they meet what its dice did)"


def test_arch_04_firers_under_fire_fall_back():
    """ARCH-04: an attack whose firers are themselves targets of an attack (their FP could change between
    attacks) is left to the reference, with the reason."""
    data = d15_55_data()
    data["unit"].append({"id": "enemy", "counter": "4-6-7", "hex": "target", "side": "russian"})
    data["fire"] = [{"id": "gun", "kind": "ordnance", "target": "target", "range": 6, "fp": 12},
                    {"id": "rifles", "kind": "small_arms", "target": "target", "range": 0, "firers": ["enemy"]}]
    s = hardpoint.parse_scenario(data)
    assert "enemy" in supports_kernel(s)
    _warned.clear()
    with pytest.warns(BackendWarning):
        b = run_asl_batch(s, 20, seed=3)
    assert b.backend == "reference"
    assert [b.outcome(i) for i in range(20)] == [s.trial_outcome(SeededDice(3, i)) for i in range(20)]


def test_arch_04_hardpoint_backend_reference_is_honoured(d15_55, monkeypatch):
    """ARCH-04: HARDPOINT_BACKEND=reference runs the reference, silently, with the same rows."""
    monkeypatch.setenv("HARDPOINT_BACKEND", "reference")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ref = run_asl_batch(d15_55, 300, seed=8)
    assert ref.backend == "reference"
    monkeypatch.delenv("HARDPOINT_BACKEND")
    assert_same_rows(run_asl_batch(d15_55, 300, seed=8), ref, "env")


def test_arch_04_import_hardpoint_does_not_import_numba():
    """ARCH-04 (ENGINEERING.md): `import hardpoint` and `import hardpoint.asl.batch` leave Numba unloaded."""
    code = "import sys, hardpoint, hardpoint.asl.batch; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=dict(os.environ))
    assert out.stdout.strip() == "False"


def test_arch_03_kernel_tables_come_from_the_rules():
    """ARCH-03, ARCH-05: the kernel reads the IFT, To Hit and morale numbers from the loaded rules: an overridden
    IFT (every cell K/1) gives a different result, and still the reference's."""
    data = d15_55_data()
    data["rules"] = {"asl": {"ift": {"column": {"12": ["K/1"] * 16}}}}
    s = hardpoint.parse_scenario(data)
    b = run_asl_batch(s, 500, seed=4, backend="compiled")
    assert_same_rows(b, reference_rows(s, pack_asl(s), 4, 500), "override")
    default = run_asl_batch(hardpoint.parse_scenario(d15_55_data()), 500, seed=4, backend="compiled")
    assert (b.to_hit_dr == default.to_hit_dr).all() and (b.ift_dr == default.ift_dr).all()
    assert (b.status != default.status).any()


def test_arch_04_the_kernel_runs_under_numba_disable_jit():
    """ARCH-04, ARCH-03: with NUMBA_DISABLE_JIT=1 (Numba's switch to run every kernel as plain Python, for
    debugging) the ASL kernel runs (it used to raise NotImplementedError from its borrowed-view intrinsic) and its
    300 trials of D15.55 and of the hand-picked branches, serial and parallel, equal the reference's, with no
    warning (NumPy's uint64 overflow reports are silenced around the kernel: the hash wraps on purpose)."""
    code = """
import warnings
warnings.simplefilter("error")
import numpy as np
import hardpoint
from hardpoint.asl.batch import _OUT_ORDER, pack_asl, reference_rows, run_asl_batch
from tests.asl.test_batch_kernel import d15_55_data
data = d15_55_data()
data["unit"] += [{"id": "l2", "counter": "9-1", "hex": "target"}, {"id": "s1", "counter": "9-2", "hex": "target"},
                 {"id": "s2", "counter": "8-1", "hex": "target"}]
data["motorcycle"][0]["riders"] = ["squad", "leader", "l2"]
data["motorcycle"].append({"id": "side", "type": "sidecar", "machines": 1, "hex": "target", "mp": 28, "motion": "moving",
                           "riders": ["s1", "s2"]})
data["fire"][0]["fp"] = 24
for s in (hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle"), hardpoint.parse_scenario(data)):
    ref = reference_rows(s, pack_asl(s), 9, 300)
    for parallel in (False, True):
        b = run_asl_batch(s, 300, seed=9, backend="compiled", parallel=parallel)
        assert b.backend == "compiled"
        assert all(np.array_equal(getattr(b, k), ref[k]) for k in _OUT_ORDER), (s.name, parallel)
print("ok")
"""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


def test_arch_04_two_threads_run_the_parallel_kernel_under_workqueue():
    """ARCH-04 / SAFE-02: under Numba's fallback threading layer (workqueue), two threads entering parallel code at
    once end the process; the servers and the C interface run batches on threads, so the ASL kernel's parallel
    runs take turns there. Two threads, twelve parallel batches each: every result equals the serial one."""
    import os
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import threading, numba
        import hardpoint
        from hardpoint.asl.batch import run_asl_batch
        s = hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")
        want = run_asl_batch(s, 3000, 5, backend="compiled", threads=1).status.tobytes()
        bad = []
        def work():
            for _ in range(12):
                got = run_asl_batch(s, 3000, 5, backend="compiled", threads=2, parallel=True)
                if got.status.tobytes() != want:
                    bad.append(1)
        ts = [threading.Thread(target=work) for _ in range(2)]
        [t.start() for t in ts]
        [t.join() for t in ts]
        print(numba.threading_layer(), len(bad))
    """)
    env = dict(os.environ, NUMBA_THREADING_LAYER="workqueue")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["workqueue", "0"]
