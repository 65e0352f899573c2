"""The server's worker processes: a job that crashes its worker, outlives its limit or loses
its client has its worker replaced, and the next job runs."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from grader.serve.workers import JobFailed, Workers


def crash() -> None:
    os._exit(3)


async def never_gone() -> bool:
    return False


async def gone() -> bool:
    return True


def run_with(job, *args, limit: float = 30.0, left=never_gone):
    """The outcome of ``job(*args)`` in a pool of one worker, then of a plain job after it,
    the workers' pids before and after, and how many were replaced."""

    async def main():
        workers = Workers(1)
        workers.start()
        before = workers.pids()
        try:
            try:
                outcome = await workers.run(job, *args, limit=limit, gone=left)
            except JobFailed as failed:
                outcome = failed
            after = await workers.run(os.getpid, limit=30.0)
            return outcome, after, before, workers.pids(), workers.replaced
        finally:
            workers.close()

    return asyncio.run(main())


def test_a_job_runs_in_a_worker_process():
    outcome, after, before, now, replaced = run_with(os.getpid)
    assert outcome == after == before[0] != os.getpid()
    assert replaced == 0 and now == before


@pytest.mark.parametrize(
    ("job", "args", "limit", "left", "status"),
    [
        (crash, (), 30.0, never_gone, 500),
        (time.sleep, (60,), 0.5, never_gone, 504),
        (time.sleep, (60,), 30.0, gone, 499),
    ],
)
def test_a_failed_job_gets_its_worker_replaced(job, args, limit, left, status):
    outcome, after, before, now, replaced = run_with(job, *args, limit=limit, left=left)
    assert isinstance(outcome, JobFailed) and outcome.status == status
    assert replaced == 1 and now == [after] and after != before[0]
