"""A throw-away copy of the repository, laid out as the installed package, to mutate in.

The working tree is never written: the runner copies the package folders
into ``<copy>/pkg/<import path>`` (``pyapi/`` as ``pkg/hardpoint``,
``fastcore/`` as ``pkg/hardpoint/fastcore``, ``seeds/`` as
``pkg/hardpoint/seeds``, built extensions included), the tests and the files
they read (``tests/``, ``docs/``, ``README.md``, ``pyproject.toml``...) beside
it, and links ``<copy>/pyapi`` etc. to the package folders for tests that read
the repository's paths. With ``PYTHONPATH=<copy>/pkg`` the copy is
found before the editable install (whose finder comes after the path finder);
the plugin checks ``hardpoint.__file__`` in every run. Only ``<copy>/pkg`` is
on PYTHONPATH; pytest adds the copy's root itself for the ``tests`` package.
"""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Layout", "Workspace", "HARDPOINT", "PLUGIN"]

PLUGIN = "_hardpoint_mutation_plugin"


@dataclass(frozen=True)
class Layout:
    """How a repository maps onto its import package (setup.py's package_dir) and what else its tests read."""

    package: str
    package_dirs: dict[str, str]
    extra: tuple[str, ...] = ("tests",)
    tests: str = "tests"
    keep_suffixes: tuple[str, ...] = (".so", ".pyd", ".nbi", ".nbc")
    skip_suffixes: tuple[str, ...] = (".pyc", ".c", ".o")

    def import_dir(self, import_name: str) -> Path:
        return Path(*import_name.split("."))

    def module_path(self, module: str) -> Path:
        """Where a repository file (``pyapi/dice.py``) sits in the copy's package folder (``hardpoint/dice.py``)."""
        rel = Path(module)
        best = None
        for name, folder in self.package_dirs.items():
            try:
                tail = rel.relative_to(folder)
            except ValueError:
                continue
            if best is None or len(Path(folder).parts) > len(Path(best[1]).parts):
                best = (name, folder, tail)
        if best is None:
            raise ValueError(f"{module} is not in any package folder ({', '.join(self.package_dirs.values())})")
        return self.import_dir(best[0]) / best[2]

    def repo_path(self, pkg_rel: str) -> str | None:
        """The inverse of module_path: ``hardpoint/dice.py`` -> ``pyapi/dice.py``."""
        rel = Path(pkg_rel)
        best = None
        for name, folder in self.package_dirs.items():
            try:
                tail = rel.relative_to(self.import_dir(name))
            except ValueError:
                continue
            if best is None or len(name.split(".")) > len(best[0].split(".")):
                best = (name, folder, tail)
        return None if best is None else str(Path(best[1]) / best[2])


# setup.py: package_dir={"hardpoint": "pyapi", "hardpoint.fastcore": "fastcore", "hardpoint.seeds": "seeds"}
HARDPOINT = Layout(
    package="hardpoint",
    package_dirs={"hardpoint": "pyapi", "hardpoint.fastcore": "fastcore", "hardpoint.seeds": "seeds"},
    extra=("tests", "docs", "README.md", "pyproject.toml", "setup.py", ".ci"),
)


