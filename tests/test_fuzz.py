"""Fuzzing the loaders and ``grade``: random files are graded or refused with one line."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzzing import check_dict, check_file, json_values, mutated_examples, puzzle_dicts

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FUZZ
@given(puzzle_dicts())
def test_random_puzzle_dicts_are_graded_or_refused(data):
    check_dict(data)


@FUZZ
@given(json_values)
def test_any_json_value_is_graded_or_refused(data):
    check_dict(data)


@FUZZ
@given(mutated_examples())
def test_mutated_example_files_are_graded_or_refused(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "puzzle.json"
    path.write_text(text)
    check_file(path)


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes_are_refused_or_read(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("fuzz") / "puzzle.txt"
    path.write_bytes(raw)
    check_file(path)
