"""Whether the static chain searches can find anything, from the reach of every potential at
once, so that a search that would come back empty is skipped.

The static links of a grid (an on candidate turns off its cell's other candidates and its
peers' same value; an off candidate turns on its bivalue cell's other candidate and the other
place of its value in a covering house with two places) form a graph in which u leads to w
exactly when not-w leads to not-u. Its strongly connected components, taken successors first,
give each potential's reach as one bitset. Then:

* a forcing chain (X or XY) is a candidate whose on potential reaches its off potential or the
  reverse; every cycle elimination is one too (the eliminated candidate sees an on node of the
  cycle and an off node of it, and the cycle leads from the one to the other), so with no such
  candidate the cycles and forcing chains find nothing, and a cycle is looked for only in a
  component holding an on and an off potential of such a candidate's value in its peers;
* with none, no static propagation meets a contradiction (reaching both x and not-x from p
  means x leads to not-p as well), so a cell or region forcing chain (the multiple kind) exists
  exactly when the reaches of every branch share a potential that is news: an off potential,
  or an on potential of a cell with other candidates.
"""

from __future__ import annotations

from collections.abc import Iterator

from grader.core.model import values_of
from grader.core.technique import Check


class StaticReach:
    """The reach of every potential of a grid's candidates through its static links.

    Candidate k (in the order of cells, then values) has the potentials ``2k`` (off) and
    ``2k + 1`` (on); ``reach[component[p]]`` is the bitset of the potentials p leads to
    (itself included)."""

    def __init__(
        self, cand, vmask, hpos, peer_masks, cover_of_var, V: int, check: Check | None = None
    ) -> None:
        """``check``: called now and then (once per candidate, once per component); it raises
        to stop the making (the engine's deadline: an empty 25x25 grid takes seconds)."""
        index: dict[int, int] = {}  # var * V + value -> candidate number
        for var, mask in enumerate(cand):
            for v in values_of(mask):
                index[var * V + v] = len(index)
        self.index = index
        self.keys = list(index)
        self.cand, self.vmask, self.peer_masks, self.V = cand, vmask, peer_masks, V
        links: list[list[int]] = []
        for key in index:
            if check is not None:
                check()
            var, v = divmod(key, V)
            others = cand[var] & ~(1 << v)
            off_links = []  # not this candidate: what turns on
            if others.bit_count() == 1:
                off_links.append(2 * index[var * V + others.bit_length() - 1] + 1)
            for h in cover_of_var[var]:
                places = hpos[h * V + v]
                if places.bit_count() == 2:
                    q = (places & ~(1 << var)).bit_length() - 1
                    off_links.append(2 * index[q * V + v] + 1)
            on_links = [2 * index[var * V + w] for w in values_of(others)]
            peers = vmask[v] & peer_masks[var]
            while peers:
                low = peers & -peers
                on_links.append(2 * index[(low.bit_length() - 1) * V + v])
                peers ^= low
            links.append(off_links)
            links.append(on_links)
        self.component, self.reach = _reaches(links, check)
        self._forcing: bool | None = None
        self._cycling: set[int] | None = None

    def of(self, potential: int) -> int:
        return self.reach[self.component[potential]]

    def has_forcing_chain(self) -> bool:
        """Whether some candidate's on potential reaches its off potential or the reverse
        (found once: the searches ask before each kind)."""
        if self._forcing is None:
            of = self.of
            self._forcing = any(
                of(2 * k + 1) >> (2 * k) & 1 or of(2 * k) >> (2 * k + 1) & 1
                for k in range(len(self.index))
            )
        return self._forcing

    def cycle_components(self) -> set[int]:
        """The components in which a cycle can eliminate anything (found once). A cycle's
        elimination sees an on and an off potential of the cycle (its value, in its peers): its
        on potential leads to the off one, along the cycle to the on one and on to its own off
        potential, a forcing chain; and the cycle's component holds both of those potentials."""
        if self._cycling is None:
            index, component, V = self.index, self.component, self.V
            self._cycling = set()
            for k, key in enumerate(self.keys):
                if not self.of(2 * k + 1) >> (2 * k) & 1:
                    continue
                var, v = divmod(key, V)
                with_off, with_on = set(), set()
                peers = self.vmask[v] & self.peer_masks[var]
                while peers:
                    low = peers & -peers
                    j = index[(low.bit_length() - 1) * V + v]
                    with_off.add(component[2 * j])
                    with_on.add(component[2 * j + 1])
                    peers ^= low
                self._cycling |= with_off & with_on
        return self._cycling

    def candidate(self, k: int) -> tuple[int, int]:
        """Candidate number ``k`` as (cell, value)."""
        return divmod(self.keys[k], self.V)

    def forcing_conclusions(self) -> tuple[list, list] | None:
        """Everything the cycles and forcing chains conclude, as (placements, eliminations): a
        candidate of a cell with several whose on potential reaches its off one is false, one
        whose off potential reaches its on one is true. None when a candidate of a cell with
        one candidate reaches its opposite (a grid with a rule already broken: the searches
        say what follows there)."""
        of, cand = self.of, self.cand
        placements, eliminations = [], []
        for k in range(len(self.keys)):
            to_off = of(2 * k + 1) >> (2 * k) & 1
            to_on = of(2 * k) >> (2 * k + 1) & 1
            if not to_off and not to_on:
                continue
            var, v = self.candidate(k)
            if cand[var].bit_count() < 2:
                return None
            if to_off:
                eliminations.append((var, v))
            if to_on:
                placements.append((var, v))
        return placements, eliminations

    def multiple_news(self, cover_of_var, hpos) -> int:
        """The potentials (a bitset) that every branch of some cell of three or more
        candidates, or of a value's places in a covering house whose first place is such a
        cell, reaches and that are news: off potentials, and on potentials of cells with other
        candidates (valid when :meth:`has_forcing_chain` is False: the reaches are then whole
        propagations)."""
        found = 0
        for _, shared in self.multiple_shared(cover_of_var, hpos):
            found |= shared
        return found

    def multiple_shared(self, cover_of_var, hpos) -> Iterator[tuple[int | tuple[int, int], int]]:
        """Each source of the multiple kind, a cell of three or more candidates (its number)
        or a value's places in a covering house whose first place is such a cell ((house,
        value)), with the news every branch of it reaches (:meth:`multiple_news`)."""
        cand, V, index, of = self.cand, self.V, self.index, self.of
        news = 0
        for key, k in index.items():
            news |= 1 << (2 * k)
            if cand[key // V].bit_count() > 1:
                news |= 1 << (2 * k + 1)
        for var, mask in enumerate(cand):
            if mask.bit_count() <= 2:
                continue
            shared = news
            for v in values_of(mask):
                shared &= of(2 * index[var * V + v] + 1)
            yield var, shared
            for v in values_of(mask):
                for h in cover_of_var[var]:
                    places = hpos[h * V + v]
                    if places.bit_count() < 2 or (places & -places).bit_length() - 1 != var:
                        continue
                    shared = news
                    while places and shared:
                        low = places & -places
                        shared &= of(2 * index[(low.bit_length() - 1) * V + v] + 1)
                        places ^= low
                    yield (h, v), shared

    def conclusions(self, potentials: int) -> tuple[list, list]:
        """(placements, eliminations) of potentials known to hold (a bitset): an on potential
        places its candidate, an off one removes it."""
        placements, eliminations = [], []
        while potentials:
            low = potentials & -potentials
            node = low.bit_length() - 1
            (placements if node & 1 else eliminations).append(self.candidate(node >> 1))
            potentials ^= low
        return placements, eliminations


def _reaches(links: list[list[int]], check: Check | None = None) -> tuple[list[int], list[int]]:
    """Strongly connected components (Tarjan's, without recursion), numbered as they close
    (successors first), and each one's reach as a bitset of nodes. ``check`` is called as
    each component closes."""
    n = len(links)
    order = [-1] * n
    low = [0] * n
    component = [-1] * n
    stack: list[int] = []
    reach: list[int] = []
    counter = 0
    for root in range(n):
        if order[root] >= 0:
            continue
        work = [(root, 0)]
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        while work:
            node, i = work[-1]
            targets = links[node]
            if i < len(targets):
                work[-1] = (node, i + 1)
                t = targets[i]
                if order[t] < 0:
                    order[t] = low[t] = counter
                    counter += 1
                    stack.append(t)
                    work.append((t, 0))
                elif component[t] < 0 and order[t] < low[node]:
                    low[node] = order[t]
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] != order[node]:
                continue
            if check is not None:
                check()
            c = len(reach)
            members = 0
            while True:
                w = stack.pop()
                component[w] = c
                members |= 1 << w
                if w == node:
                    break
            found = members
            rest = members
            while rest:
                bit = rest & -rest
                for t in links[bit.bit_length() - 1]:
                    if component[t] != c:
                        found |= reach[component[t]]
                rest ^= bit
            reach.append(found)
    return component, reach


