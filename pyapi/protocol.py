"""The request/response protocol (PROTO-01..03): the one place a request becomes a response document.

A request is a JSON object naming an operation and its arguments:

    {"id": 7, "op": "explain", "builtin": "cw_tohit_example"}
    {"id": 8, "op": "run", "scenario": {...a scenario document...}, "trials": 100000, "seed": 1}

and its response carries the same id, the format, the op, and either the
`result` (the very document `hardpoint <op> --json` prints, built by
`hardpoint.documents`) or an `error` (type, field, value, rule, message):

    >>> r = handle({"id": 7, "op": "explain", "builtin": "cw_tohit_example"})
    >>> r["id"], r["format"], r["result"]["breakdowns"][0]["probability_exact"]
    (7, 'hardpoint/1', '1/6')
    >>> handle({"id": 8, "op": "run", "builtin": "cw_tohit_example", "trials": 0})["error"]["field"]
    'trials'

`handle` never raises for any input: bad input is an error document naming
the field, the value and the rule; a bug is an error of type "internal"
(no traceback is printed). `hardpoint serve --stdio` (`hardpoint.serve`),
`hardpoint serve --http` (`hardpoint.http`) and the C interface all answer
through it. `protocol_schemas()` gives the JSON Schema of every request and
response; the same schemas ship in hardpoint.seeds/protocol.
"""
from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import HardpointError, RequestError
from .limits import MAX_FILE_BYTES, MAX_SEED, MAX_THREADS, MAX_TRIALS, check_seed, check_threads, check_trials
from .results import FORMAT

__all__ = ["handle", "handle_json", "dumps", "loads", "Limits", "Prepared", "prepare", "execute", "respond",
           "error_document", "protocol_schemas", "write_schemas", "OPS", "FORMAT"]

#: every operation, in the order the documentation lists them
OPS = ("explain", "resolve", "run", "exact", "duel", "schema", "version")
#: operations that run many trials: a server runs them in the background, with progress and cancellation
LONG_OPS = ("run", "duel")

_SCENARIO = ("scenario", "builtin")
_FIELDS: dict[str, tuple[str, ...]] = {
    "explain": _SCENARIO,
    "resolve": (*_SCENARIO, "seed", "dice"),
    "run": (*_SCENARIO, "trials", "seed", "first_trial", "threads", "backend", "phase_only"),
    "exact": (*_SCENARIO, "attack"),
    "duel": ("a", "b", "range", "aspect", "speed", "turns", "trials", "seed", "threads", "backend"),
    "schema": ("name",),
    "version": (),
}
MAX_ID_CHARS = 256
MAX_DICE = 100_000
#: a request line or body: a scenario document at its largest, and room for the request around it
MAX_REQUEST_BYTES = MAX_FILE_BYTES + 64 * 1024
#: trials of a run when the request does not say (the command line's defaults)
DEFAULT_RUN_TRIALS = 1_000_000
DEFAULT_DUEL_TRIALS = 100_000


@dataclass(frozen=True)
class Limits:
    """What one request may ask for (SAFE-01): a server sets these from its options."""

    max_trials: int = MAX_TRIALS
    max_request_bytes: int = MAX_REQUEST_BYTES
    max_threads: int = MAX_THREADS


DEFAULT_LIMITS = Limits()


@dataclass
class Prepared:
    """A request checked in full, its scenario loaded: nothing is left that could be refused (PROTO-03)."""

    id: Any
    op: str
    scenario: Any = None
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def long(self) -> bool:
        return self.op in LONG_OPS


# --- the scenario cache: a frontend asks about the same scenario again and again ------------------------------------

_CACHE_SIZE = 64
_CACHE_KEY_LIMIT = 256 * 1024          # documents larger than this are loaded every time, never held
_cache: OrderedDict[str, Any] = OrderedDict()
_cache_lock = threading.Lock()


