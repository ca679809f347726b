"""`hardpoint serve --stdio` as a real subprocess, driven by a scripted conversation (PROTO-02)."""
import json
import queue
import subprocess
import sys
import threading
import time

import jsonschema
import pytest

import hardpoint
from hardpoint import documents, protocol

SCHEMAS = protocol.protocol_schemas()
REGISTRY = protocol.schema_registry()
RESPONSE = jsonschema.Draft202012Validator(SCHEMAS["response"], registry=REGISTRY)
PROGRESS = jsonschema.Draft202012Validator(SCHEMAS["progress"], registry=REGISTRY)
MAX_LINE = 200_000


class Server:
    """The server process, a thread reading its output lines into a queue."""

    def __init__(self, *extra):
        self.proc = subprocess.Popen([sys.executable, "-m", "hardpoint.cli", "serve", "--stdio", "--max-body", str(MAX_LINE),
                                      *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, data):
        if isinstance(data, (dict, list)):
            data = json.dumps(data)
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def next(self, timeout=60):
        line = self.lines.get(timeout=timeout)
        assert line is not None, self.proc.stderr.read().decode()
        assert line.endswith(b"\n") and line.isascii()
        doc = json.loads(line)
        (PROGRESS if "progress" in doc else RESPONSE).validate(doc)
        return doc

    def response(self, timeout=60):
        """The next line that is not a progress line."""
        while True:
            doc = self.next(timeout)
            if "progress" not in doc:
                return doc

    def close(self):
        self.proc.stdin.close()
        rc = self.proc.wait(timeout=60)
        err = self.proc.stderr.read().decode()
        return rc, err


@pytest.fixture
def server():
    s = Server()
    yield s
    if s.proc.poll() is None:
        s.proc.kill()
        s.proc.wait()


def test_proto_02_a_scripted_conversation_with_malformed_lines(server):
    """PROTO-02: every bad line gets an error response naming field, value and rule, and the server reads on."""
    server.send({"id": 1, "op": "version"})
    assert server.response()["result"]["version"] == hardpoint.__version__
    bad = [
        (b"{not json", "(request)", "PROTO-02"),
        (b"[1, 2, 3]", "(request)", "PROTO-02"),
        (b'"just text"', "(request)", "PROTO-02"),
        (b"\xff\xfe\x00 not utf-8", "(request)", "PROTO-02"),
        (b'{"id": 2, "op": "fly"}', "op", "PROTO-02"),
        (b'{"id": 3, "op": "explain", "builtin": "cw_tohit_example", "colour": "red"}', "colour", "PROTO-02"),
        (b'{"id": 4, "op": "run", "builtin": "cw_duel", "trials": -5}', "trials", "SAFE-01"),
        (b'{"id": 5, "op": "resolve", "builtin": "cw_duel", "seed": "seven"}', "seed", "SAFE-01"),
        (b'{"id": 6, "op": "explain", "builtin": "no_such_thing"}', "scenario", "CLI-02"),
        (b'{"id": [6], "op": "version"}', "id", "PROTO-02"),
        (b"[" * 50_000, "(request)", "SAFE-01"),
        (b'{"id": 8, "op": "explain", "scenario": {"vehicle": "' + b"x" * (MAX_LINE + 10) + b'"}}', "(request)", "SAFE-01"),
        (b'{"op": "cancel", "id": 99}', "id", "PROTO-02"),
        (b'{"op": "cancel", "id": 99, "now": true}', "now", "PROTO-02"),
    ]
    for line, field, rule in bad:
        server.send(line)
        error = server.response()["error"]
        assert (error["field"], error["rule"]) == (field, rule), (line[:60], error)
        assert error["type"] == "RequestError" or error["type"].endswith("Error")
    server.send(b"")                      # a blank line asks nothing: no answer
    server.send(b"   ")
    server.send({"id": "after", "op": "explain", "builtin": "cw_tohit_example"})
    after = server.response()
    assert after["id"] == "after" and after["result"]["breakdowns"][0]["probability_exact"] == "1/6"
    rc, err = server.close()
    assert rc == 0 and "Traceback" not in err


def test_proto_02_a_long_run_sends_progress_and_is_cancelled(server):
    """PROTO-02: a run of 10**10 trials sends progress lines for its id, answers quick requests meanwhile, and a
    cancel stops it: its response covers the trials done ("interrupted": true)."""
    server.send({"id": 7, "op": "run", "builtin": "default", "trials": 10**10, "seed": 1})
    first = server.next(timeout=120)
    assert first == {"id": 7, "progress": first["progress"]} and 0 <= first["progress"] < 1
    server.send({"id": 7, "op": "run", "builtin": "default", "trials": 10, "seed": 1})     # its id is taken
    server.send({"id": 8, "op": "explain", "builtin": "cw_tohit_example"})
    seen = {}
    while 7 not in seen or 8 not in seen:
        doc = server.response()
        seen.setdefault(doc["id"], doc)
    assert seen[7]["error"]["field"] == "id" and seen[8]["op"] == "explain"
    server.send({"op": "cancel", "id": 7})
    done = server.response(timeout=120)
    assert done["id"] == 7 and done["op"] == "run"
    result = done["result"]
    assert result["interrupted"] is True and 0 < result["trials"] < 10**10 and result["requested"] == 10**10
    rc, err = server.close()
    assert rc == 0 and "Traceback" not in err


def test_proto_02_a_thousand_explain_requests_in_a_row(server):
    """PROTO-02: a thousand requests sent at once are each answered once, with its id, equal to the Python API's."""
    import tomllib
    from importlib import resources

    text = resources.files("hardpoint.seeds").joinpath("scenarios/cw_tohit_example.toml").read_text()
    doc = tomllib.loads(text)
    expected = documents.explain_document(hardpoint.load_scenario("builtin:cw_tohit_example"))
    lines = []
    for i in range(1000):
        if i % 2:
            lines.append(json.dumps({"id": i, "op": "explain", "scenario": doc}))
        else:
            lines.append(json.dumps({"id": i, "op": "explain", "builtin": "cw_tohit_example"}))
    writer = threading.Thread(target=lambda: server.send("\n".join(lines)))
    start = time.perf_counter()
    writer.start()
    answers = [server.response() for _ in range(1000)]
    seconds = time.perf_counter() - start
    writer.join()
    assert sorted(a["id"] for a in answers) == list(range(1000))
    for a in answers:
        assert a["result"]["breakdowns"] == expected["breakdowns"]
    print(f"1,000 explain requests in {seconds:.2f} s ({1000 / seconds:,.0f} a second)")
    assert server.close()[0] == 0


def test_proto_02_results_equal_the_python_apis(server):
    """PROTO-02: resolve, run, exact and duel answered over stdio equal the Python API's documents."""
    server.send({"id": "r", "op": "resolve", "builtin": "asl_d15_55_gun_on_cycle", "seed": 3})
    server.send({"id": "n", "op": "run", "builtin": "cw_tohit_example", "trials": 5000, "seed": 9})
    server.send({"id": "x", "op": "exact", "builtin": "cw_tohit_example"})
    server.send({"id": "d", "op": "duel", "a": "hunter", "b": "razor", "trials": 30, "turns": 3, "seed": 2})
    got = {}
    while len(got) < 4:
        doc = server.response(timeout=120)
        got[doc["id"]] = doc["result"]
    asl = hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")
    assert got["r"] == json.loads(protocol.dumps(documents.resolve_document(hardpoint.resolve(asl, seed=3))))
    tohit = hardpoint.load_scenario("builtin:cw_tohit_example")
    strip = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    assert strip(got["n"]) == strip(hardpoint.run_batch(tohit, 5000, seed=9, keep="summary").to_dict())
    assert got["x"] == documents.exact_document(tohit, hardpoint.exact(tohit))
    from hardpoint.duel import duel

    assert strip(got["d"]) == strip(duel("hunter", "razor", 30, 2, turns=3).to_dict())
    assert server.close()[0] == 0


def test_proto_02_end_of_input_waits_for_the_runs_in_flight():
    """PROTO-02: input that ends while a run is in flight still gets the run's answer, then the server exits 0."""
    p = subprocess.run([sys.executable, "-m", "hardpoint.cli", "serve", "--stdio"], capture_output=True, timeout=120,
                       input=json.dumps({"id": 1, "op": "run", "builtin": "cw_tohit_example", "trials": 20000}).encode() + b"\n")
    assert p.returncode == 0 and b"Traceback" not in p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert lines[-1]["id"] == 1 and lines[-1]["result"]["trials"] == 20000


def test_proto_02_a_reader_that_goes_away_ends_the_server_quietly():
    """PROTO-02, SAFE-02: when the client closes its end, the server stops without a traceback."""
    p = subprocess.Popen([sys.executable, "-m", "hardpoint.cli", "serve", "--stdio"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(json.dumps({"id": 1, "op": "run", "builtin": "default", "trials": 10**10}).encode() + b"\n")
    p.stdin.flush()
    p.stdout.readline()                   # the first progress line: the run is going
    p.stdout.close()
    p.stdin.write(json.dumps({"id": 2, "op": "version"}).encode() + b"\n")
    p.stdin.flush()
    p.stdin.close()
    rc = p.wait(timeout=120)
    err = p.stderr.read().decode()
    assert rc == 141 and "Traceback" not in err, err      # 141: the shell's code for a closed pipe


def test_proto_02_standard_output_carries_protocol_lines_only(monkeypatch, capsys):
    """PROTO-02: text printed while serving goes to standard error, never between the protocol's lines."""
    import io

    from hardpoint.serve import serve_stdio

    version = documents.version_document
    monkeypatch.setattr(documents, "version_document", lambda: (print("stray text"), version())[1])
    stdout = io.BytesIO()
    assert serve_stdio(stdin=io.BytesIO(b'{"id": 1, "op": "version"}\n'), stdout=stdout) == 0
    lines = stdout.getvalue().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["id"] == 1
    assert "stray text" in capsys.readouterr().err
