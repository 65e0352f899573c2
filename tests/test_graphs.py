"""grader.core.graphs against networkx on random simple graphs."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.core.graphs import biconnected_blocks, component_of, components


@st.composite
def simple_graphs(draw) -> nx.Graph:
    nodes = draw(st.integers(min_value=0, max_value=14))
    pairs = [(a, b) for a in range(nodes) for b in range(a + 1, nodes)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    graph = nx.Graph()
    graph.add_nodes_from(draw(st.permutations(range(nodes))))
    graph.add_edges_from(chosen)
    return graph


def adjacency(graph: nx.Graph) -> dict:
    return {node: dict.fromkeys(graph.adj[node], 0) for node in graph}


def edge_set(block) -> frozenset:
    return frozenset(frozenset(edge) for edge in block)


@settings(max_examples=300, deadline=None)
@given(simple_graphs())
def test_components_match_networkx(graph: nx.Graph) -> None:
    adj = adjacency(graph)
    ours = [frozenset(c) for c in components(adj)]
    theirs = [frozenset(c) for c in nx.connected_components(graph)]
    assert len(ours) == len(theirs) and set(ours) == set(theirs)
    for node in graph:
        assert component_of(adj, node) == nx.node_connected_component(graph, node)


@settings(max_examples=300, deadline=None)
@given(simple_graphs())
def test_biconnected_blocks_match_networkx(graph: nx.Graph) -> None:
    ours = [edge_set(block) for block in biconnected_blocks(adjacency(graph))]
    theirs = [edge_set(block) for block in nx.biconnected_component_edges(graph)]
    assert len(ours) == len(set(ours))  # every edge in exactly one block
    assert len(ours) == len(theirs) and set(ours) == set(theirs)


def test_a_bridge_between_two_triangles_is_its_own_block() -> None:
    adj = {
        "a": {"b": 0, "c": 0},
        "b": {"a": 0, "c": 0},
        "c": {"a": 0, "b": 0, "d": 0},
        "d": {"c": 0, "e": 0, "f": 0},
        "e": {"d": 0, "f": 0},
        "f": {"d": 0, "e": 0},
    }
    sizes = sorted(len(block) for block in biconnected_blocks(adj))
    assert sizes == [1, 3, 3]
    assert [frozenset(b[0]) for b in biconnected_blocks(adj) if len(b) == 1] == [{"c", "d"}]
