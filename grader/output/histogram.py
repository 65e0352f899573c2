"""Histograms of a batch result: difficulty and effort per family and level, and technique
usage. matplotlib is imported only here (and only when a figure is drawn)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from grader.core.units import counted
from grader.output.report_keys import TECHNIQUE_PREFIX
from grader.rating.family import LEVELS, OUTCOMES

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

LEVEL_COLOURS = {
    "trivial": "#9ecae1",
    "easy": "#4eb3d3",
    "normal": "#41ab5d",
    "hard": "#fdae61",
    "expert": "#f46d43",
    "extreme": "#a50026",
    "unsolved": "#969696",
    "invalid": "#252525",
}
"""Colours of the six levels (cool to hot), and of unsolved and invalid puzzles."""


def level_order(frame: pd.DataFrame, family: str | None = None) -> list[str]:
    """The levels present, easiest first (the family's own order, then any others)."""
    from grader.rating.registry import get_family

    known = list(LEVELS)
    if family is not None:
        found = get_family(family)
        if found is not None:
            known = list(found.levels)
    known += OUTCOMES
    present = [str(x) for x in frame["level"].dropna().unique()]
    extra = sorted(x for x in present if x not in known)
    return [x for x in known if x in present] + extra


def colour_of(level: str, index: int) -> str:
    if level in LEVEL_COLOURS:
        return LEVEL_COLOURS[level]
    from matplotlib import colormaps

    red, green, blue, _ = colormaps["tab10"](index % 10)
    return f"#{int(red * 255):02x}{int(green * 255):02x}{int(blue * 255):02x}"


def graded(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows that were graded (no error)."""
    if "error" in frame.columns:
        frame = frame[frame["error"].isna()]
    return frame[frame["level"].notna()]


def technique_usage(frame: pd.DataFrame) -> pd.DataFrame:
    """Per technique: puzzles using it, their share, and all its steps (columns in cost order)."""
    import pandas as pd

    columns = [c for c in frame.columns if c.startswith(TECHNIQUE_PREFIX)]
    counts = frame[columns].fillna(0)
    total = max(1, len(frame))
    return pd.DataFrame(
        {
            "technique": [c[len(TECHNIQUE_PREFIX) :] for c in columns],
            "puzzles": [int((counts[c] > 0).sum()) for c in columns],
            "share": [float((counts[c] > 0).sum()) / total for c in columns],
            "steps": [int(counts[c].sum()) for c in columns],
        }
    )


def _difficulty_panel(axes, rows: pd.DataFrame, levels: Sequence[str]) -> None:
    values = sorted({round(float(x), 2) for x in rows["difficulty"]})
    positions = {v: i for i, v in enumerate(values)}
    bottom = [0] * len(values)
    for index, level in enumerate(levels):
        part = rows[rows["level"] == level]
        if part.empty:
            continue
        heights = [0] * len(values)
        for value in part["difficulty"]:
            heights[positions[round(float(value), 2)]] += 1
        axes.bar(
            range(len(values)),
            heights,
            bottom=bottom,
            color=colour_of(level, index),
            label=level,
            edgecolor="white",
            linewidth=0.5,
        )
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    axes.set_xticks(range(len(values)), [f"{v:g}" for v in values])
    if len(values) > 12:
        for label in axes.get_xticklabels():
            label.set_rotation(90)
    axes.set_xlabel("difficulty (cost of the hardest step)")
    _count_axis(axes)
    axes.set_ylim(0, max(bottom, default=1) * 1.3 + 0.5)
    _legend(axes)


def _count_axis(axes) -> None:
    """The y axis counts puzzles: whole-number ticks only."""
    from matplotlib.ticker import MaxNLocator

    axes.set_ylabel("puzzles")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))


def _legend(axes) -> None:
    """Levels in one row along the top, above the bars (the y range leaves room for it)."""
    handles, labels = axes.get_legend_handles_labels()
    axes.legend(
        handles,
        labels,
        loc="upper center",
        ncols=max(1, len(labels)),
        fontsize=8,
        frameon=False,
        handlelength=1.0,
        columnspacing=0.8,
    )


def _effort_panel(axes, rows: pd.DataFrame, levels: Sequence[str]) -> None:
    groups = [rows[rows["level"] == level]["effort"].astype(float).to_numpy() for level in levels]
    present = [(lv, g) for lv, g in zip(levels, groups, strict=True) if len(g)]
    if not present:
        return
    low = min(float(g.min()) for _, g in present)
    high = max(float(g.max()) for _, g in present)
    bins = 30 if high > low else 1
    axes.hist(
        [g for _, g in present],
        bins=bins,
        range=(low, high if high > low else low + 1),
        stacked=True,
        color=[colour_of(lv, levels.index(lv)) for lv, _ in present],
        label=[lv for lv, _ in present],
        edgecolor="white",
        linewidth=0.3,
    )
    axes.set_xlabel("effort (the work of the whole solve)")
    _count_axis(axes)
    axes.set_ylim(0, axes.get_ylim()[1] * 1.25)
    _legend(axes)


def _usage_panel(axes, rows: pd.DataFrame) -> None:
    usage = technique_usage(rows)
    usage = usage[usage["puzzles"] > 0]
    names = list(usage["technique"])[::-1]
    shares = [100 * x for x in usage["share"]][::-1]
    bars = axes.barh(names, shares, color="#6b8fb5")
    for bar, steps in zip(bars, list(usage["steps"])[::-1], strict=True):
        axes.text(
            bar.get_width() + 1,
            bar.get_y() + bar.get_height() / 2,
            counted(int(steps), "step"),
            va="center",
            fontsize=7,
            color="#444",
        )
    axes.set_xlim(0, 118)
    axes.set_xlabel("puzzles using it (%)")
    axes.tick_params(axis="y", labelsize=8)


def histogram_figure(frame: pd.DataFrame, title: str = "") -> Figure:
    """One row of panels per family: difficulty by level, effort by level, technique usage."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = graded(frame)
    families = sorted(str(x) for x in rows["family"].dropna().unique())
    figure = Figure(figsize=(16, 3.8 * max(1, len(families)) + 0.6), layout="constrained")
    FigureCanvasAgg(figure)
    if not families:
        axes = figure.add_subplot()
        axes.text(0.5, 0.5, "no graded puzzles", ha="center", va="center")
        axes.set_axis_off()
        return figure
    grid = figure.subplots(len(families), 3, squeeze=False, width_ratios=(1.2, 1.2, 1))
    for row, family in enumerate(families):
        part = rows[rows["family"] == family]
        levels = level_order(part, family)
        _difficulty_panel(grid[row][0], part, levels)
        _effort_panel(grid[row][1], part, levels)
        _usage_panel(grid[row][2], part)
        grid[row][0].set_title(f"{family}: difficulty ({counted(len(part), 'puzzle')})", loc="left")
        grid[row][1].set_title(f"{family}: effort", loc="left")
        grid[row][2].set_title(f"{family}: technique usage", loc="left")
    if title:
        figure.suptitle(title, fontweight="bold")
    return figure


def save_histograms(frame: pd.DataFrame, output: str | Path, title: str = "") -> None:
    """Draw :func:`histogram_figure` into a picture file, written whole or not at all."""
    from grader.output.files import write_atomic

    figure = histogram_figure(frame, title)
    fmt = Path(output).suffix.lower().lstrip(".")
    write_atomic(output, lambda temp: figure.savefig(temp, format=fmt, dpi=110))
