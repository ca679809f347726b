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


def test_fight_06_the_readme_duel_figures_are_what_hardpoint_duel_gives():
    """FIGHT-06, FIGHT-11: the README's first example, `hardpoint duel hunter stinger` (100,000 trials, seed 1), on
    the compiled core: the who-wins figures it shows, as the command shows them (none as "0 of 100,000"), and P(win)
    within 0.005 at 95%."""
    import re

    from hardpoint.duel import duel
    from hardpoint.results import shown_probability

    b = duel("hunter", "stinger", trials=100_000, seed=1)
    assert b.backend == "compiled"
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for label in ("hunter wins", "stinger wins", "draw (nobody left in action)", "undecided after 20 turns"):
        m = re.search(re.escape(label) + r"\s*│\s*([^│]+?) │\s*([^│]+?) │", text)
        assert m, label
        o = next(o for o in b.probabilities() if o.name() == label)
        assert shown_probability(o.count, o.n) == m.groups(), label
        lo, hi = o.interval()
        assert hi - lo <= 0.01