def _cached(key: str | None, load: Callable[[], Any]) -> Any:
    """The scenario of `key`, loaded once. Scenarios are never changed by explain, resolve or a run, so one
    loaded scenario serves every request that sends the same document (tests/test_protocol.py checks it)."""
    if key is None:
        return load()
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    scenario = load()
    with _cache_lock:
        _cache[key] = scenario
        while len(_cache) > _CACHE_SIZE:
            _, old = _cache.popitem(last=False)
            _explained.pop(id(old), None)
    return scenario


# the explain document of a cached scenario, as JSON text (a fresh copy for each answer: a caller may change it)
_explained: dict[int, tuple[Any, str]] = {}


def _explain(scenario: Any) -> dict[str, Any]:
    from .documents import explain_document

    hit = _explained.get(id(scenario))
    if hit is not None and hit[0] is scenario:
        return json.loads(hit[1])
    document = explain_document(scenario)
    with _cache_lock:
        if any(v is scenario for v in _cache.values()):
            _explained[id(scenario)] = (scenario, json.dumps(document))
    return document


def _document_key(doc: dict[str, Any]) -> str | None:
    # the keys in the order given: two documents share a loaded scenario only when they are the same text
    try:
        text = json.dumps(doc, ensure_ascii=True, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        return None        # not JSON data: parse_scenario names the bad field
    return "doc:" + text if len(text) <= _CACHE_KEY_LIMIT else None


def _scenario(request: dict[str, Any], required: bool = True) -> Any:
    from .scenario import load_scenario, parse_scenario

    has_doc, has_name = "scenario" in request, "builtin" in request
    if has_doc and has_name:
        raise RequestError("give a scenario document or a built-in's name, not both", field="builtin",
                           value=_plain(request["builtin"]), rule="PROTO-01")
    if has_name:
        name = request["builtin"]
        if not isinstance(name, str) or len(name) > 200:
            raise RequestError("expected the name of a built-in scenario (see `hardpoint scenarios`)", field="builtin",
                               value=_plain(name), rule="CLI-02")
        return _cached("builtin:" + name, lambda: load_scenario(f"builtin:{name}"))
    if has_doc:
        doc = request["scenario"]
        if not isinstance(doc, dict):
            raise RequestError("expected a scenario document (a JSON object, as in a .json scenario file)",
                               field="scenario", value=type(doc).__name__, rule="CLI-02")
        return _cached(_document_key(doc), lambda: parse_scenario(doc, "<request>"))
    if not required:
        from .cli import DEFAULT_SCENARIO

        return _cached(DEFAULT_SCENARIO, lambda: load_scenario(DEFAULT_SCENARIO))
    raise RequestError("expected a scenario: \"scenario\": {...document...} or \"builtin\": \"name\"", field="scenario",
                       value=None, rule="PROTO-01")


# --- checking a request ---------------------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """A value fit for the error document: JSON scalars as they are, anything else described briefly."""
    if value is None or isinstance(value, (bool, int, str)):
        if isinstance(value, str) and len(value) > 200:
            return value[:200] + "..."
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**64:
            return str(value)[:40] + "..."
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, (dict, list)):
        return f"({'an object' if isinstance(value, dict) else 'a list'} of {len(value)})"
    return type(value).__name__


def _check_id(request: Any) -> Any:
    rid = request.get("id") if isinstance(request, dict) else None
    if rid is None or isinstance(rid, bool) or isinstance(rid, int) and abs(rid) <= 2**63:
        return rid
    if isinstance(rid, str) and len(rid) <= MAX_ID_CHARS:
        try:
            rid.encode("utf-8")
            return rid
        except UnicodeEncodeError:
            pass
    raise RequestError(f"an id is null, a whole number or text of at most {MAX_ID_CHARS} characters", field="id",
                       value=_plain(rid), rule="PROTO-02")


def _int(request: dict[str, Any], name: str, default: Any, lo: int, hi: int, rule: str) -> Any:
    value = request.get(name, default)
    if value is default:
        return value
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise RequestError(f"expected a whole number from {lo} to {hi}", field=name, value=_plain(value), rule=rule)
    return value


def _number(request: dict[str, Any], name: str, default: float) -> float:
    value = request.get(name, default)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise RequestError("expected a number", field=name, value=_plain(value), rule="FIGHT-06")
    return float(value)


