"""Siteswap grids: every row and column run of two or more cells is a valid vanilla siteswap.

A run of throws a_1..a_n (cells between holes, read left to right or top to bottom) is valid
when the landing beats (i + a_i) mod n are all different. Options: ``throws`` (the range, default
1-9; symbols ``0-9a-z``), ``latin`` (no throw twice in a run), ``boxes`` (sudoku boxes, each
throw once), ``nontrivial`` (a run holds at least two different throws) and ``distinct`` (runs
of equal length differ, even after rotation). Mark Probst's puzzles use ``nontrivial`` +
``distinct``; Josh Mermelstein's sudoku siteswaps use ``latin`` + ``boxes`` on 9x9.

Levels: *trivial* is the sum rule, free landing beats in a cell's row and column, the non-constant
rule and the hidden landing beat (one cell can still reach a beat); *easy* adds distinct runs and
pairs of landing beats; *normal* triples; *hard* single-line enumeration (an exact matching of
throws to beats); *expert* and *extreme* lookahead. With ``latin``/``boxes`` the sudoku house
techniques join at their Sudoku Explainer costs.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from grader.board import Board
from grader.constraints import AllDifferent, Constraint, DistinctLines, Line, rotations
from grader.explain import Explainer
from grader.family import Family, TechniqueSpec, require
from grader.model import Model, State, Variable, cell_name, is_single, single_value, values_of
from grader.step import Step
from grader.technique import Context, Technique
from grader.techniques import Guess, LineEnumeration, Lookahead
from grader.techniques.line_enumeration import consistent, distinct_groups, line_scope
from rules.houses import house_table
from rules.schema import PuzzleFileBase
from rules.siteswap.runs import SiteswapRule, claimed_sites, site_mask, site_masks

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
HOLE = " "
OPEN = "."
MAX_SIDE = 40
BOX_SHAPES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4), 25: (5, 5)}
RULE_KEYS = ("throws", "latin", "boxes", "nontrivial", "distinct")
GENERATION_KEYS = ("holes", "min_distinct_boxes", "min_distinct_runs", "solution_tries")


# ---------------------------------------------------------------------------------------------
# The file
# ---------------------------------------------------------------------------------------------


class SiteswapRules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    throws: tuple[int, int] = Field(default=(1, 9), description="[lowest, highest] throw, 0-35")
    latin: bool = Field(default=False, description="no throw twice in a run")
    boxes: bool | tuple[int, int] = Field(
        default=False, description="sudoku boxes: true (default shape) or [rows, cols]"
    )
    nontrivial: bool = Field(default=False, description="each run holds two different throws")
    distinct: bool = Field(
        default=False, description="runs of equal length differ, also up to rotation"
    )


class SiteswapFile(PuzzleFileBase):
    family: Literal["siteswap"]
    size: tuple[int, int] | int | None = Field(default=None, description="[rows, cols]")
    rules: SiteswapRules = SiteswapRules()
    grid: list[str] = Field(description="rows of throws 0-9a-z; . unknown; space a hole")
    solution: list[str] | None = None


def throw_range(throws: Sequence[int]) -> tuple[int, int]:
    require(len(throws) == 2, "rules.throws", "must be [lowest, highest]")
    low, high = int(throws[0]), int(throws[1])
    require(0 <= low <= high <= 35, "rules.throws", f"[{low}, {high}] is not a range within 0-35")
    return low, high


def grid_shape(size: tuple[int, int] | int | None, grid: Sequence[str]) -> tuple[int, int]:
    require(len(grid) > 0, "grid", "is empty")
    if size is None:
        rows, cols = len(grid), max(len(row) for row in grid)
    elif isinstance(size, int):
        rows = cols = size
    else:
        rows, cols = size
    require(rows > 0 and cols > 0, "size", "must be positive")
    require(max(rows, cols) <= MAX_SIDE, "size", f"{rows}x{cols} is larger than {MAX_SIDE}")
    require(len(grid) == rows, "grid", f"has {len(grid)} rows, expected {rows}")
    for r, row in enumerate(grid):
        # Trailing holes may be left out of a row.
        require(len(row) <= cols, "grid", f"row {r + 1} has {len(row)} cells, expected {cols}")
    return rows, cols


def parse_grid(
    grid: Sequence[str], rows: int, cols: int, low: int, high: int, field: str, allow_open: bool
) -> tuple[set[tuple[int, int]], dict[tuple[int, int], int]]:
    """Holes and decided throws of a grid, with one-line errors."""
    holes: set[tuple[int, int]] = set()
    values: dict[tuple[int, int], int] = {}
    symbols = f"{ALPHABET[low]}-{ALPHABET[high]}"
    for r in range(rows):
        row = grid[r].ljust(cols, HOLE)
        for c, char in enumerate(row.lower()):
            where = f"{field}[{r}]"
            if char == HOLE:
                holes.add((r, c))
            elif char == OPEN:
                require(allow_open, where, f"column {c + 1} is open; a solution is complete")
            else:
                value = ALPHABET.find(char)
                require(
                    low <= value <= high and value >= 0,
                    where,
                    f"{char!r} at column {c + 1} is not a throw of this puzzle "
                    f"({symbols}, . unknown, space a hole)",
                )
                values[(r, c)] = value
    return holes, values


# ---------------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# Techniques
# ---------------------------------------------------------------------------------------------


def period(line: Line) -> int:
    return len(line.vars)


def beats(sites: Iterable[int]) -> str:
    """Sites (0-based) as 1-based beats: ``2``, ``2 and 5``, ``1, 3 and 4``."""
    names = [str(s + 1) for s in sites]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def throws_text(ex: Explainer, values: Iterable[int]) -> str:
    names = [ex.value(v) for v in values]
    if not names:
        return "nothing"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def narrowed(technique: Technique, var: int, old: int, new: int, **data: Any) -> Step | None:
    """A step cutting ``var`` from ``old`` to ``new`` candidates (a placement when one is left)."""
    if new == old:
        return None
    if not new:
        return technique.make(contradiction=f"{cell_name_of(data)} has no throw left", **data)
    if is_single(new):
        return technique.make(placements=[(var, single_value(new))], **data)
    return technique.make(eliminations=[(var, v) for v in values_of(old & ~new)], **data)


def cell_name_of(data: Mapping[str, Any]) -> str:
    return str(data.get("cell_name", "a cell"))


class RunTechnique(Technique):
    """A technique that reads one siteswap run at a time."""

    kinds = ("line",)

    def applies_to(self, constraint: Constraint, model: Model) -> bool:
        return is_run(constraint)


class SumRule(RunTechnique):
    name = "sum-rule"
    title = "Sum rule"
    description = (
        "The throws of a valid siteswap add up to a multiple of its length (the average throw is "
        "the number of balls). A run with one open cell: its throw is whatever makes the sum a "
        "multiple of the length."
    )

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        state = ctx.state
        open_pos = [i for i, v in enumerate(constraint.vars) if not is_single(state[v])]
        if len(open_pos) != 1:
            return
        n = period(constraint)
        p = open_pos[0]
        var = constraint.vars[p]
        total = sum(single_value(state[v]) for v in constraint.vars if v != var)
        need = -total % n
        keep = sum(1 << v for v in values_of(state[var]) if v % n == need)
        step = narrowed(
            self,
            var,
            state[var],
            keep,
            unit=constraint.label,
            cell=var,
            cell_name=ctx.model.name(var),
            period=n,
            total=total,
            residue=need,
        )
        if step is not None:
            yield step

    def explain(self, step: Step, ex: Explainer) -> str:
        d = step.data
        n, total, need = d["period"], d["total"], d["residue"]
        others = f"the other throw is {total}" if n == 2 else f"the others add up to {total}"
        head = (
            f"the throws of {d['unit']} must add up to a multiple of its length {n}; "
            f"{others}, so {ex.cell(d['cell'])} must be "
        )
        rest = f"a multiple of {n}" if need == 0 else f"{need} more than a multiple of {n}"
        if step.contradiction:
            return head + rest + ", and no throw left there is"
        return head + rest


class FreeLandingSites(RunTechnique):
    name = "landing-sites"
    title = "Row and column intersection"
    description = (
        "A throw a at beat i of a run of length n lands on beat i + a, counted modulo n; two "
        "throws of a run never land on the same beat. For one open cell, cross out the throws "
        "that would land on a beat its row or its column already uses: what is left fits both "
        "the row and the column (a single throw left is placed)."
    )

    def scope(self, constraint: Constraint, model: Model) -> Iterable[int]:
        through = runs_through(model)
        out = set(constraint.vars)
        for var in constraint.vars:
            for line, _ in through[var]:
                out.update(line.vars)
        return out

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        model, state = ctx.model, ctx.state
        through = runs_through(model)
        claims: dict[int, tuple[int, dict[int, int]]] = {}
        for var in constraint.vars:
            mask = state[var]
            if is_single(mask) or through[var][0][0] is not constraint:
                continue  # each cell is looked at from its first run only
            keep = mask
            lines = []
            for line, pos in through[var]:
                n = period(line)
                found = claims.get(id(line))
                if found is None:
                    found = claimed_sites([state[v] for v in line.vars], n)
                    claims[id(line)] = found
                bits, claimed = found
                mine = site_mask(mask, pos, n)
                other = bits & mine
                if other and is_single(mine) and claimed.get(single_value(mine)) == pos:
                    other &= ~mine
                if not other:
                    continue
                used = {site: line.vars[claimed[site]] for site in values_of(other)}
                blocked = sum(1 << s for s in used)
                allowed = sum(1 << v for v in values_of(mask) if not blocked >> ((pos + v) % n) & 1)
                lines.append((line.label, n, pos, tuple(sorted(used.items())), allowed))
                keep &= allowed
            if keep == mask:
                continue
            step = narrowed(
                self, var, mask, keep, cell=var, cell_name=model.name(var), lines=tuple(lines)
            )
            if step is not None:
                yield step

    def explain(self, step: Step, ex: Explainer) -> str:
        d = step.data
        cell = ex.cell(d["cell"])
        parts = []
        for label, n, pos, used, allowed in d["lines"]:
            landings = [f"{ex.cell(w)} already lands on beat {s + 1}" for s, w in used]
            landings[1:] = [text.replace(" already lands", "") for text in landings[1:]]
            who = (
                landings[0]
                if len(landings) == 1
                else (", ".join(landings[:-1]) + " and " + landings[-1])
            )
            left = list(values_of(allowed))
            tail = f", leaving {throws_text(ex, left)}" if step.placements or len(left) <= 3 else ""
            parts.append(f"in {label} (length {n}, {cell} at beat {pos + 1}) {who}{tail}")
        text = "; ".join(parts)
        if step.contradiction:
            return f"{text}: no throw fits {cell}"
        if step.placements and len(parts) > 1:
            return f"{text}: only {ex.value(step.placements[0][1])} fits both"
        return text


class NonTrivialRun(RunTechnique):
    name = "nontrivial-run"
    title = "Two different throws"
    description = (
        "A run must hold at least two different throws: when every other throw of a run is the "
        "same, the last open cell cannot repeat it."
    )

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        assert isinstance(constraint.rule, SiteswapRule)
        if not constraint.rule.nontrivial:
            return
        state = ctx.state
        open_vars = [v for v in constraint.vars if not is_single(state[v])]
        if len(open_vars) != 1:
            return
        values = {single_value(state[v]) for v in constraint.vars if is_single(state[v])}
        if len(values) != 1:
            return
        (c,) = values
        var = open_vars[0]
        if state[var] >> c & 1:
            step = narrowed(
                self,
                var,
                state[var],
                state[var] & ~(1 << c),
                unit=constraint.label,
                cell=var,
                cell_name=ctx.model.name(var),
                value=c,
            )
            if step is not None:
                yield step

    def explain(self, step: Step, ex: Explainer) -> str:
        d = step.data
        return (
            f"every other throw of {d['unit']} is {ex.value(d['value'])}, and a run needs two "
            "different throws"
        )


class HiddenLandingSite(RunTechnique):
    name = "hidden-landing-site"
    title = "Hidden landing beat"
    description = (
        "Every beat of a run is landed on exactly once. When only one cell of the run can still "
        "land on some beat L, it must: a cell at beat i then throws L − i, counted modulo the "
        "run's length."
    )

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        state = ctx.state
        n = period(constraint)
        masks = [state[v] for v in constraint.vars]
        sites = site_masks(masks, n)
        for s in range(n):
            bit = 1 << s
            reach = [p for p in range(n) if sites[p] & bit]
            if not reach:
                yield self.make(
                    contradiction=f"no throw of {constraint.label} can land on beat {s + 1}",
                    unit=constraint.label,
                    site=s,
                    period=n,
                )
                return
            if len(reach) != 1 or sites[reach[0]] == bit:
                continue
            p = reach[0]
            var = constraint.vars[p]
            keep = sum(1 << v for v in values_of(masks[p]) if (p + v) % n == s)
            step = narrowed(
                self,
                var,
                masks[p],
                keep,
                unit=constraint.label,
                cell=var,
                cell_name=ctx.model.name(var),
                pos=p,
                site=s,
                period=n,
            )
            if step is not None:
                yield step

    def explain(self, step: Step, ex: Explainer) -> str:
        d = step.data
        n, s = d["period"], d["site"]
        if "cell" not in d:
            return f"no throw of {d['unit']} can still land on beat {s + 1}"
        p = d["pos"]
        residue = (s - p) % n
        return (
            f"in {d['unit']} (length {n}) only {ex.cell(d['cell'])} (beat {p + 1}) can still "
            f"land on beat {s + 1}, so its throw is {s + 1} − {p + 1} ≡ {residue} (mod {n})"
        )


class DistinctRuns(RunTechnique):
    name = "distinct-runs"
    title = "Distinct runs"
    description = (
        "Runs of equal length must differ, even after rotating one of them. A run with one open "
        "cell cannot take a throw that would make it a copy (or a rotation) of a complete run."
    )

    def scope(self, constraint: Constraint, model: Model) -> Iterable[int]:
        return line_scope(constraint, model)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        state = ctx.state
        masks = [state[v] for v in constraint.vars]
        open_pos = [i for i, m in enumerate(masks) if not is_single(m)]
        if len(open_pos) != 1:
            return
        p = open_pos[0]
        var = constraint.vars[p]
        copies = []
        gone = 0
        for group, index in distinct_groups(ctx.model).get(constraint.vars, ()):
            for label, sequences in group.forbidden_for(index, state).items():
                for seq in sorted(sequences):
                    if consistent(seq, masks) and not gone >> seq[p] & 1:
                        gone |= 1 << seq[p]
                        copies.append((label, seq[p], seq))
        if gone:
            yield self.make(
                eliminations=[(var, v) for v in values_of(gone)],
                unit=constraint.label,
                cell=var,
                copies=tuple(copies),
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        d = step.data
        parts = [
            f"with {ex.value(v)} it would read {''.join(ex.value(x) for x in seq)}, "
            f"a copy or rotation of {label}"
            for label, v, seq in d["copies"]
        ]
        return f"{d['unit']} must differ from every run of its length: " + "; ".join(parts)


class LandingSubset(RunTechnique):
    """Naked subsets (k cells can only land on k beats) and hidden subsets (k beats can only be
    reached from k cells) on a run's landing beats."""

    name = "landing-subset"
    title = "Landing beats subset"
    description = (
        "Naked: k cells of a run can only land on the same k beats between them, so no other "
        "throw of the run may land there. Hidden: k beats can only be reached from k cells, so "
        "those cells land there and nowhere else."
    )

    def __init__(
        self,
        cost: float,
        level: str = "",
        name: str | None = None,
        degree: int = 2,
        hidden: bool = False,
    ) -> None:
        super().__init__(cost, level, name)
        self.degree = degree
        self.hidden = hidden

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        state = ctx.state
        n = period(constraint)
        masks = [state[v] for v in constraint.vars]
        sites = site_masks(masks, n)
        open_pos = [p for p in range(n) if not is_single(sites[p])]
        if len(open_pos) <= self.degree:
            return
        k = self.degree
        if not self.hidden:
            small = [p for p in open_pos if sites[p].bit_count() <= k]
            for group in combinations(small, k):
                union = 0
                for p in group:
                    union |= sites[p]
                if union.bit_count() != k:
                    continue
                elims = [
                    (constraint.vars[q], v)
                    for q in range(n)
                    if q not in group
                    for v in values_of(masks[q])
                    if union >> ((q + v) % n) & 1
                ]
                if elims:
                    yield self._step(constraint, group, union, elims, n)
                    return
            return
        free = 0
        for p in open_pos:
            free |= sites[p]
        for p in range(n):
            if is_single(sites[p]):
                free &= ~sites[p]
        reach: dict[int, int] = {}
        for site in values_of(free):
            who = 0
            for p in open_pos:
                if sites[p] >> site & 1:
                    who |= 1 << p
            if who.bit_count() <= k:
                reach[site] = who
        for chosen in combinations(sorted(reach), k):
            want = sum(1 << s for s in chosen)
            who = 0
            for site in chosen:
                who |= reach[site]
            if who.bit_count() != k:
                continue
            group = tuple(values_of(who))
            elims = [
                (constraint.vars[p], v)
                for p in group
                for v in values_of(masks[p])
                if not want >> ((p + v) % n) & 1
            ]
            if elims:
                yield self._step(constraint, group, want, elims, n)
                return

    def _step(self, line: Line, group: Sequence[int], sites: int, elims: list, n: int) -> Step:
        return self.make(
            eliminations=elims,
            unit=line.label,
            cells=tuple(line.vars[p] for p in group),
            positions=tuple(group),
            sites=tuple(values_of(sites)),
            period=n,
            hidden=self.hidden,
        )

    def explain(self, step: Step, ex: Explainer) -> str:
        d = step.data
        cells = ex.cells(d["cells"])
        where = beats(d["sites"])
        unit = f"{d['unit']} (length {d['period']})"
        if d["hidden"]:
            return (
                f"in {unit} beats {where} can only be reached from {cells}, so these throws land "
                "there and nowhere else"
            )
        return (
            f"in {unit} {cells} can only land on beats {where} between them, so no other throw "
            "of the run may land there"
        )


