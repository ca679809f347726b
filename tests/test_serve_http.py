"""`hardpoint serve --http` as a real uvicorn process on a loopback port, exercised with a real HTTP client (PROTO-03)."""
import json
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import jsonschema
import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

import hardpoint  # noqa: E402
from hardpoint import documents, protocol  # noqa: E402

SCHEMAS = protocol.protocol_schemas()
REGISTRY = protocol.schema_registry()
MAX_BODY = 300_000
MAX_TRIALS = 10**10


def _validator(name):
    return jsonschema.Draft202012Validator(SCHEMAS[name], registry=REGISTRY)


RESPONSE, JOB = _validator("response"), _validator("job")


@pytest.fixture(scope="module")
def base():
    """The server on a free loopback port (port 0: it names the port it got), stopped at the end."""
    p = subprocess.Popen([sys.executable, "-m", "hardpoint.cli", "serve", "--http", "127.0.0.1:0", "--max-body", str(MAX_BODY),
                          "--max-trials", str(MAX_TRIALS), "--max-jobs", "4"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = p.stderr.readline().decode()
    m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    assert m, line + p.stderr.read().decode()
    url = f"http://127.0.0.1:{m.group(1)}"
    for _ in range(100):
        try:
            if httpx.get(url + "/v1/version", timeout=5).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.1)
    yield url
    p.terminate()
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    err = p.stderr.read().decode()
    assert "Traceback" not in err, err


@pytest.fixture(scope="module")
def client(base):
    with httpx.Client(base_url=base, timeout=120) as c:
        yield c


def ok(response, status=200):
    assert response.status_code == status, response.text[:500]
    doc = response.json()
    RESPONSE.validate(doc)
    assert "error" not in doc
    return doc


def refused(response, status, field, rule):
    assert response.status_code == status, response.text[:500]
    doc = response.json()
    RESPONSE.validate(doc)
    assert (doc["error"]["field"], doc["error"]["rule"]) == (field, rule), doc["error"]
    return doc["error"]


def test_proto_03_the_server_listens_on_loopback_by_default():
    """PROTO-03: with no host, `serve --http` binds 127.0.0.1."""
    from hardpoint.web import parse_bind

    assert parse_bind(":0") == ("127.0.0.1", 0) and parse_bind("8000") == ("127.0.0.1", 8000)
    assert parse_bind("[::1]:9") == ("::1", 9) and parse_bind("0.0.0.0:80") == ("0.0.0.0", 80)
    with pytest.raises(hardpoint.HardpointError):
        parse_bind("host:port")


def test_proto_03_explain_resolve_exact_duel_schema_version(client):
    """PROTO-03: every one-shot endpoint answers the protocol's response, equal to the Python API's documents."""
    tohit = hardpoint.load_scenario("builtin:cw_tohit_example")
    doc = ok(client.post("/v1/explain", json={"id": 1, "builtin": "cw_tohit_example"}))
    assert doc["id"] == 1 and doc["op"] == "explain" and doc["result"] == documents.explain_document(tohit)
    default = hardpoint.load_scenario("builtin:default")
    doc = ok(client.post("/v1/resolve", json={"id": "r", "builtin": "default", "seed": 7}))
    assert doc["result"] == json.loads(protocol.dumps(documents.resolve_document(hardpoint.resolve(default, seed=7))))
    doc = ok(client.post("/v1/resolve", json={"builtin": "cw_tohit_example", "dice": [5, 5, 3]}))
    assert doc["result"]["event"] == "phase_result"
    doc = ok(client.post("/v1/exact", json={"builtin": "cw_tohit_example", "attack": "mg_at_tire"}))
    assert doc["result"] == documents.exact_document(tohit, hardpoint.exact(tohit, attack="mg_at_tire"))
    doc = ok(client.post("/v1/duel", json={"a": "hunter", "b": "razor", "trials": 30, "turns": 3, "seed": 2}))
    from hardpoint.duel import duel

    strip = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    assert strip(doc["result"]) == strip(duel("hunter", "razor", 30, 2, turns=3).to_dict())
    assert ok(client.get("/v1/schema"))["result"] == hardpoint.scenario_schema()
    assert ok(client.get("/v1/schema/request.run"))["result"] == SCHEMAS["request.run"]
    assert ok(client.get("/v1/version"))["result"]["version"] == hardpoint.__version__
    api = client.get("/openapi.json").json()
    assert {"/v1/explain", "/v1/resolve", "/v1/exact", "/v1/duel", "/v1/jobs", "/v1/jobs/{key}", "/v1/schema",
            "/v1/version"} <= set(api["paths"])
    assert {"ExplainRequest", "RunRequest", "DuelRequest", "ResponseDocument", "JobDocument"} <= set(api["components"]["schemas"])


def test_proto_03_every_error_is_a_4xx_with_the_error_document(client):
    """PROTO-03: malformed bodies, unknown fields and paths, bad values, oversize bodies and too many trials answer
    4xx with the protocol's error document (field, value, rule)."""
    refused(client.post("/v1/explain", content=b"{not json"), 400, "(body)", "PROTO-03")
    refused(client.post("/v1/explain", json=[1, 2]), 422, "(body)", "PROTO-03")
    refused(client.post("/v1/explain", json={"builtin": "cw_duel", "colour": "red"}), 422, "colour", "PROTO-03")
    refused(client.post("/v1/explain", json={"builtin": "nothing"}), 422, "scenario", "CLI-02")
    refused(client.post("/v1/explain", json={}), 422, "scenario", "PROTO-01")
    bad = {"scenario": {"name": "x", "ruleset": "carwars"}, "vehicle": [{"id": "a", "design": "zzz"}]}
    refused(client.post("/v1/explain", json={"scenario": bad}), 422, "vehicle[0].design", "CW-VEH-05")
    refused(client.post("/v1/resolve", json={"builtin": "cw_duel", "seed": "7"}), 422, "seed", "PROTO-03")
    refused(client.post("/v1/resolve", json={"builtin": "cw_duel"}), 422, "seed", "CLI-01")
    refused(client.post("/v1/resolve", json={"builtin": "cw_tohit_example", "dice": [5]}), 422, "dice", "DICE-04")
    refused(client.post("/v1/exact", json={"builtin": "cw_tohit_example", "attack": "nope"}), 422, "attack", "FAST-02")
    refused(client.post("/v1/duel", json={"a": "hunter", "b": "/etc/passwd"}), 422, "b", "FIGHT-06")
    refused(client.get("/v1/nothing"), 404, "(path)", "PROTO-03")
    refused(client.get("/v1/schema/nothing"), 404, "name", "PROTO-01")
    refused(client.get("/v1/jobs/0123"), 404, "job", "PROTO-03")
    refused(client.delete("/v1/jobs/0123"), 404, "job", "PROTO-03")
    refused(client.post("/v1/jobs", json={"builtin": "cw_duel", "trials": MAX_TRIALS + 1}), 422, "trials", "PROTO-03")
    refused(client.post("/v1/jobs", json={"builtin": "cw_duel", "trials": 0}), 422, "trials", "PROTO-03")
    refused(client.post("/v1/jobs", json={"op": "explain", "builtin": "cw_duel"}), 422, "(body)", "PROTO-03")
    refused(client.post("/v1/jobs", json={"op": "duel", "a": "hunter", "b": "zzz"}), 422, "b", "FIGHT-06")
    big = {"scenario": {"scenario": {"name": "x" * MAX_BODY, "ruleset": "carwars"}}}
    refused(client.post("/v1/explain", json=big), 413, "(body)", "SAFE-01")

    def chunks():       # no Content-Length: the limit counts the bytes as they come
        yield b'{"builtin": "'
        for _ in range(40):
            yield b"x" * 10_000
        yield b'"}'

    refused(client.post("/v1/explain", content=chunks()), 413, "(body)", "SAFE-01")
    error = client.post("/v1/explain", json={"id": 5, "builtin": "cw_duel", "extra": 1}).json()
    assert error["id"] == 5


def _wait(client, job, timeout=120):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        doc = client.get(f"/v1/jobs/{job}").json()
        JOB.validate(doc)
        if doc["status"] not in ("queued", "running"):
            return doc
        time.sleep(0.05)
    raise AssertionError("job did not finish")


def test_proto_03_a_run_as_a_job_equals_the_python_api(client):
    """PROTO-03: POST /v1/jobs accepts a run (202), GET follows it to done; the result equals run_batch's."""
    r = client.post("/v1/jobs", json={"id": "j1", "builtin": "cw_tohit_example", "trials": 20000, "seed": 4})
    assert r.status_code == 202 and r.headers["location"] == f"/v1/jobs/{r.json()['job']}"
    JOB.validate(r.json())
    doc = _wait(client, r.json()["job"])
    assert doc["status"] == "done" and doc["progress"] == 1.0 and doc["response"]["id"] == "j1"
    api = hardpoint.run_batch(hardpoint.load_scenario("builtin:cw_tohit_example"), 20000, seed=4, keep="summary").to_dict()
    strip = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    assert strip(doc["response"]["result"]) == strip(api)


def test_proto_03_a_long_job_streams_progress_and_is_cancelled(client, base):
    """PROTO-03: a run of 10**10 trials reports progress (polled and as server-sent events); DELETE cancels it and
    its response covers the trials done."""
    r = client.post("/v1/jobs", json={"id": 9, "builtin": "default", "trials": 10**10})
    job = r.json()["job"]
    events = []
    with httpx.stream("GET", f"{base}/v1/jobs/{job}/events", timeout=120) as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
                if len(events) == 3:
                    break
    assert all(e["job"] == job and 0 <= e["progress"] < 1 for e in events)
    cancelled = client.delete(f"/v1/jobs/{job}")
    assert cancelled.status_code == 200
    doc = _wait(client, job)
    assert doc["status"] == "cancelled"
    result = doc["response"]["result"]
    assert result["interrupted"] is True and 0 < result["trials"] < 10**10


def test_proto_03_a_bounded_load_of_explains_and_runs(base):
    """PROTO-03: 200 concurrent explain requests and 8 concurrent small runs: no error, every result equal to the
    Python API's. Latency percentiles are printed, never asserted (machines are noisy)."""
    expected = documents.explain_document(hardpoint.load_scenario("builtin:cw_tohit_example"))
    latencies = []

    def explain(i):
        with httpx.Client(base_url=base, timeout=120) as c:
            start = time.perf_counter()
            r = c.post("/v1/explain", json={"id": i, "builtin": "cw_tohit_example"})
            latencies.append(time.perf_counter() - start)
            return r.status_code, r.json()

    def run(i):
        with httpx.Client(base_url=base, timeout=120) as c:
            r = c.post("/v1/jobs", json={"id": f"run{i}", "builtin": "cw_tohit_example", "trials": 5000, "seed": i,
                                         "threads": 1})
            assert r.status_code == 202, r.text
            return _wait(c, r.json()["job"])

    with ThreadPoolExecutor(max_workers=64) as pool:
        runs = [pool.submit(run, i) for i in range(8)]
        explains = list(pool.map(explain, range(200)))
        runs = [f.result() for f in runs]
    for i, (status, doc) in enumerate(explains):
        assert status == 200 and doc["id"] == i and doc["result"] == expected
    tohit = hardpoint.load_scenario("builtin:cw_tohit_example")
    strip = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    for i, doc in enumerate(runs):
        assert doc["status"] == "done"
        assert strip(doc["response"]["result"]) == strip(hardpoint.run_batch(tohit, 5000, seed=i, keep="summary").to_dict())
    latencies.sort()
    pct = {q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 for q in (0.5, 0.9, 0.99)}
    print(f"200 concurrent explains: p50 {pct[0.5]:.1f} ms, p90 {pct[0.9]:.1f} ms, p99 {pct[0.99]:.1f} ms")


def test_proto_03_without_the_extra_serve_http_says_which_to_install(tmp_path):
    """PROTO-03: without FastAPI, `serve --http` prints one line naming the extra and exits 2, no traceback."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text("import sys\nsys.modules['fastapi'] = None\n")
    import os

    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    p = subprocess.run([sys.executable, "-m", "hardpoint.cli", "serve", "--http", "127.0.0.1:0"], capture_output=True,
                       text=True, timeout=60, env=env)
    assert p.returncode == 2 and "hardpoint[server]" in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_proto_03_too_many_jobs_is_a_429_and_queued_jobs_cancel():
    """PROTO-03: with --max-jobs 1 a server holds 16 jobs waiting or running; the 17th is refused with 429, and a
    queued job cancelled before it starts ends cancelled."""
    p = subprocess.Popen([sys.executable, "-m", "hardpoint.cli", "serve", "--http", ":0", "--max-jobs", "1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        m = re.search(r"http://127\.0\.0\.1:(\d+)", p.stderr.readline().decode())
        assert m
        with httpx.Client(base_url=f"http://127.0.0.1:{m.group(1)}", timeout=120) as c:
            for _ in range(100):
                try:
                    c.get("/v1/version")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            jobs = []
            for i in range(16):
                r = c.post("/v1/jobs", json={"id": i, "builtin": "default", "trials": 10**10})
                assert r.status_code == 202, r.text
                jobs.append(r.json()["job"])
            refused(c.post("/v1/jobs", json={"id": 16, "builtin": "default", "trials": 10}), 429, "(jobs)", "PROTO-03")
            assert c.get(f"/v1/jobs/{jobs[-1]}").json()["status"] == "queued"
            for job in reversed(jobs):
                assert c.delete(f"/v1/jobs/{job}").status_code == 200
            ended = [_wait(c, job) for job in jobs]
            assert all(doc["status"] == "cancelled" for doc in ended)
            assert ended[-1]["response"]["error"]["message"] == "cancelled before it started"
            assert ended[0]["response"]["result"]["interrupted"] is True
            assert c.post("/v1/jobs", json={"builtin": "default", "trials": 10}).status_code == 202
    finally:
        p.terminate()
        p.wait(timeout=30)
    assert "Traceback" not in p.stderr.read().decode()
