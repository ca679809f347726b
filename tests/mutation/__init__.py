"""Mutation testing of the reference rules (issue 19): ``python -m tests.mutation --help``.

Not a test module: pytest collects only the ``test_*.py`` files here, which
check the operators and the runner on a tiny fixture and never start a
campaign. docs/testing.md says how to run one and keeps the measured table.
"""
