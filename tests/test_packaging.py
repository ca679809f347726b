"""Packaging (ARCH-01, ARCH-02): what the wheel ships, typed public API, documents that cite only files that exist."""
import pathlib
import re
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
_CITED = re.compile(r"(?<![\w/.-])((?:docs|seeds|tests|benchmarks|pyapi|fastcore|\.ci)/[\w./*-]+)")
_OUTSIDE = ("..", "/work/")   # joined with "shared" below, so this file does not cite it itself


def _documents():
    return [ROOT / "README.md", ROOT / "pyproject.toml", *sorted((ROOT / "docs").glob("*.md"))]


def test_arch_02_every_file_a_document_cites_is_in_the_repository():
    """ARCH-02: README, pyproject.toml and docs/ name only files and folders that exist."""
    missing = []
    for doc in _documents():
        for m in _CITED.finditer(doc.read_text(encoding="utf-8")):
            ref = m.group(1).rstrip(".,:;)")
            if not ((ROOT / ref).exists() if "*" not in ref else any(ROOT.glob(ref))):
                missing.append(f"{doc.relative_to(ROOT)} cites {ref}")
    assert not missing, "\n".join(missing)


def test_arch_01_no_document_cites_outside_the_repository():
    """ARCH-01: the project stands alone: no file cites the shared folder beside the repository or another path outside it."""
    offenders = []
    for path in ROOT.rglob("*"):
        if path.is_dir() or any(p in path.parts for p in (".git", ".venv", "build", "__pycache__", ".hypothesis")) \
                or path.suffix not in (".py", ".md", ".toml", ".pyx", ".h", ".json", ".txt", ".cfg", "") :
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if any(f"{prefix}{'/' if prefix == '..' else ''}shared" in text for prefix in _OUTSIDE):
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    pytest.importorskip("Cython")
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("src")
    # build a clean clone of what is committed (as CI does), so no stale build/ folder or untracked file plays a part
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(build / "repo")], check=True)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                        str(build / "repo")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    (whl,) = out.glob("hardpoint-*.whl")
    return zipfile.ZipFile(whl)


def test_arch_01_the_wheel_ships_sources_data_and_kernels_not_generated_c(wheel):
    """ARCH-01: hardpoint, hardpoint.fastcore (.pyx and built kernels, no generated C), hardpoint.seeds (every table and
    scenario), py.typed."""
    names = set(wheel.namelist())
    assert not [n for n in names if n.endswith(".c")]
    assert {"hardpoint/py.typed", "hardpoint/fastcore/_carwars.pyx", "hardpoint/seeds/scenario.schema.json",
            "hardpoint/seeds/carwars/weapons.toml", "hardpoint/seeds/scenarios/default.toml"} <= names
    assert any(n.startswith("hardpoint/fastcore/_carwars.") and n.endswith(".so") for n in names)
    seeds = {str(p.relative_to(ROOT / "seeds")) for p in (ROOT / "seeds").rglob("*") if p.suffix in (".toml", ".json")}
    assert {f"hardpoint/seeds/{s}" for s in seeds} <= names
    assert not [n for n in names if n.startswith(("pyapi/", "fastcore/", "seeds/"))]   # never top-level (ARCH-01)


def test_cli_02_docs_scenarios_reference_is_the_schemas_current_text():
    """CLI-02: docs/scenarios.md holds every key of both formats as the schema describes it now (regenerate with
    `hardpoint schema --markdown`); every field of the schema has a description."""
    from hardpoint.schema_doc import BEGIN, END, schema_markdown

    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    assert text[start:end] + "\n" == schema_markdown()
    rows = [line for line in schema_markdown().splitlines() if line.startswith("| `")]
    assert rows and not [r for r in rows if r.rstrip().endswith("|  |")]


def test_cli_02_the_complete_examples_in_docs_scenarios_load():
    """CLI-02: every complete example of docs/scenarios.md (a TOML block with [scenario] and a rule set) loads."""
    import tomllib

    import hardpoint

    blocks = re.findall(r"```toml\n(.*?)```", (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8"), re.S)
    complete = [b for b in blocks if b.startswith("[scenario]") and 'name = "..."' not in b]
    assert len(complete) >= 3
    for block in complete:
        hardpoint.parse_scenario(tomllib.loads(block), "docs/scenarios.md")


PUBLIC = ["__init__.py", "api.py", "results.py", "ruleset.py", "errors.py", "limits.py", "scenario.py", "dice.py",
          "trials.py", "duel.py", "events.py", "data.py", "schema_doc.py"]


def test_arch_01_the_public_api_type_checks_with_mypy():
    """ARCH-01: the package ships py.typed and its public modules pass mypy (the type hints a user's checker reads)."""
    pytest.importorskip("mypy")
    assert (ROOT / "pyapi" / "py.typed").exists()
    r = subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "--follow-imports=silent",
                        "--no-error-summary", *[str(ROOT / "pyapi" / m) for m in PUBLIC]], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == 0, r.stdout[-3000:]