# ---------------------------------------------------------------------------------------------
# The family
# ---------------------------------------------------------------------------------------------


def siteswap_table(model: Model) -> list[TechniqueSpec]:
    """The techniques with their costs and levels (sudoku ones when latin or boxes are on)."""
    options = model.options
    table = [
        TechniqueSpec(SumRule, 1.0, "trivial"),
        TechniqueSpec(FreeLandingSites, 1.2, "trivial"),
        TechniqueSpec(HiddenLandingSite, 1.5, "trivial"),
    ]
    if options.get("nontrivial"):
        table.append(TechniqueSpec(NonTrivialRun, 1.3, "trivial"))
    if options.get("distinct"):
        table.append(TechniqueSpec(DistinctRuns, 2.0, "easy"))
    table += [
        TechniqueSpec(LandingSubset, 2.2, "easy", name="landing-pair", kwargs={"degree": 2}),
        TechniqueSpec(
            LandingSubset,
            2.5,
            "easy",
            name="hidden-landing-pair",
            kwargs={"degree": 2, "hidden": True},
        ),
        TechniqueSpec(LandingSubset, 3.0, "normal", name="landing-triple", kwargs={"degree": 3}),
        TechniqueSpec(
            LandingSubset,
            3.3,
            "normal",
            name="hidden-landing-triple",
            kwargs={"degree": 3, "hidden": True},
        ),
        TechniqueSpec(LineEnumeration, 4.0, "hard"),
        TechniqueSpec(Lookahead, 6.0, "expert", kwargs={"depth": 1}),
        TechniqueSpec(Lookahead, 8.0, "extreme", kwargs={"depth": 2}),
        TechniqueSpec(Guess, 10.0, "extreme", default=False),
    ]
    if options.get("latin") or options.get("boxes"):
        # Singles, locked candidates, subsets and fish at their Sudoku Explainer costs; the
        # uniqueness patterns and chains are left out (lookahead covers what chains would do).
        table += house_table()
    return sorted(table, key=lambda s: s.cost)


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


