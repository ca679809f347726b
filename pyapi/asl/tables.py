"""Validation of the ASL tables in seeds/asl and typed views of them (ARCH-05).

Each table is checked when the rules load (defaults and every override), so a
bad house rule fails at once with the field and the rule it concerns. The typed
views (`ift_table`, `tohit_table`, `morale_settings`, `motorcycle_settings`,
`infantry_settings`, `terrain_table`) are built once per `Rules` object.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Mapping

from ..data import Rules, register_validator
from ..errors import DataError
from .enums import Capacity, Effect, FirerRow, Hexside, MachineType, Size, TargetType, TieRule, UnitType

__all__ = [
    "IFTResult", "parse_ift_result", "IFTTable", "ift_table", "ToHitTable", "tohit_table",
    "MoraleSettings", "morale_settings", "CapacitySpec", "MotorcycleSettings", "motorcycle_settings",
    "UnitTypeSpec", "InfantrySettings", "infantry_settings", "TerrainSpec", "TerrainTable", "terrain_table",
    "BoardSettings", "board_settings", "to_fraction",
]

_RESULT = re.compile(r"^(?:(?P<none>-)|(?P<ptc>PTC)|(?P<nmc>NMC)|(?P<mc>[1-9])MC|K/(?P<k>[1-9])|(?P<kia>[1-9])KIA)$")


_FRACTION_TEXT = re.compile(r"^\s*-?\d{1,6}(?:\.\d{1,6}|/\d{1,6})?\s*$")

#: the largest magnitude a number of a table (or a scenario cost) may have: any MP, MF or FP the rules use
NUMBER_LIMIT = 10_000


def to_fraction(value: Any, field: str, rule: str, *, allow_na: bool = False) -> Fraction | None:
    """A number from a table: int, float, or a string "a/b" (or "1.5"); "NA" (None) when allowed. Not
    finite, beyond +-NUMBER_LIMIT, or text of anything else: a DataError naming the field (SAFE-01)."""
    if allow_na and value == "NA":
        return None
    expected = "expected a number or a fraction such as \"1/2\"" + (" or \"NA\"" if allow_na else "")
    out: Fraction | None = None
    if isinstance(value, bool):
        out = None
    elif isinstance(value, int):
        out = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise DataError("not a finite number", field=field, value=str(value), rule="SAFE-01")
        if abs(value) <= NUMBER_LIMIT:
            out = Fraction(value).limit_denominator(1000)
        else:
            out = Fraction(NUMBER_LIMIT + 1)
    elif isinstance(value, str) and _FRACTION_TEXT.match(value):
        try:
            out = Fraction(value.strip())
        except ZeroDivisionError:
            raise DataError("a fraction with denominator 0", field=field, value=value, rule=rule) from None
    if out is None:
        raise DataError(expected, field=field, value=value, rule=rule)
    if abs(out) > NUMBER_LIMIT:
        raise DataError(f"beyond +-{NUMBER_LIMIT}", field=field, value=value, rule="SAFE-01")
    return out


# --- validation helpers: every field's type, range and place (SAFE-01, ARCH-05) ----------------------

#: DRM in the tables (To Hit and IFT DRM, the Bail Out NMC DRM, pushing help): a DR is 2..12
DRM_RANGE = (-12, 12)
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


def _table(t: Any, path: str, rule: str, required: tuple[str, ...], optional: tuple[str, ...] = (), *, more: bool = False) -> dict:
    """`t` is a table with the `required` keys, maybe the `optional` ones and a `rule` (text): nothing else
    unless `more` (a table of names: the caller checks its other keys)."""
    if not isinstance(t, dict):
        raise DataError("expected a table", field=path, value=t if not isinstance(t, list) else None, rule=rule)
    for k in required:
        if k not in t:
            raise DataError("missing", field=f"{path}.{k}", rule=rule)
    for k, v in t.items():
        if k == "rule":
            if not isinstance(v, str) or len(v) > 80:
                raise DataError("a rule reference is short text", field=f"{path}.rule", value=v, rule="ARCH-05")
        elif k not in required and k not in optional and not more:
            known = ", ".join(sorted((*required, *optional)))
            raise DataError(f"unknown key (known: {known})", field=f"{path}.{k}", rule=rule)
    return t


def _sub(t: dict, key: str, path: str, rule: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    return _table(t[key], f"{path}.{key}", rule, required, optional)


def _int(t: dict, key: str, path: str, rule: str, lo: int, hi: int) -> int:
    v = t[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise DataError("expected a whole number", field=f"{path}.{key}", value=v if not isinstance(v, (dict, list)) else None,
                        rule="SAFE-01" if isinstance(v, float) and not math.isfinite(v) else rule)
    if not lo <= v <= hi:
        raise DataError(f"must be from {lo} to {hi}", field=f"{path}.{key}", value=v, rule=rule)
    return v


def _bool(t: dict, key: str, path: str, rule: str) -> bool:
    v = t[key]
    if not isinstance(v, bool):
        raise DataError("expected true or false", field=f"{path}.{key}", value=v if not isinstance(v, (dict, list)) else None, rule=rule)
    return v


def _choice(t: dict, key: str, path: str, rule: str, choices: tuple[str, ...] | list[str]) -> str:
    v = t[key]
    if not isinstance(v, str) or v not in choices:
        raise DataError(f"expected one of {', '.join(choices)}", field=f"{path}.{key}", value=v if not isinstance(v, (dict, list)) else None,
                        rule=rule)
    return v


def _num(t: dict, key: str, path: str, rule: str, lo: Fraction | int, hi: Fraction | int, *, na: bool = False,
         above: bool = False) -> Fraction | None:
    """A number or fraction in [lo, hi] ((lo, hi] when `above`), or "NA" when `na`."""
    v = to_fraction(t[key], f"{path}.{key}", rule, allow_na=na)
    if v is not None and (v > hi or v < lo or (above and v == lo)):
        raise DataError(f"must be {'above' if above else 'from'} {lo}{' and at most' if above else ' to'} {hi}", field=f"{path}.{key}",
                        value=t[key], rule=rule)
    return v


def _names(t: dict, key: str, path: str, rule: str, allowed: tuple[str, ...] | list[str] | None = None, *,
           nonempty: bool = False) -> list[str]:
    """A list of distinct names (from `allowed`, if given)."""
    v = t[key]
    if not isinstance(v, list) or (nonempty and not v):
        raise DataError("expected a list of names" + (" (at least one)" if nonempty else ""), field=f"{path}.{key}",
                        value=v if not isinstance(v, dict) else None, rule=rule)
    for x in v:
        if not isinstance(x, str) or not x or len(x) > 40 or not x.isprintable():
            raise DataError("a name is short printable text", field=f"{path}.{key}", value=x if not isinstance(x, (dict, list)) else None,
                            rule=rule)
        if allowed is not None and x not in allowed:
            raise DataError(f"expected some of {', '.join(allowed)}", field=f"{path}.{key}", value=x, rule=rule)
    if len(set(v)) != len(v):
        raise DataError("a name is listed twice", field=f"{path}.{key}", value=v, rule=rule)
    return v


def _name_key(k: str, path: str, rule: str) -> None:
    if not _NAME.match(k):
        raise DataError("a name of lower-case letters, digits and _", field=f"{path}.{k}", rule=rule)


# --- IFT (A7) ---------------------------------------------------------------------------

@dataclass(frozen=True)
class IFTResult:
    """One IFT cell: its kind and number (nMC: the DRM; K/n: the MC DRM; nKIA: units eliminated)."""

    effect: Effect
    n: int = 0

    @property
    def text(self) -> str:
        return {Effect.NONE: "-", Effect.PTC: "PTC", Effect.MC: f"{self.n}MC" if self.n else "NMC",
                Effect.K: f"K/{self.n}", Effect.KIA: f"{self.n}KIA"}[self.effect]

    def __str__(self) -> str:
        return self.text


def parse_ift_result(text: Any, field: str = "result") -> IFTResult:
    """Parse an IFT cell ("-", "PTC", "NMC", "2MC", "K/3", "1KIA") (A7)."""
    m = _RESULT.match(text) if isinstance(text, str) else None
    if not m:
        raise DataError("not an IFT result (expected -, PTC, NMC, nMC, K/n or nKIA)", field=field, value=text, rule="A7")
    if m["none"]:
        return IFTResult(Effect.NONE)
    if m["ptc"]:
        return IFTResult(Effect.PTC)
    if m["nmc"]:
        return IFTResult(Effect.MC, 0)
    if m["mc"]:
        return IFTResult(Effect.MC, int(m["mc"]))
    if m["k"]:
        return IFTResult(Effect.K, int(m["k"]))
    return IFTResult(Effect.KIA, int(m["kia"]))


@dataclass(frozen=True)
class IFTTable:
    """The IFT as data: FP columns, DR rows and the cowering and FP settings (A7, A7.9)."""

    columns: tuple[int, ...]
    min_dr: int
    max_dr: int
    cells: Mapping[int, tuple[IFTResult, ...]]
    cowering_enabled: bool
    cowering_columns: int
    inexperienced_columns: int
    cowering_exempt: frozenset[str]
    point_blank_range: int
    point_blank: int
    triple_point_blank: int
    long_range_factor: int
    long_range_divisor: int

    def result(self, column: int, final_dr: int) -> IFTResult:
        """The cell of FP column `column` for a Final DR (clamped to the first and last rows)."""
        row = min(max(final_dr, self.min_dr), self.max_dr) - self.min_dr
        return self.cells[column][row]


def _validate_ift(name: str, t: dict) -> None:
    """A7: rows from min_dr (or less) to max_dr (or more), covering every Original DR 2..12 at least; up
    to 30 increasing FP columns of 1..1000, each with one result per row; cowering shifts of 0..30
    columns; the FP multipliers 1..10 (point-blank range 0..10 hexes)."""
    _table(t, name, "A7", ("min_dr", "max_dr", "columns", "column", "cowering", "firepower"))
    min_dr = _int(t, "min_dr", name, "A7", -20, 2)
    max_dr = _int(t, "max_dr", name, "A7", 12, 40)
    cols = t["columns"]
    if (not isinstance(cols, list) or not 1 <= len(cols) <= 30
            or any(not isinstance(c, int) or isinstance(c, bool) or not 1 <= c <= 1000 for c in cols) or cols != sorted(set(cols))):
        raise DataError("columns are 1 to 30 increasing whole FP from 1 to 1000", field=f"{name}.columns",
                        value=cols if isinstance(cols, list) else None, rule="A7")
    cells = _table(t["column"], f"{name}.column", "A7", tuple(str(c) for c in cols))
    for c in cols:
        row = cells[str(c)]
        if not isinstance(row, list) or len(row) != max_dr - min_dr + 1:
            raise DataError(f"column {c} needs {max_dr - min_dr + 1} results (Final DR {min_dr} or less .. {max_dr} or more)",
                            field=f"{name}.column.{c}", value=row if not isinstance(row, (list, dict)) else None, rule="A7")
        for i, cell in enumerate(row):
            parse_ift_result(cell, f"{name}.column.{c}[{i}]")
    cow = _sub(t, "cowering", name, "A7.9", ("enabled", "columns", "inexperienced_columns", "exempt"))
    _bool(cow, "enabled", f"{name}.cowering", "A7.9")
    for k in ("columns", "inexperienced_columns"):
        _int(cow, k, f"{name}.cowering", "A7.9", 0, 30)
    _names(cow, "exempt", f"{name}.cowering", "A7.9", ("ordnance", "vehicle", "smc", "leader_directed"))
    fp = _sub(t, "firepower", name, "A7.2", ("point_blank_range", "point_blank", "triple_point_blank", "long_range_factor",
                                             "long_range_divisor"))
    _int(fp, "point_blank_range", f"{name}.firepower", "A7.21", 0, 10)
    for k in ("point_blank", "triple_point_blank", "long_range_factor", "long_range_divisor"):
        _int(fp, k, f"{name}.firepower", "A7.2", 1, 10)


@cache
def ift_table(rules: Rules) -> IFTTable:
    """Typed view of `asl.ift` (A7)."""
    t = rules["asl.ift"]
    cols = tuple(t["columns"])
    cells = {c: tuple(parse_ift_result(x) for x in t["column"][str(c)]) for c in cols}
    cow, fp = t["cowering"], t["firepower"]
    return IFTTable(cols, t["min_dr"], t["max_dr"], cells, cow["enabled"], cow["columns"], cow["inexperienced_columns"],
                    frozenset(cow["exempt"]), fp["point_blank_range"], fp["point_blank"], fp["triple_point_blank"],
                    fp["long_range_factor"], fp["long_range_divisor"])


# --- To Hit (C3) ------------------------------------------------------------------------

@dataclass(frozen=True)
class ToHitTable:
    """Basic To Hit numbers by target type, firer row and range band (C3), and the D15 DRM."""

    range_bands: tuple[int, ...]
    basic: Mapping[tuple[TargetType, FirerRow], tuple[int, ...]]
    case_j: int
    mounted_motorcyclist: int
    mounted_bicyclist: int
    vs_motorcyclists: frozenset[TargetType] = frozenset({TargetType.INFANTRY})

    def band(self, range_hexes: int) -> int:
        """Index of the range band holding `range_hexes` (0-6 is band 0; beyond the last bound, the last band)."""
        for i, upper in enumerate(self.range_bands):
            if range_hexes <= upper:
                return i
        return len(self.range_bands)


def _validate_tohit(name: str, t: dict) -> None:
    """C3: up to 30 increasing range bands (0..1000 hexes); the vehicle and infantry rows (german,
    other) and the area row (any), one whole To Hit number of -20..30 per band; the D15 DRM (Case J,
    mounted motorcyclist, mounted bicyclist) within +-12; the target types ordnance may use against
    motorcyclists, infantry among them (D15.5: riders are an Infantry target)."""
    _table(t, name, "C3", ("range_bands", "basic", "drm", "target_type"))
    bands = t["range_bands"]
    if (not isinstance(bands, list) or not 1 <= len(bands) <= 30
            or any(not isinstance(b, int) or isinstance(b, bool) or not 0 <= b <= 1000 for b in bands) or bands != sorted(set(bands))):
        raise DataError("range bands are 1 to 30 increasing whole numbers of hexes, 0 to 1000", field=f"{name}.range_bands",
                        value=bands if isinstance(bands, list) else None, rule="C3")
    rows = {"vehicle": ("german", "other"), "infantry": ("german", "other"), "area": ("any",)}
    basic = _sub(t, "basic", name, "C3", tuple(rows))
    for ttype, firers in rows.items():
        tt = _sub(basic, ttype, f"{name}.basic", "C3", firers)
        for f in firers:
            row = tt[f]
            if (not isinstance(row, list) or len(row) != len(bands) + 1
                    or any(not isinstance(x, int) or isinstance(x, bool) or not -20 <= x <= 30 for x in row)):
                raise DataError(f"needs {len(bands) + 1} whole To Hit numbers from -20 to 30 (one per range band)",
                                field=f"{name}.basic.{ttype}.{f}", value=row if isinstance(row, list) else None, rule="C3")
    drm = _sub(t, "drm", name, "ASL-TGT-01", ("case_j_target_moving", "mounted_motorcyclist", "mounted_bicyclist"))
    for k in ("case_j_target_moving", "mounted_motorcyclist", "mounted_bicyclist"):
        _int(drm, k, f"{name}.drm", "ASL-TGT-01", *DRM_RANGE)
    tt = _sub(t, "target_type", name, "ASL-TGT-01", ("vs_motorcyclists",))
    allowed = _names(tt, "vs_motorcyclists", f"{name}.target_type", "ASL-TGT-01", ("infantry", "area"), nonempty=True)
    if "infantry" not in allowed:
        raise DataError("riders are an Infantry target: infantry must be listed (a house rule may add area)",
                        field=f"{name}.target_type.vs_motorcyclists", value=allowed, rule="ASL-TGT-01")


@cache
def tohit_table(rules: Rules) -> ToHitTable:
    """Typed view of `asl.tohit` (C3)."""
    t = rules["asl.tohit"]
    basic: dict[tuple[TargetType, FirerRow], tuple[int, ...]] = {}
    for ttype, rows in t["basic"].items():
        for firer, values in rows.items():
            basic[(TargetType[ttype.upper()], FirerRow[firer.upper()])] = tuple(values)
    d = t["drm"]
    return ToHitTable(tuple(t["range_bands"]), basic, d["case_j_target_moving"], d["mounted_motorcyclist"], d["mounted_bicyclist"],
                      frozenset(TargetType[v.upper()] for v in t["target_type"]["vs_motorcyclists"]))


# --- Morale, Random Selection, Casualty Reduction (A10, A.9, A7.302, A17) -----------------

@dataclass(frozen=True)
class MoraleSettings:
    """Settings of the MC / PTC / Random Selection / Casualty Reduction / wound rules."""

    broken_fails: str
    pin_on_equal: bool
    leadership_applies_to_self: bool
    ptc_broken_exempt: bool
    ties: TieRule
    kia_survivors_break: bool
    reduction: Mapping[str, str]
    wound_morale_penalty: int
    wound_leadership_penalty: int
    wounded_mf: int
    bail_out_nmc_drm: int
    report_leader_loss: bool
    bail_out_broken_fails: str = "casualty_reduction"
    bail_out_smc: str = "eliminated"


def _validate_morale(name: str, t: dict) -> None:
    """A10, A7.8, A.9, A7.301, A7.302, A17, D6.24, A10.2: each setting one of its documented values;
    wound penalties 0..9, a wounded SMC's MF 0..20, the Bail Out NMC DRM within +-12."""
    _table(t, name, "A10", ("morale_check", "leadership", "pin_task_check", "random_selection", "kia", "casualty_reduction", "wounds",
                            "bail_out", "leader_loss"))
    mc = _sub(t, "morale_check", name, "A10", ("broken_fails", "pin_on_equal"))
    _choice(mc, "broken_fails", f"{name}.morale_check", "A10", ("eliminate", "casualty_reduction"))
    _bool(mc, "pin_on_equal", f"{name}.morale_check", "A7.8")
    _bool(_sub(t, "leadership", name, "A10.7", ("applies_to_self",)), "applies_to_self", f"{name}.leadership", "A10.7")
    _bool(_sub(t, "pin_task_check", name, "A7.8", ("broken_units_exempt",)), "broken_units_exempt", f"{name}.pin_task_check", "A7.8")
    _choice(_sub(t, "random_selection", name, "A.9", ("ties",)), "ties", f"{name}.random_selection", "A.9", TieRule.choices())
    _bool(_sub(t, "kia", name, "A7.301", ("survivors_break",)), "survivors_break", f"{name}.kia", "A7.301")
    expected = {"squad": ("half_squad", "eliminated"), "half_squad": ("eliminated",), "crew": ("eliminated",),
                "smc": ("wounded", "eliminated"), "wounded_smc": ("eliminated",)}
    cr = _sub(t, "casualty_reduction", name, "A7.302", tuple(expected))
    for k, allowed in expected.items():
        _choice(cr, k, f"{name}.casualty_reduction", "A7.302", allowed)
    w = _sub(t, "wounds", name, "A17", ("morale_penalty", "leadership_penalty", "wounded_mf"))
    _int(w, "morale_penalty", f"{name}.wounds", "A17", 0, 9)
    _int(w, "leadership_penalty", f"{name}.wounds", "A17", 0, 9)
    _int(w, "wounded_mf", f"{name}.wounds", "A17", 0, 20)
    bo = _sub(t, "bail_out", name, "D6.24", ("nmc_drm", "broken_fails", "smc"))
    _int(bo, "nmc_drm", f"{name}.bail_out", "D6.24", *DRM_RANGE)
    _choice(bo, "broken_fails", f"{name}.bail_out", "ASL-RES-03", ("eliminate", "casualty_reduction"))
    _choice(bo, "smc", f"{name}.bail_out", "ASL-RES-03", ("wounded", "eliminated"))
    _bool(_sub(t, "leader_loss", name, "A10.2", ("report",)), "report", f"{name}.leader_loss", "A10.2")


