"""Every step of every family gives its evidence as data (``grade --json --trace``): valid
against the published schema, never without cells, its links joining nodes of the step, a
trial's assumption among the cells it read."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from conftest import EXAMPLES
from grader import grade, load
from grader.output.evidence_schema import EVIDENCE_SCHEMA

FILES = sorted(p.name for p in EXAMPLES.glob("*.json"))


@cache
def traced(name: str) -> list[dict]:
    """The ``--json --trace`` reports of an example file."""
    return [grade(p).to_dict(trace=True) for p in load(str(EXAMPLES / name))]


def every_step(report: dict) -> list[dict]:
    """The steps of a report and, depth first, the steps of their chains."""
    out = []
    for step in report.get("steps", []):
        out.append(step)
        out.extend(every_step({"steps": step.get("chain", [])}))
    return out


def every_evidence(evidence: dict) -> list[dict]:
    return [evidence, *(e for inner in evidence.get("inner", []) for e in every_evidence(inner))]


def test_the_schema_is_a_valid_json_schema():
    Draft202012Validator.check_schema(EVIDENCE_SCHEMA)


@pytest.mark.parametrize("name", FILES)
def test_every_step_has_valid_evidence(name):
    validator = Draft202012Validator(EVIDENCE_SCHEMA)
    steps = [s for report in traced(name) for s in every_step(report)]
    assert steps
    for step in steps:
        assert "evidence" in step, step["technique"]
        errors = [e.message for e in validator.iter_errors(step["evidence"])]
        assert errors == [], (step["technique"], errors)
        for evidence in every_evidence(step["evidence"]):
            assert evidence["cells"], step["technique"]
            nodes = evidence.get("nodes", [])
            for source, target, _kind in evidence.get("links", []):
                assert source < len(nodes) and target < len(nodes), step["technique"]
            assumption = evidence.get("assumption")
            if assumption is not None:
                assert assumption["cell"] in evidence["cells"], step["technique"]


def test_a_pair_step_reads_its_two_cells_and_its_line():
    step = next(s for s in traced("binairo.json")[0]["steps"] if s["technique"] == "pair")
    assert step["evidence"] == {"cells": ["r1c2", "r1c3"], "units": ["row 1"]}


def test_a_lookahead_gives_its_assumption_and_contradiction():
    steps = every_step(traced("pairplace-k10-expert.json")[0])
    trial = next(s for s in steps if s["technique"].startswith("lookahead"))
    evidence = trial["evidence"]
    assert evidence["assumption"]["on"] is True
    assert evidence["contradiction"]
    eliminated = {tuple(pair) for pair in trial["eliminations"]}
    assumed = (evidence["assumption"]["cell"], evidence["assumption"]["value"])
    assert assumed in eliminated


def test_schema_command_prints_it():
    out = subprocess.run(
        [str(Path(sys.executable).parent / "grader"), "schema", "evidence"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == EVIDENCE_SCHEMA


def technique_examples() -> list[tuple[str, str]]:
    from test_technique_examples import all_examples

    return all_examples()


@pytest.mark.parametrize(("name", "technique"), technique_examples())
def test_every_technique_example_gives_its_evidence(name, technique):
    """On the state where each technique of each family fires (the manual's pictures), its
    step's evidence is valid and reads the cells of its nodes, roles and assumption; a
    chain's links are its consecutive candidates, and a static chain links on to off as weak
    and off to on as strong."""
    from test_technique_examples import document, own_families

    from grader.core.explain import Explainer
    from grader.testing.examples import replay

    entry = document(name)["examples"][technique]
    wave = replay(own_families()[name], technique, entry)
    ex = Explainer(wave.puzzle.model, wave.techniques)
    validator = Draft202012Validator(EVIDENCE_SCHEMA)
    for step in wave.run.steps:
        evidence = ex.evidence(step)
        # units are named, so the report lists and the picture outlines the same ones
        assert bool(evidence.unit_labels) == bool(evidence.units), technique
        shown = ex.evidence_dict(evidence)
        assert list(validator.iter_errors(shown)) == []
        for evidence in every_evidence(shown):
            read = set(evidence["cells"])
            assert {n["cell"] for n in evidence.get("nodes", [])} <= read, technique
            for role in ("pivot", "pincers", "fins"):
                assert set(evidence.get(role, [])) <= read, technique
        chains = step.data.get("chains")
        if chains and step.data.get("values"):
            V, fired = step.data["values"], ex.by_name[step.technique]
            assert_links_follow_chains(shown, chains, V, ex, fired.mode in ("static", "multiple"))
            nested = step.data.get("nested", ())
            assert len(shown.get("inner", [])) == len(nested)
            for inner, hint in zip(shown.get("inner", []), nested, strict=True):
                static = hint["rule"] in ("static", "multiple")
                assert_links_follow_chains(inner, hint["chains"], V, ex, static)


def assert_links_follow_chains(shown: dict, chains, V: int, ex, static: bool) -> None:
    """The links are exactly the chains' consecutive candidates, each once, of the kind its
    two ends give: on to off weak; off to on strong in static chains, else an implication;
    the rest implications."""
    nodes = [(n["cell"], n["value"], n["on"]) for n in shown["nodes"]]
    expected: dict[tuple[int, int], str] = {}
    for chain in chains:
        met = [(ex.cell((p >> 1) // V), ex.value((p >> 1) % V), bool(p & 1)) for p in chain]
        for before, after in pairwise(met):
            if before[2] and not after[2]:
                kind = "weak"
            elif not before[2] and after[2] and static:
                kind = "strong"
            else:
                kind = "implies"
            expected.setdefault((nodes.index(before), nodes.index(after)), kind)
    assert [(a, b, kind) for a, b, kind in shown["links"]] == [
        (a, b, kind) for (a, b), kind in expected.items()
    ]


def test_a_forcing_x_chain_gives_its_nodes_and_links():
    """The static chain example: as many nodes as the chain counts, one link fewer, weak and
    strong in turn."""
    from test_technique_examples import document, own_families

    from grader.core.explain import Explainer
    from grader.testing.examples import replay

    entry = document("sudoku")["examples"]["forcing-chains"]
    wave = replay(own_families()["sudoku"], "forcing-chains", entry)
    step = wave.run.steps[0]
    ex = Explainer(wave.puzzle.model, wave.techniques)
    shown = ex.evidence_dict(ex.evidence(step))
    (chain,) = step.data["chains"]
    assert len(shown["nodes"]) == len(chain) == step.data["nodes"]
    kinds = [kind for _a, _b, kind in shown["links"]]
    assert len(kinds) == len(chain) - 1
    assert set(kinds) <= {"weak", "strong"} and "weak" in kinds and "strong" in kinds


def test_a_nested_static_chain_links_off_to_on_as_strong():
    """A hint nested by a static search, single ("static") or multiple ("multiple"), is a
    static chain: its off to on links are strong, as the outer static chain's are."""
    from grader.core.step import Step
    from grader.rating.registry import get_family
    from rules.sudoku.chains.chaining import ChainTechnique

    family = get_family("sudoku")
    model = family.empty_model((9, 9), {})
    V = 9

    def pid(var: int, value: int, on: bool) -> int:
        return (var * V + value) << 1 | on

    chain = [pid(0, 6, True), pid(3, 6, False), pid(13, 6, True)]  # r1c1=7 → r1c4≠7 → r2c5=7
    nested = [
        {
            "rule": rule,
            "kind": "x",
            "nodes": 3,
            "rating": 6.6,
            "eliminations": [],
            "chains": [chain],
        }
        for rule in ("static", "multiple", "dynamic")
    ]
    step = Step(
        "nested-forcing-chains",
        9.5,
        eliminations=((1, 6),),
        data={"values": V, "chains": [chain], "nested": nested},
    )
    technique = ChainTechnique(9.5, "extreme", "nested-forcing-chains", "dynamic", 2)
    evidence = technique.evidence(step, model)
    assert [link.kind for link in evidence.links] == ["weak", "implies"]
    kinds = [[link.kind for link in inner.links] for inner in evidence.inner]
    assert kinds == [["weak", "strong"], ["weak", "strong"], ["weak", "implies"]]
