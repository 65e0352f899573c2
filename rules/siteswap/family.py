"""Siteswap grids: every row and column run of two or more cells is a valid vanilla siteswap.

A run of throws a_1..a_n (cells between holes, read left to right or top to bottom) is valid
when the landing beats (i + a_i) mod n are all different. Options: ``throws`` (the range, default
1-9; symbols ``0-9a-z``), ``latin`` (no throw twice in a run), ``boxes`` (sudoku boxes, each
throw once), ``nontrivial`` (a run holds at least two different throws) and ``distinct`` (runs
of equal length differ, even after rotation). Mark Probst's puzzles use ``nontrivial`` +
``distinct``; Josh Mermelstein's sudoku siteswaps use ``latin`` + ``boxes`` on 9x9.

The file is read in :mod:`rules.siteswap.file`, the model built in :mod:`rules.siteswap.model`
(the run rule's landing-beat algorithms are in :mod:`rules.siteswap.runs`), the techniques and
their table are in :mod:`rules.siteswap.techniques`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from grader.core.constraints import AllDifferent, DistinctLines, rotations
from grader.core.model import Model, State, is_single, single_value
from grader.rating.board import Board
from grader.rating.family import Family, TechniqueSpec, TextFormat, require
from grader.techniques.houses import crossed_out, stated_givens
from rules.cells import box_rule, refuse_unknown_options
from rules.siteswap.file import (
    HOLE,
    MAX_SIDE,
    OPEN,
    examples_document,
    grid_shape,
    parse_grid,
    throw_range,
)
from rules.siteswap.model import cell_index, is_run, siteswap_model
from rules.siteswap.techniques import siteswap_table

if TYPE_CHECKING:
    from rules.siteswap.schema import SiteswapFile

RULE_KEYS = ("throws", "latin", "boxes", "nontrivial", "distinct")
GENERATION_KEYS = ("holes", "min_distinct_boxes", "min_distinct_runs", "solution_tries")


def repetition(model: Model, values: Sequence[int]) -> dict[str, int]:
    """How repetitive a complete grid is: distinct runs (up to rotation) and distinct boxes."""
    runs = [c for c in model.constraints if is_run(c)]
    seen: set[tuple[int, ...]] = set()
    for run in runs:
        seq = tuple(values[v] for v in run.vars)
        seen.add(min(rotations(seq)))
    out = {"runs": len(runs), "distinct_runs": len(seen)}
    box = model.options.get("boxes")
    if box:
        boxes = [
            tuple(values[v] for v in c.vars)
            for c in model.constraints
            if isinstance(c, AllDifferent) and c.label.startswith("box ")
        ]
        out["boxes"] = len(boxes)
        out["distinct_boxes"] = len(set(boxes))
    return out


def blank_bound(model: Model, var: int) -> tuple[int, int]:
    """(modulus, ruled out) for cell ``var`` when every other cell of a grid is given: its
    row and column runs accept exactly the throws of one residue modulo the lcm of their
    lengths (a run's rule reads its throws modulo its length, and the run's landing beats
    leave one beat for the cell), and the other rules rule out at most ``ruled out`` of them:
    ``nontrivial`` one per run (the run's common throw), ``latin`` and boxes each other cell
    of the house, ``distinct`` one throw per rotation of each other run of the run's length."""
    modulus, ruled_out = 1, 0
    for constraint in model.constraints:
        if var not in constraint.vars:
            continue
        if is_run(constraint):
            modulus = math.lcm(modulus, len(constraint.vars))
            ruled_out += int(bool(model.options.get("nontrivial")))
        elif isinstance(constraint, AllDifferent):
            ruled_out += len(constraint.vars) - 1
        elif isinstance(constraint, DistinctLines):
            for line in constraint.lines:
                if var in line:
                    others = sum(len(o) == len(line) for o in constraint.lines) - 1
                    ruled_out += others * (len(line) if constraint.up_to_rotation else 1)
    return modulus, ruled_out


def fewest_in_residue(low: int, high: int, modulus: int) -> int:
    """The fewest throws in ``low``-``high`` that share a residue modulo ``modulus``, over the
    residues that have any."""
    span = high - low + 1
    return span // modulus if span >= modulus else 1


class Siteswap(Family):
    name = "siteswap"
    schema_at = "rules.siteswap.schema:SiteswapFile"
    title = "Siteswap grid"
    default_size = (3, 4)
    largest_size = (40, 40)
    largest_rules = {"throws": [0, 35], "nontrivial": True, "distinct": True}  # noqa: RUF012
    """Without latin and boxes: they need runs and boxes no longer than the throw range (36
    throws at most), which rules out 40x40."""
    options = {  # noqa: RUF012
        "throws": "[lowest, highest] throw, 0-35 (default [1, 9])",
        "latin": "no throw twice in a run",
        "boxes": "sudoku boxes: true (default shape) or [rows, cols]",
        "nontrivial": "each run holds two different throws",
        "distinct": "runs of equal length differ, also up to rotation",
        "holes": "generate: cut-out cells, [[row, col], ...] counted from 0",
        "min_distinct_runs": "generate: at least this many distinct runs",
        "min_distinct_boxes": "generate: at least this many distinct boxes",
        "solution_tries": "generate: random grids tried per puzzle for the minimums",
    }
    reachable = {(3, 4): ("trivial",), (4, 3): ("trivial",)}  # noqa: RUF012
    """Without rules (bench/reachable.py); with ``nontrivial`` and ``distinct``, easy too.
    3x3 and 4x4 reach nothing, proven (:meth:`never_blank`): no cell can be left blank."""
    out_of_reach = {  # noqa: RUF012  (no puzzle in 100 tries)
        (3, 4): ("easy", "normal", "hard", "expert"),
        (4, 3): ("easy", "normal", "hard", "expert"),
    }
    example = {  # noqa: RUF012
        "family": "siteswap",
        "size": [3, 4],
        "rules": {"throws": [1, 9], "nontrivial": True, "distinct": True},
        "grid": [".48.", ".8.4", "7..."],
    }

    text_formats = (
        TextFormat(
            "siteswap collection",
            "A collection as Mark Probst's and Josh Mermelstein's puzzles were gathered: "
            '`{"system": "siteswap_grid", "puzzles": [...]}`, each entry with `rows`, `cols`, '
            "`throw_range` (`[lowest, highest]`), `puzzle` (the `grid`), `solution`, and a "
            "`rules` sentence: one starting with `complex` or `2006` means `nontrivial` and "
            "`distinct`, with `simple` `nontrivial`, any other `latin` with `boxes`. Entries "
            "without a `puzzle` are skipped.",
            '{"system": "siteswap_grid", "puzzles": [{"id": "probst-1", "rows": 3, "cols": 4, '
            '"throw_range": [1, 9], "rules": "complex", "puzzle": [".48.", ".8.4", "7..."]}]}',
        ),
    )

    def parse_document(self, data: Any) -> list[tuple[str, dict[str, Any]]] | None:
        """The puzzles of a siteswap collection (Probst's and Mermelstein's layout)."""
        found = examples_document(data)
        if found is None:
            return None
        return [(f"puzzles[{i}]", item) for i, item in enumerate(found)]

    def build(self, spec: SiteswapFile) -> tuple[Model, State, list[int] | None]:
        rows, cols = grid_shape(spec.size, spec.grid)
        rules = spec.rules.model_dump()
        low, high = throw_range(rules["throws"])
        holes, values = parse_grid(spec.grid, rows, cols, low, high, "grid", True)
        model = siteswap_model(rows, cols, holes, rules)
        givens = model.initial_state()
        index = cell_index(model)
        for cell, value in values.items():
            givens[index[cell]] = 1 << value
        solution = None
        if spec.solution is not None:
            require(len(spec.solution) == rows, "solution", f"has {len(spec.solution)} rows")
            sol_holes, sol_values = parse_grid(
                spec.solution, rows, cols, low, high, "solution", False
            )
            require(sol_holes == holes, "solution", "has its holes elsewhere than the grid")
            solution = [0] * len(model.variables)
            for cell, value in sol_values.items():
                solution[index[cell]] = value
        return model, givens, solution

    def format_grid(self, model: Model, state: State) -> list[str]:
        rows = [[HOLE] * model.cols for _ in range(model.rows)]
        for var, variable in enumerate(model.variables):
            mask = state[var]
            rows[variable.row][variable.col] = (
                model.symbol(single_value(mask)) if is_single(mask) else OPEN
            )
        return ["".join(row) for row in rows]

    def to_data(self, model: Model, state: State) -> dict[str, Any]:
        options = model.options
        rules: dict[str, Any] = {"throws": list(options["throws"])}
        for key in ("latin", "nontrivial", "distinct"):
            if options.get(key):
                rules[key] = True
        if options.get("boxes"):
            rules["boxes"] = list(options["boxes"])
        return {
            "family": "siteswap",
            "size": [model.rows, model.cols],
            "rules": rules,
            "grid": self.format_grid(model, state),
        }

    def board(self, model: Model, state: State, givens: State | None = None) -> Board:
        board = super().board(model, state, givens)
        board.holes = {(r, c) for r, c in model.options.get("holes", [])}
        box = model.options.get("boxes")
        if box:
            br, bc = box
            per_row = model.cols // bc
            for variable in model.variables:
                r, c = variable.row, variable.col
                board.regions[(r, c)] = (r // br) * per_row + c // bc
        return board

    def technique_table(self, model: Model) -> list[TechniqueSpec]:
        return siteswap_table(model)

    def table_variants(self) -> list[Model]:
        """Latin runs and boxes add the sudoku techniques."""
        rules = {"throws": [1, 9], "latin": True, "boxes": [3, 3]}
        return [self.empty_model((9, 9), rules)]

    def start_state(self, model: Model, givens: State) -> State:
        """With latin runs or boxes (houses), the givens' throws crossed out of their houses
        first, as in a sudoku: a given is never taken for a naked single."""
        return crossed_out(model, givens)

    def stated_cells(self, model: Model, givens: State) -> set[int] | None:
        """With latin runs or boxes that hold every throw (as many cells as throws), every
        throw is placed by a step, as in a sudoku. A shorter run need not hold every throw:
        no full house or hidden single could place a throw there, and the siteswap rules
        take a single throw as written in, so a cell is done once it has one throw."""
        return stated_givens(model, givens)

    def report_fields(self, grade: Any) -> dict[str, Any]:
        values = grade.solution
        if values is None and grade.run.solved:
            values = [single_value(m) for m in grade.run.state]
        if values is None:
            return {}
        return repetition(grade.puzzle.model, values)

    def canonical_key(self, model: Model, state: State) -> str:
        """Equal for puzzles that differ by a symmetry of the rules: transposition (square grid,
        holes and boxes symmetric) and, without holes or boxes, cyclic shifts of the rows and of
        the columns (a rotated siteswap is a siteswap; rotations keep runs distinct)."""
        grid = self.format_grid(model, state)
        holes = {tuple(h) for h in model.options.get("holes", [])}
        box = model.options.get("boxes")
        variants = [grid]
        square_boxes = not box or box[0] == box[1]
        if model.rows == model.cols and square_boxes and holes == {(c, r) for r, c in holes}:
            variants.append(["".join(row[c] for row in grid) for c in range(model.cols)])
        if not holes and not box:
            shifted = []
            for g in variants:
                for dr in range(model.rows):
                    rows = g[dr:] + g[:dr]
                    shifted.extend(
                        [row[dc:] + row[:dc] for row in rows] for dc in range(model.cols)
                    )
            variants = shifted
        return model.key + "|" + min("|".join(g) for g in variants)

    def symmetric_copies(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The symmetries :meth:`canonical_key` knows: transposition (square grid, holes and
        boxes symmetric) and, without holes or boxes, the rows or the columns shifted
        cyclically by one."""
        grid = list(data["grid"])
        rows, cols = len(grid), len(grid[0])
        box = (data.get("rules") or {}).get("boxes")
        holes = {(r, c) for r in range(rows) for c in range(cols) if grid[r][c] == " "}
        out = []
        square_boxes = not box or box is True or box[0] == box[1]
        if rows == cols and square_boxes and holes == {(c, r) for r, c in holes}:
            transposed = ["".join(row[c] for row in grid) for c in range(cols)]
            out.append(("transpose", {**data, "grid": transposed}))
        if not holes and not box:
            out.append(("rows shifted", {**data, "grid": grid[1:] + grid[:1]}))
            out.append(("columns shifted", {**data, "grid": [row[1:] + row[:1] for row in grid]}))
        return out

    # -- generation ----------------------------------------------------------------------------

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        refuse_unknown_options(options, (*RULE_KEYS, *GENERATION_KEYS))
        rows, cols = size
        require(max(rows, cols) <= MAX_SIDE, "size", f"{rows}x{cols} is larger than {MAX_SIDE}")
        holes = set()
        listed = options.get("holes", []) or []
        require(isinstance(listed, list | tuple), "rules.holes", "must be [[row, col], ...]")
        for item in listed:
            require(
                isinstance(item, list | tuple) and len(item) == 2,
                "rules.holes",
                "must be [[row, col], ...]",
            )
            r, c = int(item[0]), int(item[1])
            require(0 <= r < rows and 0 <= c < cols, "rules.holes", f"({r}, {c}) is outside")
            holes.add((r, c))
        given = {k: options[k] for k in RULE_KEYS if k in options}
        if "boxes" in given:
            given["boxes"] = box_rule(given["boxes"])  # --rule boxes=2x2, as sudoku's box=2x3
        spec = {"family": "siteswap", "grid": [OPEN], "rules": given}
        rules = self.schema.model_validate(spec).rules.model_dump()  # checked as in a file
        model = siteswap_model(rows, cols, holes, rules)
        for key in ("min_distinct_boxes", "min_distinct_runs", "solution_tries"):
            if key in options:
                require(
                    isinstance(options[key], int) and options[key] >= 0,
                    f"rules.{key}",
                    "must be a whole number",
                )
                model.options[key] = options[key]  # type: ignore[index]
        return model

    def never_blank(self, size: tuple[int, int], options: Mapping[str, Any]) -> str | None:
        """Proven when, at every cell, even with every other cell given, at least two throws
        remain (:func:`blank_bound`): a puzzle with a blank then always has two solutions.
        Siteswap puzzles show no hints but cells, so the givens can tell no more."""
        model = self.empty_model(size, options)
        low, high = model.options["throws"]
        tightest = None
        for var in range(len(model.variables)):
            modulus, ruled_out = blank_bound(model, var)
            fewest = fewest_in_residue(low, high, modulus)
            if fewest < ruled_out + 2:
                return None  # this cell may be determined: no proof
            if tightest is None or fewest - ruled_out < tightest[0] - tightest[2]:
                tightest = (fewest, modulus, ruled_out)
        assert tightest is not None
        fewest, modulus, ruled_out = tightest
        others = f", and the other rules rule out at most {ruled_out}" if ruled_out else ""
        return (
            f"no cell of a {size[0]}x{size[1]} siteswap grid with throws {low}-{high} can be "
            f"left blank: a cell's row and column tell its throw only modulo {modulus}, each "
            f"residue has {fewest} or more throws in {low}-{high}{others}, so a blank cell "
            "always has two completions"
        )

    def random_solution(self, model: Model, rng: random.Random) -> list[int]:
        """A random grid (seeded backtracking) meeting the repetition minimums, if any."""
        from grader.core.backtrack import solve_random

        want_boxes = int(model.options.get("min_distinct_boxes", 0))
        want_runs = int(model.options.get("min_distinct_runs", 0))
        tries = int(model.options.get("solution_tries", 50))
        best = None
        for _ in range(max(1, tries)):
            solution = solve_random(model, model.initial_state(), rng)
            require(solution is not None, "size", "this puzzle shape has no solution")
            assert solution is not None
            measure = repetition(model, solution)
            if (
                measure.get("distinct_boxes", want_boxes) >= want_boxes
                and measure["distinct_runs"] >= want_runs
            ):
                return solution
            best = measure
        require(
            False,
            "rules",
            f"no random grid met min_distinct_boxes={want_boxes} / min_distinct_runs="
            f"{want_runs} in {tries} tries (last: {best})",
        )
        raise AssertionError


FAMILY = Siteswap()
