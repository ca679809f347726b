"""The Infantry Fire Table (A7): FP column, cowering, per-unit DRM, results and their exact odds.

One IFT DR serves every unit an attack hits in the Location (ASL-TGT-02);
each unit's own DRM (TEM, FFMO/FFNAM, the mounted-rider DRM) makes its Final DR.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

from ..data import Rules
from ..events import Modifier
from .enums import Effect, FireKind, MachineType, Moving, Phase
from .tables import IFTResult, IFTTable, terrain_table, tohit_table
from .units import Board, Infantry, Situation

__all__ = ["ift_column", "shift_column", "cowering_shift", "ift_outcome", "target_ift_drm", "ift_distribution"]


def ift_column(table: IFTTable, fp: Fraction) -> int | None:
    """A7: the FP column of an attack: FP between two columns uses the next lower one; FP below
    the first column has no column (no effect)."""
    best = None
    for c in table.columns:
        if c <= fp:
            best = c
    return best


def shift_column(table: IFTTable, column: int | None, shift: int) -> int | None:
    """Move `shift` columns left (A7.9); off the left edge there is no column (no effect)."""
    if column is None:
        return None
    i = table.columns.index(column) - shift
    return table.columns[i] if i >= 0 else None


def cowering_shift(table: IFTTable, kind: FireKind, all_smc: bool, leader_directed: bool, inexperienced: bool) -> int:
    """A7.9: on doubles the attack shifts left one column (two if Inexperienced), unless the fire is
    exempt: ordnance, vehicles (overrun), a group of SMC only, leader-directed fire (settings)."""
    if not table.cowering_enabled:
        return 0
    classes = set()
    if kind is FireKind.ORDNANCE:
        classes.add("ordnance")
    if kind is FireKind.OVERRUN:
        classes.add("vehicle")
    if all_smc:
        classes.add("smc")
    if leader_directed:
        classes.add("leader_directed")
    if classes & table.cowering_exempt:
        return 0
    return table.inexperienced_columns if inexperienced else table.cowering_columns


def ift_outcome(table: IFTTable, column: int | None, shift: int, faces: tuple[int, int], drm: int) -> tuple[int | None, int, IFTResult]:
    """The column used (after cowering on doubles), the Final DR and the result (A7, A7.9)."""
    used = shift_column(table, column, shift) if faces[0] == faces[1] and shift else column
    final = faces[0] + faces[1] + drm
    if used is None:
        return None, final, IFTResult(Effect.NONE)
    return used, final, table.result(used, final)


def target_ift_drm(rules: Rules, board: Board, situation: Situation, unit: Infantry, kind: FireKind, phase: Phase,
                   extra: tuple[Modifier, ...] = ()) -> tuple[Modifier, ...]:
    """The IFT DRM of one unit hit by the attack:
    - the hex's TEM (B1);
    - ASL-TGT-01 (D15.5): -1 vs a mounted motorcyclist for non-ordnance fire; no FFMO/FFNAM while
      riding; mounting or dismounting Personnel always suffer FFNAM, a dismounting rider FFMO in the open;
    - ASL-BIC-02 (D15.85): a mounted bicyclist -1 (non-ordnance), and FFMO/FFNAM as any Infantry;
    - A4.6: FFMO/FFNAM only in Defensive First Fire (MPh) vs moving units;
    - the declaration's own DRM (`extra`)."""
    mods: list[Modifier] = []
    hx = board.hex(unit.hex)
    tem = board.tem(rules, hx)
    if tem:
        mods.append(Modifier(f"TEM of {hx.terrain}", tem, "B1"))
    machine = situation.mount_of(unit.id)
    th = tohit_table(rules)
    tt = terrain_table(rules)
    first_fire = phase is Phase.MPH
    is_open = board.is_open(rules, hx)
    if machine is not None and machine.type is not MachineType.BICYCLE:
        if kind is not FireKind.ORDNANCE:
            mods.append(Modifier("mounted motorcyclist", th.mounted_motorcyclist, "ASL-TGT-01"))
    elif machine is not None:
        if kind is not FireKind.ORDNANCE:
            mods.append(Modifier("mounted bicyclist", th.mounted_bicyclist, "ASL-BIC-02"))
        if first_fire and unit.moving is not Moving.NONE:
            mods.append(Modifier("FFNAM", tt.ffnam, "A4.6"))
            if is_open:
                mods.append(Modifier("FFMO", tt.ffmo, "A4.6"))
    elif first_fire and unit.moving in (Moving.MOUNTING, Moving.DISMOUNTING):
        mods.append(Modifier("FFNAM (mounting/dismounting Personnel)", tt.ffnam, "ASL-TGT-01"))
        if unit.moving is Moving.DISMOUNTING and is_open:
            mods.append(Modifier("FFMO (dismounting motorcyclist)", tt.ffmo, "ASL-TGT-01"))
    elif first_fire and unit.moving is Moving.ON_FOOT:
        mods.append(Modifier("FFNAM", tt.ffnam, "A4.6"))
        if is_open:
            mods.append(Modifier("FFMO", tt.ffmo, "A4.6"))
    elif first_fire and unit.moving is Moving.ASSAULT and is_open:
        mods.append(Modifier("FFMO", tt.ffmo, "A4.6"))
    mods.extend(extra)
    return tuple(mods)


def ift_distribution(table: IFTTable, column: int | None, shift: int, drm: int) -> dict[str, Fraction]:
    """Exact probability of each IFT result for one unit (all 36 DR, doubles cowering) (A7, A7.9)."""
    out: dict[str, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=2):
        _, _, res = ift_outcome(table, column, shift, faces, drm)
        out[res.text] = out.get(res.text, Fraction(0)) + Fraction(1, 36)
    order = {"-": 99, "PTC": 50, "NMC": 40}

    def key(k: str) -> tuple[int, str]:
        if k.endswith("KIA"):
            return (-int(k[:-3]) - 10, k)
        if k.startswith("K/"):
            return (-int(k[2:]), k)
        if k.endswith("MC") and k != "NMC":
            return (40 - int(k[:-2]), k)
        return (order.get(k, 0), k)

    return dict(sorted(out.items(), key=lambda kv: key(kv[0])))

