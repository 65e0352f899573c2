"""Chains of implications over candidates, rated on Sudoku Explainer's scale.

In the engine's terms a chain is a lookahead: assume a candidate on (or off), follow what
follows, and keep the conclusions that hold whatever was assumed. The kinds, cheapest first:

* ``static``: X-cycles and Y-cycles, forcing X-chains and forcing chains (alternating strong and
  weak links in the unchanged grid; 6.5 for a cycle on one value or on bivalue cells, 6.6 for a
  forcing X-chain, 7.0 once both kinds of link are mixed);
* ``nishio``: one value followed through the grid as it empties (hidden singles only) until a
  contradiction (7.5);
* ``multiple``: every candidate of a cell, or every place of a value in a house, leads to the
  same conclusion (cell and region forcing chains, 8.0);
* ``dynamic``: the same with the grid emptying as the chain goes, plus contradictions and double
  implications (8.5); ``nesting=1`` also lets locked candidates, naked and hidden pairs and
  X-wings act inside the chain (9.0).

The rating adds SE's length bonus: 0.1 for every threshold 4, 6, 8, 12, 16, 24, 32, ... that the
chain's node count minus two exceeds. A potential's node count includes every assumption it
depends on (its ancestors), kept as a bitset so that counting is cheap.

Houses are the model's :class:`~grader.constraints.AllDifferent` constraints, so any family made
of houses (sudoku, latin squares with boxes) can use these chains.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from grader.explain import Explainer
from grader.model import State, is_single, values_of
from grader.step import Step
from grader.technique import Context, Technique
from grader.techniques.houses import Houses, houses_of

BASES = {"nishio": 7.5, "multiple": 8.0, "dynamic": 8.5}


def length_bonus(complexity: int) -> float:
    """SE's extra rating for a chain of ``complexity`` nodes."""
    added = 0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added / 10


@dataclass(order=True)
class Hint:
    """One chain conclusion, ordered as SE ranks them."""

    difficulty: float
    complexity: int
    sort_key: int
    order: int
    kind: str = field(compare=False)
    placements: tuple = field(compare=False, default=())
    eliminations: tuple = field(compare=False, default=())
    chains: tuple = field(compare=False, default=())
    source: tuple = field(compare=False, default=())


class Grid:
    """The candidates of the open cells (placed cells have none), with lookups by house."""

    def __init__(self, houses: Houses, state: State, n_values: int) -> None:
        self.houses = houses
        self.V = n_values
        self.N = len(state)
        cand = []
        for var, mask in enumerate(state):
            if is_single(mask) and not any(state[p] & mask for p in houses.peers[var]):
                cand.append(0)
            else:
                cand.append(mask)
        self.cand = cand
        V = n_values
        vmask = [0] * V
        for var, mask in enumerate(cand):
            for v in values_of(mask):
                vmask[v] |= 1 << var
        self.vmask = vmask
        hpos = [0] * (len(houses.cells) * V)
        for h in range(len(houses.cells)):
            hb = house_bits(houses, h)
            for v in range(V):
                hpos[h * V + v] = vmask[v] & hb
        self.hpos = hpos


def house_bits(houses: Houses, h: int) -> int:
    bits = 0
    for var in houses.cells[h]:
        bits |= 1 << var
    return bits


def model_lookups(houses: Houses, n_vars: int) -> tuple[list[int], list[int]]:
    """Peer masks per variable and cell masks per house."""
    peer_masks = []
    for var in range(n_vars):
        m = 0
        for p in houses.peers[var]:
            m |= 1 << p
        peer_masks.append(m)
    return peer_masks, [house_bits(houses, h) for h in range(len(houses.cells))]


def bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Propagation:
    """The outcome of one assumption: potentials forced on and off, their ancestors."""

    __slots__ = ("contradiction", "off", "on", "parents")

    def __init__(self) -> None:
        self.on: dict[int, int] = {}
        self.off: dict[int, int] = {}
        self.parents: dict[int, tuple[int, ...]] = {}
        self.contradiction: tuple[int, int] | None = None


