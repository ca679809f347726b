"""Car Wars as a rule set of the front door (hardpoint.ruleset.RuleSet)."""
from __future__ import annotations

from typing import Any

from ..results import BatchResult, Outcome
from ..ruleset import BatchOptions, Unpackable, register

__all__ = ["CarWars", "CARWARS", "outcomes_of"]

_FLAG_MEASURES = ("on_fire", "exploded", "uncontrolled", "obstacle")
_FLAG_WORDS = ("on fire", "exploded", "uncontrolled", "drops an obstacle")


def _split_label(label: str, units: list[str]) -> tuple[str | None, str | None]:
    """(unit, part) of a slot label such as 'shogun front armour' or 'rifleman body armour' (longest unit id first)."""
    for uid in sorted(units, key=len, reverse=True):
        if label == uid:
            return uid, None
        if label.startswith(uid + " "):
            return uid, label[len(uid) + 1:]
    return None, label


def _attackers(scenario) -> dict[str, str]:
    attacks = [a for xs in scenario.plan.attacks.values() for a in xs] if scenario.turns and scenario.plan else scenario.attacks
    return {a.id: a.attacker for a in attacks}


def _exact_hits(scenario) -> dict[str, Any]:
    """P(hit) of each attack where explain gives it exactly for the batch: a single phase with no collision, or the
    attacks planned for the first phase of a multi-turn scenario when nothing can change the state before they fire
    (no action, declared collision, collision from movement or off-road roll before that combat)."""
    from ..errors import HardpointError

    try:
        if not scenario.turns:
            return {} if scenario.collisions else {b.attack: b.probability for b in scenario.explain()}
        first = (scenario.arena.turn, 1)
        plan = scenario.plan
        if plan.actions.get(first) or plan.collisions.get(first) or any(v.off_road for v in scenario.arena.vehicles.values()):
            return {}
        from .motion import move_with_contacts

        if move_with_contacts(scenario.rules, scenario.arena.copy(), 1)[1]:
            return {}
        from .turn import planned_breakdowns

        return {a.id: b.probability for phase, a, b in planned_breakdowns(scenario.arena, scenario.rules, plan, scenario.history)
                if phase == 1 and hasattr(b, "probability")}
    except HardpointError:   # an attack the explain refuses is reported by the batch itself
        return {}


def outcomes_of(scenario, b) -> list[Outcome]:
    """The counted outcomes of a Car Wars batch (`hardpoint.carwars.batch` result) as structured rows."""
    c = b.counts()
    n = b.trials
    attackers = _attackers(scenario)
    exact_hit = _exact_hits(scenario)
    out: list[Outcome] = []
    for j, a in enumerate(b.attacks):
        out.append(Outcome("hit", unit=attackers.get(a), attack=a, count=int(c["hit"][j]), n=n, exact=exact_hit.get(a),
                           label=f"{a} hit"))
        row = c["damage_hist"][j] if "damage_hist" in c else None
        hist = None if row is None else tuple((v, int(k)) for v, k in enumerate(row) if k)
        out.append(Outcome("damage", unit=attackers.get(a), attack=a, kind="amount", total=int(c["damage_sum"][j]),
                           total_sq=int(c["damage_sq"][j]), n=n, histogram=hist, label=f"{a} damage"))
    units = list(scenario.arena.vehicles) + list(scenario.arena.pedestrians)
    for j, label in enumerate(b.labels):
        kind = b.kinds[j]
        if kind in ("crew_armour", "ped_armour") or not c["destroyed"][j] or b.initial[j] <= 0:
            continue
        if kind in ("crew_hits", "ped_hits") and b.initial[j] >= 3:
            continue
        unit, part = _split_label(label, units)
        word = "killed" if kind in ("crew_hits", "ped_hits") else "destroyed"
        out.append(Outcome(word, unit=unit, part=part, count=int(c["destroyed"][j]), n=n, label=f"{label} {word}"))
    for v, name in enumerate(b.vehicles):
        for bit, (measure, words) in enumerate(zip(_FLAG_MEASURES, _FLAG_WORDS)):
            count = int(c["flags"][v, bit])
            if count:
                out.append(Outcome(measure, unit=name, count=count, n=n, label=f"{name} {words}"))
    if getattr(b, "fight_layout", None) is not None and "fight_wins" in c:
        out = fight_outcomes(b.fight_layout, c, n) + out
    return out


