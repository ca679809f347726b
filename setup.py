"""Build script: maps the project's folders onto the `hardpoint` package (ARCH-01)
and compiles the Cython kernels of fastcore/."""
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = cythonize(
    [
        Extension(
            "hardpoint.fastcore._dice",
            ["fastcore/_dice.pyx"],
            depends=["fastcore/hp_dice.h"],
            include_dirs=[numpy.get_include(), "fastcore"],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            extra_compile_args=["-O3"],
        ),
        Extension(
            "hardpoint.fastcore._carwars",
            ["fastcore/_carwars.pyx"],
            depends=["fastcore/hp_dice.h"],
            include_dirs=["fastcore"],
            extra_compile_args=["-O3"],
        ),
        Extension(
            "hardpoint.fastcore._lof",
            ["fastcore/_lof.pyx"],
            # no contraction into fused multiply-adds: the figures must match geometry.py bit for bit
            extra_compile_args=["-O3", "-ffp-contract=off"],
        ),
    ],
    compiler_directives={"language_level": "3", "boundscheck": False, "wraparound": False, "cdivision": True},
)
# cythonize() drops optional=True; set it afterwards so a machine without a C
# compiler still installs the pure-Python reference (ENGINEERING.md).
for ext in extensions:
    ext.optional = True

# hardpoint's subpackages are the folders of pyapi/ that hold an __init__.py.
subpackages = sorted(p.parent.name for p in Path("pyapi").glob("*/__init__.py"))

setup(
    packages=["hardpoint", *(f"hardpoint.{name}" for name in subpackages), "hardpoint.fastcore", "hardpoint.seeds"],
    package_dir={"hardpoint": "pyapi", "hardpoint.fastcore": "fastcore", "hardpoint.seeds": "seeds"},
    package_data={"hardpoint.seeds": ["*.toml", "*.json", "carwars/*.toml", "asl/*.toml", "scenarios/*.toml", "scenarios/*.json"],
                  "hardpoint.fastcore": ["*.pyx", "*.h"]},
    ext_modules=extensions,
    zip_safe=False,
)
