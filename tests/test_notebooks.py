"""The notebooks: each jupytext ``.py`` is paired with its ``.ipynb``, and both notebooks run
offline through nbmake and save their figures."""

from __future__ import annotations

import os
import subprocess
import sys

import jupytext
import numpy as np
import pytest

from conftest import ROOT, SHARED_DATA
from grader.registry import families

NOTEBOOKS = ROOT / "notebooks"
FIGURES = {
    "difficulty_histograms": ["difficulty_histograms.png"],
    "technique_traces": ["trace_binairo.png", "trace_tango.png", "lookahead_step.png"],
}


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


def test_notebooks_run_and_save_their_figures(tmp_path):
    figures = tmp_path / "figures"
    env = {
        **os.environ,
        "MPLBACKEND": "Agg",
        "GRADER_FIGURES": str(figures),
        "GRADER_SHARED_DATA": str(SHARED_DATA),
    }
    notebooks = [str(NOTEBOOKS / f"{name}.ipynb") for name in sorted(FIGURES)]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "--nbmake",
            "--nbmake-kernel=python3",
            "--nbmake-timeout=600",
            *notebooks,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    expected = [name for names in FIGURES.values() for name in names]
    expected += [f"trace_{name}.png" for name in families()]  # one walk per family
    if (SHARED_DATA / "binairo_external.jsonl").exists():
        expected.append("published_vs_measured.png")
    for name in expected:
        path = figures / name
        assert path.exists(), f"{name} was not saved"
        assert image_is_drawn(path), f"{name} looks empty"