def fight_outcomes(layout, c: dict, n: int) -> list[Outcome]:
    """FIGHT-05: who wins (per side, draws, undecided), when each unit went out, what each weapon did."""
    out: list[Outcome] = []
    for k, side in enumerate(layout.sides):
        out.append(Outcome("win", side=side, count=int(c["fight_wins"][k]), n=n, label=f"{side} wins"))
    out.append(Outcome("draw", count=int(c["fight_draws"][0]), n=n, label="draw (nobody left in action)"))
    out.append(Outcome("undecided", count=int(c["fight_undecided"][0]), n=n, label=f"undecided after {layout.turns} turns"))
    turns_hist = c["fight_turns_hist"]
    out.append(Outcome("turns", kind="amount", n=n, total=int(sum(t * k for t, k in enumerate(turns_hist))),
                       total_sq=int(sum(t * t * k for t, k in enumerate(turns_hist))),
                       histogram=tuple((t, int(k)) for t, k in enumerate(turns_hist) if k), label="turns fought"))
    for u, unit in enumerate(layout.units):
        hist = c["fight_out_hist"][u]            # bin 0: never out
        went = int(hist[1:].sum())
        out.append(Outcome("out", unit=unit, count=went, n=n, label=f"{unit} out of action"))
        if went:
            out.append(Outcome("out_turn", unit=unit, kind="amount", n=went,
                               total=int(sum(t * int(hist[t]) for t in range(1, len(hist)))),
                               total_sq=int(sum(t * t * int(hist[t]) for t in range(1, len(hist)))),
                               histogram=tuple((t, int(hist[t])) for t in range(1, len(hist)) if hist[t]),
                               label=f"{unit}: turn it went out (when it did)"))
        running = 0
        for t in range(1, len(hist)):
            running += int(hist[t])
            out.append(Outcome("out_by_turn", unit=unit, turn=t, count=running, n=n, label=f"{unit} out by turn {t}"))
    for w, (unit, weapon) in enumerate(layout.weapons):
        if not c["fight_shots_sum"][w]:
            continue
        for measure, key, words in (("shots", "shots", "shots fired"), ("hits", "hits", "hits"),
                                    ("damage_dealt", "damage", "damage dealt")):
            out.append(Outcome(measure, unit=unit, weapon=weapon, kind="amount", n=n, total=int(c[f"fight_{key}_sum"][w]),
                               total_sq=int(c[f"fight_{key}_sq"][w]), label=f"{unit} {weapon}: {words}"))
    return out


class CarWars:
    """The Car Wars rule set: vehicles, cycles, trikes and pedestrians (pyapi/carwars)."""

    name = "carwars"
    title = "Car Wars"

    @property
    def schema_parts(self) -> dict[str, Any]:
        from .scenario import SCHEMA_PARTS

        return SCHEMA_PARTS

    def load(self, data: dict, rules: Any, source: str) -> Any:
        from .scenario import load_carwars

        return load_carwars(data, rules, source)

    def owns(self, scenario: Any) -> bool:
        from .scenario import CarWarsScenario

        return isinstance(scenario, CarWarsScenario)

    def explain(self, scenario: Any) -> list[Any]:
        return scenario.explain()

    def resolve(self, scenario: Any, dice: Any, seed: int | None = None) -> Any:
        return scenario.resolve(dice, seed=seed)

    def batch(self, scenario: Any, trials: int, seed: int, options: BatchOptions) -> BatchResult:
        from . import batch as _batch

        chunk = options.chunk or max(1000, min(65536, trials // 64 or 1))
        b = _batch.run_batch(scenario, trials, seed, first_trial=options.first_trial, backend=options.backend,
                             threads=options.threads, chunk=chunk, end_of_turn=not options.phase_only,
                             progress=options.progress, keep=options.keep, cancel=options.cancel)
        return BatchResult(scenario.name, self.name, seed, options.first_trial, b.trials, b.backend, b.seconds,
                           outcomes_of(scenario, b), details=b, requested=trials, interrupted=b.interrupted,
                           turns=scenario.turns)

    def exact(self, scenario: Any, **query: Any) -> list[Outcome]:
        """Exact odds of each declared attack (or of `attack=`): P(hit), the mean damage, P(each component destroyed)."""
        from fractions import Fraction

        from .exact import exact_attack

        wanted = query.get("attack")
        ids = [b.attack for b in scenario.explain()] if wanted is None else [wanted]
        out: list[Outcome] = []
        for a in ids:
            odds = exact_attack(scenario, a)
            out.append(Outcome("hit", attack=a, exact=odds.p_hit, label=f"{a} hit"))
            mean = sum((Fraction(v) * p for v, p in odds.damage.items()), Fraction(0))
            out.append(Outcome("damage", attack=a, kind="amount", exact=mean, label=f"{a} damage"))
            for comp, p in odds.destroyed.items():
                if p:
                    out.append(Outcome("destroyed", unit=odds.target, part=str(comp), attack=a, exact=p,
                                       label=f"{a}: {odds.target} {comp} destroyed"))
        return out

    def merge(self, scenario: Any, parts: list[BatchResult]) -> BatchResult:
        """Counted chunks in trial order as one batch: the kernel's tallies added, the outcomes rebuilt (FAST-03)."""
        from dataclasses import replace

        counts: dict[str, Any] = {}
        for p in parts:
            for k, v in p.details.counts().items():
                counts[k] = counts[k] + v if k in counts else v.copy()
        n = sum(p.trials for p in parts)
        first = parts[0]
        merged = replace(first.details, n=n, tallies=counts, hit=None, damage=None, state=None, flags=None, fight=None,
                         seconds=max(p.seconds for p in parts), interrupted=any(p.interrupted for p in parts))
        return BatchResult(scenario.name, self.name, first.seed, first.first_trial, n, first.backend, merged.seconds,
                           outcomes_of(scenario, merged), details=merged, requested=sum(p.requested or p.trials for p in parts),
                           interrupted=merged.interrupted, turns=scenario.turns)

    def pack(self, scenario: Any) -> Any:
        from . import batch as _batch

        return _batch.pack(scenario)      # a Packed, or Unpackable(reason): one decision (ARCH-04)


CARWARS = CarWars()
register(CARWARS)
