"""The Python side of libhardpoint (CAPI-01): the C arguments in, a protocol document out, never an exception.

Each public C function of `hardpoint.h` arrives here as `call(op, text, a, b,
threads, attack)` with the C strings as bytes (None for a NULL pointer). The
arguments become a request of `hardpoint.protocol.handle`, and its answer is
returned as JSON text with a status:

- `OK` (0): the answer document (`"result"`);
- `ERR_INPUT` (1): an error document; the input was refused (a NULL pointer,
  text that is not UTF-8 or not JSON, a bad scenario or argument);
- `ERR_INTERNAL` (2): an error document; a bug (it never escapes as an
  exception: an exception here would be printed on the host's stderr).

A scenario argument is JSON text: a scenario document, or `{"builtin":
"name"}` for a shipped scenario.
"""
from __future__ import annotations

import json
from typing import Any

from ..errors import HardpointError, ScenarioError
from ..limits import MAX_DEPTH, MAX_FILE_BYTES

__all__ = ["call", "OPS", "OK", "ERR_INPUT", "ERR_INTERNAL", "FORMAT"]

OK, ERR_INPUT, ERR_INTERNAL = 0, 1, 2
FORMAT = "hardpoint/1"
#: the op numbers of the C wrappers (hardpoint.capi builds them into the library)
OPS = ("version", "schema", "explain", "resolve", "run", "exact", "request")
_INTERNAL_TYPES = ("InternalError", "internal", "internal_error")


def call(op: int, text: bytes | None, a: int, b: int, threads: int, attack: bytes | None) -> tuple[int, str]:
    """Answer one C call: (status, JSON document). Never raises."""
    name = OPS[op] if isinstance(op, int) and 0 <= op < len(OPS) else "unknown"
    try:
        try:
            request = _request(name, text, a, b, threads, attack)
        except HardpointError as exc:
            return ERR_INPUT, dumps(error_document(name, exc))
        response = _handle(request)
        return _status(response), dumps(response)
    except BaseException as exc:  # noqa: BLE001 - a bug must reach the C caller as a document, not a traceback
        try:
            return ERR_INTERNAL, dumps(error_document(name, exc, internal=True))
        except BaseException:     # noqa: BLE001
            return ERR_INTERNAL, json.dumps({"id": None, "format": FORMAT, "op": name, "error": {
                "type": "InternalError", "field": "", "value": None, "rule": "CAPI-01", "message": "internal error"}})


def _handle(request: dict[str, Any]) -> dict[str, Any]:
    try:
        from ..protocol import handle
    except ImportError:   # TEMPORARY: until hardpoint.protocol is in the tree
        from ._direct import handle
    return handle(request)


def dumps(document: dict[str, Any]) -> str:
    """The JSON text of a document, as the protocol writes it."""
    try:
        from ..protocol import dumps as protocol_dumps   # the protocol's own writer, where it has one
    except ImportError:
        return json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return protocol_dumps(document)


def _status(response: dict[str, Any]) -> int:
    error = response.get("error")
    if error is None:
        return OK
    return ERR_INTERNAL if isinstance(error, dict) and error.get("type") in _INTERNAL_TYPES else ERR_INPUT


def _request(name: str, text: bytes | None, a: int, b: int, threads: int, attack: bytes | None) -> dict[str, Any]:
    if name in ("version", "schema"):
        return {"id": None, "op": name}
    if name == "request":
        request = _json(text, "request_json")
        if not isinstance(request, dict):
            raise ScenarioError("a request is a JSON object, e.g. {\"op\": \"version\"}", field="request_json",
                                value=type(request).__name__, rule="CAPI-01")
        return request
    if name == "unknown":
        raise ScenarioError("no such operation", field="op", value=None, rule="CAPI-01")
    request: dict[str, Any] = {"id": None, "op": name, **_scenario(text)}
    if name == "resolve":
        request["seed"] = a
    elif name == "run":
        request.update(trials=a, seed=b)
        if threads:     # 0: every core (the protocol's default)
            request["threads"] = threads
    elif name == "exact" and attack is not None:   # NULL: every declared attack
        request["attack"] = _text(attack, "attack_id")
    return request


def _scenario(text: bytes | None) -> dict[str, Any]:
    """`{"scenario": document}` or `{"builtin": name}`, from the scenario_json argument."""
    doc = _json(text, "scenario_json")
    if not isinstance(doc, dict):
        raise ScenarioError("expected a JSON object: a scenario document or {\"builtin\": \"name\"}",
                            field="scenario_json", value=type(doc).__name__, rule="CAPI-01")
    if set(doc) == {"builtin"}:
        return {"builtin": doc["builtin"]}
    return {"scenario": doc}


def _text(raw: bytes | None, field: str) -> str:
    if raw is None:
        raise ScenarioError("a NULL pointer where text was expected", field=field, value=None, rule="CAPI-01")
    if len(raw) > MAX_FILE_BYTES:
        raise ScenarioError(f"longer than {MAX_FILE_BYTES // (1024 * 1024)} MiB", field=field, value=len(raw),
                            rule="SAFE-01")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"not UTF-8 text (byte {exc.start} is 0x{raw[exc.start]:02x})", field=field,
                            value=raw[max(0, exc.start - 20):exc.start + 20].decode("utf-8", "backslashreplace"),
                            rule="CAPI-01") from None


def _json(raw: bytes | None, field: str) -> Any:
    text = _text(raw, field)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", field=field,
                            value=text[max(0, exc.pos - 20):exc.pos + 20], rule="CAPI-01") from None
    except RecursionError:
        raise ScenarioError(f"nested more than {MAX_DEPTH} levels deep", field=field, value=None, rule="SAFE-01") from None
    except ValueError as exc:   # numbers too long to convert, and the like
        raise ScenarioError(f"not valid JSON: {exc}", field=field, value=None, rule="CAPI-01") from None


def _json_value(value: Any) -> Any:
    return value if value is None or isinstance(value, (str, int, float, bool)) else repr(value)


def error_document(op: str, exc: BaseException, internal: bool = False) -> dict[str, Any]:
    """The protocol's error document for an exception raised before the protocol saw the request."""
    if internal:
        error = {"type": "InternalError", "field": "", "value": None, "rule": "CAPI-01",
                 "message": f"internal error: {type(exc).__name__}: {exc} (please report it)"}
    else:
        error = {"type": type(exc).__name__, "field": getattr(exc, "field", ""),
                 "value": _json_value(getattr(exc, "value", None)), "rule": getattr(exc, "rule", ""),
                 "message": getattr(exc, "message", str(exc))}
    return {"id": None, "format": FORMAT, "op": op, "error": error}
