"""The Car Wars kernels' data layout is declared once (fastcore/layout.toml) and generated into the Cython
declarations and the Python packer's constants (ARCH-03, issue 14): these tests fail when the generated files are
stale, when the codes drift from the rule set's enums, or when a row is built without naming every column."""
from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

from hardpoint.carwars import _layout, kernel_layout
from hardpoint.carwars.enums import Location, Side

ROOT = Path(__file__).resolve().parents[1]


def test_arch_03_generated_layout_files_are_up_to_date():
    """ARCH-03: fastcore/_layout.pxi and pyapi/carwars/_layout.py are what `python -m hardpoint.carwars.kernel_layout`
    renders from fastcore/layout.toml now; regenerate them after changing the layout."""
    for path, text in kernel_layout.outputs(ROOT).items():
        assert path.read_text(encoding="utf-8") == text, f"{path.relative_to(ROOT)} is stale: run python -m hardpoint.carwars.kernel_layout"


def test_arch_03_the_generator_writes_both_files(tmp_path):
    """ARCH-03: the generator's command writes the two files under the root it is given (and says when there is no
    layout there, or it is malformed, writing nothing)."""
    (tmp_path / "fastcore").mkdir()
    (tmp_path / "pyapi" / "carwars").mkdir(parents=True)
    shutil.copy(ROOT / "fastcore" / "layout.toml", tmp_path / "fastcore" / "layout.toml")
    assert kernel_layout.main([str(tmp_path)]) == 0
    assert (tmp_path / "fastcore" / "_layout.pxi").read_text() == (ROOT / "fastcore" / "_layout.pxi").read_text()
    assert (tmp_path / "pyapi" / "carwars" / "_layout.py").read_text() == (ROOT / "pyapi" / "carwars" / "_layout.py").read_text()
    assert kernel_layout.main([str(tmp_path / "nowhere")]) == 2
    (tmp_path / "fastcore" / "layout.toml").write_text("[enums.side\n")        # malformed: nothing written
    (tmp_path / "fastcore" / "_layout.pxi").unlink()
    assert kernel_layout.main([str(tmp_path)]) == 2 and not (tmp_path / "fastcore" / "_layout.pxi").exists()


def test_arch_03_layout_codes_are_the_rule_sets_enums():
    """ARCH-03: the sides and locations the kernel reads are the codes of hardpoint.carwars.enums; every row kind's
    column names are unique."""
    for side in Side:
        assert getattr(_layout, side.name) == int(side)
    for loc in Location:
        assert getattr(_layout, f"LOC_{loc.name}") == int(loc)
    layout = tomllib.loads((ROOT / "fastcore" / "layout.toml").read_text(encoding="utf-8"))
    for name, spec in layout["rows"].items():
        assert len(set(spec["columns"])) == len(spec["columns"]), name
        assert getattr(_layout, f"{name.upper()}_COLUMNS") == tuple(c.lower() for c in spec["columns"])


def test_arch_03_rows_are_built_by_name():
    """ARCH-03: the packer builds every kernel row by its column names; a column left out or unknown is an error,
    not a row shifted by one."""
    from hardpoint.carwars.batch import kernel_row

    cols = _layout.FIR_COLUMNS
    assert kernel_row(cols, character=4, cand_lo=7, cand_hi=9) == [4, 7, 9]
    with pytest.raises(AssertionError, match="missing"):
        kernel_row(cols, character=4, cand_lo=7)
    with pytest.raises(AssertionError, match="unknown"):
        kernel_row(cols, character=4, cand_lo=7, cand_hi=9, extra=1)


def test_arch_03_the_kernel_refuses_rows_of_another_width():
    """ARCH-03, SAFE-01: the kernel takes one mapping of arrays and checks each row kind's width against the
    generated layout: an attack row one column short runs nothing (-1)."""
    fast = pytest.importorskip("hardpoint.fastcore._carwars")
    import hardpoint
    from hardpoint.carwars.batch import pack

    packed = pack(hardpoint.load_scenario("builtin:cw_tohit_example"))
    arrays = dict(packed.arrays)
    A, S, V = arrays["atk"].shape[0], arrays["init"].shape[0], arrays["v_armour"].shape[0]
    out = (np.zeros((2, S), np.int32), np.zeros((2, A), np.uint8), np.zeros((2, A), np.int32), np.zeros((2, V), np.uint8))
    assert fast.run_phase(1, 0, arrays, 0, *out) == 0
    arrays["atk"] = np.ascontiguousarray(arrays["atk"][:, :-1])
    assert fast.run_phase(1, 0, arrays, 0, *out) == -1
    arrays = dict(packed.arrays, consts=packed.arrays["consts"][:-1].copy())
    assert fast.run_phase(1, 0, arrays, 0, *out) == -1
