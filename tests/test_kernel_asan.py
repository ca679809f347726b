"""ARCH-04 / SAFE-01 (issue 14): the Car Wars kernels read and write only inside the arrays they are handed.

A crash or a hang shows in tests/test_kernel_arrays_fuzz.py; a read or a write a few bytes past an array does not.
This test builds `_carwars` again from fastcore/_carwars.pyx with AddressSanitizer (`-fsanitize=address`) and runs
it in a child process with the sanitizer's runtime preloaded, in place of the installed kernel, on:

- every built-in Car Wars scenario, both kernels, arrays and counted modes (the packer's arrays);
- random fights from tests/test_fight_kernel.py's generator (links, drops, area attacks, hand weapons...);
- the broken packings of tests/test_kernel_arrays_fuzz.py, each of which the kernel must run or refuse.

Any sanitizer report fails it. A first child reads past a NumPy array on purpose, to show that the sanitizer
watches NumPy's buffers in such a process. Skipped where there is no GCC, no libasan, no Cython or no
fastcore/_carwars.pyx beside the tests (an installed copy without its sources).
"""
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from .test_kernel_arrays_fuzz import CHILD as FUZZ_CHILD

pytest.importorskip("hardpoint.fastcore._carwars")

ROOT = Path(__file__).resolve().parent.parent
PYX = ROOT / "fastcore" / "_carwars.pyx"

# the instrumented kernel in place of the installed one: every `import hardpoint.fastcore._carwars` (the backend's,
# the fuzz child's) finds it
PRELUDE = '''
import importlib.machinery, importlib.util, sys
sys.path.insert(0, {root!r})
_name = "hardpoint.fastcore._carwars"
_loader = importlib.machinery.ExtensionFileLoader(_name, {so!r})
_kernel = importlib.util.module_from_spec(importlib.util.spec_from_file_location(_name, {so!r}, loader=_loader))
import hardpoint.fastcore
sys.modules[_name] = _kernel
_loader.exec_module(_kernel)
hardpoint.fastcore._carwars = _kernel
assert importlib.import_module(_name) is _kernel
'''

PACKED = '''
import random, warnings
import hardpoint
from hardpoint.carwars.batch import pack, run_batch
from hardpoint.ruleset import Unpackable
from hardpoint.scenario import builtin_scenarios
from tests.test_fight_kernel import _load, random_fight

def both_modes(s, trials):
    for keep in ("arrays", "summary"):
        run_batch(s, trials, 3, backend="compiled", threads=1, keep=keep)

ran = 0
for name in builtin_scenarios():
    s = hardpoint.load_scenario(f"builtin:{{name}}")
    if getattr(s, "ruleset", None) == "asl" or name.startswith("asl") or isinstance(pack(s), Unpackable):
        continue
    both_modes(s, 40)
    ran += 1
    print("built-in", name, flush=True)
rng = random.Random(20261204)
fights = 0
for i in range({fights}):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = _load(random_fight(rng))
        if s is None or isinstance(pack(s), Unpackable):
            continue
        both_modes(s, 4)
    fights += 1
    print("random fight", i, flush=True)
print("packed", ran, fights, flush=True)
'''

CANARY = '''
import ctypes
import numpy as np
small, big = np.zeros(24, np.uint8), np.zeros(4096, np.uint8)
ctypes.memmove(big.ctypes.data, small.ctypes.data, 64)
print("not seen", flush=True)
'''


def _asan_env() -> dict:
    lib = subprocess.run([shutil.which("gcc"), "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not lib or not os.path.isabs(lib) or not os.path.exists(lib):
        pytest.skip("no libasan beside this GCC")
    # no leak report (CPython keeps its objects to the end); stop at the first error, with its stack
    return dict(os.environ, LD_PRELOAD=lib, ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0",
                PYTHONFAULTHANDLER="0")


@pytest.fixture(scope="module")
def asan_kernel(tmp_path_factory) -> str:
    if sys.platform != "linux" or shutil.which("gcc") is None:
        pytest.skip("AddressSanitizer build needs GCC on Linux")
    if not PYX.is_file():
        pytest.skip("fastcore/_carwars.pyx is not beside the tests")
    pytest.importorskip("Cython")
    out = tmp_path_factory.mktemp("asan")
    c = out / "_carwars.c"
    so = out / ("_carwars" + sysconfig.get_config_var("EXT_SUFFIX"))
    # the directives and include path of setup.py's build; -O1 -g keeps the sanitizer's reports readable
    run = subprocess.run([sys.executable, "-m", "cython", "-3", "-X", "boundscheck=False", "-X", "wraparound=False",
                          "-X", "cdivision=True", "-I", str(PYX.parent), str(PYX), "-o", str(c)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    run = subprocess.run([shutil.which("gcc"), "-shared", "-fPIC", "-O1", "-g", "-fsanitize=address", "-fno-omit-frame-pointer",
                          "-I", str(PYX.parent), "-I", sysconfig.get_paths()["include"], str(c), "-o", str(so)],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    return str(so)


def _child(so: str, code: str, timeout: int = 1800) -> subprocess.CompletedProcess:
    """`code` run after PRELUDE (the instrumented kernel `so` in place), the sanitizer's runtime preloaded."""
    return subprocess.run([sys.executable, "-c", PRELUDE.format(root=str(ROOT), so=so) + code], capture_output=True,
                          text=True, timeout=timeout, env=_asan_env(), cwd=ROOT)


def _last_line_of_a_clean_run(run: subprocess.CompletedProcess) -> str:
    """The child's last line, after asserting it ended normally with no sanitizer report."""
    last = (run.stdout.strip().splitlines() or [""])[-1]
    assert run.returncode == 0 and "AddressSanitizer" not in run.stderr, f"after {last}:\n{run.stderr[-4000:]}"
    return last


def test_arch_04_the_sanitizer_sees_a_read_past_a_numpy_array(asan_kernel):
    """The harness itself: in a child set up as the others, reading 64 bytes of a 24-byte array is reported."""
    run = _child(asan_kernel, CANARY, timeout=300)
    assert run.returncode != 0 and "AddressSanitizer: heap-buffer-overflow" in run.stderr, run.stderr[-2000:]
    assert "not seen" not in run.stdout


def test_arch_04_the_kernels_stay_inside_the_packer_s_arrays(asan_kernel):
    """ARCH-04: every built-in and random fights, packed, run in the instrumented kernels without a report."""
    fights = int(os.environ.get("HARDPOINT_ASAN_FIGHTS", "60"))
    last = _last_line_of_a_clean_run(_child(asan_kernel, PACKED.format(fights=fights)))
    ran, packed = map(int, last.split()[1:])
    assert ran >= 8 and packed >= fights // 3, last


def test_arch_04_the_kernels_stay_inside_broken_arrays(asan_kernel):
    """ARCH-04 / SAFE-01: the broken packings of the fuzz test, each run or refused without a report."""
    last = _last_line_of_a_clean_run(_child(asan_kernel, FUZZ_CHILD))
    assert last.startswith("ok "), last
    cases, bad = map(int, last.split()[1:])
    assert cases > 1000 and bad == 0, last
