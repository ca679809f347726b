"""Which implementation runs the hot paths: the compiled core or the reference (ARCH-04).

Chosen once, at first use: `HARDPOINT_BACKEND=reference` forces pure Python;
`compiled` insists on the compiled core; `auto` (the default) uses the
compiled core when it loads and otherwise falls back to the reference with a
single warning, never silently.
"""
from __future__ import annotations

import importlib
import os
import warnings
from functools import cache
from types import ModuleType

__all__ = ["backend_name", "compiled_module", "BackendWarning"]


class BackendWarning(RuntimeWarning):
    """The compiled core could not be loaded; the reference is used instead."""


_warned: set[str] = set()


def requested() -> str:
    value = os.environ.get("HARDPOINT_BACKEND", "auto").strip().lower()
    if value not in ("auto", "compiled", "reference"):
        from .errors import DataError
        raise DataError("expected auto, compiled or reference", field="HARDPOINT_BACKEND", value=value, rule="ARCH-04")
    return value


@cache
def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"hardpoint.fastcore.{name}")
    except ImportError as exc:
        if requested() == "compiled":
            raise
        if name not in _warned:
            _warned.add(name)
            warnings.warn(f"hardpoint: compiled kernel {name!r} not available ({exc}); using the pure-Python reference",
                          BackendWarning, stacklevel=3)
        return None


def compiled_module(name: str, backend: str | None = None) -> ModuleType | None:
    """The compiled kernel module `name`, or None when the reference must be used."""
    choice = backend or requested()
    if choice == "reference":
        return None
    return _load(name)


def backend_name(backend: str | None = None) -> str:
    return "compiled" if compiled_module("_dice", backend) is not None else "reference"