def _backend(request: dict[str, Any]) -> str | None:
    value = request.get("backend", "auto")
    if value not in ("auto", "compiled", "reference"):
        raise RequestError("expected auto, compiled or reference", field="backend", value=_plain(value), rule="FAST-01")
    return None if value == "auto" else value


def _trials(request: dict[str, Any], default: int, limits: Limits) -> int:
    trials = request.get("trials", default)
    trials, _ = check_trials(trials, 0, "trials")
    if trials > limits.max_trials:
        raise RequestError(f"more than this server's limit of {limits.max_trials:,} trials a request", field="trials",
                           value=trials, rule="PROTO-03")
    return trials


def _threads(request: dict[str, Any], limits: Limits) -> int | None:
    threads = check_threads(request.get("threads"))
    if threads is not None and threads > limits.max_threads:
        raise RequestError(f"more than this server's limit of {limits.max_threads} threads", field="threads",
                           value=threads, rule="PROTO-03")
    return threads


def prepare(request: Any, limits: Limits = DEFAULT_LIMITS) -> Prepared:
    """Check a request in full and load its scenario; raise a HardpointError naming the field otherwise.

    Nothing runs before this returns, so a server can refuse a bad run before
    it accepts it as a job (PROTO-03).
    """
    if not isinstance(request, dict):
        raise RequestError("a request is a JSON object, e.g. {\"id\": 1, \"op\": \"version\"}", field="(request)",
                           value=_plain(request), rule="PROTO-02")
    rid = _check_id(request)
    op = request.get("op")
    if not isinstance(op, str) or op not in _FIELDS:
        extra = "; cancel is a message to a server (hardpoint serve)" if op == "cancel" else ""
        raise RequestError(f"expected one of {', '.join(OPS)}{extra}", field="op", value=_plain(op), rule="PROTO-02")
    allowed = _FIELDS[op]
    for key in request:
        if key not in allowed and key not in ("id", "op"):
            raise RequestError(f"not a field of {op} (it takes {', '.join(allowed) or 'nothing more'})",
                               field=str(key)[:80], value=_plain(request[key]), rule="PROTO-02")
    args: dict[str, Any] = {}
    scenario = None
    if op == "schema":
        name = request.get("name", "scenario")
        if name != "scenario" and (not isinstance(name, str) or name not in protocol_schemas()):
            raise RequestError(f"expected scenario or one of {', '.join(protocol_schemas())}", field="name",
                               value=_plain(name), rule="PROTO-01")
        args["name"] = name
    elif op == "resolve":
        if "dice" in request:
            dice = request["dice"]
            if not isinstance(dice, list) or len(dice) > MAX_DICE:
                raise RequestError(f"expected a list of at most {MAX_DICE:,} die faces (1 to 6)", field="dice",
                                   value=_plain(dice), rule="DICE-04")
            from .dice import ScriptedDice

            ScriptedDice(dice)          # refuses a face that is not 1..6, naming it
            if "seed" in request:
                raise RequestError("give scripted dice or a seed, not both", field="seed", value=_plain(request["seed"]),
                                   rule="DICE-04")
            args["dice"] = list(dice)
        else:
            if "seed" not in request:
                raise RequestError("resolve needs a seed (0 to 2**64-1) or scripted dice", field="seed", value=None,
                                   rule="CLI-01")
            args["seed"] = check_seed(request["seed"])
        scenario = _scenario(request)
    elif op == "run":
        args["trials"] = _trials(request, DEFAULT_RUN_TRIALS, limits)
        args["seed"] = check_seed(request.get("seed", 1))
        args["first_trial"] = check_trials(args["trials"], request.get("first_trial", 0))[1]
        args["threads"] = _threads(request, limits)
        args["backend"] = _backend(request)
        phase_only = request.get("phase_only", False)
        if not isinstance(phase_only, bool):
            raise RequestError("expected true or false", field="phase_only", value=_plain(phase_only), rule="CLI-01")
        scenario = _scenario(request, required=False)
        if phase_only and (getattr(scenario, "turns", None) or _ruleset_name(scenario) != "carwars"):
            raise RequestError("phase_only applies to Car Wars one-phase scenarios", field="phase_only", value=True,
                               rule="CLI-01")
        args["phase_only"] = phase_only
    elif op == "exact":
        attack = request.get("attack")
        if attack is not None and (not isinstance(attack, str) or len(attack) > 200):
            raise RequestError("expected the id of a declared attack", field="attack", value=_plain(attack), rule="FAST-02")
        args["attack"] = attack
        scenario = _scenario(request)
    elif op == "explain":
        scenario = _scenario(request)
    elif op == "duel":
        from .data import load_rules
        from .duel import ASPECTS, build_duel

        designs = load_rules()["carwars.designs"]["design"]
        for side in ("a", "b"):
            name = request.get(side)
            if not isinstance(name, str) or name not in designs:
                # stock designs only: a server never opens a file a request names (SAFE-02)
                raise RequestError(f"expected a stock design: {', '.join(sorted(designs))}", field=side,
                                   value=_plain(name), rule="FIGHT-06")
        aspect = request.get("aspect", "head-on")
        if aspect not in ASPECTS:
            raise RequestError(f"expected one of {', '.join(ASPECTS)}", field="aspect", value=_plain(aspect), rule="FIGHT-06")
        args["trials"] = _trials(request, DEFAULT_DUEL_TRIALS, limits)
        args["seed"] = check_seed(request.get("seed", 1))
        args["threads"] = _threads(request, limits)
        args["backend"] = _backend(request)
        turns = _int(request, "turns", 20, 1, 1000, "FIGHT-06")
        scenario = build_duel(request["a"], request["b"], _number(request, "range", 8.0), aspect,
                              _number(request, "speed", 0.0), turns)
    return Prepared(rid, op, scenario, args)


