"""The family protocol: what a rule set (``rules/``) gives the engine.

A family turns a puzzle file into a :class:`~grader.core.model.Model` plus givens, names its
symbols, declares its techniques with costs and levels (one table, overridable by the user),
formats grids back into its file's symbols, and knows its symmetries. Families are found through
the ``grader.families`` entry-point group, so a third party can add one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar

from grader.core.errors import FieldProblem
from grader.core.model import Model, State, is_single, single_value, values_of
from grader.core.technique import Technique
from grader.rating.board import Board, Cell, Spot

if TYPE_CHECKING:
    from pydantic import BaseModel

    from grader.rating.target import Target

LEVELS: tuple[str, ...] = ("trivial", "easy", "normal", "hard", "expert", "extreme")
OUTCOMES: tuple[str, ...] = ("unsolved", "invalid")
"""What a grade reports as its level when it has none: the techniques did not finish the
puzzle, or it has no solution."""


@dataclass(frozen=True)
class TechniqueSpec:
    """One row of a family's technique table."""

    factory: Callable[..., Technique]
    cost: float
    level: str
    name: str | None = None
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    default: bool = True
    """Enabled unless asked for (guessing is off by default)."""

    @property
    def technique_name(self) -> str:
        """The technique's name: the row's ``name``, else what its factory calls a technique
        with these arguments. The built technique always carries this name."""
        if self.name:
            return self.name
        default = getattr(self.factory, "default_name", None)
        return default(**self.kwargs) if default else self.factory.name  # type: ignore[attr-defined]

    def build(self, cost: float | None = None) -> Technique:
        """The technique at the row's cost (or ``cost``, a user's override), named as the row."""
        return self.factory(
            cost=self.cost if cost is None else cost,
            level=self.level,
            name=self.technique_name,
            **self.kwargs,
        )


@dataclass(frozen=True)
class TextFormat:
    """A format a family reads besides its own JSON file (a game ID, a one-line grid, a layout
    other tools write), shown on the manual's file-format page."""

    name: str
    description: str
    """What it holds and how its symbols read (Markdown)."""
    example: str
    """One puzzle in the format, as a user would type it or a file holds it; it must load
    (``grader.rating.loading.load``) and grade (``tests/test_file_formats.py``)."""
    needs_family: bool = False
    """Read only when the family is known (``--family NAME`` or a ``family`` key): a layout of
    the family's own JSON object rather than a format any family's reading recognises."""


@dataclass
class Puzzle:
    """A loaded puzzle: its family, model, givens and what the file said about it."""

    family: Family
    model: Model
    givens: State
    id: str
    origin: str
    data: dict[str, Any]
    solution: list[int] | None = None
    clues: State | None = None
    """The file's givens when the solver starts from fewer candidates (see
    :meth:`Family.start_state`); None when ``givens`` are the file's givens."""

    @property
    def clue_state(self) -> State:
        """The state the file gives: what formatting, keys and pictures show as givens."""
        return self.givens if self.clues is None else self.clues

    @property
    def name(self) -> str | None:
        return self.data.get("name")

    @property
    def options(self) -> Mapping[str, Any]:
        return self.model.options

    def given_count(self) -> int:
        """Decided cells, plus the family's other hints (signs, clues)."""
        return self.family.count_givens(self)


