"""Deprecated: Car Wars batches moved to `hardpoint.carwars.batch`; the front door is `hardpoint.run_batch`.

This module keeps `from hardpoint.batch import ...` working for one release, with a DeprecationWarning.
"""
import warnings as _warnings

_warnings.warn("hardpoint.batch is deprecated: use hardpoint.run_batch (any rule set) or hardpoint.carwars.batch",
               DeprecationWarning, stacklevel=2)

from .carwars.batch import *  # noqa: E402,F401,F403
from .carwars.batch import __all__  # noqa: E402,F401
