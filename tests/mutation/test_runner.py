"""The runner on a toy repository: copy, line-to-test map, kills, survivors, timeouts, reports.

The toy campaign runs about a dozen mutants of a 20-line module in a few
seconds; the real campaign (python -m tests.mutation) is never started here.
"""
from __future__ import annotations

import ast
import hashlib
import json
import textwrap
from pathlib import Path

import pytest

from .operators import find_mutations
from .report import markdown
from .runner import Campaign, is_differential, score_table
from .workspace import HARDPOINT, Layout, Workspace

ROOT = Path(__file__).resolve().parents[2]

RULES = textwrap.dedent('''\
    """Toy rules (TOY-01)."""


    def needed(base, mods):
        """TOY-02: the number needed."""
        return base - mods


    def countdown(n):
        """TOY-03: counts down to zero."""
        steps = 0
        while n > 0:
            n -= 1
            steps += 1
        return steps


    def untested(x):
        """TOY-04: no test runs this."""
        return x * 2
''')

TESTS = textwrap.dedent('''\
    import toyrules
    from toyrules.rules import countdown, needed


    def test_toy_02_needed():
        assert needed(7, 3) == 4


    def test_toy_03_countdown():
        assert countdown(3) >= 0


    def test_imports_from_the_copy():
        import os
        assert os.environ["TOY_REPO"] not in os.path.realpath(toyrules.__file__)
''')

TOY = Layout(package="toyrules", package_dirs={"toyrules": "src"}, extra=("tests", "pyproject.toml"))


