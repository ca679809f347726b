"""Deprecated: many line-of-fire queries moved to `hardpoint.carwars.lof` (`hardpoint.trace_many` is unchanged).

This module keeps `from hardpoint.lof import ...` working for one release, with a DeprecationWarning.
"""
import warnings as _warnings

_warnings.warn("hardpoint.lof is deprecated: use hardpoint.carwars.lof (or hardpoint.trace_many)", DeprecationWarning,
               stacklevel=2)

from .carwars.lof import *  # noqa: E402,F401,F403
from .carwars.lof import __all__  # noqa: E402,F401
