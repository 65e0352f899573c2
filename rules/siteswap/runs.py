"""The siteswap line rule: a run of throws a_0..a_{n-1} is a valid vanilla siteswap when the
landing sites (i + a_i) mod n are all different (a permutation of the n beats).

Which throws a cell can still take in some valid completion is an all-different question on the
landing sites, answered exactly by one bipartite matching (positions to sites) and the strongly
connected components of its residual graph (Régin's filtering), not by enumerating completions.
With ``nontrivial`` a run must hold at least two different throws (a constant run ``cc...c`` is
always a valid siteswap, so exactly those completions are excluded).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from grader.core.constraints import VALUE
from grader.core.lines import AutomatonState, LineRule
from grader.core.model import is_single, single_value, values_of
from grader.core.technique import Check

if TYPE_CHECKING:
    from grader.core.exact import CnfBuilder


def site_mask(mask: int, pos: int, n: int) -> int:
    """The landing sites (mod n) of the throws in ``mask`` made at position ``pos``."""
    full = (1 << n) - 1
    shifted = mask << pos
    while shifted > full:
        shifted = (shifted & full) | (shifted >> n)
    return shifted


_SITES: dict[tuple[int, tuple[int, ...]], list[int]] = {}


def site_masks(masks: Sequence[int], n: int) -> list[int]:
    """Per position, the mask of landing sites its candidate throws reach (memoized)."""
    key = (n, tuple(masks))
    found = _SITES.get(key)
    if found is None:
        if len(_SITES) > 100_000:
            _SITES.clear()
        found = _SITES[key] = [site_mask(m, i, n) for i, m in enumerate(masks)]
    return found


_CLAIMS: dict[tuple[int, tuple[int, ...]], tuple[int, dict[int, int]]] = {}


def claimed_sites(masks: Sequence[int], n: int) -> tuple[int, dict[int, int]]:
    """Sites that some position surely lands on (its throws all land there): their mask, and
    site → position. Memoized; callers must not change the result."""
    key = (n, tuple(masks))
    found = _CLAIMS.get(key)
    if found is None:
        if len(_CLAIMS) > 100_000:
            _CLAIMS.clear()
        claimed: dict[int, int] = {}
        bits = 0
        for j, site in enumerate(site_masks(masks, n)):
            if site & (site - 1) == 0:
                claimed.setdefault(site.bit_length() - 1, j)
                bits |= site
        found = _CLAIMS[key] = (bits, claimed)
    return found


def perfect_matching(adj: Sequence[int], n: int) -> list[int] | None:
    """Position → site of a perfect matching in the bipartite graph ``adj`` (site masks)."""
    site_of = [-1] * n
    pos_of = [-1] * n

    def augment(i: int, seen: list[bool]) -> bool:
        for s in values_of(adj[i]):
            if seen[s]:
                continue
            seen[s] = True
            if pos_of[s] < 0 or augment(pos_of[s], seen):
                site_of[i], pos_of[s] = s, i
                return True
        return False

    for i in sorted(range(n), key=lambda p: adj[p].bit_count()):
        if not augment(i, [False] * n):
            return None
    return site_of


def supported_sites(adj: Sequence[int], n: int) -> list[int] | None:
    """Per position, the sites it takes in some perfect matching (None: no perfect matching).

    Régin: with a perfect matching M, edge (i, s) lies in some perfect matching iff it is in M or
    i and s share a strongly connected component of the graph with M's edges site → position and
    the others position → site.
    """
    match = perfect_matching(adj, n)
    if match is None:
        return None
    # Nodes 0..n-1 positions, n..2n-1 sites.
    succ: list[list[int]] = [[] for _ in range(2 * n)]
    for i in range(n):
        for s in values_of(adj[i]):
            if match[i] == s:
                succ[n + s].append(i)
            else:
                succ[i].append(n + s)
    comp = scc(succ)
    out = []
    for i in range(n):
        keep = 1 << match[i]
        for s in values_of(adj[i] & ~keep):
            if comp[i] == comp[n + s]:
                keep |= 1 << s
        out.append(keep)
    return out


def scc(succ: Sequence[Sequence[int]]) -> list[int]:
    """Component number of every node (iterative Tarjan)."""
    count = len(succ)
    index = [-1] * count
    low = [0] * count
    comp = [-1] * count
    on_stack = [False] * count
    stack: list[int] = []
    counter = 0
    ncomp = 0
    for root in range(count):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            node, edge = work.pop()
            if edge == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            recurse = False
            for k in range(edge, len(succ[node])):
                nxt = succ[node][k]
                if index[nxt] < 0:
                    work.append((node, k + 1))
                    work.append((nxt, 0))
                    recurse = True
                    break
                if on_stack[nxt]:
                    low[node] = min(low[node], index[nxt])
            if recurse:
                continue
            if low[node] == index[node]:
                while True:
                    top = stack.pop()
                    on_stack[top] = False
                    comp[top] = ncomp
                    if top == node:
                        break
                ncomp += 1
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return comp


class SiteswapRule(LineRule):
    """A run of ``n`` throws that must form a valid vanilla siteswap (optionally non-constant)."""

    def __init__(self, n: int, nontrivial: bool = False) -> None:
        self.n = n
        self.nontrivial = nontrivial

    def site(self, index: int, value: int) -> int:
        """The landing site (0-based beat, mod n) of ``value`` thrown at position ``index``."""
        return (index + value) % self.n

    # -- automaton (for counting, completions and tests) --------------------------------------

    def start(self) -> AutomatonState:
        return (0, -1, False)

    def step(self, state: AutomatonState, index: int, value: int) -> AutomatonState | None:
        sites, first, varied = state  # type: ignore[misc]
        bit = 1 << self.site(index, value)
        if sites & bit:
            return None
        if not self.nontrivial:
            return (sites | bit, -1, False)
        if index == 0:
            return (sites | bit, value, False)
        return (sites | bit, first, varied or value != first)

    def accepts(self, state: AutomatonState) -> bool:
        sites, _, varied = state  # type: ignore[misc]
        return sites == (1 << self.n) - 1 and (varied or not self.nontrivial)

    # -- exact passes --------------------------------------------------------------------------

    def supports(self, masks: Sequence[int], check: Check | None = None) -> list[int] | None:
        """Per cell, the throws some valid run gives it (None: none). With ``nontrivial``, one
        matching per cell and throw every cell allows (an empty 40-beat run: 0.08 CPU s with
        throws 1-9, 0.9 s with 0-35): ``check`` is called before each cell's."""
        n = self.n
        support = self._site_supports(masks)
        if support is None or not self.nontrivial:
            return support
        common = support[0]
        for mask in support[1:]:
            common &= mask
        for c in values_of(common):
            # The constant run c...c is valid but forbidden: keep c at i only if another
            # completion with a_i = c exists, i.e. one where some other cell differs from c.
            for i in range(n):
                if check is not None:
                    check()
                fixed = list(masks)
                fixed[i] = 1 << c
                other = self._site_supports(fixed)
                if other is None or not any(m & ~(1 << c) for j, m in enumerate(other) if j != i):
                    support[i] &= ~(1 << c)
        if any(m == 0 for m in support):
            return None
        return support

    def _site_supports(self, masks: Sequence[int]) -> list[int] | None:
        n = self.n
        if any(m == 0 for m in masks):
            return None
        sites = supported_sites(site_masks(masks, n), n)
        if sites is None:
            return None
        out = []
        for i, mask in enumerate(masks):
            keep = 0
            for v in values_of(mask):
                if sites[i] >> ((i + v) % n) & 1:
                    keep |= 1 << v
            out.append(keep)
        return out

    def count(self, masks: Sequence[int]) -> int:
        n = self.n
        counts: dict[int, int] = {0: 1}
        for i, mask in enumerate(masks):
            nxt: dict[int, int] = {}
            for sites, c in counts.items():
                for v in values_of(mask):
                    bit = 1 << ((i + v) % n)
                    if not sites & bit:
                        nxt[sites | bit] = nxt.get(sites | bit, 0) + c
            counts = nxt
            if not counts:
                return 0
        total = counts.get((1 << n) - 1, 0)
        if self.nontrivial and masks:
            common = masks[0]
            for mask in masks[1:]:
                common &= mask
            total -= common.bit_count()
        return total

    def violation(self, masks: Sequence[int]) -> str | None:
        n = self.n
        seen: dict[int, int] = {}
        values = []
        for i, mask in enumerate(masks):
            if not is_single(mask):
                continue
            v = single_value(mask)
            values.append(v)
            s = (i + v) % n
            if s in seen:
                return f"has two throws landing on beat {s + 1}"
            seen[s] = i
        if self.nontrivial and len(values) == n and len(set(values)) == 1:
            return f"holds only the throw {VALUE.format(values[0])}"
        return None

    def encode(self, cnf: CnfBuilder, variables: Sequence[int]) -> None:
        """Site literals y[i, s] ⇔ "position i lands on site s"; each site exactly once."""
        n = self.n
        by_site: list[list[int]] = [[] for _ in range(n)]
        for i, var in enumerate(variables):
            groups: dict[int, list[int]] = {}
            for v in values_of(cnf.model.variables[var].domain):
                groups.setdefault((i + v) % n, []).append(cnf.lit(var, v))
            for s, lits in groups.items():
                y = cnf.new_var()
                for x in lits:
                    cnf.add([-x, y])
                cnf.add([-y, *lits])
                by_site[s].append(y)
        for lits in by_site:
            cnf.exactly_one(lits)
        if self.nontrivial:
            common = None
            for var in variables:
                domain = cnf.model.variables[var].domain
                common = domain if common is None else common & domain
            for c in values_of(common or 0):
                cnf.add([-cnf.lit(var, c) for var in variables])
