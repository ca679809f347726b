"""The C interface (CAPI-01, CAPI-02, PROTO-01): libhardpoint built with cffi's embedding API, proved from C.

tests/capi/hp_check.c is compiled with the system C compiler against the library
built into a temporary folder and run as a separate program; what it wrote is
compared here with the Python API's answers for the same calls.
"""
from __future__ import annotations

import json
import os
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
# Both threads also run this ASL built-in: 20,000 trials, Numba's parallel kernel on two threads in each.
ASL = "asl_d15_55_gun_on_cycle"

needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler (cc, gcc or clang) on this machine")


def _document(name: str) -> dict:
    return tomllib.loads(resources.files("hardpoint.seeds").joinpath(f"scenarios/{name}.toml").read_text("utf-8"))


def _protocol():
    from hardpoint import protocol

    return protocol


def _documents():
    from hardpoint import documents

    return documents


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


@pytest.mark.parametrize("raw, rule", [
    (b"[" * 100_000 + b"]" * 100_000, "SAFE-01"),          # nested past any limit
    (b'{"builtin": "' + b"x" * (9 * 1024 * 1024) + b'"}', "SAFE-01"),   # longer than a scenario file may be
    (b'{"builtin": 1e999999}', None),                        # a number JSON reads as infinity
])
def test_capi_01_oversized_input_is_refused_with_a_document(raw, rule):
    status, text = bridge.call(bridge.OPS.index("explain"), raw, 0, 0, 0, None)
    error = json.loads(text)["error"]
    assert status == bridge.ERR_INPUT and error["message"]
    if rule:
        assert error["rule"] == rule


def test_capi_01_an_unknown_op_never_raises():
    status, text = bridge.call(99, b"{}", 0, 0, 0, None)
    assert status == bridge.ERR_INPUT and "error" in json.loads(text)


def test_capi_01_a_bug_below_is_an_internal_error_document_not_an_exception(monkeypatch):
    def broken(request):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(bridge, "_handle", broken)
    status, text = bridge.call(bridge.OPS.index("version"), None, 0, 0, 0, None)
    error = json.loads(text)["error"]
    assert status == bridge.ERR_INTERNAL and error["type"] == "internal" and "ZeroDivisionError" in error["message"]


def test_capi_01_the_bridge_examples_run_as_doctests():
    import doctest

    result = doctest.testmod(bridge)
    assert result.attempted >= 4 and result.failed == 0


def test_capi_01_a_null_request_and_a_bad_request_are_input_errors():
    status, text = bridge.call(bridge.OPS.index("request"), None, 0, 0, 0, None)
    assert status == bridge.ERR_INPUT and json.loads(text)["error"]["field"] == "request_json"
    status, text = bridge.call(bridge.OPS.index("request"), b'{"op": "explode"}', 0, 0, 0, None)
    assert status == bridge.ERR_INPUT and json.loads(text)["error"]["field"] == "op"
    status, text = bridge.call(bridge.OPS.index("request"), b'{"id": 3, "op": "version"}', 0, 0, 0, None)
    assert status == bridge.OK and json.loads(text)["id"] == 3


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
    # an almost empty environment, another working directory: the library finds its Python, the venv's
    # site-packages and hardpoint by itself (docs/capi.md); no PYTHONPATH, no PYTHONHOME, no VIRTUAL_ENV
    env = {k: os.environ[k] for k in ("PATH", "LD_LIBRARY_PATH", "HARDPOINT_BACKEND", "SYSTEMROOT") if k in os.environ}
    run = subprocess.run([str(exe), str(out), str(scenario), str(TRIALS), str(SEED), ASL], capture_output=True,
                         text=True, timeout=900, env=env, cwd=str(root))
    answers = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in out.glob("*.json")}
    return {"lib": lib, "run": run, "answers": answers, "exe": exe, "scenario": scenario}


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
    assert doc == _plain(_protocol().handle({"id": None, "op": "explain", "builtin": "cw_tohit_example"}))
    (row,) = doc["result"]["breakdowns"]
    assert row["needed"] == 10 and row["probability_exact"] == "1/6" and row["probability"] == pytest.approx(1 / 6)
    s = hardpoint.load_scenario("builtin:cw_tohit_example")
    assert doc["result"] == _plain(_documents().explain_document(s, hardpoint.explain(s)))


@needs_cc
def test_capi_02_seeded_resolution_gives_the_python_event_log(built):
    doc = built["answers"]["resolve"]
    assert "error" not in doc, doc
    scenario = hardpoint.parse_scenario(_document(SCENARIO))
    python = hardpoint.resolve(scenario, seed=SEED)
    assert doc["result"] == _plain(_documents().resolve_document(python))
    assert doc["result"]["events"] and doc["result"]["seed"] == SEED
    # the log read back from C's JSON is the Python API's event log, event for event (PROTO-01, LOG-01)
    assert [hardpoint.event_from_dict(e) for e in doc["result"]["events"]] == list(python.events)