def _ruleset_name(scenario: Any) -> str:
    from .ruleset import ruleset_of

    return ruleset_of(scenario).name


# --- running it -----------------------------------------------------------------------------------------------------

def _progress_of(total: int, progress: Callable[[float], None] | None) -> Callable[[int], None] | None:
    """run_batch reports trials done (from several threads); the protocol reports the fraction done."""
    if progress is None:
        return None
    lock = threading.Lock()
    done = [0]

    def advance(n: int) -> None:
        with lock:
            done[0] += n
            fraction = min(1.0, done[0] / total)
        try:
            progress(fraction)
        except Exception:  # noqa: BLE001 - a listener that fails must not stop the run
            pass

    return advance


def execute(prepared: Prepared, progress: Callable[[float], None] | None = None,
            cancel: threading.Event | None = None) -> Any:
    """The result document of a prepared request (the same as `hardpoint <op> --json`)."""
    from . import documents

    op, args, scenario = prepared.op, prepared.args, prepared.scenario
    if op == "version":
        return documents.version_document()
    if op == "schema":
        return documents.schema_document() if args["name"] == "scenario" else protocol_schemas()[args["name"]]
    if op == "explain":
        return _explain(scenario)
    if op == "resolve":
        from .api import resolve

        if "dice" in args:
            from .dice import ScriptedDice

            return documents.resolve_document(resolve(scenario, ScriptedDice(args["dice"])))
        return documents.resolve_document(resolve(scenario, seed=args["seed"]))
    if op == "exact":
        from .api import exact

        query = {} if args["attack"] is None else {"attack": args["attack"]}
        return documents.exact_document(scenario, exact(scenario, **query))
    from .api import run_batch

    if op == "run":
        result = run_batch(scenario, args["trials"], args["seed"], first_trial=args["first_trial"],
                           backend=args["backend"], threads=args["threads"], keep="summary",
                           phase_only=args["phase_only"], progress=_progress_of(args["trials"], progress), cancel=cancel)
    else:   # duel
        result = run_batch(scenario, args["trials"], args["seed"], backend=args["backend"], threads=args["threads"],
                           keep="summary", progress=_progress_of(args["trials"], progress), cancel=cancel)
    return documents.run_document(result)


