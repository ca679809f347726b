"""The C interface (CAPI-01, CAPI-02, PROTO-01): libhardpoint built with cffi's embedding API, proved from C.

tests/capi/hp_check.c is compiled with the system C compiler against the library
built into a temporary folder and run as a separate program; what it wrote is
compared here with the Python API's answers for the same calls.
"""
from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys
import tomllib
from importlib import resources

import pytest

import hardpoint
from hardpoint.capi import bridge

HERE = pathlib.Path(__file__).resolve().parent
CC = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
TRIALS = 100_000
SEED = 2026
# The run and resolution scenario: the built-in default firefight (four units, one turn), given to C as a document.
SCENARIO = "default"

needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler (cc, gcc or clang) on this machine")


def _document(name: str) -> dict:
    return tomllib.loads(resources.files("hardpoint.seeds").joinpath(f"scenarios/{name}.toml").read_text("utf-8"))


def _protocol():
    try:
        from hardpoint import protocol
    except ImportError:   # TEMPORARY: until hardpoint.protocol is in the tree
        from hardpoint.capi import _direct as protocol
    return protocol


def _without_timing(doc):
    """A run document without its wall-clock seconds (the only field two equal runs may differ in)."""
    if isinstance(doc, dict):
        return {k: _without_timing(v) for k, v in doc.items() if k != "seconds"}
    if isinstance(doc, list):
        return [_without_timing(v) for v in doc]
    return doc


def _plain(value):
    """A Python API document as the C side sees it: through JSON."""
    return json.loads(json.dumps(value))


# ---- the bridge, from Python (what every C function runs) ----

def test_capi_01_a_null_pointer_is_an_input_error_naming_the_argument():
    status, text = bridge.call(bridge.OPS.index("explain"), None, 0, 0, 0, None)
    doc = json.loads(text)
    assert status == bridge.ERR_INPUT
    assert doc["format"] == "hardpoint/1" and doc["op"] == "explain"
    assert doc["error"]["field"] == "scenario_json" and doc["error"]["rule"] == "CAPI-01"
    assert "NULL" in doc["error"]["message"]