@cache
def morale_settings(rules: Rules) -> MoraleSettings:
    """Typed view of `asl.morale`."""
    t = rules["asl.morale"]
    return MoraleSettings(
        t["morale_check"]["broken_fails"], t["morale_check"]["pin_on_equal"], t["leadership"]["applies_to_self"],
        t["pin_task_check"]["broken_units_exempt"], TieRule[t["random_selection"]["ties"].upper()],
        t["kia"]["survivors_break"], dict(t["casualty_reduction"]), t["wounds"]["morale_penalty"],
        t["wounds"]["leadership_penalty"], t["wounds"]["wounded_mf"], t["bail_out"]["nmc_drm"], t["leader_loss"]["report"],
        t["bail_out"]["broken_fails"], t["bail_out"]["smc"])


# --- Infantry (A1, A4, A5) ----------------------------------------------------------------

@dataclass(frozen=True)
class UnitTypeSpec:
    size: Size
    squad_equivalent: Fraction
    smc: bool
    mf: int


@dataclass(frozen=True)
class InfantrySettings:
    types: Mapping[UnitType, UnitTypeSpec]
    leader_bonus: int
    double_time: int
    stacking_squad_equivalents: int
    stacking_smc: int
    counters: Mapping[str, Mapping[str, Any]]
    ipc: Mapping[UnitType, int]
    mf_per_excess_pp: int


