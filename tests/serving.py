"""A ``grader serve`` started for tests on a free port, stopped afterwards."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(process: subprocess.Popen, port: int, seconds: float = 60.0) -> None:
    """Wait until the server answers on ``port`` (fail if it ends first)."""
    import httpx

    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        if process.poll() is not None:
            pytest.fail(f"grader serve ended ({process.returncode}): {process.stderr.read()}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/about", timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.2)
    pytest.fail("grader serve did not answer within a minute")


@contextmanager
def running_server(*options: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """The address of a server started with ``options``, and its process."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", "from grader.cli import grader_main; grader_main()", "serve",
         "--port", str(port), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )  # fmt: skip
    try:
        wait_until_up(process, port)
        yield f"http://127.0.0.1:{port}", process
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(child) for child in text]
    return found


CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which Playwright drives in the browser tests (never a downloaded one)."""


@contextmanager
def chromium() -> Iterator[object]:
    """Playwright's Chromium, launched from :data:`CHROMIUM` (skips without Playwright)."""
    from conftest import CHROMIUM_ARGS

    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


PAGE_WAIT_MS = 60_000
"""How long a browser test waits for the page (a grade, a drawing) before it fails."""


@contextmanager
def workbench_page(browser, url: str) -> Iterator[object]:
    """A page of the workbench at ``url``, once its first grade is shown; on leaving, no
    script error may have happened on it."""
    # the page's CSP forbids eval, which wait_for_function of a text uses
    opened = browser.new_page(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(str(error)))
    opened.goto(url)
    wait_for_grade(opened)
    yield opened
    opened.close()
    assert problems == []


def wait_for_grade(page) -> None:
    """Until the grade of the puzzle on the board is shown (nothing is being worked on)."""
    page.wait_for_selector('#summary dd[data-key="solutions"]', timeout=PAGE_WAIT_MS)
    page.wait_for_selector("#busy", state="hidden", timeout=PAGE_WAIT_MS)


def shown(page, key: str) -> str:
    """What the report shows for ``key`` (solutions, level, difficulty...)."""
    return page.locator(f'#summary dd[data-key="{key}"]').inner_text()


def paste(page, text: str) -> None:
    """Paste ``text`` and load it; wait for its grade."""
    done = page.evaluate("state.graded")
    page.fill("#paste", text)
    page.click("#load")
    page.wait_for_function("n => state.graded > n", arg=done, timeout=PAGE_WAIT_MS)
    wait_for_grade(page)


def click_cell(page, row: int, col: int) -> None:
    """Click the centre of cell (row, col) of the board."""
    grid = page.evaluate("state.grid")
    box = page.locator("#board svg").bounding_box()
    width = float(page.locator("#board svg").get_attribute("viewBox").split()[2])
    scale = box["width"] / width
    x = box["x"] + (grid["left"] + (col + 0.5) * grid["cell"]) * scale
    y = box["y"] + (grid["top"] + (row + 0.5) * grid["cell"]) * scale
    page.mouse.click(x, y)
