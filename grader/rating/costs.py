"""Choosing techniques and their costs: the family's table, a user's overrides, a selection.

Costs come from a TOML file (``--costs``) or, in Python, a mapping of the same shape::

    line-enumeration = 3.5      # top-level keys: every family that has the technique

    [tango]                     # a table named after a family: that family only
    sign = 0.5

``GradeOptions(costs={"window": 5})`` is the top level; ``{"tango": {"sign": 0.5}}`` a family
table. Every name is checked, by every command and the Python API alike (:func:`overrides`): a
family table's names must be techniques of that family (under some rules: a siteswap without
latin runs ignores a Sudoku technique its table names), and a top-level name a technique of the
family being graded or of some other family; anything else is a :class:`CostsError` naming the
file and the name, with the closest technique name as a suggestion. A table that is not named
after a family (``[costs]``, ``[Tango]``) is refused the same way.

A selection (``--techniques``) is a comma-separated list of technique names or level names (a
level stands for every technique up to it); items starting with ``-`` remove techniques from
the full table instead, e.g. ``-lookahead-2``.
"""

from __future__ import annotations

import difflib
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from grader.core.errors import InputError, UsageError
from grader.core.model import Model
from grader.core.shared import SharedByKey
from grader.core.technique import Technique
from grader.rating.family import Family, TechniqueSpec
from grader.rating.registry import extra_techniques, families

Costs = Mapping[str, Any]
"""Technique costs: technique name → cost (every family), family name → {name → cost}."""


class CostsError(InputError, ValueError):
    """A cost that names no technique, or is not a number: ``origin: field: problem``."""


@dataclass(frozen=True)
class CostTable:
    """Costs checked for shape (numbers, family tables), remembering where they came from."""

    every: Mapping[str, float] = field(default_factory=dict)
    """Technique name → cost, for every family that has the technique."""
    by_family: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    """Family → technique name → cost."""
    origin: str = "costs"
    """The file (or ``costs`` for a mapping given in Python), for error messages."""


def parse_costs(data: Costs, origin: str = "costs") -> CostTable:
    """Check the shape of costs (a TOML document or a Python mapping) into a :class:`CostTable`."""
    if isinstance(data, CostTable):
        return data
    if not isinstance(data, Mapping):
        raise CostsError(origin, "", "must be a mapping of technique names to costs")
    every: dict[str, float] = {}
    by_family: dict[str, dict[str, float]] = {}
    known = families()
    for key, value in data.items():
        if isinstance(value, Mapping):
            if key not in known:
                hint = _did_you_mean(key, known)
                raise CostsError(
                    origin,
                    str(key),
                    f"no such family{hint}; give costs at the top level (every family) or in "
                    f"a table named after a family ({', '.join(known)})",
                )
            table = by_family.setdefault(key, {})
            for name, cost in value.items():
                table[name] = _cost(origin, f"{key}.{name}", cost)
            _check_family_table(origin, key, table)
        else:
            every[key] = _cost(origin, str(key), value)
    for name in every:  # a name no family knows is wrong wherever the costs are used
        if name not in every_technique_name():
            hint = _did_you_mean(name, sorted(every_technique_name()))
            raise CostsError(origin, name, f"no such technique in any family{hint}")
    return CostTable(every, by_family, origin)


def _check_family_table(origin: str, family: str, table: Mapping[str, float]) -> None:
    """Refuse a name of a family's table that is no technique of that family (any rules)."""
    names = family_technique_names(family)
    for name in table:
        if name not in names:
            problem = f"no such technique for {family}{_did_you_mean(name, sorted(names))}"
            raise CostsError(origin, f"{family}.{name}", problem)