class ChainSearch:
    """Chain searches over one state."""

    def __init__(self, ctx: Context, nesting: int = 0) -> None:
        model = ctx.model
        self.houses = houses_of(model)
        self.V = max(v.domain.bit_length() for v in model.variables)
        self.grid = Grid(self.houses, ctx.state, self.V)
        lookups = model.memo.get("chain_lookups")
        if lookups is None:
            lookups = model_lookups(self.houses, len(model.variables))
            model.memo["chain_lookups"] = lookups
        self.peer_masks, self.house_masks = lookups
        self.nesting = nesting
        self.ctx = ctx

    # -- static links ------------------------------------------------------------------------

    def weak(self, pid: int, use_y: bool, use_x: bool, cand: list[int], vmask: list[int]):
        """Potentials turned off by an on potential."""
        c = pid >> 1
        var, v = divmod(c, self.V)
        out = []
        if use_y:
            base = var * self.V
            for w in values_of(cand[var] & ~(1 << v)):
                out.append((base + w) << 1)
        if use_x:
            for q in bits(vmask[v] & self.peer_masks[var]):
                out.append((q * self.V + v) << 1)
        return out

    def strong(self, pid: int, use_y: bool, use_x: bool, cand: list[int], hpos: list[int]):
        """(on potential, house or -1) forced by an off potential."""
        c = pid >> 1
        var, v = divmod(c, self.V)
        out = []
        if use_y:
            m = cand[var]
            if m.bit_count() == 2:
                w = (m & ~(1 << v)).bit_length() - 1
                out.append((((var * self.V + w) << 1) | 1, -1))
        if use_x:
            V = self.V
            for h in self.houses.of_var[var]:
                pm = hpos[h * V + v]
                if pm.bit_count() == 2:
                    q = (pm & ~(1 << var)).bit_length() - 1
                    out.append((((q * V + v) << 1) | 1, h))
        return out

    # -- static chains and cycles ------------------------------------------------------------

    def static_hints(self) -> list[Hint]:
        g = self.grid
        hints: list[Hint] = []
        order = 0
        for use_y, use_x in ((False, True), (True, False), (True, True)):
            for var in range(g.N):
                m = g.cand[var]
                if m.bit_count() < 2:
                    continue
                if use_y and not use_x and m.bit_count() != 2:
                    continue
                for v in values_of(m):
                    pid = ((var * self.V + v) << 1) | 1
                    for hint in self.cycles(pid, use_y, use_x):
                        hint.order = order
                        order += 1
                        hints.append(hint)
                    if use_x:
                        for hint in self.forcing(pid, use_y):
                            hint.order = order
                            order += 1
                            hints.append(hint)
                        for hint in self.forcing(pid ^ 1, use_y):
                            hint.order = order
                            order += 1
                            hints.append(hint)
        return hints

    def cycles(self, source: int, use_y: bool, use_x: bool) -> list[Hint]:
        g = self.grid
        cand, vmask, hpos = g.cand, g.vmask, g.hpos
        # nodes are (pid, parent node) linked lists
        start = (source, None)
        to_on = {source}
        pending_on = [start]
        pending_off: list = []
        length = 0
        found = []
        while pending_on or pending_off:
            length += 1
            next_off = []
            for node in pending_on:
                for t in self.weak(node[0], use_y, use_x, cand, vmask):
                    if not is_ancestor(node, t):
                        next_off.append((t, node))
            pending_on = []
            pending_off = next_off
            length += 1
            for node in pending_off:
                for t, _ in self.strong(node[0], use_y, use_x, cand, hpos):
                    if length >= 4 and t == source:
                        found.append((t, node))
                    if t not in to_on:
                        to_on.add(t)
                        pending_on.append((t, node))
            pending_off = []
        out = []
        base = 7.0 if use_x and use_y else 6.5
        sort_key = 4 if use_x and use_y else (3 if use_y else 2)
        for end in found:
            path = chain_of(end)
            complexity = len(set(path))
            elims = self.cycle_eliminations(path)
            if elims:
                out.append(
                    Hint(
                        round(base + length_bonus(complexity), 1),
                        complexity,
                        sort_key,
                        0,
                        "x-cycle" if not use_y else ("y-cycle" if not use_x else "xy-cycle"),
                        eliminations=tuple(elims),
                        chains=(path,),
                        source=(source,),
                    )
                )
        return out

    def cycle_eliminations(self, path: list[int]) -> list[tuple[int, int]]:
        V = self.V
        cand = self.grid.cand
        cells = {p >> 1 for p in path}
        cell_vars = {c // V for c in cells}
        forward: set[tuple[int, int]] = set()
        backward: set[tuple[int, int]] = set()
        for pid in path[1:]:
            var, v = divmod(pid >> 1, V)
            target = forward if pid & 1 else backward
            for q in self.houses.peers[var]:
                if q not in cell_vars and cand[q] >> v & 1:
                    target.add((q, v))
        return sorted(forward & backward)

    def forcing(self, source: int, use_y: bool) -> list[Hint]:
        """Chains from ``source`` to its own opposite (a forcing chain)."""
        g = self.grid
        cand, vmask, hpos = g.cand, g.vmask, g.hpos
        goal = source ^ 1
        start = (source, None)
        seen = {source}
        pending = [start]
        found = []
        while pending:
            nxt = []
            for node in pending:
                pid = node[0]
                if pid & 1:
                    targets = self.weak(pid, use_y, True, cand, vmask)
                else:
                    targets = [t for t, _ in self.strong(pid, use_y, True, cand, hpos)]
                for t in targets:
                    if t == goal and not any(f[0] == t for f in found):
                        found.append((t, node))
                    if t not in seen and not is_ancestor(node, t):
                        seen.add(t)
                        nxt.append((t, node))
            pending = nxt
        out = []
        base = 7.0 if use_y else 6.6
        for end in found:
            path = chain_of(end)
            complexity = len(set(path))
            var, v = divmod(source >> 1, self.V)
            if source & 1:
                elims = ((var, v),)
                places = ()
            else:
                elims = tuple((var, w) for w in values_of(cand[var] & ~(1 << v)))
                places = ((var, v),)
            out.append(
                Hint(
                    round(base + length_bonus(complexity), 1),
                    complexity,
                    4 if use_y else 2,
                    0,
                    "forcing-chain" if use_y else "forcing-x-chain",
                    placements=places,
                    eliminations=elims,
                    chains=(path,),
                    source=(source,),
                )
            )
        return out

    # -- propagation (Nishio, multiple, dynamic) ---------------------------------------------

    def propagate(self, start: int, dynamic: bool, use_y: bool) -> Propagation:
        g = self.grid
        V = self.V
        res = Propagation()
        on, off, parents = res.on, res.off, res.parents
        if dynamic:
            cand, vmask, hpos = list(g.cand), list(g.vmask), list(g.hpos)
        else:
            cand, vmask, hpos = g.cand, g.vmask, g.hpos
        orig_cand, orig_hpos = g.cand, g.hpos
        peer_masks = self.peer_masks
        of_var = self.houses.of_var
        pend_on: deque[int] = deque()
        pend_off: deque[int] = deque()
        if start & 1:
            on[start] = 1 << start
            pend_on.append(start)
        else:
            off[start] = 1 << start
            pend_off.append(start)
        parents[start] = ()
        while pend_on or pend_off:
            if pend_on:
                p = pend_on.popleft()
                anc = on[p]
                var, v = divmod(p >> 1, V)
                targets = []
                if use_y:
                    base = var * V
                    for w in values_of(cand[var] & ~(1 << v)):
                        targets.append((base + w) << 1)
                for q in bits(vmask[v] & peer_masks[var]):
                    targets.append((q * V + v) << 1)
                for t in targets:
                    if t | 1 in on:
                        off[t] = anc | 1 << t
                        parents[t] = (p,)
                        res.contradiction = (t | 1, t)
                        return res
                    if t not in off:
                        off[t] = anc | 1 << t
                        parents[t] = (p,)
                        pend_off.append(t)
            else:
                p = pend_off.popleft()
                anc = off[p]
                var, v = divmod(p >> 1, V)
                made = []
                if use_y:
                    m = cand[var]
                    if m.bit_count() == 2:
                        w = (m & ~(1 << v)).bit_length() - 1
                        a = anc
                        extra = []
                        if dynamic:
                            for x in values_of(orig_cand[var] & ~m):
                                hp = (var * V + x) << 1
                                a |= off[hp]
                                extra.append(hp)
                        made.append(((((var * V + w) << 1) | 1), a, (p, *extra)))
                for h in of_var[var]:
                    pm = hpos[h * V + v]
                    if pm.bit_count() == 2:
                        q = (pm & ~(1 << var)).bit_length() - 1
                        a = anc
                        extra = []
                        if dynamic:
                            for r in bits(orig_hpos[h * V + v] & ~pm):
                                hp = (r * V + v) << 1
                                a |= off[hp]
                                extra.append(hp)
                        made.append(((((q * V + v) << 1) | 1), a, (p, *extra)))
                if dynamic:
                    cand[var] &= ~(1 << v)
                    vmask[v] &= ~(1 << var)
                    for h in of_var[var]:
                        hpos[h * V + v] &= ~(1 << var)
                for t, a, par in made:
                    if t ^ 1 in off:
                        on[t] = a | 1 << t
                        parents[t] = par
                        res.contradiction = (t, t ^ 1)
                        return res
                    if t not in on:
                        on[t] = a | 1 << t
                        parents[t] = par
                        pend_on.append(t)
            if not pend_on and not pend_off and self.nesting > 0:
                for t, a, par in self.advanced(cand, vmask, hpos, off):
                    if t in off:
                        continue
                    if t | 1 in on:
                        off[t] = a | 1 << t
                        parents[t] = par
                        res.contradiction = (t | 1, t)
                        return res
                    off[t] = a | 1 << t
                    parents[t] = par
                    pend_off.append(t)
        return res

    def advanced(self, cand, vmask, hpos, off):
        """Eliminations of locked candidates, else naked pairs, in the emptied grid, each with
        the removed candidates it rests on as parents."""
        V = self.V
        houses = self.houses
        orig_hpos, orig_cand = self.grid.hpos, self.grid.cand
        out = []
        # locked candidates
        for box, line, shared in houses.crossings:
            shared_mask = 0
            for s in shared:
                shared_mask |= 1 << s
            for source, target in ((box, line), (line, box)):
                for v in range(V):
                    pm = hpos[source * V + v]
                    if pm.bit_count() < 2 or pm & ~shared_mask:
                        continue
                    gone = orig_hpos[source * V + v] & ~pm
                    if not gone:
                        continue
                    elim = hpos[target * V + v] & ~shared_mask
                    if not elim:
                        continue
                    par = tuple((r * V + v) << 1 for r in bits(gone))
                    a = 0
                    for hp in par:
                        a |= off[hp]
                    for q in bits(elim):
                        out.append((((q * V + v) << 1), a, par))
        if out:
            return out
        # naked pairs
        for _h, cells in enumerate(houses.cells):
            pairs: dict[int, list[int]] = {}
            for var in cells:
                if cand[var].bit_count() == 2:
                    pairs.setdefault(cand[var], []).append(var)
            for mask, group in pairs.items():
                if len(group) != 2:
                    continue
                par = tuple(
                    (var * V + x) << 1 for var in group for x in values_of(orig_cand[var] & ~mask)
                )
                if not par:
                    continue
                a = 0
                for hp in par:
                    a |= off[hp]
                for var in cells:
                    if var in group:
                        continue
                    for x in values_of(cand[var] & mask):
                        out.append((((var * V + x) << 1), a, par))
        return out

    def dynamic_hints(self, mode: str) -> list[Hint]:
        """Nishio, multiple (static) or dynamic forcing chains, SE's way."""
        g = self.grid
        V = self.V
        dynamic = mode != "multiple"
        nishio = mode == "nishio"
        use_y = not nishio
        base = BASES[mode] + (0.5 * self.nesting if mode == "dynamic" else 0)
        cache: dict[int, Propagation] = {}

        def on_prop(pid: int) -> Propagation:
            found = cache.get(pid)
            if found is None:
                found = self.propagate(pid, dynamic, use_y)
                cache[pid] = found
            return found

        hints: list[Hint] = []
        order = 0

        def add(hint: Hint) -> None:
            nonlocal order
            hint.order = order
            order += 1
            hints.append(hint)

        for var in range(g.N):
            m = g.cand[var]
            card = m.bit_count()
            if not (card > 2 or (card > 1 and dynamic)):
                continue
            outcomes = {}
            for v in values_of(m):
                pon = ((var * V + v) << 1) | 1
                on_res = on_prop(pon)
                outcomes[v] = on_res
                if dynamic:
                    off_res = self.propagate(pon ^ 1, dynamic, use_y)
                    if on_res.contradiction:
                        a, b = on_res.contradiction
                        cx = on_res.on[a].bit_count() + on_res.off[b].bit_count()
                        add(
                            self.hint(
                                base, cx, 7, "contradiction", (), ((var, v),), [on_res], (a, b), pon
                            )
                        )
                    if off_res.contradiction:
                        a, b = off_res.contradiction
                        cx = off_res.on[a].bit_count() + off_res.off[b].bit_count()
                        elims = tuple((var, w) for w in values_of(m & ~(1 << v)))
                        add(
                            self.hint(
                                base,
                                cx,
                                7,
                                "contradiction",
                                ((var, v),),
                                elims,
                                [off_res],
                                (a, b),
                                pon ^ 1,
                            )
                        )
                    if card >= 3 and not nishio:
                        for t, a in on_res.on.items():
                            b = off_res.on.get(t)
                            if b is not None:
                                self.add_target(
                                    add,
                                    base,
                                    a.bit_count() + b.bit_count(),
                                    1,
                                    "double",
                                    t,
                                    [on_res, off_res],
                                    pon,
                                )
                        for t, a in on_res.off.items():
                            b = off_res.off.get(t)
                            if b is not None:
                                self.add_target(
                                    add,
                                    base,
                                    a.bit_count() + b.bit_count(),
                                    1,
                                    "double",
                                    t,
                                    [on_res, off_res],
                                    pon,
                                )
                if not nishio:
                    self.region_chains(var, v, on_prop, add, base)
            if not nishio:
                results = list(outcomes.values())
                common_on = set(results[0].on)
                common_off = set(results[0].off)
                for r in results[1:]:
                    common_on &= r.on.keys()
                    common_off &= r.off.keys()
                for t in sorted(common_on) + sorted(common_off):
                    table = "on" if t & 1 else "off"
                    cx = sum(getattr(r, table)[t].bit_count() for r in results)
                    self.add_target(add, base, cx, 5, "cell", t, results, var)
        return hints

    def region_chains(self, var: int, v: int, on_prop, add, base: float) -> None:
        g = self.grid
        V = self.V
        for h in self.houses.of_var[var]:
            pm = g.hpos[h * V + v]
            if pm.bit_count() < 2 or (pm & -pm).bit_length() - 1 != var:
                continue
            results = [on_prop(((q * V + v) << 1) | 1) for q in bits(pm)]
            common_on = set(results[0].on)
            common_off = set(results[0].off)
            for r in results[1:]:
                common_on &= r.on.keys()
                common_off &= r.off.keys()
            for t in sorted(common_on) + sorted(common_off):
                table = "on" if t & 1 else "off"
                cx = sum(getattr(r, table)[t].bit_count() for r in results)
                self.add_target(add, base, cx, 6, "region", t, results, (h, v))

    def add_target(self, add, base, cx, sort_key, kind, t, results, source) -> None:
        g = self.grid
        var, v = divmod(t >> 1, self.V)
        if t & 1:
            elims = tuple((var, w) for w in values_of(g.cand[var] & ~(1 << v)))
            if not elims:
                return
            places = ((var, v),)
        else:
            if not g.cand[var] >> v & 1:
                return
            elims = ((var, v),)
            places = ()
        chains = tuple(chain_from(r.parents, t) for r in results)
        add(
            Hint(
                round(base + length_bonus(cx), 1),
                cx,
                sort_key,
                0,
                kind,
                placements=places,
                eliminations=elims,
                chains=chains,
                source=(source,),
            )
        )

    def hint(self, base, cx, sort_key, kind, places, elims, results, pair, source) -> Hint:
        res = results[0]
        a, b = pair
        chains = (chain_from(res.parents, a), chain_from(res.parents, b))
        return Hint(
            round(base + length_bonus(cx), 1),
            cx,
            sort_key,
            0,
            kind,
            placements=places,
            eliminations=elims,
            chains=chains,
            source=(source,),
        )


def is_ancestor(node, pid: int) -> bool:
    while node is not None:
        if node[0] == pid:
            return True
        node = node[1]
    return False


def chain_of(node) -> list[int]:
    out = []
    while node is not None:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def chain_from(parents: dict[int, tuple[int, ...]], end: int) -> list[int]:
    """The main line of implications leading to ``end`` (first parents), assumption first."""
    out = [end]
    seen = {end}
    while True:
        par = parents.get(out[-1])
        if not par or par[0] in seen:
            break
        out.append(par[0])
        seen.add(par[0])
    out.reverse()
    return out


KIND_NAMES = {
    "x-cycle": "X-cycle",
    "y-cycle": "Y-cycle",
    "xy-cycle": "bidirectional cycle",
    "forcing-x-chain": "forcing X-chain",
    "forcing-chain": "forcing chain",
    "contradiction": "contradiction forcing chain",
    "double": "double forcing chain",
    "cell": "cell forcing chains",
    "region": "region forcing chains",
}


class ChainTechnique(Technique):
    name = "forcing-chains"
    title = "Forcing chains"
    description = (
        "Chains of implications between candidates: if this, then that. Cycles and forcing "
        "chains use the grid as it stands; Nishio follows one value as the grid empties; "
        "multiple forcing chains show that every candidate of a cell (or every place of a value "
        "in a house) leads to the same conclusion; dynamic chains let the grid empty as they go "
        "and, nested, use locked candidates and pairs on the way. Rated as Sudoku Explainer does, "
        "with a bonus for long chains."
    )
    batch = False

    def __init__(
        self,
        cost: float,
        level: str = "",
        name: str | None = None,
        mode: str = "static",
        nesting: int = 0,
    ) -> None:
        super().__init__(cost, level, name)
        self.mode = mode
        self.nesting = nesting

    def find(self, ctx: Context) -> Iterator[Step]:
        search = ChainSearch(ctx, self.nesting)
        hints = search.static_hints() if self.mode == "static" else search.dynamic_hints(self.mode)
        if not hints:
            return
        best = min(hints)
        extra = round(best.difficulty - self.cost, 1)
        step = self.make(
            placements=best.placements,
            eliminations=best.eliminations,
            kind=best.kind,
            chains=best.chains,
            values=search.V,
            rating=best.difficulty,
            nodes=best.complexity,
        )
        if extra:
            from dataclasses import replace

            step = replace(step, cost=best.difficulty)
        yield step

    def explain(self, step: Step, ex: Explainer) -> str:
        V = step.data["values"]
        kind = KIND_NAMES.get(step.data["kind"], step.data["kind"])
        chains = step.data["chains"]

        def node(pid: int) -> str:
            var, v = divmod(pid >> 1, V)
            sign = "=" if pid & 1 else "≠"
            return f"{ex.cell(var)}{sign}{ex.value(v)}"

        shown = [" ⇒ ".join(node(p) for p in chain) for chain in chains]
        prefix = f"{self.title.lower() if self.mode != 'static' else ''}".strip()
        label = f"{kind} ({step.data['nodes']} nodes)"
        if prefix and prefix not in kind:
            label = f"{self.name.replace('-', ' ')}: {label}"
        return f"{label}: " + "; ".join(shown)
