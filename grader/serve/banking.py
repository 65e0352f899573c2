"""The bank named at start, read and written for the API (``/api/bank``), off the event loop.

What a request may ask is what ``grader bank list``, ``publish`` and ``unpublish`` do; a
puzzle to save arrives graded by a worker (:func:`grader.serve.jobs.record_job`).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from grader.core.errors import InputError, UsageError

LIST_LIMIT = 200
"""The most entries one listing returns (``limit`` may ask for fewer)."""


class BankProblem(Exception):
    """A bank request that cannot be done: status and one line."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _open(path: Path, create: bool = False) -> Any:
    from grader.storage.bank import Bank

    if not create and not path.exists():
        return None
    return Bank(path, create=create)


def _listing(path: Path, query: dict[str, str]) -> dict[str, Any]:
    from grader.storage.bank import split_levels

    store = _open(path)
    if store is None:
        return {"entries": [], "total": 0}
    published = {"true": True, "false": False, None: None}
    if query.get("published") not in published:
        raise UsageError("published: must be true or false")
    limit = query.get("limit", str(LIST_LIMIT))
    if not limit.isdigit() or not 1 <= int(limit) <= LIST_LIMIT:
        raise UsageError(f"limit: must be a whole number from 1 to {LIST_LIMIT}")
    with store:
        found = store.query(
            family=query.get("family") or None,
            level=split_levels(query.get("level")),
            published=published[query.get("published")],
            limit=int(limit),
            order=query.get("order", "-added"),
        )
        return {"entries": [entry.to_dict() for entry in found], "total": store.count()}


def _save(path: Path, record: dict[str, Any]) -> dict[str, Any]:
    from grader.storage.bank import reference

    with _open(path, create=True) as store:
        added, _ = store.add([record])
        entry = store.get(reference(record["key"]))
    return {"added": bool(added), "entry": entry.to_dict()}


def _entry(path: Path, ref: str) -> dict[str, Any]:
    store = _open(path)
    if store is None:
        raise BankProblem(f"{path}: no puzzle {ref!r} in the bank", 404)
    with store:
        return store.get(ref).to_dict()


def _publish(path: Path, ref: str, published: bool) -> dict[str, Any]:
    store = _open(path)
    if store is None:
        raise BankProblem(f"{path}: no puzzle {ref!r} in the bank", 404)
    with store:
        entry = store.get(ref)
        if published:
            store.mark_published([entry.ref])
        else:
            store.unpublish([entry.ref])
        return store.get(entry.ref).to_dict()


async def _call(function: Any, *args: Any) -> dict[str, Any]:
    """``function(*args)`` in a thread; bad requests as :class:`BankProblem`."""
    try:
        return await asyncio.to_thread(function, *args)
    except (InputError, UsageError) as problem:
        message = str(problem)
        raise BankProblem(message, 404 if "no puzzle" in message else 400) from None


async def listing(path: Path, query: dict[str, str]) -> dict[str, Any]:
    """Entries matching ``family``, ``level``, ``published``, newest first unless ``order``."""
    return await _call(_listing, path, query)


async def save(path: Path, record: dict[str, Any]) -> dict[str, Any]:
    """Store a graded puzzle: whether it was new, and its entry."""
    return await _call(_save, path, record)


async def entry(path: Path, ref: str) -> dict[str, Any]:
    return await _call(_entry, path, ref)


async def publish(path: Path, ref: str, published: bool) -> dict[str, Any]:
    """Mark an entry published (today) or not; the entry as it is now."""
    return await _call(_publish, path, ref, published)