def _validate_infantry(name: str, t: dict) -> None:
    """A1, A4, A5.1: the five unit types, each with its counter size (an MMC a half_squad or squad
    counter, an SMC an smc one; the smc flag as the code reads it), squad-equivalents 0..3 and MF
    1..20; leader bonus and Double Time 0..10 MF; Inherent Portage Capacity 0..20 PP per type, 0..10 MF
    per PP over; stacking limits 0..100; the catalogue: every designation readable for its type, a
    squad with its half-squad's (A7.302), a half-squad only on a squad."""
    from ..errors import ScenarioError
    from .units import parse_designation

    _table(t, name, "A1", ("type", "movement", "portage", "stacking", "counter"))
    types = _sub(t, "type", name, "A1", tuple(UnitType.choices()))
    for ut in UnitType:
        path = f"{name}.type.{ut}"
        spec = _sub(types, str(ut), f"{name}.type", "A1", ("size", "squad_equivalent", "smc", "mf"))
        sizes = ("smc",) if ut.is_smc else ("half_squad", "squad")
        _choice(spec, "size", path, "D15.1", sizes)
        _num(spec, "squad_equivalent", path, "A5.1", 0, 3)
        if _bool(spec, "smc", path, "A1") is not ut.is_smc:
            raise DataError(f"{ut} is {'an SMC' if ut.is_smc else 'an MMC'} (the rules decide it, not the table)", field=f"{path}.smc",
                            value=spec["smc"], rule="A1")
        _int(spec, "mf", path, "A4.1", 1, 20)
    mv = _sub(t, "movement", name, "A4.1", ("leader_bonus", "double_time"))
    _int(mv, "leader_bonus", f"{name}.movement", "A4.12", 0, 10)
    _int(mv, "double_time", f"{name}.movement", "A4.5", 0, 10)
    port = _sub(t, "portage", name, "A4.42", ("ipc", "mf_per_excess_pp"))
    ipc = _sub(port, "ipc", f"{name}.portage", "A4.42", tuple(UnitType.choices()))
    for ut in UnitType.choices():
        _int(ipc, ut, f"{name}.portage.ipc", "A4.42", 0, 20)
    _int(port, "mf_per_excess_pp", f"{name}.portage", "A4.42", 0, 10)
    st = _sub(t, "stacking", name, "A5.1", ("squad_equivalents", "smc"))
    _int(st, "squad_equivalents", f"{name}.stacking", "A5.1", 0, 100)
    _int(st, "smc", f"{name}.stacking", "A5.1", 0, 100)
    counters = t["counter"]
    if not isinstance(counters, dict) or len(counters) > 1000:
        raise DataError("a table of at most 1,000 counters", field=f"{name}.counter", rule="A1")
    for des, c in counters.items():
        path = f"{name}.counter.{des}"
        c = _table(c, path, "A1", ("type",), ("half_squad",))
        ut = UnitType[_choice(c, "type", path, "A1", UnitType.choices()).upper()]
        try:
            parse_designation(des, ut, path)
            if ut is UnitType.SQUAD:
                if "half_squad" not in c:
                    raise DataError("a squad needs its half-squad's counter (Casualty Reduction)", field=f"{path}.half_squad", rule="A7.302")
                parse_designation(c["half_squad"], UnitType.HALF_SQUAD, f"{path}.half_squad")
            elif "half_squad" in c:
                raise DataError("only a squad has a half-squad", field=f"{path}.half_squad", value=c["half_squad"], rule="A7.302")
        except ScenarioError as exc:
            raise DataError(str(exc).split(": ", 1)[-1], field=exc.field, value=exc.value, rule=exc.rule) from None


