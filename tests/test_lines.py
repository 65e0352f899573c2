"""The exact per-cell pass of line rules agrees with brute-force enumeration."""

from __future__ import annotations

import random
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from grader.core.lines import LineRule
from rules.binary.lines import TABLE_MAX, BalancedLine, valid_lines


def brute_supports(rule: LineRule, masks: list[int]) -> list[int] | None:
    out = [0] * len(masks)
    found = False
    for values in product((0, 1), repeat=len(masks)):
        if all(m >> v & 1 for m, v in zip(masks, values, strict=True)) and rule.accepts_values(
            values
        ):
            found = True
            for i, v in enumerate(values):
                out[i] |= 1 << v
    return out if found else None


@st.composite
def lines(draw):
    half = draw(st.integers(1, 6))
    length = 2 * half
    signs = {}
    for i in range(length - 1):
        sign = draw(st.sampled_from([None, None, None, "=", "x"]))
        if sign:
            signs[i] = sign
    masks = draw(st.lists(st.sampled_from([1, 2, 3, 3, 3]), min_size=length, max_size=length))
    return BalancedLine(length, signs), masks


@settings(max_examples=400, deadline=None)
@given(lines())
def test_balanced_supports_match_enumeration(case):
    rule, masks = case
    assert rule.supports(masks) == brute_supports(rule, masks)


@settings(max_examples=200, deadline=None)
@given(lines())
def test_generic_automaton_pass_matches_fast_pass(case):
    rule, masks = case
    generic = LineRule.supports(rule, masks)
    assert generic == rule.supports(masks)
    assert rule.count(masks) == len(rule.completions(masks))


def test_long_line_is_not_exponential():
    rule = BalancedLine(100)
    masks = [3] * 100
    masks[0] = masks[1] = 2  # two 1s at the start
    support = rule.supports(masks)
    assert support is not None
    assert support[2] == 1  # the third cell must be 0
    assert BalancedLine(20).count([3] * 20) == 8196  # A177790: valid rows of length 20


def test_violation_names_the_visible_break():
    rule = BalancedLine(6, names=("0", "1"))
    assert rule.violation([1, 1, 1, 3, 3, 3]) == "holds three 0s in a row"
    assert rule.violation([2, 3, 2, 3, 2, 2]) == "holds four 1s, more than half"
    ten = BalancedLine(10, names=("0", "1"))  # counts are words, as in every sentence
    assert ten.violation([2, 2, 1, 2, 2, 1, 2, 2, 1, 3]) == "holds six 1s, more than half"
    assert rule.violation([1, 2, 1, 2, 3, 3]) is None


@st.composite
def table_lines(draw):
    """Lines up to the table's longest, any masks (an empty cell included)."""
    length = 2 * draw(st.integers(1, TABLE_MAX // 2))
    signs = {}
    for i in range(length - 1):
        sign = draw(st.sampled_from([None, None, None, None, "=", "x"]))
        if sign:
            signs[i] = sign
    masks = draw(st.lists(st.sampled_from([0, 1, 2, 3, 3, 3, 3]), min_size=length, max_size=length))
    return BalancedLine(length, signs), masks


@settings(max_examples=300, deadline=None)
@given(table_lines())
def test_table_of_valid_lines_matches_run_pass(case):
    """The two exact passes a balanced line may take agree (the table below TABLE_MAX)."""
    rule, masks = case
    assert rule.supports_by_table(masks) == rule.supports_by_runs(masks)


def test_valid_lines_are_every_valid_line():
    """As many as the automaton counts (A177790's 8196 at 20 is checked above), all valid."""
    for length in range(2, TABLE_MAX + 1, 2):
        rule = BalancedLine(length, {0: "x", length - 2: "="})
        lines = valid_lines(length, rule.sign_key)
        assert len(lines) == rule.count([3] * length)
        assert all(rule.accepts_values([line >> i & 1 for i in range(length)]) for line in lines)
    assert len(valid_lines(14, ())) == BalancedLine(14).count([3] * 14) == 518


def test_a_whole_binary_line_is_judged_as_the_automaton_judges_it() -> None:
    """BalancedLine.accepts_values (byte counts, the check of every solved grid) agrees with the
    automaton it stands for on every line of up to 10 cells, signs or none."""
    rng = random.Random(5)
    for length in (2, 4, 6, 8, 10):
        for trial in range(12):
            signs = {i: rng.choice("=x") for i in range(length - 1) if trial and rng.random() < 0.3}
            rule = BalancedLine(length, signs)
            for values in product((0, 1), repeat=length):
                line = list(values)
                assert rule.accepts_values(line) == LineRule.accepts_values(rule, line)
            assert not rule.accepts_values([0] * (length - 1))  # too short