@pytest.mark.parametrize("raw, words", [
    (b"{\"builtin\": ", "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b"[1, 2]", "expected a JSON object"),
    (b"", "not valid JSON"),
])
def test_capi_01_malformed_text_is_an_input_error_with_a_clear_message(raw, words):
    status, text = bridge.call(bridge.OPS.index("resolve"), raw, 1, 0, 0, None)
    error = json.loads(text)["error"]
    assert status == bridge.ERR_INPUT
    assert error["field"] == "scenario_json" and words in error["message"]
    assert set(error) >= {"type", "field", "value", "rule", "message"}


def test_capi_01_an_unknown_op_never_raises():
    status, text = bridge.call(99, b"{}", 0, 0, 0, None)
    assert status == bridge.ERR_INPUT and "error" in json.loads(text)


def test_capi_01_a_bug_below_is_an_internal_error_document_not_an_exception(monkeypatch):
    def broken(request):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(bridge, "_handle", broken)
    status, text = bridge.call(bridge.OPS.index("version"), None, 0, 0, 0, None)
    error = json.loads(text)["error"]
    assert status == bridge.ERR_INTERNAL and error["type"] == "InternalError" and "ZeroDivisionError" in error["message"]


def test_capi_01_the_scenario_argument_is_a_document_or_a_builtin_name():
    assert bridge._scenario(b'{"builtin": "cw_tohit_example"}') == {"builtin": "cw_tohit_example"}
    doc = _document("cw_tohit_example")
    assert bridge._scenario(json.dumps(doc).encode()) == {"scenario": doc}


# ---- the library, from C ----

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Build libhardpoint and hp_check, run hp_check once; its answers are read by the tests below."""
    if CC is None:
        pytest.skip("no C compiler (cc, gcc or clang) on this machine")
    pytest.importorskip("cffi")
    from hardpoint.capi import build

    root = tmp_path_factory.mktemp("capi")
    lib = build(root / "lib")
    exe = root / "hp_check"
    subprocess.run([CC, "-O1", "-Wall", "-Werror", "-I", str(root / "lib"), str(HERE / "hp_check.c"), "-o", str(exe),
                    "-L", str(root / "lib"), "-lhardpoint", "-Wl,-rpath," + str(root / "lib"), "-pthread"],
                   check=True, capture_output=True, text=True)
    scenario = root / "scenario.json"
    scenario.write_text(json.dumps(_document(SCENARIO)), encoding="utf-8")
    out = root / "out"
    out.mkdir()
    run = subprocess.run([str(exe), str(out), str(scenario), str(TRIALS), str(SEED)], capture_output=True, text=True,
                         timeout=600)
    answers = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in out.glob("*.json")}
    return {"lib": lib, "run": run, "answers": answers}


@needs_cc
def test_capi_01_build_writes_the_library_and_the_header(built):
    lib = built["lib"]
    assert lib.name.startswith("libhardpoint.") and lib.stat().st_size > 0
    from hardpoint.capi import header_text

    assert (lib.parent / "hardpoint.h").read_text(encoding="utf-8") == header_text()
    for name in ("hp_version", "hp_schema", "hp_explain", "hp_resolve", "hp_run", "hp_exact", "hp_request", "hp_free"):
        assert f" {name}(" in header_text()


@needs_cc
def test_capi_02_the_c_program_passes_every_check_and_prints_nothing_on_stderr(built):
    run = built["run"]
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ALL OK" in run.stdout and "FAIL" not in run.stdout
    assert run.stderr == ""     # no traceback, no warning: the host's stderr is the host's


@needs_cc
def test_capi_02_golden_example_needs_10_probability_1_6(built):
    """CAPI-02. Source: Car Wars combat seed, "Targeting Modifiers" worked example (builtin cw_tohit_example):
    MG 7, targeting computer +1, point blank +4, tire -3, cycle from the side -2, night -3: needs 10, 1/6."""
    doc = built["answers"]["explain"]
    assert doc["format"] == "hardpoint/1" and doc["op"] == "explain" and "error" not in doc
    python = _protocol().handle({"id": None, "op": "explain", "builtin": "cw_tohit_example"})
    assert doc == _plain(python)
    (row,) = _breakdowns(doc["result"])
    assert row["needed"] == 10 and row["probability"] == "1/6"
    assert row == _plain(hardpoint.explain(hardpoint.load_scenario("builtin:cw_tohit_example"))[0].to_dict())


def _breakdowns(result):
    if isinstance(result, list):
        return result
    for key in ("breakdowns", "attacks", "explain"):
        if key in result:
            return result[key]
    raise AssertionError(f"no breakdowns in {sorted(result)}")


@needs_cc
def test_capi_02_seeded_resolution_gives_the_python_event_log(built):
    doc = built["answers"]["resolve"]
    assert "error" not in doc, doc
    scenario = hardpoint.parse_scenario(_document(SCENARIO))
    expected = _plain(hardpoint.resolve(scenario, seed=SEED).to_dict())
    assert doc["result"] == expected
    assert doc["result"]["events"] and doc["result"]["seed"] == SEED


@needs_cc
def test_capi_02_run_of_100000_trials_counts_what_run_batch_counts(built):
    doc = built["answers"]["run"]
    assert "error" not in doc, doc
    scenario = hardpoint.parse_scenario(_document(SCENARIO))
    expected = _plain(hardpoint.run_batch(scenario, TRIALS, seed=SEED).to_dict())
    assert doc["result"]["trials"] == TRIALS
    assert _without_timing(doc["result"]) == _without_timing(expected)
    assert [r["count"] for r in doc["result"]["probabilities"]] == [r["count"] for r in expected["probabilities"]]


@needs_cc
def test_capi_02_exact_odds_from_c(built):
    doc = built["answers"]["exact"]
    assert doc == _plain(_protocol().handle({"id": None, "op": "exact", "builtin": "cw_tohit_example",
                                                     "attack": "mg_at_tire"}))


@needs_cc
@pytest.mark.parametrize("name, field", [("err_malformed", "scenario_json"), ("err_null", "scenario_json"),
                                         ("err_utf8", "scenario_json"), ("err_builtin", None), ("err_scenario", None)])
def test_capi_02_bad_input_gives_an_error_document(built, name, field):
    doc = built["answers"][name]
    assert doc["format"] == "hardpoint/1" and "result" not in doc
    error = doc["error"]
    assert set(error) >= {"type", "field", "value", "rule", "message"} and error["message"]
    if field:
        assert error["field"] == field


@needs_cc
def test_capi_02_two_threads_at_once_get_the_python_answers(built):
    """hp_check's two threads called hp_explain, hp_resolve and hp_run at the same moment; the explain and the event
    log matched the main thread's (checked in C), each run's counts match run_batch with that thread's seed."""
    scenario = hardpoint.parse_scenario(_document(SCENARIO))
    for i in range(2):
        doc = built["answers"][f"thread{i}_run"]
        assert "error" not in doc, doc
        expected = _plain(hardpoint.run_batch(scenario, TRIALS // 2, seed=SEED + 1 + i).to_dict())
        assert _without_timing(doc["result"]) == _without_timing(expected)


@needs_cc
def test_capi_01_the_command_line_builds_the_library(tmp_path):
    from hardpoint.cli import main

    assert main(["capi", "build", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "hardpoint.h").exists() and list(tmp_path.glob("libhardpoint.*"))
