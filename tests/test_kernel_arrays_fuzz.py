"""ARCH-04 / SAFE-01 (issue 14): the Car Wars kernels handed packed arrays broken one value at a time never crash
nor hang. Each run returns 0 (the value was one they can run) or -1 (refused before any trial).

The kernels are called in a child process, so that a crash fails this test rather than the test run; the child
names each case before running it, so a crash names the array, the place and the value. Every array of the
default scenario's one-turn packing and of `builtin:cw_chase`'s fight packing (links, drops, mines, smoke, a weapon
on automatic) is broken at each column (rows) or at its first, middle and last entry, to each of six values: the
extremes of int32, -1, 0, its length and a million.
"""
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("hardpoint.fastcore._carwars")

CHILD = textwrap.dedent('''
    import sys
    import numpy as np
    import hardpoint
    from hardpoint.carwars.batch import _fight_arrays, pack, saved_width
    from hardpoint.fastcore import _carwars as fast

    def phase_run(p):
        S, V, A = p.arrays["init"].shape[0], len(p.vehicles), len(p.attacks)

        def run(arrays):
            return fast.run_phase(1, 0, arrays, 1, np.zeros((2, S), np.int32), np.zeros((2, A), np.uint8),
                                  np.zeros((2, A), np.int32), np.zeros((2, V), np.uint8), n_phases=p.phases)
        return run

    def fight_run(p):
        S, V, A, n = p.arrays["init"].shape[0], len(p.vehicles), len(p.attacks), 2

        def run(arrays):
            f = _fight_arrays(n, p.layout)
            return fast.run_fight(1, 0, arrays, np.zeros((n, S), np.int32), np.zeros((n, V), np.uint8), f["out_turn"],
                                  f["result"], f["turns"], f["shots"], f["hits"], f["damage"], np.zeros(n, np.int16),
                                  np.zeros((n, saved_width(p)), np.int32), np.zeros(n, np.uint64), np.zeros(0, np.int16),
                                  np.zeros(0, np.uint64), np.zeros((n, A), np.uint8), np.zeros((n, A), np.int32),
                                  np.zeros(n, np.int32))
        return run

    cases = bad = 0
    for name, make in (("default", phase_run), ("cw_chase", fight_run)):
        p = pack(hardpoint.load_scenario(f"builtin:{name}"))
        run = make(p)
        assert run(p.arrays) == 0, name
        for key, whole in p.arrays.items():
            if whole.size == 0:
                continue
            places = [(0, c) for c in range(whole.shape[1])] if whole.ndim == 2 else \\
                sorted({0, whole.shape[0] // 2, whole.shape[0] - 1})
            for place in places:
                for value in (-2**31, -1, 0, whole.shape[0], 10**6, 2**31 - 1):
                    broken = whole.copy()
                    broken[place] = value
                    print(name, key, place, value, flush=True)
                    rc = run(dict(p.arrays, **{key: broken}))
                    cases += 1
                    if rc not in (0, -1):
                        bad += 1
                        print("BAD return", rc, flush=True)
    print("ok", cases, bad, flush=True)
''')


def test_arch_04_kernels_handed_broken_arrays_neither_crash_nor_hang():
    """ARCH-04 / SAFE-01: every array of a one-turn and a fight packing, broken one value at a time to the extremes;
    the child process that runs the kernels on them ends normally and every run returns 0 or -1."""
    run = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=900)
    last = run.stdout.strip().splitlines()[-1:] or [""]
    assert run.returncode == 0, f"the kernel crashed (exit {run.returncode}) at: {last[0]}\n{run.stderr[-2000:]}"
    assert last[0].startswith("ok "), last
    cases, bad = map(int, last[0].split()[1:])
    assert cases > 1000 and bad == 0, last
