"""The notebooks: each jupytext ``.py`` is paired with its ``.ipynb``; the README's command runs
both in a fresh copy of the repository, leaves executed notebooks and figures under
``out/notebooks/`` and no tracked file changed; the histogram notebook grades every shared
collection and every family at every level it declares reachable."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import numpy as np
import pytest

from conftest import REQUIRE_SHARED, ROOT, SHARED_DATA, copy_checkout
from grader.rating.loading import load
from grader.rating.registry import families

NOTEBOOKS = ROOT / "notebooks"
FIGURES = {
    "difficulty_histograms": ["difficulty_histograms.png"],
    "technique_traces": ["trace_binairo.png", "trace_tango.png", "lookahead_step.png"],
}
SAMPLE = 8
"""The test grades every 8th puzzle of each collection (``GRADER_SAMPLE``); a run as the README
gives it grades every puzzle."""
GIT = ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid"]


def cells(path):
    notebook = jupytext.read(path)
    return [(c.cell_type, c.source.strip()) for c in notebook.cells]


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_notebook_pairs_are_in_sync(name):
    script, notebook = NOTEBOOKS / f"{name}.py", NOTEBOOKS / f"{name}.ipynb"
    assert script.exists() and notebook.exists()
    assert cells(script) == cells(notebook), f"run: jupytext --sync {script}"


def test_every_notebook_is_tested():
    assert {p.stem for p in NOTEBOOKS.glob("*.py")} == set(FIGURES)


def image_is_drawn(path) -> bool:
    from matplotlib.image import imread

    pixels = imread(str(path))[:, :, :3]
    return pixels.shape[0] > 200 and pixels.shape[1] > 200 and float(np.std(pixels)) > 0.05


def readme_notebook_commands() -> list[str]:
    """The commands of the sh blocks of the README's "## Notebooks" section that run the
    notebooks: each line's ``&&`` parts less the installs (``pip install``: the test's
    environment has the ``test`` extra) and the interactive ``jupyter lab``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Notebooks\n")
    end = text.find("\n## ", start + 1)
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text[start:end], flags=re.S):
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            parts = [p.strip() for p in line.split("&&")]
            kept = [p for p in parts if p and not p.startswith(("pip ", "jupyter lab"))]
            if kept:
                commands.append(" && ".join(kept))
    return commands


def fresh_copy(target: Path) -> Path:
    """The repository's tracked files (and the files not yet committed) in a new folder, made
    a git repository with one commit, so that ``git status`` shows what a run changes."""
    copy_checkout(target)
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "copy"]):
        subprocess.run([*GIT, *command], cwd=target, check=True, capture_output=True)
    return target


def shared_folder() -> Path | None:
    """../shared/data (or ``$GRADER_SHARED_DATA``) when it is there."""
    path = SHARED_DATA
    if path.is_dir():
        return path
    if os.environ.get(REQUIRE_SHARED):
        pytest.fail(f"{path} is not available but {REQUIRE_SHARED} is set")
    return None


def puzzles_in(path: Path) -> int:
    """How many puzzles a shared file holds, as the tests read it (``tests/shared_sets.py``,
    the CSV's rows, or ``grader.load``)."""
    import shared_sets

    readers = {
        "tango_real.jsonl": shared_sets.tango_real,
        "binairo_external.jsonl": shared_sets.binairo_external,
        "siteswap_examples.json": shared_sets.siteswap_examples,
    }
    if path.name in readers:
        return len(list(readers[path.name](path)))
    if path.suffix == ".csv":
        with path.open() as handle:
            return len(list(csv.DictReader(handle)))
    return len(load(str(path)))


def check_executed(notebook: Path) -> None:
    """Every code cell of the executed notebook ran, without an error, and it has outputs."""
    assert notebook.exists(), f"{notebook.name}: no executed notebook"
    code = [c for c in nbformat.read(notebook, as_version=4).cells if c.cell_type == "code"]
    assert code and all(c.execution_count for c in code), f"{notebook.name}: a cell did not run"
    outputs = [o for c in code for o in c.outputs]
    assert outputs, f"{notebook.name}: no outputs"
    assert not [o for o in outputs if o.output_type == "error"], f"{notebook.name}: an error"


