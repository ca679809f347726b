"""Dropped weapons, hand-worked (CW-DROP-01..03, -06): placement in reverse, ammunition, counter ids, the adjacent
squares, the area a moving vehicle sweeps, spikes and mines going off (with the rolls' exact odds), and water backing
up into a weapon fired in it, with the roll's exact odds.

Each test forces its case (scripted dice) and asserts the outcome and the events. Source lines name the SPEC id and
the project's dropped-weapon table (footprints and the adjacent square are its defaults: the seeds give none).
"""
import math
from fractions import Fraction

import pytest

import hardpoint
from hardpoint import RuleViolation, ScriptedDice
from hardpoint.carwars import geometry as geo
from hardpoint.carwars.dropped import DroppedCounter, contact, counter_id, drop_weapon, mines_effect, placement_counter, spikes_effect
from hardpoint.carwars.enums import Mount, Side
from hardpoint.carwars.model import Arena, build_vehicle
from hardpoint.carwars.tables import weapon_spec

RULES = hardpoint.default_rules()


def vehicle(**kw):
    return build_vehicle(RULES, {"id": "v", "design": "hunter", **kw})


def square(x0, y0, x1, y1):
    return geo.Polygon(((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


class Recording(ScriptedDice):
    """Scripted dice that also record each chance point's exact outcomes (what the exact enumerator would branch on)."""

    def __init__(self, faces):
        super().__init__(faces)
        self.points = []

    def chance(self, point):
        self.points.append([(o[0].total, o[2]) for o in point.outcomes()])
        return point.draw(self)


# --- CW-DROP-01 --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("speed", [-1, -0.5, -30])
def test_cw_drop_01_any_reverse_speed_swaps_front_and_back(speed):
    """CW-DROP-01: in reverse (any speed below 0) a back-mounted mine goes where a front one would going forward: its
    front edge on the car's front, centre at (0, 0.25) for the 1" hunter. Source: SPEC CW-DROP-01 (reversed when
    moving in reverse)."""
    c = placement_counter(RULES, vehicle(speed=speed), Mount.BACK, "mines")
    assert (round(c.cx, 9), round(c.cy, 9)) == (0.0, 0.25)


@pytest.mark.parametrize("mount,speed,centre,facing", [
    (Mount.FRONT, 40, (0.25, 0.0), 90.0), (Mount.BACK, 40, (-0.25, 0.0), 90.0), (Mount.UNDERBODY, 40, (-0.25, 0.0), 90.0),
    (Mount.TOP, 40, (-0.25, 0.0), 90.0), (Mount.LEFT, 40, (-0.25, 0.5), 90.0), (Mount.RIGHT, 40, (-0.25, -0.5), 90.0),
    (Mount.BACK, -20, (0.25, 0.0), 90.0), (Mount.FRONT, 0, (0.75, 0.0), 90.0), (Mount.BACK, 0, (-0.25, 0.0), 90.0),
    (Mount.LEFT, 0, (0.0, 0.5), 180.0), (Mount.RIGHT, 0, (0.0, -0.5), 180.0), (Mount.UNDERBODY, 0, (0.0, 0.0), 90.0),
])
def test_cw_drop_01_placement_turns_with_a_car_facing_across_the_grid(mount, speed, centre, facing):
    """CW-DROP-01: the counter lines up with the car, not with the grid. The hunter (1" x 1/2") at the origin faces
    90 (east): its local (x to its right, y ahead) is the world's (y, -x). A 1/2" mine counter, moving: front
    (0, 0.25) local -> (0.25, 0); back, underbody, top (0, -0.25) -> (-0.25, 0); left (-0.5, -0.25) -> (-0.25, 0.5);
    right (0.5, -0.25) -> (-0.25, -0.5); all facing 90 like the car. In reverse the back mount goes where the
    front one would: (0.25, 0). Standing: front straight out (0, 0.75) -> (0.75, 0); back as moving; left and right
    straight out (-/+0.5, 0) -> (0, +/-0.5), turned across the car (180); underbody centred.
    Source: CW seed, Dropped Weapons (counter aligned with the car; where each mount places it)."""
    c = placement_counter(RULES, vehicle(facing=90.0, speed=speed), mount, "mines")
    assert (c.cx, c.cy) == pytest.approx(centre, abs=1e-9) and c.facing == pytest.approx(facing, abs=1e-9)
    assert (c.length, c.width) == (0.5, 0.5)


def test_cw_drop_01_a_counter_dropped_at_30_degrees_has_its_corners_turned_with_the_car():
    """CW-DROP-01: a car facing 30 drops its back minedropper, moving: the 1/2" counter's front edge lies across the
    car's centre and its back edge on the car's back, turned 30 like the car. With r = sqrt(3), sin 30 = 1/2,
    cos 30 = r/2: the centre is local (0, -1/4) -> (-1/8, -r/8); its corners (front-left, front-right,
    back-right, back-left) are (-r/8, 1/8), (r/8, -1/8), ((r - 2)/8, -(1 + 2r)/8), (-(r + 2)/8, (1 - 2r)/8): the
    front edge's middle is the origin and the back edge's middle (-1/4, -r/4), the middle of the car's back.
    An oil counter (1/2" x 1") from the right side of a car facing 90, moving, lies along the car: centre local
    (0.5, -0.5) -> (-0.5, -0.5), corners (0, -0.25), (0, -0.75), (-1, -0.75), (-1, -0.25): 1" along x, the heading.
    The polygon drop_weapon lays is the same outline. Source: CW seed, Dropped Weapons (counter aligned with the car)."""
    r = math.sqrt(3)
    v = vehicle(facing=30.0, speed=40)
    c = placement_counter(RULES, v, Mount.BACK, "mines")
    assert (c.cx, c.cy, c.facing) == pytest.approx((-1 / 8, -r / 8, 30.0), abs=1e-9)
    corners = [(-r / 8, 1 / 8), (r / 8, -1 / 8), ((r - 2) / 8, -(1 + 2 * r) / 8), (-(r + 2) / 8, (1 - 2 * r) / 8)]
    assert [p for corner in c.corners() for p in corner] == pytest.approx([p for corner in corners for p in corner], abs=1e-9)
    _, counter = drop_weapon(RULES, Arena(vehicles={"v": v}), v, v.weapon("md"), "c1", ScriptedDice([]))
    assert [p for vertex in sorted(counter.polygon.vertices) for p in vertex] == pytest.approx(
        [p for corner in sorted(corners) for p in corner], abs=1e-9)
    oil = placement_counter(RULES, vehicle(facing=90.0, speed=40), Mount.RIGHT, "oil")
    assert [p for corner in oil.corners() for p in corner] == pytest.approx([0.0, -0.25, 0.0, -0.75, -1.0, -0.75, -1.0, -0.25], abs=1e-9)


def test_cw_drop_01_no_drop_without_ammunition():
    """CW-DROP-01 / CW-VEH-03: a minedropper with no shots left cannot drop: refused, no counter, no ammunition event,
    nothing changes; with one shot left it drops and is at 0."""
    v = vehicle(speed=30, weapon=[{"id": "md", "type": "Minedropper", "mount": "back", "ammo": 0}])
    arena = Arena(vehicles={"v": v})
    with pytest.raises(RuleViolation, match="out of ammunition.*CW-VEH-03"):
        drop_weapon(RULES, arena, v, v.weapon("md"), "c1", ScriptedDice([]))
    assert v.weapon("md").ammo == 0 and arena.counters == []
    v.weapon("md").ammo = 1
    events, counter = drop_weapon(RULES, arena, v, v.weapon("md"), "c1", ScriptedDice([]))
    assert [(e.subject, e.field, e.before, e.after) for e in events if e.kind == "state"] == [("v md", "ammo", 1, 0)]
    assert counter.id == "c1" and v.weapon("md").ammo == 0


# --- CW-DROP-02: the counter and its adjacent squares ------------------------------------------------------------

def _counter():
    # a 1/2" square centred on the origin: its adjacent squares (1/4" all round) reach out to 0.5 on every side
    return DroppedCounter("c", "spikes", "Spikedropper", square(-0.25, -0.25, 0.25, 0.25), 1)


@pytest.mark.parametrize("area,expected", [
    (square(0.2, -0.1, 0.4, 0.1), "on"),          # overlaps the counter
    (square(0.45, -0.1, 0.6, 0.1), "adjacent"),   # inside the adjacent squares to the right (0.25..0.5)
    (square(0.55, -0.1, 0.7, 0.1), None),         # just beyond them
    (square(-0.6, -0.1, -0.45, 0.1), "adjacent"),
    (square(-0.1, 0.45, 0.1, 0.6), "adjacent"),   # above
    (square(-0.1, 0.55, 0.1, 0.7), None),
    (square(-0.1, -0.7, 0.1, -0.55), None),       # below
    (square(0.45, 0.45, 0.6, 0.6), "adjacent"),   # the corner square
    (square(0.55, 0.55, 0.7, 0.7), None),
])
def test_cw_drop_02_the_adjacent_squares_are_one_quarter_inch_all_round(area, expected):
    """CW-DROP-02: a counter's adjacent squares are one 1/4" square all round it: for a 1/2" counter on the origin an
    area reaching x = 0.45 (or y = 0.45, or the corner) touches them, one stopping at 0.55 does not. Source: SPEC
    CW-DROP-02 (crossing only an adjacent square); dropped-weapon table, adjacent = 0.25."""
    assert contact(RULES, area, _counter()) == expected


@pytest.mark.parametrize("area,expected", [
    (square(1.9, 2.55, 2.1, 2.7), "adjacent"),    # below (2.5..2.75)
    (square(2.3, 2.9, 2.45, 3.1), "adjacent"),    # to the right (2.25..2.5)
    (square(1.9, 3.3, 2.1, 3.45), "adjacent"),    # above
    (square(1.9, 2.4, 2.1, 2.45), None),          # below, beyond them
])
def test_cw_drop_02_the_adjacent_squares_surround_a_counter_wherever_it_lies(area, expected):
    """CW-DROP-02: the adjacent squares are one 1/4" square all round the counter wherever it lies: a 1/2" counter
    centred on (2, 3) (x 1.75..2.25, y 2.75..3.25) has them out to x 1.5..2.5 and y 2.5..3.5, below and to the right
    as much as above. Source: SPEC CW-DROP-02; dropped-weapon table, adjacent = 0.25."""
    counter = DroppedCounter("c", "spikes", "Spikedropper", square(1.75, 2.75, 2.25, 3.25), 1)
    assert contact(RULES, area, counter) == expected


@pytest.mark.parametrize("x", [-0.4, 0.4])
def test_cw_drop_02_a_counter_under_one_edge_of_the_path_is_crossed(x):
    """CW-DROP-02: the area a vehicle covers in a phase is the whole of its path, both edges: at 120 mph the hunter
    (1/2" wide, x from -0.25 to 0.25) sweeps from y = 0 to y = 3; a spike counter centred at (x, 1.5) with x = -0.4 or
    0.4 lies under 0.1" of the path's left or right edge: crossed ("on", 1-4), not only adjacent."""
    s = hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars", "turns": 1},
                                  "vehicle": [{"id": "v", "design": "hunter", "speed": 120}],
                                  "counter": [{"id": "sp", "weapon": "Spikedropper", "x": x, "y": 1.5, "width": 0.5,
                                               "length": 0.5}]})
    r = s.resolve(ScriptedDice([5]))
    assert [(e.why, e.total) for e in r.events if e.kind == "dice"] == [("v crosses sp (on): spikes bite on 1-4", 5)]


def test_cw_drop_02_a_counter_passed_over_between_two_positions_is_crossed():
    """CW-DROP-02 / CW-DROP-04: a vehicle checks what it crosses in its movement, not only where it stops: at 120 mph
    the hunter moves 3" in phase 1 (from y = 0 to y = 3), clean over a spike counter centred at y = 1.5 that neither
    its start nor its end touches: it rolls for crossing it ("on", 1-4), in phase 1. Source: movement chart (12"
    a turn, 3 in phase 1); SPEC CW-DROP-02."""
    from hardpoint.carwars.turn import phase_distances

    assert phase_distances(RULES, 120) == [3.0, 2.0, 3.0, 2.0, 2.0]
    s = hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars", "turns": 1},
                                  "vehicle": [{"id": "v", "design": "hunter", "speed": 120}],
                                  "counter": [{"id": "sp", "weapon": "Spikedropper", "x": 0, "y": 1.5, "width": 0.5,
                                               "length": 0.5}]})
    r = s.resolve(ScriptedDice([5]))
    rolls = [(e.why, e.total, e.rule) for e in r.events if e.kind == "dice"]
    assert rolls == [("v crosses sp (on): spikes bite on 1-4", 5, "CW-DROP-02")]
    phase2 = next(i for i, e in enumerate(r.events) if e.kind == "note" and e.text == "turn 1, phase 2")
    assert next(i for i, e in enumerate(r.events) if e.kind == "dice") < phase2


