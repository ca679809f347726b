"""Protocol benchmarks (PROTO-02, PROTO-03, PERF-01): the stdio and HTTP servers as real processes.

- stdio: `explain` requests a second for the golden example (the to-hit
  example of seeds/scenarios/cw_tohit_example.toml), pipelined on one
  connection; sent as a built-in's name and as the whole scenario document.
  Target: at least 2,000 a second.
- HTTP: `explain` requests a second with 50 concurrent clients (keep-alive
  connections of a minimal asyncio client, so the client costs little of the
  machine's two cores), and the latency percentiles. Target: at least 500 a
  second, p99 under 50 ms.
- a million-trial run through the protocol against the command line's
  `run --json`, in one process, interleaved; and end to end (a request to a
  running stdio server against the whole `hardpoint run` command). Target:
  within 1.2x of the command line.

Run: `pytest benchmarks/test_bench_protocol.py -s`.
"""
import asyncio
import contextlib
import io
import json
import re
import subprocess
import sys
import threading
import time
import tomllib
from importlib import resources

import pytest

from hardpoint import protocol

from .conftest import interleaved, scaled

GOLDEN = "cw_tohit_example"
DOC = tomllib.loads(resources.files("hardpoint.seeds").joinpath(f"scenarios/{GOLDEN}.toml").read_text())


class StdioServer:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "hardpoint.cli", "serve", "--stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def ask(self, lines: list[bytes]) -> list[bytes]:
        """Send every line (from a writer thread) and read as many answers (progress lines skipped)."""
        writer = threading.Thread(target=lambda: (self.proc.stdin.write(b"".join(lines)), self.proc.stdin.flush()))
        writer.start()
        out = []
        while len(out) < len(lines):
            line = self.proc.stdout.readline()
            assert line, "the server stopped"
            if b'"progress"' not in line[:40]:
                out.append(line)
        writer.join()
        return out

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _explains(n: int, document: bool, fresh: bool = False) -> list[bytes]:
    """n explain requests: by the built-in's name, or with the document (`fresh`: each a new document, named
    after its id, so the server's scenario cache never holds it and every request loads its scenario)."""
    if fresh:
        return [json.dumps({"id": i, "op": "explain", "scenario": {**DOC, "scenario": {**DOC["scenario"], "name": f"golden {i}"}}})
                .encode() + b"\n" for i in range(n)]
    req = {"op": "explain", "scenario": DOC} if document else {"op": "explain", "builtin": GOLDEN}
    return [json.dumps({"id": i, **req}).encode() + b"\n" for i in range(n)]