@needs_cc
def test_capi_02_run_of_100000_trials_counts_what_run_batch_counts(built):
    doc = built["answers"]["run"]
    assert "error" not in doc, doc
    scenario = hardpoint.parse_scenario(_document(SCENARIO))
    python = hardpoint.run_batch(scenario, TRIALS, seed=SEED)
    expected = _plain(_documents().run_document(python))
    assert doc["result"]["trials"] == TRIALS and doc["result"]["probabilities"]
    assert _without_timing(doc["result"]) == _without_timing(expected)
    assert [r["count"] for r in doc["result"]["probabilities"]] == [o.count for o in python.probabilities()]


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
def test_proto_01_every_answer_from_c_is_a_valid_response_document(built):
    """PROTO-01: each document hp_check received, answers and errors alike, validates against the protocol's
    response schema (shipped with the package)."""
    import jsonschema

    protocol = _protocol()
    validator = jsonschema.Draft202012Validator(protocol.protocol_schemas()["response"],
                                                registry=protocol.schema_registry())
    assert len(built["answers"]) >= 12
    for name, doc in built["answers"].items():
        errors = [e.message for e in validator.iter_errors(doc)]
        assert not errors, (name, errors[:3])


@needs_cc
def test_capi_01_a_python_that_cannot_start_is_an_error_document_not_an_abort(built, tmp_path):
    """With PYTHONHOME pointing nowhere the embedded interpreter cannot start: Py_InitializeEx would abort the
    program; libhardpoint answers every call with HP_ERR_INTERNAL and a document saying why."""
    env = dict(os.environ, PYTHONHOME=str(tmp_path / "nowhere"))
    run = subprocess.run([str(built["exe"]), str(tmp_path), str(built["scenario"]), "100", "1"], capture_output=True,
                         text=True, env=env, timeout=120)
    assert run.returncode == 1, (run.returncode, run.stdout, run.stderr)   # checks failed; no signal, no abort
    assert "ALL OK" not in run.stdout and "FAILED" in run.stdout
    doc = json.loads((tmp_path / "version.json").read_text(encoding="utf-8"))
    assert doc["error"]["type"] == "internal" and "could not start" in doc["error"]["message"]
    assert "Traceback" not in run.stderr


@needs_cc
def test_capi_01_a_hardpoint_that_cannot_be_imported_is_an_error_document(built, tmp_path):
    """A broken hardpoint ahead on PYTHONPATH makes the init code's import fail: cffi would print the traceback and
    answer 0; libhardpoint answers every call with HP_ERR_INTERNAL and the reason, and prints nothing."""
    fake = tmp_path / "path" / "hardpoint"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('a broken install')\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "path"))
    run = subprocess.run([str(built["exe"]), str(tmp_path), str(built["scenario"]), "100", "1"], capture_output=True,
                         text=True, env=env, timeout=120)
    assert run.returncode == 1 and "FAILED" in run.stdout, (run.returncode, run.stdout, run.stderr)
    assert run.stderr == ""
    doc = json.loads((tmp_path / "version.json").read_text(encoding="utf-8"))
    assert doc["error"]["type"] == "internal" and "a broken install" in doc["error"]["message"]
    assert "hardpoint could not be imported" in doc["error"]["message"]


@needs_cc
def test_capi_02_two_threads_at_once_get_the_python_answers(built):
    """hp_check's two threads called hp_explain, hp_resolve and hp_run at the same moment; the explain and the event
    log matched the main thread's (checked in C), each run's counts match run_batch with that thread's seed, for a
    Car Wars run (the Cython kernel) and an ASL run (Numba's parallel kernel) alike."""
    scenario = hardpoint.parse_scenario(_document(SCENARIO))
    for i in range(2):
        doc = built["answers"][f"thread{i}_run"]
        assert "error" not in doc, doc
        expected = _plain(_documents().run_document(hardpoint.run_batch(scenario, TRIALS // 2, seed=SEED + 1 + i)))
        assert _without_timing(doc["result"]) == _without_timing(expected)
    asl = hardpoint.load_scenario(f"builtin:{ASL}")
    for i in range(2):
        doc = built["answers"][f"thread{i}_asl"]
        assert "error" not in doc, doc
        expected = _plain(_documents().run_document(hardpoint.run_batch(asl, 20_000, seed=SEED + 1 + i, threads=2)))
        assert doc["result"]["ruleset"] == "asl"
        assert _without_timing(doc["result"]) == _without_timing(expected)


@needs_cc
def test_capi_01_threads_racing_to_make_the_first_call_all_get_the_answer(built, tmp_path):
    """Four threads make the process's first calls at once (tests/capi/hp_first_calls.c): one starts the
    interpreter, the others wait for it; each gets the golden explain document, the same text."""
    lib = built["lib"].parent
    exe = tmp_path / "hp_first_calls"
    subprocess.run([CC, "-O1", "-Wall", "-Werror", "-I", str(lib), str(HERE / "hp_first_calls.c"), "-o", str(exe),
                    "-L", str(lib), "-lhardpoint", "-Wl,-rpath," + str(lib), "-pthread"], check=True, capture_output=True)
    for _ in range(3):
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and "ALL OK" in run.stdout, run.stdout + run.stderr
        assert run.stderr == ""


@needs_cc
def test_capi_01_the_command_line_builds_the_library(tmp_path):
    from hardpoint.cli import main

    assert main(["capi", "build", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "hardpoint.h").exists() and list(tmp_path.glob("libhardpoint.*"))


def test_capi_01_no_compiler_is_one_line_of_error_and_exit_2(tmp_path, capsys, monkeypatch):
    """Without a working C compiler `hardpoint capi build` says so in one line and exits 2 (SAFE-02)."""
    pytest.importorskip("cffi")
    from hardpoint.cli import main

    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    assert main(["capi", "build", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hardpoint: error: building libhardpoint failed") and err.count("\n") == 1
    assert "Traceback" not in err
