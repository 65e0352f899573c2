"""Running a piece of code with another checkout of the project, for side-by-side benchmarks.

The other checkout is imported through PYTHONPATH (and is the working directory), so it needs
no installation of its own: the venv running the benchmark provides the libraries.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""This checkout."""


def run_in(checkout: Path | None, code: str, *args: str) -> dict | None:
    """Run ``code`` in a fresh Python process with ``checkout`` (None: this one) first on the
    path; its last line of output, read as JSON, or None and the error's last line printed."""
    if checkout is not None and not (checkout / "grader").is_dir():
        raise SystemExit(f"--against {checkout}: not a checkout of this project (no grader/)")
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        cwd=str(checkout or ROOT),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        print(f"  ({checkout or ROOT}: {last})", file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])
