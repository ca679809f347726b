"""Duels and comparisons of designs (FIGHT-06): the fight built from a few options, and who wins.

`build_duel("hunter", "stinger", range_=8, aspect="head-on")` is a Car Wars
scenario of two vehicles (stock designs, or scenario files holding one vehicle
each), each with a standing order to fire every weapon at the other
(`best_odds`), fighting until one is out of action or the turn cap comes.
`compare(["hunter", "stinger", "razor"])` runs every pair and gives the matrix
of P(row beats column).

    >>> s = build_duel("hunter", "stinger", range_=6, aspect="head-on", turns=5)
    >>> [v.id for v in s.arena.vehicles.values()], s.fight.until_decided
    (['hunter', 'stinger'], True)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ScenarioError
from .results import BatchResult, wilson

__all__ = ["ASPECTS", "DEFAULT_TACTICS", "parse_tactics", "build_duel", "duel", "compare", "Comparison"]

#: where B stands and which way it faces, for A at the origin facing north (+y): (dx, dy, B's facing), range 1
ASPECTS: dict[str, tuple[float, float, float]] = {
    "head-on": (0.0, 1.0, 180.0),       # B ahead, coming the other way
    "tail-chase": (0.0, 1.0, 0.0),      # B ahead, going the same way: A chases it
    "broadside": (0.0, 1.0, 90.0),      # B ahead, across A's path, showing its side
    "parallel": (1.0, 0.0, 0.0),        # B alongside, going the same way
}


def _vehicle_entry(spec: str, rules, field: str) -> dict[str, Any]:
    """A vehicle entry from a stock design name, or from a scenario file holding exactly one vehicle."""
    designs = rules["carwars.designs"]["design"]
    if spec in designs:
        return {"id": spec, "design": spec}
    path = Path(spec)
    if path.suffix in (".toml", ".json") and path.exists():
        from .scenario import _read, parse_text

        raw, name = _read(path)
        doc = parse_text(raw, name)
        vehicles = doc.get("vehicle", [])
        if doc.get("scenario", {}).get("ruleset") != "carwars" or len(vehicles) != 1:
            raise ScenarioError("a duel takes a Car Wars scenario file of exactly one vehicle", field=field, value=spec,
                                rule="FIGHT-06")
        entry = dict(vehicles[0])
        for key in ("x", "y", "facing", "speed", "side"):
            entry.pop(key, None)
        return entry
    raise ScenarioError(f"not a stock design (known: {', '.join(sorted(designs))}) nor a .toml/.json file of one vehicle",
                        field=field, value=spec, rule="FIGHT-06")


DEFAULT_TACTICS = "bring_to_bear"


def parse_tactics(text: str | tuple[str, str]) -> tuple[str, str]:
    """FIGHT-12: `duel --tactics`: one tactic for both (`pursue`), or A's and B's (`pursue,evade`); "none" leaves a
    vehicle without a movement order (it goes straight on, outside the handling rules, as before FIGHT-07)."""
    from .carwars.driving import TACTICS

    parts = tuple(text) if isinstance(text, tuple) else tuple(x.strip() for x in str(text).split(","))
    if len(parts) == 1:
        parts = parts * 2
    known = TACTICS + ("none",)
    if len(parts) != 2 or any(p not in known for p in parts):
        raise ScenarioError(f"one tactic, or two separated by a comma (known: {', '.join(known)})", field="tactics",
                            value=text if isinstance(text, str) else ",".join(text), rule="FIGHT-12")
    return parts[0], parts[1]


def _weapons(entry: dict, rules) -> list[str] | None:
    """The weapons a duellist's standing order uses: every aimed weapon, and its dropped weapons (FIGHT-10: it drops
    them when the other follows within range); None when it has no dropped weapon (the order's default)."""
    from .carwars.tables import weapon_spec

    design = rules["carwars.designs"]["design"].get(entry.get("design", ""), {})
    weapons = entry.get("weapon", design.get("weapon", []))
    weapons = weapons + entry.get("sidecar", design.get("sidecar", {})).get("weapon", [])
    specs = [(w["id"], weapon_spec(rules, w["type"])) for w in weapons]
    if not any(spec.dropped for _, spec in specs):
        return None
    return [wid for wid, spec in specs if spec.aimed or spec.dropped]


def build_duel(a: str, b: str, range_: float = 8.0, aspect: str = "head-on", speed: float = 0.0, turns: int = 20,
               rules=None, tactics: str | tuple[str, str] = DEFAULT_TACTICS, drops: bool = False):
    """The scenario of a duel (FIGHT-06): A at the origin facing north, B at `range_` inches (centre to centre) as
    `aspect` says, both at `speed` mph, each firing every aimed weapon at the other every turn (best_odds), each
    driven by its tactic (FIGHT-07, FIGHT-12), until decided. `drops`: its orders also drop its dropped weapons
    when the other follows within range (FIGHT-10); without, a dropped weapon no order uses does not keep a
    duellist in action."""
    from .data import load_rules
    from .scenario import parse_scenario

    rules = rules or load_rules()
    if aspect not in ASPECTS:
        raise ScenarioError(f"expected one of {', '.join(ASPECTS)}", field="aspect", value=aspect, rule="FIGHT-06")
    tactic_a, tactic_b = parse_tactics(tactics)
    for name, value, lo, hi in (("range", range_, 0.5, 1000.0), ("speed", speed, -100.0, 300.0)):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not lo <= value <= hi:
            raise ScenarioError(f"expected a number from {lo:g} to {hi:g}", field=name, value=value, rule="FIGHT-06")
    if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 1000:
        raise ScenarioError("expected a whole number of turns from 1 to 1000", field="turns", value=turns, rule="FIGHT-06")
    first, second = _vehicle_entry(a, rules, "a"), _vehicle_entry(b, rules, "b")
    if first["id"] == second["id"]:
        first["id"], second["id"] = f"{first['id']}_a", f"{second['id']}_b"
    dx, dy, facing = ASPECTS[aspect]
    first.update(x=0.0, y=0.0, facing=0.0, speed=float(speed), side=first["id"])
    second.update(x=dx * range_, y=dy * range_, facing=facing, speed=float(speed), side=second["id"])
    doc: dict[str, Any] = {"scenario": {"name": f"Duel: {first['id']} against {second['id']}, {aspect} at {range_:g} inches, {speed:g} mph",
                        "ruleset": "carwars", "turns": turns, "until": "decided",
                        "description": "built by hardpoint duel: each fires every weapon at the other every turn"},
           "vehicle": [first, second], "orders": [], "drive": []}
    for entry, tactic in ((first, tactic_a), (second, tactic_b)):
        order: dict[str, Any] = {"id": f"{entry['id']}_fires", "unit": entry["id"], "target": "best_odds"}
        weapons = _weapons(entry, rules) if drops else None
        if weapons:
            order["weapons"] = weapons
        doc["orders"].append(order)
        if tactic != "none":
            doc["drive"].append({"id": f"{entry['id']}_drives", "unit": entry["id"], "tactic": tactic})
    return parse_scenario(doc, f"duel {a} {b}", rules)


def duel(a: str, b: str, trials: int = 100_000, seed: int = 1, precision: float | None = None, **options) -> BatchResult:
    """Build the duel and run it: who wins, how often, how fast (FIGHT-05, FIGHT-06); with `precision`, on until
    every probability is known to it (FIGHT-11, `hardpoint.precision.run_to_precision`)."""
    from .api import run_batch
    from .precision import run_to_precision

    run = {k: options.pop(k) for k in ("backend", "threads", "progress", "cancel") if k in options}
    scenario = build_duel(a, b, **options)
    if precision is not None:
        return run_to_precision(scenario, precision, seed, trials, **run).result
    return run_batch(scenario, trials, seed, keep="summary", **run)


@dataclass
class Comparison:
    """Every pair of designs fought (FIGHT-06): `wins[i][j]` trials in which design i beat design j (i as A)."""

    designs: list[str]
    trials: int
    wins: list[list[int]]
    draws: list[list[int]]
    options: dict
    n: list[list[int]] = field(default_factory=list)   # fights run for each pair (all `trials` but with a precision)

    def __post_init__(self) -> None:
        if not self.n:
            self.n = [[self.trials if i != j else 0 for j in range(len(self.designs))] for i in range(len(self.designs))]

    @property
    def counts(self) -> list[int]:
        """The fights run for each pair."""
        return [self.n[i][j] for i in range(len(self.designs)) for j in range(len(self.designs)) if i != j]

    def p(self, i: int, j: int) -> float:
        return self.wins[i][j] / self.n[i][j] if i != j else float("nan")

    def interval(self, i: int, j: int) -> tuple[float, float]:
        return wilson(self.wins[i][j], self.n[i][j])

    def to_dict(self) -> dict[str, Any]:
        rows = []
        for i, a in enumerate(self.designs):
            for j, b in enumerate(self.designs):
                if i != j:
                    lo, hi = self.interval(i, j)
                    rows.append({"a": a, "b": b, "measure": "win", "probability": self.p(i, j), "interval": [lo, hi],
                                 "count": self.wins[i][j], "draws": self.draws[i][j], "trials": self.trials})
        return {"format": "hardpoint/1", "kind": "compare", "designs": self.designs, "trials": self.trials,
                "options": self.options, "rows": rows}


def compare(designs: list[str], trials: int = 20_000, seed: int = 1, precision: float | None = None, **options) -> Comparison:
    """Every ordered pair of `designs` as a duel (the row's design is A): the matrix of P(row beats column); with
    `precision`, each pair run on until its probabilities are known to it (FIGHT-11)."""
    if len(designs) < 2:
        raise ScenarioError("compare needs at least two designs", field="designs", value=list(designs), rule="FIGHT-06")
    n = len(designs)
    wins = [[0] * n for _ in range(n)]
    draws = [[0] * n for _ in range(n)]
    runs = [[0] * n for _ in range(n)]
    for i, a in enumerate(designs):
        for j, b in enumerate(designs):
            if i == j:
                continue
            result = duel(a, b, trials, seed, precision, **options)
            scenario_ids = [o.side for o in result.outcomes if o.measure == "win"]
            wins[i][j] = result.find("win", side=scenario_ids[0]).count
            draws[i][j] = result.find("draw").count
            runs[i][j] = result.trials
    shown = {k: v for k, v in options.items() if k in ("range_", "aspect", "speed", "turns", "tactics", "drops")}
    return Comparison(list(designs), trials, wins, draws, shown, runs)
