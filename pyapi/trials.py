"""Running many trials in chunks: threads, interruption, memory (FAST-01, SAFE-01, SAFE-02).

Trial t of a batch always rolls the dice of (seed, t), so a batch is any
split of its trials into chunks, run in any order on any number of threads.
`run_chunks` submits chunks as workers free up (never all at once: a batch of
10**12 trials holds a few chunks in flight, not millions of futures), and on
Ctrl-C or a cancel request stops submitting, lets the chunks in flight finish
and returns the contiguous prefix of trials it completed, so an interrupted
run still reports what it measured.
"""
from __future__ import annotations

import os
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from .errors import ScenarioError

__all__ = ["ChunkRun", "run_chunks", "available_memory", "check_memory"]

R = TypeVar("R")


@dataclass
class ChunkRun(Generic[R]):
    """The chunks that ran, in trial order, and how the run ended."""

    results: list[R]
    done: int                 # trials completed: chunks [0, done) in order
    interrupted: bool = False


def _bounds(trials: int, chunk: int):
    lo = 0
    while lo < trials:
        hi = min(trials, lo + chunk)
        yield lo, hi
        lo = hi


def run_chunks(work: Callable[[int, int], R], trials: int, chunk: int, threads: int = 1,
               cancel: threading.Event | None = None) -> ChunkRun[R]:
    """Run `work(lo, hi)` for consecutive chunks of [0, trials), on up to `threads` threads.

    Chunks are submitted as workers free up, at most `2 * threads` in flight.
    Ctrl-C (KeyboardInterrupt in the calling thread) or `cancel.set()` stops
    the submission; the chunks in flight finish (a chunk is short), and the
    result holds the contiguous prefix of chunks done, with `interrupted` set.
    A second Ctrl-C while waiting for them propagates at once.
    """
    results: list[R] = []
    done = 0
    chunks = _bounds(trials, chunk)
    if threads <= 1:
        try:
            for lo, hi in chunks:
                if cancel is not None and cancel.is_set():
                    return ChunkRun(results, done, True)
                results.append(work(lo, hi))
                done = hi
        except KeyboardInterrupt:
            return ChunkRun(results, done, True)
        return ChunkRun(results, done, False)

    interrupted = False
    flight: deque[tuple[int, Future]] = deque()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        try:
            for lo, hi in chunks:
                if cancel is not None and cancel.is_set():
                    interrupted = True
                    break
                while len(flight) >= 2 * threads:
                    end, fut = flight.popleft()
                    results.append(fut.result())
                    done = end
                flight.append((hi, pool.submit(work, lo, hi)))
        except KeyboardInterrupt:
            interrupted = True
        # finish what is in flight, in order (they all follow the prefix already collected)
        while flight:
            end, fut = flight.popleft()
            results.append(fut.result())
            done = end
    return ChunkRun(results, done, interrupted)


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (MemAvailable), or None when the system does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_memory(needed: int, what: str, field: str = "trials", value: object = None, fraction: float = 0.8) -> None:
    """Refuse, before anything runs, a request for more memory than the machine has available (SAFE-01)."""
    have = available_memory()
    if have is not None and needed > fraction * have:
        raise ScenarioError(f"{what} needs {needed / 2**30:.1f} GiB of memory; this machine has {have / 2**30:.1f} GiB "
                            "available (keep='summary' counts without storing every trial)", field=field, value=value,
                            rule="SAFE-01")
