"""Per-trial arrays streamed to files, so a batch of any size keeps flat memory (FAST-03).

`hardpoint.run_batch(scenario, trials, keep="arrays", out="run/")` runs the
batch chunk by chunk; each chunk's per-trial arrays (every field of the rule
set's result whose first axis is the trial) go into NumPy `.npy` files in
`run/`, appended through the file (the pages written never stay in the
process), and the chunk is dropped; at the end the files are opened as
read-only memory maps. The counts are the
rule set's own, added chunk by chunk (`RuleSet.merge`), so the outcomes are
those of one run in memory. The result's arrays are the memory maps: a 100
million trial run is read back a slice at a time, and `numpy.load(path,
mmap_mode="r")` opens the files later.

    >>> import hardpoint, tempfile, os, numpy as np
    >>> s = hardpoint.load_scenario("builtin:cw_tohit_example")
    >>> with tempfile.TemporaryDirectory() as d:
    ...     b = hardpoint.run_batch(s, 30_000, seed=1, keep="arrays", out=os.path.join(d, "run"), chunk=7_000)
    ...     m = hardpoint.run_batch(s, 30_000, seed=1, keep="arrays")
    ...     same = np.array_equal(b.hit, m.hit) and b.find("hit").count == m.find("hit").count
    ...     files = sorted(os.listdir(os.path.join(d, "run")))
    >>> same, files[:3]
    (True, ['batch.json', 'damage.npy', 'flags.npy'])
"""
from __future__ import annotations

import dataclasses
import io
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ScenarioError
from .results import BatchResult

__all__ = ["run_to_files", "DEFAULT_STREAM_CHUNK"]

#: trials a chunk holds in memory while streaming (about 225 MB of the default scenario's arrays)
DEFAULT_STREAM_CHUNK = 1_000_000


def _per_trial(details: Any, n: int) -> dict[str, np.ndarray]:
    """The fields of a rule set's batch result whose first axis is the trial ("fight.out_turn" for a dict field)."""
    out: dict[str, np.ndarray] = {}
    for f in dataclasses.fields(details):
        v = getattr(details, f.name)
        if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == n:
            out[f.name] = v
        elif isinstance(v, dict):
            for k, a in v.items():
                if isinstance(a, np.ndarray) and a.ndim >= 1 and a.shape[0] == n:
                    out[f"{f.name}.{k}"] = a
    return out


class _Npy:
    """An .npy file written chunk by chunk through the file (never mapped while written: the pages written do not
    stay in the process), its header stating the whole shape from the start."""

    def __init__(self, path: Path, dtype: np.dtype, shape: tuple[int, ...]):
        self.file = open(path, "wb")
        self.dtype, self.shape = np.dtype(dtype), shape
        self.nbytes = int(np.prod(shape, dtype=np.int64)) * self.dtype.itemsize
        np.lib.format.write_array_header_2_0(self.file, {"descr": np.lib.format.dtype_to_descr(self.dtype),
                                                         "fortran_order": False, "shape": shape})

    def write(self, data: bytes) -> None:
        self.file.write(data)

    def close(self) -> None:
        self.file.close()


def _fix_npy(path: Path, trials: int) -> None:
    """Rewrite the header of a file stopped early to the trials written (the same header length: version 2.0 pads)."""
    with open(path, "r+b") as f:
        np.lib.format.read_magic(f)
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
        start = f.tell()
        f.seek(0)
        buf = io.BytesIO()
        np.lib.format.write_array_header_2_0(buf, {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": fortran,
                                                   "shape": (trials,) + tuple(shape[1:])})
        header = buf.getvalue()
        if len(header) != start:
            raise ScenarioError("could not rewrite the array header", field="out", value=str(path), rule="FAST-03")
        f.write(header)
        f.truncate(start + trials * int(np.prod(shape[1:], dtype=np.int64)) * dtype.itemsize)


