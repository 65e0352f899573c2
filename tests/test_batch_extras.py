"""A missing extra (pyarrow for Parquet, dask for --dask) is one line that says how to install
it from a checkout."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import EXAMPLES


def run_without(module: str, *args: str, cwd=None) -> subprocess.CompletedProcess:
    """``grader ARGS`` in a process where importing ``module`` fails, as when not installed."""
    code = (
        f"import sys; sys.modules[{module!r}] = None; "
        "from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def assert_names_the_install(result: subprocess.CompletedProcess, extra: str) -> None:
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert f"pip install -e '.[{extra}]'" in result.stderr
    assert "Traceback" not in result.stderr


def test_parquet_without_pyarrow(tmp_path):
    source = str(EXAMPLES / "tango.json")
    result = run_without("pyarrow", "batch", source, "-o", str(tmp_path / "r.parquet"))
    assert_names_the_install(result, "parquet")
    assert list(tmp_path.iterdir()) == []
    pytest.importorskip("pyarrow")
    written = tmp_path / "r.parquet"
    import pandas as pd

    pd.DataFrame(
        {"family": ["tango"], "difficulty": [1.0], "effort": [2.0], "level": ["easy"]}
    ).to_parquet(written)
    result = run_without("pyarrow", "histogram", str(written), "-o", str(tmp_path / "h.png"))
    assert_names_the_install(result, "parquet")


def test_dask_without_distributed(tmp_path):
    source = str(EXAMPLES / "tango.json")
    command = ["batch", source, "-o", str(tmp_path / "r.csv"), "--dask", "tcp://127.0.0.1:1"]
    assert_names_the_install(run_without("distributed", *command), "dask")
    assert list(tmp_path.iterdir()) == []
