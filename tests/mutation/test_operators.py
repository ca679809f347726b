"""The mutation operators on small sources: what is mutated, what is not, and how a mutant is applied."""
from __future__ import annotations

import ast
import textwrap

from .operators import apply_mutation, find_mutations, rule_id

SOURCE = textwrap.dedent('''\
    """Toy rules (TOY-01, TOY-02)."""
    from __future__ import annotations

    __all__ = ["needed", "_helper"]
    LIMIT = 0x10


    def needed(base: int, mods: list[int]) -> int:
        """TOY-02: the number needed; a natural 2 always misses."""
        total = base - sum(_helper(mods))
        if total < 2 and not mods:
            return 2
        return total


    def _helper(xs):
        out = []
        for x in xs:
            if x is None:
                continue
            if x > 9:
                break
            out.append(min(x, 6))
        return out


    def roll_all(xs):
        """No id of its own, and no caller with one: the module's."""
        return needed(3, _helper(xs)) * 2 // 3 if xs else 0


    @dataclass(frozen=True)
    class Dice:
        """TOY-04: dice."""

        def __repr__(self):
            return f"Dice({1 + 1})"

        def total(self, faces, bonus=1):
            t = 0
            for f in faces:
                t += f
            assert t >= 0
            if t > 99:
                raise ValueError(f"too big: {t + 1}")
            Note(f"total {t * 2}")
            return t + bonus == 7 or -t
''')


def muts():
    return find_mutations(SOURCE, "pyapi/toy.py")


def kinds(line):
    return sorted((m.operator, m.before, m.after) for m in muts() if m.line == line)


def test_operator_families_on_a_rule():
    """Comparison neighbours, arithmetic, constants, and/or, not removal, if negation, return None."""
    assert ("compare", "total < 2", "(total <= 2)") in kinds(11)
    assert ("bool", "total < 2 and not mods", "(total < 2 or not mods)") in kinds(11)
    assert ("bool", "not mods", "(mods)") in kinds(11)
    assert ("if", "total < 2 and not mods", "(not (total < 2 and not mods))") in kinds(11)
    assert {("constant", "2", "(3)"), ("constant", "2", "(1)"), ("constant", "2", "(0)")} <= set(kinds(11))
    assert ("arith", "base - sum(_helper(mods))", "(base + sum(_helper(mods)))") in kinds(10)
    assert ("return", "return total", "return None") in kinds(13)
    assert ("return", "return 2", "return None") in kinds(12)


def test_loops_collections_and_minmax():
    """break <-> continue, an append removed, min <-> max, `is` <-> `is not`."""
    assert ("loop", "continue", "break") in kinds(20)
    assert ("loop", "break", "continue") in kinds(22)
    assert ("compare", "x is None", "(x is not None)") in kinds(19)
    assert ("remove", "out.append(min(x, 6))", "pass") in kinds(23)
    assert ("minmax", "min", "max") in kinds(23)


def test_augmented_assignment_removed_or_flipped_and_default_mutated():
    line = next(i for i, t in enumerate(SOURCE.splitlines(), 1) if "t += f" in t)
    assert ("remove", "t += f", "pass") in kinds(line)
    assert ("arith", "+=", "-=") in kinds(line)
    defline = next(i for i, t in enumerate(SOURCE.splitlines(), 1) if "def total" in t)
    assert ("constant", "1", "(2)") in kinds(defline)


def test_precedence_kept_by_parentheses_and_hex_constants():
    """A mutated expression is parenthesised so its neighbours keep their grouping; hex stays hex."""
    line = next(i for i, t in enumerate(SOURCE.splitlines(), 1) if "* 2 // 3" in t)
    assert ("arith", "needed(3, _helper(xs)) * 2 // 3", "(needed(3, _helper(xs)) * 2 / 3)") in kinds(line)
    assert ("if", "xs", "(not (xs))") in kinds(line)
    assert ("constant", "0x10", "(0x11)") in kinds(5)
    last = len(SOURCE.splitlines())
    assert ("arith", "-t", "(t)") in kinds(last)
    assert ("compare", "t + bonus == 7", "(t + bonus != 7)") in kinds(last)


def test_never_mutated():
    """Docstrings, annotations, __all__, __repr__, assert, a raise's message, f-strings, Note text."""
    lines = SOURCE.splitlines()
    skipped = [i for i, t in enumerate(lines, 1)
               if any(k in t for k in ('"""', "__all__", "Dice({1 + 1})", "assert", "Note("))]
    assert skipped
    assert not [m for m in muts() if m.line in skipped]
    # a raise is left out whole (`raise`), never its message
    line = next(i for i, t in enumerate(lines, 1) if "raise" in t)
    assert kinds(line) == [("raise", 'raise ValueError(f"too big: {t + 1}")', "pass")]
    assert not [m for m in muts() if "list[int]" in m.before or "-> int" in m.before]
    # the `if` guarding the raise is a rule and is mutated
    guard = next(i for i, t in enumerate(lines, 1) if "if t > 99" in t)
    assert ("compare", "t > 99", "(t >= 99)") in kinds(guard)


def test_decorators_are_left_out_one_at_a_time():
    """A decorator of a function or class becomes the identity (`decorator`): the class undecorated."""
    line = next(i for i, t in enumerate(SOURCE.splitlines(), 1) if "@dataclass" in t)
    assert kinds(line) == [("decorator", "dataclass(frozen=True)", "(lambda f: f)")]
    mutated = apply_mutation(SOURCE, next(m for m in muts() if m.operator == "decorator"))
    assert "@(lambda f: f)" in mutated and "@dataclass" not in mutated


def test_every_mutant_parses_and_changes_only_its_span():
    for m in muts():
        mutated = apply_mutation(SOURCE, m)
        ast.parse(mutated)
        assert mutated != SOURCE
        # everything outside the edited lines is as it was
        a, b = SOURCE.splitlines(), mutated.splitlines()
        assert a[:m.line - 1] == b[:m.line - 1]


def test_rule_ids_function_class_caller_module():
    """The rule id comes from the function's docstring, else its class's, else a caller's, else the module's."""
    by_fn = {m.function: m.rule for m in muts()}
    assert by_fn["needed"] == "TOY-02"
    assert by_fn["Dice.total"] == "TOY-04"
    assert by_fn["_helper"] == "TOY-02"  # a helper serves the rule of the function that calls it
    assert by_fn["roll_all"] == "TOY-01"
    assert by_fn[""] == "TOY-01"  # module level: LIMIT
    assert rule_id("the reference (ARCH-03), rule CW-LOF-02") == "CW-LOF-02"
    assert rule_id("Bail Out (D15.53) and A7.8") == "D15.53"
    assert rule_id("no id here") == ""


def test_deterministic_and_indexed():
    a, b = muts(), muts()
    assert a == b
    assert [m.index for m in a] == list(range(len(a)))
    assert len({m.id for m in a}) == len(a)