def error_document(rid: Any, op: Any, exc: BaseException) -> dict[str, Any]:
    """The response to a request that failed: the exception's type, field, value, rule and message."""
    if isinstance(exc, HardpointError):
        error = {"type": type(exc).__name__, "field": getattr(exc, "field", "") or "",
                 "value": _plain(getattr(exc, "value", None)), "rule": getattr(exc, "rule", "") or "",
                 "message": getattr(exc, "message", None) or str(exc)}
        if type(exc).__name__ == "DiceExhausted":
            error.update(field="dice", rule="DICE-04")
    else:
        error = {"type": "internal", "field": "", "value": None, "rule": "",
                 "message": f"internal error: {type(exc).__name__}: {str(exc)[:500]} (please report it)"}
    out: dict[str, Any] = {"id": rid, "format": FORMAT}
    if isinstance(op, str) and op in _FIELDS:
        out["op"] = op
    out["error"] = error
    return out


def respond(request: Any, limits: Limits = DEFAULT_LIMITS, progress: Callable[[float], None] | None = None,
            cancel: threading.Event | None = None) -> dict[str, Any]:
    """`handle` with a server's limits."""
    rid = request.get("id") if isinstance(request, dict) else None
    op = request.get("op") if isinstance(request, dict) else None
    try:
        rid = _check_id(request)
        prepared = prepare(request, limits)
        result = execute(prepared, progress, cancel)
        return {"id": rid, "format": FORMAT, "op": prepared.op, "result": result}
    except Exception as exc:  # noqa: BLE001 - never raise for any input: bad input and bugs alike become documents
        return error_document(rid if _id_ok(rid) else None, op, exc)


def _id_ok(rid: Any) -> bool:
    try:
        _check_id({"id": rid})
        return True
    except RequestError:
        return False


def handle(request: dict, *, progress: Callable[[float], None] | None = None,
           cancel: threading.Event | None = None) -> dict:
    """Answer one request (PROTO-01): `{"id", "format", "op", "result"}` or `{"id", "format", "op", "error"}`.

    `progress(fraction)` hears how far a run is; `cancel.set()` stops it
    between chunks (the result covers the trials done, `"interrupted": true`).
    Never raises for any input.
    """
    return respond(request, DEFAULT_LIMITS, progress, cancel)