# --- CW-DROP-06: water -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("roll,backs_up", [(1, True), (2, True), (3, False), (6, False)])
def test_cw_drop_06_water_backs_up_on_1_or_2(roll, backs_up):
    """CW-DROP-06: a dropped weapon fired in water rolls 1d: on 1-2 water backs up into it and it takes 1d-3 (a 6:
    3 hits, of which the minedropper's 2 DP take 2, 2 -> 0); on 3-6 nothing. The roll's exact odds are two classes: backs up 2 in 6,
    not 4 in 6. Source: SPEC CW-DROP-06 (1d: on 1-2 it takes 1d-3 damage)."""
    v = vehicle(water_depth_ft=1.0, weapon=[{"id": "md", "type": "Minedropper", "mount": "back", "ammo": 10}])
    dp = v.weapon("md").dp
    dice = Recording([roll, 6])
    events, counter = drop_weapon(RULES, Arena(vehicles={"v": v}), v, v.weapon("md"), "c1", dice)
    assert [sorted(x[1] for x in p) for p in dice.points] == [[Fraction(1, 3), Fraction(2, 3)]]
    assert sorted(x[0] for x in dice.points[0]) in ([1, 3], [2, 3], [1, 4], [2, 4], [1, 5], [2, 5], [1, 6], [2, 6])
    rolls = [(e.why, e.total) for e in events if e.kind == "dice"]
    damage = [(e.component, e.hits, e.before, e.after) for e in events if e.kind == "damage"]
    if backs_up:
        assert rolls == [("md fired in water: does water back up", roll), ("md: water damage", 3)]
        assert dp == 2 and damage == [("weapon md", 2, 2, 0)]
    else:
        assert rolls == [("md fired in water: does water back up", roll)] and damage == []
        assert v.weapon("md").dp == dp
    assert counter.hidden


