"""The batch API and the compiled core: ARCH-03 cross-check, FAST-01 arrays and independence."""
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import HardpointError
from hardpoint.backend import BackendWarning
from hardpoint.carwars.batch import _movement_collides, run_batch, supports_compiled

fast = pytest.importorskip("hardpoint.fastcore._carwars")

DESIGNS = ["hunter", "shogun", "razor", "outrider", "stinger"]
SIDES = ["front", "back", "left", "right", "top", "underbody"]
AIMS = ["auto"] * 8 + ["front", "back", "left", "right", "top", "turret", "rider", "sidecar", "tire:front", "tire:back",
        "tire:front_left", "tire:back_right", "tire:sidecar", "ground"]


@st.composite
def scenarios(draw):
    """Random single-phase Car Wars scenarios on which every declaration is legal."""
    n = draw(st.integers(2, 4))
    vehicles = []
    for i in range(n):
        design = draw(st.sampled_from(DESIGNS))
        v = {"id": f"v{i}", "design": design, "x": 2.0 * (i % 2) + draw(st.floats(-0.3, 0.3)),
             "y": 2.0 * (i // 2) + draw(st.floats(-0.3, 0.3)), "computer": "hi_res", "facing": draw(st.sampled_from([0.0, 45.0, 90.0, 135.0, 200.0, 270.0, 333.0])),
             "speed": draw(st.sampled_from([0, 20, 45, 70]))}
        if draw(st.booleans()):
            v["armour"] = {s: draw(st.integers(0, 6)) for s in SIDES}
        if design in ("hunter", "shogun") and draw(st.booleans()):
            v["armour_material"] = "metal"
        if draw(st.booleans()):
            v["fireproof"] = draw(st.booleans())
            v["extinguisher"] = draw(st.sampled_from(["none", "standard", "improved", "portable"]))
            v["burning"] = draw(st.booleans())
        if design == "stinger" and draw(st.booleans()):
            v["reversed"] = True
        if design == "hunter" and draw(st.booleans()):
            v["weapon"] = [{"id": "mg", "type": "Machine Gun", "mount": "front"}, {"id": "ft", "type": "Flamethrower", "mount": "back"},
                           {"id": "r1", "type": "Machine Gun", "mount": "right", "automatic": draw(st.booleans())}]
            v["layout"] = draw(st.permutations(["crew", "power_plant", "cargo"]))
            # one cargo item to 34 (with the power plant and the driver, the 36 a pick takes at most): a hit on the
            # cargo picks one with one die up to six, with two beyond, and a collision splits over all of them
            v["cargo"] = [{"id": f"box{j}", "dp": draw(st.integers(1, 4))}
                          for j in range(draw(st.sampled_from([1, 2, 3, 4, 5, 7, 11, 20, 34])))]
        vehicles.append(v)
    # a pedestrian may carry grenades, whose burst hurts the pedestrians near the point hit (CW-DMG-06)
    pedestrians = [{"id": f"p{i}", "x": draw(st.floats(-2, 4)), "y": draw(st.floats(-2, 4)),
                    "weapons": ["Rifle"] + (["Explosive Grenade"] if draw(st.booleans()) else []), "handgunner": 3,
                    "body_armour": draw(st.integers(0, 3))} for i in range(draw(st.integers(0, 3)))]
    data = {"scenario": {"name": "random", "ruleset": "carwars"}, "vehicle": vehicles, "arena": {"light": draw(st.sampled_from(["day", "night"]))}}
    if pedestrians:
        data["pedestrian"] = pedestrians
    if draw(st.booleans()):
        # an oil slick under or near some vehicles: firing from it is -1 (CW-DROP-04, CW-HIT-08)
        data["counter"] = [{"id": "slick", "weapon": "Oil Jet", "x": draw(st.floats(-0.5, 2.5)), "y": draw(st.floats(-0.5, 2.5)),
                            "width": 0.5, "length": 1.0}]
    attacks = []
    candidates = []
    for v in vehicles:
        weapons = {"hunter": ["mg", "ft", "r1"] if "weapon" in v else ["mg"], "shogun": ["laser", "mg"], "razor": ["mg"],
                   "outrider": ["mg", "sc_lmg"], "stinger": ["rl"]}[v["design"]]
        candidates += [(v["id"], w) for w in weapons]
    candidates += [(p["id"], w) for p in pedestrians for w in p["weapons"]]
    targets = [v["id"] for v in vehicles] + [p["id"] for p in pedestrians]
    for k in range(draw(st.integers(4, 12))):
        attacker, weapon = draw(st.sampled_from(candidates))
        target = draw(st.sampled_from([t for t in targets if t != attacker]))
        attack = {"id": f"a{k}", "attacker": attacker, "weapon": weapon, "target": target, "aim": draw(st.sampled_from(AIMS))}
        trial = dict(data, attack=attacks + [attack])
        try:
            hardpoint.parse_scenario(trial)
            if any(a["attacker"] == attacker for a in attacks):
                continue
            attacks.append(attack)
        except HardpointError:
            continue
    if attacks:
        data["attack"] = attacks
    collisions = [{"id": f"c{i}", "vehicle": draw(st.sampled_from([v["id"] for v in vehicles])), "side": draw(st.sampled_from(SIDES)),
                   "speed": draw(st.sampled_from([5, 10, 25, 40, 60, 90])), **({"weight_lb": draw(st.sampled_from([1500, 3000, 9000]))} if draw(st.booleans()) else {})}
                  for i in range(draw(st.integers(0, 2)))]
    if collisions:
        data["collision"] = collisions
        # who fires a vehicle weapon may depend on what a collision does to the crew: name the firer, or leave it to
        # the default firers (the first able when the phase's combat starts, at his own skill)
        named = []
        for a in data.get("attack", []):
            if not a["attacker"].startswith("p") and draw(st.booleans()):
                a["firer"] = "driver"
            try:
                hardpoint.parse_scenario(dict(data, attack=named + [a]))
                named.append(a)
            except HardpointError:
                continue
        if named:
            data["attack"] = named
        else:
            data.pop("attack", None)
    automatic = any(w.get("automatic") for v in vehicles for w in v.get("weapon", []))
    if not automatic and "counter" not in data and draw(st.booleans()):
        # one whole turn: the same declarations spread over the five phases, vehicles moving straight
        # (the kernel runs a turn without automatic weapons or counters: batch.supports_compiled)
        data["scenario"]["turns"] = 1
        for a in data.get("attack", []):
            a.update(turn=1, phase=draw(st.integers(1, 5)))
            if not a["attacker"].startswith("p"):
                a["firer"] = "driver"
        for c in data.get("collision", []):
            c.update(turn=1, phase=draw(st.integers(1, 5)))
        try:
            scenario = hardpoint.parse_scenario(data)
        except HardpointError:
            scenario = None
        if scenario is not None and _movement_collides(scenario):
            # FIGHT-04: collisions from movement are not in the kernel yet (issue 14): stop the vehicles instead
            for v in data["vehicle"]:
                v["speed"] = 0
            try:
                scenario = hardpoint.parse_scenario(data)
            except HardpointError:
                scenario = None
        if scenario is None:
            data["scenario"].pop("turns")
            for a in data.get("attack", []):
                a.pop("turn"), a.pop("phase"), a.pop("firer", None)
            for c in data.get("collision", []):
                c.pop("turn"), c.pop("phase")
            scenario = hardpoint.parse_scenario(data)
        return scenario, True, draw(st.integers(0, 2**64 - 1))
    return hardpoint.parse_scenario(data), draw(st.booleans()), draw(st.integers(0, 2**64 - 1))


@settings(max_examples=int(os.environ.get("HARDPOINT_CROSSCHECK_EXAMPLES", "300")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(scenarios())
def test_arch_03_compiled_core_agrees_bit_for_bit_with_the_reference(case):
    """ARCH-03 / DICE-03: on hundreds of random scenarios (cars, cycles, sidecars, trikes, pedestrians, metal and
    fireproof armour, random picks among 1 to 36 candidates, collisions, fires and explosions, weapons on automatic,
    ground shots, oil slicks; one phase,
    or one whole turn of five phases with moving vehicles), the compiled core and the reference give the same hits,
    the same damage, the same value of every component and crew member, and the same fire and crew flags."""
    scenario, end_of_turn, seed = case
    assert supports_compiled(scenario) is None
    ref = run_batch(scenario, 24, seed, backend="reference", end_of_turn=end_of_turn)
    com = run_batch(scenario, 24, seed, backend="compiled", end_of_turn=end_of_turn, threads=1)
    assert ref.labels == com.labels and ref.attacks == com.attacks
    np.testing.assert_array_equal(ref.hit, com.hit)
    np.testing.assert_array_equal(ref.damage, com.damage)
    np.testing.assert_array_equal(ref.state, com.state)
    np.testing.assert_array_equal(ref.flags, com.flags)
    # the counts the kernel keeps in summary mode (chunks of 7 trials) are those of the arrays
    lean = run_batch(scenario, 24, seed, backend="compiled", end_of_turn=end_of_turn, threads=1, chunk=7, keep="summary")
    for key, value in ref.counts().items():
        np.testing.assert_array_equal(value, lean.counts()[key], err_msg=key)


BACKENDS = ["compiled", "reference"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_fast_01_results_independent_of_chunking_threads_and_first_trial(backend):
    """FAST-01 / DICE-03: trial t gives the same result whatever N, the chunk size, the threads or the split
    (on both backends)."""
    s = hardpoint.load_scenario("builtin:default")
    n = 2000 if backend == "compiled" else 200
    whole = run_batch(s, n, 11, backend=backend, threads=1)
    split = run_batch(s, n, 11, backend=backend, threads=2, chunk=77)
    np.testing.assert_array_equal(whole.state, split.state)
    tail = run_batch(s, n // 4, 11, backend=backend, first_trial=n - n // 4)
    np.testing.assert_array_equal(whole.state[n - n // 4:], tail.state)
    np.testing.assert_array_equal(whole.hit[n - n // 4:], tail.hit)


@pytest.mark.parametrize("backend", BACKENDS)
def test_fast_01_trial_equals_a_seeded_resolve(backend):
    """FAST-01: trial t of a batch is exactly scenario.resolve(SeededDice(seed, trial=t)) (on both backends)."""
    s = hardpoint.load_scenario("builtin:default")
    b = run_batch(s, 40, 3, backend=backend)
    for t in (0, 17, 39):
        r = s.resolve(hardpoint.SeededDice(3, t))
        assert [x.hit for x in r.rolls] == list(b.hit[t])
        assert [x.damage or 0 for x in r.rolls] == list(b.damage[t])


@pytest.mark.parametrize("backend", BACKENDS)
def test_fast_01_summary_and_arrays(backend):
    """FAST-01: per-trial arrays and a summary: hit rates, damage, destruction, fire and explosion rates
    (on both backends)."""
    s = hardpoint.load_scenario("builtin:default")
    n = 20000 if backend == "compiled" else 2000
    b = run_batch(s, n, 1, end_of_turn=True, backend=backend)
    assert b.backend == backend and b.hit.shape == (n, 4) and b.state.shape[1] == len(b.labels)
    summary = b.summary()
    exact = {x.attack: float(x.probability) for x in s.explain()}
    for a, p in exact.items():
        se = (p * (1 - p) / n) ** 0.5
        assert abs(summary[f"{a} hit"] - p) < 4 * se + 1e-12
    assert any(k.endswith("destroyed") for k in summary)


def test_fast_01_uncovered_scenarios_fall_back_with_one_warning():
    """FAST-01 / ARCH-04: a scenario the kernel does not cover (the chase, with the pursuer's front gun, which fires
    planned attacks, also switched to automatic) runs on the reference, with one warning saying why; forcing the
    compiled core on it is an error naming the reason."""
    import tomllib
    from importlib import resources

    data = tomllib.loads(resources.files("hardpoint.seeds").joinpath("scenarios/cw_chase.toml").read_text(encoding="utf-8"))
    data["action"].append({"turn": 2, "phase": 2, "kind": "automatic_on", "vehicle": "pursuer", "weapon": "mg"})
    s = hardpoint.parse_scenario(data)
    import hardpoint.carwars.batch as hb

    hb._warned.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run_batch(s, 1, 1)
        run_batch(s, 1, 2)
    assert [str(w.message) for w in caught if issubclass(w.category, BackendWarning)] == [
        "hardpoint.carwars.batch: a weapon switched to or from automatic that a planned attack also fires; "
        "running the reference"]
    with pytest.raises(hardpoint.ScenarioError, match="switched to or from automatic"):
        run_batch(s, 1, 1, backend="compiled")


def test_arch_04_environment_forces_the_reference(monkeypatch):
    """ARCH-04: HARDPOINT_BACKEND=reference runs the batch on the reference, with the same results."""
    s = hardpoint.load_scenario("builtin:default")
    com = run_batch(s, 50, 9)
    monkeypatch.setenv("HARDPOINT_BACKEND", "reference")
    ref = run_batch(s, 50, 9)
    assert (com.backend, ref.backend) == ("compiled", "reference")
    np.testing.assert_array_equal(com.state, ref.state)


def test_fast_03_dask_local_cluster_matches_one_process():
    """FAST-03: the batch spread over a Dask LocalCluster (two worker processes, uneven chunks) is identical to
    the single-process result."""
    distributed = pytest.importorskip("distributed")
    from hardpoint.carwars.batch import run_batch_dask

    s = hardpoint.load_scenario("builtin:default")
    local = run_batch(s, 5000, 21, end_of_turn=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            spread = run_batch_dask(s, 5000, 21, client=client, chunk=1237, end_of_turn=True)
    np.testing.assert_array_equal(local.state, spread.state)
    np.testing.assert_array_equal(local.hit, spread.hit)
    np.testing.assert_array_equal(local.flags, spread.flags)


def test_fast_01_multi_turn_reference_batch():
    """FAST-01: a multi-turn scenario batch runs every trial through the turns on the reference."""
    s = hardpoint.load_scenario("builtin:cw_chase")
    b = run_batch(s, 3, 4, backend="reference")
    assert b.backend == "reference" and b.hit.shape == (3, 4)
    from hardpoint.carwars.batch import _slots, reference_trial

    _, arena, _ = reference_trial(s, 4, 2)
    assert list(b.state[2]) == _slots(s)[2](arena)
    assert (b.state[2] != b.initial).any()


def test_fast_02_compiled_batch_estimates_sit_inside_the_exact_odds():
    """FAST-02 / FAST-01: 200,000 compiled trials of one attack (the shogun's turret laser at the outrider from its
    sidecar side): the hit rate, every damage total and every component's chance of destruction agree with the exact
    distribution within 4 standard errors; nothing the exact odds call impossible happens."""
    data = {"scenario": {"name": "laser at a sidecar", "ruleset": "carwars"},
            "vehicle": [{"id": "car", "design": "shogun", "x": 3.0, "y": 0.0, "facing": 270.0},
                        {"id": "bike", "design": "outrider", "x": 0.0, "y": 0.0, "speed": 30}],
            "attack": [{"id": "shot", "attacker": "car", "weapon": "laser", "firer": "gunner", "target": "bike"}]}
    s = hardpoint.parse_scenario(data)
    exact = hardpoint.exact_attack(s, "shot")
    n = 200_000
    b = run_batch(s, n, 77, backend="compiled")

    def check(observed_count, p):
        p = float(p)
        se = max((p * (1 - p) / n) ** 0.5, 1e-12)
        assert abs(observed_count / n - p) <= 4 * se + (0 if p else 0), (observed_count / n, p)

    check(int(b.hit[:, 0].sum()), exact.p_hit)
    for total, p in exact.damage.items():
        check(int((b.damage[:, 0] == total).sum()), p)
    names = {"bike front armour": "front armour", "bike power plant": "power plant", "bike weapon mg": "weapon mg",
             "bike tire front": "tire front", "bike tire back": "tire back", "bike sidecar right armour": "sidecar right armour",
             "bike driver": "crew driver", "bike passenger": "sidecar crew passenger", "bike weapon sc_lmg": "sidecar weapon sc_lmg"}
    dest = b.destroyed()
    for label, key in names.items():
        j = b.labels.index(label)
        p = exact.destroyed.get(key, 0)
        if b.initial[j] > 0:
            check(int(dest[:, j].sum()), p)


@pytest.mark.parametrize("backend", BACKENDS)
def test_fast_01_summary_mode_keeps_counts_not_arrays(backend):
    """FAST-01: keep="summary" keeps only counts, equal to those of the full arrays, whatever the threads."""
    s = hardpoint.load_scenario("builtin:default")
    n = 3000 if backend == "compiled" else 300
    full = run_batch(s, n, 8, end_of_turn=True, backend=backend)
    lean = run_batch(s, n, 8, end_of_turn=True, backend=backend, keep="summary", threads=2, chunk=257)
    assert lean.state is None and lean.trials == n
    for key, value in full.counts().items():
        np.testing.assert_array_equal(value, lean.counts()[key])
    assert full.summary() == lean.summary()



def test_fast_01_summary_counts_people_dead_before_the_first_die():
    """FAST-01: counted mode looks only at the slots a trial wrote, and adds the ones every trial starts with
    destroyed when it flushes its counts; a pedestrian dead before the start, one wounded who dies in some trials,
    and the default scenario's people are counted as the full arrays count them (whatever the chunks)."""
    import tomllib
    from importlib import resources

    doc = tomllib.loads((resources.files("hardpoint.seeds") / "scenarios" / "default.toml").read_text())
    doc["pedestrian"] += [{"id": "dead", "x": 9.0, "y": 9.0, "hits": 3},
                          {"id": "hurt", "x": 2.0, "y": 6.5, "hits": 2},
                          {"id": "sniper", "x": 2.0, "y": 3.0, "weapons": ["Rifle"]}]
    doc["attack"].append({"id": "rifle_at_hurt", "turn": 1, "phase": 5, "attacker": "sniper", "weapon": "Rifle",
                          "target": "hurt"})
    s = hardpoint.parse_scenario(doc)
    assert supports_compiled(s) is None
    full = run_batch(s, 3000, 5, end_of_turn=True, backend="compiled", threads=1)
    lean = run_batch(s, 3000, 5, end_of_turn=True, backend="compiled", keep="summary", threads=2, chunk=333)
    counts = full.counts()
    for key, value in counts.items():
        np.testing.assert_array_equal(value, lean.counts()[key], err_msg=key)
    assert full.summary() == lean.summary()
    destroyed = dict(zip(full.labels, counts["destroyed"]))
    assert destroyed["dead"] == 3000                         # every trial, though no trial writes its slot
    assert 0 < destroyed["hurt"] < 3000                      # the trials in which the sniper's hit kills him
    ref = run_batch(s, 200, 5, end_of_turn=True, backend="reference")
    np.testing.assert_array_equal(ref.state, full.state[:200])


def test_fast_01_counted_mode_sums_damage_past_the_last_bin():
    """FAST-01: counted mode keeps one count per attack, by hit and damage bin, and works the hits and damage sums out
    of them when it flushes; damage of DMG_BINS - 1 and more shares the last bin, so its sums are kept exactly as it
    comes. With the rocket's damage raised to 11d+10 (21 to 76), its hits, damage sum, sum of squares and histogram
    in counted mode are those of the full arrays of the same trials."""
    from hardpoint.carwars import _layout
    from hardpoint.carwars.batch import _SLOT_KIND, DMG_BINS, pack

    s = hardpoint.load_scenario("builtin:default")
    p = pack(s)
    a = dict(p.arrays)
    a["atk"] = a["atk"].copy()
    a["atk"][2, _layout.ATK_DMG_COUNT], a["atk"][2, _layout.ATK_DMG_BONUS] = 11, 10
    A, S, V, n = a["atk"].shape[0], a["init"].shape[0], a["v_armour"].shape[0], 4000
    state, hit = np.zeros((n, S), np.int32), np.zeros((n, A), np.uint8)
    dmg, flags = np.zeros((n, A), np.int32), np.zeros((n, V), np.uint8)
    assert fast.run_phase(3, 0, a, 1, state, hit, dmg, flags, n_phases=p.phases) == 0
    kinds = np.array([_SLOT_KIND[k] for k in p.kinds], dtype=np.int32)
    acc = np.zeros(3 * A + S + 4 * V + DMG_BINS * A, dtype=np.int64)
    scratch = (np.zeros((1, S), np.int32), np.zeros((1, A), np.uint8), np.zeros((1, A), np.int32), np.zeros((1, V), np.uint8))
    assert fast.run_phase(3, 0, a, 1, *scratch, n, 0, kinds, acc, p.phases) == 0
    assert (dmg[:, 2] >= DMG_BINS - 1).any() and (0 < dmg[:, 2]).any() and (dmg[:, 2] < DMG_BINS - 1).any()
    np.testing.assert_array_equal(acc[:A], hit.sum(axis=0))
    np.testing.assert_array_equal(acc[A:2 * A], dmg.sum(axis=0, dtype=np.int64))
    np.testing.assert_array_equal(acc[2 * A:3 * A], (dmg.astype(np.int64) ** 2).sum(axis=0))
    hist = acc[3 * A + S + 4 * V:].reshape(A, DMG_BINS)
    for j in range(A):
        np.testing.assert_array_equal(hist[j], np.bincount(np.minimum(dmg[:, j], DMG_BINS - 1), minlength=DMG_BINS))


def test_fast_01_a_planned_attack_the_rules_cancel_runs_on_both_backends():
    """FAST-01 / ARCH-03: a planned attack the rules cancel when its phase comes (the car has driven past its target:
    at 40 mph it is 3" up the road after phase 3, the pedestrian 2.2" up and 0.6" aside is behind it, out of the front
    MG's arc) fires nothing; the batch runs on both backends and they agree."""
    data = {"scenario": {"name": "cancelled", "ruleset": "carwars", "turns": 1},
            "vehicle": [{"id": "car", "design": "hunter", "speed": 40}],
            "pedestrian": [{"id": "p", "x": 0.6, "y": 2.2, "weapons": ["Rifle"]}, {"id": "q", "x": -3.0, "y": 0.0, "weapons": ["Rifle"]}],
            "attack": [{"id": "a", "attacker": "car", "weapon": "mg", "target": "p", "turn": 1, "phase": 4},
                       {"id": "b", "attacker": "q", "weapon": "Rifle", "target": "car", "turn": 1, "phase": 3}]}
    s = hardpoint.parse_scenario(data)
    assert supports_compiled(s) is None
    ref = run_batch(s, 50, 2, backend="reference")
    com = run_batch(s, 50, 2, backend="compiled", threads=1)
    a, b = ref.attacks.index("a"), ref.attacks.index("b")
    assert not ref.hit[:, a].any() and ref.hit[:, b].any()
    np.testing.assert_array_equal(ref.hit, com.hit)
    np.testing.assert_array_equal(ref.state, com.state)


def test_cw_link_01_a_link_fired_over_turns_has_a_column_per_weapon():
    """CW-LINK-01 / FIGHT-05: in a scenario of turns a planned attack with a link rolls once per weapon it fires,
    and the batch has a column per weapon (<attack>/<weapon>, as a single phase names them), with its hits and
    damage; a fight counts each weapon's shots against that weapon. (The columns were the link's one id, never
    hit, and the fight counted no shot.)"""
    data = {"scenario": {"name": "link", "ruleset": "carwars", "turns": 2, "until": "decided"},
            "vehicle": [{"id": "car", "design": "hunter", "x": 0.0, "y": 0.0, "side": "a",
                         "weapon": [{"id": "mg1", "type": "Machine Gun", "mount": "front", "ammo": 20},
                                    {"id": "mg2", "type": "Machine Gun", "mount": "front", "ammo": 20}],
                         "links": [{"id": "both", "weapons": ["mg1", "mg2"]}]},
                        {"id": "bike", "design": "razor", "x": 0.0, "y": 4.0, "side": "b"}],
            "attack": [{"id": "a1", "turn": 1, "phase": 1, "attacker": "car", "weapon": "both", "firer": "driver", "target": "bike"}]}
    s = hardpoint.parse_scenario(data)
    b = run_batch(s, 200, 1, backend="reference")
    assert b.attacks == ["a1/mg1", "a1/mg2"]
    assert 0.2 < b.hit[:, 0].mean() < 0.8 and 0.2 < b.hit[:, 1].mean() < 0.8
    assert (b.damage[b.hit == 1] > 0).all() and (b.damage[b.hit == 0] == 0).all()
    from hardpoint.carwars.batch import reference_trial

    result, _, _ = reference_trial(s, 1, 0)
    rolls = {r.attack: r for r in result.rolls}
    assert [b.hit[0, 0], b.hit[0, 1]] == [rolls["a1/mg1"].hit, rolls["a1/mg2"].hit]
    shots = dict(zip(b.fight_layout.weapons, b.fight["shots"].sum(axis=0)))
    assert shots[("car", "mg1")] == shots[("car", "mg2")] == 200


def test_cw_dmg_07_an_area_attack_over_turns_has_a_column_per_victim():
    """CW-DMG-07 / FIGHT-05: in a scenario of turns an area-effect attack rolls to hit once per intended victim, and
    the batch has a column per victim (<attack>@<victim>, as a single phase names them); a fight counts each roll as
    a shot of the weapon. (The column was the attack's one id, never hit.)"""
    data = {"scenario": {"name": "area", "ruleset": "carwars", "turns": 2, "until": "decided"},
            "vehicle": [{"id": "car", "design": "hunter", "x": 0.0, "y": 0.0, "side": "a",
                         "weapon": [{"id": "mg", "type": "Machine Gun", "mount": "front", "ammo": 20}]}],
            "pedestrian": [{"id": "p1", "x": 0.0, "y": 4.0, "side": "b", "weapons": ["Rifle"]},
                           {"id": "p2", "x": 0.6, "y": 4.0, "side": "b", "weapons": ["Rifle"]}],
            "attack": [{"id": "a1", "turn": 1, "phase": 1, "attacker": "car", "weapon": "mg", "firer": "driver", "target": "p1",
                        "victims": ["p1", "p2"]}]}
    s = hardpoint.parse_scenario(data)
    b = run_batch(s, 300, 1, backend="reference")
    assert b.attacks == ["a1@p1", "a1@p2"]
    assert 0.2 < b.hit[:, 0].mean() < 0.8 and 0.2 < b.hit[:, 1].mean() < 0.8
    shots = dict(zip(b.fight_layout.weapons, b.fight["shots"].sum(axis=0)))
    assert shots[("car", "mg")] == 600


def test_cw_dmg_06_a_grenade_s_burst_in_a_single_phase_runs_in_the_phase_kernel_as_in_the_reference():
    """CW-DMG-06 / ARCH-03: in a single phase nobody moves, so the packer finds before any die who each grenade's
    burst reaches (within 2" of the point hit, not the target, not sheltered by the car) and the one-phase kernel
    rolls the grenade's damage on each after the hit's own damage. A grenade thrown at a car with a bystander beside
    it and one behind it, another thrown at that bystander, and a rifle shot: every value of 300 trials agrees with
    the reference, with and without the end of the turn, and the kernel runs it (before, the reference ran it)."""
    data = {"scenario": {"name": "grenades", "ruleset": "carwars"},
            "vehicle": [{"id": "car", "design": "hunter", "x": 0.0, "y": 0.0}],
            "pedestrian": [{"id": "g1", "x": 0.0, "y": 3.0, "weapons": ["Rifle", "Explosive Grenade"]},
                           {"id": "g2", "x": 2.5, "y": 2.5, "weapons": ["Explosive Grenade"]},
                           {"id": "near", "x": 1.3, "y": 0.5, "weapons": ["Rifle"]},
                           {"id": "behind", "x": 0.0, "y": -1.6, "weapons": ["Rifle"], "body_armour": 2},
                           {"id": "far", "x": -4.0, "y": 4.0, "weapons": ["Rifle"]}],
            "attack": [{"id": "throw", "attacker": "g1", "weapon": "Explosive Grenade", "target": "car"},
                       {"id": "lob", "attacker": "g2", "weapon": "Explosive Grenade", "target": "near"},
                       {"id": "shot", "attacker": "near", "weapon": "Rifle", "target": "g2"}]}
    s = hardpoint.parse_scenario(data)
    assert supports_compiled(s) is None
    for end_of_turn in (False, True):
        ref = run_batch(s, 300, 5, backend="reference", end_of_turn=end_of_turn)
        com = run_batch(s, 300, 5, backend="compiled", end_of_turn=end_of_turn, threads=1)
        for key in ("hit", "damage", "state", "flags"):
            np.testing.assert_array_equal(getattr(ref, key), getattr(com, key), err_msg=key)
    b = run_batch(s, 4000, 1, backend="compiled")
    hurt = {who: float((b.state[:, b.labels.index(who)] > 0).mean()) for who in ("near", "behind", "far", "g1")}
    # the bystander beside the car takes bursts (and the lob aimed at him); the car shelters the one behind it
    assert hurt["near"] > 0.2 and hurt["behind"] == 0 and hurt["far"] == 0 and hurt["g1"] == 0, hurt


def test_cw_hit_08_after_a_collision_the_first_able_default_firer_fires_in_the_phase_kernel():
    """CW-HIT-08 / CW-ROF-02 / ARCH-03: an attack that names no firer is fired by the first able of the weapon's
    default firers (gunners, then the driver) when the phase's combat starts, after its collisions, at his own
    skill. A van's wounded gunner (+3) is knocked out by a collision in most trials: the driver then fires at his
    skill (wounded by the other collision in about half, -2 more), and with both out the attack is cancelled. Every
    value of 3,000 trials agrees with the reference, which the one-phase kernel used to leave this to."""
    data = {"scenario": {"name": "repick", "ruleset": "carwars"},
            "vehicle": [{"id": "van", "design": "shogun", "x": 0.0, "y": 0.0, "facing": 0.0,
                         "armour": {"front": 10, "back": 10, "left": 0, "right": 0, "top": 5, "underbody": 5},
                         "crew": [{"id": "driver", "role": "driver", "seat": "front_left"},
                                  {"id": "gunner", "role": "gunner", "seat": "front_right", "hits": 1, "gunner": 3}]},
                        {"id": "bike", "design": "razor", "x": 0.0, "y": 4.0}],
            "attack": [{"id": "shot", "attacker": "van", "weapon": "mg", "target": "bike"}],
            "collision": [{"id": "c1", "vehicle": "van", "side": "right", "speed": 25},
                          {"id": "c2", "vehicle": "van", "side": "left", "speed": 10}]}
    s = hardpoint.parse_scenario(data)
    assert supports_compiled(s) is None
    ref = run_batch(s, 3000, 3, backend="reference")
    com = run_batch(s, 3000, 3, backend="compiled", threads=1)
    for key in ("hit", "damage", "state", "flags"):
        np.testing.assert_array_equal(getattr(ref, key), getattr(com, key), err_msg=key)
    gunner, driver = (com.state[:, com.labels.index(f"van {c}")] for c in ("gunner", "driver"))
    gunner_fires, driver_fires = gunner < 2, (gunner >= 2) & (driver < 2)
    assert 0.1 < gunner_fires.mean() < 0.6 and 0.2 < driver_fires.mean() and ((gunner >= 2) & (driver >= 2)).any()
    assert com.hit[gunner_fires, 0].mean() > com.hit[driver_fires, 0].mean() + 0.15      # the gunner's +3
    assert not com.hit[(gunner >= 2) & (driver >= 2), 0].any()                              # cancelled
    # found in review: a passenger listed first is no default firer; the driver is the only one, whom the
    # collisions may knock out (the attack then cancelled) or wound
    data["vehicle"][0]["crew"] = [{"id": "pas", "role": "passenger", "seat": "front_right"},
                                  {"id": "driver", "role": "driver", "seat": "front_left"}]
    data["collision"][1]["speed"] = 25
    s = hardpoint.parse_scenario(data)
    ref = run_batch(s, 2000, 3, backend="reference")
    com = run_batch(s, 2000, 3, backend="compiled", threads=1)
    for key in ("hit", "damage", "state", "flags"):
        np.testing.assert_array_equal(getattr(ref, key), getattr(com, key), err_msg=key)
    passenger, driver = (com.state[:, com.labels.index(f"van {c}")] for c in ("pas", "driver"))
    assert ((passenger >= 2) & (driver < 2)).any() and com.hit[(passenger >= 2) & (driver < 2), 0].any()


def test_cw_fire_01_a_phase_starts_from_the_fire_state_carried_in():
    """CW-FIRE-01 / CW-FIRE-02 / ARCH-03: a scenario committed after a phase (resolve(..., commit=True)) carries its
    vehicles' fire state: the flamethrower's modifier, active this turn and the next three, and a component hit this
    turn whose fire roll comes at the turn's end. The next volley's batch starts from it: every value of 2,000 trials
    agrees with the reference at the end of the turn, and the van catches fire far more often than without it (the
    compiled core used to refuse any fire state carried in)."""
    data = {"scenario": {"name": "fire in", "ruleset": "carwars"},
            "vehicle": [{"id": "car", "design": "hunter", "x": 0.0, "y": 0.0, "speed": 0, "facing": 0.0,
                         "weapon": [{"id": "ft", "type": "Flamethrower", "mount": "front"}]},
                        {"id": "van", "design": "shogun", "x": 0.0, "y": 2.0, "speed": 0, "facing": 180.0,
                         "armour": {"front": 0, "back": 0, "left": 0, "right": 0, "top": 0, "underbody": 0}}],
            "attack": [{"id": "burn", "attacker": "car", "weapon": "ft", "target": "van"}]}
    s = hardpoint.parse_scenario(data)
    s.resolve(hardpoint.SeededDice(4, trial=0), commit=True)       # this seed leaves a source and a component hit
    state = s.arena.fires["van"]
    assert state.sources and state.component_hits and not state.burning and supports_compiled(s) is None
    ref = run_batch(s, 2000, 3, backend="reference", end_of_turn=True)
    com = run_batch(s, 2000, 3, backend="compiled", end_of_turn=True, threads=1)
    for key in ("hit", "damage", "state", "flags"):
        np.testing.assert_array_equal(getattr(ref, key), getattr(com, key), err_msg=key)
    fresh = run_batch(hardpoint.parse_scenario(data), 2000, 3, backend="compiled", end_of_turn=True, threads=1)
    assert (com.flags[:, 1] & 1).mean() > (fresh.flags[:, 1] & 1).mean() + 0.2