def loads(text: str | bytes, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Parse one request's JSON text, refusing what no request may be (too long, not UTF-8, not JSON, too deep)."""
    if len(text) > limits.max_request_bytes:
        raise RequestError(f"a request is at most {limits.max_request_bytes:,} bytes", field="(request)",
                           value=len(text), rule="SAFE-01")
    if isinstance(text, bytes):
        raw = text
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RequestError(f"not UTF-8 text (byte {exc.start} is 0x{raw[exc.start]:02x})", field="(request)",
                               value=raw[max(0, exc.start - 20):exc.start + 20].decode("utf-8", "backslashreplace"),
                               rule="PROTO-02") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RequestError(f"not valid JSON: {exc.msg} at column {exc.colno}", field="(request)",
                           value=text[max(0, exc.pos - 20):exc.pos + 20], rule="PROTO-02") from None
    except RecursionError:
        raise RequestError("nested too deep", field="(request)", value=None, rule="SAFE-01") from None
    except ValueError as exc:   # an integer of more digits than Python converts, and the like
        raise RequestError(f"not valid JSON: {str(exc)[:200]}", field="(request)", value=None, rule="PROTO-02") from None


def dumps(document: Any) -> str:
    """One JSON text, on one line (ASCII: a frontend's decoder never meets a lone surrogate); NaN becomes null."""
    try:
        return json.dumps(document, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    except ValueError:
        from .documents import finite

        return json.dumps(finite(document), ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def handle_json(text: str) -> str:
    """One JSON request in, one JSON response out (the C interface and `serve --stdio` speak this). Never raises."""
    return respond_json(text, DEFAULT_LIMITS)


def respond_json(text: str | bytes, limits: Limits = DEFAULT_LIMITS, progress: Callable[[float], None] | None = None,
                 cancel: threading.Event | None = None) -> str:
    try:
        request = loads(text, limits)
    except Exception as exc:  # noqa: BLE001
        return dumps(error_document(None, None, exc))
    try:
        return dumps(respond(request, limits, progress, cancel))
    except Exception as exc:  # noqa: BLE001 - a document that will not serialise is a bug, still answered
        rid = request.get("id") if isinstance(request, dict) else None
        return dumps(error_document(rid if _id_ok(rid) else None, None, exc))


# --- JSON Schemas (PROTO-01) ----------------------------------------------------------------------------------------

_SCHEMA = "https://json-schema.org/draft/2020-12/schema"
_ID = {"description": "echoed in the response; null when not given",
       "anyOf": [{"type": "null"}, {"type": "integer"}, {"type": "string", "maxLength": MAX_ID_CHARS}]}
_FRACTION = {"type": "string", "pattern": r"^-?[0-9]+(/[0-9]+)?$", "description": "an exact fraction, e.g. 1/6"}
_SEED = {"type": "integer", "minimum": 0, "maximum": MAX_SEED, "description": "trial t rolls the dice of (seed, t)"}


def _request_schema(op: str) -> dict[str, Any]:
    scenario: dict[str, Any] = {
        "scenario": {"type": "object", "description": "a scenario document, as in a .json scenario file (hardpoint schema)"},
        "builtin": {"type": "string", "description": "the name of a built-in scenario (hardpoint scenarios)"},
    }
    run: dict[str, Any] = {
        "trials": {"type": "integer", "minimum": 1, "maximum": MAX_TRIALS,
                   "description": "independent trials (a server may allow fewer)"},
        "seed": _SEED,
        "threads": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 1, "maximum": MAX_THREADS}],
                    "description": "worker threads of the compiled core; null: every core"},
        "backend": {"enum": ["auto", "compiled", "reference"]},
    }
    props: dict[str, Any] = {
        "explain": dict(scenario),
        "resolve": {**scenario, "seed": _SEED,
                    "dice": {"type": "array", "maxItems": MAX_DICE, "items": {"type": "integer", "minimum": 1, "maximum": 6},
                             "description": "scripted die faces, in order (DICE-04), instead of a seed"}},
        "run": {**scenario, **run, "first_trial": {"type": "integer", "minimum": 0},
                "phase_only": {"type": "boolean", "description": "one-phase Car Wars scenarios: skip the end of the turn"}},
        "exact": {**scenario, "attack": {"type": "string", "description": "one declared attack's id (default: every one)"}},
        "duel": {"a": {"type": "string", "description": "a stock design"}, "b": {"type": "string", "description": "a stock design"},
                 "range": {"type": "number", "minimum": 0.5, "maximum": 1000}, "speed": {"type": "number"},
                 "aspect": {"enum": ["head-on", "tail-chase", "broadside", "parallel"]},
                 "turns": {"type": "integer", "minimum": 1, "maximum": 1000}, **run},
        "schema": {"name": {"type": "string", "description": "scenario (default) or the name of a protocol schema"}},
        "version": {},
    }[op]
    schema: dict[str, Any] = {"$schema": _SCHEMA, "$id": f"https://hardpoint.invalid/protocol/request.{op}.schema.json",
                              "title": f"hardpoint request: {op}", "type": "object",
                              "properties": {"id": _ID, "op": {"const": op}, **props},
                              "required": ["op", *(["a", "b"] if op == "duel" else [])], "additionalProperties": False}
    if op in ("explain", "resolve", "exact"):
        schema["oneOf"] = [{"required": ["scenario"]}, {"required": ["builtin"]}]
    elif op == "run":
        schema["not"] = {"required": ["scenario", "builtin"]}
    return schema