def check_collections(summary: dict, shared: Path | None) -> None:
    """Every shared file read whole and graded (every SAMPLE-th puzzle), and puzzles generated
    for every family at every level it declares reachable."""
    by_name = {c["collection"]: c for c in summary["collections"]}
    assert summary["sample"] == SAMPLE
    assert summary["unread"] == [], f"shared files not read: {summary['unread']}"
    for collection in summary["collections"]:
        assert collection["errors"] == 0, collection
        assert collection["graded"] == collection["kept"], collection
    if shared is not None:
        by_file = {c["file"]: c for c in summary["collections"] if c["file"]}
        data = sorted(p for p in shared.iterdir() if p.suffix in (".csv", ".json", ".jsonl"))
        assert data
        assert set(by_file) == {p.name for p in data}, "a shared collection is missing"
        for path in data:
            found = by_file[path.name]
            assert found["read"] == puzzles_in(path), path.name
            assert found["kept"] == len(range(0, found["read"], SAMPLE)), path.name
    generated = by_name["generated"]
    assert generated["families"] == sorted(families()), "a family has no generated puzzle"
    for name, family in families().items():
        declared = {level for levels in family.reachable.values() for level in levels}
        assert set(generated["levels"][name]) == declared, f"{name}: levels generated"


def test_the_readme_command_runs_the_notebooks(tmp_path):
    commands = readme_notebook_commands()
    assert commands, "the README's Notebooks section gives no command that runs them"
    copy = fresh_copy(tmp_path / "copy")
    shared = shared_folder()
    bin_dir = Path(sys.executable).parent
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADER_")}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        MPLBACKEND="Agg",
        GRADER_SAMPLE=str(SAMPLE),
        GRADER_SHARED_DATA=str(shared or tmp_path / "no shared data"),
    )
    for command in commands:
        result = subprocess.run(
            ["bash", "-c", command],
            cwd=copy,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert result.returncode == 0, f"{command}\n{result.stdout[-2000:]}{result.stderr[-3000:]}"
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=copy, capture_output=True, text=True, check=True
    )
    assert status.stdout == "", f"the run changed the repository:\n{status.stdout}"
    out = copy / "out" / "notebooks"
    for name in FIGURES:
        check_executed(out / f"{name}.ipynb")
    expected = [name for names in FIGURES.values() for name in names]
    expected += [f"trace_{name}.png" for name in families()]  # one walk per family
    if shared is not None and (shared / "binairo_external.jsonl").exists():
        expected.append("published_vs_measured.png")
    for name in expected:
        path = out / name
        assert path.exists(), f"{name} was not saved"
        assert image_is_drawn(path), f"{name} looks empty"
    check_collections(json.loads((out / "collections.json").read_text()), shared)


def notebook_functions(*names: str, notebook: str = "difficulty_histograms") -> dict:
    """Functions of a notebook's script by name (those they call among them), without running
    the notebook."""
    import ast

    source = (NOTEBOOKS / f"{notebook}.py").read_text()
    found = [
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and node.name in names
    ]
    scope: dict = {}
    exec(compile(ast.Module(found, type_ignores=[]), notebook, "exec"), scope)
    return scope


def test_published_levels_keep_each_sites_order():
    """The chart of published against measured levels lists each site's levels easiest first,
    as the data ranks them (``level_index``), not alphabetically (Easy, Hard, Medium, ...)."""
    site_order = notebook_functions("site_order", "published_level")["site_order"]
    rows = [
        {"source_site": "b.com", "level": "Very hard", "level_index": 4},
        {"source_site": "b.com", "level": "Easy", "level_index": 1},
        {"source_site": "a.com", "level": "Hard", "level_index": 2},
        {"source_site": "b.com", "level": "Hard", "level_index": 3},
        {"source_site": "b.com", "level": "Medium", "level_index": 2},
        {"source_site": "a.com", "level": "Easy", "level_index": 1},
    ]
    assert site_order(rows) == [
        "a.com: Easy",
        "a.com: Hard",
        "b.com: Easy",
        "b.com: Medium",
        "b.com: Hard",
        "b.com: Very hard",
    ]
    shared = shared_folder()
    if shared is not None and (shared / "binairo_external.jsonl").exists():
        import shared_sets

        real = [row for row, _ in shared_sets.binairo_external(shared / "binairo_external.jsonl")]
        levels = [name.split(": ")[1] for name in site_order(real)]
        assert levels == ["Easy", "Medium", "Hard", "Very hard", "Easy", "Hard"]
