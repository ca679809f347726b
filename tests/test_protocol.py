"""The protocol's documents (PROTO-01): every op's result equals the Python API's, every response validates against
the shipped schemas, and no input makes `handle` raise."""
import json
import pathlib
import threading
from fractions import Fraction

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import documents, protocol
from hardpoint.protocol import handle, handle_json

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMAS = protocol.protocol_schemas()
REGISTRY = protocol.schema_registry()


def valid(name, document):
    """Errors of `document` against the protocol schema `name` (an empty list when it validates)."""
    validator = jsonschema.Draft202012Validator(SCHEMAS[name], registry=REGISTRY)
    return [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator.iter_errors(json.loads(protocol.dumps(document)))]


def test_proto_01_shipped_schemas_are_the_generated_ones():
    """PROTO-01: seeds/protocol holds exactly the schemas protocol_schemas() makes, each a valid JSON Schema."""
    shipped = {p.name[:-len(".schema.json")]: json.loads(p.read_text()) for p in (ROOT / "seeds/protocol").glob("*.schema.json")}
    assert shipped == SCHEMAS
    from importlib import resources

    folder = resources.files("hardpoint.seeds").joinpath("protocol")      # as the installed package holds them
    assert {p.name for p in folder.iterdir() if p.name.endswith(".schema.json")} == {f"{n}.schema.json" for n in SCHEMAS}
    for schema in SCHEMAS.values():
        jsonschema.Draft202012Validator.check_schema(schema)


REQUESTS = [
    {"id": 1, "op": "explain", "builtin": "cw_tohit_example"},
    {"id": 2, "op": "explain", "builtin": "asl_d15_55_gun_on_cycle"},
    {"id": 3, "op": "resolve", "builtin": "default", "seed": 7},
    {"id": 4, "op": "resolve", "builtin": "asl_d15_55_gun_on_cycle", "seed": 3},
    {"id": 5, "op": "resolve", "builtin": "cw_tohit_example", "dice": [5, 5, 3]},
    {"id": 6, "op": "run", "builtin": "cw_tohit_example", "trials": 2000, "seed": 1, "threads": 1},
    {"id": 7, "op": "exact", "builtin": "cw_tohit_example"},
    {"id": 8, "op": "exact", "builtin": "asl_d15_55_gun_on_cycle"},
    {"id": "d", "op": "duel", "a": "hunter", "b": "razor", "trials": 40, "turns": 3, "threads": 1},
    {"id": None, "op": "schema"},
    {"id": "s", "op": "schema", "name": "request.run"},
    {"op": "version"},
    {"id": 9, "op": "run", "builtin": "cw_tohit_example", "trials": 1},
]


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: f"{r['op']}-{r.get('id')}")
def test_proto_01_every_response_validates_against_the_shipped_schemas(request_):
    """PROTO-01: each op's response has the request's id, the format, the op and a result its schema describes."""
    response = handle(request_)
    assert "error" not in response, response
    assert (response["id"], response["format"], response["op"]) == (request_.get("id"), "hardpoint/1", request_["op"])
    assert valid("response", response) == []
    assert valid(f"request.{request_['op']}", request_) == []


def test_proto_01_results_are_the_python_apis_documents():
    """PROTO-01: the protocol's results are the documents the Python API's objects give (and --json prints)."""
    s = hardpoint.load_scenario("builtin:cw_tohit_example")
    assert handle({"op": "explain", "builtin": "cw_tohit_example"})["result"] == documents.explain_document(s)
    d = hardpoint.load_scenario("builtin:default")
    r = handle({"op": "resolve", "builtin": "default", "seed": 7})["result"]
    assert r == json.loads(protocol.dumps(documents.resolve_document(hardpoint.resolve(d, seed=7))))
    assert hardpoint.event_from_dict(r) == d.resolve(hardpoint.SeededDice(7), seed=7)
    run = handle({"op": "run", "builtin": "cw_tohit_example", "trials": 3000, "seed": 5})["result"]
    api = hardpoint.run_batch(s, 3000, seed=5, keep="summary").to_dict()
    strip = lambda doc: {k: v for k, v in doc.items() if k != "seconds"}  # noqa: E731
    assert strip(run) == strip(api)
    ex = handle({"op": "exact", "builtin": "cw_tohit_example", "attack": "mg_at_tire"})["result"]
    hit = next(o for o in ex["outcomes"] if o["measure"] == "hit")
    assert (hit["attack"], hit["exact_fraction"]) == ("mg_at_tire", "1/6") and hit["exact"] == pytest.approx(1 / 6)


def test_proto_01_probabilities_are_numbers_with_the_exact_fraction_beside_them():
    """PROTO-01: an explain breakdown's probability is a number, its exact fraction beside it as text."""
    result = handle({"op": "explain", "builtin": "asl_d15_55_gun_on_cycle"})["result"]
    odds = [b for b in result["breakdowns"] if b["event"] == "asl_outcome_odds"]
    assert all(isinstance(b["probability"], float) for b in odds)
    assert sum(Fraction(b["probability_exact"]) for b in odds) == 1
    ift = next(b for b in result["breakdowns"] if b["event"] == "asl_ift_breakdown")
    assert set(ift["distribution_exact"]) == set(ift["distribution"])


