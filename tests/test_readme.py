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


def test_front_door_module_examples():
    """The front door's docstring examples (api, results, ruleset) give what they show."""
    import hardpoint.api
    import hardpoint.results
    import hardpoint.ruleset

    for module in (hardpoint.api, hardpoint.results, hardpoint.ruleset):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
