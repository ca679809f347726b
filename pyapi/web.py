"""`hardpoint serve --http HOST:PORT`: the protocol over HTTP with FastAPI and uvicorn (PROTO-03).

    POST   /v1/explain   /v1/resolve   /v1/exact   /v1/duel     one request, its response
    GET    /v1/schema    /v1/schema/{name}   /v1/version
    POST   /v1/jobs                      a run (or a duel) as a job: 202 and its job id
    GET    /v1/jobs/{job}                status, progress and, when done, the response
    GET    /v1/jobs/{job}/events         progress as server-sent events, then the job
    DELETE /v1/jobs/{job}                cancel (the response then covers the trials done)

Bodies are the protocol's requests without "op" (the path names it); every
answer is the protocol's response document (`hardpoint.protocol`), errors
included, with a 4xx status: 400 a body that is not JSON, 404 an unknown
path or job, 413 a body over the limit, 422 a request the protocol refuses
(field, value, rule), 429 too many jobs; 500 only for a bug. The request
models are Pydantic models, so /openapi.json and /docs describe them. A job's
request is checked in full, its scenario loaded, before the job is accepted.

FastAPI and uvicorn are an optional extra: `pip install 'hardpoint[server]'`.
Bound to 127.0.0.1 unless another host is given.
"""
from __future__ import annotations

import asyncio
import sys
import threading
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from .errors import RequestError
from .protocol import (DEFAULT_LIMITS, FORMAT, Limits, Prepared, dumps, error_document, execute, prepare,
                       respond)

try:  # the optional extra: this module imports without it, and says so when a server is asked for
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import Response, StreamingResponse
    from starlette.concurrency import run_in_threadpool
    from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag
    from starlette.exceptions import HTTPException as StarletteHTTPException
    HAVE_SERVER = True
except ImportError:  # pragma: no cover - tested by a subprocess without the extra
    HAVE_SERVER = False

__all__ = ["create_app", "serve_http", "parse_bind", "HAVE_SERVER", "EXTRA_HINT"]

EXTRA_HINT = "serve --http needs FastAPI and uvicorn: pip install 'hardpoint[server]'"
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765
QUEUED_PER_WORKER = 16        # jobs waiting or running, for each run at once (--max-jobs): more are a 429
INLINE_BODY = 64 * 1024        # explain requests up to this many bytes are answered on the event loop
MAX_JOBS_KEPT = 256            # finished jobs kept for GET; the oldest are forgotten first


def parse_bind(text: str) -> tuple[str, int]:
    """HOST:PORT, :PORT or PORT (host 127.0.0.1), [v6]:PORT; port 0 picks a free one."""
    host, port = DEFAULT_HOST, str(DEFAULT_PORT)
    text = text.strip()
    if text.startswith("["):
        inside, _, rest = text[1:].partition("]")
        host, port = inside, rest.lstrip(":") or port
    elif ":" in text:
        h, _, port = text.rpartition(":")
        host = h or host
    elif text:
        port = text
    if not port.isdigit() or not 0 <= int(port) <= 65535 or not host:
        raise RequestError("expected HOST:PORT with a port from 0 to 65535", field="--http", value=text, rule="PROTO-03")
    return host, int(port)


# --- jobs ----------------------------------------------------------------------------------------------------------

class Job:
    def __init__(self, prepared: Prepared) -> None:
        self.job = uuid.uuid4().hex
        self.prepared = prepared
        self.status = "queued"
        self.progress = 0.0
        self.cancel = threading.Event()
        self.response: dict[str, Any] | None = None
        self.done = threading.Event()

    def document(self) -> dict[str, Any]:
        out: dict[str, Any] = {"job": self.job, "id": self.prepared.id, "op": self.prepared.op, "status": self.status,
                               "progress": self.progress}
        if self.response is not None:
            out["response"] = self.response
        return out