@cache
def infantry_settings(rules: Rules) -> InfantrySettings:
    """Typed view of `asl.infantry`."""
    t = rules["asl.infantry"]
    types = {UnitType[k.upper()]: UnitTypeSpec(Size[v["size"].upper()], to_fraction(v["squad_equivalent"], k, "A5.1"), v["smc"], v["mf"])
             for k, v in t["type"].items() if k.upper() in UnitType.__members__}
    return InfantrySettings(types, t["movement"]["leader_bonus"], t["movement"]["double_time"],
                            t["stacking"]["squad_equivalents"], t["stacking"]["smc"], dict(t["counter"]),
                            {UnitType[k.upper()]: v for k, v in t["portage"]["ipc"].items() if k.upper() in UnitType.__members__},
                            t["portage"]["mf_per_excess_pp"])


# --- Motorcycles (D15) ---------------------------------------------------------------------

@dataclass(frozen=True)
class CapacitySpec:
    """What one size of counter carries (D15.1)."""

    machines: Capacity
    mmc: Size | None
    smc: int
    smc_sidecar: int

    def smc_limit(self, mtype: MachineType) -> int:
        return self.smc_sidecar if mtype is MachineType.SIDECAR else self.smc


@dataclass(frozen=True)
class MotorcycleSettings:
    capacity: Mapping[Capacity, CapacitySpec]
    portage: Mapping[tuple[MachineType, Capacity], int]
    bicycle_pp: int
    basic_mf: int
    mount_mf: int
    mount_fraction: Fraction
    start_mp: Fraction
    stop_mp: Fraction
    vca_change_mp: Fraction
    terrain_mp: Mapping[str, Fraction | None]
    wreck_on: int
    wreck_features: frozenset[str]
    wreck_hexsides: frozenset[str]
    bicycle_wreck_exempt: frozenset[str]
    second_smc_helping: int
    overrun_fraction: Fraction
    sidecar_mounted_fire: Fraction
    sidecar_support_weapons: frozenset[str]
    single_sidecar_sw_smc: int
    recovery_max: int
    bicycle_road_factor: Fraction
    bicycle_no_halving: frozenset[str]
    bicycle_descent_bonus: int
    bicycle_road_bonus: int
    vca_change_terrain: Mapping[str, Fraction]

    def vca_change_cost(self, terrain: str) -> Fraction:
        """MP to change VCA by one hexspine in a hex of this terrain (ASL-MOV-03)."""
        return self.vca_change_terrain.get(terrain, self.vca_change_mp)


