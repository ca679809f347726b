"""pytest plugin of the mutation runner, copied into the copy as ``_hardpoint_mutation_plugin`` and loaded with ``-p``.

- ``--mutation-expect DIR``: check that the package under test imports from DIR
  (the copy), not from the editable install; exit 4 otherwise.
- ``--mutation-meta FILE``: record every test's node id, outcome, duration and
  docstring, and switch coverage.py's dynamic context to the running test's
  node id (so the coverage data maps each line to the tests that execute it);
  the package's functools caches are emptied before each test, or a cached
  result would map its lines to the first test that filled the cache only.
- ``--mutation-select FILE``: run only the node ids listed in FILE, in that order.
- ``--mutation-result FILE``: write the node id of the first failing test.
- ``--mutation-max-examples N``: cap every hypothesis test at N examples (a faster, weaker campaign).

Hypothesis runs derandomized and without its example database, so the same
mutant meets the same examples in every run.
"""
from __future__ import annotations

import importlib
import json
import os

import pytest

_state: dict = {"meta": {}, "first_failure": None}


def pytest_addoption(parser):
    group = parser.getgroup("mutation")
    group.addoption("--mutation-expect", default=None)
    group.addoption("--mutation-package", default="hardpoint")
    group.addoption("--mutation-meta", default=None)
    group.addoption("--mutation-select", default=None)
    group.addoption("--mutation-result", default=None)
    group.addoption("--mutation-max-examples", type=int, default=None)


def pytest_configure(config):
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:  # pragma: no cover - hypothesis is a test dependency
        pass
    else:
        settings.register_profile("mutation", derandomize=True, database=None, deadline=None,
                                  suppress_health_check=list(HealthCheck), print_blob=False)
        settings.load_profile("mutation")
    expect = config.getoption("--mutation-expect")
    if expect:
        name = config.getoption("--mutation-package")
        try:
            mod = importlib.import_module(name)
        except Exception:  # a mutant that breaks the import: the tests will say so
            return
        where = os.path.realpath(mod.__file__)
        if not where.startswith(os.path.realpath(expect) + os.sep):
            _write(config.getoption("--mutation-result"), {"wrong_import": where})
            pytest.exit(f"{name} imported from {where}, not from the copy {expect}", returncode=4)


def pytest_collection_modifyitems(config, items):
    cap = config.getoption("--mutation-max-examples")
    if cap:
        from hypothesis import settings

        for it in items:
            fn = getattr(it, "obj", None)
            inner = getattr(fn, "__func__", fn)
            current = getattr(inner, "_hypothesis_internal_use_settings", None)
            if current is not None and current.max_examples > cap:
                inner._hypothesis_internal_use_settings = settings(current, max_examples=cap)
    path = config.getoption("--mutation-select")
    if not path:
        return
    with open(path) as fh:
        wanted = [line.rstrip("\n") for line in fh if line.strip()]
    order = {nodeid: i for i, nodeid in enumerate(wanted)}
    kept = sorted((it for it in items if it.nodeid in order), key=lambda it: order[it.nodeid])
    deselected = [it for it in items if it.nodeid not in order]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = kept


def _coverage():
    try:
        import coverage
    except ImportError:  # pragma: no cover
        return None
    return coverage.Coverage.current()


def _clear_caches(package: str) -> None:
    """Empty every functools cache of the package, so that each test executes (and is mapped to) the code
    it depends on, not only the first test that filled a cache."""
    import sys

    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == package or name.startswith(package + ".")):
            continue
        for value in list(vars(mod).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cov = _coverage() if item.config.getoption("--mutation-meta") else None
    if cov is not None:
        _clear_caches(item.config.getoption("--mutation-package"))
        cov.switch_context(item.nodeid)
    yield
    if cov is not None:
        cov.switch_context("")


def pytest_runtest_logreport(report):
    entry = _state["meta"].setdefault(report.nodeid, {"outcome": "passed", "duration": 0.0})
    entry["duration"] += report.duration
    if report.failed:
        entry["outcome"] = "failed"
        if _state["first_failure"] is None:
            _state["first_failure"] = report.nodeid
    elif report.skipped and entry["outcome"] == "passed":
        entry["outcome"] = "skipped"


def pytest_collection_finish(session):
    for item in session.items:
        doc = getattr(getattr(item, "obj", None), "__doc__", None) or ""
        _state["meta"].setdefault(item.nodeid, {"outcome": "passed", "duration": 0.0})["doc"] = doc.strip().split("\n")[0]


def pytest_sessionfinish(session, exitstatus):
    cfg = session.config
    meta = cfg.getoption("--mutation-meta")
    if meta:
        _write(meta, _state["meta"])
    result = cfg.getoption("--mutation-result")
    if result and _state["first_failure"]:
        _write(result, {"killed_by": _state["first_failure"]})


def _write(path, data):
    if path:
        with open(path, "w") as fh:
            json.dump(data, fh, indent=1, sort_keys=True)
