"""Scenarios the benchmarks share."""
import hardpoint
from hardpoint.carwars.pgo import default_fight  # noqa: F401 - the 10-turn fight (issue 14), also in the PGO training set


def stock_car_from_four_sides():
    """A stock compact (hunter) in the middle, shot at point blank by four stationary MG cars, one per side:
    every trial resolves four attacks, hitting the target's front, back, left and right."""
    firers = [("north", 0.0, 1.2, 180.0), ("south", 0.0, -1.2, 0.0), ("west", -1.2, 0.0, 90.0), ("east", 1.2, 0.0, 270.0)]
    data = {
        "scenario": {"name": "stock car hit from four sides", "ruleset": "carwars"},
        "vehicle": [{"id": "target", "design": "hunter", "speed": 0}]
        + [{"id": n, "design": "hunter", "x": x, "y": y, "facing": f, "speed": 0, "computer": "hi_res"} for n, x, y, f in firers],
        "attack": [{"id": f"{n}_mg", "attacker": n, "weapon": "mg", "target": "target"} for n, *_ in firers],
    }
    return hardpoint.parse_scenario(data)


def dice_per_trial(scenario, trials: int) -> float:
    """How many d6 the reference draws a trial, on average over the first `trials` (a floor draws as many)."""
    import hardpoint.dice as d
    from hardpoint.carwars.batch import reference_trial

    count = [0]
    original = d.SeededDice.d6

    def counting(self):
        count[0] += 1
        return original(self)

    d.SeededDice.d6 = counting
    try:
        for t in range(trials):
            reference_trial(scenario, 1, t)
    finally:
        d.SeededDice.d6 = original
    return count[0] / trials
