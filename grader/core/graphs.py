"""Small graph searches over plain adjacency dicts (``node -> {neighbour: label}``).

Techniques that ask the same questions of a graph thousands of times per grading (which nodes
are connected, which blocks are biconnected) use these rather than building a networkx graph
each time: on Path Puzzles, building the graphs and networkx's biconnected search took about
45 % of the profiled generation time (``python -m cProfile -s tottime bench/path.py
--skip-examples --sizes 8 --levels expert --count 1``). networkx stays the reference in the tests.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping

Adjacency = Mapping[Hashable, Mapping[Hashable, object]]


def component_of(adj: Adjacency, start: Hashable) -> set[Hashable]:
    """The nodes connected to ``start`` (itself included)."""
    seen = {start}
    stack = [start]
    while stack:
        for other in adj[stack.pop()]:
            if other not in seen:
                seen.add(other)
                stack.append(other)
    return seen


def components(adj: Adjacency) -> Iterator[set[Hashable]]:
    """The connected components, in the order of their first node in ``adj``."""
    seen: set[Hashable] = set()
    for node in adj:
        if node not in seen:
            component = component_of(adj, node)
            seen |= component
            yield component


def biconnected_blocks(adj: Adjacency) -> list[list[tuple[Hashable, Hashable]]]:
    """The edges of each biconnected block of a simple undirected graph (Hopcroft-Tarjan,
    without recursion). A bridge is a block of one edge; isolated nodes have no block."""
    index: dict[Hashable, int] = {}
    low: dict[Hashable, int] = {}
    blocks: list[list[tuple[Hashable, Hashable]]] = []
    for root in adj:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        edges: list[tuple[Hashable, Hashable]] = []
        stack = [(root, None, iter(adj[root]))]
        while stack:
            node, parent, neighbours = stack[-1]
            descended = False
            for other in neighbours:
                if other == parent:
                    continue
                if other not in index:
                    index[other] = low[other] = len(index)
                    edges.append((node, other))
                    stack.append((other, node, iter(adj[other])))
                    descended = True
                    break
                if index[other] < index[node]:  # a back edge to an ancestor, seen once
                    low[node] = min(low[node], index[other])
                    edges.append((node, other))
            if descended:
                continue
            stack.pop()
            if parent is None:
                continue
            low[parent] = min(low[parent], low[node])
            if low[node] >= index[parent]:  # parent separates node's subtree: a block ends
                block = []
                while True:
                    edge = edges.pop()
                    block.append(edge)
                    if edge == (parent, node):
                        break
                blocks.append(block)
    return blocks