@pytest.fixture
def toy(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "src" / "__init__.py").write_text("")
    (repo / "src" / "rules.py").write_text(RULES)
    (repo / "tests" / "__init__.py").write_text("")
    (repo / "tests" / "test_toy.py").write_text(TESTS)
    (repo / "pyproject.toml").write_text('[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    monkeypatch.setenv("TOY_REPO", str(repo))
    return repo


def tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(str(p).encode() + p.read_bytes())
    return h.hexdigest()


def test_hardpoint_layout_is_setup_py_package_dir():
    """The runner's copy uses setup.py's mapping (ARCH-01): pyapi -> hardpoint, fastcore, seeds inside it."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    kw = next(k for n in ast.walk(tree) if isinstance(n, ast.Call) for k in n.keywords if k.arg == "package_dir")
    assert ast.literal_eval(kw.value) == HARDPOINT.package_dirs
    assert str(HARDPOINT.module_path("pyapi/carwars/damage.py")) == "hardpoint/carwars/damage.py"
    assert str(HARDPOINT.module_path("fastcore/asl_numba.py")) == "hardpoint/fastcore/asl_numba.py"
    assert HARDPOINT.repo_path("hardpoint/fastcore/asl_numba.py") == "fastcore/asl_numba.py"
    assert HARDPOINT.repo_path("hardpoint/dice.py") == "pyapi/dice.py"
    with pytest.raises(ValueError):
        HARDPOINT.module_path("tests/test_dice.py")


def test_differential_tests_are_recognised():
    assert is_differential("tests/test_lof_kernel.py::test_x")
    assert is_differential("tests/carwars/test_other.py::test_y", "ARCH-03: the kernel agrees with the reference")
    assert not is_differential("tests/carwars/test_damage.py::test_cw_dmg_02", "CW-DMG-02: penetration")


def test_workspace_is_a_copy_laid_out_as_the_package(toy, tmp_path):
    ws = Workspace.create(toy, tmp_path / "copy", TOY)
    assert (ws.pkg / "toyrules" / "rules.py").read_text() == RULES
    assert (ws.root / "src").is_symlink() and (ws.root / "tests" / "test_toy.py").exists()
    before = tree_hash(toy)
    ws.write_mutant("src/rules.py", RULES.replace("base - mods", "base + mods"))
    assert "base + mods" in ws.file("src/rules.py").read_text()
    ws.restore("src/rules.py")
    assert ws.file("src/rules.py").read_text() == RULES
    assert tree_hash(toy) == before


def test_toy_campaign(toy, tmp_path):
    """Killed, survived, uncovered and timed-out mutants, each with its rule id; the repository is never written."""
    before = tree_hash(toy)
    logs = []
    equivalent = [{"module": "src/rules.py", "code": "        steps += 1", "col": 14, "before": "+=", "after": "-=",
                   "why": "for the test"}]
    c = Campaign(repo=toy, layout=TOY, modules=["src/rules.py"], out=tmp_path / "out", timeout=3.0, log=logs.append,
                 backstop=False, equivalents=equivalent)
    all_mutants = c.mutations()["src/rules.py"]
    wanted = {("arith", "base - mods"), ("remove", "n -= 1"), ("remove", "steps += 1"), ("return", "return x * 2"),
              ("arith", "+=")}
    c.only = {m.id for m in all_mutants if (m.operator, m.before) in wanted}
    results = {(r.mutation.operator, r.mutation.before): r for r in c.run()}
    assert set(results) == wanted
    killed = results[("arith", "base - mods")]
    assert killed.status == "killed" and killed.killed_by == "tests/test_toy.py::test_toy_02_needed"
    assert killed.tests == 1 and killed.selection == "line" and killed.mutation.rule == "TOY-02"
    assert results[("remove", "n -= 1")].status == "timeout"  # the loop never ends
    survivor = results[("remove", "steps += 1")]
    assert survivor.status == "survived" and survivor.mutation.rule == "TOY-03" and survivor.tests == 1
    assert results[("return", "return x * 2")].status == "uncovered"
    eq = results[("arith", "+=")]  # steps += 1 -> steps -= 1, listed as equivalent: reported, not run
    assert (eq.status, eq.detail, eq.tests) == ("equivalent", "for the test", 0)
    assert tree_hash(toy) == before
    # The copy imported the package from itself, not from the repository (test_imports_from_the_copy passed).
    cmap = json.loads((tmp_path / "out" / "coverage-map.json").read_text())
    assert cmap["meta"]["tests/test_toy.py::test_imports_from_the_copy"]["outcome"] == "passed"
    assert cmap["lines"]["src/rules.py"]["6"] == ["tests/test_toy.py::test_toy_02_needed"]
    (row, total) = score_table(list(results.values()))
    assert (row["mutants"], row["killed"], row["timeout"], row["survived"], row["uncovered"], row["equivalent"]) == \
        (5, 1, 1, 2, 1, 1)
    assert row["score"] == 2 / 4  # the equivalent mutant is out of the count
    md = markdown(list(results.values()), dict(date="today", commit="x", command="c", elapsed=1.0, jobs=1,
                                               sampling="all", include_differential=False))
    assert "### `src/rules.py` TOY-03" in md and "`steps += 1` -> `pass`" in md and "(uncovered)" in md


def test_sampling_is_deterministic(toy, tmp_path):
    c = Campaign(repo=toy, layout=TOY, modules=["src/rules.py"], out=tmp_path, sample=3, seed=5)
    a = c.mutations()
    assert a == c.mutations() and len(a["src/rules.py"]) == 3
    c.seed = 6
    full = find_mutations(RULES, "src/rules.py")
    assert len(full) > 3
    assert set(m.id for m in c.mutations()["src/rules.py"]) <= {m.id for m in full}


def test_map_tests_maps_only_the_tests_named(toy, tmp_path):
    """--map-tests: the coverage map holds only the named tests (and its cache is not mistaken for a whole map)."""
    (toy / "tests" / "test_other.py").write_text("from toyrules.rules import needed\n\n\ndef test_other():\n"
                                                 "    assert needed(2, 1) == 1\n")
    c = Campaign(repo=toy, layout=TOY, modules=["src/rules.py"], out=tmp_path / "out", map_tests=("tests/test_other.py",))
    ws = Workspace.create(toy, tmp_path / "copy", TOY)
    c.map_lines(ws)
    assert sorted(c._meta) == ["tests/test_other.py::test_other"]
    whole = Campaign(repo=toy, layout=TOY, modules=["src/rules.py"], out=tmp_path / "out")
    whole.map_lines(ws)
    assert "tests/test_toy.py::test_toy_02_needed" in whole._meta
