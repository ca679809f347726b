"""The profile-guided build of the Car Wars kernels (setup.py `BuildExt`; FAST-01, docs/performance.md).

setup.py compiles fastcore/_carwars.pyx with GCC's `-fprofile-generate`, runs it on the training set of
fastcore/pgo/ (`fastcore/pgo_train.py`) and compiles it again with the profile. The set is data the packer writes
(`python -m hardpoint.carwars.pgo`): these tests fail when it is stale, when the kernel refuses it (its profile would
teach the build nothing, and the build would fall back to the plain one), or when the installed kernel is the
instrumented one.
"""
import json
from pathlib import Path

import numpy as np
import pytest

fast = pytest.importorskip("hardpoint.fastcore._carwars")

SET = Path(__file__).resolve().parents[1] / "fastcore" / "pgo"


def test_fast_01_the_training_set_is_what_the_packer_gives(tmp_path):
    """FAST-01: fastcore/pgo/ equals what `python -m hardpoint.carwars.pgo` writes now (run it after changing the
    packer or fastcore/layout.toml): the same entries, and every array of every entry, name, dtype and values."""
    from hardpoint.carwars.pgo import write

    write(tmp_path)
    stale = "stale: run `python -m hardpoint.carwars.pgo` and commit fastcore/pgo/"
    assert json.loads((SET / "manifest.json").read_text()) == json.loads((tmp_path / "manifest.json").read_text()), stale
    for e in json.loads((tmp_path / "manifest.json").read_text())["entries"]:
        with np.load(SET / f"{e['name']}.npz") as old, np.load(tmp_path / f"{e['name']}.npz") as new:
            assert sorted(old.files) == sorted(new.files), (e["name"], stale)
            for k in new.files:
                assert old[k].dtype == new[k].dtype and np.array_equal(old[k], new[k]), (e["name"], k, stale)


def test_fast_01_the_kernel_runs_the_training_set():
    """FAST-01: every call of the training run returns 0 on the installed kernel (one-turn scenarios in arrays and
    counted mode, with and without the end of the turn; fights to their end), as the build's training run needs."""
    from hardpoint.fastcore.pgo_train import train

    entries = json.loads((SET / "manifest.json").read_text())["entries"]
    assert {e["kernel"] for e in entries} == {"phase", "fight"} and len(entries) >= 10
    assert train(fast.__file__, str(SET)) == []


def test_fast_01_the_installed_kernel_is_not_the_instrumented_build():
    """FAST-01: the build's first, instrumented compile (it counts every branch, and writes a profile at exit) is
    never what is installed: its library carries gcov's symbols."""
    assert b"__gcov" not in Path(fast.__file__).read_bytes()


def test_fast_01_the_kernel_was_built_profile_guided_unless_it_could_not_be():
    """FAST-01: the build notes beside the library whether it was built profile-guided (`_pgo.json`). With GCC 10
    or later it must have been, unless HARDPOINT_PGO=0 asked for the plain build: a training run that failed, or a
    training set missing from the sources, is a failure."""
    note = json.loads((Path(fast.__file__).parent / "_pgo.json").read_text())
    assert note["profile_guided"] or not note["wanted"] or not note["toolchain"], note["why"]
