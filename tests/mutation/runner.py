"""Mutation campaign: map lines to tests with coverage.py, run each mutant against its tests, score.

1. Copy the repository (workspace.py) and run the test suite there once under
   coverage.py, the plugin switching the dynamic context to each test's node
   id: every line of the package gets the set of tests that execute it.
2. For each mutant: write the mutated module into the copy, run pytest on the
   tests that execute the mutated lines (fastest first, stopping at the first
   failure), restore the module. Exit status 1 or 2 (a failing test, or a
   module that no longer imports) kills the mutant; so does running past the
   timeout. A mutant no test executes survives as "uncovered".
3. Tests that compare the reference with the compiled kernels are a backstop,
   not rule tests: they are left out of the selection unless asked for; the
   survivors are then run against them, to report both scores.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from .operators import Mutation, apply_mutation, find_mutations
from .workspace import PLUGIN, Layout, Workspace

__all__ = ["Campaign", "Result", "DIFFERENTIAL", "is_differential", "score_table"]

# Tests whose purpose is comparing backends (ARCH-03): a backstop, not rule tests.
DIFFERENTIAL = ("tests/test_batch.py", "tests/asl/test_batch_kernel.py", "tests/test_lof_kernel.py")
# Never part of a campaign: the runner's own tests.
NEVER = ("tests/mutation",)
# Mutants shown to be equivalent (no test can tell them from the original), each with its reason.
EQUIVALENTS = Path(__file__).with_name("equivalent.json")


def load_equivalents(path: Path = EQUIVALENTS) -> list[dict]:
    """The listed equivalent mutants: module, code (the source line), col (where the edit starts in it, in
    characters), before, after, why."""
    return json.loads(path.read_text()) if path.exists() else []


def equivalent_key(module: str, code: str, col: int, before: str, after: str) -> tuple:
    # The column counts from the line's first non-blank character, so re-indenting keeps the entry valid.
    return (module, code.strip(), col - (len(code) - len(code.lstrip())), " ".join(before.split()), " ".join(after.split()))


def is_differential(nodeid: str, doc: str = "") -> bool:
    """A test of DIFFERENTIAL's files, or one whose docstring starts with ARCH-03 (reference against kernel)."""
    path = nodeid.split("::", 1)[0]
    return path in DIFFERENTIAL or doc.startswith("ARCH-03")


@dataclass
class Result:
    mutation: Mutation
    status: str  # killed, timeout, survived, uncovered, error, equivalent
    tests: int = 0
    seconds: float = 0.0
    killed_by: str = ""
    selection: str = ""  # "line": tests executing the line; "module": the module's tests (import-time code)
    backstop: str = ""  # for survivors: "killed" / "survived" by the differential tests, "" if not run
    detail: str = ""

    def to_dict(self) -> dict:
        d = self.mutation.to_dict()
        d.update(status=self.status, tests=self.tests, seconds=round(self.seconds, 3), killed_by=self.killed_by,
                 selection=self.selection, backstop=self.backstop, detail=self.detail)
        return d