class Family:
    """Base class of puzzle families."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    levels: ClassVar[tuple[str, ...]] = LEVELS
    example: ClassVar[dict[str, Any]] = {}
    """A small valid puzzle of the family (used to list its techniques and in docs)."""
    default_size: ClassVar[tuple[int, int]] = (6, 6)
    """The size (rows, cols) ``grader generate`` makes when ``--size`` is not given."""
    largest_size: ClassVar[tuple[int, int] | None] = None
    """The largest size (rows, cols) a file may have; ``--timeout`` must hold there."""
    largest_rules: ClassVar[Mapping[str, Any]] = {}
    """The rules (a file's ``rules``, options of :attr:`options`) that make a puzzle of
    :attr:`largest_size` the most work: every rule switched on that the size allows, every
    range at its widest. ``--timeout`` must hold there with them too (the conformance kit's
    ``check_timeout``); empty when the family has no such rule."""
    options: ClassVar[Mapping[str, str]] = {}
    """The family's options (a file's ``rules``, ``generate --rule KEY=VALUE``): name → meaning."""

    text_formats: ClassVar[tuple[TextFormat, ...]] = ()
    """The formats the family reads besides its JSON file (:meth:`parse_text`,
    :meth:`from_layout`, :meth:`parse_document`), each with an example, for the manual."""

    schema_at: ClassVar[str] = ""
    """Where :attr:`schema` lives (``module:Class``), imported on first use, so that a process
    reading only text formats never imports pydantic (a third of its start-up)."""

    @property
    def schema(self) -> type[BaseModel]:
        """The pydantic model of the family's puzzle files: the class :attr:`schema_at` names
        (a family may instead set ``schema`` itself as a class attribute)."""
        module, _, name = self.schema_at.partition(":")
        if not name:
            raise NotImplementedError(f"family {self.name!r} names no schema")
        return getattr(import_module(module), name)

    def levels_text(self) -> str:
        """The named levels as ``grader families`` lists them."""
        return ", ".join(self.levels)

    def size_text(self, size: tuple[int, int]) -> str:
        """How ``grader families`` and messages write a size (``ROWSxCOLS``)."""
        return f"{size[0]}x{size[1]}"

    def normal_size(self, size: tuple[int, int], options: Mapping[str, Any]) -> tuple[int, int]:
        """The (rows, cols) of the model a requested size and options give: the size the bank,
        ids and files use, whatever ``--size`` said. The default is the size itself; a family
        whose ``--size N`` names another shape overrides it (pair place: ``6`` is K6, 5 rows
        of 6 letters). Raises :class:`FieldProblem` for a size the family cannot make."""
        return size[0], size[1]

    # -- files -------------------------------------------------------------------------------

    def parse_text(self, text: str) -> dict[str, Any] | None:
        """A puzzle dict from another format users already have (a game ID...), or None."""
        return None

    def from_layout(self, data: dict[str, Any]) -> dict[str, Any]:
        """The puzzle dict in the family's own file layout, from a layout of it that other
        tools write (LinkedIn Tango's ``rows`` and ``constraints``); the default keeps it."""
        return data

    def parse_document(self, data: Any) -> list[tuple[str, dict[str, Any]]] | None:
        """The puzzles of a JSON document in another layout this family knows (a collection
        without ``family`` keys), as (field path, puzzle dict) pairs; None if not one."""
        return None

    def file_spec(self, data: dict[str, Any]) -> Any:
        """The spec :meth:`build` takes for a puzzle dict in any layout the family reads
        (:meth:`from_layout`), validated by :attr:`schema`."""
        return self.schema.model_validate(self.from_layout(data))

    def text_spec(self, data: dict[str, Any]) -> Any:
        """The spec :meth:`build` takes for a dict :meth:`parse_text` made: by default
        :meth:`file_spec`; a family whose text formats it checks while reading them may return
        a plain object with the fields :meth:`build` reads instead."""
        return self.file_spec(data)

    def build(self, spec: Any) -> tuple[Model, State, list[int] | None]:
        """Model, givens and (if the file gave one) the solution as values per variable, from
        a file validated by :attr:`schema` (or a :meth:`text_spec`).

        Raises :class:`~grader.core.errors.FieldProblem` for a file that is well formed JSON but
        describes no valid puzzle of this family.
        """
        raise NotImplementedError

    def format_grid(self, model: Model, state: State) -> list[str]:
        """The state as rows of the file's symbols, ``.`` for an open cell."""
        raise NotImplementedError

    def text_rows(self, model: Model, state: State) -> list[str]:
        """The rows a text report prints for ``state`` (default: :meth:`format_grid`); a family
        may add lines such as column headers."""
        return self.format_grid(model, state)

    def text_board(self, model: Model, state: State) -> list[str]:
        """The lines a text report prints for ``state``: :meth:`text_rows` with a space between
        symbols; a family may draw more (Tango's signs between the cells)."""
        return [" ".join(row) for row in self.text_rows(model, state)]

    def to_data(self, model: Model, state: State) -> dict[str, Any]:
        """A puzzle file (dict) whose givens are the decided cells of ``state``."""
        raise NotImplementedError

    def board(self, model: Model, state: State, givens: State | None = None) -> Board:
        """What a picture of ``state`` shows; the default draws one variable per cell.

        Families override it to add their decorations (signs, boxes, clues, doors, paths).
        """
        board = Board(model.rows, model.cols)
        symbols = model.memo.get("board symbols")
        if symbols is None:  # every value a cell may hold, once per model (a board per step)
            domains = 0
            for variable in model.variables:
                if variable.kind == "cell" and variable.row >= 0:
                    domains |= variable.domain
            symbols = model.memo["board symbols"] = "".join(
                model.symbol(v) for v in values_of(domains)
            )
        board.symbols = symbols
        for var, variable in enumerate(model.variables):
            if variable.kind != "cell" or variable.row < 0:
                continue
            cell = (variable.row, variable.col)
            mask = state[var]
            if is_single(mask):
                board.cells[cell] = model.symbol(single_value(mask))
                if givens is not None and is_single(givens[var]):
                    board.givens.add(cell)
            elif mask != variable.domain:
                board.candidates[cell] = "".join(model.symbol(v) for v in values_of(mask))
        return board

    def variable_cells(self, model: Model, var: int) -> tuple[Cell, ...]:
        """The board cells a picture marks for variable ``var`` (its evidence, its change):
        the default, the one cell at its row and column (none without one).

        A family whose variables stand for more than a cell overrides it (path puzzles: an
        edge, both cells it joins)."""
        variable = model.variables[var]
        return ((variable.row, variable.col),) if variable.row >= 0 else ()

    def spot(self, model: Model, var: int, value: int) -> Spot | None:
        """Where a picture draws candidate ``value`` of ``var`` (a chain's node, a conclusion):
        the default, the value's symbol in the variable's cell (None without one)."""
        variable = model.variables[var]
        if variable.row < 0 or variable.col < 0:
            return None
        return Spot((variable.row, variable.col), model.symbol(value))

    def conclusion_spots(
        self,
        model: Model,
        placements: Sequence[tuple[int, int]],
        eliminations: Sequence[tuple[int, int]],
    ) -> tuple[list[Spot], list[Spot]]:
        """What a picture draws placed and struck out for a step's conclusions: the default,
        the spots of its placements and of its eliminations."""
        placed = [self.spot(model, var, value) for var, value in placements]
        struck = [self.spot(model, var, value) for var, value in eliminations]
        return [s for s in placed if s], [s for s in struck if s]

    def start_state(self, model: Model, givens: State) -> State:
        """The candidates a solver of a file with these givens starts from (the givens
        themselves, unless the family's convention crosses something out first)."""
        return givens

    def stated_cells(self, model: Model, givens: State) -> set[int] | None:
        """The cells written in at the start (the file's givens) when every other cell is to be
        placed by a step, as a sudoku solver writes a digit in even where eliminations left
        one candidate (see :attr:`grader.core.technique.Context.stated`); None (the default): a
        cell is done once it has one candidate."""
        return None

    def count_givens(self, puzzle: Puzzle) -> int:
        return sum(1 for m in puzzle.clue_state if m and m & (m - 1) == 0)

    # -- techniques --------------------------------------------------------------------------

    def technique_table(self, model: Model) -> Sequence[TechniqueSpec]:
        """The family's techniques with their starting costs and levels, for this model."""
        raise NotImplementedError

    def table_variants(self) -> list[Model]:
        """Models whose rules add techniques that the :attr:`example`'s table lacks (a costs
        file's table for this family may name those too); none by default."""
        return []

    def level_of_cost(self, difficulty: float) -> str | None:
        """A level from the difficulty alone, for families graded on a numeric scale."""
        return None

    def report_fields(self, grade: Any) -> dict[str, Any]:
        """Extra keys for the JSON report (a family's own figures); never existing keys."""
        return {}

    # -- generation ----------------------------------------------------------------------------

    cell_hints: ClassVar[bool] = True
    """Whether the generator may reveal cells of the solution as givens."""

    byte_states: ClassVar[bool] = False
    """Whether the generator may propagate on states held as a ``bytearray`` when every mask
    fits in a byte (copies and line reads cost a C-level pass): only for a family whose
    techniques read and write states by index, slice and iteration alone."""

    reachable: ClassVar[Mapping[tuple[int, int], tuple[str, ...]]] = {}
    """The levels the generator was seen to reach at a size (rows, cols) with the default
    options (``bench/reachable.py``)."""

    out_of_reach: ClassVar[Mapping[tuple[int, int], tuple[str, ...]]] = {}
    """The levels it does not reach there: no puzzle in ``bench/reachable.py``'s tries, or
    proven (a test backs each); the generator refuses them at once. A level in neither table
    is tried."""

    def reach(
        self, size: tuple[int, int], options: Mapping[str, Any]
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(levels reached, levels out of reach) at this size and options: none reached and
        every level out of reach when :meth:`never_blank` proves that no puzzle exists; else
        the tables, which make claims for the default options only."""
        if self.never_blank(size, options) is not None:
            return (), self.levels
        if options:
            return (), ()
        key = (size[0], size[1])
        return self.reachable.get(key, ()), self.out_of_reach.get(key, ())

    def never_blank(self, size: tuple[int, int], options: Mapping[str, Any]) -> str | None:
        """Why no puzzle of this size and options can leave a cell blank, when that is proven
        (then no puzzle exists, at any level and in any mode); None when no proof is known.
        The default knows none."""
        return None

    def reachable_difficulty(
        self, size: tuple[int, int], options: Mapping[str, Any], costs: Any = None
    ) -> float | None:
        """For a family rated on a numeric scale: a difficulty no puzzle of this size can
        exceed with these costs (a band starting above it is refused), or None."""
        return None

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        """The model of an empty puzzle of this size and options (no givens, no extra hints)."""
        raise NotImplementedError

    def generation_target(self, model: Model, level: str, costs: Any) -> Target | None:
        """What a generated puzzle of ``level`` must meet, or None (the default) to read
        ``level`` as one of the family's named levels: the techniques up to it must solve the
        puzzle, those up to the level below must not."""
        return None

    def random_solution(self, model: Model, rng: Any) -> list[int]:
        """A random complete solution (values per variable), following ``rng`` only.

        The default is a seeded randomized backtracking search; families with a faster
        construction override it.
        """
        from grader.core.backtrack import solve_random

        solution = solve_random(model, model.initial_state(), rng)
        if solution is None:
            raise FieldProblem("size", "this puzzle shape has no solution")
        return solution

    def solution_model(self, template: Model, solution: list[int]) -> tuple[Model, list[int]]:
        """The empty model one generated puzzle builds on, once its random solution is known,
        and the solution in that model's variables. The default keeps the template; a family
        whose fixed structure depends on the solution (a path puzzle's doors) narrows it."""
        return template, solution

    def extra_hints(self, model: Model, solution: Sequence[int]) -> list[Any]:
        """Hints other than cells that a puzzle may show for ``solution`` (signs, clues...).

        Each hint is hashable and sortable; :meth:`with_hints` builds the model showing a set
        of them. The default family has none.
        """
        return []

    def with_hints(self, model: Model, hints: Sequence[Any]) -> Model:
        """The empty model plus exactly these extra hints."""
        if hints:
            raise NotImplementedError
        return model

    def hint_excludes(self, template: Model, hint: Any, values: Sequence[int]) -> bool:
        """Whether ``hint``, shown on the empty ``template``, rules out the solution ``values``."""
        model = self.with_hints(template, [hint])
        return not all(c.satisfied_by(values) for c in model.constraints)

    # -- symmetry ----------------------------------------------------------------------------

    def symmetric_copies(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The puzzle ``data`` (a file dict as :meth:`to_data` writes it) under each symmetry
        of the family's rules and each relabelling of its symbols, by name: the copies that
        :meth:`canonical_key` keys alike and that must grade alike (the conformance kit,
        :mod:`grader.testing`, checks both). The default knows none."""
        return []

    def canonical_key(self, model: Model, state: State) -> str:
        """A key equal for puzzles that are the same up to the family's symmetries.

        The default knows no symmetry: the model's key (size, options and fixed hints such as
        signs) and the grid, so that puzzles differing only in their hints never share a key.
        """
        return model.key + "|" + "|".join(self.format_grid(model, state))


def require(condition: bool, field_name: str, problem: str) -> None:
    """Raise a :class:`FieldProblem` unless ``condition`` holds."""
    if not condition:
        raise FieldProblem(field_name, problem)
