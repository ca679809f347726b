"""Stand-in for `hardpoint.protocol.handle` while that module is not in the tree (issue 16 builds on it).

The same requests and documents, built from the front door (`hardpoint.api`)
and the command line's --json documents. `hardpoint.capi.bridge` uses it
only when `hardpoint.protocol` cannot be imported.
"""
from __future__ import annotations

from typing import Any

from ..errors import HardpointError, ScenarioError

FORMAT = "hardpoint/1"
OPS = ("explain", "resolve", "run", "exact", "schema", "version")


def handle(request: dict[str, Any]) -> dict[str, Any]:
    rid = request.get("id") if isinstance(request, dict) else None
    op = request.get("op") if isinstance(request, dict) else None
    try:
        result = _result(op, request)
    except HardpointError as exc:
        return {"id": rid, "format": FORMAT, "op": op, "error": {
            "type": type(exc).__name__, "field": getattr(exc, "field", ""), "value": _plain(getattr(exc, "value", None)),
            "rule": getattr(exc, "rule", ""), "message": getattr(exc, "message", str(exc))}}
    return {"id": rid, "format": FORMAT, "op": op, "result": result}


def _plain(value: Any) -> Any:
    return value if value is None or isinstance(value, (str, int, float, bool)) else repr(value)


def _scenario(request: dict[str, Any]) -> Any:
    from ..scenario import load_scenario, parse_scenario

    if "builtin" in request:
        name = request["builtin"]
        if not isinstance(name, str):
            raise ScenarioError("expected the name of a built-in scenario", field="builtin", value=name, rule="CLI-02")
        return load_scenario(f"builtin:{name}")
    if isinstance(request.get("scenario"), dict):
        return parse_scenario(request["scenario"], "<request>")
    raise ScenarioError("expected a scenario document or a built-in's name", field="scenario", value=None, rule="CLI-02")


def _result(op: Any, request: dict[str, Any]) -> Any:
    from .. import __version__, api

    if op == "version":
        return {"hardpoint": __version__, "format": FORMAT, "ops": list(OPS)}
    if op == "schema":
        from ..scenario import scenario_schema

        return scenario_schema()
    if op not in OPS:
        raise ScenarioError(f"expected one of {', '.join(OPS)}", field="op", value=op, rule="PROTO-01")
    scenario = _scenario(request)
    if op == "explain":
        return [b.to_dict() for b in api.explain(scenario)]
    if op == "resolve":
        return api.resolve(scenario, seed=request.get("seed", 0)).to_dict()
    if op == "run":
        return api.run_batch(scenario, request.get("trials", 1_000_000), seed=request.get("seed", 1),
                             threads=request.get("threads")).to_dict()
    query = {"attack": request["attack"]} if "attack" in request else {}
    return [o.to_dict() for o in api.exact(scenario, **query)]
