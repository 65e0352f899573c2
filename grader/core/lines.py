"""Line rules: which value sequences a line may hold, as a deterministic automaton.

A family describes a line (a Binairo row with its counts, run limit and signs; a siteswap run)
by a :class:`LineRule`. From it the engine computes, exactly and without enumerating completions,
which values each cell can still take in some valid completion (forward-backward dynamic
programming over the automaton's reachable states). A rule may override :meth:`supports` with a
faster specialised pass and :meth:`encode` with a compact SAT encoding.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from grader.core.model import values_of
from grader.core.technique import Check

if TYPE_CHECKING:
    from grader.core.exact import CnfBuilder

AutomatonState = Hashable
_MISSING = object()


class LineRule:
    """A deterministic automaton over a line's values (one transition per cell)."""

    def start(self) -> AutomatonState:
        raise NotImplementedError

    def step(self, state: AutomatonState, index: int, value: int) -> AutomatonState | None:
        """The state after putting ``value`` at position ``index``; None if that breaks the rule."""
        raise NotImplementedError

    def accepts(self, state: AutomatonState) -> bool:
        raise NotImplementedError

    # -- derived passes ---------------------------------------------------------------------

    def cached_supports(self, masks: Sequence[int], check: Check | None = None) -> list[int] | None:
        """:meth:`supports`, remembered per mask tuple (lines repeat a lot during a solve, and
        the puzzles of a file share their unsigned lines' rules: one read, as another thread
        may clear the cache between a test and a read). ``check`` as for :meth:`supports`."""
        cache = self.__dict__.setdefault("_support_cache", {})
        key = tuple(masks)
        found = cache.get(key, _MISSING)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        if len(cache) > 50_000:
            cache.clear()
        result = cache[key] = self.supports(key, check)
        return result

    def __getstate__(self) -> dict:
        """Pickled without the remembered supports (a worker's puzzles travel light, and a
        shared rule holds other puzzles' lines)."""
        state = dict(self.__dict__)
        state.pop("_support_cache", None)
        return state

    def supports(self, masks: Sequence[int], check: Check | None = None) -> list[int] | None:
        """For each cell, the values it takes in at least one valid completion; None if none.

        ``check``: called now and then by a pass that may take long (a long run of many
        throws); it raises to stop the pass (the engine's deadline). This generic pass calls
        it once per cell."""
        forward = self._forward(masks, check)
        if forward is None:
            return None
        n = len(masks)
        alive = {s for s in forward[n] if self.accepts(s)}
        if not alive:
            return None
        result = [0] * n
        for i in range(n - 1, -1, -1):
            if check is not None:
                check()
            previous_alive = set()
            support = 0
            for s in forward[i]:
                for value in values_of(masks[i]):
                    nxt = self.step(s, i, value)
                    if nxt is not None and nxt in alive:
                        previous_alive.add(s)
                        support |= 1 << value
            result[i] = support
            alive = previous_alive
        return result

    def count(self, masks: Sequence[int]) -> int:
        """How many valid completions the line has."""
        counts: dict[AutomatonState, int] = {self.start(): 1}
        for i, mask in enumerate(masks):
            nxt: dict[AutomatonState, int] = {}
            for s, c in counts.items():
                for value in values_of(mask):
                    t = self.step(s, i, value)
                    if t is not None:
                        nxt[t] = nxt.get(t, 0) + c
            counts = nxt
            if not counts:
                return 0
        return sum(c for s, c in counts.items() if self.accepts(s))

    def completions(self, masks: Sequence[int], limit: int | None = None) -> list[tuple[int, ...]]:
        """Valid completions of the line (for short lines, tests and explanations)."""
        out: list[tuple[int, ...]] = []

        def walk(i: int, s: AutomatonState, prefix: list[int]) -> bool:
            if i == len(masks):
                if self.accepts(s):
                    out.append(tuple(prefix))
                    return limit is not None and len(out) >= limit
                return False
            for value in values_of(masks[i]):
                t = self.step(s, i, value)
                if t is not None:
                    prefix.append(value)
                    if walk(i + 1, t, prefix):
                        return True
                    prefix.pop()
            return False

        walk(0, self.start(), [])
        return out

    def accepts_values(self, values: Sequence[int]) -> bool:
        s = self.start()
        for i, value in enumerate(values):
            s = self.step(s, i, value)
            if s is None:
                return False
        return self.accepts(s)

    def violation(self, masks: Sequence[int]) -> str | None:
        """A short reason when the decided cells already break the rule, else None.

        The default only judges complete lines; rules override it to name visible breaks
        ("three 0s in a row") in partial lines.
        """
        if all(m and m & (m - 1) == 0 for m in masks):
            values = [m.bit_length() - 1 for m in masks]
            if not self.accepts_values(values):
                return "is not a valid line"
        return None

    def encode(self, cnf: CnfBuilder, variables: Sequence[int]) -> None:
        """Add clauses saying the line's cells follow the automaton (unrolled states)."""
        domains = [cnf.model.variables[v].domain for v in variables]
        layer: dict[AutomatonState, int] = {self.start(): cnf.true_lit()}
        for i, var in enumerate(variables):
            nxt: dict[AutomatonState, int] = {}
            for s, s_lit in layer.items():
                for value in values_of(domains[i]):
                    t = self.step(s, i, value)
                    x = cnf.lit(var, value)
                    if t is None:
                        cnf.add([-s_lit, -x])
                        continue
                    if t not in nxt:
                        nxt[t] = cnf.new_var()
                    cnf.add([-s_lit, -x, nxt[t]])
            layer = nxt
        for s, s_lit in layer.items():
            if not self.accepts(s):
                cnf.add([-s_lit])

    def _forward(
        self, masks: Sequence[int], check: Check | None = None
    ) -> list[set[AutomatonState]] | None:
        layers = [{self.start()}]
        for i, mask in enumerate(masks):
            if check is not None:
                check()
            nxt = set()
            for s in layers[-1]:
                for value in values_of(mask):
                    t = self.step(s, i, value)
                    if t is not None:
                        nxt.add(t)
            if not nxt:
                return None
            layers.append(nxt)
        return layers