_CAP_NAMES = {"three": Capacity.THREE, "two": Capacity.TWO, "single": Capacity.SINGLE}


def _validate_motorcycles(name: str, t: dict) -> None:
    """D15: counters of three, two and one machine, each with the MMC it carries (none, half_squad,
    squad) and 0..16 SMC; portage 0..20 PP by machine type and size, a bicycle 0 (it carries nothing,
    ASL-CAP-02), a carried bicycle 0..20 PP; the rider's basic MF 1..20, mount MF 0..basic, the mount
    fraction in (0, 1], Start/Stop/VCA-change MP 0..100 (by terrain too), terrain MP 0..100 or NA;
    the Wreck Check dr 1..6, its hex features and non-road hexside kinds; the pushing DRM within +-12;
    fractions of FP 0..1; recovery dr 0..6; the bicycle's road factor in (0, 1] and bonuses 0..10 MF."""
    from .units import HEX_FEATURES

    _table(t, name, "D15", ("capacity", "portage", "riding", "vca_change_terrain", "terrain_mp", "wreck_check", "pushing", "overrun",
                            "rider_fire", "recovery", "bicycle"))
    cap = _sub(t, "capacity", name, "ASL-CAP-01", tuple(_CAP_NAMES))
    for key, machines in _CAP_NAMES.items():
        path = f"{name}.capacity.{key}"
        c = _sub(cap, key, f"{name}.capacity", "ASL-CAP-01", ("machines", "mmc", "smc", "smc_sidecar"))
        _int(c, "machines", path, "ASL-CAP-01", machines.value, machines.value)
        _choice(c, "mmc", path, "ASL-CAP-01", ("none", "half_squad", "squad"))
        for k in ("smc", "smc_sidecar"):
            _int(c, k, path, "ASL-CAP-01", 0, 16)
    port = _sub(t, "portage", name, "ASL-CAP-02", (*MachineType.choices(), "bicycle_pp_when_carried"))
    for mt in MachineType.choices():
        row = _sub(port, mt, f"{name}.portage", "ASL-CAP-02", tuple(_CAP_NAMES))
        for key in _CAP_NAMES:
            hi = 0 if mt == "bicycle" else 20
            if _int(row, key, f"{name}.portage.{mt}", "ASL-CAP-02", 0, 20) > hi:
                raise DataError("a bicycle carries nothing (no SW, no other bicycle): its portage is 0",
                                field=f"{name}.portage.{mt}.{key}", value=row[key], rule="ASL-CAP-02")
    _int(port, "bicycle_pp_when_carried", f"{name}.portage", "ASL-CAP-02", 0, 20)
    r = _sub(t, "riding", name, "ASL-MOV-02", ("basic_mf", "mount_mf", "mount_fraction", "start_mp", "stop_mp", "vca_change_mp"))
    basic = _int(r, "basic_mf", f"{name}.riding", "ASL-MOV-02", 1, 20)
    _int(r, "mount_mf", f"{name}.riding", "ASL-MOV-02", 0, basic)
    _num(r, "mount_fraction", f"{name}.riding", "ASL-MOV-02", 0, 1, above=True)
    for k in ("start_mp", "stop_mp", "vca_change_mp"):
        _num(r, k, f"{name}.riding", "ASL-MOV-03", 0, 100)
    for key, rule, na in (("vca_change_terrain", "ASL-MOV-03", False), ("terrain_mp", "ASL-MOV-02", True)):
        table = _table(t[key], f"{name}.{key}", rule, (), more=True)
        for terrain in table:
            if terrain != "rule":
                _name_key(terrain, f"{name}.{key}", rule)
                _num(table, terrain, f"{name}.{key}", rule, 0, 100, na=na)
    w = _sub(t, "wreck_check", name, "ASL-MOV-06", ("wreck_on", "hex_features", "hexsides", "bicycle_exempt_features"))
    _int(w, "wreck_on", f"{name}.wreck_check", "ASL-MOV-06", 1, 6)
    _names(w, "hex_features", f"{name}.wreck_check", "ASL-MOV-06", HEX_FEATURES)
    _names(w, "hexsides", f"{name}.wreck_check", "ASL-MOV-06", [h for h in Hexside.choices() if h != "road"])
    _names(w, "bicycle_exempt_features", f"{name}.wreck_check", "ASL-BIC-02", HEX_FEATURES)
    _int(_sub(t, "pushing", name, "ASL-MOV-01", ("second_smc_helping",)), "second_smc_helping", f"{name}.pushing", "ASL-MOV-01",
         *DRM_RANGE)
    _num(_sub(t, "overrun", name, "ASL-MOV-04", ("rider_fp_fraction",)), "rider_fp_fraction", f"{name}.overrun", "ASL-MOV-04", 0, 1)
    rf = _sub(t, "rider_fire", name, "ASL-FIRE-01", ("sidecar_mounted_fire", "sidecar_support_weapons", "single_sidecar_sw_smc"))
    _num(rf, "sidecar_mounted_fire", f"{name}.rider_fire", "ASL-FIRE-01", 0, 1)
    _names(rf, "sidecar_support_weapons", f"{name}.rider_fire", "ASL-FIRE-01")
    _int(rf, "single_sidecar_sw_smc", f"{name}.rider_fire", "ASL-FIRE-01", 0, 16)
    _int(_sub(t, "recovery", name, "ASL-RES-05", ("recovery_max",)), "recovery_max", f"{name}.recovery", "ASL-RES-05", 0, 6)
    b = _sub(t, "bicycle", name, "ASL-BIC-01", ("road_cost_factor", "no_halving_features", "descent_bonus_per_level", "road_bonus"))
    _num(b, "road_cost_factor", f"{name}.bicycle", "ASL-BIC-01", 0, 1, above=True)
    _names(b, "no_halving_features", f"{name}.bicycle", "ASL-BIC-01", HEX_FEATURES)
    _int(b, "descent_bonus_per_level", f"{name}.bicycle", "ASL-BIC-01", 0, 10)
    _int(b, "road_bonus", f"{name}.bicycle", "ASL-BIC-01", 0, 10)