def test_cw_drop_06_flaming_oil_dropped_in_water_ignites_but_disperses():
    """CW-DROP-06: flaming oil dropped in water ignites but disperses: the counter is laid (not hidden, as spikes and
    mines would be) but is inert: a vehicle running onto it meets no slick, no D1 hazard and no fire damage.

    Hand-worked: a hunter at 20 mph in 1 ft of water drops its back flaming oil jet (1d-2, 25 shots): the water's
    1d is 4 (only 1-2 back up), so no damage to the jet; one shot spent (25 -> 24); the note says it ignites but
    disperses. A second hunter whose counter lies on the slick: not on oil (no +D2, CW-DROP-04), and running onto
    it yields the one note of the dispersed slick, with no die rolled, no hazard, no damage. The same drop on dry
    ground, for contrast: a live slick; running onto it is a D1 hazard and rolls the jet's 1d-2 on the underbody
    and on each of the four tires (5 dice). Source: CW seed, Water (flaming oil ignites but disperses)."""
    from hardpoint.carwars.dropped import oil_effect, on_oil

    jet = [{"id": "fo", "type": "Flaming Oil Jet", "mount": "back", "ammo": 25}]
    v = vehicle(speed=20, water_depth_ft=1.0, weapon=jet)
    other = build_vehicle(RULES, {"id": "o", "design": "hunter", "y": 0.5, "speed": 20})
    arena = Arena(vehicles={"v": v, "o": other})
    dice = ScriptedDice([4])
    events, counter = drop_weapon(RULES, arena, v, v.weapon("fo"), "c1", dice)
    assert dice.remaining == 0 and v.weapon("fo").dp == 3
    assert [(e.subject, e.field, e.before, e.after) for e in events if e.kind == "state"] == [("v fo", "ammo", 25, 24)]
    assert ("Flaming Oil Jet in water: ignites but disperses", "CW-DROP-06") in [(e.text, e.rule) for e in events if e.kind == "note"]
    assert (counter.kind, counter.inert, counter.hidden) == ("flaming_oil", True, False)
    arena.counters.append(counter)
    assert not on_oil(arena, other)
    met = oil_effect(RULES, other, counter, v.weapon("fo").spec, ScriptedDice([]))
    assert [(e.kind, e.text, e.rule) for e in met] == [("note", "o crosses c1: dispersed in water, no effect", "CW-DROP-06")]
    assert other.hazard_difficulty == 0 and other.phase_hazards == [] and other.armour[Side.UNDERBODY] == 10
    dry = vehicle(speed=20, weapon=jet)
    _, live = drop_weapon(RULES, Arena(vehicles={"v": dry}), dry, dry.weapon("fo"), "c2", ScriptedDice([]))
    assert not live.inert
    other = build_vehicle(RULES, {"id": "o", "design": "hunter", "y": 0.5, "speed": 20})
    burn = ScriptedDice([6, 6, 6, 6, 6])
    met = oil_effect(RULES, other, live, dry.weapon("fo").spec, burn)
    assert burn.remaining == 0 and other.hazard_difficulty == 1 and other.armour[Side.UNDERBODY] == 10 - 4


