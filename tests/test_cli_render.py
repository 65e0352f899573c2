"""`grader render` and `grade --html` as a user runs them: files written whole, never over
an existing file without --force, one-line errors."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from test_cli import empty_binairo, run

from conftest import EXAMPLES


def test_render_writes_svg_and_png(tmp_path):
    svg = tmp_path / "board.svg"
    result = run("grader", "render", str(EXAMPLES / "tango.json"), "-o", str(svg))
    assert result.returncode == 0, result.stderr
    root = ET.fromstring(svg.read_text())
    assert root.tag.endswith("svg")
    png = tmp_path / "board.png"
    result = run("grader", "render", str(EXAMPLES / "binairo.json"), "--solve", "-o", str(png))
    assert result.returncode == 0, result.stderr
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.png", "board.svg"]


def test_render_refuses_to_overwrite_without_force(tmp_path):
    target = tmp_path / "board.svg"
    target.write_text("keep me")
    result = run("grader", "render", str(EXAMPLES / "tango.json"), "-o", str(target))
    assert result.returncode == 2
    assert "already exists" in result.stderr and "--force" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert target.read_text() == "keep me"
    result = run("grader", "render", str(EXAMPLES / "tango.json"), "-o", str(target), "--force")
    assert result.returncode == 0 and target.read_text().startswith("<?xml")


def test_render_step_highlights_and_bad_requests(tmp_path):
    target = tmp_path / "step.svg"
    result = run("grader", "render", str(EXAMPLES / "tango.json"), "--step", "3", "-o", str(target))
    assert result.returncode == 0, result.stderr
    assert "#8fdc9c" in target.read_text()  # the concluded cell
    for args, words in (
        (("--step", "999"), "--step"),
        (("--index", "5"), "--index"),
    ):
        out = tmp_path / "x.svg"
        result = run("grader", "render", str(EXAMPLES / "tango.json"), *args, "-o", str(out))
        assert result.returncode == 2 and words in result.stderr, result.stderr
        assert not out.exists()
    result = run("grader", "render", str(EXAMPLES / "tango.json"), "-o", str(tmp_path / "x.gif"))
    assert result.returncode == 2 and "x.gif" in result.stderr
    result = run("grader", "render", str(tmp_path / "missing.json"), "-o", str(tmp_path / "m.svg"))
    assert result.returncode == 2 and "missing.json" in result.stderr
    assert "Traceback" not in result.stderr


def test_render_says_when_timeout_cut_the_solve_short(tmp_path):
    big = str(empty_binairo(tmp_path))
    target = tmp_path / "partial.svg"
    result = run("grader", "render", big, "--solve", "--timeout", "1", "-o", str(target))
    assert result.returncode == 3, result.stderr
    assert result.stderr.strip() == (
        f"wrote {target} (the solve was cut short by --timeout: partial)"
    )
    assert target.read_text().startswith("<?xml")
    target = tmp_path / "step.svg"
    result = run("grader", "render", big, "--step", "1", "--timeout", "1", "-o", str(target))
    assert result.returncode == 3, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "cut short by --timeout after 0 step(s), before step 1" in result.stderr
    assert "the solve has" not in result.stderr and not target.exists()
    result = run(
        "grader",
        "render",
        str(EXAMPLES / "tango.json"),
        "--solve",
        "--timeout",
        "30",
        "-o",
        str(tmp_path / "whole.svg"),
    )
    assert result.returncode == 0 and "partial" not in result.stderr, result.stderr


def test_grade_html_writes_one_page_for_all_puzzles(tmp_path):
    page = tmp_path / "trace.html"
    files = (str(EXAMPLES / "binairo.json"), str(EXAMPLES / "binairo-unique.json"))
    result = run("grade", *files, "--html", str(page))
    assert result.returncode == 0, result.stderr
    text = page.read_text()
    assert text.count('<article class="puzzle"') == 2 and text.count("<svg") > 10
    again = run("grade", str(EXAMPLES / "binairo.json"), "--html", str(page))
    assert again.returncode == 2 and "already exists" in again.stderr
