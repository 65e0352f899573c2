"""Histograms of batch results: what each panel counts, and the command."""

from __future__ import annotations

import random

import pytest
from test_cli import run

from conftest import EXAMPLES
from grader.output.histogram import counted, histogram_figure, level_order, technique_usage
from grader.storage.batch import grade_many
from puzzle_sets import unique_puzzle, write_jsonl


@pytest.fixture(scope="module")
def frame():
    rng = random.Random(8)
    puzzles = [unique_puzzle("tango", 6, rng, signs=rng.randint(2, 8)) for _ in range(25)]
    puzzles += [unique_puzzle("binairo", 6, rng) for _ in range(8)]
    puzzles.append({"family": "tango", "grid": ["S"]})  # an error row: left out of the panels
    return grade_many(puzzles)


def bar_total(axes) -> float:
    return sum(patch.get_height() for patch in axes.patches)


def test_panels_count_every_graded_puzzle_per_family(frame):
    figure = histogram_figure(frame, title="test")
    axes = figure.axes
    assert len(axes) == 2 * 3  # binairo and tango, three panels each
    graded = frame[frame["error"].isna()]
    for row, family in enumerate(["binairo", "tango"]):
        count = int((graded["family"] == family).sum())
        assert bar_total(axes[3 * row]) == count  # difficulty, stacked by level
        assert bar_total(axes[3 * row + 1]) == count  # effort, stacked by level
        legend = [t.get_text() for t in axes[3 * row].get_legend().get_texts()]
        assert legend == level_order(graded[graded["family"] == family], family)
        usage = technique_usage(graded[graded["family"] == family])
        used = usage[usage["puzzles"] > 0]
        widths = sorted(round(p.get_width(), 6) for p in axes[3 * row + 2].patches)
        assert widths == sorted(round(100 * s, 6) for s in used["share"])


def test_technique_usage_counts_puzzles_and_steps(frame):
    graded = frame[frame["error"].isna()]
    usage = technique_usage(graded).set_index("technique")
    assert usage.loc["pair", "puzzles"] == int((graded["technique_pair"] > 0).sum())
    assert usage.loc["pair", "steps"] == int(graded["technique_pair"].sum())
    assert 0 < usage.loc["pair", "share"] <= 1


def test_levels_keep_the_family_order(frame):
    order = level_order(frame[frame["family"] == "tango"], "tango")
    levels = ["trivial", "easy", "normal", "hard", "expert", "extreme"]
    assert order == [x for x in levels if x in order]


def test_histogram_command(tmp_path, frame):
    results = tmp_path / "results.csv"
    frame.to_csv(results, index=False)
    picture = tmp_path / "hist.png"
    result = run("grader", "histogram", str(results), "-o", str(picture))
    assert result.returncode == 0, result.stderr
    assert picture.read_bytes()[:4] == b"\x89PNG"
    again = run("grader", "histogram", str(results), "-o", str(picture))
    assert again.returncode == 2 and "already exists" in again.stderr
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    bad = run("grader", "histogram", str(other), "-o", str(tmp_path / "h.svg"))
    assert bad.returncode == 2 and "other.csv" in bad.stderr and "family" in bad.stderr
    assert not (tmp_path / "h.svg").exists()


def test_histogram_of_a_written_batch_file(tmp_path):
    rng = random.Random(3)
    source = write_jsonl(tmp_path / "p.jsonl", [unique_puzzle("tango", 6, rng) for _ in range(5)])
    out = tmp_path / "r.csv"
    assert run("grader", "batch", str(source), "-o", str(out)).returncode == 0
    result = run("grader", "histogram", str(out), "-o", str(tmp_path / "h.svg"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "h.svg").read_text().lstrip().startswith("<?xml")


def test_titles_and_labels_count_in_the_singular_and_plural(frame):
    assert [counted(n, "puzzle") for n in (0, 1, 2)] == ["0 puzzles", "1 puzzle", "2 puzzles"]
    one = grade_many(str(EXAMPLES / "tango.json"))
    figure = histogram_figure(one)
    assert figure.axes[0].get_title(loc="left") == "tango: difficulty (1 puzzle)"
    usage = technique_usage(one)
    used = usage[usage["puzzles"] > 0]
    assert 1 in set(used["steps"])  # a technique used once: "1 step"
    labels = sorted(t.get_text() for t in figure.axes[2].texts)
    assert labels == sorted(counted(int(n), "step") for n in used["steps"])
    many = histogram_figure(frame)
    count = int((frame["error"].isna() & (frame["family"] == "tango")).sum())
    assert many.axes[3].get_title(loc="left") == f"tango: difficulty ({count} puzzles)"


def test_count_axes_tick_whole_numbers_only():
    """A family of two puzzles: matplotlib alone would tick its count axes 0.2, 0.4, ..."""
    rng = random.Random(2)
    small = grade_many([unique_puzzle("tango", 6, rng) for _ in range(2)])
    figure = histogram_figure(small)
    for axes in figure.axes[:2]:  # difficulty and effort count puzzles
        figure.canvas.draw()
        ticks = [t for t in axes.get_yticks() if axes.get_ylim()[0] <= t <= axes.get_ylim()[1]]
        assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks), ticks
