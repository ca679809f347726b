"""Car Wars rules (reference implementation): model, geometry, to-hit, phases, scenarios."""
from .attack import Attack, AttackRoll, SustainedRecord, ToHit, explain_attack, roll_attack
from .enums import Computer, CrewRole, CrewState, Light, Location, Mount, Side, Weather
from .model import Arena, Building, Cloud, Pedestrian, Vehicle, build_pedestrian, build_vehicle
from .phase import FiredThisTurn, PhaseResult, check_rate_of_fire, resolve_phase
from .scenario import CarWarsScenario
from . import fight as _fight  # noqa: F401  (registers the validator of seeds/carwars/fight.toml)
from . import handling as _handling  # noqa: F401  (registers the validators of handling.toml and maneuvers.toml)
from . import ruleset as _ruleset  # noqa: F401  (registers the rule set with the front door)

__all__ = [
    "Attack", "AttackRoll", "SustainedRecord", "ToHit", "explain_attack", "roll_attack",
    "Computer", "CrewRole", "CrewState", "Light", "Location", "Mount", "Side", "Weather",
    "Arena", "Building", "Cloud", "Pedestrian", "Vehicle", "build_pedestrian", "build_vehicle",
    "FiredThisTurn", "PhaseResult", "check_rate_of_fire", "resolve_phase", "CarWarsScenario",
]
