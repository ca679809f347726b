"""SAFE-04: the fuzzer's short run, part of every test run, and its regression fixtures.

Two families of about 2,500 documents each (HARDPOINT_FUZZ_EXAMPLES sets the
number per family): documents drawn from the scenario JSON Schema, and
mutations of the built-in scenarios. Each goes through load, explain,
resolve and both batch backends (tests/fuzz/harness.py): only a
HardpointError may escape, nothing may take longer than the bound, and the
reference and the compiled core must agree. The draws are derandomised, so
every run checks the same documents; the long run (`python -m tests.fuzz`)
explores with other seeds and saves what fails into tests/fuzz/fixtures/.
"""
import json
import os
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

import hardpoint

from .harness import exercise
from .strategies import from_schema, mutated_builtin

EXAMPLES = int(os.environ.get("HARDPOINT_FUZZ_EXAMPLES", "2500"))
FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("*.json"))
_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                     suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate, Phase.shrink])


def _run(strategy) -> dict:
    seen = {"documents": 0, "past load": 0}

    @_SETTINGS
    @given(strategy)
    def check(doc):
        seen["documents"] += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reached = exercise(doc)
        if not reached.startswith("load"):
            seen["past load"] += 1

    check()
    return seen


def test_safe_04_documents_from_the_schema_never_crash_hang_or_disagree():
    """SAFE-04: documents drawn from the JSON Schema: only HardpointError escapes, within the bound, backends agree."""
    seen = _run(from_schema(hardpoint.scenario_schema()))
    assert seen["documents"] >= EXAMPLES
    assert seen["past load"] > 0, "no generated document got past the loader: the strategy tests nothing deeper"


def test_safe_04_mutated_builtins_never_crash_hang_or_disagree():
    """SAFE-04: the built-in scenarios with one to four mutations each: same checks."""
    seen = _run(mutated_builtin())
    assert seen["documents"] >= EXAMPLES
    assert seen["past load"] > EXAMPLES // 20


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_safe_04_regression_fixture(path):
    """SAFE-04: every document the fuzzer once found failing stays fixed."""
    doc = json.loads(path.read_text(encoding="utf-8"))["document"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exercise(doc)