def test_bench_stdio_explain_requests_a_second(benchmark, report):
    """PROTO-02: explain requests a second over serve --stdio (target >= 2,000)."""
    n = scaled(20_000)
    server = StdioServer()
    try:
        server.ask(_explains(10, True) + _explains(10, False))          # warm: imports, the scenario cache
        rates = {}
        for document in (False, True):
            lines = _explains(n, document)
            best = float("inf")
            for _ in range(3):
                t = time.perf_counter()
                answers = server.ask(lines)
                best = min(best, time.perf_counter() - t)
            assert all(b'"result"' in a for a in answers)
            rates["document" if document else "builtin"] = n / best
        lines = _explains(n // 10, True, fresh=True)
        t = time.perf_counter()
        server.ask(lines)
        rates["fresh"] = len(lines) / (time.perf_counter() - t)
        benchmark.pedantic(lambda: server.ask(_explains(scaled(1000), False)), rounds=1, iterations=1)
    finally:
        server.close()
    report("stdio explain", requests=n, builtin_per_s=rates["builtin"], document_per_s=rates["document"],
           new_document_each_time_per_s=rates["fresh"], target_per_s=2000.0)


async def _http_load(port: int, body: bytes, clients: int, total: int) -> list[float]:
    """`total` POST /v1/explain over `clients` keep-alive connections; the latency of each."""
    request = (f"POST /v1/explain HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    latencies: list[float] = []
    left = [total]

    async def client():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while left[0] > 0:
                left[0] -= 1
                start = time.perf_counter()
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                assert head.startswith(b"HTTP/1.1 200"), head
                length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
                await reader.readexactly(length)
                latencies.append(time.perf_counter() - start)
        finally:
            writer.close()

    await asyncio.gather(*(client() for _ in range(clients)))
    return latencies


@pytest.fixture(scope="module")
def http_port():
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    p = subprocess.Popen([sys.executable, "-m", "hardpoint.cli", "serve", "--http", "127.0.0.1:0"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    m = re.search(r"127\.0\.0\.1:(\d+)", p.stderr.readline().decode())
    assert m
    port = int(m.group(1))
    for _ in range(100):
        try:
            asyncio.run(_http_load(port, json.dumps({"builtin": GOLDEN}).encode(), 1, 1))
            break
        except OSError:
            time.sleep(0.1)
    yield port
    p.terminate()
    p.wait(timeout=30)


def test_bench_http_explain_50_concurrent_clients(benchmark, report, http_port):
    """PROTO-03: explain requests a second over HTTP with 50 concurrent clients, and p50/p99 latency
    (targets >= 500 a second, p99 < 50 ms)."""
    total = scaled(10_000)
    figures = {}
    for name, body in (("builtin", {"builtin": GOLDEN}), ("document", {"scenario": DOC})):
        data = json.dumps(body).encode()
        asyncio.run(_http_load(http_port, data, 50, 500))                # warm
        t = time.perf_counter()
        lat = sorted(asyncio.run(_http_load(http_port, data, 50, total)))
        seconds = time.perf_counter() - t
        figures[f"{name}_per_s"] = total / seconds
        figures[f"{name}_p50_ms"] = lat[len(lat) // 2] * 1000
        figures[f"{name}_p99_ms"] = lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000
    benchmark.pedantic(lambda: asyncio.run(_http_load(http_port, json.dumps({"builtin": GOLDEN}).encode(), 50, 200)),
                       rounds=1, iterations=1)
    report("http explain, 50 clients", requests=total, **figures, target_per_s=500.0, target_p99_ms=50.0)


def test_bench_million_trial_run_protocol_against_the_command_line(benchmark, report):
    """PROTO-01: a million-trial run of the default scenario through the protocol against `hardpoint run --json`
    (target: within 1.2x)."""
    from hardpoint.cli import main

    trials = scaled(1_000_000)
    request = {"op": "run", "builtin": "default", "trials": trials, "seed": 1}

    def via_protocol():
        doc = protocol.handle(request)
        assert doc["result"]["trials"] == trials

    def via_cli():
        with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()):
            assert main(["run", "builtin:default", "--trials", str(trials), "--seed", "1", "--json", "--no-progress"]) == 0
        assert json.loads(out.getvalue())["trials"] == trials

    via_protocol(), via_cli()                                              # warm
    t_proto, t_cli = interleaved(via_protocol, via_cli, rounds=3, reps=2)

    # end to end: a request to a running stdio server (with its progress lines) against the whole command
    server = StdioServer()
    try:
        line = json.dumps({"id": 1, **request}).encode() + b"\n"
        server.ask([line])
        t_served = min(_timed(lambda: server.ask([line])) for _ in range(3))
    finally:
        server.close()
    t_command = min(_timed(lambda: subprocess.run([sys.executable, "-m", "hardpoint.cli", "run", "builtin:default", "--trials",
                                                   str(trials), "--seed", "1", "--json", "--no-progress"],
                                                  capture_output=True, check=True)) for _ in range(2))
    benchmark.pedantic(via_protocol, rounds=1, iterations=1)
    report("million-trial run", trials=trials, protocol_s=t_proto, cli_s=t_cli, protocol_over_cli=t_proto / t_cli,
           stdio_request_s=t_served, whole_command_s=t_command, target_ratio=1.2)


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t