@dataclass
class Campaign:
    repo: Path
    layout: Layout
    modules: list[str]
    out: Path
    jobs: int = 1
    timeout: float = 60.0
    sample: int | None = None
    seed: int = 0
    rev: str | None = None
    include_differential: bool = False
    backstop: bool = True
    only: set[str] | None = None
    log: callable = print
    keep: bool = False
    max_examples: int | None = None
    tests_only: tuple[str, ...] = ()
    map_tests: tuple[str, ...] = ()      # map from these test paths only (default: the whole suite)
    equivalents: list = field(default_factory=load_equivalents)
    elapsed: float = 0.0
    _meta: dict = field(default_factory=dict)
    _lines: dict = field(default_factory=dict)

    # --- mutants -------------------------------------------------------------------------

    def mutations(self) -> dict[str, list[Mutation]]:
        """The mutants of every module, sampled (per module) when asked; deterministic for a seed."""
        out = {}
        for module in self.modules:
            text = (self.repo / module).read_text() if self.rev is None else _git_show(self.repo, self.rev, module)
            ms = find_mutations(text, module)
            if self.only is not None:
                ms = [m for m in ms if m.id in self.only or _key(m) in self.only]
            if self.sample is not None and len(ms) > self.sample:
                rng = random.Random(f"{self.seed}:{module}")
                ms = sorted(rng.sample(ms, self.sample), key=lambda m: m.index)
            out[module] = ms
        return out

    # --- coverage map --------------------------------------------------------------------

    def map_lines(self, ws: Workspace) -> None:
        """Run the suite once in the copy under coverage.py with a context per test (or reuse a map of the same sources)."""
        fingerprint = _fingerprint(ws) + ("" if not self.map_tests else ":" + " ".join(self.map_tests))
        cache = self.out / "coverage-map.json"
        if cache.exists():
            data = json.loads(cache.read_text())
            if data.get("fingerprint") == fingerprint:
                self._meta, self._lines = data["meta"], data["lines"]
                self.log(f"coverage map reused ({cache})")
                return
        rc = ws.root / ".coveragerc"
        rc.write_text(f"[run]\ndata_file = {ws.root / '.coverage'}\nsource =\n    {ws.package_dir}\n")
        meta = ws.root / "mutation-meta.json"
        cmd = [ws.python(), "-m", "coverage", "run", f"--rcfile={rc}", "-m", "pytest", "-p", PLUGIN,
               f"--mutation-expect={ws.package_dir}", f"--mutation-package={self.layout.package}",
               f"--mutation-meta={meta}", "-q", "--no-header", "-p", "no:cacheprovider", "--tb=no",
               "--continue-on-collection-errors",  # a broken test file costs its own tests, not the map
               *(self.map_tests or (self.layout.tests,)), *(f"--ignore={n}" for n in NEVER)]
        t0 = time.monotonic()
        self.log(f"mapping lines to tests: {' '.join(self.map_tests) or 'the whole suite'} once under coverage.py ...")
        proc = subprocess.run(cmd, cwd=ws.root, env=ws.env(bytecode=True), capture_output=True, text=True)
        if not meta.exists() or proc.returncode not in (0, 1):
            raise RuntimeError(f"coverage run failed (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
        self._meta = json.loads(meta.read_text())
        failed = sorted(n for n, e in self._meta.items() if e["outcome"] == "failed")
        if failed:
            self.log(f"{len(failed)} test(s) fail on the unmutated code and are left out: {', '.join(failed[:5])}")
        import coverage

        data = coverage.CoverageData(basename=str(ws.root / ".coverage"))
        data.read()
        lines: dict[str, dict[str, list[str]]] = {}
        for f in data.measured_files():
            try:
                rel = os.path.relpath(f, ws.pkg)
            except ValueError:
                continue
            module = self.layout.repo_path(rel)
            if module is None:
                continue
            by_line = data.contexts_by_lineno(f)
            lines[module] = {str(k): sorted(c for c in v if c) for k, v in by_line.items()}
        self._lines = lines
        self.log(f"coverage map: {len(self._meta)} tests, {time.monotonic() - t0:.0f} s")
        self.out.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({"fingerprint": fingerprint, "meta": self._meta, "lines": self._lines}))

    def usable(self, nodeid: str, differential: bool) -> bool:
        """May test `nodeid` be selected? It must pass on the unmutated code; `differential` picks the backstop."""
        e = self._meta.get(nodeid)
        if e is None or e["outcome"] != "passed" or nodeid.startswith(NEVER):
            return False
        if self.tests_only and not nodeid.startswith(self.tests_only):
            return False
        diff = is_differential(nodeid, e.get("doc", ""))
        if differential:
            return diff
        return self.include_differential or not diff

    def select(self, m: Mutation, differential: bool = False) -> tuple[list[str], str]:
        """The tests to run against mutant m (fastest first) and how they were chosen."""
        by_line = self._lines.get(m.module, {})
        tests: set[str] = set()
        for ln in range(m.line, m.end_line + 1):
            tests.update(by_line.get(str(ln), ()))
        how = "line"
        executed = any(str(ln) in by_line for ln in range(m.line, m.end_line + 1))
        if not tests and executed:
            # Code run only at import (module constants, defaults): every test that uses the module.
            how = "module"
            for v in by_line.values():
                tests.update(v)
        chosen = sorted((t for t in tests if self.usable(t, differential)),
                        key=lambda t: (self._meta[t]["duration"], t))
        return chosen, how

    # --- running -------------------------------------------------------------------------

    def run_one(self, ws: Workspace, m: Mutation, tests: list[str], text: str) -> tuple[str, str, float, str]:
        """Run mutant m against `tests` in workspace ws: (status, killed_by, seconds, detail)."""
        ws.write_mutant(m.module, apply_mutation(text, m))
        sel = ws.root / "mutation-select.txt"
        res = ws.root / "mutation-result.json"
        sel.write_text("\n".join(tests) + "\n")
        if res.exists():
            res.unlink()
        files = sorted({t.split("::", 1)[0] for t in tests})
        budget = self.timeout + 3.0 * sum(self._meta[t]["duration"] for t in tests)
        cmd = [ws.python(), "-m", "pytest", "-p", PLUGIN, f"--mutation-select={sel}",
               f"--mutation-expect={ws.package_dir}", f"--mutation-package={self.layout.package}",
               f"--mutation-result={res}", "-x", "-q", "--no-header", "--tb=no", "-p", "no:cacheprovider", *files]
        if self.max_examples:
            cmd.insert(-len(files), f"--mutation-max-examples={self.max_examples}")
        t0 = time.monotonic()
        try:
            proc = subprocess.Popen(cmd, cwd=ws.root, env=ws.env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, start_new_session=True)
            try:
                out, _ = proc.communicate(timeout=budget)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
                return "timeout", "", time.monotonic() - t0, f"over {budget:.0f} s"
        finally:
            ws.restore(m.module)
        dt = time.monotonic() - t0
        info = json.loads(res.read_text()) if res.exists() else {}
        if "wrong_import" in info:
            raise RuntimeError(f"the mutant run imported {self.layout.package} from {info['wrong_import']}, not the copy")
        rc = proc.returncode
        if rc == 0:
            return "survived", "", dt, ""
        if rc in (1, 2, 3, 4):
            # 2: collection error, 3: internal error, 4: a conftest that cannot import the mutated package
            # (the plugin's own exit 4 for a wrong import is caught above).
            return "killed", info.get("killed_by", "(import or collection error)" if rc != 1 else ""), dt, ""
        return "error", "", dt, f"pytest exit {rc}: {out[-500:]}"

    def run(self) -> list[Result]:
        mutations = self.mutations()
        total = sum(len(v) for v in mutations.values())
        self.out.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix="hardpoint-mutation-"))
        t_start = time.monotonic()
        try:
            ws0 = Workspace.create(self.repo, tmp / "w0", self.layout, self.rev)
            self.map_lines(ws0)
            texts = {mod: ws0.file(mod).read_text() for mod in mutations}
            spaces = [ws0] + [ws0.clone(tmp / f"w{i}") for i in range(1, self.jobs)]
            pool_ws = list(spaces)
            lock = threading.Lock()
            done = [0]

            def work(m: Mutation) -> Result:
                tests, how = self.select(m)
                with lock:
                    ws = pool_ws.pop()
                try:
                    if tests:
                        status, by, dt, detail = self.run_one(ws, m, tests, texts[m.module])
                        r = Result(m, status, len(tests), dt, by, how, detail=detail)
                    else:
                        r = Result(m, "uncovered", selection=how)
                    if r.status in ("survived", "uncovered") and self.backstop and not self.include_differential:
                        extra, _ = self.select(m, differential=True)
                        if extra:
                            s2, _, dt2, _ = self.run_one(ws, m, extra, texts[m.module])
                            r.backstop = "killed" if s2 in ("killed", "timeout") else "survived"
                            r.seconds += dt2
                finally:
                    with lock:
                        pool_ws.append(ws)
                with lock:
                    done[0] += 1
                    try:  # partial results survive an interrupted run (and a build that clears build/)
                        self.out.mkdir(parents=True, exist_ok=True)
                        with open(self.out / "results.jsonl", "a") as fh:
                            fh.write(json.dumps(r.to_dict()) + "\n")
                    except OSError as exc:
                        self.log(f"could not write {self.out / 'results.jsonl'}: {exc}")
                    if r.status not in ("killed", "timeout") or done[0] % 25 == 0 or done[0] == total:
                        self.log(f"[{done[0]}/{total}] {r.status:9s} {m.describe()}")
                return r

            known = {equivalent_key(e["module"], e["code"], e["col"], e["before"], e["after"]): e["why"]
                     for e in self.equivalents}
            lines_of = {mod: texts[mod].splitlines() for mod in texts}

            def why_equivalent(m: Mutation) -> str | None:
                return known.get(equivalent_key(m.module, lines_of[m.module][m.line - 1], m.start[1], m.before, m.after))

            def run_or_skip(m: Mutation) -> Result:
                why = why_equivalent(m)
                if why is not None:
                    return Result(m, "equivalent", detail=why)
                return work(m)

            ordered = [m for mod in mutations for m in mutations[mod]]
            (self.out / "results.jsonl").write_text("")
            with ThreadPoolExecutor(max_workers=self.jobs) as pool:
                results = list(pool.map(run_or_skip, ordered))
        finally:
            if not self.keep:
                _rmtree(tmp)
            else:
                self.log(f"copy kept in {tmp}")
        self.elapsed = time.monotonic() - t_start
        return results