class Siteswap(Family):
    name = "siteswap"
    title = "Siteswap grid"
    schema = SiteswapFile
    example = {  # noqa: RUF012
        "family": "siteswap",
        "size": [3, 4],
        "rules": {"throws": [1, 9], "nontrivial": True, "distinct": True},
        "grid": [".48.", ".8.4", "7..."],
    }

    def build(self, spec: BaseModel) -> tuple[Model, State, list[int] | None]:
        assert isinstance(spec, SiteswapFile)
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

    # -- generation ----------------------------------------------------------------------------

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        unknown = sorted(set(options) - set(RULE_KEYS) - set(GENERATION_KEYS))
        known = ", ".join((*RULE_KEYS, *GENERATION_KEYS))
        require(not unknown, "rules", f"unknown option {', '.join(unknown)} (known: {known})")
        rows, cols = size
        require(max(rows, cols) <= MAX_SIDE, "size", f"{rows}x{cols} is larger than {MAX_SIDE}")
        holes = set()
        for item in options.get("holes", []) or []:
            require(
                isinstance(item, list | tuple) and len(item) == 2,
                "rules.holes",
                "must be [[row, col], ...]",
            )
            r, c = int(item[0]), int(item[1])
            require(0 <= r < rows and 0 <= c < cols, "rules.holes", f"({r}, {c}) is outside")
            holes.add((r, c))
        rules = {k: options[k] for k in RULE_KEYS if k in options}
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

    def random_solution(self, model: Model, rng: random.Random) -> list[int]:
        """A random grid (seeded backtracking) meeting the repetition minimums, if any."""
        from grader.backtrack import solve_random

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


def cell_index(model: Model) -> dict[tuple[int, int], int]:
    """(row, col) → variable (memoized)."""
    found = model.memo.get("cell_index")
    if found is None:
        found = {(v.row, v.col): i for i, v in enumerate(model.variables)}
        model.memo["cell_index"] = found
    return found


FAMILY = Siteswap()