def test_cw_drop_01_top_mounted_moving_is_placed_as_the_underbody():
    """CW-DROP-01: moving, a top-mounted dropper's counter is centred with its front edge at the car's centre, as an
    underbody one: a 1/2" mine counter at (0, -0.25). Source: SPEC CW-DROP-01 (underbody/top)."""
    c = placement_counter(RULES, vehicle(speed=40), Mount.TOP, "mines")
    assert (round(c.cx, 9), round(c.cy, 9), c.length, c.width) == (0.0, -0.25, 0.5, 0.5)


def test_cli_02_a_third_counter_of_one_weapon_in_a_phase_is_numbered_from_2():
    """CLI-02 / CW-DROP-01: what a drop lays is <weapon>.t<turn>p<phase>; taken, <vehicle>.<weapon>.t<turn>p<phase>;
    taken too, <vehicle>.<weapon>.<n>.t<turn>p<phase> with n from 2 (the third counter of the phase), then 3."""
    v = vehicle()
    md = v.weapon("md")
    arena = Arena(vehicles={"v": v}, turn=1, phase=3)
    ids = []
    for _ in range(4):
        ids.append(counter_id(arena, v, md))
        arena.counters.append(DroppedCounter(ids[-1], "mines", "Minedropper", square(-0.25, -0.25, 0.25, 0.25), 1))
    assert ids == ["md.t1p3", "v.md.t1p3", "v.md.2.t1p3", "v.md.3.t1p3"]


