"""Start-up cost: CPU seconds (user + system, children included) of ``grade --help``, of grading
the example Sudoku as JSON (from its file, and as a text line without and with ``--family
sudoku``), of grading a Tatham Unruly game ID (a text line), of generating one 14x14 Binairo
and of ``python -c "import grader"``, the median of several runs; beside them Python alone and
the libraries the command line loads before any of our code runs: typer, and pydantic, which
only a JSON file's validation imports (typer 0.29 imported it for every command, through an
adapter per option: pyproject holds typer below it), and numba, which the first dynamic chain
imports.
Our bytecode is compiled first, as ``pip install .`` does.

    python bench/startup.py                      # the active environment
    python bench/startup.py --venv /path/.venv   # another installation (before/after)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def cpu_seconds(command: list[str]) -> float:
    """CPU seconds one run of ``command`` takes (its children's user + system time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def sudoku_line(example: Path) -> Path:
    """The example Sudoku as an 81-character text line in a temporary file: a text file names
    no family, so ``grade`` tries every family's text formats unless ``--family`` names one."""
    grid = json.loads(example.read_text())["grid"]
    path = Path(tempfile.mkdtemp()) / "sudoku.txt"
    path.write_text("".join(grid).replace(" ", "") + "\n")
    return path


def main() -> None:
    """Print the median CPU seconds of each start-up command."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", help="A virtual environment to measure (default: this one).")
    parser.add_argument("--runs", type=int, default=7, help="Runs per command (median).")
    args = parser.parse_args()
    bin_dir = Path(args.venv) / "bin" if args.venv else Path(sys.executable).parent
    python = str(bin_dir / "python")
    commands = {
        "grade --help": [str(bin_dir / "grade"), "--help"],
        "grader --help": [str(bin_dir / "grader"), "--help"],
        "grade --json examples/sudoku.json": [
            str(bin_dir / "grade"),
            "--json",
            str(HERE.parent / "examples" / "sudoku.json"),
        ],
        "python -c 'import grader'": [python, "-c", "import grader"],
        "python -c pass": [python, "-c", "pass"],
        "python: import typer": [python, "-c", "import typer, typer.main"],
        "python: import pydantic (JSON files)": [
            python,
            "-c",
            "import pydantic, pydantic.fields; pydantic.BaseModel",
        ],
        "python: import numba (dynamic chains)": [python, "-c", "import numba"],
    }
    made = Path(tempfile.mkdtemp()) / "one.jsonl"
    commands["grader generate binairo 14x14 normal -n 1"] = [
        str(bin_dir / "grader"),
        *("generate", "binairo", "--size", "14x14", "--level", "normal", "-n", "1"),
        *("--seed", "1", "-o", str(made), "--force", "--no-progress"),
    ]
    unruly = Path(tempfile.mkdtemp()) / "unruly.txt"
    unruly.write_text("8x8u:aebakdClaAcCeBGd\n")  # the README's game ID
    commands["grade --json (one Unruly game ID)"] = [str(bin_dir / "grade"), "--json", str(unruly)]
    line = sudoku_line(HERE.parent / "examples" / "sudoku.json")
    for name, extra in (("", []), (" --family sudoku", ["--family", "sudoku"])):
        commands[f"grade --json{name} (one sudoku line)"] = [
            str(bin_dir / "grade"),
            "--json",
            *extra,
            str(line),
        ]
    # our bytecode, compiled by the measured environment's own Python (vs_common.compile_ours)
    compile_code = f"import sys; sys.path.insert(0, {str(HERE)!r}); import vs_common as v; "
    compiled = subprocess.run(
        [python, "-c", compile_code + "print(v.compile_ours())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    os.environ.pop("PYTHONPROFILEIMPORTTIME", None)
    print(f"environment: {bin_dir.parent} ({compiled})")
    for name, command in commands.items():
        cpu_seconds(command)  # warm the file cache
        runs = [cpu_seconds(command) for _ in range(args.runs)]
        print(f"{name:<42} {statistics.median(runs):.3f} CPU s (median of {args.runs})")


if __name__ == "__main__":
    main()
