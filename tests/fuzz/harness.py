"""What the fuzzer checks of one document (SAFE-04).

`exercise(doc, seed)` runs the document through load, explain, resolve and
both batch backends, and raises `FuzzFailure` when anything but a
HardpointError escapes, when the document handed in is changed, when a
result does not serialise, when the reference and the compiled core disagree,
or when one document takes longer than `BOUND_SECONDS` (a hang).
"""
from __future__ import annotations

import copy
import json
import time
import traceback
import warnings
from typing import Any

import numpy as np

import hardpoint
from hardpoint import HardpointError, SeededDice

__all__ = ["FuzzFailure", "exercise", "BOUND_SECONDS", "TRIALS"]

BOUND_SECONDS = 30.0
TRIALS = 4


class FuzzFailure(AssertionError):
    """A document that makes hardpoint crash, hang, lie or disagree with itself."""


def _stage(name: str, fn, doc) -> Any:
    try:
        return fn()
    except HardpointError:
        raise
    except RecursionError as exc:  # AssertionError subclasses must not hide in the generic branch
        raise FuzzFailure(f"{name}: RecursionError: {exc}\n{json.dumps(doc, default=str)[:2000]}") from exc
    except Exception as exc:
        tb = traceback.format_exc(limit=8)
        raise FuzzFailure(f"{name}: {type(exc).__name__}: {exc}\n{tb}\ndocument: {json.dumps(doc, default=str)[:4000]}") from exc


def _same(a, b, what: str, doc) -> None:
    if a is None and b is None:
        return
    if not np.array_equal(np.asarray(a), np.asarray(b)):
        raise FuzzFailure(f"reference and compiled disagree on {what}\ndocument: {json.dumps(doc, default=str)[:4000]}")


def _batches(scenario, seed: int, doc) -> str:
    from hardpoint.carwars.scenario import CarWarsScenario

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if isinstance(scenario, CarWarsScenario):
            from hardpoint.carwars import batch

            ref = batch.run_batch(scenario, TRIALS, seed, backend="reference", end_of_turn=True)
            if batch.supports_compiled(scenario) is not None:
                return "batch (reference only)"
            comp = batch.run_batch(scenario, TRIALS, seed, backend="compiled", end_of_turn=True)
            for what in ("hit", "damage", "state", "flags"):
                _same(getattr(ref, what), getattr(comp, what), what, doc)
            return "batch (both)"
        from hardpoint.asl.batch import run_asl_batch, supports_kernel

        ref = run_asl_batch(scenario, TRIALS, seed, backend="reference")
        if supports_kernel(scenario) is not None:
            return "batch (reference only)"
        comp = run_asl_batch(scenario, TRIALS, seed, backend="compiled")
        for what, a in vars(ref).items():
            if isinstance(a, np.ndarray):
                _same(a, getattr(comp, what), what, doc)
        return "batch (both)"


def exercise(doc: Any, seed: int = 1, batches: bool = True, strict: bool = True) -> str:
    """Run one document through every stage; return the last stage reached (or the HardpointError's rule).

    `strict`: a document that loads must run: a HardpointError from explain, resolve or a batch means
    something the loader should have refused at the door (SAFE-01) and is a failure.
    """
    start = time.perf_counter()
    before = copy.deepcopy(doc)
    reached = "load"
    try:
        scenario = _stage("load", lambda: hardpoint.parse_scenario(doc), doc)
        if doc != before:
            raise FuzzFailure(f"parse_scenario changed the document it was given\n{json.dumps(before, default=str)[:2000]}")
        reached = "explain"
        breakdowns = _stage("explain", scenario.explain, doc)
        _stage("explain json", lambda: json.dumps([b.to_dict() for b in breakdowns]), doc)
        _stage("explain text", lambda: scenario.render_explain().encode("utf-8"), doc)
        reached = "resolve"
        result = _stage("resolve", lambda: scenario.resolve(SeededDice(seed), seed=seed), doc)
        _stage("resolve json", lambda: json.dumps(result.to_dict()), doc)
        _stage("resolve text", lambda: scenario.render_resolve(result).encode("utf-8"), doc)
        reached = "resolved"
        if batches:
            reached = _stage("batch", lambda: _batches(scenario, seed, doc), doc)
    except HardpointError as exc:
        if not isinstance(exc, ValueError) and not isinstance(exc, LookupError):
            raise FuzzFailure(f"{reached}: {type(exc).__name__} is not a ValueError: {exc}") from exc
        if strict and reached != "load":
            raise FuzzFailure(f"{reached}: {type(exc).__name__} after the document loaded (validate it at the door): {exc}\n"
                              f"document: {json.dumps(doc, default=str)[:4000]}") from exc
        reached = f"{reached}: {type(exc).__name__} {getattr(exc, 'rule', '')}"
    elapsed = time.perf_counter() - start
    if elapsed > BOUND_SECONDS:
        raise FuzzFailure(f"one document took {elapsed:.1f} s (bound {BOUND_SECONDS} s)\n{json.dumps(doc, default=str)[:4000]}")
    return reached