def _outcome_row(exact_only: bool = False) -> dict[str, Any]:
    keys = {k: {"type": "string"} for k in ("measure", "unit", "attack", "weapon", "part", "side", "label")}
    keys["turn"] = {"type": "integer"}
    number = {"type": "number"}
    props: dict[str, Any] = {**keys, "exact": number, "exact_fraction": _FRACTION}
    if exact_only:
        props["kind"] = {"enum": ["probability", "amount"]}
        return {"type": "object", "properties": props, "required": ["measure", "label"], "additionalProperties": False}
    unknown = {"type": ["number", "null"], "description": "null when no trial ran (a run cancelled before it started)"}
    props.update(probability=unknown, count={"type": "integer", "minimum": 0}, trials={"type": "integer", "minimum": 0},
                 mean=unknown, stderr={"type": ["number", "null"]},
                 interval={"type": "array", "items": {"type": ["number", "null"]}, "minItems": 2, "maxItems": 2},
                 percentiles={"type": "object", "additionalProperties": {"type": "integer"}})
    return {"type": "object", "properties": props, "required": ["measure", "label", "trials", "interval"],
            "additionalProperties": False}


def _result_schemas() -> dict[str, dict[str, Any]]:
    fmt = {"const": FORMAT}
    event = {"type": "object", "required": ["event"], "properties": {"event": {"type": "string"}},
             "description": "an event (LOG-01); each Fraction field p is a number with p_exact, the fraction, beside it"}
    run = {"type": "object", "title": "the counted outcomes of a run (hardpoint run --json, hardpoint duel --json)",
           "properties": {"format": fmt, "kind": {"const": "run"}, "scenario": {"type": "string"},
                          "ruleset": {"type": "string"}, "seed": _SEED, "first_trial": {"type": "integer", "minimum": 0},
                          "trials": {"type": "integer", "minimum": 0}, "requested": {"type": "integer", "minimum": 0},
                          "interrupted": {"type": "boolean"}, "backend": {"type": "string"}, "seconds": {"type": "number"},
                          "turns": {"type": ["integer", "null"]},
                          "probabilities": {"type": "array", "items": _outcome_row()},
                          "amounts": {"type": "array", "items": _outcome_row()}},
           "required": ["format", "kind", "scenario", "ruleset", "seed", "trials", "requested", "interrupted",
                        "backend", "probabilities", "amounts"], "additionalProperties": False}
    return {
        "explain": {"type": "object", "title": "every to-hit breakdown of a scenario (hardpoint explain --json)",
                    "properties": {"format": fmt, "kind": {"const": "explain"}, "scenario": {"type": "string"},
                                   "ruleset": {"type": "string"}, "breakdowns": {"type": "array", "items": event}},
                    "required": ["format", "kind", "scenario", "ruleset", "breakdowns"], "additionalProperties": False},
        "resolve": {"type": "object", "title": "one resolved trial and its event log (hardpoint resolve --json)",
                    "properties": {"format": fmt, "event": {"type": "string"}, "seed": {"type": ["integer", "null"]},
                                   "events": {"type": "array", "items": event}},
                    "required": ["format", "event"]},
        "run": run,
        "exact": {"type": "object", "title": "exact odds of a scenario (FAST-02)",
                  "properties": {"format": fmt, "kind": {"const": "exact"}, "scenario": {"type": "string"},
                                 "ruleset": {"type": "string"}, "outcomes": {"type": "array", "items": _outcome_row(True)}},
                  "required": ["format", "kind", "scenario", "ruleset", "outcomes"], "additionalProperties": False},
        "version": {"type": "object", "title": "what this hardpoint is",
                    "properties": {"format": fmt, "kind": {"const": "version"}, "name": {"const": "hardpoint"},
                                   "version": {"type": "string"}, "rulesets": {"type": "array", "items": {"type": "string"}},
                                   "ops": {"type": "array", "items": {"enum": list(OPS)}}},
                    "required": ["format", "kind", "name", "version", "ops"], "additionalProperties": False},
        "schema": {"type": "object", "title": "a JSON Schema (the scenario's, or one of the protocol's)"},
    }


_SCHEMAS: dict[str, dict[str, Any]] | None = None


