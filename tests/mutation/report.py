"""The campaign's reports: JSON (every mutant) and a markdown table with every survivor."""
from __future__ import annotations

import datetime
import json
import subprocess
from pathlib import Path

from .runner import Result, score_table

__all__ = ["write_reports", "markdown", "equivalents_table"]


def _commit(repo: Path, rev: str | None) -> str:
    try:
        out = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", rev or "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    if rev is None:
        dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        if dirty:
            out += " + working tree changes"
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def equivalents_table(entries: list[dict]) -> str:
    """The listed equivalent mutants as a markdown table (for docs/testing.md)."""
    out = ["| module | code | mutation | why it is equivalent |", "| --- | --- | --- | --- |"]
    for e in entries:
        code = " ".join(e["code"].split()).replace("|", "\\|")
        out.append(f"| `{e['module']}` | `{code}` | `{e['before']}` -> `{e['after']}` | {e['why']} |")
    return "\n".join(out) + "\n"


def markdown(results: list[Result], header: dict) -> str:
    rows = score_table(results)
    n = sum(1 for r in results if r.status != "uncovered")
    avg = sum(r.seconds for r in results) / n if n else 0.0
    lines = [
        f"# Mutation testing report ({header['date']}, commit {header['commit']})",
        "",
        f"Command: `{header['command']}`  ",
        f"Mutants: {len(results)} ({header['sampling']}); run time {header['elapsed']:.0f} s, "
        f"{avg:.1f} s per mutant run on average; jobs {header['jobs']}; "
        f"differential tests {'included' if header['include_differential'] else 'excluded' + (' (backstop run on survivors)' if header.get('backstop', True) else ', backstop not run')}"
        + (f"; hypothesis capped at {header['max_examples']} examples" if header.get("max_examples") else "")
        + (f"; tests only from {', '.join(header['tests_only'])}" if header.get("tests_only") else "")
        + (f"; coverage map from {', '.join(header['map_tests'])} only" if header.get("map_tests") else "") + ".",
        "",
        "| module | mutants | killed | timeouts | survived | (uncovered) | equivalent | errors | score | with backstop |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        name = f"**{r['module']}**" if r["module"] == "all" else f"`{r['module']}`"
        backstop = _pct(r["score_with_backstop"]) if header.get("backstop", True) and not header["include_differential"] else "-"
        lines.append(f"| {name} | {r['mutants']} | {r['killed']} | {r['timeout']} | {r['survived']} | {r['uncovered']} | "
                     f"{r['equivalent']} | {r['error']} | {_pct(r['score'])} | {backstop} |")
    lines += ["", "Score = (killed + timeouts) / (mutants - equivalent - errors); equivalent mutants (listed in "
              "tests/mutation/equivalent.json with the reason) are not run. \"With backstop\" also counts the "
              "survivors that the reference-versus-kernel tests kill.", ""]
    survivors = [r for r in results if r.status in ("survived", "uncovered")]
    lines.append(f"## Survivors ({len(survivors)})")
    current = None
    for r in sorted(survivors, key=lambda r: (r.mutation.module, r.mutation.rule, r.mutation.line, r.mutation.index)):
        m = r.mutation
        if (m.module, m.rule) != current:
            current = (m.module, m.rule)
            lines += ["", f"### `{m.module}` {m.rule or '(no rule id)'}", ""]
        note = " (uncovered)" if r.status == "uncovered" else ""
        if r.backstop == "killed":
            note += " (killed by the backstop)"
        before = " ".join(m.before.split())
        after = " ".join(m.after.split())
        lines.append(f"- `{m.module}:{m.line}` {m.function or '(module)'} {m.operator}: `{before}` -> `{after}`{note}")
    equivalent = [r for r in results if r.status == "equivalent"]
    if equivalent:
        lines += ["", f"## Equivalent mutants in this run ({len(equivalent)})", ""]
        lines += [f"- `{r.mutation.module}:{r.mutation.line}` {r.mutation.operator}: `{' '.join(r.mutation.before.split())}` "
                  f"-> `{' '.join(r.mutation.after.split())}`: {r.detail}" for r in equivalent]
    errors = [r for r in results if r.status == "error"]
    if errors:
        lines += ["", f"## Errors ({len(errors)})", ""]
        lines += [f"- `{r.mutation.describe()}`: {r.detail}" for r in errors]
    return "\n".join(lines) + "\n"


def write_reports(results: list[Result], out: Path, repo: Path, command: str, campaign, sampling: str | None = None) -> dict:
    header = {
        "date": datetime.date.today().isoformat(),
        "commit": _commit(repo, campaign.rev),
        "command": command,
        "elapsed": campaign.elapsed,
        "jobs": campaign.jobs,
        "sampling": sampling or (f"at most {campaign.sample} per module, seed {campaign.seed}" if campaign.sample else "all"),
        "include_differential": campaign.include_differential,
        "backstop": campaign.backstop,
        "max_examples": campaign.max_examples,
        "tests_only": list(campaign.tests_only),
        "map_tests": list(getattr(campaign, "map_tests", ())),
    }
    out.mkdir(parents=True, exist_ok=True)
    doc = {"header": header, "modules": score_table(results), "mutants": [r.to_dict() for r in results]}
    (out / "report.json").write_text(json.dumps(doc, indent=1))
    (out / "report.md").write_text(markdown(results, header))
    return doc