def test_cw_drop_03_a_counter_id_names_what_laid_it_before_its_time():
    """CW-DROP-03 / CLI-02: `dropped.counter_base` reads back what every form `counter_id` makes names before the
    time: the weapon, or the vehicle and weapon (with or without the count of a third counter in one phase)."""
    from hardpoint.carwars.dropped import counter_base

    assert counter_base("md.t1p3") == "md" and counter_base("md.t12p5") == "md"
    assert counter_base("v2.md.t1p3") == "v2.md" and counter_base("v2.md.3.t1p3") == "v2.md"


def test_cw_drop_02_04_spikes_stay_and_a_vehicle_coming_back_checks_again():
    """CW-DROP-02 / CW-DROP-04: a vehicle checks a counter once, the phase it first touches it, and again only if it
    leaves and comes back; spikes stay on the map after biting. `turn._contacts` phase by phase on a 1/2" spike
    counter at the origin: the hunter's counter (1/2" x 1") on it in phase 1 (a roll, 1: they bite, each of its four
    tires 1d), still on it in phase 2 (no roll), off it in phase 3, back on it in phase 4 (a second roll, 6: nothing).
    Source: CW seed, Dropped Weapons (each vehicle checks once per counter; again on returning; spikes stay)."""
    from hardpoint.carwars import geometry as geo
    from hardpoint.carwars.dropped import DroppedCounter
    from hardpoint.carwars.model import Arena, build_vehicle
    from hardpoint.carwars.turn import _contacts

    v = build_vehicle(RULES, {"id": "v", "design": "hunter"})
    spikes = DroppedCounter("sp", "spikes", "Spikedropper", geo.Polygon.box(-0.25, -0.25, 0.25, 0.25), 1)
    arena = Arena(vehicles={"v": v}, counters=[spikes])
    touching: dict = {}
    rolls = []
    for y, dice in ((0.0, [1, 2, 2, 2, 2]), (0.1, []), (3.0, []), (0.0, [6])):
        v.y = y                                          # where it stands this phase (as if it had stood there)
        events = _contacts(RULES, arena, {"v": v.counter}, touching, ScriptedDice(dice))
        rolls.append([e.total for e in events if e.kind == "dice" and "spikes bite" in e.why])
    assert rolls == [[1], [], [], [6]]
    assert arena.counters == [spikes]                      # spikes stay
    assert [t.dp for t in v.tires] == [4, 4, 4, 4]         # 6 - 2 each from the one bite


