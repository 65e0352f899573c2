"""The evidence of a step as data: what it looked at, the units it reasoned about, what it
changed, and where the technique has them the candidates and links of its chain, the assumption
and contradiction of a trial, and the roles of a pattern (a wing's pivot and pincers, a fish's
base and cover lines). Pictures, the HTML trace and the JSON report read it
(:meth:`grader.core.explain.Explainer.evidence_dict` names it as the report does).

Techniques record their evidence in ``Step.data`` under common keys; :func:`default_evidence`
reads them so that no technique needs code of its own for pictures:

- variables it looked at: ``cells``, ``cell``, ``window``, ``other``, ``vars`` (an int or a
  sequence of ints), the assumed variable of ``assume`` (``(var, value)``) and the variables
  the steps of a ``chain`` (a lookahead's steps after its assumption) concluded;
- units it reasoned about: ``unit``, ``units`` and ``copies`` (constraint labels, resolved to
  the constraints' variables).

A technique whose data says more (or differently) overrides
:meth:`grader.core.technique.Technique.evidence`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from grader.core.model import Model
from grader.core.step import Step

VAR_KEYS = ("cells", "cell", "window", "other", "vars")
UNIT_KEYS = ("unit", "units", "copies")


LINK_KINDS = ("strong", "weak", "implies")
"""A link's kinds: ``strong`` (if the first node is off the second is on), ``weak`` (if the
first is on the second is off), ``implies`` (the second follows from the first, with what the
board holds)."""


@dataclass(frozen=True)
class Node:
    """A candidate in a chain of reasoning: ``var`` holds ``value`` (``on``), or does not."""

    var: int
    value: int
    on: bool


@dataclass(frozen=True)
class Link:
    """A link between two nodes of the same evidence, by their indexes, in the order of the
    reasoning; ``kind`` is one of :data:`LINK_KINDS`."""

    source: int
    target: int
    kind: str


@dataclass(frozen=True)
class Evidence:
    """Variables a step used (looked at), the variables of its units, and those it changed;
    where the technique has them, the units by name, the nodes and links of its chain, the
    assumption and contradiction of a trial, its pattern's roles and its inner chains."""

    used: frozenset[int]
    units: frozenset[int]
    changed: frozenset[int]
    unit_labels: tuple[str, ...] = ()
    """The units it reasoned about, by name (constraint labels: ``row 3``, ``box 5``...)."""
    nodes: tuple[Node, ...] = ()
    links: tuple[Link, ...] = ()
    assumption: Node | None = None
    """For a trial (lookahead, short contradiction, Nishio): the candidate assumed."""
    contradiction: str | None = None
    """For a trial: what broke, in words the search recorded."""
    roles: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Named groups of variables: ``("pivot", (v,))``, ``("pincers", (a, b))``, ``("fins",
    ...)``."""
    unit_roles: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Named groups of units: ``("base", labels)``, ``("cover", labels)``."""
    inner: tuple[Evidence, ...] = ()
    """The evidence of chains nested in this one, in the order they were used."""

    def with_(self, **changes: object) -> Evidence:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


def _ints(value: object) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, Iterable) and not isinstance(value, str | bytes):
        return [x for x in value if isinstance(x, int) and not isinstance(x, bool)]
    return []


def _labels(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable):
        return [x for x in value if isinstance(x, str)]
    return []


def constraints_by_label(model: Model) -> dict[str, tuple[int, ...]]:
    """Label → variables of the constraint(s) with that label (memoised on the model)."""
    found = model.memo.get("constraints_by_label")
    if found is None:
        merged: dict[str, set[int]] = {}
        for constraint in model.constraints:
            merged.setdefault(constraint.label, set()).update(constraint.vars)
        found = {label: tuple(sorted(vs)) for label, vs in merged.items()}
        model.memo["constraints_by_label"] = found
    return found


def default_evidence(step: Step, model: Model) -> Evidence:
    """Evidence read from the common keys of ``step.data`` (see the module docstring)."""
    data = step.data
    count = len(model.variables)
    used: set[int] = set()
    for key in VAR_KEYS:
        used.update(_ints(data.get(key)))
    assume = data.get("assume")
    if isinstance(assume, tuple | list) and assume:
        used.update(_ints(assume[0]))
    for link in data.get("chain") or ():
        if isinstance(link, Step):
            used.update(link.changed_vars())
    units: set[int] = set()
    labels = constraints_by_label(model)
    unit_labels: list[str] = []
    for key in UNIT_KEYS:
        for label in _labels(data.get(key)):
            if label in labels:
                units.update(labels[label])
                unit_labels.append(label)
    return Evidence(
        used=frozenset(v for v in used if 0 <= v < count),
        units=frozenset(v for v in units if 0 <= v < count),
        changed=frozenset(step.changed_vars()),
        unit_labels=tuple(dict.fromkeys(unit_labels)),
        assumption=assumption_of(data, count),
        contradiction=data.get("contradiction_reason") or step.contradiction or None,
    )


def assumption_of(data: object, count: int) -> Node | None:
    """The candidate a trial assumed (``assume``: ``(var, value)``, the value assumed on)."""
    assume = data.get("assume") if isinstance(data, dict | Mapping) else None
    if not isinstance(assume, tuple | list) or len(assume) != 2:
        return None
    var, value = assume
    if not (isinstance(var, int) and isinstance(value, int) and 0 <= var < count):
        return None
    return Node(var, value, True)


class NodeList:
    """Nodes met in order, each once, and the links between them, each once."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.links: list[Link] = []
        self._index: dict[Node, int] = {}
        self._linked: set[tuple[int, int]] = set()

    def add(self, node: Node) -> int:
        """The index of ``node``, added at the end if new."""
        found = self._index.get(node)
        if found is None:
            found = self._index[node] = len(self.nodes)
            self.nodes.append(node)
        return found

    def link(self, source: int, target: int, kind: str) -> None:
        if source != target and (source, target) not in self._linked:
            self._linked.add((source, target))
            self.links.append(Link(source, target, kind))


def candidate_chains(
    chains: Iterable[Iterable[tuple[int, int, bool]]], strong_links: bool = True
) -> NodeList:
    """The nodes and links of chains of candidates ``(var, value, on)``, each chain from its
    assumption on: on then off is a weak link; off then on a strong one (``strong_links``) or
    an implication; the rest implications."""
    found = NodeList()
    for chain in chains:
        before: int | None = None
        for var, value, on in chain:
            here = found.add(Node(var, value, on))
            if before is not None:
                was_on = found.nodes[before].on
                if was_on and not on:
                    kind = "weak"
                elif not was_on and on and strong_links:
                    kind = "strong"
                else:
                    kind = "implies"
                found.link(before, here, kind)
            before = here
    return found


def trial_chain(
    assumption: Node, moves: Iterable[tuple[Iterable[int], Iterable[Node]]]
) -> NodeList:
    """The nodes and links of a trial: the assumption, then each move's conclusions, linked
    from the nodes already met on the variables the move read (from the assumption when it
    read none of them). ``moves``: (variables read, nodes concluded) in order."""
    found = NodeList()
    start = found.add(assumption)
    latest: dict[int, int] = {assumption.var: start}
    for read, concluded in moves:
        sources = sorted({latest[v] for v in read if v in latest}) or [start]
        for node in concluded:
            here = found.add(node)
            for source in sources:
                found.link(source, here, "implies")
        for node in concluded:
            latest[node.var] = found.add(node)
    return found
