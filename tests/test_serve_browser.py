"""The workbench page of ``grader serve`` in a real browser: Playwright driving Debian's
Chromium (never a downloaded one); skipped when /usr/bin/chromium is absent."""

from __future__ import annotations

import json

import pytest

from conftest import EXAMPLES
from grader.core.exact import count_solutions
from grader.rating.grading import GradeOptions, grade
from grader.rating.loading import puzzle_from_dict
from serving import (
    CHROMIUM,
    PAGE_WAIT_MS,
    chromium,
    click_cell,
    paste,
    running_server,
    shown,
    wait_for_grade,
    workbench_page,
)

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is not installed"
)
EXAMPLE_FILES = sorted(p.name for p in EXAMPLES.glob("*.json"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    bank = tmp_path_factory.mktemp("bank") / "bank.db"
    with running_server("--bank", str(bank), "--workers", "2") as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser, server):
    with workbench_page(browser, server) as opened:
        yield opened


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_a_pasted_example_is_graded_as_grade_grades_it(page, name):
    text = (EXAMPLES / name).read_text()
    paste(page, text)
    expected = grade(puzzle_from_dict(json.loads(text), "x", "x"), GradeOptions(timeout=10.0))
    assert shown(page, "level") == expected.level
    assert float(shown(page, "difficulty")) == round(expected.difficulty, 2)
    solutions = {1: "1 (unique)", 0: "0 (no solution)", "2+": "2+ (not unique)"}
    assert shown(page, "solutions") == solutions[expected.solutions]
    assert page.locator("#board svg").count() == 1
    assert page.locator("#error").inner_text() == ""


def test_stepping_forward_and_back_draws_each_step_with_its_sentence(page):
    paste(page, (EXAMPLES / "binairo.json").read_text())
    report = page.evaluate("state.report")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#where').textContent.startsWith('step 1')")
    page.wait_for_selector("#board svg [fill='#8fdc9c']")  # the step's conclusion, highlighted
    assert report["steps"][0]["explanation"] in page.locator("#sentence").inner_text()
    page.click("#next")
    page.wait_for_function("document.querySelector('#where').textContent.startsWith('step 2')")
    assert report["steps"][1]["explanation"] in page.locator("#sentence").inner_text()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#where').textContent === 'puzzle'")
    page.wait_for_selector("#board svg [fill='#8fdc9c']", state="detached")
    assert page.locator("#sentence").inner_text() == ""


def test_removing_a_given_the_puzzle_needs_makes_it_not_unique(page):
    data = json.loads((EXAMPLES / "binairo.json").read_text())
    paste(page, json.dumps(data))
    assert shown(page, "solutions") == "1 (unique)"
    row, col = needed_given(data)
    click_cell(page, row, col)
    page.keyboard.press("Backspace")
    page.wait_for_function(
        "document.querySelector('#summary dd[data-key=solutions]').textContent.startsWith('2+')",
        timeout=PAGE_WAIT_MS,
    )
    assert json.loads(page.input_value("#json"))["grid"][row][col] == "."
    click_cell(page, row, col)
    page.keyboard.press(data["grid"][row][col])  # typed back: unique again
    page.wait_for_function(
        "document.querySelector('#summary dd[data-key=solutions]').textContent.startsWith('1')",
        timeout=PAGE_WAIT_MS,
    )


def needed_given(data: dict) -> tuple[int, int]:
    """A given without which the puzzle has 2+ solutions (found by the exact search)."""
    for row, line in enumerate(data["grid"]):
        for col, symbol in enumerate(line):
            if symbol == ".":
                continue
            grid = list(data["grid"])
            grid[row] = line[:col] + "." + line[col + 1 :]
            puzzle = puzzle_from_dict({**data, "grid": grid}, "x", "x")
            if count_solutions(puzzle.model, puzzle.givens, 2)[0] >= 2:
                return row, col
    raise AssertionError("every given can go")


def test_tango_signs_and_path_clues_are_edited_in_their_fields(page):
    paste(page, (EXAMPLES / "tango.json").read_text())
    assert shown(page, "solutions") == "1 (unique)"
    page.fill('#extras [data-key="signs"]', "")
    page.wait_for_function(
        "document.querySelector('#summary dd[data-key=solutions]').textContent.startsWith('2+')",
        timeout=PAGE_WAIT_MS,
    )
    assert json.loads(page.input_value("#json"))["signs"] == []
    paste(page, (EXAMPLES / "path.json").read_text())
    page.fill('#extras [data-key="row_clues"]', ",,,,,")
    page.wait_for_function(
        "document.querySelector('#summary dd[data-key=solutions]').textContent.startsWith('2+')",
        timeout=PAGE_WAIT_MS,
    )
    assert json.loads(page.input_value("#json"))["row_clues"] == [None] * 6


def test_a_hint_and_the_solution_are_shown(page):
    paste(page, (EXAMPLES / "sudoku.json").read_text())
    first = page.evaluate("state.report.steps[0].explanation")
    page.click("#hint")
    page.wait_for_function("document.querySelector('#where').textContent === 'next hint'")
    page.wait_for_function(
        "t => document.querySelector('#sentence').textContent.includes(t)", arg=first
    )
    assert page.locator("#sentence").inner_text().startswith("Hint:")
    page.click("#solution")
    page.wait_for_function("document.querySelector('#where').textContent === 'solution'")
    page.wait_for_function(
        "document.querySelectorAll('#board svg text').length >= 81", timeout=PAGE_WAIT_MS
    )


def test_generate_then_save_to_the_bank_and_publish(page):
    page.select_option("#family", "binairo")
    page.fill("#size", "6x6")
    page.select_option("#level", "easy")
    page.fill("#seed", "2")
    page.click("#generate")
    page.wait_for_function(
        "document.querySelector('#json').value.includes('binairo-6x6-easy-s2-1')",
        timeout=PAGE_WAIT_MS,
    )
    wait_for_grade(page)
    assert shown(page, "level") == "easy" and shown(page, "solutions") == "1 (unique)"
    page.click("#save")
    page.wait_for_function(
        "document.querySelector('#bank-note').textContent.includes('saved as')",
        timeout=PAGE_WAIT_MS,
    )
    row = page.locator("#bank-list tbody tr").first
    assert row.locator("td").nth(1).inner_text() == "binairo 6x6"
    row.locator("button[data-act=publish]").click()
    page.wait_for_selector("#bank-list tbody tr button[data-act=unpublish]")
    assert page.locator("#bank-list tbody tr").first.locator("td").nth(4).inner_text() != ""


def test_long_work_shows_progress_and_can_be_cancelled(page):
    page.select_option("#family", "sudoku")
    page.select_option("#level", "extreme")
    page.click("#generate")
    page.wait_for_selector("#busy", state="visible")
    page.wait_for_function("document.querySelector('#busy-text').textContent.includes(' s')")
    page.click("#cancel")
    page.wait_for_selector("#busy", state="hidden")
    assert page.locator("#error").inner_text() == "cancelled"
    paste(page, (EXAMPLES / "binairo.json").read_text())  # the server goes on
    assert shown(page, "solutions") == "1 (unique)"
