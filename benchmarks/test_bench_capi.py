"""The C interface's overhead (CAPI-01, issue 16): a call through libhardpoint against the same call from Python.

The library is built into a temporary folder and loaded with ctypes into this
process, so both sides run in one interpreter, with the same warm caches, and
are timed interleaved (ENGINEERING.md). The C side pays what a C caller pays
(the C wrapper, the GIL taken by cffi, the bridge, the copy into malloc'd
memory) plus ctypes' own marshalling, so its figure is if anything high. The
Python side is the same request to `hardpoint.protocol.handle`, written as
text by `hardpoint.protocol.dumps`: the same answer text.

Targets: hp_explain of the golden example within 1.5x of Python; hp_run of a
million trials within 1.05x. Needs cffi and a C compiler, else skipped.
"""
import ctypes
import json
import shutil

import pytest

from .conftest import SCALE, interleaved, scaled

pytest.importorskip("cffi")
if not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")):
    pytest.skip("no C compiler", allow_module_level=True)

GOLDEN = {"builtin": "cw_tohit_example"}
ROUNDS = 5 if SCALE >= 1 else 1


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    from hardpoint.capi import build

    path = build(tmp_path_factory.mktemp("capi"))
    c = ctypes.CDLL(str(path))
    out = ctypes.POINTER(ctypes.c_char)
    c.hp_explain.argtypes = [ctypes.c_char_p, ctypes.POINTER(out)]
    c.hp_run.argtypes = [ctypes.c_char_p, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_int, ctypes.POINTER(out)]
    c.hp_free.argtypes = [out]
    for f in (c.hp_explain, c.hp_run):
        f.restype = ctypes.c_int
    c.hp_free.restype = None
    return c


def _c_call(lib, name, *args):
    out = ctypes.POINTER(ctypes.c_char)()
    status = getattr(lib, name)(*args, ctypes.byref(out))
    try:
        assert status == 0, ctypes.string_at(out).decode()
        return ctypes.string_at(out).decode("utf-8")
    finally:
        lib.hp_free(out)


def _python_call(request: dict) -> str:
    from hardpoint import protocol

    return protocol.dumps(protocol.handle(request))


def test_capi_01_overhead_of_hp_explain_of_the_golden_example(benchmark, report, lib):
    """CAPI-01: hp_explain of the golden example (cw_tohit_example) through C, against the protocol's explain from
    Python; each sample is a loop of calls. Target: C / Python <= 1.5."""
    calls = scaled(200) if SCALE < 1 else 200
    text = json.dumps(GOLDEN).encode()
    request = {"id": None, "op": "explain", **GOLDEN}
    assert json.loads(_c_call(lib, "hp_explain", text)) == json.loads(_python_call(request))

    def c_side():
        for _ in range(calls):
            _c_call(lib, "hp_explain", text)

    def py_side():
        for _ in range(calls):
            _python_call(request)

    t_c, t_py = interleaved(c_side, py_side, rounds=ROUNDS, reps=3)
    benchmark.pedantic(c_side, rounds=ROUNDS, iterations=1)
    report("capi hp_explain golden", c_call_us=t_c / calls * 1e6, python_call_us=t_py / calls * 1e6,
           c_over_python=t_c / t_py, target=1.5)


def test_capi_01_overhead_of_hp_run_of_a_million_trials(benchmark, report, lib):
    """CAPI-01: hp_run of a million trials of the default firefight through C, against the protocol's run from
    Python, every core. Target: C / Python <= 1.05."""
    trials = scaled(1_000_000)
    text = json.dumps({"builtin": "default"}).encode()
    request = {"id": None, "op": "run", "builtin": "default", "trials": trials, "seed": 1}
    c_doc, py_doc = json.loads(_c_call(lib, "hp_run", text, trials, 1, 0)), json.loads(_python_call(request))
    assert c_doc["result"]["probabilities"] == py_doc["result"]["probabilities"]

    t_c, t_py = interleaved(lambda: _c_call(lib, "hp_run", text, trials, 1, 0), lambda: _python_call(request),
                            rounds=ROUNDS, reps=1)
    benchmark.pedantic(lambda: _c_call(lib, "hp_run", text, trials, 1, 0), rounds=ROUNDS, iterations=1)
    report("capi hp_run million", million_trials_c_s=t_c * 1e6 / trials, million_trials_python_s=t_py * 1e6 / trials,
           c_over_python=t_c / t_py, target=1.05)