class Jobs:
    """Runs in worker threads, at most `workers` at once and `limit` waiting or running."""

    def __init__(self, workers: int, limit: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hardpoint-job")
        self.limit = limit
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.lock = threading.Lock()

    def submit(self, prepared: Prepared) -> Job:
        job = Job(prepared)
        with self.lock:
            active = sum(1 for j in self.jobs.values() if not j.done.is_set())
            if active >= self.limit:
                raise _TooMany(active)
            self.jobs[job.job] = job
            finished = [k for k, j in self.jobs.items() if j.done.is_set()]
            for k in finished[:max(0, len(finished) - MAX_JOBS_KEPT)]:
                del self.jobs[k]
        self.pool.submit(self._run, job)
        return job

    def get(self, key: str) -> Job | None:
        with self.lock:
            return self.jobs.get(key)

    def _run(self, job: Job) -> None:
        if job.cancel.is_set():
            job.status = "cancelled"
            job.response = error_document(job.prepared.id, job.prepared.op, RequestError(
                "cancelled before it started", field="job", value=job.job, rule="PROTO-03"))
            job.done.set()
            return
        job.status = "running"

        def progress(fraction: float) -> None:
            job.progress = round(fraction, 4)

        try:
            result = execute(job.prepared, progress, job.cancel)
            job.response = {"id": job.prepared.id, "format": FORMAT, "op": job.prepared.op, "result": result}
            job.status = "cancelled" if result.get("interrupted") else "done"
            if job.status == "done":
                job.progress = 1.0
        except Exception as exc:  # noqa: BLE001 - a failed run is a document, never a dead worker
            job.response = error_document(job.prepared.id, job.prepared.op, exc)
            job.status = "failed"
        job.done.set()

    def shutdown(self) -> None:
        with self.lock:
            for j in self.jobs.values():
                j.cancel.set()
        self.pool.shutdown(wait=True)


class _TooMany(Exception):
    def __init__(self, active: int) -> None:
        self.active = active


# --- the application -----------------------------------------------------------------------------------------------

def _json(document: Any, status: int = 200, headers: dict[str, str] | None = None) -> "Response":
    return Response(content=dumps(document).encode("ascii"), status_code=status, media_type="application/json",
                    headers=headers)


def _status_of(response: dict[str, Any]) -> int:
    error = response.get("error")
    if error is None:
        return 200
    return 500 if error.get("type") == "internal" else 422


if HAVE_SERVER:
    # The Pydantic models of the requests and responses (they make the OpenAPI description).
    strict = ConfigDict(extra="forbid", strict=True)
    Id = int | str | None   # noqa: N816

    class ScenarioRequest(BaseModel):
        model_config = strict
        id: Id = Field(None, description="echoed in the response")
        scenario: dict[str, Any] | None = Field(None, description="a scenario document, as in a .json scenario file")
        builtin: str | None = Field(None, description="a built-in scenario's name (hardpoint scenarios)")

    class ExplainRequest(ScenarioRequest):
        """Itemised odds of every declared attack, without rolling (LOG-02)."""

    class ResolveRequest(ScenarioRequest):
        """One trial, rolled with the dice of a seed, or with scripted dice (LOG-01, DICE-04)."""
        seed: int | None = Field(None, ge=0, le=2**64 - 1)
        dice: list[int] | None = Field(None, description="scripted die faces 1..6, in order")

    class ExactRequest(ScenarioRequest):
        """Exact odds (FAST-02) of every declared attack, or of one."""
        attack: str | None = None

    class RunRequest(ScenarioRequest):
        """N trials of a scenario (FAST-01), as a job."""
        op: Literal["run"] = "run"
        trials: int | None = Field(None, ge=1)
        seed: int | None = Field(None, ge=0, le=2**64 - 1)
        first_trial: int | None = Field(None, ge=0)
        threads: int | None = Field(None, ge=1)
        backend: Literal["auto", "compiled", "reference"] | None = None
        phase_only: bool | None = None

    class DuelRequest(BaseModel):
        """Two stock designs fight to the finish (FIGHT-06)."""
        model_config = strict
        id: Id = None
        op: Literal["duel"] = "duel"
        a: str
        b: str
        range: float | None = Field(None, ge=0.5, le=1000)
        aspect: Literal["head-on", "tail-chase", "broadside", "parallel"] | None = None
        speed: float | None = None
        turns: int | None = Field(None, ge=1, le=1000)
        trials: int | None = Field(None, ge=1)
        seed: int | None = Field(None, ge=0, le=2**64 - 1)
        threads: int | None = Field(None, ge=1)
        backend: Literal["auto", "compiled", "reference"] | None = None

    def _job_op(value: Any) -> str:
        return value.get("op", "run") if isinstance(value, dict) else "run"

    JobRequest = Annotated[Annotated[RunRequest, Tag("run")] | Annotated[DuelRequest, Tag("duel")],  # noqa: N816
                           Discriminator(_job_op)]

    class ErrorDocument(BaseModel):
        type: str = Field(description="the HardpointError's class, or internal for a bug")
        field: str
        value: Any = None
        rule: str
        message: str

    class ResponseDocument(BaseModel):
        """The protocol's response: the result (the document of `hardpoint <op> --json`) or the error."""
        id: Id = None
        format: Literal["hardpoint/1"] = "hardpoint/1"
        op: str | None = None
        result: Any = None
        error: ErrorDocument | None = None

    class JobDocument(BaseModel):
        job: str
        id: Id = None
        op: Literal["run", "duel"]
        status: Literal["queued", "running", "done", "cancelled", "failed"]
        progress: float
        response: ResponseDocument | None = None


class _BodyLimit:
    """Refuse a body over the limit before the application reads it (413 with an error document)."""

    def __init__(self, app, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                return await self._refuse(send, int(value))
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                return await self._refuse(send, size)
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = b"".join(chunks)
        sent = [False]

        async def replay():
            if not sent[0]:
                sent[0] = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        # every body is JSON (a client's form or text content type is read as JSON all the same)
        headers = [(k, v) for k, v in scope.get("headers", ()) if k != b"content-type"]
        scope = {**scope, "headers": [*headers, (b"content-type", b"application/json")]}
        return await self.app(scope, replay, send)

    async def _refuse(self, send, size: int) -> None:
        doc = error_document(None, None, RequestError(f"a request body is at most {self.limit:,} bytes", field="(body)",
                                                      value=size, rule="SAFE-01"))
        body = dumps(doc).encode("ascii")
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def create_app(limits: Limits = DEFAULT_LIMITS, max_jobs: int = 4, max_queued: int | None = None):
    """The ASGI application: FastAPI routes wrapped in the body limit. `app.state.jobs` holds the jobs."""
    if not HAVE_SERVER:
        raise RequestError(EXTRA_HINT, field="--http", value=None, rule="PROTO-03")
    from . import __version__

    jobs = Jobs(max_jobs, max_queued or QUEUED_PER_WORKER * max_jobs)

    @asynccontextmanager
    async def lifespan(_app):
        yield
        jobs.shutdown()

    api = FastAPI(title="hardpoint", version=__version__, lifespan=lifespan,
                  description="Combat resolution for Car Wars and ASL D15: the protocol of docs/protocol.md over HTTP.")
    api.state.jobs = jobs
    api.state.limits = limits
    answers: dict[int | str, dict[str, Any]] = {
        200: {"model": ResponseDocument}, 422: {"model": ResponseDocument, "description": "a refused request"}}

    def answer(op: str, body: BaseModel) -> Response:
        request = body.model_dump(exclude_none=True)
        request["op"] = op
        response = respond(request, limits)
        return _json(response, _status_of(response))

    @api.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        errors = exc.errors()
        first = errors[0] if errors else {}
        status = 400 if first.get("type") == "json_invalid" else 422
        # the field's path in the body: without "body" and without the tag of the job's kind
        loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "run", "duel")] if status == 422 else []
        value = first.get("input")
        if status == 400 or isinstance(value, (dict, list)):
            value = None
        body = getattr(exc, "body", None)
        rid = body.get("id") if isinstance(body, dict) else None
        rid = rid if rid is None or isinstance(rid, (int, str)) and not isinstance(rid, bool) and len(str(rid)) <= 256 else None
        doc = error_document(rid, None, RequestError(str(first.get("msg", "invalid request")),
                                                      field=".".join(loc) or "(body)", value=value, rule="PROTO-03"))
        return _json(doc, status)

    @api.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        doc = error_document(None, None, RequestError(str(exc.detail), field="(path)", value=request.url.path[:200],
                                                      rule="PROTO-03"))
        return _json(doc, exc.status_code)

    @api.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception):   # pragma: no cover - respond() never raises
        return _json(error_document(None, None, exc), 500)

    @api.post("/v1/explain", responses=answers, response_model=None)
    async def explain(body: ExplainRequest, request: Request) -> Response:
        """Every declared attack's to-hit breakdown and exact odds, without rolling (LOG-02)."""
        # a small request is answered on the event loop (a known scenario's explain is cached: tens of microseconds);
        # a large document, whose load takes long, in a worker thread, so that it holds up no other request
        if int(request.headers.get("content-length") or INLINE_BODY + 1) <= INLINE_BODY:
            return answer("explain", body)
        return await run_in_threadpool(answer, "explain", body)

    @api.post("/v1/resolve", responses=answers, response_model=None)
    async def resolve(body: ResolveRequest) -> Response:
        """One trial and its event log (LOG-01)."""
        return await run_in_threadpool(answer, "resolve", body)

    @api.post("/v1/exact", responses=answers, response_model=None)
    async def exact(body: ExactRequest) -> Response:
        """Exact odds (FAST-02)."""
        return await run_in_threadpool(answer, "exact", body)

    @api.post("/v1/duel", responses=answers, response_model=None)
    def duel(body: DuelRequest) -> Response:
        """A duel of two stock designs, answered when it is done (a long one is better as a job)."""
        return answer("duel", body)

    @api.get("/v1/version", responses=answers, response_model=None)
    async def version() -> Response:
        return _json(respond({"op": "version"}, limits))

    @api.get("/v1/schema", responses=answers, response_model=None)
    async def schema() -> Response:
        """The JSON Schema of scenario documents (CLI-02)."""
        return _json(respond({"op": "schema"}, limits))

    @api.get("/v1/schema/{name}", responses=answers, response_model=None)
    async def schema_named(name: str) -> Response:
        """A protocol schema by name (request.run, response, ...) or scenario."""
        response = respond({"op": "schema", "name": name}, limits)
        return _json(response, 404 if "error" in response else 200)

    @api.post("/v1/jobs", status_code=202, response_model=None,
              responses={202: {"model": JobDocument}, 422: {"model": ResponseDocument}, 429: {"model": ResponseDocument}})
    async def submit(body: JobRequest) -> Response:
        """Start a run (or a duel) as a job; the request is checked in full before it is accepted."""
        request = body.model_dump(exclude_none=True)
        try:
            prepared = await run_in_threadpool(prepare, request, limits)
        except Exception as exc:  # noqa: BLE001
            response = error_document(request.get("id"), request.get("op"), exc)
            return _json(response, _status_of(response))
        try:
            job = jobs.submit(prepared)
        except _TooMany as busy:
            return _json(error_document(prepared.id, prepared.op, RequestError(
                f"{busy.active} jobs waiting or running; try again when one is done", field="(jobs)", value=busy.active,
                rule="PROTO-03")), 429)
        return _json(job.document(), 202, {"Location": f"/v1/jobs/{job.job}"})

    def _job(key: str):
        job = jobs.get(key)
        if job is None:
            return None, _json(error_document(None, None, RequestError("no such job", field="job", value=key[:80],
                                                                       rule="PROTO-03")), 404)
        return job, None

    @api.get("/v1/jobs/{key}", responses={200: {"model": JobDocument}, 404: {"model": ResponseDocument}},
             response_model=None)
    async def job_status(key: str) -> Response:
        """A job's status, its progress and, when done, the response."""
        job, missing = _job(key)
        return missing or _json(job.document())

    @api.delete("/v1/jobs/{key}", responses={200: {"model": JobDocument}, 404: {"model": ResponseDocument}},
                response_model=None)
    async def job_cancel(key: str) -> Response:
        """Cancel a job: it stops between chunks; its response covers the trials done ("interrupted": true)."""
        job, missing = _job(key)
        if missing:
            return missing
        job.cancel.set()
        return _json(job.document())

    @api.get("/v1/jobs/{key}/events", response_model=None)
    async def job_events(key: str) -> Response:
        """Server-sent events: `progress` events while it runs, then one `job` event with the whole job."""
        job, missing = _job(key)
        if missing:
            return missing

        async def stream():
            last = -1.0
            while not job.done.is_set():
                if job.progress != last:
                    last = job.progress
                    yield f"event: progress\ndata: {dumps({'job': job.job, 'id': job.prepared.id, 'progress': last})}\n\n"
                await asyncio.sleep(0.2)
            yield f"event: job\ndata: {dumps(job.document())}\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")

    app = _BodyLimit(api, limits.max_request_bytes)
    app.state = api.state               # type: ignore[attr-defined]
    app.fastapi = api                   # type: ignore[attr-defined]
    return app


def serve_http(bind: str, max_trials: int | None = None, max_body: int | None = None, max_jobs: int = 4) -> int:
    """`hardpoint serve --http HOST:PORT`: serve until interrupted; return the exit status."""
    if not HAVE_SERVER:
        print(f"hardpoint: error: {EXTRA_HINT}", file=sys.stderr)
        return 2
    import socket

    import uvicorn

    host, port = parse_bind(bind)
    limits = Limits(max_trials=max_trials or DEFAULT_LIMITS.max_trials,
                    max_request_bytes=max_body or DEFAULT_LIMITS.max_request_bytes)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        print(f"hardpoint: error: --http={bind!r}: cannot listen: {exc.strerror} (PROTO-03)", file=sys.stderr)
        return 2
    sock.listen(2048)
    port = sock.getsockname()[1]
    app = create_app(limits, max_jobs)
    shown = f"[{host}]" if ":" in host else host
    print(f"hardpoint: serving HTTP on http://{shown}:{port} (docs at /docs); Ctrl-C stops", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", backlog=2048)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        return 130
    finally:
        sock.close()
    return 0

