"""The README's Python examples run as doctests (STYLE 10)."""
import doctest
import pathlib

import hardpoint

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_readme_examples():
    """The README's >>> examples give what they show."""
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_package_docstring_examples():
    """hardpoint's own docstring examples give what they show."""
    result = doctest.testmod(hardpoint)
    assert result.failed == 0
