"""The scenario fuzzer (SAFE-04): documents generated from the JSON Schema and mutations of the built-ins,
run through load, explain, resolve and both batch backends.

Short run: part of `python -m pytest` (tests/fuzz/test_fuzz.py). Long run: `python -m tests.fuzz --help`.
"""