def protocol_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of every request, response and stdio line (PROTO-01), by name; shipped in
    hardpoint.seeds/protocol as `<name>.schema.json` (a test checks the shipped files are these)."""
    global _SCHEMAS
    if _SCHEMAS is not None:
        return _SCHEMAS
    out: dict[str, dict[str, Any]] = {}
    for op in OPS:
        out[f"request.{op}"] = _request_schema(op)
    results = _result_schemas()
    for name, schema in results.items():
        out[f"result.{name}"] = {"$schema": _SCHEMA, "$id": f"https://hardpoint.invalid/protocol/result.{name}.schema.json",
                                 **schema}
    out["request"] = {"$schema": _SCHEMA, "$id": "https://hardpoint.invalid/protocol/request.schema.json",
                      "title": "any hardpoint request", "type": "object", "required": ["op"],
                      "oneOf": [{"$ref": f"request.{op}.schema.json"} for op in OPS]}
    error = {"type": "object", "title": "what was wrong: the exception's type, the field, its value, the rule, a message",
             "properties": {"type": {"type": "string", "description": "the HardpointError's class, or internal for a bug"},
                            "field": {"type": "string"}, "value": {}, "rule": {"type": "string"},
                            "message": {"type": "string"}},
             "required": ["type", "field", "value", "rule", "message"], "additionalProperties": False}
    out["error"] = {"$schema": _SCHEMA, "$id": "https://hardpoint.invalid/protocol/error.schema.json", **error}
    result_of = {op: ("run" if op == "duel" else op) for op in OPS}
    out["response"] = {
        "$schema": _SCHEMA, "$id": "https://hardpoint.invalid/protocol/response.schema.json",
        "title": "the answer to a request: its id, the format, the op, and the result or the error",
        "type": "object",
        "properties": {"id": _ID, "format": {"const": FORMAT}, "op": {"enum": list(OPS)}, "result": {},
                       "error": {"$ref": "error.schema.json"}},
        "required": ["id", "format"], "additionalProperties": False,
        "oneOf": [{"required": ["error"], "not": {"required": ["result"]}},
                  {"required": ["op", "result"], "not": {"required": ["error"]}}],
        "allOf": [{"if": {"required": ["op", "result"], "properties": {"op": {"const": op}}},
                   "then": {"properties": {"result": {"$ref": f"result.{result_of[op]}.schema.json"}}}} for op in OPS],
    }
    out["progress"] = {"$schema": _SCHEMA, "$id": "https://hardpoint.invalid/protocol/progress.schema.json",
                       "title": "serve --stdio: how far a run is (a line between its request and its response)",
                       "type": "object", "properties": {"id": _ID, "progress": {"type": "number", "minimum": 0, "maximum": 1}},
                       "required": ["id", "progress"], "additionalProperties": False}
    out["cancel"] = {"$schema": _SCHEMA, "$id": "https://hardpoint.invalid/protocol/cancel.schema.json",
                     "title": "serve --stdio: stop the run of this id (its response then covers the trials done)",
                     "type": "object", "properties": {"id": _ID, "op": {"const": "cancel"}},
                     "required": ["id", "op"], "additionalProperties": False}
    out["job"] = {"$schema": _SCHEMA, "$id": "https://hardpoint.invalid/protocol/job.schema.json",
                  "title": "serve --http: a run as a job (GET /v1/jobs/{id})", "type": "object",
                  "properties": {"job": {"type": "string"}, "id": _ID, "op": {"enum": list(LONG_OPS)},
                                 "status": {"enum": ["queued", "running", "done", "cancelled", "failed"]},
                                 "progress": {"type": "number", "minimum": 0, "maximum": 1},
                                 "response": {"$ref": "response.schema.json"}},
                  "required": ["job", "op", "status", "progress"], "additionalProperties": False}
    _SCHEMAS = out
    return out


def schema_registry():
    """A referencing.Registry holding every protocol schema by its $id, for validating with jsonschema."""
    from referencing import Registry, Resource

    return Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in protocol_schemas().values())


def write_schemas(folder) -> list[str]:
    """Write every protocol schema to `folder` as `<name>.schema.json`; return the file names."""
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for name, schema in protocol_schemas().items():
        (folder / f"{name}.schema.json").write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
        names.append(f"{name}.schema.json")
    return names


if __name__ == "__main__":  # pragma: no cover - regenerate the shipped schemas: python -m hardpoint.protocol DIR
    import sys

    write_schemas(sys.argv[1] if len(sys.argv) > 1 else "seeds/protocol")