@cache
def motorcycle_settings(rules: Rules) -> MotorcycleSettings:
    """Typed view of `asl.motorcycles` (D15)."""
    t = rules["asl.motorcycles"]
    cap = {}
    for key, machines in _CAP_NAMES.items():
        c = t["capacity"][key]
        cap[machines] = CapacitySpec(machines, None if c["mmc"] == "none" else Size[c["mmc"].upper()], c["smc"], c["smc_sidecar"])
    portage = {(MachineType[mt.upper()], _CAP_NAMES[k]): v for mt, row in t["portage"].items() if isinstance(row, dict)
               for k, v in row.items()}
    r, w, rf, b = t["riding"], t["wreck_check"], t["rider_fire"], t["bicycle"]
    terrain = {k: to_fraction(v, k, "ASL-MOV-02", allow_na=True) for k, v in t["terrain_mp"].items() if k != "rule"}
    vca = to_fraction(r["vca_change_mp"], "vca_change_mp", "ASL-MOV-03")
    vca_terrain = {k: to_fraction(v, k, "ASL-MOV-03") for k, v in t["vca_change_terrain"].items() if k != "rule"}
    return MotorcycleSettings(
        cap, portage, t["portage"]["bicycle_pp_when_carried"], r["basic_mf"], r["mount_mf"],
        to_fraction(r["mount_fraction"], "mount_fraction", "ASL-MOV-02"), to_fraction(r["start_mp"], "start_mp", "ASL-MOV-03"),
        to_fraction(r["stop_mp"], "stop_mp", "ASL-MOV-03"), vca, terrain, w["wreck_on"], frozenset(w["hex_features"]),
        frozenset(w["hexsides"]), frozenset(w["bicycle_exempt_features"]), t["pushing"]["second_smc_helping"],
        to_fraction(t["overrun"]["rider_fp_fraction"], "rider_fp_fraction", "ASL-MOV-04"),
        to_fraction(rf["sidecar_mounted_fire"], "sidecar_mounted_fire", "ASL-FIRE-01"), frozenset(rf["sidecar_support_weapons"]),
        rf["single_sidecar_sw_smc"], t["recovery"]["recovery_max"], to_fraction(b["road_cost_factor"], "road_cost_factor", "ASL-BIC-01"),
        frozenset(b["no_halving_features"]), b["descent_bonus_per_level"], b["road_bonus"], vca_terrain)


