"""The HTML trace in a real headless browser (Debian's Chromium; skipped when absent)."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from conftest import CHROMIUM_ARGS, EXAMPLES
from grader import grade, load
from grader.output.html import trace_html
from grader.output.render import HIGHLIGHT_COLOURS

BROWSER = next(
    (shutil.which(name) for name in ("chromium", "chromium-browser") if shutil.which(name)), None
)
pytestmark = pytest.mark.skipif(BROWSER is None, reason="chromium is not installed")


def screenshot(page, tmp_path, width=900, height=9000) -> np.ndarray:
    """The page as the browser draws it: an RGB array in 0..255."""
    from matplotlib.image import imread

    tmp_path.mkdir(parents=True, exist_ok=True)
    html = tmp_path / "trace.html"
    html.write_text(page, encoding="utf-8")
    shot = tmp_path / "shot.png"
    command = [
        BROWSER,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--force-device-scale-factor=1",
        f"--user-data-dir={tmp_path / 'profile'}",
        f"--window-size={width},{height}",
        f"--screenshot={shot}",
        html.as_uri(),
    ]
    subprocess.run(command, capture_output=True, timeout=120, check=False)
    assert shot.exists(), "the browser wrote no screenshot"
    return (imread(str(shot))[:, :, :3] * 255).round().astype(int)


def rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])


def pixels_of(image: np.ndarray, colour: str) -> int:
    return int((np.abs(image - rgb(colour)).sum(axis=2) <= 6).sum())


def board_outlines(image: np.ndarray, min_run: int = 150) -> int:
    """Horizontal dark bands at least ``min_run`` pixels wide: a board's top and bottom edges."""
    dark = (image.sum(axis=2) < 150).astype(np.int32)
    sums = np.cumsum(np.pad(dark, ((0, 0), (1, 0))), axis=1)
    rows = ((sums[:, min_run:] - sums[:, :-min_run]) == min_run).any(axis=1)
    starts = rows & ~np.concatenate(([False], rows[:-1]))
    return int(starts.sum())


def test_browser_draws_every_board_of_the_trace(tmp_path):
    result = grade(load(str(EXAMPLES / "binairo.json"))[0])
    boards = len(result.steps) + 2  # start, each step, end
    image = screenshot(trace_html([result]), tmp_path, height=400 * boards + 1200)
    assert board_outlines(image) == 2 * boards
    cell = 40
    for role in ("changed", "used", "unit"):
        # every step board has a concluded cell; the others appear in most steps
        assert pixels_of(image, HIGHLIGHT_COLOURS[role]) > cell * cell, role
    changed_cells = pixels_of(image, HIGHLIGHT_COLOURS["changed"]) / (cell - 2) ** 2
    # the placed symbol and the unit's outline now cover part of each concluded cell's tint
    assert changed_cells >= 0.6 * len(result.steps)


def test_browser_opens_the_lookahead_chains(tmp_path):
    from grader import GradeOptions

    puzzle = load(str(EXAMPLES / "tango.json"))[0]
    left_out = "-line-enumeration,-short-contradiction,-equal-pair"  # so that lookahead fires
    result = grade(puzzle, GradeOptions(techniques=left_out))
    chains = sum(1 for step in result.steps if step.data.get("chain"))
    assert chains > 0
    page = trace_html([result])
    assert page.count("<details>") == chains
    boards = len(result.steps) + 2
    height = 400 * boards + 1200 + 300 * chains
    closed = screenshot(page, tmp_path / "closed", height=height)
    all_open = page.replace("<details>", "<details open>")
    opened = screenshot(all_open, tmp_path / "open", height=height)
    assert board_outlines(opened) == board_outlines(closed) == 2 * boards
    ink = (closed.sum(axis=2) < 300).sum(), (opened.sum(axis=2) < 300).sum()
    assert ink[1] > ink[0] + 200  # the chains' steps are drawn once opened


def launch_chromium(playwright):
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    return playwright.chromium.launch(executable_path=BROWSER, args=CHROMIUM_ARGS)


def test_the_trace_steps_through_its_solve_with_the_keys_and_buttons(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    result = grade(load(str(EXAMPLES / "binairo.json"))[0])
    page_file = tmp_path / "trace.html"
    page_file.write_text(trace_html([result]), encoding="utf-8")
    frames = len(result.steps) + 2  # start, each step, end
    with sync_api.sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page()
        page.goto(page_file.as_uri())
        visible = page.locator(".frame:visible")
        assert visible.count() == frames  # the whole list until one steps
        page.keyboard.press("ArrowRight")
        assert visible.count() == 1 and "start" in page.locator("nav .at").inner_text()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        shown = visible.first
        assert shown.get_attribute("id").endswith("-step-2")
        assert shown.locator("svg.board").count() == 1
        assert result.steps[1].technique in shown.inner_text()
        page.click("nav .prev")
        assert visible.first.get_attribute("id").endswith("-step-1")
        for _ in range(frames + 3):  # past the end: it stays on the end board
            page.keyboard.press("ArrowRight")
        assert visible.count() == 1 and "end" in (visible.first.get_attribute("class") or "")
        page.click("nav .all")
        assert visible.count() == frames
        browser.close()
