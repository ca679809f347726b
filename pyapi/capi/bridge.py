"""The Python side of libhardpoint (CAPI-01): the C arguments in, a protocol document out, never an exception.

Each public C function of `hardpoint.h` arrives here as `call(op, text, a, b,
threads, attack)` with the C strings as bytes (None for a NULL pointer). The
arguments become a request of `hardpoint.protocol.handle`, and its answer is
returned as the protocol's JSON text (`hardpoint.protocol.dumps`) with a
status:

- `OK` (0): the answer document (`"result"`);
- `ERR_INPUT` (1): an error document; the input was refused (a NULL pointer,
  text that is not UTF-8 or not JSON, a bad scenario or argument);
- `ERR_INTERNAL` (2): an error document of type "internal"; a bug (it never
  escapes as an exception: an exception here would be printed on the host's
  stderr).

A scenario argument is JSON text: a scenario document, or `{"builtin":
"name"}` (an object whose only key is "builtin") for a shipped scenario.

    >>> status, text = call(OPS.index("explain"), b'{"builtin": "cw_tohit_example"}', 0, 0, 0, None)
    >>> status, json.loads(text)["result"]["breakdowns"][0]["needed"]
    (0, 10)
    >>> status, text = call(OPS.index("explain"), b'{"builtin": ', 0, 0, 0, None)
    >>> status, json.loads(text)["error"]["field"]
    (1, 'scenario_json')
"""
from __future__ import annotations

import json
from typing import Any

from .. import protocol
from ..errors import HardpointError, RequestError
from ..limits import MAX_DEPTH, MAX_FILE_BYTES

__all__ = ["call", "OPS", "OK", "ERR_INPUT", "ERR_INTERNAL"]

OK, ERR_INPUT, ERR_INTERNAL = 0, 1, 2
#: the op numbers of the C wrappers (hardpoint.capi builds them into the library)
OPS = ("version", "schema", "explain", "resolve", "run", "exact", "request")


def call(op: int, text: bytes | None, a: int, b: int, threads: int, attack: bytes | None) -> tuple[int, str]:
    """Answer one C call: (status, JSON document). Never raises."""
    name = OPS[op] if isinstance(op, int) and 0 <= op < len(OPS) else None
    try:
        try:
            request = _request(name, text, a, b, threads, attack)
        except HardpointError as exc:
            return ERR_INPUT, protocol.dumps(protocol.error_document(None, name, exc))
        response = _handle(request)
        return _status(response), protocol.dumps(response)
    except BaseException as exc:  # noqa: BLE001 - a bug must reach the C caller as a document, not a traceback
        try:
            return ERR_INTERNAL, protocol.dumps(protocol.error_document(None, name, exc))
        except BaseException:     # noqa: BLE001
            return ERR_INTERNAL, json.dumps({"id": None, "format": protocol.FORMAT, "error": {
                "type": "internal", "field": "", "value": None, "rule": "", "message": "internal error"}})


def _handle(request: dict[str, Any]) -> dict[str, Any]:
    return protocol.handle(request)


def _status(response: dict[str, Any]) -> int:
    error = response.get("error")
    if error is None:
        return OK
    return ERR_INTERNAL if error.get("type") == "internal" else ERR_INPUT


def _request(name: str | None, text: bytes | None, a: int, b: int, threads: int,
             attack: bytes | None) -> dict[str, Any]:
    if name is None:
        raise RequestError("not an operation of libhardpoint", field="op", value=None, rule="CAPI-01")
    if name in ("version", "schema"):
        return {"id": None, "op": name}
    if name == "request":
        if text is None:
            raise RequestError("a NULL pointer where text was expected", field="request_json", value=None,
                               rule="CAPI-01")
        return protocol.loads(text)   # the protocol's own limits and messages for a request's text
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
        raise RequestError("expected a JSON object: a scenario document or {\"builtin\": \"name\"}",
                           field="scenario_json", value=type(doc).__name__, rule="CAPI-01")
    if set(doc) == {"builtin"}:
        return {"builtin": doc["builtin"]}
    return {"scenario": doc}


def _text(raw: bytes | None, field: str) -> str:
    if raw is None:
        raise RequestError("a NULL pointer where text was expected", field=field, value=None, rule="CAPI-01")
    if len(raw) > MAX_FILE_BYTES:
        raise RequestError(f"longer than {MAX_FILE_BYTES // (1024 * 1024)} MiB", field=field, value=len(raw),
                           rule="SAFE-01")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestError(f"not UTF-8 text (byte {exc.start} is 0x{raw[exc.start]:02x})", field=field,
                           value=raw[max(0, exc.start - 20):exc.start + 20].decode("utf-8", "backslashreplace"),
                           rule="CAPI-01") from None


def _json(raw: bytes | None, field: str) -> Any:
    text = _text(raw, field)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RequestError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", field=field,
                           value=text[max(0, exc.pos - 20):exc.pos + 20], rule="CAPI-01") from None
    except RecursionError:
        raise RequestError(f"nested more than {MAX_DEPTH} levels deep", field=field, value=None, rule="SAFE-01") from None
    except ValueError as exc:   # numbers too long to convert, and the like
        raise RequestError(f"not valid JSON: {str(exc)[:200]}", field=field, value=None, rule="CAPI-01") from None
