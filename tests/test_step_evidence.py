"""Every step of every family gives its evidence as data (``grade --json --trace``): valid
against the published schema, never without cells, its links joining nodes of the step, a
trial's assumption among the cells it read."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
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