def test_proto_01_a_scenario_document_and_its_builtin_give_the_same_answers():
    """PROTO-01: a scenario sent as a document answers as its built-in does, the second time from the cache."""
    import tomllib

    doc = tomllib.loads((ROOT / "seeds/scenarios/default.toml").read_text())
    for _ in range(2):
        a = handle({"op": "resolve", "scenario": doc, "seed": 11})["result"]
        b = handle({"op": "resolve", "builtin": "default", "seed": 11})["result"]
        assert a == b
    fresh = hardpoint.parse_scenario(doc)
    assert handle({"op": "explain", "scenario": doc})["result"]["breakdowns"] == documents.explain_document(fresh)["breakdowns"]


@pytest.mark.parametrize("request_,field,rule", [
    ({"op": "nothing"}, "op", "PROTO-02"),
    ({"op": "cancel", "id": 3}, "op", "PROTO-02"),
    ({"op": "explain"}, "scenario", "PROTO-01"),
    ({"op": "explain", "builtin": "cw_duel", "scenario": {}}, "builtin", "PROTO-01"),
    ({"op": "explain", "builtin": "../../etc/passwd"}, "scenario", "CLI-02"),
    ({"op": "explain", "scenario": []}, "scenario", "CLI-02"),
    ({"op": "explain", "scenario": {"scenario": {"name": "x", "ruleset": "carwars"}, "vehicle": [{"id": "a", "design": "zzz"}]}},
     "vehicle[0].design", "CW-VEH-05"),
    ({"op": "explain", "builtin": "cw_duel", "trials": 5}, "trials", "PROTO-02"),
    ({"op": "resolve", "builtin": "cw_duel"}, "seed", "CLI-01"),
    ({"op": "resolve", "builtin": "cw_duel", "seed": 1.5}, "seed", "SAFE-01"),
    ({"op": "resolve", "builtin": "cw_duel", "seed": -1}, "seed", "SAFE-01"),
    ({"op": "resolve", "builtin": "cw_tohit_example", "dice": [7]}, "faces[0]", "DICE-04"),
    ({"op": "resolve", "builtin": "cw_tohit_example", "dice": [5]}, "dice", "DICE-04"),
    ({"op": "run", "builtin": "cw_duel", "trials": 0}, "trials", "SAFE-01"),
    ({"op": "run", "builtin": "cw_duel", "trials": "many"}, "trials", "SAFE-01"),
    ({"op": "run", "builtin": "cw_duel", "threads": 0}, "threads", "SAFE-01"),
    ({"op": "run", "builtin": "cw_duel", "backend": "gpu"}, "backend", "FAST-01"),
    ({"op": "run", "builtin": "cw_chase", "phase_only": True}, "phase_only", "CLI-01"),
    ({"op": "exact", "builtin": "cw_tohit_example", "attack": "nope"}, "attack", "FAST-02"),
    ({"op": "duel", "a": "hunter", "b": "seeds/scenarios/cw_duel.toml"}, "b", "FIGHT-06"),
    ({"op": "duel", "a": "hunter", "b": "razor", "aspect": "sideways"}, "aspect", "FIGHT-06"),
    ({"op": "duel", "a": "hunter", "b": "razor", "turns": 0}, "turns", "FIGHT-06"),
    ({"op": "schema", "name": "nothing"}, "name", "PROTO-01"),
    ({"op": "version", "id": [1]}, "id", "PROTO-02"),
    ({"op": "version", "id": "x" * 300}, "id", "PROTO-02"),
    ([1, 2], "(request)", "PROTO-02"),
    ("text", "(request)", "PROTO-02"),
])
def test_proto_01_bad_requests_are_error_documents_naming_field_value_and_rule(request_, field, rule):
    """PROTO-01, ERR-01: a refused request answers with type, field, value, rule and message, never an exception."""
    response = handle(request_)
    assert valid("response", response) == []
    error = response["error"]
    assert (error["field"], error["rule"]) == (field, rule), error
    assert error["type"] not in ("internal", "") and error["message"]


def test_proto_01_a_bug_is_an_internal_error_without_a_traceback(monkeypatch, capsys):
    """PROTO-01: an exception inside hardpoint answers type "internal", and nothing is printed."""
    def broken(*a, **k):
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr(documents, "version_document", broken)
    response = handle({"id": 4, "op": "version"})
    assert response["id"] == 4 and response["error"]["type"] == "internal"
    assert "simulated bug" in response["error"]["message"]
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("text,field", [
    ("{bad", "(request)"), ("", "(request)"), ("[]", "(request)"), ("null", "(request)"), ("1e999999", "(request)"),
    ("[" * 100_000, "(request)"), ('{"op": "version", "id": "\\ud800"}', "id"), ("9" * 5000, "(request)"),
])
def test_proto_01_handle_json_answers_any_text(text, field):
    """PROTO-01: handle_json takes any text, answers one JSON document (ASCII, one line)."""
    out = handle_json(text)
    assert "\n" not in out and out.isascii()
    response = json.loads(out)
    assert response["format"] == "hardpoint/1" and response["error"]["field"] == field


