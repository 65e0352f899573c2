"""A ``grader serve`` started for tests on a free port, stopped afterwards."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(process: subprocess.Popen, port: int, seconds: float = 60.0) -> None:
    """Wait until the server answers on ``port`` (fail if it ends first)."""
    import httpx

    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        if process.poll() is not None:
            pytest.fail(f"grader serve ended ({process.returncode}): {process.stderr.read()}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/about", timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.2)
    pytest.fail("grader serve did not answer within a minute")


@contextmanager
def running_server(*options: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """The address of a server started with ``options``, and its process."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", "from grader.cli import grader_main; grader_main()", "serve",
         "--port", str(port), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )  # fmt: skip
    try:
        wait_until_up(process, port)
        yield f"http://127.0.0.1:{port}", process
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(child) for child in text]
    return found
