"""Things built once per key and shared by every model of that key (a file of puzzles builds
a model per puzzle, but every 9x9 sudoku has the same constraints), least recently used
dropped past a limit."""

from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class SharedByKey(Generic[V]):
    """At most ``limit`` values by key; :meth:`get` builds a missing one. Threads may share
    it (a dask worker grades in threads): a key another thread drops between the reading and
    the reordering would otherwise raise."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.RLock()  # a build may ask for another key
        _stores.add(self)

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        """The value kept for ``key``, built by ``build()`` the first time."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                found = self._items[key] = build()
                while len(self._items) > self.limit:
                    self._items.popitem(last=False)
            else:
                self._items.move_to_end(key)
            return found


_stores: weakref.WeakSet[SharedByKey] = weakref.WeakSet()


def _fresh_locks() -> None:
    """In a forked child, no other thread is left to release a lock held at the fork."""
    for store in list(_stores):
        store._lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_locks)
