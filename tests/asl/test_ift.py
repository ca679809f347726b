"""The Infantry Fire Table's column shifts (A7.9), hand-worked."""
from hardpoint.asl.ift import shift_column
from hardpoint.asl.tables import ift_table


def test_a7_9_a_shift_left_reaches_the_first_column_and_no_farther(rules):
    """A7.9: the IFT columns are 1, 2, 4, 6, 8, 12, ...: one column left of 2 is 1 (the first column); one left of 1
    is off the table (no column, no effect); two left of 6 is 2. Source: the project's IFT (seeds/asl/ift.toml)."""
    t = ift_table(rules)
    assert t.columns[:5] == (1, 2, 4, 6, 8)
    assert shift_column(t, 2, 1) == 1
    assert shift_column(t, 1, 1) is None
    assert shift_column(t, 6, 2) == 2
    assert shift_column(t, None, 1) is None