def test_cw_drop_02_a_vehicle_still_on_one_counter_checks_a_new_one_the_same_phase():
    """CW-DROP-02: a vehicle checks each counter the phase it first touches it, whatever other counter it is still on.
    `turn._contacts` with the hunter on a 1/2" spike counter sp1 at the origin: phase 1 it rolls for sp1 (6: nothing);
    a second spike counter sp2 is laid on the same spot; phase 2 it is still on sp1 (no roll) and first on sp2: one
    roll for sp2 (6: nothing). Both contacts are counted: sp1 two phases in a row, sp2 one."""
    from hardpoint.carwars.turn import _contacts

    v = build_vehicle(RULES, {"id": "v", "design": "hunter"})
    sp1 = DroppedCounter("sp1", "spikes", "Spikedropper", square(-0.25, -0.25, 0.25, 0.25), 1)
    sp2 = DroppedCounter("sp2", "spikes", "Spikedropper", square(-0.25, -0.25, 0.25, 0.25), 1)
    arena = Arena(vehicles={"v": v}, counters=[sp1])
    touching: dict = {}
    rolls = []
    for phase in (1, 2):
        if phase == 2:
            arena.counters.append(sp2)
        events = _contacts(RULES, arena, {"v": v.counter}, touching, ScriptedDice([6]))
        rolls.append([(e.why, e.total) for e in events if e.kind == "dice"])
    assert rolls == [[("v crosses sp1 (on): spikes bite on 1-4", 6)], [("v crosses sp2 (on): spikes bite on 1-4", 6)]]
    assert touching == {("v", "sp1"): 2, ("v", "sp2"): 1}
    assert [t.dp for t in v.tires] == [6, 6, 6, 6]