def _key(m: Mutation) -> str:
    """A mutant's identity independent of its index: module, position and replacement."""
    return f"{m.module}@{m.start[0]}:{m.start[1]}-{m.end[0]}:{m.end[1]}={m.after}"


def _git_show(repo: Path, rev: str, module: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "show", f"{rev}:{module}"], check=True, capture_output=True,
                          text=True).stdout


def _fingerprint(ws: Workspace) -> str:
    h = hashlib.sha256()
    for base in (ws.pkg, ws.root / ws.layout.tests):
        for p in sorted(base.rglob("*")):
            if (p.is_file() and p.suffix in (".py", ".toml", ".json", ".md") and "__pycache__" not in p.parts
                    and p.name != f"{PLUGIN}.py"):
                h.update(str(p.relative_to(ws.root)).encode())
                h.update(p.read_bytes())
    h.update(b"pyproject")
    pp = ws.root / "pyproject.toml"
    if pp.exists():
        h.update(pp.read_bytes())
    return h.hexdigest()


def _rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def score_table(results: list[Result]) -> list[dict]:
    """Per module: mutants, killed, timeouts, survived (uncovered among them), equivalent, errors, scores.

    Score = (killed + timeouts) / (mutants - equivalent - errors): a listed equivalent mutant cannot be killed.
    """
    rows: dict[str, dict] = {}
    for r in results:
        row = rows.setdefault(r.mutation.module, dict(module=r.mutation.module, mutants=0, killed=0, timeout=0,
                                                      survived=0, uncovered=0, equivalent=0, error=0, backstop_killed=0))
        row["mutants"] += 1
        if r.status == "uncovered":
            row["survived"] += 1
            row["uncovered"] += 1
        else:
            row[r.status] += 1
        if r.backstop == "killed":
            row["backstop_killed"] += 1
    out = list(rows.values())
    total = dict(module="all", **{k: sum(r[k] for r in out) for k in
                                  ("mutants", "killed", "timeout", "survived", "uncovered", "equivalent", "error",
                                   "backstop_killed")})
    for row in out + [total]:
        n = row["mutants"] - row["error"] - row["equivalent"]
        row["score"] = (row["killed"] + row["timeout"]) / n if n else 0.0
        row["score_with_backstop"] = (row["killed"] + row["timeout"] + row["backstop_killed"]) / n if n else 0.0
    return out + [total]
