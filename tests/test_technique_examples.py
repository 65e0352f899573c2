"""Every technique of every family's table has an example state
(``rules/<family>/technique_examples.json``, found by ``bench/technique_examples.py`` and drawn
in the manual) where it is the cheapest productive technique — the file's first wave, or the
wave after ``replay`` waves of the default table (for states a file cannot hold: a partial
path, pencil marks) — with exactly the stored conclusions, each of them sound by the exact
search; or it is in the file's short ``missing`` list with a reason, which the family's page
prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.core.exact import search_for
from grader.rating.costs import technique_table
from grader.rating.family import Family
from grader.rating.loading import puzzle_from_dict
from grader.rating.registry import families
from grader.testing.examples import replay
from soundness import removed_values

ROOT = Path(__file__).resolve().parent.parent
MAX_MISSING: dict[str, int] = {}
"""How many techniques of a family may lack an example (each with its reason): none for the
families shipped here, so a technique added to a table fails until
``bench/technique_examples.py --family NAME --keep --alone`` finds a state where it fires."""


def own_families() -> dict[str, Family]:
    """The families this project ships (not plugins installed beside them)."""
    return {n: f for n, f in families().items() if type(f).__module__.startswith("rules.")}


def document(name: str) -> dict:
    return json.loads((ROOT / "rules" / name / "technique_examples.json").read_text("utf-8"))


def table_names(family: Family) -> list[str]:
    model = puzzle_from_dict(family.example, "example", "example").model
    return [spec.technique_name for spec in technique_table(family, model)]


def all_examples() -> list[tuple[str, str]]:
    out = []
    for name in own_families():
        path = ROOT / "rules" / name / "technique_examples.json"
        if path.exists():
            out += [(name, technique) for technique in document(name)["examples"]]
    return sorted(out)


def pairs(model, assignments) -> list[list[str]]:
    return [list(p) for p in sorted({(model.name(v), model.symbol(x)) for v, x in assignments})]


@pytest.mark.parametrize("name", sorted(own_families()))
def test_every_technique_has_an_example_or_a_short_reason(name):
    family = own_families()[name]
    doc = document(name)
    names = table_names(family)
    examples, missing = doc["examples"], doc.get("missing", {})
    assert set(examples) <= set(names), f"examples of no technique: {set(examples) - set(names)}"
    assert not set(examples) & set(missing), "a technique both has an example and is missing"
    assert set(names) <= set(examples) | set(missing), (
        f"{name}: no example for {sorted(set(names) - set(examples) - set(missing))} "
        "(python bench/technique_examples.py --family NAME --keep)"
    )
    limit = MAX_MISSING.get(name, 0)
    assert len(missing) <= limit, f"{name}: too many techniques without example: {missing}"
    assert all(isinstance(why, str) and len(why) > 20 for why in missing.values()), missing


@pytest.mark.parametrize(("name", "technique"), all_examples())
def test_the_example_fires_its_technique_soundly(name, technique):
    family = own_families()[name]
    entry = document(name)["examples"][technique]
    wave = replay(family, technique, entry)
    model, before, run, techniques = wave.puzzle.model, wave.state, wave.run, wave.techniques
    assert len(wave.solutions) == 1, f"the {technique} example has {len(wave.solutions)} solutions"
    assert run.steps, f"nothing fires on the {technique} example"
    assert {s.technique for s in run.steps} == {technique}
    assert pairs(model, [a for s in run.steps for a in s.placements]) == entry["placements"]
    assert pairs(model, [a for s in run.steps for a in s.eliminations]) == entry["eliminations"]
    assert len(run.steps) == entry["steps"]
    fired = next(t for t in techniques if t.name == technique)
    evidence = fired.evidence(run.steps[0], model)
    assert evidence.used or evidence.units, f"the {technique} picture marks nothing it read"
    search = search_for(model)
    for step in run.steps:  # a wave's steps are all found on the state before it
        for var, value in removed_values(before, step):
            assert not search.is_possible(before, var, value), (
                f"{technique} removed {model.name(var)}={model.symbol(value)}, a solution's value"
            )


def bench_module():
    """``bench/technique_examples.py``, the search that writes the examples."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "technique_examples_bench", ROOT / "bench" / "technique_examples.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_search_looks_for_states_stuck_below_a_technique_kept_only_run_alone():
    """A technique whose example is only run alone gets stuck states of the techniques
    cheaper than it (where it may be the cheapest), and a cheapest state replaces it."""
    bench = bench_module()
    family = own_families()["binairo"]
    kept = dict(document("binairo")["examples"])
    kept["lookahead-2"] = {**kept["lookahead-2"], "alone": True}
    run = bench.Search(family, kept)
    assert "lookahead-2" in run.wanted()
    whats = dict(bench.caps(run, (6, 6), {}, "expert", 0))
    cheaper = whats["cheaper than lookahead-2"]
    assert "lookahead-1" in cheaper and "lookahead-2" not in cheaper and "guess" not in cheaper
    cheapest = {k: v for k, v in kept["lookahead-2"].items() if k != "alone"}
    assert run.offer(cheapest, "lookahead-2")
    assert "lookahead-2" not in run.wanted()