def test_cw_drop_06_a_vehicle_running_onto_oil_gone_inert_in_water_meets_only_its_note():
    """CW-DROP-06 (CW-DROP-02): oil dropped in water is inert, yet a vehicle running onto it still checks it (the
    contact is counted): `turn._contacts` with the hunter on a 1/2" x 1" oil counter at the origin gone inert gives the
    one note of the dispersed slick, no die, no slick under the car (not on oil), no hazard."""
    from hardpoint.carwars.turn import _contacts

    v = build_vehicle(RULES, {"id": "v", "design": "hunter"})
    oil = DroppedCounter("o1", "oil", "Oil Jet", square(-0.25, -0.5, 0.25, 0.5), 1)
    oil.inert = True
    touching: dict = {}
    events = _contacts(RULES, Arena(vehicles={"v": v}, counters=[oil]), {"v": v.counter}, touching, ScriptedDice([]))
    assert [(e.kind, e.text, e.rule) for e in events] == [("note", "v crosses o1: dispersed in water, no effect", "CW-DROP-06")]
    assert touching == {("v", "o1"): 1}
    assert (v.on_oil, v.hazard_difficulty, v.phase_hazards) == (False, 0, [])


# --- CW-DROP-02, -03: spikes and mines going off ------------------------------------------------------------------

@pytest.mark.parametrize("where,odds", [("on", [(1, Fraction(2, 3)), (5, Fraction(1, 3))]),
                                        ("adjacent", [(1, Fraction(1, 3)), (3, Fraction(2, 3))])])
def test_cw_drop_02_spikes_bite_on_1_to_4_on_the_counter_1_to_2_beside_it(where, odds):
    """CW-DROP-02: crossing spikes, 1d: they bite on 1-4 on the counter (2/3), on 1-2 crossing only its adjacent squares
    (1/3): two outcomes, each with a roll of its class (the exact enumerator's branches). The hunter on a 1/2" counter
    at the origin rolls 1: they bite, each of its four tires 1d (2, 3, 4, 5: 6 -> 4, 3, 2, 1)."""
    v = vehicle()
    counter = DroppedCounter("c", "spikes", "Spikedropper", square(-0.25, -0.25, 0.25, 0.25), 1)
    dice = Recording([1, 2, 3, 4, 5])
    spikes_effect(RULES, v, counter, where, weapon_spec(RULES, "Spikedropper"), dice)
    assert dice.points == [odds]
    if where == "on":
        assert [t.dp for t in v.tires] == [4, 3, 2, 1] and dice.remaining == 0


@pytest.mark.parametrize("where,odds", [("on", [(1, Fraction(2, 3)), (5, Fraction(1, 3))]),
                                        ("adjacent", [(1, Fraction(1, 3)), (3, Fraction(2, 3))])])
def test_cw_drop_03_mines_go_off_on_1_to_4_and_blast_the_tires_and_the_underbody(where, odds):
    """CW-DROP-03: mines run over go off on 1-4 (2/3), crossing only the adjacent squares on 1-2 (1/3). On the counter
    the hunter rolls 4: they go off; each tire within 1" of the counter takes the minedropper's tire damage, 1d (1, 2,
    3, 4: 6 -> 5, 4, 3, 2), and its underbody the underbody damage, 2d ([1, 1] = 2: armour 10 -> 8); the counter is
    gone. Every roll is in the events, the underbody's included. Source: SPEC CW-DROP-03; weapon table (Minedropper:
    tire 1d, underbody 2d)."""
    v = vehicle()
    counter = DroppedCounter("m", "mines", "Minedropper", square(-0.25, -0.25, 0.25, 0.25), 1)
    dice = Recording([4 if where == "on" else 2, 1, 2, 3, 4, 1, 1])
    events, gone = mines_effect(RULES, Arena(vehicles={"v": v}), v, counter, where, weapon_spec(RULES, "Minedropper"), dice)
    assert dice.points == [odds] and gone and dice.remaining == 0
    assert [(e.why, e.total) for e in events if e.kind == "dice"] == [
        (f"v runs over m ({where}): mines go off on {odds[0][0]}-{odds[1][0] - 1}", 4 if where == "on" else 2),
        ("mine blast on v tire front_left", 1), ("mine blast on v tire front_right", 2),
        ("mine blast on v tire back_left", 3), ("mine blast on v tire back_right", 4), ("mine blast on v underbody", 2)]
    assert [t.dp for t in v.tires] == [5, 4, 3, 2] and v.armour[Side.UNDERBODY] == 8
