"""A parent killed outright (SIGKILL: no Ctrl-C, no clean-up) takes its worker processes with it:
none is left running, re-parented, for as long as the machine is up (issue 51)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import EXAMPLES
from grader.storage.batch import journal_path

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="finds the workers through /proc"
)

LIVENESS = 15.0
"""Seconds the workers may take to go (a generous bound, not a timing claim)."""


def proc_stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (state first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = proc_stat(int(entry.name))
            if fields is not None and int(fields[1]) == parent:
                found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """The process exists and has not ended (a zombie nobody reaps has ended)."""
    fields = proc_stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


WITHOUT_PDEATHSIG = "import grader.storage.batch as b; b._parent_death_signal = lambda s: False; "
"""Run as where Linux's parent-death signal is missing: the workers watch their parent."""


def start_grader(*args: str, cwd: Path, prelude: str = "") -> subprocess.Popen:
    code = "import sys; from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"
    code = prelude + code
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def workers_left_after_killing(process: subprocess.Popen, ready: Callable[[], bool]) -> list[int]:
    """Wait for the process's two workers (and ``ready``), SIGKILL the process, and return
    the workers still running after :data:`LIVENESS` seconds (killing those afterwards)."""
    workers: list[int] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        workers = children(process.pid)
        if len(workers) >= 2 and ready():
            break
        time.sleep(0.05)
    assert process.poll() is None, "the command finished before it could be killed"
    assert len(workers) >= 2, f"no workers appeared: {workers}"
    process.kill()
    process.wait()
    try:
        deadline = time.monotonic() + LIVENESS
        while time.monotonic() < deadline and any(running(pid) for pid in workers):
            time.sleep(0.1)
        return [pid for pid in workers if running(pid)]
    finally:
        for pid in workers:  # this test leaves no orphan behind, whatever happened
            if running(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("prelude", ["", WITHOUT_PDEATHSIG], ids=["pdeathsig", "watch"])
def test_killing_a_batch_stops_its_workers(tmp_path, prelude):
    puzzle = json.loads((EXAMPLES / "sudoku.json").read_text())
    source = tmp_path / "many.jsonl"  # the same puzzle on each line: one task per line
    source.write_text((json.dumps(puzzle) + "\n") * 3000, encoding="utf-8")
    out = tmp_path / "results.csv"
    args = ["batch", str(source), "-o", str(out), "--workers", "2"]
    process = start_grader(*args, cwd=tmp_path, prelude=prelude)
    left = workers_left_after_killing(process, journal_path(out).exists)
    assert left == [], f"workers {left} outlived their parent"
    assert journal_path(out).exists() and not out.exists()


def test_killing_a_generation_stops_its_workers(tmp_path):
    args = ["generate", "sudoku", "--level", "hard", "-n", "20", "--no-progress"]
    process = start_grader(*args, "-o", "x.jsonl", "--workers", "2", cwd=tmp_path)
    left = workers_left_after_killing(process, lambda: True)
    assert left == [], f"workers {left} outlived their parent"
    assert not (tmp_path / "x.jsonl").exists()


def test_a_worker_stops_when_told_even_under_a_parent_with_its_own_sigterm_handler():
    """A web server (uvicorn) handles SIGTERM to shut down gracefully; its forked workers
    inherited that handler, so stopping a worker that ran past its limit left it running
    beside its replacement. A worker has the default handler back, and a pool closed while
    busy kills its workers."""
    from grader.storage.batch import LocalPool

    before = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        told, closed = LocalPool(1), LocalPool(1)
    finally:
        signal.signal(signal.SIGTERM, before)
    try:
        for pool in (told, closed):
            pool.executor.submit(time.sleep, 60)
        (told_pid,) = list(told.executor._processes)
        (closed_pid,) = list(closed.executor._processes)
        os.kill(told_pid, signal.SIGTERM)
        closed.close(True)
        deadline = time.monotonic() + LIVENESS
        while (running(told_pid) or running(closed_pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not running(told_pid), "SIGTERM did not stop the worker"
        assert not running(closed_pid), "closing the pool left its busy worker running"
    finally:
        told.close(True)