# --- Terrain (B) ------------------------------------------------------------------------------

@dataclass(frozen=True)
class TerrainSpec:
    infantry_mf: Fraction | None
    tem: int
    open: bool


@dataclass(frozen=True)
class TerrainTable:
    terrain: Mapping[str, TerrainSpec]
    road_infantry_mf: Fraction
    ffmo: int
    ffnam: int


def _validate_terrain(name: str, t: dict) -> None:
    """B1, B3, A4.6: each terrain (open_ground at least: a hex's default) with its Infantry MF 0..100 or
    NA, TEM within +-12 and whether it is open ground; the road's Infantry MF 0..100; FFMO and FFNAM
    within +-12."""
    _table(t, name, "B1", ("terrain", "road", "fire"))
    terrain = _table(t["terrain"], f"{name}.terrain", "B1", ("open_ground",), more=True)
    for k, v in terrain.items():
        if k == "rule":
            continue
        _name_key(k, f"{name}.terrain", "B1")
        path = f"{name}.terrain.{k}"
        _table(v, path, "B1", ("infantry_mf", "tem", "open"))
        _num(v, "infantry_mf", path, "B1", 0, 100, na=True)
        _int(v, "tem", path, "B1", *DRM_RANGE)
        _bool(v, "open", path, "A4.6")
    _num(_sub(t, "road", name, "B3", ("infantry_mf",)), "infantry_mf", f"{name}.road", "B3", 0, 100)
    f = _sub(t, "fire", name, "A4.6", ("ffmo", "ffnam"))
    _int(f, "ffmo", f"{name}.fire", "A4.6", *DRM_RANGE)
    _int(f, "ffnam", f"{name}.fire", "A4.6", *DRM_RANGE)


