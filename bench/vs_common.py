"""Helpers shared by the side-by-side scripts (``bench/vs_serate.py``, ``bench/vs_tatham.py``,
``bench/vs_skfr.py``).

Every program, ours included, runs as a child process; its CPU seconds (user + system, start-up
included) are the delta of ``resource.getrusage(RUSAGE_CHILDREN)`` around it, so children must run
one at a time. The reference programs are built outside the project by
``../shared/anchors/build.sh`` (see ``../shared/anchors/README.md``), which prints the
variables read here.
"""

from __future__ import annotations

import compileall
import datetime
import importlib.util
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = Path(os.environ.get("GRADER_SHARED_DATA") or CHECKOUT.parent / "shared" / "data")
"""../shared/data beside the checkout, or the folder ``$GRADER_SHARED_DATA`` names."""
BUILD_HINT = (
    "build the references with [SKFR_GIT=SKFR_GIT_DIR] ../shared/anchors/build.sh SE_GIT_DIR "
    "TATHAM_GIT_DIR (see ../shared/anchors/README.md) and run the export lines it prints"
)


@dataclass
class Child:
    """One finished child process: CPU and wall seconds, exit code, output."""

    cpu: float
    wall: float
    returncode: int | None
    stdout: str
    capped: bool = False


def run_child(
    command: list[str],
    *,
    cpu_cap: float | None = None,
    wall_cap: float | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> Child:
    """Run ``command`` to its end (or its cap) and measure its whole process.

    ``cpu_cap``: CPU seconds after which the kernel stops it (RLIMIT_CPU, SIGXCPU);
    ``wall_cap``: wall seconds after which it is killed. Either sets ``capped``.
    ``env``: variables set for the child on top of ours.
    """

    def limit() -> None:
        if cpu_cap is not None:
            soft = max(1, int(cpu_cap + 0.999))
            resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    capped = False
    try:
        done = subprocess.run(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            preexec_fn=limit if cpu_cap is not None else None,
            timeout=wall_cap,
            cwd=cwd,
            env={**os.environ, **env} if env else None,
            check=False,
        )
        stdout, code = done.stdout, done.returncode
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout or ""
        stdout = out.decode() if isinstance(out, bytes) else out
        code, capped = None, True
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if code is not None and code < 0:  # killed by a signal: SIGXCPU from the CPU cap
        capped = True
    return Child(cpu, wall, code, stdout, capped)


def reference(variable: str, script: str) -> str:
    """The value of a reference program's variable, or one line and exit 2 when it is unset."""
    value = os.environ.get(variable)
    if not value or not Path(value).exists():
        state = "is not set" if not value else f"names a missing path ({value})"
        print(f"{script}: {variable} {state}: {BUILD_HINT}", file=sys.stderr)
        sys.exit(2)
    return value


def our_program(name: str) -> str:
    """Our console script (``grade`` or ``grader``) of the running environment."""
    local = Path(sys.executable).parent / name
    if local.exists():
        return str(local)
    found = shutil.which(name)
    if found is None:
        print(f"{name} is not installed: pip install -e . in the checkout", file=sys.stderr)
        sys.exit(2)
    return found


WARM_UP = 5
"""Puzzles graded once before a measured side, unmeasured."""


def warm_up(puzzles: list[str], work: Path) -> float:
    """Grade the first puzzles once, unmeasured, so that no side pays for making the caches
    that persist between runs (numba's compiled chains, about 6 CPU s in a fresh checkout,
    would otherwise fall on the first side measured); the wall seconds it took."""
    source = work / "warm-up.txt"
    source.write_text("".join(p + "\n" for p in puzzles[:WARM_UP]))
    return run_child([our_program("grade"), "--json", str(source)]).wall


def compile_ours() -> str:
    """Compile our packages' bytecode, as ``pip install .`` does at install time, and say so.

    An editable install leaves it to the first run, and with ``PYTHONDONTWRITEBYTECODE`` set
    (as on some machines) every start would compile every module again (about 0.1 CPU s).
    """
    compiled = []
    for package in ("grader", "rules"):
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compiled.append(compileall.compile_dir(folder, quiet=1))
    return "bytecode compiled" if compiled and all(compiled) else "bytecode NOT compiled"


def header(title: str) -> str:
    """The run's first line: what, when, on which machine, under what load (and our packages'
    bytecode compiled first, see :func:`compile_ours`)."""
    now = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    return (
        f"{title} — {now}  load {load()}  cpus {os.cpu_count()}  "
        f"{platform.machine()} Python {platform.python_version()}  {compile_ours()}"
    )


def se_ratings_csv(data: Path) -> Path | None:
    """The shared Sudokus with Sudoku Explainer's ratings (``sudoku_se_dev.csv`` in ``data``),
    or None after one line on stderr saying that it is not there."""
    source = data / "sudoku_se_dev.csv"
    if not source.exists():
        print(f"{source} is not there: this script needs ../shared/data", file=sys.stderr)
        return None
    return source


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def ratio(ours: float, theirs: float) -> str:
    """Ours/reference as text (``-`` when the reference took no measurable time)."""
    return f"{ours / theirs:.2f}" if theirs > 0 else "-"


def percent(count: int, total: int) -> str:
    """``count`` of ``total`` as a percentage."""
    return f"{100 * count / total:.1f} %" if total else "-"
