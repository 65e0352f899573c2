"""The siteswap model: a line (with :class:`~rules.siteswap.runs.SiteswapRule`) per run of two
or more cells, all-different runs and boxes with ``latin``/``boxes``, distinct runs with
``distinct``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from grader.core.constraints import AllDifferent, Constraint, DistinctLines, Line
from grader.core.model import Model, State, Variable, cell_name
from grader.rating.family import require
from rules.cells import BOX_SHAPES
from rules.siteswap.file import ALPHABET, throw_range
from rules.siteswap.runs import SiteswapRule


def runs_of(rows: int, cols: int, holes: set[tuple[int, int]]) -> list[tuple[str, list]]:
    """Maximal runs of two or more cells, rows first: (label, [(r, c), ...])."""
    out: list[tuple[str, list]] = []
    for along_rows in (True, False):
        outer, inner = (rows, cols) if along_rows else (cols, rows)
        for a in range(outer):
            cells = [(a, b) if along_rows else (b, a) for b in range(inner)]
            run: list[tuple[int, int]] = []
            for cell in [*cells, None]:
                if cell is not None and cell not in holes:
                    run.append(cell)
                    continue
                if len(run) >= 2:
                    out.append((run_label(along_rows, a, run, inner), run))
                run = []
    return out


def run_label(along_rows: bool, index: int, run: list[tuple[int, int]], inner: int) -> str:
    word = "row" if along_rows else "column"
    if len(run) == inner:
        return f"{word} {index + 1}"
    other = "columns" if along_rows else "rows"
    first, last = (run[0][1], run[-1][1]) if along_rows else (run[0][0], run[-1][0])
    return f"{word} {index + 1} ({other} {first + 1}-{last + 1})"


def box_shape(rows: int, cols: int, boxes: bool | Sequence[int]) -> tuple[int, int] | None:
    if boxes is False:
        return None
    if boxes is True:
        shape = BOX_SHAPES.get(rows) if rows == cols else None
        require(shape is not None, "rules.boxes", f"no default box shape for {rows}x{cols}")
        return shape
    require(len(boxes) == 2, "rules.boxes", "must be true or [rows, cols]")
    br, bc = int(boxes[0]), int(boxes[1])
    require(br > 0 and bc > 0, "rules.boxes", f"{br}x{bc} is not a box shape")
    require(
        rows % br == 0 and cols % bc == 0,
        "rules.boxes",
        f"{br}x{bc} boxes do not tile a {rows}x{cols} grid",
    )
    return br, bc


def siteswap_model(
    rows: int, cols: int, holes: set[tuple[int, int]], rules: Mapping[str, Any]
) -> Model:
    """The empty siteswap grid with these holes and rules."""
    low, high = throw_range(rules.get("throws", (1, 9)))
    latin = bool(rules.get("latin", False))
    nontrivial = bool(rules.get("nontrivial", False))
    distinct = bool(rules.get("distinct", False))
    box = box_shape(rows, cols, rules.get("boxes", False))
    span = high - low + 1
    domain = ((1 << span) - 1) << low
    index: dict[tuple[int, int], int] = {}
    variables = []
    for r in range(rows):
        for c in range(cols):
            if (r, c) not in holes:
                index[(r, c)] = len(variables)
                variables.append(Variable(cell_name(r, c), domain, r, c))
    require(bool(variables), "grid", "has no cells")
    constraints: list[Constraint] = []
    runs = runs_of(rows, cols, holes)
    for label, cells in runs:
        rule = SiteswapRule(len(cells), nontrivial)
        constraints.append(Line([index[c] for c in cells], label, rule))
    if latin:
        for label, cells in runs:
            require(len(cells) <= span, "rules.latin", f"{label} is longer than the throw range")
            covering = domain if len(cells) == span else 0
            if covering:
                total = sum(range(low, high + 1))
                require(
                    total % span == 0,
                    "rules.latin",
                    f"{label} would hold each throw {low}-{high} once, which add up to {total}, "
                    f"not a multiple of its length {span}: no run can be a siteswap",
                )
            constraints.append(AllDifferent([index[c] for c in cells], label, covering))
    if box is not None:
        br, bc = box
        require(not holes, "rules.boxes", "boxes need a grid without holes")
        require(br * bc <= span, "rules.boxes", f"{br}x{bc} boxes hold more cells than throws")
        number = 0
        for r0 in range(0, rows, br):
            for c0 in range(0, cols, bc):
                number += 1
                cells = [index[(r0 + i, c0 + j)] for i in range(br) for j in range(bc)]
                covering = domain if br * bc == span else 0
                constraints.append(AllDifferent(cells, f"box {number}", covering))
    if distinct:
        lines = [[index[c] for c in cells] for _, cells in runs]
        constraints.append(
            DistinctRunSet(
                lines,
                [label for label, _ in runs],
                "runs of equal length must differ:",
                up_to_rotation=True,
            )
        )
    hole_list = sorted([r, c] for r, c in holes)
    options = {
        "throws": [low, high],
        "latin": latin,
        "boxes": list(box) if box else False,
        "nontrivial": nontrivial,
        "distinct": distinct,
        "holes": hole_list,
    }
    key = (
        f"siteswap {rows}x{cols} throws={low}-{high} latin={latin} boxes={box} "
        f"nontrivial={nontrivial} distinct={distinct} holes={hole_list}"
    )
    return Model(
        family="siteswap",
        rows=rows,
        cols=cols,
        variables=tuple(variables),
        constraints=tuple(constraints),
        symbols=dict(enumerate(ALPHABET)),
        key=key,
        options=options,
    )


class DistinctRunSet(DistinctLines):
    """Distinct runs (up to rotation), with a faster scan for complete runs."""

    def complete_values(self, state: State) -> dict[int, tuple[int, ...]]:
        out = {}
        for index, line in enumerate(self.lines):
            values = []
            for var in line:
                mask = state[var]
                if mask & (mask - 1):
                    break
                values.append(mask.bit_length() - 1)
            else:
                out[index] = tuple(values)
        return out


def is_run(constraint: Constraint) -> bool:
    return isinstance(constraint, Line) and isinstance(constraint.rule, SiteswapRule)


def runs_through(model: Model) -> list[list[tuple[Line, int]]]:
    """Per variable, the runs through it with its position in each (memoized)."""
    found = model.memo.get("siteswap_runs")
    if found is None:
        found = [[] for _ in model.variables]
        for constraint in model.constraints:
            if is_run(constraint):
                assert isinstance(constraint, Line)
                for pos, var in enumerate(constraint.vars):
                    found[var].append((constraint, pos))
        model.memo["siteswap_runs"] = found
    return found


def cell_index(model: Model) -> dict[tuple[int, int], int]:
    """(row, col) → variable (memoized)."""
    found = model.memo.get("cell_index")
    if found is None:
        found = {(v.row, v.col): i for i, v in enumerate(model.variables)}
        model.memo["cell_index"] = found
    return found
