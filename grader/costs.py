"""Choosing techniques and their costs: the family's table, a user's TOML overrides, a selection.

A costs file looks like::

    line-enumeration = 3.5      # top-level keys apply to every family

    [tango]
    sign = 0.5

A selection (``--techniques``) is a comma-separated list of technique names or level names (a
level stands for every technique up to it); items starting with ``-`` remove techniques from
the full table instead, e.g. ``-lookahead-2``.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from grader.errors import InputError, UsageError
from grader.family import Family, TechniqueSpec
from grader.model import Model
from grader.registry import extra_techniques
from grader.technique import Technique

Costs = Mapping[str, Mapping[str, float]]
"""Family name (or ``*`` for all) → technique name → cost."""


def load_costs(path: str) -> dict[str, dict[str, float]]:
    """Read a costs TOML file."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(path, "", "no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(path, "", f"cannot be read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(path, "", f"is not valid TOML ({error})") from None
    out: dict[str, dict[str, float]] = {"*": {}}
    for key, value in data.items():
        if isinstance(value, dict):
            table = out.setdefault(key, {})
            for name, cost in value.items():
                table[name] = _cost(path, f"{key}.{name}", cost)
        else:
            out["*"][key] = _cost(path, key, value)
    return out


def _cost(path: str, field: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(path, field, "must be a number")
    if not math.isfinite(value) or value < 0:
        raise InputError(path, field, "must be a finite number ≥ 0")
    return float(value)


def technique_table(family: Family, model: Model) -> list[TechniqueSpec]:
    """The family's table plus techniques third parties added."""
    return [*family.technique_table(model), *extra_techniques(family.name)]


def choose(
    family: Family,
    model: Model,
    selection: str | None = None,
    costs: Costs | None = None,
    guess: bool = False,
) -> list[Technique]:
    """The techniques to run, built with their (possibly overridden) costs."""
    table = technique_table(family, model)
    names = [spec.technique_name for spec in table]
    chosen = select(table, family.levels, selection)
    if guess:
        chosen |= {spec.technique_name for spec in table if spec.technique_name == "guess"}
    overrides: dict[str, float] = {}
    if costs:
        overrides.update({k: v for k, v in costs.get("*", {}).items() if k in names})
        for name, cost in costs.get(family.name, {}).items():
            if name not in names:
                raise UsageError(
                    f"costs: {family.name}.{name}: unknown technique (known: {', '.join(names)})"
                )
            overrides[name] = cost
    return [
        spec.build(overrides.get(spec.technique_name))
        for spec in table
        if spec.technique_name in chosen
    ]


def select(
    table: Sequence[TechniqueSpec], levels: Sequence[str], selection: str | None
) -> set[str]:
    """Names of the techniques a selection string picks from a table."""
    defaults = {spec.technique_name for spec in table if spec.default}
    if not selection:
        return defaults
    items = [item.strip() for item in selection.split(",") if item.strip()]
    names = {spec.technique_name for spec in table}
    removing = items[0].startswith("-")
    chosen = set(defaults) if removing else set()
    for item in items:
        minus = item.startswith("-")
        key = item[1:] if minus else item.lstrip("+")
        if key in levels:
            cap = levels.index(key)
            picked = {
                s.technique_name
                for s in table
                if s.default and s.level in levels and levels.index(s.level) <= cap
            }
        elif key in names:
            picked = {key}
        else:
            known = ", ".join([*levels, *sorted(names)])
            raise UsageError(f"--techniques: unknown technique or level {key!r} (known: {known})")
        if minus:
            chosen -= picked
        else:
            chosen |= picked
    return chosen


def upto_level(family: Family, model: Model, level: str) -> list[Technique]:
    """The default techniques of ``level`` and every level below it."""
    return choose(family, model, level)
