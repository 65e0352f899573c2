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
# Grades collections of puzzles and draws what the grader finds per family: difficulty (the
# cost of the hardest step) and effort (the work of the whole solve) by level, and how often each
# technique is used. Where a collection carries levels someone else gave it (the puzzle
# sites' levels for Binairo), they are set against the measured ones.
#
# The collections: puzzles generated at every level each family declares reachable, the
# project's `examples/`, and every third-party set of `../shared/data` when that folder is
# there (read at run time, never copied; `$GRADER_SHARED_DATA` names another folder). Figures
# and `collections.json` (what was read and graded, per collection) are saved to
# `$GRADER_FIGURES` (default `out/notebooks/`), the generated puzzles to the bank
# `$GRADER_BANK` (default `out/notebooks/collection.db`, kept between runs, so they are
# generated once). `$GRADER_SAMPLE=K` keeps every K-th puzzle of each collection (the 1st, the
# K+1-th, ...; the tests use 8); by default every puzzle is graded.

# %%
import csv
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
from IPython.display import Image, display
from matplotlib.figure import Figure

from grader.generation.generator import Request
from grader.generation.plan import run_plan
from grader.output.histogram import save_histograms, technique_usage
from grader.rating.family import Family, Puzzle
from grader.rating.loading import entries, load, puzzle_from_dict
from grader.rating.registry import families
from grader.storage.bank import Bank
from grader.storage.batch import grade_many

ROOT = Path.cwd().parent if Path.cwd().name == "notebooks" else Path.cwd()
SHARED = Path(os.environ.get("GRADER_SHARED_DATA", ROOT.parent / "shared" / "data"))
FIGURES = Path(os.environ.get("GRADER_FIGURES", ROOT / "out" / "notebooks"))
FIGURES.mkdir(parents=True, exist_ok=True)
BANK = Path(os.environ.get("GRADER_BANK", ROOT / "out" / "notebooks" / "collection.db"))
BANK.parent.mkdir(parents=True, exist_ok=True)
SAMPLE = int(os.environ.get("GRADER_SAMPLE", "1"))
assert SAMPLE >= 1, "GRADER_SAMPLE: keep every K-th puzzle, K >= 1"
sys.path.insert(0, str(ROOT / "tests"))  # the shared sets' readers, as bench/ uses them
import shared_sets  # noqa: E402


def show(figure: Figure, name: str) -> Path:
    """Save a figure under FIGURES and show the saved file."""
    path = FIGURES / name
    figure.savefig(path, dpi=100)
    display(Image(filename=str(path)))
    return path


