"""Generation options: a bad value of any family's option is one line naming the option."""

from __future__ import annotations

import subprocess
import sys

import pytest

from grader.core.errors import FieldProblem
from grader.generation.generator import Generator, Request
from grader.rating.registry import families

BAD_VALUES = ("maybe", -1, 2.5, {"a": 1}, [1, 2, 3])
"""Values no option of any family takes."""

CASES = [
    (name, option, value)
    for name, family in sorted(families().items())
    for option in family.options
    for value in BAD_VALUES
]


def test_every_family_with_options_is_covered():
    assert {name for name, _, _ in CASES} == {
        name for name, family in families().items() if family.options
    }
    assert "path" in {name for name, _, _ in CASES}  # decoys is declared


@pytest.mark.parametrize(("name", "option", "value"), CASES)
def test_a_bad_option_value_is_one_problem_naming_the_option(name, option, value):
    family = families()[name]
    with pytest.raises(FieldProblem) as caught:
        Generator(Request(name, family.default_size, "trivial", options={option: value}))
    message = str(caught.value)
    assert option in message and "\n" not in message


@pytest.mark.parametrize("name", sorted(families()))
def test_an_unknown_option_is_refused(name):
    family = families()[name]
    with pytest.raises(FieldProblem, match="bogus"):
        Generator(Request(name, family.default_size, "trivial", options={"bogus": True}))


def test_the_command_refuses_a_bad_rule_in_one_line_with_exit_2():
    code = "import sys; from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"
    result = subprocess.run(
        [sys.executable, "-c", code, "generate", "binairo", "--rule", "unique_lines=maybe"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "error: rules.unique_lines: 'maybe' is not valid: must be true or false\n"
    )
