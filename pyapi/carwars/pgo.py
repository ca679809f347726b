"""The training set of the profile-guided build of the Car Wars kernels (setup.py; docs/performance.md).

setup.py compiles fastcore/_carwars.pyx once with GCC's `-fprofile-generate`, runs the kernels on this set
(`fastcore/pgo_train.py`, which needs NumPy only, since the build environment has nothing else), and compiles
it again with the profile. The set is the built-in Car Wars scenarios as the packer hands them to the kernels:
the one-turn ones in `run_phase` (counted and arrays mode, with and without the end of the turn) and the fights
in `run_fight` (the 10-turn fight of the default scenario's units, which the benchmarks time, and every built-in
fight). It is data written here, from the packer:

    python -m hardpoint.carwars.pgo            # rewrites fastcore/pgo/

`tests/test_pgo.py` fails when the files no longer equal what the packer gives (a change to the packer or to
fastcore/layout.toml), and runs the set through the kernel (every call must succeed, or the build's profile
would teach it nothing).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

__all__ = ["default_fight", "training_set", "write"]

# the built-in scenarios of the set: the one-turn ones run_phase takes, then the fights
_PHASE = ("default", "cw_tohit_example", "cw_trike_top_example", "cw_brick_wall_example", "cw_area_effect_example")
_FIGHTS = ("cw_chase", "cw_duel", "cw_gang_fight", "cw_fire_example")


def default_fight(turns: int = 10):
    """The default scenario's units in a fight of `turns` turns (issue 14's benchmark fight): the planned attacks
    give way to a standing order for every unit to fire every turn at the enemy it has the best odds against, until
    decided (every unit is its own side)."""
    import tomllib
    from importlib import resources

    import hardpoint

    doc = tomllib.loads((resources.files("hardpoint.seeds") / "scenarios" / "default.toml").read_text())
    doc.pop("attack")
    doc["scenario"].update(turns=turns, until="decided", name=f"default fight, {turns} turns")
    units = [v["id"] for v in doc["vehicle"]] + [p["id"] for p in doc.get("pedestrian", [])]
    doc["orders"] = [{"id": f"{u}_fires", "unit": u, "target": "best_odds"} for u in units]
    return hardpoint.parse_scenario(doc)


def training_set() -> list[tuple[dict, dict[str, np.ndarray]]]:
    """(what to run, the packed arrays) for every entry of the set, in order."""
    import hardpoint
    from .batch import _SLOT_KIND, DMG_BINS, Packed, pack, saved_width

    out = []
    scenarios = [(name, hardpoint.load_scenario(f"builtin:{name}")) for name in _PHASE + _FIGHTS]
    scenarios.append(("default_fight_10", default_fight(10)))
    for name, s in scenarios:
        p = pack(s)
        if not isinstance(p, Packed):
            raise RuntimeError(f"the kernel does not run builtin:{name}: {p.reason}")
        a = p.arrays
        entry = {"name": name, "S": int(a["init"].shape[0]), "V": len(p.vehicles), "A": len(p.attacks)}
        if p.layout is None:
            A, S, V = entry["A"], entry["S"], entry["V"]
            entry.update(kernel="phase", phases=int(p.phases), trials=60_000, kinds=[_SLOT_KIND[k] for k in p.kinds],
                         acc=3 * A + S + 4 * V + DMG_BINS * A)      # counted mode's counts, as batch._run_compiled's
        else:
            entry.update(kernel="fight", trials=20_000, units=len(p.layout.units), weapons=len(p.layout.weapons),
                         saved=saved_width(p))
        out.append((entry, {k: np.ascontiguousarray(v) for k, v in a.items()}))
    return out


def write(folder: Path) -> None:
    """Write the set to `folder`: manifest.json (what to run) and one .npz of arrays an entry."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for entry, arrays in training_set():
        np.savez_compressed(folder / f"{entry['name']}.npz", **arrays)
        entries.append(entry)
    (folder / "manifest.json").write_text(json.dumps({"entries": entries}, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "fastcore/pgo")
    write(folder)
    print(f"wrote {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
