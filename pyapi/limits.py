"""Limits at the door (SAFE-01): what any input must respect before anything runs.

Every scenario document (a file, standard input, or a dict handed to
`parse_scenario`) is read and walked once, before the schema and the rules see
it. The walk is iterative, so no document can exhaust Python's recursion, and
it refuses, with a ScenarioError naming the path of the field:

- files over `MAX_FILE_BYTES`, files that are not UTF-8, anything that is not
  a regular file (a FIFO or a device would be read forever);
- documents nested deeper than `MAX_DEPTH` or holding more than `MAX_NODES`
  values;
- numbers that are not finite (TOML and Python's JSON both accept `nan` and
  `inf`), integers outside the kernels' int32, floats beyond `FLOAT_LIMIT`
  (each field's own, tighter range is in the schema);
- text that is not valid Unicode (a lone surrogate), longer than
  `MAX_STRING`, or holding control characters (terminal escapes); a
  description may hold newlines and tabs;
- values that are not JSON's (a TOML date or time).

The same bounds are checked for API arguments (`check_trials`, `check_seed`,
`check_threads`) so the command line, the Python API and the kernels agree.
"""
from __future__ import annotations

import math
import numbers
import os
import stat
import unicodedata
from pathlib import Path
from typing import Any, BinaryIO

from .errors import ScenarioError

__all__ = [
    "MAX_FILE_BYTES", "MAX_DEPTH", "MAX_NODES", "MAX_STRING", "INT32_MAX", "FLOAT_LIMIT",
    "MAX_TURNS", "MAX_TRIALS", "MAX_TRIAL_INDEX", "MAX_SEED", "MAX_THREADS",
    "check_document", "read_limited", "read_file_bytes", "check_trials", "check_seed", "check_threads", "safe_text",
]

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 24
MAX_NODES = 500_000
MAX_STRING = 4096
INT32_MAX = 2**31 - 1
FLOAT_LIMIT = 1e9
MAX_TURNS = 1000
MAX_TRIALS = 10**12
MAX_TRIAL_INDEX = 2**62          # first trial + trials: trial numbers never wrap in the 64-bit dice counter
MAX_SEED = 2**64 - 1              # seeds are 64-bit (docs/dice.md)
MAX_THREADS = 1024

# Keys whose text may run over several lines.
_MULTILINE = {"description", "source", "note"}


