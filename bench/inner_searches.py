"""CPU time of the chain searches that nested chains run on emptied grids, compiled and not.

The Sudokus of an SE band (``sudoku_se_dev.csv``, every ``--every``-th) are solved with every
technique cheaper than chains until stuck; each stuck grid is then emptied ``--grids`` times
(up to 12 candidates removed at random, seeded), as a chain empties it. On each emptied grid
run, as an inner search of nested chains runs them:

- ``dynamic``: the dynamic chains without nested rules (``dynamic_hints("dynamic")``, every
  hint, one per conclusion);
- ``tables``: the static implications of the grid alone (conflicts, strong links, reach);
- ``static``: those and the forcing and multiple forcing chains read from them.

Each is timed three ways: ``compiled`` (the whole search, the rule-parents walk and the static
tables in the kernels of ``rules/sudoku/chains/search_jit.py`` and ``static_jit.py``),
``per propagation`` (only the propagation compiled, as before the whole search was; the static
kinds have no propagation, so this is Python for them) and ``python`` (no kernel). The least of
``--runs`` passes counts, in milliseconds a grid, with a digest of every hint (rank, kind,
conclusions, chains, rule parents: read after the timing) so that the three are shown to find
the same. Nested chains read few of an inner search's hints, so the time of the searches alone
is what they spend.

    python bench/inner_searches.py                      # SE >= 8.5, every 6th, 4 grids each
    python bench/inner_searches.py --every 3 --runs 5
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import random
import sys
import time
from pathlib import Path

from vs_common import DEFAULT_DATA, se_ratings_csv

from grader.core.engine import Engine
from grader.core.technique import Context
from grader.rating.costs import choose
from grader.rating.loading import load
from rules.sudoku.chains.chaining import ChainSearch, StaticImplications, compiled, rule_parents

WAYS = ("compiled", "per propagation", "python")


def emptied_grids(source: Path, min_se: float, every: int, grids: int) -> list[tuple]:
    """(the stuck grid's search, an emptied grid) pairs."""
    rows = [r for r in csv.DictReader(source.open()) if float(r["se_rating"]) >= min_se]
    rng = random.Random("inner searches")
    out = []
    for row in rows[::every]:
        puzzle = load(row["puzzle"])[0]
        cheap = [t for t in choose(puzzle.family, puzzle.model) if t.cost < 6.5]
        engine = Engine(puzzle.model, cheap)
        run = engine.run(puzzle.givens)
        if run.status != "stuck":
            continue
        outer = ChainSearch(Context(puzzle.model, list(run.state), engine))
        V = outer.V
        for _ in range(grids):
            cand = list(outer.grid.cand)
            options = [(var, v) for var, m in enumerate(cand) for v in range(V) if m >> v & 1]
            for var, v in rng.sample(options, min(rng.randint(1, 12), len(options))):
                if cand[var].bit_count() > 1:
                    cand[var] &= ~(1 << v)
            out.append((outer, cand))
    return out


def search(kind: str, way: str, outer: ChainSearch, cand: list[int]) -> tuple:
    """One inner search of ``kind``, made ``way``: the search and its hints."""
    inner = outer.inner(cand, 0)
    inner.use_jit = way == "compiled" or (way == "per propagation" and kind == "dynamic")
    if way == "per propagation":
        inner.whole_search_compiles = lambda only: False  # type: ignore[method-assign]
    if kind == "dynamic":
        return inner, inner.dynamic_hints("dynamic")
    made = StaticImplications(inner)
    if kind == "tables":
        return inner, [made.nodes, *made.tables()]
    return inner, made.forcing_hints() + made.multiple_hints()


def described(outer: ChainSearch, inner: ChainSearch, hints: list) -> list:
    """What a caller reads of the hints: rank, kind, conclusions, chains and rule parents (the
    tables as they are)."""
    if hints and not hasattr(hints[0], "key"):
        return [hints[0], *(sorted(table.items()) for table in hints[1:])]
    g, o = inner.grid, outer.grid
    return [
        (
            h.key(),
            h.kind,
            h.placements,
            h.eliminations,
            h.chains,
            rule_parents(h, outer.V, o.cand, g.cand, o.hpos, g.hpos, outer.cover_of_var),
        )
        for h in hints
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-se", type=float, default=8.5, help="The band: SE ratings from.")
    parser.add_argument("--every", type=int, default=6, help="Keep every n-th puzzle.")
    parser.add_argument("--grids", type=int, default=4, help="Emptied grids per stuck grid.")
    parser.add_argument("--runs", type=int, default=3, help="Passes per way (least counts).")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    source = se_ratings_csv(args.data)
    if source is None:
        return 2
    if compiled() is None:
        print("the kernels are not loaded (numba missing or GRADER_NO_JIT set)", file=sys.stderr)
        return 2
    grids = emptied_grids(source, args.min_se, args.every, args.grids)
    print(f"SE >= {args.min_se}, every {args.every}th: {len(grids)} emptied grids")
    for outer, cand in grids[:1]:  # the kernels' first use (loading their cache) is not timed
        for kind in ("dynamic", "static"):
            search(kind, "compiled", outer, cand)
    print(f"{'search':>8} {'found':>7}" + "".join(f" {way + ' ms':>18}" for way in WAYS) + "  same")
    for kind in ("dynamic", "tables", "static"):
        best: dict[str, float] = {}
        digests = set()
        hints = 0
        for way in WAYS:
            for _ in range(args.runs):
                started = time.process_time()
                found = [search(kind, way, outer, cand) for outer, cand in grids]
                spent = time.process_time() - started
                best[way] = min(best.get(way, spent), spent)
            read = [described(outer, *f) for (outer, _cand), f in zip(grids, found, strict=True)]
            digests.add(hashlib.sha256(repr(read).encode()).hexdigest())
            # hints found, or for the tables the candidates they cover
            hints = sum(len(r[0]) if kind == "tables" and r else len(r) for r in read)
        cells = "".join(f" {1000 * best[way] / len(grids):>18.3f}" for way in WAYS)
        same = "yes" if len(digests) == 1 else "NO"
        print(f"{kind:>8} {hints:>7}{cells}  {same}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
