# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Difficulty histograms
#
# Grades a collection of puzzles per family and draws what the grader finds: difficulty (the
# cost of the hardest step) and effort (the sum of step costs) by level, and how often each
# technique is used. Where a collection carries levels someone else gave it (the puzzle
# sites' levels for Binairo), they are set against the measured ones.
#
# The collections: a generated collection of every family spread over its levels (a plan run
# on two worker processes into a puzzle bank, filled once and read back afterwards), the
# project's `examples/`, and the third-party sets of `../shared/data` when they are there (read
# at run time, never copied; `$GRADER_SHARED_DATA` names another folder). Figures are saved to
# `$GRADER_FIGURES` (default `out/notebooks/`), the bank to `$GRADER_BANK` (default
# `out/notebooks/collection.db`, kept between runs, so the collection is generated once).

# %%
import json
import os
from pathlib import Path

import pandas as pd
from IPython.display import Image, display

from grader.bank import Bank, parse_size
from grader.batch import grade_many
from grader.generator import Request
from grader.histogram import save_histograms, technique_usage
from grader.plan import run_plan

ROOT = Path.cwd().parent if Path.cwd().name == "notebooks" else Path.cwd()
SHARED = Path(os.environ.get("GRADER_SHARED_DATA", ROOT.parent / "shared" / "data"))
FIGURES = Path(os.environ.get("GRADER_FIGURES", ROOT / "out" / "notebooks"))
FIGURES.mkdir(parents=True, exist_ok=True)


def show(figure, name):
    """Save a figure under FIGURES and show the saved file."""
    path = FIGURES / name
    figure.savefig(path, dpi=100)
    display(Image(filename=str(path)))
    return path


# %% [markdown]
# ## A generated collection
#
# One plan row per family, size and level: 50 puzzles per family, spread over the levels the
# generator reaches at that size within a few seconds a puzzle (`bench/reachable.py`; 9x9
# Sudoku at `normal` takes about 20 CPU s a puzzle, too slow here). Under CI (`CI=true`) every
# count is divided by 4, so the test suite runs the notebook in a few minutes; the figures then
# rest on about 13 puzzles per family. The bank makes it resumable: a second run finds every
# row full and generates nothing.

# %%
SCALE = 4 if os.environ.get("CI", "").lower() == "true" else 1
SITESWAP = {"nontrivial": True, "distinct": True}
ROWS = [  # family, size, {level: count}, options
    ("binairo", "8x8", {"trivial": 12, "easy": 12, "normal": 12, "hard": 14}, {}),
    ("tango", "6x6", {"trivial": 10, "easy": 10, "normal": 10, "hard": 10, "expert": 10}, {}),
    ("sudoku", "9x9", {"trivial": 20, "easy": 30}, {}),
    ("siteswap", "3x4", {"trivial": 13, "easy": 13}, SITESWAP),
    ("siteswap", "4x4", {"trivial": 12, "easy": 12}, SITESWAP),
    ("path", "6x6", {"trivial": 12, "easy": 12, "normal": 12, "hard": 14}, {}),
    ("pairplace", "6x6", {"trivial": 12, "easy": 12}, {}),
    ("pairplace", "8x8", {"normal": 20}, {}),
    ("pairplace", "10x10", {"hard": 6}, {}),
]
plan = [
    Request(family, parse_size(size), level, count=max(1, count // SCALE), seed=1, options=options)
    for family, size, counts, options in ROWS
    for level, count in counts.items()
]
BANK = Path(os.environ.get("GRADER_BANK", ROOT / "out" / "notebooks" / "collection.db"))
BANK.parent.mkdir(parents=True, exist_ok=True)
filled = run_plan(plan, BANK, workers=2)
for row in filled.rows:
    print(row.line())
print(f"{filled.seconds:.1f} s")

# %% [markdown]
# ## The collections
#
# The generated puzzles come out of the bank as puzzle files; each third-party set is turned
# into puzzle objects of our file format as it is read.


# %%
def read_jsonl(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


with Bank(BANK) as store:
    puzzles = [entry.puzzle for entry in store.query(order="added")]
print(len(puzzles), "generated")
published = {}  # puzzle id -> the level its source published
for path in sorted((ROOT / "examples").glob("*.json")):
    puzzles.append(str(path))
if (SHARED / "tango_real.jsonl").exists():
    for row in read_jsonl(SHARED / "tango_real.jsonl"):
        puzzles.append(
            {"family": "tango", "id": row["id"], "grid": row["rows"], "signs": row["constraints"]}
        )
if (SHARED / "binairo_external.jsonl").exists():
    for row in read_jsonl(SHARED / "binairo_external.jsonl"):
        rules = {"unique_lines": row["unique_rows_rule"]}
        puzzles.append(
            {"family": "binairo", "id": row["id"], "grid": row["puzzle"], "rules": rules}
        )
        published[row["id"]] = f"{row['source_site']}: {row['level']}"
print(len(puzzles), "inputs")

# %% [markdown]
# ## Grading
#
# `grade_many` returns one row per puzzle; two local worker processes share the work.

# %%
frame = grade_many(puzzles, workers=2)
frame[["id", "family", "size", "givens", "solutions", "difficulty", "effort", "level"]].head()

# %%
summary = (
    frame.groupby(["family", "level"])
    .agg(
        puzzles=("id", "size"),
        difficulty=("difficulty", "median"),
        effort=("effort", "median"),
        seconds=("seconds", "mean"),
    )
    .round(3)
)
display(summary)

# %% [markdown]
# ## Difficulty and effort by level, technique usage

# %%
histograms = FIGURES / "difficulty_histograms.png"
save_histograms(frame, histograms, title="Difficulty, effort and techniques per family")
display(Image(filename=str(histograms)))

# %%
usage = pd.concat(
    {
        family: technique_usage(part).set_index("technique")
        for family, part in frame.groupby("family")
    },
    names=["family"],
)
usage[usage["puzzles"] > 0].round(3)

# %% [markdown]
# ## Published levels against measured levels
#
# Binairo's sites publish a level per puzzle; each row of this table is one published level
# and counts the levels the grader measured for those puzzles. A good rating puts the
# published levels in the same order as the measured ones.

# %%
if published:
    from matplotlib.figure import Figure

    binairo = frame[frame["id"].isin(published.keys())].copy()
    binairo["published"] = binairo["id"].map(published)
    order = ["trivial", "easy", "normal", "hard", "expert", "extreme", "unsolved"]
    table = pd.crosstab(binairo["published"], binairo["level"])
    table = table[[c for c in order if c in table.columns]]
    sites = ["beginner", "easy", "medium", "normal", "hard", "very hard", "expert", "extreme"]
    rank = {name: len(sites) for name in table.index}
    rank.update({name: sites.index(name.lower()) for name in table.index if name.lower() in sites})
    table = table.loc[sorted(table.index, key=lambda name: (rank[name], name))]  # easy first
    figure = Figure(figsize=(7, 0.45 * len(table) + 1.5), layout="constrained")
    axes = figure.add_subplot()
    axes.imshow(table.to_numpy(), cmap="Blues", aspect="auto")
    axes.set_xticks(range(len(table.columns)), table.columns)
    axes.set_yticks(range(len(table.index)), table.index)
    for (i, j), value in pd.DataFrame(table.to_numpy()).stack().items():
        axes.text(j, i, str(value), ha="center", va="center", fontsize=9)
    axes.set_xlabel("measured level")
    axes.set_title("Binairo: published level against measured level", loc="left")
    show(figure, "published_vs_measured.png")
    display(table)
else:
    print("no published levels here (../shared/data is not available)")
