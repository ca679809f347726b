"""Run the profile-guided build's training set through a build of the Car Wars kernels (setup.py).

    python fastcore/pgo_train.py PATH/TO/_carwars.so fastcore/pgo

Needs NumPy only (the build environment has nothing else): the set is the packed arrays that
`python -m hardpoint.carwars.pgo` wrote. Exits 0 when every call returned 0, else 1 naming the entry (a kernel
that refused the set learnt nothing from it, and the build then compiles without the profile).
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np


def _load(path: str):
    loader = importlib.machinery.ExtensionFileLoader("pgo_training._carwars", path)
    spec = importlib.util.spec_from_file_location("pgo_training._carwars", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _phase(k, e: dict, a: dict) -> list[int]:
    """run_phase in arrays mode and in counted mode, each with and without the end of the turn."""
    n, S, V, A = e["trials"], e["S"], e["V"], e["A"]
    codes = []
    for end in (0, 1):
        state, hit = np.zeros((n, S), np.int32), np.zeros((n, A), np.uint8)
        damage, flags = np.zeros((n, A), np.int32), np.zeros((n, max(V, 1)), np.uint8)
        codes.append(k.run_phase(1, 0, a, end, state, hit, damage, flags, n_phases=e["phases"]))
        scratch = (np.zeros((1, S), np.int32), np.zeros((1, A), np.uint8), np.zeros((1, A), np.int32),
                   np.zeros((1, max(V, 1)), np.uint8))
        acc = np.zeros(e["acc"], np.int64)
        codes.append(k.run_phase(1, n, a, end, *scratch, n, 0, np.asarray(e["kinds"], np.int32), acc, e["phases"]))
    return codes


def _fight(k, e: dict, a: dict) -> list[int]:
    """run_fight on fresh trials, each to its end."""
    n, S, V, A, U, W = e["trials"], e["S"], e["V"], e["A"], e["units"], e["weapons"]
    return [k.run_fight(1, 0, a, np.zeros((n, S), np.int32), np.zeros((n, max(V, 1)), np.uint8), np.zeros((n, U), np.int16),
                        np.zeros(n, np.int16), np.zeros(n, np.int16), np.zeros((n, W), np.int32), np.zeros((n, W), np.int32),
                        np.zeros((n, W), np.int32), np.zeros(n, np.int16), np.zeros((n, e["saved"]), np.int32),
                        np.zeros(n, np.uint64), np.zeros(0, np.int16), np.zeros(0, np.uint64), np.zeros((n, A), np.uint8),
                        np.zeros((n, A), np.int32), np.zeros(n, np.int32))]


def train(module_path: str, folder: str) -> list[str]:
    """Run every entry; the entries whose calls did not all return 0."""
    k = _load(module_path)
    root = Path(folder)
    failed = []
    for e in json.loads((root / "manifest.json").read_text())["entries"]:
        with np.load(root / f"{e['name']}.npz") as z:
            a = {name: np.ascontiguousarray(z[name]) for name in z.files}
        codes = (_phase if e["kernel"] == "phase" else _fight)(k, e, a)
        if any(c != 0 for c in codes):
            failed.append(f"{e['name']} ({e['kernel']}): {codes}")
    return failed


if __name__ == "__main__":
    problems = train(sys.argv[1], sys.argv[2])
    for p in problems:
        print(f"pgo_train: the kernel refused {p}", file=sys.stderr)
    raise SystemExit(1 if problems else 0)