@dataclass
class Workspace:
    """One copy of the repository. `root` is laid out as the repository; `pkg` holds the import package."""

    root: Path
    layout: Layout
    originals: dict[str, str] = field(default_factory=dict)

    @property
    def pkg(self) -> Path:
        return self.root / "pkg"

    @property
    def package_dir(self) -> Path:
        return self.pkg / self.layout.import_dir(self.layout.package)

    @classmethod
    def create(cls, repo: Path, dest: Path, layout: Layout, rev: str | None = None) -> Workspace:
        """Copy `repo` (its working tree, or the commit `rev` plus the working tree's built extensions) to `dest`."""
        dest.mkdir(parents=True, exist_ok=False)
        ws = cls(dest, layout)
        if rev is None:
            ws._copy_worktree(repo)
        else:
            ws._copy_rev(repo, rev)
        # The runner's pytest plugin goes in as a top-level module of its own, whatever the copied tests hold.
        shutil.copy2(Path(__file__).with_name("plugin.py"), ws.pkg / f"{PLUGIN}.py")
        for name, folder in layout.package_dirs.items():
            link = dest / folder
            if not link.exists():
                link.symlink_to(os.path.relpath(ws.pkg / layout.import_dir(name), link.parent))
        return ws

    def _targets(self):
        # Outer packages first so that inner ones land inside them.
        for name in sorted(self.layout.package_dirs, key=lambda n: n.count(".")):
            yield self.layout.package_dirs[name], self.pkg / self.layout.import_dir(name)
        for extra in self.layout.extra:
            yield extra, self.root / extra

    def _ignore(self, folder, names):
        out = set()
        for n in names:
            p = Path(folder) / n
            if n in (".hypothesis", ".benchmarks", ".pytest_cache", "build"):
                out.add(n)
            elif p.is_file() and p.suffix in self.layout.skip_suffixes:
                out.add(n)
            elif n == "__pycache__":
                # keep compiled caches a kernel needs (Numba's), not bytecode
                if not any(q.suffix in self.layout.keep_suffixes for q in p.iterdir()):
                    out.add(n)
        return out

    def _copy_worktree(self, repo: Path) -> None:
        for src, dst in self._targets():
            s = repo / src
            if s.is_dir():
                shutil.copytree(s, dst, ignore=self._ignore, dirs_exist_ok=True, symlinks=True)
            elif s.is_file():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(s, dst)
        for p in self.pkg.rglob("__pycache__/*.pyc"):
            p.unlink()

    def _copy_rev(self, repo: Path, rev: str) -> None:
        paths = [src for src, _ in self._targets() if (repo / src).exists()]
        data = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", rev, "--", *paths],
                              check=True, capture_output=True).stdout
        staging = self.root / ".staging"
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(staging, filter="data")
        for src, dst in self._targets():
            s = staging / src
            if s.is_dir():
                shutil.copytree(s, dst, dirs_exist_ok=True, symlinks=True)
            elif s.is_file():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(s, dst)
        shutil.rmtree(staging)
        # Built extensions and kernel caches are not in git: take them from the working tree.
        for name, folder in self.layout.package_dirs.items():
            for p in (repo / folder).rglob("*"):
                if p.is_file() and p.suffix in self.layout.keep_suffixes:
                    target = self.pkg / self.layout.import_dir(name) / p.relative_to(repo / folder)
                    if not target.exists():
                        target.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(p, target)

    def clone(self, dest: Path) -> Workspace:
        shutil.copytree(self.root, dest, symlinks=True)
        return Workspace(dest, self.layout)

    def env(self, bytecode: bool = False) -> dict[str, str]:
        env = dict(os.environ)
        # Only the package folder: the copy's pyapi/, fastcore/ and seeds/ links must not be importable
        # (ARCH-01's test checks that no top-level pyapi or fastcore exists). pytest puts the root on
        # sys.path itself for the tests package.
        env["PYTHONPATH"] = str(self.pkg)
        env.pop("PYTHONSAFEPATH", None)
        env.pop("PYTHONHOME", None)
        env.pop("COVERAGE_PROCESS_START", None)
        if bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        return env

    def file(self, module: str) -> Path:
        return self.pkg / self.layout.module_path(module)

    def write_mutant(self, module: str, text: str) -> None:
        path = self.file(module)
        if module not in self.originals:
            self.originals[module] = path.read_text()
        # A stale .pyc of the same size and second would shadow the mutant: remove it.
        for pyc in path.parent.glob(f"__pycache__/{path.stem}.*.pyc"):
            pyc.unlink()
        path.write_text(text)

    def restore(self, module: str) -> None:
        if module in self.originals:
            self.file(module).write_text(self.originals[module])

    def python(self) -> str:
        return sys.executable
