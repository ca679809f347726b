"""The Car Wars kernels' data layout, declared once in fastcore/layout.toml, generated into Cython and Python.

    python -m hardpoint.carwars.kernel_layout [PROJECT_ROOT]

writes `fastcore/_layout.pxi` (enums, column and index constants, the `Arrays`
struct the kernels take and the functions that fill it from the packer's
arrays) and `pyapi/carwars/_layout.py` (the same constants, column names and
array orders for the packers, `hardpoint.carwars.batch` and `hardpoint.carwars.fightpack`). A test
(tests/test_kernel_layout.py) renders both again and fails when a file on disk
differs: the packer and the kernel cannot drift apart by position (ARCH-03).
"""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

__all__ = ["render_pxi", "render_py", "main"]

_HEADER = "Generated from fastcore/layout.toml by `python -m hardpoint.carwars.kernel_layout`: do not edit."


def _enum_items(layout: dict) -> list[tuple[str, list[tuple[str, int]]]]:
    out = []
    for name, spec in layout["enums"].items():
        out.append((name, [(spec["prefix"] + v, i) for i, v in enumerate(spec["values"])]))
    for name, spec in layout["rows"].items():
        cols = spec["columns"]
        out.append((f"rows.{name}", [(spec["prefix"] + c, i) for i, c in enumerate(cols)] + [(spec["prefix"] + "NCOLS", len(cols))]))
    for name, spec in layout["vectors"].items():
        names = spec["names"]
        out.append((f"vectors.{name}", [(spec["prefix"] + c, i) for i, c in enumerate(names)] + [(spec["prefix"] + "LEN", len(names))]))
    return out


def _fields(layout: dict) -> list[tuple[str, str]]:
    """Every array of either kernel once, in declaration order: (name, kind)."""
    seen: dict[str, str] = {}
    for group in ("phase", "fight"):
        for name, kind in layout["arrays"][group]:
            if name in seen and seen[name] != kind:
                raise ValueError(f"array {name!r} declared as {seen[name]} and {kind}")
            seen.setdefault(name, kind)
    return list(seen.items())


def _fight_arrays(layout: dict) -> list[tuple[str, str]]:
    phase = layout["arrays"]["phase"]
    upto = [n for n, _ in phase].index("col")
    return [tuple(x) for x in phase[:upto]] + [tuple(x) for x in layout["arrays"]["fight"]]


def render_pxi(layout: dict) -> str:
    """The Cython declarations (include them after cimporting int32_t)."""
    lines = [f"# {_HEADER}", ""]
    for title, items in _enum_items(layout):
        lines.append(f"# {title}")
        lines.append("cdef enum:")
        lines += [f"    {k} = {v}" for k, v in items]
        lines.append("")
    lines.append("cdef struct Arrays:")
    lines.append("    # per array: its data (NULL when empty) and its length; a two-dimensional one, its rows and columns")
    for name, kind in _fields(layout):
        lines.append(f"    int32_t* {name}")
        lines.append(f"    Py_ssize_t n_{name}")
        if kind.startswith("rows.") or kind == "int32[,]":
            lines.append(f"    Py_ssize_t w_{name}")
    lines.append("")
    for group, arrays in (("phase", [tuple(x) for x in layout["arrays"]["phase"]]), ("fight", _fight_arrays(layout))):
        lines.append("")
        lines.append(f"cdef int unpack_{group}(Arrays* a, dict arrays) except -2:")
        lines.append(f'    """Fill `a` from the packer\'s arrays for run_{group}: -1 when a row or vector has the wrong width')
        lines.append('    (nothing runs); a missing array raises KeyError, one of another dtype or not contiguous ValueError."""')
        lines.append("    cdef int32_t[::1] v")
        lines.append("    cdef int32_t[:, ::1] m")
        for name, kind in arrays:
            if kind == "int32[]" or kind.startswith("vectors."):
                lines.append(f'    v = arrays["{name}"]')
                lines.append(f"    a.{name} = &v[0] if v.shape[0] else NULL")
                lines.append(f"    a.n_{name} = v.shape[0]")
                if kind.startswith("vectors."):
                    spec = layout["vectors"][kind.split(".")[1]]
                    lines.append(f"    if v.shape[0] != {spec['prefix']}LEN:")
                    lines.append("        return -1")
            else:
                lines.append(f'    m = arrays["{name}"]')
                lines.append(f"    a.{name} = &m[0, 0] if m.shape[0] and m.shape[1] else NULL")
                lines.append(f"    a.n_{name} = m.shape[0]")
                lines.append(f"    a.w_{name} = m.shape[1]")
                if kind.startswith("rows."):
                    spec = layout["rows"][kind.split(".")[1]]
                    lines.append(f"    if m.shape[0] and m.shape[1] != {spec['prefix']}NCOLS:")
                    lines.append("        return -1")
        lines.append("    return 0")
    return "\n".join(lines) + "\n"


def render_py(layout: dict) -> str:
    """The Python constants for the packer."""
    lines = [f'"""{_HEADER}"""', ""]
    for title, items in _enum_items(layout):
        lines.append(f"# {title}")
        lines += [f"{k} = {v}" for k, v in items]
        lines.append("")
    lines.append("# column names, in order (lower case), per row kind; names per vector")
    for name, spec in layout["rows"].items():
        cols = ", ".join(f'"{c.lower()}"' for c in spec["columns"])
        lines.append(f"{name.upper()}_COLUMNS = ({cols},)")
    for name, spec in layout["vectors"].items():
        names = ", ".join(f'"{c.lower()}"' for c in spec["names"])
        lines.append(f"{name.upper()}_NAMES = ({names},)")
    lines.append("")
    lines.append("# the arrays each kernel takes (the keys of the mapping passed to it)")
    phase = ", ".join(f'"{n}"' for n, _ in layout["arrays"]["phase"])
    fight = ", ".join(f'"{n}"' for n, _ in _fight_arrays(layout))
    lines.append(f"PHASE_ARRAYS = ({phase},)")
    lines.append(f"FIGHT_ARRAYS = ({fight},)")
    return "\n".join(lines) + "\n"


def load(root: Path) -> dict:
    return tomllib.loads((root / "fastcore" / "layout.toml").read_text(encoding="utf-8"))


def outputs(root: Path) -> dict[Path, str]:
    """The generated files under `root` and what they must hold."""
    layout = load(root)
    return {root / "fastcore" / "_layout.pxi": render_pxi(layout), root / "pyapi" / "carwars" / "_layout.py": render_py(layout)}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else Path.cwd()
    if not (root / "fastcore" / "layout.toml").is_file():
        print(f"kernel_layout: no fastcore/layout.toml under {root} (give the project root)", file=sys.stderr)
        return 2
    try:
        files = outputs(root)
    except (tomllib.TOMLDecodeError, KeyError, ValueError) as exc:   # nothing written: the layout is not one
        print(f"kernel_layout: fastcore/layout.toml: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
