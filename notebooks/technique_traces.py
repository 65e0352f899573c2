# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Technique traces
#
# One puzzle per family, walked step by step: each picture is the board before a step, with
# the cells the step concluded (green), the cells it used as evidence (yellow) and the row,
# column or unit it reasoned about (blue). Under the pictures, every step in words.
# Figures are saved to `$GRADER_FIGURES` (default `out/notebooks/`).

# %%
import os
from pathlib import Path

from IPython.display import Image, Markdown, display

from grader import grade, load
from grader.output.render import boards_figure, puzzle_board, states_before, step_board
from grader.rating.loading import puzzle_from_dict
from grader.rating.registry import families

ROOT = Path.cwd().parent if Path.cwd().name == "notebooks" else Path.cwd()
FIGURES = Path(os.environ.get("GRADER_FIGURES", ROOT / "out" / "notebooks"))
FIGURES.mkdir(parents=True, exist_ok=True)


def example_of(name, family):
    """The family's puzzle in examples/ when there is one, else its built-in example."""
    for path in sorted((ROOT / "examples").glob("*.json")):
        for puzzle in load(str(path)):
            if puzzle.family.name == name:
                return puzzle
    return puzzle_from_dict(family.example, f"{name} example", f"{name}-example")


def walk(puzzle, limit=36):
    """Grade a puzzle, draw its steps on one contact sheet, list them in words."""
    result = grade(puzzle)
    by_name = {t.name: t for t in result.techniques}
    steps = result.steps[:limit]
    boards = [puzzle_board(puzzle)]
    titles = ["start"]
    for number, (step, before) in enumerate(
        zip(steps, states_before(puzzle, steps), strict=True), start=1
    ):
        boards.append(step_board(puzzle, before, step, by_name.get(step.technique)))
        titles.append(f"{number}. {step.technique} ({step.cost:g})")
    boards.append(puzzle_board(puzzle, result.run.state))
    titles.append(result.status_text())
    figure = boards_figure(boards, titles, columns=6, width=2.2)
    path = FIGURES / f"trace_{puzzle.family.name}.png"
    figure.savefig(path, dpi=90)
    display(
        Markdown(
            f"### {puzzle.family.title}: `{puzzle.id}`\n\n"
            f"level **{result.level}**, difficulty {result.difficulty:g}, "
            f"effort {result.effort:g}, {len(result.steps)} steps"
        )
    )
    display(Image(filename=str(path)))
    ex = result.explainer()
    lines = [f"{n}. [{s.technique} {s.cost:g}] {ex.text(s)}" for n, s in enumerate(steps, 1)]
    if len(result.steps) > limit:
        lines.append(f"... and {len(result.steps) - limit} more steps")
    display(Markdown("\n".join(lines)))
    return result


# %% [markdown]
# ## Every family

# %%
results = {}
for name, family in families().items():
    results[name] = walk(example_of(name, family))

# %% [markdown]
# ## A step that needs an assumption
#
# This Binairo (made for the tests: minimal givens) needs a lookahead: assume a value,
# follow the cheap techniques to a contradiction, and remove the value. The board shows the
# assumed cell; the chain is spelled out below it.

# %%
expert = puzzle_from_dict(
    {
        "family": "binairo",
        "id": "binairo-expert",
        "grid": [
            ".1...1...0",
            "..10......",
            "........0.",
            "1.1.1....1",
            ".....0....",
            ".......1..",
            "..1...11..",
            ".0.00.....",
            ".0....11..",
            ".......1..",
        ],
    },
    "notebook",
    "binairo-expert",
)
result = grade(expert)
index = next(i for i, s in enumerate(result.steps) if s.technique.startswith("lookahead"))
step = result.steps[index]
before = states_before(expert, result.steps)[index]
by_name = {t.name: t for t in result.techniques}
figure = boards_figure(
    [step_board(expert, before, step, by_name[step.technique])],
    [f"{index + 1}. {step.technique} ({step.cost:g})"],
    columns=1,
    width=4.5,
)
path = FIGURES / "lookahead_step.png"
figure.savefig(path, dpi=100)
display(Image(filename=str(path)))
ex = result.explainer()
print(ex.text(step))
