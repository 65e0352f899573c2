"""The shape of the code: ``grader/`` is layered and the layers import only downward, no module
imports itself back through others, and the engine knows no family.

Imports are read from the source (every ``import`` statement, also those inside functions;
those under ``if TYPE_CHECKING:`` are left out, as they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent

LAYERS = [
    "grader.core",
    "grader.techniques",
    "grader.rating",
    "grader.output",
    "grader.storage",
    "grader.generation",
    "grader.serve",
    "grader.cli",
    "grader.testing",
]
"""The layers of ``grader/``, lowest first: each may import its own and the ones before it.
The package itself (``grader``, the public API) is above them all; ``rules`` (the families)
stands on ``grader`` and is never imported by it."""


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of ``grader`` and ``rules`` by dotted name."""
    found = {}
    for path in sorted([*root.glob("grader/**/*.py"), *root.glob("rules/**/*.py")]):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


class _Imports(ast.NodeVisitor):
    """The modules one source file imports at run time."""

    def __init__(self, package: str, known: dict[str, Path]) -> None:
        self.package = package
        self.known = known
        self.found: set[str] = set()

    def _add(self, name: str) -> None:
        while name and name not in self.known:
            name = name.rpartition(".")[0]
        if name:
            self.found.add(name)

    def visit_If(self, node: ast.If) -> None:
        if "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")[: len(self.package.split(".")) - node.level + 1]
            name = ".".join([*base, *([node.module] if node.module else [])])
        else:
            name = node.module or ""
        for alias in node.names:
            full = f"{name}.{alias.name}"
            self._add(full if full in self.known else name)


def import_graph(root: Path = ROOT) -> nx.DiGraph:
    """Module → the modules it imports, within ``grader`` and ``rules``."""
    known = modules(root)
    graph = nx.DiGraph()
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        reader = _Imports(package, known)
        reader.visit(ast.parse(path.read_text(), str(path)))
        graph.add_node(name)
        graph.add_edges_from((name, other) for other in reader.found if other != name)
    return graph


def layer_of(module: str) -> int | None:
    """The index of a ``grader`` module's layer (None for the package itself and for rules)."""
    for index, layer in enumerate(LAYERS):
        if module == layer or module.startswith(layer + "."):
            return index
    return None


def circles(graph: nx.DiGraph) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others."""
    return [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]


def upward(graph: nx.DiGraph) -> list[str]:
    """Imports from a lower layer to a higher one, and from grader into rules."""
    found = []
    for source, target in graph.edges:
        if not source.startswith("grader"):
            continue
        if target.startswith("rules"):
            found.append(f"{source} imports the family module {target}")
            continue
        low, high = layer_of(source), layer_of(target)
        if target == "grader" or (low is not None and high is not None and high > low):
            found.append(f"{source} imports {target}, a higher layer")
    return sorted(found)


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return import_graph()


def test_no_import_circles(graph):
    assert circles(graph) == []


def test_layers_import_only_downward(graph):
    assert upward(graph) == []


def test_every_grader_module_is_in_a_layer(graph):
    loose = [m for m in graph if m.startswith("grader.") and layer_of(m) is None]
    assert loose == []


def test_top_of_grader_stays_small():
    entries = [p.name for p in (ROOT / "grader").iterdir() if p.name != "__pycache__"]
    assert len(entries) <= 15, sorted(entries)


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_says_what_it_may_import(layer):
    doc = ast.get_docstring(ast.parse((ROOT / layer.replace(".", "/") / "__init__.py").read_text()))
    assert doc and "May import" in doc


def test_the_checks_catch_what_they_look_for(tmp_path):
    """A circle and an upward import planted in a copy are found."""
    for name, text in {
        "grader/__init__.py": "",
        "grader/core/__init__.py": "",
        "grader/core/model.py": "from grader.rating.grading import grade\n",
        "grader/rating/__init__.py": "",
        "grader/rating/grading.py": "def f():\n    from grader.rating import costs\n",
        "grader/rating/costs.py": "import grader.rating.grading\n",
        "grader/output/__init__.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import grader.cli\n"
        ),
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    planted = import_graph(tmp_path)
    assert circles(planted) == [["grader.rating.costs", "grader.rating.grading"]]
    assert upward(planted) == ["grader.core.model imports grader.rating.grading, a higher layer"]


def family_folders() -> list[str]:
    """The folders of ``rules/`` that hold a family (their ``__init__`` exposes ``FAMILY``)."""
    return sorted(
        p.parent.name for p in (ROOT / "rules").glob("*/__init__.py") if "FAMILY" in p.read_text()
    )


def test_a_family_imports_no_other_family(graph):
    own = family_folders()
    crossing = [
        f"{a} imports {b}"
        for a, b in graph.edges
        if a.startswith("rules.")
        and b.startswith("rules.")
        and a.split(".")[1] in own
        and b.split(".")[1] in own
        and a.split(".")[1] != b.split(".")[1]
    ]
    assert len(own) == 6 and crossing == []


def test_families_stand_on_rating_and_below(graph):
    allowed = {"grader.core", "grader.techniques", "grader.rating", "grader.output"}
    higher = [
        f"{a} imports {b}"
        for a, b in graph.edges
        if a.startswith("rules")
        and b.startswith("grader")
        and not any(b == x or b.startswith(x + ".") for x in allowed)
    ]
    assert higher == []


def test_the_manual_draws_these_layers():
    """docs/images/layers.svg (How it works) names the layers top down, as LAYERS has them."""
    import re

    drawing = (ROOT / "docs" / "images" / "layers.svg").read_text(encoding="utf-8")
    drawn = re.findall(r'font-weight="bold">(grader\.[a-z]+)<', drawing)
    assert drawn == LAYERS[::-1]