def test_proto_01_handle_json_refuses_a_request_over_the_size_limit():
    """SAFE-01: a request text longer than the limit is refused before it is parsed."""
    out = json.loads(handle_json(" " * (protocol.MAX_REQUEST_BYTES + 1)))
    assert out["error"]["rule"] == "SAFE-01"


@settings(max_examples=150, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.sampled_from(
                        ["id", "op", "builtin", "scenario", "seed", "trials", "dice", "attack", "a", "b", "name", "x"]), c, max_size=5),
                    max_leaves=12),
       st.sampled_from([None, *protocol.OPS, "cancel"]))
def test_proto_01_no_request_makes_handle_raise(value, op):
    """PROTO-01: any JSON value, with any op, answers a document: a result or an error, never an exception."""
    request = dict(value) if isinstance(value, dict) else value
    if isinstance(request, dict) and op is not None:
        request["op"] = op
        request.pop("trials", None)           # keep the property test quick: runs are tested elsewhere
        if op in ("run", "duel"):
            request["trials"] = 10
    response = handle(request)
    assert response["format"] == "hardpoint/1" and ("result" in response) != ("error" in response)
    if "error" in response:
        assert response["error"]["type"] != "internal", response
    json.loads(protocol.dumps(response))


def test_proto_02_progress_and_cancel_of_a_run():
    """PROTO-02: a run reports the fraction done, and a cancel stops it between chunks with the trials done."""
    seen = []
    cancel = threading.Event()

    def progress(fraction):
        seen.append(fraction)
        cancel.set()                          # at the first chunk done

    response = handle({"id": 1, "op": "run", "builtin": "default", "trials": 10**10, "seed": 1}, progress=progress,
                      cancel=cancel)
    result = response["result"]
    assert result["interrupted"] is True and 0 < result["trials"] < 10**10 and result["requested"] == 10**10
    assert seen and all(0 <= f <= 1 for f in seen) and seen == sorted(seen)


@pytest.mark.parametrize("op", [[], {}, 1, None, True])
def test_proto_01_an_op_that_is_not_text_is_refused(op):
    """PROTO-01: found by the property test: an op that is a list (unhashable) was an internal error."""
    error = handle({"op": op})["error"]
    assert (error["type"], error["field"], error["rule"]) == ("RequestError", "op", "PROTO-02")


def test_proto_01_the_examples_of_the_protocol_docs_run():
    """PROTO-01: docs/protocol.md's Python example and the protocol modules' docstring examples give what they show."""
    import doctest

    result = doctest.testfile(str(ROOT / "docs/protocol.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
    for module in (protocol, documents):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_proto_01_a_one_trial_run_has_no_nan_and_the_command_line_prints_the_same(capsys):
    """PROTO-01: JSON has no NaN: the standard error of a one-trial run is null, in --json as in the protocol."""
    from hardpoint.cli import main

    assert main(["run", "builtin:cw_tohit_example", "--trials", "1", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    served = handle({"op": "run", "builtin": "cw_tohit_example", "trials": 1})["result"]
    damage = next(a for a in printed["amounts"] if a["measure"] == "damage")
    assert damage["stderr"] is None and damage["interval"] == [None, None]
    drop = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    assert drop(printed) == drop(served)


def test_proto_01_handle_from_several_threads_at_once():
    """PROTO-01, CAPI-01: handle is safe from several threads: the same requests at once give the same answers."""
    from concurrent.futures import ThreadPoolExecutor

    requests = [{"id": i, "op": ("explain", "resolve")[i % 2], "builtin": ("cw_tohit_example", "default")[i % 3 % 2],
                 **({"seed": i} if i % 2 else {})} for i in range(120)]
    alone = [handle(r) for r in requests]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(handle, requests))
    assert together == alone and not any("error" in r for r in together)


def test_proto_01_a_run_cancelled_before_it_starts_claims_nothing():
    """PROTO-01: a run with no trial done answers trials 0 with null estimates and intervals, never a probability
    of 0 with an interval of [0, 0] (false certainty); the answer still meets the shipped schema."""
    import threading

    from hardpoint.protocol import handle

    stop = threading.Event()
    stop.set()
    answer = handle({"id": 1, "op": "run", "builtin": "cw_tohit_example", "trials": 1000}, cancel=stop)
    rows = answer["result"]["probabilities"] + answer["result"]["amounts"]
    assert answer["result"]["trials"] == 0 and rows and valid("response", answer) == []
    for row in rows:
        assert row["interval"] == [None, None] and row.get("probability", None) is None and row.get("mean", None) is None


def test_proto_01_a_schema_name_that_is_not_a_string_is_a_request_error():
    """PROTO-01 (found by the property test above): `{"op": "schema", "name": []}` raised a TypeError inside (a
    list is not hashable) and answered an internal error; a name that is not a string is a RequestError naming it."""
    for name in ([], {}, 3, None):
        response = handle({"op": "schema", "name": name})
        assert response["error"]["type"] == "RequestError" and response["error"]["field"] == "name", response
