"""Per-trial arrays streamed to .npy files, read back as memory maps (FAST-03): flat memory, the same trials and counts."""
import json
import threading
import warnings

import numpy as np
import pytest

import hardpoint
from hardpoint import ScenarioError


def _rows(b):
    return [o.to_dict() for o in b.outcomes]


@pytest.mark.parametrize("name,trials,chunk", [("default", 25_000, 6_000), ("asl_d15_55_gun_on_cycle", 4_000, 1_500),
                                               ("cw_duel", 30, 8)])
def test_fast_03_streamed_arrays_equal_the_arrays_in_memory(tmp_path, name, trials, chunk):
    """FAST-03: run_batch(keep="arrays", out=folder) writes every per-trial array, chunk by chunk, into .npy files the
    result reads as memory maps; every array and every outcome equals the run held in memory (both rule sets, a
    fight's arrays included), and numpy.load opens the files afterwards."""
    s = hardpoint.load_scenario(f"builtin:{name}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        streamed = hardpoint.run_batch(s, trials, seed=8, keep="arrays", out=tmp_path / "run", chunk=chunk)
        memory = hardpoint.run_batch(s, trials, seed=8, keep="arrays")
    assert _rows(streamed) == _rows(memory) and streamed.trials == trials
    meta = json.loads((tmp_path / "run" / "batch.json").read_text())
    assert meta["trials"] == trials and meta["ruleset"] == s.ruleset and meta["arrays"]
    for array, info in meta["arrays"].items():
        top, _, key = array.partition(".")
        kept = getattr(streamed.details, top)[key] if key else getattr(streamed.details, top)
        held = getattr(memory.details, top)[key] if key else getattr(memory.details, top)
        assert (isinstance(kept, np.memmap) or kept.size == 0) and np.array_equal(kept, held)   # no map of 0 bytes
        assert np.array_equal(np.load(tmp_path / "run" / f"{array}.npy", mmap_mode="r"), held)
        assert info["shape"][0] == trials


def test_fast_03_the_folder_and_the_disk_are_checked_before_the_run(tmp_path):
    """FAST-03: a folder that is not empty (without overwrite), a file given as the folder, or keep='summary' with out
    are refused before any trial runs, naming the field."""
    s = hardpoint.load_scenario("builtin:cw_tohit_example")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    (tmp_path / "file").write_text("x")
    for out, keep, field in [(tmp_path / "full", "arrays", "out"), (tmp_path / "file", "arrays", "out"),
                             (tmp_path / "new", "summary", "keep"), (12, "arrays", "out"), ("a\0b", "arrays", "out")]:
        with pytest.raises(ScenarioError) as err:
            hardpoint.run_batch(s, 1000, keep=keep, out=out)
        assert err.value.field == field and err.value.rule == "FAST-03"
    assert (tmp_path / "full" / "x").read_text() == "x" and not (tmp_path / "new").exists()
    with pytest.raises(ScenarioError):       # refused for the disk: nothing made either
        hardpoint.run_batch(s, 10**12, keep="arrays", out=tmp_path / "refused" / "run")
    assert not (tmp_path / "refused").exists()
    b = hardpoint.run_batch(s, 1000, out=tmp_path / "full", overwrite=True)
    assert b.hit.shape == (1000, 1)
    with pytest.raises(ScenarioError) as err:       # far more trials than any disk holds
        hardpoint.run_batch(s, 10**12, keep="arrays", out=tmp_path / "huge")
    assert err.value.field == "out" and "GiB" in str(err.value)


def test_fast_03_a_cancelled_stream_keeps_the_trials_done(tmp_path):
    """FAST-03: cancel stops between chunks; the result and batch.json cover the chunks written."""
    s = hardpoint.load_scenario("builtin:cw_tohit_example")
    stop = threading.Event()
    done = []

    def progress(n):
        done.append(n)
        if len(done) == 2:
            stop.set()

    b = hardpoint.run_batch(s, 10_000, seed=3, keep="arrays", out=tmp_path / "run", chunk=1_000, progress=progress, cancel=stop)
    assert b.interrupted and b.trials == 2_000 and b.hit.shape == (2_000, 1)
    assert json.loads((tmp_path / "run" / "batch.json").read_text())["trials"] == 2_000
    assert _rows(b) == _rows(hardpoint.run_batch(s, 2_000, seed=3, keep="summary"))


def test_fast_03_module_example():
    import doctest

    import hardpoint.stream

    assert doctest.testmod(hardpoint.stream).failed == 0
