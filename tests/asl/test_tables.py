"""The ASL tables in seeds/asl: transcription, validation and overrides (ARCH-05, A7, C3)."""
import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hardpoint
from hardpoint import DataError
from hardpoint.asl.enums import Effect, FireKind, FirerRow, TargetType
from hardpoint.asl.ift import cowering_shift, ift_column, ift_distribution, ift_outcome, shift_column
from hardpoint.asl.tables import IFTResult, ift_table, parse_ift_result, tohit_table
from hardpoint.asl.tohit import hit_probability, to_hit_number

# The reference table (asl_tables.md), row by row: Final DR <=0, 1, ..., >=15.
REFERENCE_ROWS = {
    0: "1KIA 2KIA 2KIA 3KIA 3KIA 3KIA 4KIA 4KIA 5KIA 6KIA 7KIA",
    1: "K/1 1KIA 1KIA 2KIA 2KIA 2KIA 3KIA 3KIA 4KIA 5KIA 6KIA",
    2: "1MC K/1 K/2 1KIA 1KIA 1KIA 2KIA 2KIA 3KIA 4KIA 5KIA",
    3: "1MC 1MC 2MC K/2 K/2 K/3 1KIA 1KIA 2KIA 3KIA 4KIA",
    4: "NMC 1MC 1MC 2MC 2MC 3MC K/3 K/4 1KIA 2KIA 3KIA",
    5: "PTC NMC 1MC 1MC 2MC 2MC 3MC 4MC K/4 1KIA 2KIA",
    6: "- PTC NMC 1MC 1MC 2MC 2MC 3MC 4MC K/4 1KIA",
    7: "- - PTC NMC 1MC 1MC 2MC 2MC 3MC 4MC K/4",
    8: "- - - PTC NMC 1MC 1MC 2MC 2MC 3MC 4MC",
    9: "- - - - PTC NMC 1MC 1MC 2MC 2MC 3MC",
    10: "- - - - - PTC NMC 1MC 1MC 2MC 2MC",
    11: "- - - - - - PTC NMC 1MC 1MC 2MC",
    12: "- - - - - - - PTC NMC 1MC 1MC",
    13: "- - - - - - - - PTC NMC 1MC",
    14: "- - - - - - - - - PTC NMC",
    15: "- - - - - - - - - - PTC",
}
COLUMNS = [1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36]


@pytest.mark.parametrize("dr", sorted(REFERENCE_ROWS))
def test_ift_transcribed_row_by_row(rules, dr):
    """A7: every cell of seeds/asl/ift.toml equals the published IFT (read by rows)."""
    t = ift_table(rules)
    assert [t.result(c, dr).text for c in COLUMNS] == REFERENCE_ROWS[dr].split()


def test_ift_rows_clamp_at_both_ends(rules):
    """A7: the first row is "0 or less", the last "15 or more"."""
    t = ift_table(rules)
    assert t.result(36, -5).text == "7KIA" and t.result(36, 40).text == "PTC"
    assert t.result(1, 9).text == "-"


def test_asl_tgt_02_cross_check_12fp_dr3_is_k3(rules):
    """ASL-TGT-02: the seed example's cross-check: the 12 FP column, Final DR 3 -> K/3."""
    assert ift_table(rules).result(12, 3) == IFTResult(Effect.K, 3)


@pytest.mark.parametrize("text,effect,n", [("-", Effect.NONE, 0), ("PTC", Effect.PTC, 0), ("NMC", Effect.MC, 0),
                                           ("3MC", Effect.MC, 3), ("K/2", Effect.K, 2), ("4KIA", Effect.KIA, 4)])
def test_ift_result_codes_parse(text, effect, n):
    """A7: result codes: -, PTC, NMC, nMC, K/n, nKIA."""
    r = parse_ift_result(text)
    assert (r.effect, r.n, r.text) == (effect, n, text)


@pytest.mark.parametrize("bad", ["KIA", "K/", "0MC", "2 MC", "", 3])
def test_ift_result_codes_reject_anything_else(bad):
    with pytest.raises(DataError):
        parse_ift_result(bad)


@pytest.mark.parametrize("fp,column", [(Fraction(1, 2), None), (1, 1), (Fraction(3, 2), 1), (3, 2), (5, 4), (7, 6), (11, 8),
                                       (12, 12), (Fraction(47, 4), 8), (15, 12), (35, 30), (36, 36), (100, 36)])
def test_ift_column_uses_next_lower(rules, fp, column):
    """A7: FP between two columns uses the next lower column; FP below the first has none."""
    assert ift_column(ift_table(rules), Fraction(fp)) == column


def test_cowering_shifts_left_on_doubles_only(rules):
    """A7.9: on doubles the attack shifts one column left; not on other DR."""
    t = ift_table(rules)
    shift = cowering_shift(t, FireKind.SMALL_ARMS, all_smc=False, leader_directed=False, inexperienced=False)
    assert shift == 1
    assert ift_outcome(t, 12, shift, (2, 2), 0)[0] == 8
    assert ift_outcome(t, 12, shift, (1, 3), 0)[0] == 12
    assert ift_outcome(t, 12, shift, (2, 2), 0)[2].text == "2MC"   # 8 FP column, DR 4
    assert ift_outcome(t, 12, 0, (2, 2), 0)[2].text == "3MC"


