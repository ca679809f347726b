"""Exact odds (FAST-02): `hardpoint.exact` re-exports the Car Wars exact odds and the enumerator's error.

The implementation lives in `hardpoint.carwars.exact` (one attack, a whole
scenario) over the generic enumerator `hardpoint.chance`; this module keeps
`hardpoint.exact_attack` and `from hardpoint.exact import ...` working.
"""
from __future__ import annotations

from .carwars.exact import (MAX_PATHS, AttackOdds, ExactError, component_values, exact_attack, exact_resolution,
                            location_outcomes)

__all__ = ["AttackOdds", "ExactError", "exact_attack", "exact_resolution", "component_values", "location_outcomes",
           "MAX_PATHS"]
