"""Build script: maps the project's folders onto the `hardpoint` package (ARCH-01)
and compiles the Cython kernels of fastcore/."""
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildPy(build_py):
    """Ship the .pyx sources of the kernels, never the C that Cython generates from them."""

    def find_data_files(self, package, src_dir):
        return [f for f in super().find_data_files(package, src_dir) if not f.endswith(".c")]

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
            depends=["fastcore/hp_dice.h", "fastcore/_layout.pxi"],   # generated from fastcore/layout.toml
            include_dirs=["fastcore"],
            # -O2 and no -fwrapv (which CPython passes to extensions; the kernels never rely on signed overflow): on these
            # branchy kernels -O3 measured 3-10% slower and -fwrapv 3% slower (docs/performance.md)
            extra_compile_args=["-O2", "-fno-wrapv", "-g0"],
        ),
        Extension(
            "hardpoint.fastcore._lof",
            ["fastcore/_lof.pyx"],
            # no contraction into fused multiply-adds: the figures must match geometry.py bit for bit
            extra_compile_args=["-O3", "-g0", "-ffp-contract=off"],
        ),
    ],
    compiler_directives={"language_level": "3", "boundscheck": False, "wraparound": False, "cdivision": True},
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
                  "hardpoint.fastcore": ["*.pyx", "*.pxi", "*.h", "*.toml"]},
    # the C that Cython generates is a build product, not a source to ship (the .pyx are)
    cmdclass={"build_py": BuildPy},
    ext_modules=extensions,
    zip_safe=False,
)