def _field(path: list[str | int]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def _check_text(text: str, path: list[str | int], multiline: bool, what: str = "text") -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ScenarioError(f"{what} is not valid Unicode (a lone surrogate)", field=_field(path),
                            value=text.encode("utf-8", "backslashreplace").decode("ascii"), rule="SAFE-01") from None
    if len(text) > MAX_STRING:
        raise ScenarioError(f"{what} longer than {MAX_STRING} characters", field=_field(path), value=text[:40] + "...", rule="SAFE-01")
    for ch in text:
        if unicodedata.category(ch) == "Cc" and not (multiline and ch in "\n\t"):
            raise ScenarioError(f"{what} holds a control character ({ch!r}); names and ids are printed to terminals",
                                field=_field(path), value=text.encode("unicode_escape").decode("ascii"), rule="SAFE-01")


def check_document(data: Any, source: str = "<data>") -> None:
    """Walk a scenario document and refuse what no scenario may hold (SAFE-01).

    Raises ScenarioError naming the path, the value and SAFE-01. Iterative:
    a document nested a thousand deep is refused, not a RecursionError.
    """
    nodes = 0
    stack: list[tuple[Any, list[str | int], bool]] = [(data, [], False)]
    while stack:
        value, path, multiline = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise ScenarioError(f"more than {MAX_NODES:,} values in {source}", field="(top level)", rule="SAFE-01")
        if len(path) > MAX_DEPTH:
            raise ScenarioError(f"nested more than {MAX_DEPTH} levels deep", field=_field(path[:MAX_DEPTH]), rule="SAFE-01")
        if isinstance(value, dict):
            for k, v in value.items():
                if not isinstance(k, str):
                    raise ScenarioError("keys are text", field=_field(path), value=repr(k), rule="SAFE-01")
                _check_text(k, path + [k], False, "a key")
                stack.append((v, path + [k], k in _MULTILINE))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                stack.append((v, path + [i], False))
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not -INT32_MAX <= value <= INT32_MAX:
                raise ScenarioError(f"integer outside the range the kernels hold (+-{INT32_MAX})", field=_field(path),
                                    value=value, rule="SAFE-01")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ScenarioError("not a finite number", field=_field(path), value=str(value), rule="SAFE-01")
            if abs(value) > FLOAT_LIMIT:
                raise ScenarioError(f"number beyond +-{FLOAT_LIMIT:g}", field=_field(path), value=value, rule="SAFE-01")
        elif isinstance(value, str):
            _check_text(value, path, multiline)
        else:
            raise ScenarioError(f"not a scenario value ({type(value).__name__}); use numbers, text, true/false, "
                                "lists and tables", field=_field(path), value=str(value), rule="SAFE-01")


def read_limited(stream: BinaryIO, name: str) -> bytes:
    """At most MAX_FILE_BYTES from a binary stream; more is a ScenarioError."""
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB", field="scenario", value=name, rule="SAFE-01")
    return data


def read_file_bytes(path: str | Path) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES (SAFE-01).

    A directory, a FIFO, a device or a socket is refused before it is read.
    """
    p = str(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise ScenarioError("file not found", field="scenario", value=p, rule="CLI-02") from None
    except OSError as exc:
        raise ScenarioError(f"cannot read: {exc.strerror}", field="scenario", value=p, rule="CLI-02") from None
    if stat.S_ISDIR(st.st_mode):
        raise ScenarioError("is a directory, not a scenario file", field="scenario", value=p, rule="CLI-02")
    if not stat.S_ISREG(st.st_mode):
        raise ScenarioError("not a regular file (a pipe or a device would be read without end)", field="scenario", value=p, rule="SAFE-01")
    if st.st_size > MAX_FILE_BYTES:
        raise ScenarioError(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB", field="scenario", value=p, rule="SAFE-01")
    try:
        with open(p, "rb") as fh:
            return read_limited(fh, p)
    except OSError as exc:
        raise ScenarioError(f"cannot read: {exc.strerror}", field="scenario", value=p, rule="CLI-02") from None


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_trials(trials: Any, first_trial: Any = 0, field: str = "trials") -> tuple[int, int]:
    """Trials and first trial as ints within bounds (SAFE-01): 1..MAX_TRIALS, and no trial number past MAX_TRIAL_INDEX."""
    if not _is_int(trials):
        raise ScenarioError("expected a whole number of trials", field=field, value=trials, rule="SAFE-01")
    if not _is_int(first_trial):
        raise ScenarioError("expected a whole number", field="first_trial", value=first_trial, rule="SAFE-01")
    trials, first_trial = int(trials), int(first_trial)
    if not 1 <= trials <= MAX_TRIALS:
        raise ScenarioError(f"must be from 1 to {MAX_TRIALS:,}", field=field, value=trials, rule="SAFE-01")
    if first_trial < 0 or first_trial + trials > MAX_TRIAL_INDEX:
        raise ScenarioError("trial numbers run from 0 to 2**62", field="first_trial", value=first_trial, rule="SAFE-01")
    return trials, first_trial


def check_seed(seed: Any, field: str = "seed") -> int:
    """A seed is a whole number from 0 to 2**64-1 (DICE-03, SAFE-01); a float is refused, not truncated."""
    if not _is_int(seed):
        raise ScenarioError("a seed is a whole number (a float would run as its integer part)", field=field, value=seed, rule="SAFE-01")
    seed = int(seed)
    if not 0 <= seed <= MAX_SEED:
        raise ScenarioError("a seed runs from 0 to 2**64-1", field=field, value=seed, rule="SAFE-01")
    return seed


def check_chunk(chunk: Any, field: str = "chunk", rule: str = "FAST-01") -> int:
    """Trials a chunk (a task, a kernel call) runs: a whole number from 1 to 2**31-1, what the kernels' int32 counts
    hold (SAFE-01)."""
    if not _is_int(chunk) or not 1 <= int(chunk) <= INT32_MAX:
        raise ScenarioError("expected a whole number of trials from 1 to 2**31-1", field=field, value=chunk, rule=rule)
    return int(chunk)


def check_threads(threads: Any, field: str = "threads") -> int | None:
    """None (all cores) or a whole number from 1 to MAX_THREADS."""
    if threads is None:
        return None
    if not _is_int(threads) or not 1 <= int(threads) <= MAX_THREADS:
        raise ScenarioError(f"expected a whole number from 1 to {MAX_THREADS}", field=field, value=threads, rule="SAFE-01")
    return int(threads)


def safe_text(text: Any) -> str:
    """Text fit for a terminal: control characters shown escaped, lone surrogates replaced (SAFE-02)."""
    s = str(text)
    s = s.encode("utf-8", "backslashreplace").decode("utf-8")
    if any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in s):
        s = "".join(c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) == "Cc" and c not in "\n\t" else c
                    for c in s)
    return s