def load_costs(path: str) -> CostTable:
    """Read a costs TOML file, every name checked: a top-level name must be a technique of some
    family, a family table's names techniques of that family (before anything is graded)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(path, "", "no such file") from None
    except IsADirectoryError:
        raise InputError(path, "", "is a directory, expected a costs file (TOML)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(path, "", f"cannot be read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(path, "", f"is not valid TOML ({error})") from None
    return parse_costs(data, path)


def _cost(origin: str, field_name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CostsError(origin, field_name, "must be a number")
    if not math.isfinite(value) or value < 0:
        raise CostsError(origin, field_name, "must be a finite number ≥ 0")
    return float(value)


def _did_you_mean(name: object, names: Sequence[str] | Mapping[str, Any]) -> str:
    close = difflib.get_close_matches(str(name), list(names), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


@cache
def every_technique_name() -> frozenset[str]:
    """The names of every family's techniques (:func:`family_technique_names`)."""
    return frozenset().union(*(family_technique_names(name) for name in families()))


@cache
def family_technique_names(name: str) -> frozenset[str]:
    """The names of a family's techniques under any of its rules (the tables of its example and
    of its :meth:`~grader.rating.family.Family.table_variants`) and of the extra ones."""
    from grader.rating.loading import puzzle_from_dict

    family = families()[name]
    models = family.table_variants()
    if family.example:
        models.append(puzzle_from_dict(family.example, f"{name} example", "example").model)
    out = {spec.technique_name for model in models for spec in technique_table(family, model)}
    out.update(spec.technique_name for spec in extra_techniques(name))
    return frozenset(out)


def overrides(
    costs: Costs | CostTable | None, family: Family, table: Sequence[TechniqueSpec]
) -> dict[str, float]:
    """The costs that apply to ``family``'s table: the one check of cost names, used by every
    command and the Python API. Raises :class:`CostsError` for a name that is no technique."""
    if not costs:
        return {}
    checked = parse_costs(costs)
    names = [spec.technique_name for spec in table]
    out: dict[str, float] = {}
    for name, cost in checked.every.items():
        if name in names:
            out[name] = cost
        elif name not in every_technique_name():
            problem = f"no such technique for {family.name}{_did_you_mean(name, names)}"
            raise CostsError(checked.origin, name, problem)
    for name, cost in checked.by_family.get(family.name, {}).items():
        if name in names:
            out[name] = cost
        elif family.name not in families() or name not in family_technique_names(family.name):
            problem = f"no such technique for {family.name}{_did_you_mean(name, names)}"
            raise CostsError(checked.origin, f"{family.name}.{name}", problem)
    return out


def technique_table(family: Family, model: Model) -> list[TechniqueSpec]:
    """The family's table plus techniques third parties added."""
    return [*family.technique_table(model), *extra_techniques(family.name)]


def choose(
    family: Family,
    model: Model,
    selection: str | None = None,
    costs: Costs | CostTable | None = None,
    guess: bool = False,
) -> list[Technique]:
    """The techniques to run, built with their (possibly overridden) costs. Without cost
    overrides the list is built once per family, rules (the model's key) and selection, as a
    file of puzzles asks for it once a puzzle (techniques keep no state between runs)."""
    if costs is None:
        key = (family.name, model.key, selection, guess)
        return list(_CHOSEN.get(key, lambda: tuple(_choose(family, model, selection, None, guess))))
    return _choose(family, model, selection, costs, guess)


_CHOSEN: SharedByKey[tuple[Technique, ...]] = SharedByKey(32)
"""Technique lists :func:`choose` keeps."""


def _choose(
    family: Family,
    model: Model,
    selection: str | None,
    costs: Costs | CostTable | None,
    guess: bool,
) -> list[Technique]:
    table = technique_table(family, model)
    chosen = select(table, family.levels, selection)
    if guess:
        chosen |= {spec.technique_name for spec in table if spec.technique_name == "guess"}
    return [t for t in build_table(family, table, costs) if t.name in chosen]


def build_table(
    family: Family, table: Sequence[TechniqueSpec], costs: Costs | CostTable | None = None
) -> list[Technique]:
    """Every row of a table built at its cost or the user's (checked by :func:`overrides`)."""
    names = [spec.technique_name for spec in table]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"{family.name}: technique table names {', '.join(twice)} twice")
    costed = overrides(costs, family, table)
    return [spec.build(costed.get(spec.technique_name)) for spec in table]


