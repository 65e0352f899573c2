"""The deadline of the work under way, for long searches deep inside a family's hooks.

The engine and the exact search take their deadline as an argument. A family's hooks
(:meth:`grader.rating.family.Family.random_solution` and the searches it calls) take none: the
generator sets the deadline of each attempt with :func:`deadline_scope`, and the long searches
read it with :func:`ambient_deadline` when they are given none, so that ``generate --timeout``
holds at every size without a deadline parameter on every hook.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial

from grader.core.technique import check_deadline

_DEADLINE: ContextVar[float | None] = ContextVar("grader_deadline", default=None)


@contextmanager
def deadline_scope(deadline: float | None) -> Iterator[None]:
    """Within the block, :func:`ambient_deadline` is ``deadline`` (a ``time.monotonic``
    reading; None: no limit)."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def ambient_deadline() -> float | None:
    """The deadline set by the innermost :func:`deadline_scope`, or None."""
    return _DEADLINE.get()


def ambient_check() -> Callable[[], None] | None:
    """A check for a long pass (a :data:`grader.core.technique.Check`) that raises
    :class:`grader.core.technique.EngineTimeout` once the ambient deadline is past; None when
    there is none."""
    deadline = _DEADLINE.get()
    return None if deadline is None else partial(check_deadline, deadline)
