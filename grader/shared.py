"""Things built once per key and shared by every model of that key (a file of puzzles builds
a model per puzzle, but every 9x9 sudoku has the same constraints), least recently used
dropped past a limit."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class SharedByKey(Generic[V]):
    """At most ``limit`` values by key; :meth:`get` builds a missing one."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        """The value kept for ``key``, built by ``build()`` the first time."""
        found = self._items.get(key)
        if found is None:
            found = self._items[key] = build()
            while len(self._items) > self.limit:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(key)
        return found