def nishio_may_find(cand, vmask, hpos, peer_masks, covering: list[int], V: int) -> bool:
    """False when no Nishio chain exists: no candidate of a cell with several, assumed on or
    off, leads to a contradiction when its value alone is followed as the grid empties (an on
    place turns its peers' same value off; a covering house with one place of the value left
    out of two or more turns it on; two on places that see each other, or a house left with
    none, contradict). That propagation stays in one value's places, so it is done there on
    cell bitsets; a start that an earlier propagation without contradiction reached is not
    tried again (its own propagation lies inside that one)."""
    for v in range(V):
        places = vmask[v]
        houses = [p for h in covering if (p := hpos[h * V + v]).bit_count() >= 2]
        safe_on = safe_off = 0
        rest = places
        while rest:
            low = rest & -rest
            rest ^= low
            if cand[low.bit_length() - 1].bit_count() < 2:
                continue
            for on in (True, False):
                if (safe_on if on else safe_off) & low:
                    continue
                found = _value_closure(low, on, places, houses, peer_masks)
                if found is None:
                    return True
                safe_on |= found[0]
                safe_off |= found[1]
    return False


def _value_closure(start: int, on: bool, places: int, houses: list[int], peer_masks):
    """The (on, off) places one value's propagation reaches from ``start`` (a cell bit), or
    None at a contradiction."""
    on_cells, off_cells = (start, 0) if on else (0, start)
    fresh = on_cells
    while True:
        turned_off = 0
        while fresh:
            low = fresh & -fresh
            turned_off |= peer_masks[low.bit_length() - 1]
            fresh ^= low
        turned_off &= places
        if turned_off & on_cells:
            return None
        off_cells |= turned_off
        for house in houses:
            left = house & ~off_cells
            if not left:
                return None
            if not left & (left - 1) and not left & on_cells:
                fresh |= left
        if not fresh:
            return on_cells, off_cells
        on_cells |= fresh
