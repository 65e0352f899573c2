"""The workbench page of ``grader serve`` used on every family as a setter and a solver: edits
undone and redone, the work shown while a grade runs, hints where no step applies, and the
errors a user sees. Playwright driving Debian's Chromium (never a downloaded one); skipped
when /usr/bin/chromium is absent."""

from __future__ import annotations

import json

import pytest

from conftest import EXAMPLES
from serving import (
    CHROMIUM,
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
WAIT_MS = 20_000
GRID_EXAMPLES = ["binairo.json", "tango.json", "sudoku.json", "siteswap_3x4.json", "pairplace.json"]


@pytest.fixture(scope="module")
def server():
    with running_server("--workers", "2") as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser, server):
    with workbench_page(browser, server) as opened:
        yield opened


def regraded(page, act) -> None:
    """Do ``act`` and wait for the grade it starts."""
    done = page.evaluate("state.graded")
    act()
    page.wait_for_function("n => state.graded > n", arg=done, timeout=WAIT_MS)
    wait_for_grade(page)


def solutions(page) -> str:
    return shown(page, "solutions")


def puzzle_shown(page) -> dict:
    """The puzzle on the board, as the page's JSON field holds it."""
    return json.loads(page.input_value("#json"))


def first_given(grid: list[str]) -> tuple[int, int]:
    return next((r, c) for r, line in enumerate(grid) for c, s in enumerate(line) if s != ".")


@pytest.mark.parametrize("name", GRID_EXAMPLES)
def test_a_cleared_given_is_undone_and_redone_with_the_keys(page, name):
    original = json.loads((EXAMPLES / name).read_text())
    paste(page, json.dumps(original))
    row, col = first_given(original["grid"])
    click_cell(page, row, col)
    regraded(page, lambda: page.keyboard.press("Backspace"))
    assert puzzle_shown(page)["grid"][row][col] == "."
    regraded(page, lambda: page.keyboard.press("Control+z"))
    assert puzzle_shown(page)["grid"] == original["grid"]
    assert solutions(page) == "1 (unique)"
    regraded(page, lambda: page.keyboard.press("Control+y"))
    assert puzzle_shown(page)["grid"][row][col] == "."


def test_a_path_clue_edit_is_undone_with_the_button(page):
    original = json.loads((EXAMPLES / "path.json").read_text())
    paste(page, json.dumps(original))
    regraded(page, lambda: page.fill('#extras [data-key="row_clues"]', ",,,,,"))
    assert solutions(page).startswith("2+")
    regraded(page, lambda: page.click("#undo"))
    assert puzzle_shown(page)["row_clues"] == original["row_clues"]
    assert page.input_value('#extras [data-key="row_clues"]') == ",1,,3,1,"
    assert solutions(page) == "1 (unique)"
    assert page.locator("#redo").is_enabled()


def test_a_grade_started_by_a_load_shows_its_progress_and_can_be_cancelled(page):
    held = []
    page.route("**/api/grade", lambda route: held.append(route))  # a grade that takes long
    page.fill("#paste", (EXAMPLES / "tango.json").read_text())
    page.click("#load")
    page.wait_for_function("document.querySelector('#json').value.includes('tango')")
    page.wait_for_function("document.querySelector('#busy-text').textContent.includes('grading')")
    assert page.locator("#busy").is_visible()
    page.click("#cancel")
    page.wait_for_selector("#busy", state="hidden")
    assert page.locator("#error").inner_text() == "cancelled"
    assert held  # the grade was asked for, and is left unanswered


@pytest.mark.parametrize(
    "puzzle",
    [
        {"family": "sudoku", "grid": ["1234", "3412", "2143", "4321"]},  # solved: no step left
        {"family": "binairo", "grid": ["111.", "....", "....", "...."]},  # breaks a rule
        {"family": "tango", "grid": ["SSS.", "....", "....", "...."], "signs": []},
    ],
)
def test_a_hint_with_no_step_shows_the_puzzle_and_no_error(page, puzzle):
    paste(page, json.dumps(puzzle))
    with page.expect_response(lambda answer: "/api/render" in answer.url) as drawn:
        page.click("#hint")
    assert drawn.value.ok
    page.wait_for_function("document.querySelector('#where').textContent === 'next hint'")
    assert page.locator("#sentence").inner_text() != ""
    assert page.locator("#error").inner_text() == ""
    assert page.locator("#board svg").count() == 1


def test_a_board_that_could_not_be_drawn_is_forgotten_once_one_is(page):
    paste(page, json.dumps({"family": "binairo", "grid": ["....", "....", "....", "...."]}))
    page.click("#solution")
    page.wait_for_function("document.querySelector('#error').textContent.includes('2+')")
    with page.expect_response(lambda answer: "/api/render" in answer.url) as drawn:
        page.click("#first")
    assert drawn.value.ok
    page.wait_for_function("document.querySelector('#where').textContent === 'puzzle'")
    assert page.locator("#error").inner_text() == ""


def test_a_server_that_does_not_answer_is_named_in_a_line(page):
    paste(page, (EXAMPLES / "sudoku.json").read_text())
    page.route("**/api/grade", lambda route: route.abort())
    click_cell(page, 0, 2)
    page.keyboard.press("4")
    page.wait_for_function("document.querySelector('#error').textContent !== ''")
    assert page.locator("#error").inner_text() == (
        "/api/grade: the server did not answer (is grader serve still running?)"
    )
    page.unroute("**/api/grade")