def plural(count: int, noun: str) -> str:
    """``1 puzzle``, ``2 puzzles``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


# %% [markdown]
# ## Generated puzzles at every level
#
# One plan row per family and level: each level the family declares reachable
# (`Family.reachable`, measured by `bench/reachable.py`), at the smallest size that reaches
# it, seed 1. The plan runs on two worker processes into the bank; a second run finds every
# row full and generates nothing. A row's puzzles are found by the ids the generator gives
# them, whatever level they grade at (the plan's own look-up by size and level misses Pair
# Place's, stored as (n-1) x n grids, so rows already full are left out of the plan).

# %%
PER_LEVEL = 3  # puzzles per family and level (every K-th of them with GRADER_SAMPLE=K)


def smallest_sizes(family: Family) -> dict[str, tuple[int, int]]:
    """Level -> the smallest size (rows, cols) at which the family reaches it."""
    found = {}
    for size, levels in sorted(family.reachable.items(), key=lambda item: item[0][0] * item[0][1]):
        for level in levels:
            found.setdefault(level, size)
    return {level: found[level] for level in family.levels if level in found}


plan = [
    Request(name, size, level, count=len(range(0, PER_LEVEL, SAMPLE)), seed=1)
    for name, family in families().items()
    for level, size in smallest_sizes(family).items()
]


def made_by(request: Request) -> str:
    """The id prefix of the puzzles the generator makes for a request
    (grader/generation/generator.py)."""
    rows, cols = request.size
    return f"{request.family}-{rows}x{cols}-{request.level}-s{request.seed}-"


def row_puzzles(store: Bank, request: Request) -> list:
    """The bank's puzzles of a plan row (the first ``count`` by their ids, whatever level they
    grade at), in the order they were added."""
    mine = [
        entry
        for entry in store.query(family=request.family, order="added")
        if (entry.id or "").startswith(made_by(request))
    ]
    return mine[: request.count]


with Bank(BANK) as store:
    missing = [request for request in plan if len(row_puzzles(store, request)) < request.count]
print(f"{len(plan) - len(missing)} of {len(plan)} rows full in the bank already")
started = time.perf_counter()
filled = run_plan(missing, BANK, workers=2)
for row in filled.rows:
    print(row.line())
print(f"generation: {time.perf_counter() - started:.1f} s")

# %% [markdown]
# ## The collections
#
# Each collection is a list of puzzles named after where it came from. The third-party sets
# are read by the readers the tests and benchmarks use (`tests/shared_sets.py`, or
# `grader.load` for files in our format), which give each puzzle its family. The Pair Place
# grids are published solutions without givens: they are graded as they load, as empty grids
# (many solutions, so `unsolved`).

# %%
collections: dict[str, list[Puzzle]] = {}
files: dict[str, str] = {}  # collection -> the shared file it was read from
read: dict[str, int] = {}  # collection -> puzzles in it (before sampling)
published: dict[str, str] = {}  # puzzle id -> the level its source published
published_order: list[str] = []  # those levels, each site's easiest first


def add(name: str, items: list[dict], file: str | None = None, sample: int = SAMPLE) -> None:
    """Keep every sample-th puzzle dict of a collection, built with the collection as origin."""
    read[name] = len(items)
    collections[name] = [puzzle_from_dict(data, name, str(data["id"])) for data in items[::sample]]
    if file is not None:
        files[name] = file


def sudoku_se(path: Path) -> list[dict]:
    """The SE-rated sudokus: one 81-character puzzle per CSV row (as bench/sudoku_se.py)."""
    with path.open() as handle:
        rows = list(csv.DictReader(handle))
    return [
        {**entries(row["puzzle"])[0].data, "id": f"se-{number}"}
        for number, row in enumerate(rows, start=1)
    ]


def loaded(path: Path) -> list[dict]:
    """The puzzles of a file in our own format (grader.load), as dicts."""
    return [{**puzzle.data, "id": puzzle.id} for puzzle in load(str(path))]


def published_level(row: dict) -> str:
    """The level a site published for a puzzle, named after the site (``site: Hard``)."""
    return f"{row['source_site']}: {row['level']}"


def site_order(rows: list[dict]) -> list[str]:
    """The published levels of the rows: sites by name, each site's levels in its own order
    (the data's ``level_index``: Easy, Medium, Hard, Very hard), not alphabetically."""
    rank = {published_level(row): (row["source_site"], int(row["level_index"])) for row in rows}
    return sorted(rank, key=rank.__getitem__)


def from_reader(reader: Callable) -> Callable[[Path], list[dict]]:
    """A reader of tests/shared_sets.py as a reader of puzzle dicts."""
    return lambda path: [data for _, data in reader(path)]


SHARED_SETS = {  # file -> its reader
    "sudoku_se_dev.csv": sudoku_se,
    "tango_real.jsonl": from_reader(shared_sets.tango_real),
    "binairo_external.jsonl": from_reader(shared_sets.binairo_external),
    "siteswap_examples.json": from_reader(shared_sets.siteswap_examples),
    "path_puzzles_examples.json": loaded,
    "pair_place_examples.json": loaded,
}


with Bank(BANK) as store:
    generated = [
        {**entry.puzzle, "id": entry.id}
        for request in plan
        for entry in row_puzzles(store, request)
    ]
add("generated", generated, sample=1)  # sampled in the plan already
add(
    "examples",
    [data for path in sorted((ROOT / "examples").glob("*.json")) for data in loaded(path)],
)
unread = []
if SHARED.is_dir():
    for path in sorted(p for p in SHARED.iterdir() if p.suffix in (".csv", ".json", ".jsonl")):
        if path.name in SHARED_SETS:
            add(path.stem, SHARED_SETS[path.name](path), file=path.name)
        else:
            unread.append(path.name)
    if (SHARED / "binairo_external.jsonl").exists():
        rows = [row for row, _ in shared_sets.binairo_external(SHARED / "binairo_external.jsonl")]
        published = {row["id"]: published_level(row) for row in rows}
        published_order = site_order(rows)
    print("not read (no reader here):", ", ".join(unread) or "none")
else:
    print(f"{SHARED} is not here: the generated puzzles and the examples only")
for name, puzzles in collections.items():
    print(f"{name:<24} {len(puzzles):>4} of {plural(read[name], 'puzzle')}")

# %% [markdown]
# ## Grading
#
# `grade_many` returns one row per puzzle, its `source` the collection; two local worker
# processes share the work.

# %%
started = time.perf_counter()
frame = grade_many([p for puzzles in collections.values() for p in puzzles], workers=2)
frame = frame.rename(columns={"source": "collection"})
print(f"grading: {plural(len(frame), 'puzzle')} in {time.perf_counter() - started:.1f} s")
frame[["collection", "id", "family", "size", "difficulty", "effort", "level"]].head()

# %%
summary = [
    {
        "collection": name,
        "file": files.get(name),
        "read": read[name],
        "kept": len(collections[name]),
        "graded": int(part["error"].isna().sum()),
        "errors": int(part["error"].notna().sum()),
        "families": sorted(str(x) for x in part["family"].dropna().unique()),
        "levels": {
            family: {str(k): int(v) for k, v in rows["level"].value_counts().sort_index().items()}
            for family, rows in part.groupby("family")
        },
    }
    for name in collections
    for part in [frame[frame["collection"] == name]]
]
(FIGURES / "collections.json").write_text(
    json.dumps({"sample": SAMPLE, "unread": unread, "collections": summary}, indent=1) + "\n"
)
display(
    pd.DataFrame(summary)[["collection", "file", "read", "kept", "graded", "errors", "families"]]
)

# %%
by_level = (
    frame.groupby(["family", "level"])
    .agg(
        puzzles=("id", "size"),
        difficulty=("difficulty", "median"),
        effort=("effort", "median"),
        seconds=("seconds", "mean"),
    )
    .round(3)
)
display(by_level)

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
    binairo = frame[frame["id"].isin(published.keys())].copy()
    binairo["published"] = binairo["id"].map(published)
    order = ["trivial", "easy", "normal", "hard", "expert", "extreme", "unsolved"]
    table = pd.crosstab(binairo["published"], binairo["level"])
    table = table[[c for c in order if c in table.columns]]
    table = table.loc[[name for name in published_order if name in table.index]]  # easy first
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