class SelectionError(UsageError):
    """A ``--techniques`` selection naming something a family's table lacks. ``elsewhere``:
    every such name is a technique or level of some installed family (so a command grading
    several families refuses this puzzle only); otherwise the selection is wrong for all."""

    def __init__(self, message: str, elsewhere: bool) -> None:
        super().__init__(message)
        self.elsewhere = elsewhere


def known_anywhere(key: str) -> bool:
    """Whether ``key`` is a technique or a level of some installed family."""
    if key in every_technique_name():
        return True
    return any(key in family.levels for family in families().values())


def families_having(key: str) -> list[str]:
    """The installed families that have ``key`` as a technique or a level, by name."""
    return [
        name
        for name, family in sorted(families().items())
        if key in family.levels or key in family_technique_names(name)
    ]


def selection_keys(selection: str) -> list[tuple[bool, str]]:
    """Each item of a selection string: whether it removes (``-``), and its name."""
    items = [item.strip() for item in selection.split(",") if item.strip()]
    if not items:
        raise SelectionError(
            f"--techniques: {selection!r} names no technique or level", elsewhere=False
        )
    return [
        (item.startswith("-"), item[1:] if item.startswith("-") else item.lstrip("+"))
        for item in items
    ]


def check_selection(selection: str | None) -> None:
    """Refuse a selection naming something no installed family has (a :class:`SelectionError`,
    not ``elsewhere``): it is wrong for every puzzle, so a command grading many into one
    output stops before any work instead of failing each puzzle. An empty selection names
    nothing: refused too (None is the default set)."""
    if selection is None:
        return
    nowhere = [key for _, key in selection_keys(selection) if not known_anywhere(key)]
    if nowhere:
        key = nowhere[0]
        names = sorted(
            every_technique_name() | {lv for f in families().values() for lv in f.levels}
        )
        raise SelectionError(
            f"--techniques: unknown technique or level {key!r}: no family has it"
            f"{_did_you_mean(key, names)}",
            elsewhere=False,
        )


def select(
    table: Sequence[TechniqueSpec], levels: Sequence[str], selection: str | None
) -> set[str]:
    """Names of the techniques a selection string picks from a table."""
    defaults = {spec.technique_name for spec in table if spec.default}
    if selection is None:
        return defaults
    names = {spec.technique_name for spec in table}
    given = selection_keys(selection)
    removing = given[0][0]  # a selection starting with a removal starts from the defaults
    # removing what another family has is nothing to remove here (a selection for several)
    keys = [
        (minus, key)
        for minus, key in given
        if not (minus and key not in levels and key not in names and known_anywhere(key))
    ]
    unknown = [key for _, key in keys if key not in levels and key not in names]
    if unknown:
        nowhere = [key for key in unknown if not known_anywhere(key)]
        key = (nowhere or unknown)[0]  # a name no family knows first: the command's mistake
        ordered = [*levels, *sorted(names)]
        if nowhere:
            problem = f"unknown technique or level {key!r}{_did_you_mean(key, ordered)}"
        else:  # another family's: say whose
            having = families_having(key)
            owners = ", ".join(having[:-1]) + " and " + having[-1] if len(having) > 1 else having[0]
            problem = f"{key!r} belongs to {owners}, not to this puzzle's family"
        raise SelectionError(
            f"--techniques: {problem} (known: {', '.join(ordered)})", elsewhere=not nowhere
        )
    chosen = set(defaults) if removing else set()
    for minus, key in keys:
        if key in levels:
            cap = levels.index(key)
            picked = {
                s.technique_name
                for s in table
                if s.default and s.level in levels and levels.index(s.level) <= cap
            }
        else:
            picked = {key}
        if minus:
            chosen -= picked
        else:
            chosen |= picked
    return chosen


def upto_level(family: Family, model: Model, level: str) -> list[Technique]:
    """The default techniques of ``level`` and every level below it."""
    return choose(family, model, level)
