"""hardpoint: combat resolution for Car Wars and ASL D15, exactly as the rules say.

    >>> import hardpoint
    >>> scenario = hardpoint.load_scenario("builtin:cw_tohit_example")
    >>> [b.needed for b in scenario.explain()]
    [10]
    >>> hardpoint.parse_dice("1d-3").distribution()[0]
    Fraction(1, 2)
"""
from .data import Rules, default_rules, load_rules
from .dice import DiceExpr, DiceSource, RiggedDice, ScriptedDice, SeededDice, die_face, parse_dice
from .errors import DataError, DiceError, DiceExhausted, HardpointError, RuleViolation, ScenarioError
from .events import DamageApplied, DiceRolled, Event, Modifier, Note, StateChanged, event_from_dict
from .scenario import builtin_scenarios, load_scenario, parse_scenario, scenario_schema


def __getattr__(name: str):
    # the front door (numpy and the kernels) and hardpoint.exact load on first use, so `import hardpoint` stays light.
    if name in ("run_batch", "exact", "explain", "resolve"):
        from . import api

        return getattr(api, name)
    if name in ("BatchResult", "Outcome"):
        from . import results

        return getattr(results, name)
    if name == "run_batch_dask":
        from . import distributed

        return distributed.run_batch_dask
    if name == "exact_attack":
        from .carwars.exact import exact_attack

        return exact_attack
    if name == "trace_many":
        from .carwars.lof import trace_many

        return trace_many
    raise AttributeError(f"module 'hardpoint' has no attribute {name!r}")

__version__ = "0.1.0"

__all__ = [
    "Rules", "default_rules", "load_rules",
    "DiceExpr", "DiceSource", "RiggedDice", "ScriptedDice", "SeededDice", "die_face", "parse_dice",
    "DataError", "DiceError", "DiceExhausted", "HardpointError", "RuleViolation", "ScenarioError",
    "DamageApplied", "DiceRolled", "Event", "Modifier", "Note", "StateChanged", "event_from_dict",
    "builtin_scenarios", "load_scenario", "parse_scenario", "scenario_schema",
    "run_batch", "run_batch_dask", "exact", "explain", "resolve", "BatchResult", "Outcome", "exact_attack", "trace_many",
]
