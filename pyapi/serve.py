"""`hardpoint serve --stdio`: the protocol as JSON lines on standard input and output (PROTO-02).

One request a line in, one response a line out with the same id (the
documents of `hardpoint.protocol`). Quick operations are answered in turn;
`run` and `duel` go to worker threads (at most `max_jobs` at once, more wait
their turn), so the reader keeps reading: a run sends progress lines

    {"id": 7, "progress": 0.42}

and stops between chunks on `{"op": "cancel", "id": 7}` (its response then
covers the trials done, `"interrupted": true`). Every line written is one
whole JSON text, written under a lock and flushed.

The server never dies on input: a line that is not UTF-8, not JSON, not an
object, too long (`max_line` bytes), or a request with an unknown op or a bad
field gets an error response and the server reads on. End of input ends it
once the runs in flight have answered; a reader that goes away (a closed pipe)
ends it quietly; Ctrl-C cancels the runs and exits 130.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO

from .errors import RequestError
from .protocol import DEFAULT_LIMITS, Limits, dumps, error_document, execute, loads, prepare

__all__ = ["StdioServer", "serve_stdio", "PROGRESS_EVERY"]

#: seconds between two progress lines of one run
PROGRESS_EVERY = 0.2


class _Closed(Exception):
    """The reader went away."""


class StdioServer:
    """The JSON-lines server over two binary streams (standard input and output by default)."""

    def __init__(self, stdin: BinaryIO, stdout: BinaryIO, limits: Limits = DEFAULT_LIMITS, max_jobs: int = 4) -> None:
        self.stdin, self.stdout, self.limits = stdin, stdout, limits
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.jobs: dict[Any, threading.Event] = {}       # id of a run in flight -> its cancel event
        self.jobs_lock = threading.Lock()
        self.pool = ThreadPoolExecutor(max_workers=max_jobs, thread_name_prefix="hardpoint-run")

    # --- writing ---

    def write(self, document: dict[str, Any]) -> None:
        """One document, one line, whole and flushed; a closed pipe marks the server closed."""
        line = dumps(document).encode("ascii") + b"\n"
        with self.lock:
            if self.closed.is_set():
                raise _Closed()
            try:
                self.stdout.write(line)
                self.stdout.flush()
            except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
                self.closed.set()
                raise _Closed() from None

    def _error(self, rid: Any, op: Any, exc: BaseException) -> None:
        self.write(error_document(rid, op, exc))

    # --- reading ---

    def _lines(self):
        """Lines of at most max_line bytes; a longer one is yielded as None (after skipping to its end)."""
        limit = self.limits.max_request_bytes
        while not self.closed.is_set():
            line = self.stdin.readline(limit + 1)
            if not line:
                return
            if len(line) > limit and not line.endswith(b"\n"):
                while True:              # skip the rest of the long line without holding it
                    rest = self.stdin.readline(1 << 20)
                    if not rest or rest.endswith(b"\n"):
                        break
                yield None
                continue
            yield line

    def serve(self) -> int:
        """Read and answer until end of input; return the exit status (0, or 141 when the reader went away)."""
        try:
            for line in self._lines():
                try:
                    self.line(line)
                except _Closed:
                    break
        except KeyboardInterrupt:
            self.cancel_all()
            self.pool.shutdown(wait=True)
            return 130
        if self.closed.is_set():
            self.cancel_all()
        self.pool.shutdown(wait=True)     # end of input: the runs in flight answer first
        return 141 if self.closed.is_set() else 0

    def line(self, line: bytes | None) -> None:
        """Answer one line."""
        if line is None:
            self._error(None, None, RequestError(f"a request line is at most {self.limits.max_request_bytes:,} bytes",
                                                 field="(request)", value=None, rule="SAFE-01"))
            return
        if not line.strip():
            return                       # a blank line asks nothing
        try:
            request = loads(line, self.limits)
        except Exception as exc:  # noqa: BLE001 - never dies on input
            self._error(None, None, exc)
            return
        rid = request.get("id") if isinstance(request, dict) else None
        op = request.get("op") if isinstance(request, dict) else None
        if op == "cancel":
            self.cancel(request)
            return
        try:
            prepared = prepare(request, self.limits)
        except Exception as exc:  # noqa: BLE001
            self._error(rid if _simple(rid) else None, op, exc)
            return
        if not prepared.long:
            try:
                document = {"id": prepared.id, "format": "hardpoint/1", "op": prepared.op, "result": execute(prepared)}
            except Exception as exc:  # noqa: BLE001
                document = error_document(prepared.id, prepared.op, exc)
            self.write(document)
            return
        with self.jobs_lock:
            if prepared.id in self.jobs:
                busy = RequestError("a run with this id is in flight; give each request its own id", field="id",
                                    value=prepared.id, rule="PROTO-02")
            else:
                busy = None
                cancel = self.jobs[prepared.id] = threading.Event()
        if busy is not None:
            self._error(prepared.id, prepared.op, busy)
            return
        self.pool.submit(self._run, prepared, cancel)

    def _run(self, prepared, cancel: threading.Event) -> None:
        last = [0.0]

        def progress(fraction: float) -> None:
            now = time.monotonic()
            if now - last[0] < PROGRESS_EVERY or fraction >= 1.0 or cancel.is_set():
                return
            last[0] = now
            try:
                self.write({"id": prepared.id, "progress": round(fraction, 4)})
            except _Closed:
                cancel.set()             # nobody is listening: stop the run

        try:
            document = {"id": prepared.id, "format": "hardpoint/1", "op": prepared.op,
                        "result": execute(prepared, progress, cancel)}
        except Exception as exc:  # noqa: BLE001 - a run that fails answers with an error, the server goes on
            document = error_document(prepared.id, prepared.op, exc)
        try:
            self.write(document)
        except _Closed:
            pass
        finally:
            # Only once its answer is out is the id free: a cancel until then finds the run (no second answer with
            # its id), and a new run with the same id is refused until the client has the first one's answer.
            with self.jobs_lock:
                self.jobs.pop(prepared.id, None)

    def cancel(self, request: dict[str, Any]) -> None:
        """`{"op": "cancel", "id": 7}`: stop run 7 (its own response says it was interrupted); no line of its own."""
        rid = request.get("id")
        extra = [k for k in request if k not in ("id", "op")]
        if extra:
            self._error(rid if _simple(rid) else None, None,
                        RequestError("not a field of cancel (it takes id)", field=str(extra[0])[:80], value=None,
                                     rule="PROTO-02"))
            return
        with self.jobs_lock:
            event = self.jobs.get(rid) if _simple(rid) else None
        if event is None:
            self._error(rid if _simple(rid) else None, None,
                        RequestError("no run with this id is in flight", field="id",
                                     value=rid if _simple(rid) else None, rule="PROTO-02"))
            return
        event.set()

    def cancel_all(self) -> None:
        with self.jobs_lock:
            for event in self.jobs.values():
                event.set()


def _simple(rid: Any) -> bool:
    return rid is None or isinstance(rid, (int, str)) and not isinstance(rid, bool) and len(str(rid)) <= 256


def serve_stdio(max_trials: int | None = None, max_line: int | None = None, max_jobs: int = 4,
                stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """`hardpoint serve --stdio`: answer requests on standard input until it ends; return the exit status."""
    limits = Limits(max_trials=max_trials or DEFAULT_LIMITS.max_trials,
                    max_request_bytes=max_line or DEFAULT_LIMITS.max_request_bytes)
    server = StdioServer(stdin or sys.stdin.buffer, stdout or sys.stdout.buffer, limits, max_jobs)
    print(f"hardpoint: serving JSON lines on standard input (pid {os.getpid()}); end of input stops", file=sys.stderr,
          flush=True)
    # standard output carries the protocol's lines only: anything else printed while serving goes to standard error
    shown, sys.stdout = sys.stdout, sys.stderr
    try:
        status = server.serve()
    finally:
        sys.stdout = shown
    if status == 141:
        _quiet_stdout()
    return status


def _quiet_stdout() -> None:
    # the reader went away: point stdout at /dev/null so the interpreter's last flush cannot fail again
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
