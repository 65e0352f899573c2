"""The JSON Schema of a step's ``evidence`` in a ``--trace`` report (``grader schema
evidence`` prints it; the manual's reference shows it). Written out here rather than derived,
so that the report's contract reads in one place; tests validate every step against it."""

from __future__ import annotations

from typing import Any

from grader.core.evidence import LINK_KINDS

_NAMES = {"type": "array", "items": {"type": "string"}}

NODE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "a candidate: `cell` holds `value` (`on`) or does not",
    "properties": {
        "cell": {
            "type": "string",
            "description": "the cell (or edge, door) as explanations name it",
        },
        "value": {"type": "string", "description": "the symbol"},
        "on": {
            "type": "boolean",
            "description": "true: the cell holds the value; false: it does not",
        },
    },
    "required": ["cell", "value", "on"],
    "additionalProperties": False,
}

EVIDENCE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "step evidence",
    "description": "What a step read and how it reasoned, as data (the conclusions stay in the "
    "step's placements and eliminations).",
    "type": "object",
    "properties": {
        "cells": {**_NAMES, "minItems": 1, "description": "the cells the step read (never empty)"},
        "units": {
            **_NAMES,
            "description": "the rows, columns, boxes, lines, runs or regions it "
            "reasoned about, by name",
        },
        "nodes": {
            "type": "array",
            "items": {"$ref": "#/$defs/node"},
            "description": "the candidates of its chain, in the order they were met",
        },
        "links": {
            "type": "array",
            "description": "`[from, to, kind]`: indexes into `nodes`, in the order of the "
            "reasoning; strong: if `from` is off, `to` is on; weak: if `from` is on, `to` is "
            "off; implies: `to` follows from `from` with what the board holds",
            "items": {
                "type": "array",
                "prefixItems": [
                    {"type": "integer", "minimum": 0},
                    {"type": "integer", "minimum": 0},
                    {"enum": list(LINK_KINDS)},
                ],
                "items": False,
                "minItems": 3,
            },
        },
        "assumption": {"$ref": "#/$defs/node", "description": "a trial's assumed candidate"},
        "contradiction": {"type": "string", "description": "what broke at the end of a trial"},
        "pivot": {**_NAMES, "description": "a wing's pivot cell"},
        "pincers": {**_NAMES, "description": "a wing's pincer cells"},
        "fins": {**_NAMES, "description": "a finned fish's fin cells"},
        "base": {**_NAMES, "description": "a fish's base lines"},
        "cover": {**_NAMES, "description": "a fish's cover lines"},
        "inner": {
            "type": "array",
            "items": {"$ref": "#"},
            "description": "the evidence of chains nested in this one",
        },
    },
    "required": ["cells", "units"],
    "additionalProperties": {**_NAMES, "description": "another named group of cells or units"},
    "$defs": {"node": NODE_SCHEMA},
}
"""The JSON Schema of ``evidence``."""