def test_cowering_inexperienced_two_columns_and_off_the_edge(rules):
    """A7.9: Inexperienced units shift two columns; off the left edge the attack has no effect."""
    t = ift_table(rules)
    assert cowering_shift(t, FireKind.SMALL_ARMS, False, False, True) == 2
    assert shift_column(t, 12, 2) == 6
    assert shift_column(t, 1, 1) is None
    used, _, res = ift_outcome(t, 1, 1, (1, 1), -5)
    assert used is None and res.effect is Effect.NONE


@pytest.mark.parametrize("kind,smc,led", [(FireKind.ORDNANCE, False, False), (FireKind.OVERRUN, False, False),
                                          (FireKind.SMALL_ARMS, True, False), (FireKind.SMALL_ARMS, False, True)])
def test_cowering_exemptions(rules, kind, smc, led):
    """A7.9: ordnance, vehicles (overrun), SMC-only groups and leader-directed fire never cower (documented setting)."""
    assert cowering_shift(ift_table(rules), kind, smc, led, True) == 0


def test_cowering_can_be_switched_off(rules):
    """A7.9 as a setting: a house rule without cowering."""
    r = rules.with_overrides({"asl": {"ift": {"cowering": {"enabled": False}}}})
    assert cowering_shift(ift_table(r), FireKind.SMALL_ARMS, False, False, False) == 0


@given(st.sampled_from(COLUMNS), st.integers(0, 2), st.integers(-6, 6))
def test_ift_distribution_sums_to_one_and_matches_enumeration(column, shift, drm):
    """A7: the exact result distribution sums to 1 and equals brute-force enumeration of the 36 DR."""
    t = ift_table(hardpoint.default_rules())
    dist = ift_distribution(t, column, shift, drm)
    assert sum(dist.values()) == 1
    brute: dict[str, Fraction] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        res = ift_outcome(t, column, shift, (a, b), drm)[2].text
        brute[res] = brute.get(res, Fraction(0)) + Fraction(1, 36)
    assert dist == brute


@pytest.mark.parametrize("ttype,row,rng,th", [
    (TargetType.INFANTRY, FirerRow.OTHER, 6, 8), (TargetType.INFANTRY, FirerRow.OTHER, 0, 8),
    (TargetType.INFANTRY, FirerRow.OTHER, 7, 6), (TargetType.INFANTRY, FirerRow.GERMAN, 7, 7),
    (TargetType.INFANTRY, FirerRow.GERMAN, 54, 0), (TargetType.INFANTRY, FirerRow.OTHER, 55, -2),
    (TargetType.VEHICLE, FirerRow.GERMAN, 12, 9), (TargetType.VEHICLE, FirerRow.OTHER, 30, 5),
    (TargetType.VEHICLE, FirerRow.OTHER, 100, 0), (TargetType.AREA, FirerRow.GERMAN, 13, 8), (TargetType.AREA, FirerRow.OTHER, 60, 5),
])
def test_to_hit_table_c3(rules, ttype, row, rng, th):
    """C3: basic To Hit numbers by target type, firer and range band (vehicle and area rows as data)."""
    assert to_hit_number(rules, ttype, row, rng) == th


def test_asl_tgt_02_cross_check_infantry_0_6_is_8(rules):
    """ASL-TGT-02: the seed example's cross-check: Infantry target, 0-6 hexes, TH# 8."""
    assert to_hit_number(rules, TargetType.INFANTRY, FirerRow.OTHER, 6) == 8
    assert hit_probability(8) == Fraction(26, 36) and hit_probability(7) == Fraction(21, 36)


def test_d15_drm_values_are_data(rules):
    """ASL-TGT-01: Case J +2 and the mounted-rider -1 live in seeds/asl/tohit.toml."""
    t = tohit_table(rules)
    assert (t.case_j, t.mounted_motorcyclist, t.mounted_bicyclist) == (2, -1, -1)


@pytest.mark.parametrize("override,field", [
    ({"ift": {"column": {"12": ["-"] * 3}}}, "asl.ift.column.12"),
    ({"ift": {"column": {"12": ["3KIA"] * 15 + ["X"]}}}, "asl.ift.column.12[15]"),
    ({"ift": {"cowering": {"exempt": ["snipers"]}}}, "asl.ift.cowering.exempt"),
    ({"tohit": {"basic": {"infantry": {"other": [8, 6]}}}}, "asl.tohit.basic.infantry.other"),
    ({"morale": {"random_selection": {"ties": "coin"}}}, "asl.morale.random_selection.ties"),
    ({"motorcycles": {"riding": {"mount_fraction": "5/4"}}}, "asl.motorcycles.riding.mount_fraction"),
    ({"motorcycles": {"terrain_mp": {"woods": "lots"}}}, "asl.motorcycles.terrain_mp.woods"),
    ({"motorcycles": {"capacity": {"single": {"smc": -1}}}}, "asl.motorcycles.capacity.single.smc"),
])
def test_bad_overrides_name_the_field(rules, override, field):
    """ARCH-05: a bad house rule fails validation naming the table field."""
    with pytest.raises(DataError) as err:
        rules.with_overrides({"asl": override})
    assert err.value.field == field


def test_overrides_change_the_numbers(rules):
    """ARCH-05: a user table changes the rules without code: a road costing 1 MP, a 4-MF rider... """
    r = rules.with_overrides({"asl": {"motorcycles": {"terrain_mp": {"road": 1, "woods": "NA", "grain": "3/2"}}}})
    from hardpoint.asl.tables import motorcycle_settings
    s = motorcycle_settings(r)
    assert s.terrain_mp["road"] == 1 and s.terrain_mp["woods"] is None and s.terrain_mp["grain"] == Fraction(3, 2)
