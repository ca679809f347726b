"""Build script: maps the project's folders onto the `hardpoint` package (ARCH-01)
and compiles the Cython kernels of fastcore/ (the Car Wars kernels profile-guided, with GCC)."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py


class BuildPy(build_py):
    """Ship the .pyx sources of the kernels, never the C that Cython generates from them."""

    def find_data_files(self, package, src_dir):
        return [f for f in super().find_data_files(package, src_dir) if not f.endswith(".c")]


class BuildExt(build_ext):
    """The Car Wars kernels (`_carwars`) are built profile-guided with GCC: compiled once with `-fprofile-generate`,
    run on the training set of fastcore/pgo/ (the built-in scenarios as the packer hands them to the kernels:
    fastcore/pgo_train.py, `python -m hardpoint.carwars.pgo`), then compiled again with the profile. The same C,
    so the same results, measured 1.06x-1.26x the speed of the fights and 1.04x-1.11x of the one-turn
    scenarios, built-in by built-in (docs/performance.md).
    HARDPOINT_PGO=0, another compiler, or any step failing builds it the plain way, saying why (and in _pgo.json
    beside the library)."""

    PGO = "hardpoint.fastcore._carwars"

    TRAINING = ("fastcore/pgo_train.py", *sorted(glob.glob("fastcore/pgo/*")))

    def build_extension(self, ext):
        if ext.name != self.PGO or not self._stale(ext):
            return super().build_extension(ext)       # (the plain way, or skipped as up to date)
        wanted = os.environ.get("HARDPOINT_PGO", "1") != "0"
        why, toolchain = ("HARDPOINT_PGO=0", True) if not wanted else self._pgo_unavailable()
        if why is None:
            try:
                self._build_pgo(ext)
                return self._note(ext, wanted, None, True)
            except Exception as exc:        # noqa: BLE001 - any failure: the plain build below, said aloud
                why = f"{type(exc).__name__}: {exc}"
        print(f"hardpoint: building {ext.name} without profile guidance ({why})", file=sys.stderr)
        force, self.force = self.force, True      # (over an instrumented build a failed step may have left)
        try:
            super().build_extension(ext)
        finally:
            self.force = force
        self._note(ext, wanted, why, toolchain)

    def copy_extensions_to_source(self):
        """An in-place build (`build_ext --inplace`, an editable install) copies the libraries into fastcore/; the
        note goes with them."""
        super().copy_extensions_to_source()
        note = Path(self.build_lib, *self.PGO.split(".")[:-1], "_pgo.json")
        if note.is_file():
            package_dir = self.get_finalized_command("build_py").get_package_dir("hardpoint.fastcore")
            shutil.copyfile(note, Path(package_dir) / note.name)

    def _note(self, ext, wanted: bool, why, toolchain: bool) -> None:
        """_pgo.json beside the library (tests/test_pgo.py): whether it was built profile-guided, whether that was
        asked for, and if not why; `toolchain` is false when this machine's compiler cannot do it (not GCC 10 or
        later), so that a fall-back for any other reason is seen as the defect it is."""
        import json

        note = {"profile_guided": why is None, "wanted": wanted, "why": why, "toolchain": toolchain}
        Path(self.get_ext_fullpath(ext.name)).with_name("_pgo.json").write_text(json.dumps(note) + "\n")

    def _stale(self, ext) -> bool:
        """Built again when forced, when a source or the training set is newer than the library, or when the
        library was built otherwise than HARDPOINT_PGO now asks."""
        import json

        from setuptools.modified import newer_group

        built = Path(self.get_ext_fullpath(ext.name))
        try:
            was = json.loads(built.with_name("_pgo.json").read_text())["wanted"]
        except (OSError, ValueError, KeyError, TypeError):
            was = None
        wanted = os.environ.get("HARDPOINT_PGO", "1") != "0"
        return self.force or was != wanted or newer_group([*ext.sources, *ext.depends, *self.TRAINING], str(built), "newer")

    def _pgo_unavailable(self) -> tuple:
        """(None, True) when the build can be profile-guided; else (why not, whether the toolchain allows it)."""
        cc = (getattr(self.compiler, "compiler_so", None) or ["cc"])[0]
        try:
            version = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=60).stdout
            major = subprocess.run([cc, "-dumpversion"], capture_output=True, text=True, timeout=60).stdout.strip()
        except (OSError, subprocess.SubprocessError) as exc:
            return f"the compiler is not GCC (cannot ask {cc} its version: {exc})", False
        if "Free Software Foundation" not in version or "clang" in version.lower():
            return f"the compiler is not GCC ({version.splitlines()[0] if version else cc})", False
        if not major.split(".")[0].isdigit() or int(major.split(".")[0]) < 10:
            return f"the compiler is not GCC 10 or later (-fprofile-partial-training): {major}", False
        if not Path("fastcore/pgo/manifest.json").is_file():
            return "no training set in fastcore/pgo", True
        return None, True

    def _build_pgo(self, ext):
        compile_args, link_args, force = list(ext.extra_compile_args), list(ext.extra_link_args), self.force
        profile = tempfile.mkdtemp(prefix="hardpoint-pgo-")
        try:
            self.force = True
            ext.extra_compile_args = compile_args + ["-fprofile-generate", "-fprofile-update=single", f"-fprofile-dir={profile}"]
            ext.extra_link_args = link_args + ["-fprofile-generate"]
            super().build_extension(ext)
            built = self.get_ext_fullpath(ext.name)
            run = subprocess.run([sys.executable, "fastcore/pgo_train.py", built, "fastcore/pgo"], capture_output=True,
                                 text=True, timeout=900)
            if run.returncode != 0:
                raise RuntimeError(f"the training run failed: {(run.stderr or run.stdout).strip()[-2000:]}")
            if not glob.glob(os.path.join(profile, "**", "*.gcda"), recursive=True):
                raise RuntimeError("the training run wrote no profile")
            # the profile's branch counts, without the value profiling (-fvpt: it specialises copies and divisions to
            # the training set's sizes, which made other scenarios 25% slower) or the unrolling, tracing and
            # reordering it brings: measured faster on every built-in, one-turn and fights (docs/performance.md)
            ext.extra_compile_args = compile_args + [
                "-fprofile-use", "-fprofile-partial-training", f"-fprofile-dir={profile}", "-Wno-missing-profile",
                "-fno-vpt", "-fno-profile-values", "-fno-unroll-loops", "-fno-peel-loops", "-fno-tracer",
                "-fno-reorder-blocks-and-partition", "-fno-reorder-functions"]
            ext.extra_link_args = link_args
            super().build_extension(ext)
            print(f"hardpoint: built {ext.name} profile-guided", file=sys.stderr)
        finally:
            ext.extra_compile_args, ext.extra_link_args, self.force = compile_args, link_args, force
            shutil.rmtree(profile, ignore_errors=True)


extensions = cythonize(
    [
        Extension(
            "hardpoint.fastcore._dice",
            ["fastcore/_dice.pyx"],
            depends=["fastcore/hp_dice.h"],
            include_dirs=[numpy.get_include(), "fastcore"],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            extra_compile_args=["-O3", "-g0"],
        ),
        Extension(
            "hardpoint.fastcore._carwars",
            ["fastcore/_carwars.pyx"],
            # _cwcore.pxd: what both kernels share (cimported); _layout.pxi: generated from fastcore/layout.toml
            depends=["fastcore/hp_dice.h", "fastcore/_cwcore.pxd", "fastcore/_layout.pxi", "fastcore/_cwfightdrive.pxi",
                     "fastcore/_cwgeom.pxd", "fastcore/_cwshape.pxd", "fastcore/_cwtohit.pxd", "fastcore/_cwdrive.pxd",
                     "fastcore/_cwmotion.pxd"],
            include_dirs=["fastcore"],
            # -O2 and no -fwrapv (which CPython passes to extensions; the kernels never rely on signed overflow): on these
            # branchy kernels -O3 measured 3-10% slower and -fwrapv 3% slower (docs/performance.md); no contraction into
            # fused multiply-adds: fights that drive work out geometry that must match the reference's bit for bit
            extra_compile_args=["-O2", "-fno-wrapv", "-g0", "-ffp-contract=off"],
        ),
        Extension(
            "hardpoint.fastcore._cwcheck",
            ["fastcore/_cwcheck.pyx"],
            depends=["fastcore/_cwgeom.pxd", "fastcore/_cwdrive.pxd"],
            include_dirs=[numpy.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            # the test wrappers of the driver's parts (tests/test_drive_kernel_parts.py): the fight kernel's flags, and
            # no contraction into fused multiply-adds (the .pxd must match geometry.py and driving.py bit for bit)
            extra_compile_args=["-O2", "-fno-wrapv", "-g0", "-ffp-contract=off"],
        ),
        Extension(
            "hardpoint.fastcore._cwmotioncheck",
            ["fastcore/_cwmotioncheck.pyx"],
            depends=["fastcore/_cwgeom.pxd", "fastcore/_cwdrive.pxd", "fastcore/_cwmotion.pxd"],
            include_dirs=[numpy.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            # the test wrappers of the compiled movement of a phase (tests/test_drive_kernel_motion.py): the fight
            # kernel's flags, no fused multiply-adds (the .pxd must match motion.py bit for bit)
            extra_compile_args=["-O2", "-fno-wrapv", "-g0", "-ffp-contract=off"],
        ),
        Extension(
            "hardpoint.fastcore._cwtohitcheck",
            ["fastcore/_cwtohitcheck.pyx"],
            depends=["fastcore/_cwgeom.pxd", "fastcore/_cwshape.pxd", "fastcore/_cwtohit.pxd"],
            # the test wrapper of the compiled to-hit of fights that drive (tests/test_drive_kernel_tohit.py): the fight
            # kernel's flags, no fused multiply-adds
            extra_compile_args=["-O2", "-fno-wrapv", "-g0", "-ffp-contract=off"],
        ),
        Extension(
            "hardpoint.fastcore._lof",
            ["fastcore/_lof.pyx"],
            depends=["fastcore/_cwshape.pxd"],
            # no contraction into fused multiply-adds: the figures must match geometry.py bit for bit
            extra_compile_args=["-O3", "-g0", "-ffp-contract=off"],
        ),
    ],
    compiler_directives={"language_level": "3", "boundscheck": False, "wraparound": False, "cdivision": True},
    include_path=[".", "fastcore"],      # the header-only .pxd of fastcore/ (`from _cwcore cimport ...`, `from _cwdrive cimport ...`)
)
# cythonize() drops optional=True; set it afterwards so a machine without a C
# compiler still installs the pure-Python reference (ENGINEERING.md).
for ext in extensions:
    ext.optional = True

# hardpoint's subpackages are the folders of pyapi/ that hold an __init__.py; the folders of seeds/ are data
# packages (TOML, JSON), listed so that setuptools ships them without guessing.
subpackages = sorted(p.parent.name for p in Path("pyapi").glob("*/__init__.py"))
data_folders = sorted(p.name for p in Path("seeds").iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))

setup(
    packages=["hardpoint", *(f"hardpoint.{name}" for name in subpackages), "hardpoint.fastcore", "hardpoint.seeds",
              *(f"hardpoint.seeds.{name}" for name in data_folders)],
    package_dir={"hardpoint": "pyapi", "hardpoint.fastcore": "fastcore", "hardpoint.seeds": "seeds"},
    package_data={"hardpoint": ["py.typed"], "hardpoint.capi": ["*.h"], "hardpoint.seeds": ["*.toml", "*.json"],
                  **{f"hardpoint.seeds.{name}": ["*.toml", "*.json"] for name in data_folders},
                  "hardpoint.fastcore": ["*.pyx", "*.pxd", "*.pxi", "*.h", "*.toml"]},
    # package_data lists every installed data file; MANIFEST.in adds the profile-guided build's training set to the
    # sdist only (the build reads it; it is not installed)
    include_package_data=False,
    # the C that Cython generates is a build product, not a source to ship (the .pyx are)
    cmdclass={"build_py": BuildPy, "build_ext": BuildExt},
    ext_modules=extensions,
    zip_safe=False,
)
