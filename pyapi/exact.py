"""`hardpoint.exact`: exact odds of a scenario, for any rule set (FAST-02).

`hardpoint.exact(scenario, **query)` is the front door (`hardpoint.api.exact`).
This module is also where Car Wars' exact odds used to live: their names
(`exact_attack`, `AttackOdds`...) still import from here for one release, with
a DeprecationWarning; they live in `hardpoint.carwars.exact`. Importing this
module leaves `hardpoint.exact` callable, so the front door keeps working.
"""
import sys as _sys
import types as _types
import warnings as _warnings

_MOVED = ("MAX_PATHS", "AttackOdds", "ExactError", "component_values", "exact_attack", "exact_resolution",
          "location_outcomes", "MAX_RESOLUTION_PATHS")


class _ExactModule(_types.ModuleType):
    def __call__(self, scenario, **query):
        from .api import exact

        return exact(scenario, **query)


def __getattr__(name: str):
    if name in _MOVED:
        from .carwars import exact as _cw

        if hasattr(_cw, name):
            _warnings.warn(f"hardpoint.exact.{name} is deprecated: import it from hardpoint.carwars.exact",
                           DeprecationWarning, stacklevel=2)
            return getattr(_cw, name)
    raise AttributeError(f"module 'hardpoint.exact' has no attribute {name!r}")


_sys.modules[__name__].__class__ = _ExactModule