def _existing_parent(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _prepare(out: Any, overwrite: bool) -> Path:
    """The folder's path, checked (a folder, new or empty unless overwrite); nothing is made yet."""
    try:
        path = Path(os.fspath(out))
    except TypeError:
        raise ScenarioError("expected a folder's path", field="out", value=repr(out)[:80], rule="FAST-03") from None
    if "\0" in str(path) or len(str(path)) > 4096:
        raise ScenarioError("not a usable path", field="out", value=str(path)[:80], rule="FAST-03")
    if path.exists() and not path.is_dir():
        raise ScenarioError("not a folder", field="out", value=str(path), rule="FAST-03")
    if path.is_dir() and any(path.iterdir()):
        if not overwrite:
            raise ScenarioError("the folder is not empty (give overwrite=True to replace its arrays)", field="out", value=str(path),
                                rule="FAST-03")
    return path


def run_to_files(scenario: Any, trials: int, seed: int, options: Any, out: Any, overwrite: bool = False) -> BatchResult:
    """The batch in chunks, each chunk's per-trial arrays appended to .npy files in `out`, read back as memory maps
    (FAST-03).

    Before the batch runs: the folder is checked (new or empty), one trial is run to learn the bytes a trial
    takes, a disk without room for them all is refused; only then is the folder made. An error partway removes
    the arrays written (a stop, Ctrl-C or cancel, keeps them, their headers set to the trials done)."""
    from .ruleset import merger, ruleset_of

    rs = ruleset_of(scenario)
    merge = merger(rs, "out")
    path = _prepare(out, overwrite)
    chunk = options.chunk or DEFAULT_STREAM_CHUNK
    probe = rs.batch(scenario, 1, seed, dataclasses.replace(options, keep="arrays", progress=None, cancel=None))
    per_trial = sum(a.nbytes for a in _per_trial(probe.details, 1).values())
    free = shutil.disk_usage(_existing_parent(path)).free
    if per_trial * trials > 0.95 * free:
        raise ScenarioError(f"the arrays of {trials:,} trials take {per_trial * trials / 2**30:.1f} GiB; the disk has "
                            f"{free / 2**30:.1f} GiB free", field="out", value=str(path), rule="FAST-03")
    try:     # every check passed: only now is anything made
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ScenarioError(f"cannot make the folder ({exc.strerror})", field="out", value=str(path), rule="FAST-03") from None
    started = time.perf_counter()
    files: dict[str, Any] = {}          # name -> (open file, dtype, trailing shape): chunks appended as written
    counted: BatchResult | None = None
    first_details = None
    done = 0
    interrupted = False
    try:
        for lo in range(0, trials, chunk):
            if options.cancel is not None and options.cancel.is_set():
                interrupted = True
                break
            n = min(chunk, trials - lo)
            part = rs.batch(scenario, n, seed, dataclasses.replace(options, first_trial=options.first_trial + lo, keep="arrays",
                                                                   chunk=None, progress=None, cancel=None))
            arrays = _per_trial(part.details, n)
            if first_details is None:
                first_details = part.details
                for name, a in arrays.items():
                    files[name] = _Npy(path / f"{name}.npy", a.dtype, (trials,) + a.shape[1:])
            for name, a in arrays.items():
                files[name].write(np.ascontiguousarray(a).tobytes())
            counted = part if counted is None else merge(scenario, [counted, part])
            done += n
            if options.progress is not None:
                options.progress(n)
    except KeyboardInterrupt:
        interrupted = True
    except BaseException:
        for name, f in files.items():     # an error, not a stop: the files would claim trials never written
            f.close()
            (path / f"{name}.npy").unlink(missing_ok=True)
        raise
    if counted is None:
        raise ScenarioError("stopped before the first chunk ran", field="out", value=str(path), rule="FAST-03")
    views = {}
    for name, f in files.items():
        f.close()
        if done < trials:   # stopped early: the header says the trials written
            _fix_npy(path / f"{name}.npy", done)
        views[name] = np.load(path / f"{name}.npy", mmap_mode="r") if f.nbytes else np.load(path / f"{name}.npy")
    changes: dict[str, Any] = {}
    for name, v in views.items():
        if "." in name:
            top, key = name.split(".", 1)
            changes.setdefault(top, dict(getattr(first_details, top)))[key] = v
        else:
            changes[name] = v
    if hasattr(first_details, "tallies") and hasattr(counted.details, "tallies"):
        changes["tallies"] = counted.details.tallies          # counts already added: never re-read the files for them
    if hasattr(first_details, "interrupted"):
        changes["interrupted"] = interrupted
    details = dataclasses.replace(first_details, **changes)
    (path / "batch.json").write_text(json.dumps({
        "format": "hardpoint/1", "kind": "arrays", "scenario": scenario.name, "ruleset": rs.name, "seed": seed,
        "first_trial": options.first_trial, "trials": done, "requested": trials, "interrupted": interrupted,
        "arrays": {name: {"dtype": str(v.dtype), "shape": list(v.shape)} for name, v in views.items()}}, indent=2) + "\n",
        encoding="utf-8")
    return BatchResult(counted.scenario, counted.ruleset, seed, options.first_trial, done, counted.backend,
                       time.perf_counter() - started, counted.outcomes, details=details, requested=trials,
                       interrupted=interrupted, turns=counted.turns)
