"""Things built once per key and shared by every model of that key (a file of puzzles builds
a model per puzzle, but every 9x9 sudoku has the same constraints), least recently used
dropped past a limit."""

from __future__ import annotations

import threading
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
