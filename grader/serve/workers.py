"""The worker processes that do the server's work, one job each at a time.

Each worker is a one-process :class:`~grader.storage.batch.LocalPool` (its process ends with the
server, SIGKILL included). A job waits for an idle worker, so a slow puzzle holds up only its
own worker; a job that outlives its hard limit, or whose client went away, has its worker
killed and replaced, and so has a job that crashed its worker. Workers are made (forked) in the
event loop's thread, which lives as long as the server: Linux ends a forked worker when the
thread that forked it ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from grader.storage.batch import LocalPool

POLL_SECONDS = 0.2
"""How often a waiting job looks at its limit and its client."""


class JobFailed(Exception):
    """A job ended without an answer: ``status`` (500 crashed, 504 out of time, 499 the client
    left) and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Workers:
    """``count`` worker processes taking jobs as they become idle."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._idle: asyncio.Queue[LocalPool] = asyncio.Queue()
        self._all: set[LocalPool] = set()
        self.replaced = 0
        """How many workers were killed or crashed and replaced."""

    def start(self) -> None:
        """Make the workers (call it in the thread that runs the event loop)."""
        for _ in range(self.count):
            self._idle.put_nowait(self._new())

    def _new(self) -> LocalPool:
        pool = LocalPool(1)
        self._all.add(pool)
        return pool

    async def run(
        self,
        work: Callable[..., Any],
        *args: Any,
        limit: float,
        gone: Callable[[], Awaitable[bool]] | None = None,
    ) -> Any:
        """``work(*args)`` in an idle worker: its value, or :class:`JobFailed` when it crashes
        the worker, runs past ``limit`` seconds or ``gone()`` says the client left."""
        pool = await self._idle.get()
        if getattr(pool.executor, "_broken", False):  # its process died while it was idle
            pool = await self._replace(pool)
        healthy = True
        try:
            future = asyncio.wrap_future(pool.executor.submit(work, *args))
            loop = asyncio.get_running_loop()
            deadline = loop.time() + limit
            while True:
                done, _ = await asyncio.wait({future}, timeout=POLL_SECONDS)
                if done:
                    return future.result()
                if loop.time() > deadline:
                    healthy = False
                    raise JobFailed(504, f"the work took longer than {limit:g} s and was stopped")
                if gone is not None and await gone():
                    healthy = False
                    raise JobFailed(499, "the client went away; the work was stopped")
        except asyncio.CancelledError:  # the server dropped the request: stop its work too
            healthy = False
            raise
        except BrokenProcessPool:
            healthy = False
            raise JobFailed(
                500, "the worker crashed on this request; a new one was started"
            ) from None
        finally:
            if not healthy:
                pool = await self._replace(pool)
            self._idle.put_nowait(pool)

    async def _replace(self, pool: LocalPool) -> LocalPool:
        """A new worker for one killed (stopped here, off the event loop) or crashed."""
        self._all.discard(pool)
        await asyncio.to_thread(pool.close, True)
        self.replaced += 1
        return self._new()

    def close(self) -> None:
        """Stop every worker at once."""
        for pool in list(self._all):
            pool.close(True)
        self._all.clear()

    def pids(self) -> list[int]:
        """The process ids of the workers (for tests and logs)."""
        return sorted(
            pid for pool in self._all for pid in getattr(pool.executor, "_processes", {}) or {}
        )
