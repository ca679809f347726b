"""Rules as data and packaging: ARCH-01, ARCH-04, ARCH-05, ERR-01."""
import warnings
from importlib import resources

import pytest

import hardpoint
from hardpoint import DataError, load_rules
from hardpoint.carwars import tohit


def test_arch_01_package_layout_and_package_data():
    """ARCH-01: hardpoint, hardpoint.fastcore and hardpoint.seeds import; seeds ship as package data; no top-level fastcore/pyapi."""
    import hardpoint.fastcore
    import hardpoint.seeds

    assert resources.files("hardpoint.seeds").joinpath("carwars/tohit.toml").is_file()
    assert resources.files("hardpoint.seeds").joinpath("dice_vectors.toml").is_file()
    import subprocess
    import sys
    import tempfile

    # From outside the source tree, the installed project provides `hardpoint` only.
    code = "import importlib.util as u; print([u.find_spec(n) is None for n in ('pyapi', 'fastcore', 'seeds')])"
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, "-c", code], cwd=tmp, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[True, True, True]"
    assert hardpoint.fastcore.__name__ == "hardpoint.fastcore"


def test_arch_05_every_table_loads_and_validates():
    """ARCH-05: the shipped tables load once and validate."""
    rules = hardpoint.default_rules()
    for name in ("carwars.tohit", "carwars.bodies", "carwars.tires", "carwars.designs", "carwars.weapons", "carwars.hand_weapons"):
        assert name in rules
    assert hardpoint.default_rules() is rules


def test_arch_05_override_from_a_file_changes_the_rule(tmp_path):
    """ARCH-05: a user's TOML file overrides a table without code changes (house rule: point blank +3)."""
    f = tmp_path / "house.toml"
    f.write_text("[carwars.tohit.range]\npoint_blank = 3\n")
    house = load_rules(overrides=f)
    assert sum(m.value for m in tohit.range_modifiers(house, 0.5)) == 3
    assert sum(m.value for m in tohit.range_modifiers(load_rules(), 0.5)) == 4


def test_arch_05_override_merges_weapons_by_name():
    """ARCH-05: overriding one weapon keeps the other 95; a new name adds a weapon."""
    house = load_rules({"carwars": {"weapons": {"weapon": [{"name": "Machine Gun", "to_hit": 6, "dp": 3},
                                                          {"name": "Death Ray", "to_hit": 4, "dp": 9, "damage": "9d"}]}}})
    from hardpoint.carwars.tables import weapon_spec

    assert weapon_spec(house, "Machine Gun").to_hit == 6 and str(weapon_spec(house, "MG").damage) == "1d"
    assert weapon_spec(house, "Death Ray").damage.count == 9
    assert len(house["carwars.weapons"]["weapon"]) == 97


@pytest.mark.parametrize("override,field", [
    ({"carwars": {"tohit": {"range": {"point_blank": "four"}}}}, "carwars.tohit.range.point_blank"),
    ({"carwars": {"tohit": {"speed_bands": {"bands": [[40, -2], [30, -1]]}}}}, "carwars.tohit.speed_bands.bands[1]"),
    ({"carwars": {"weapons": {"weapon": [{"name": "Machine Gun", "damage": "one die"}]}}}, "carwars.weapons.weapon[1].damage"),
    ({"carwars": {"nonsense": {}}}, "table"),
    ({"carwars": {"bodies": {"arcs": {"angle": 95}}}}, "carwars.bodies.arcs.angle"),
    ({"carwars": {"hand_weapons": {"grenade_box_holds": "Banana"}}}, "carwars.hand_weapons.grenade_box_holds"),
    ({"carwars": {"hand_weapons": {"grenade_box_holds": 7}}}, "carwars.hand_weapons.grenade_box_holds"),
])
def test_arch_05_bad_override_names_the_field(override, field):
    """ARCH-05 / ERR-01: an invalid override is refused, naming the table path; the defaults stay as they were."""
    before = hardpoint.default_rules()["carwars.tohit"]["range"]["point_blank"]
    with pytest.raises(DataError) as err:
        load_rules(override)
    assert err.value.field == field
    assert hardpoint.default_rules()["carwars.tohit"]["range"]["point_blank"] == before


def test_arch_05_bad_override_file(tmp_path):
    """ARCH-05: a missing or malformed override file is a DataError naming the file."""
    with pytest.raises(DataError, match="not found"):
        load_rules(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[carwars.tohit\n")
    with pytest.raises(DataError, match="not valid TOML"):
        load_rules(bad)


def test_arch_04_backend_switch_and_single_warning(monkeypatch):
    """ARCH-04: HARDPOINT_BACKEND=reference forces the reference; a missing kernel warns once, never silently."""
    from hardpoint import backend

    monkeypatch.setenv("HARDPOINT_BACKEND", "reference")
    assert backend.compiled_module("_dice") is None
    monkeypatch.setenv("HARDPOINT_BACKEND", "auto")
    backend._load.cache_clear()
    backend._warned.discard("_no_such_kernel")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert backend.compiled_module("_no_such_kernel") is None
        assert backend.compiled_module("_no_such_kernel") is None
    assert len([w for w in caught if issubclass(w.category, backend.BackendWarning)]) == 1
    monkeypatch.setenv("HARDPOINT_BACKEND", "compiled")
    backend._load.cache_clear()
    with pytest.raises(ImportError):
        backend.compiled_module("_no_such_kernel_either")
    monkeypatch.setenv("HARDPOINT_BACKEND", "sometimes")
    with pytest.raises(DataError, match="HARDPOINT_BACKEND"):
        backend.compiled_module("_dice")


def test_err_01_errors_are_value_errors_with_field_value_rule():
    """ERR-01: every error is a HardpointError and a ValueError with field, value and rule."""
    with pytest.raises(ValueError) as err:
        hardpoint.parse_dice("2d8")
    assert isinstance(err.value, hardpoint.HardpointError)
    assert (err.value.field, err.value.value, err.value.rule) == ("dice", "2d8", "DICE-01")


def test_safe_01_an_override_file_meets_the_limits_at_the_door(tmp_path):
    """SAFE-01 / ARCH-05: TOML reads `nan` and `inf`; an override file holding one is refused naming the table
    path, as a scenario is; so is a control character in a name."""
    f = tmp_path / "house.toml"
    f.write_text("[carwars.tohit.range]\npoint_blank = nan\n")
    with pytest.raises(DataError) as err:
        load_rules(f)
    assert (err.value.field, err.value.rule) == ("carwars.tohit.range.point_blank", "SAFE-01")
    with pytest.raises(DataError) as err:
        load_rules({"carwars": {"weapons": {"weapon": [{"name": "Gun\x1b[31m", "to_hit": 7, "dp": 3, "damage": "1d"}]}}})
    assert err.value.rule == "SAFE-01"


def test_arch_05_tables_are_checked_together_after_an_override():
    """ARCH-05: an override that is valid on its own table but breaks another (a stock design's weapon renamed
    away) is refused naming the table that no longer holds, and nothing changes."""
    with pytest.raises(DataError) as err:
        load_rules({"carwars": {"bodies": {"body": {"luxury": {"kind": "cycle", "size": "cycle", "footprint": [0.25, 0.5],
                                                                "wheels": ["front", "back"]}}}}})
    assert err.value.field.startswith("carwars.designs.design.shogun") and isinstance(err.value, ValueError)
    assert hardpoint.default_rules()["carwars.bodies"]["body"]["luxury"]["kind"] == "car"