@cache
def terrain_table(rules: Rules) -> TerrainTable:
    """Typed view of `asl.terrain`."""
    t = rules["asl.terrain"]
    terrain = {k: TerrainSpec(to_fraction(v["infantry_mf"], k, "B1", allow_na=True), v["tem"], v["open"]) for k, v in t["terrain"].items()}
    return TerrainTable(terrain, to_fraction(t["road"]["infantry_mf"], "road", "B3"), t["fire"]["ffmo"], t["fire"]["ffnam"])


# --- The board: coordinates, directions, neighbours (ASL-MOV-03) ------------------------------

@dataclass(frozen=True)
class BoardSettings:
    """The hex grid of seeds/asl/board.toml: columns, the rows of even- and odd-index columns, the
    names of the six hexsides and hexspines, and the (column, row) step across each hexside."""

    columns: int
    rows_even: tuple[int, int]
    rows_odd: tuple[int, int]
    hexsides: tuple[str, ...]
    hexspines: tuple[str, ...]
    neighbours_even: tuple[tuple[int, int], ...]
    neighbours_odd: tuple[tuple[int, int], ...]


def _validate_board(name: str, t: dict) -> None:
    """ASL-MOV-03: 1..52 columns (A..Z, AA..ZZ), the first and last row of even- and odd-index columns
    (0..99), six distinct names of hexsides and of hexspines (none both), and six distinct steps of -1..1
    columns and rows to the neighbours of an even and of an odd column, which must agree across every
    hexside."""
    rule = "ASL-MOV-03"
    _table(t, name, rule, ("grid", "directions", "neighbours"))
    g = _sub(t, "grid", name, rule, ("columns", "rows_even", "rows_odd"))
    _int(g, "columns", f"{name}.grid", rule, 1, 52)
    for k in ("rows_even", "rows_odd"):
        rows = g[k]
        if (not isinstance(rows, list) or len(rows) != 2 or any(not isinstance(r, int) or isinstance(r, bool) or not 0 <= r <= 99 for r in rows)
                or rows[0] > rows[1]):
            raise DataError("expected [first row, last row], from 0 to 99", field=f"{name}.grid.{k}",
                            value=rows if isinstance(rows, list) else None, rule=rule)
    d = _sub(t, "directions", name, rule, ("hexsides", "hexspines"))
    for k in ("hexsides", "hexspines"):
        names = _names(d, k, f"{name}.directions", rule)
        if len(names) != 6:
            raise DataError("six distinct names, clockwise", field=f"{name}.directions.{k}", value=names, rule=rule)
    if set(d["hexsides"]) & set(d["hexspines"]):
        raise DataError("a name is both a hexside and a hexspine", field=f"{name}.directions", value=sorted(set(d["hexsides"]) & set(d["hexspines"])),
                        rule=rule)
    n = _sub(t, "neighbours", name, rule, ("even", "odd"))
    steps = {}
    for parity in ("even", "odd"):
        row = n[parity]
        if (not isinstance(row, list) or len(row) != 6
                or any(not isinstance(x, list) or len(x) != 2 or any(not isinstance(v, int) or isinstance(v, bool) or not -1 <= v <= 1 for v in x)
                       for x in row)
                or len({tuple(x) for x in row}) != 6 or [0, 0] in row):
            raise DataError("six distinct [column step, row step] pairs of -1, 0 or 1 (not both 0)", field=f"{name}.neighbours.{parity}",
                            value=row if isinstance(row, list) else None, rule=rule)
        steps[parity] = row
    # The hex across hexside k must have us across the opposite hexside (k + 3).
    for parity, row in steps.items():
        for k, (dc, dr) in enumerate(row):
            other = steps["odd" if (dc % 2) != (parity == "odd") else "even"][(k + 3) % 6]
            if other != [-dc, -dr]:
                raise DataError(f"the hex across hexside {d['hexsides'][k]} does not have this one across the opposite hexside",
                                field=f"{name}.neighbours.{parity}", value=row, rule=rule)


@cache
def board_settings(rules: Rules) -> BoardSettings:
    """Typed view of `asl.board` (ASL-MOV-03)."""
    t = rules["asl.board"]
    g, d, n = t["grid"], t["directions"], t["neighbours"]
    return BoardSettings(g["columns"], tuple(g["rows_even"]), tuple(g["rows_odd"]), tuple(d["hexsides"]), tuple(d["hexspines"]),
                         tuple(tuple(x) for x in n["even"]), tuple(tuple(x) for x in n["odd"]))


register_validator("asl.board", _validate_board)
register_validator("asl.ift", _validate_ift)
register_validator("asl.tohit", _validate_tohit)
register_validator("asl.morale", _validate_morale)
register_validator("asl.infantry", _validate_infantry)
register_validator("asl.motorcycles", _validate_motorcycles)
register_validator("asl.terrain", _validate_terrain)
