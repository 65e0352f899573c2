"""Running ``grade`` and ``grader`` in-process, as a user runs them, with their output captured.

The commands run through the same entry logic as the installed scripts
(:func:`grader.cli.common.main`), so exit codes and one-line errors are the real ones; only the
process start is saved. :func:`run_script` starts a real process when the process itself is
measured (time, memory).
"""

from __future__ import annotations

import io
import json
import resource
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from typing import Any


@dataclass
class CliResult:
    """What a command printed and how it ended."""

    args: tuple[str, ...]
    code: int
    stdout: str
    stderr: str
    seconds: float = 0.0
    max_rss_mb: float | None = None
    """Peak memory of the process (only for :func:`run_script`)."""
    cpu_seconds: float | None = None
    """CPU seconds (user + system) of the process (only for :func:`run_script`)."""

    def json_lines(self) -> list[dict[str, Any]]:
        """The JSON objects printed one per line."""
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]

    def describe(self) -> str:
        """The command and its ending, for a failure message."""
        tail = (self.stderr.strip().splitlines() or [""])[-1]
        return f"`{' '.join(self.args)}` exited {self.code}: {tail}"


def run_cli(*args: str) -> CliResult:
    """Run ``grade ...`` or ``grader ...`` (the first word) in this process."""
    from grader.cli import grade_app, grader_app
    from grader.cli.common import main

    program, rest = args[0], list(args[1:])
    app = {"grade": grade_app, "grader": grader_app}[program]
    stdout, stderr = io.StringIO(), io.StringIO()
    started = time.monotonic()
    code = 0
    with redirect_stdout(stdout), redirect_stderr(stderr):
        try:
            main(app, program, rest)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    return CliResult(
        tuple(args), code, stdout.getvalue(), stderr.getvalue(), time.monotonic() - started
    )


_SCRIPT = """
import atexit, resource, sys


def peak_kb():
    # VmHWM is this program's own peak: ru_maxrss also counts the parent's memory copied at fork.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


atexit.register(lambda: print("max_rss_kb", peak_kb(), file=sys.stderr))
from grader.cli import {entry}
sys.argv = {argv!r}
{entry}()
"""


def run_script(*args: str, timeout: float = 300, env: dict[str, str] | None = None) -> CliResult:
    """Run ``grade ...`` or ``grader ...`` in a new Python process: wall-clock seconds and the
    process's peak memory are measured."""
    entry = {"grade": "grade_main", "grader": "grader_main"}[args[0]]
    code = _SCRIPT.format(entry=entry, argv=list(args))
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    seconds = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    rss = None
    lines = []
    for line in done.stderr.splitlines():
        if line.startswith("max_rss_kb "):
            rss = int(line.split()[1]) / 1024
        else:
            lines.append(line)
    stderr = "\n".join(lines)
    return CliResult(tuple(args), done.returncode, done.stdout, stderr, seconds, rss, cpu)
