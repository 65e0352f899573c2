"""The techniques of the binary families (Binairo, Tango) and their technique table.

Levels follow Simon Tatham's Unruly solver (``unruly.c``): *trivial* is the three-in-a-row
patterns and the last cell of a line; *easy* adds count completion and, with unique lines, the
near-copy check; *normal* adds the "last one must break a run" window; then *hard* is
single-line enumeration, *expert* lookahead of depth 1 and *extreme* depth 2 (or guessing).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from operator import itemgetter
from typing import ClassVar

from grader.core.constraints import Constraint, DistinctLines, Line
from grader.core.explain import Explainer
from grader.core.model import Model, State, is_single
from grader.core.step import Step
from grader.core.technique import Context, JointScan, Technique
from grader.rating.family import TechniqueSpec
from grader.techniques import Guess, LastCell, LineEnumeration, Lookahead
from rules.binary.lines import (
    LOW,
    bits_masks,
    every_cell,
    is_balanced,
    line_bits,
    positions,
    read_bits,
)


def value_bits(ctx: Context, line: Constraint) -> list[tuple[int, int, int]]:
    """For each value of a binary line with open cells: (the value, the cells holding it, the
    open cells), as line bitsets; no entry when the line is full."""
    zeros, ones, empty = line_bits(ctx, line)
    return [(0, zeros, empty), (1, ones, empty)] if empty else []


def one_left_to_place(mine: int, theirs: int, quota: int) -> bool:
    """Whether a line holding ``mine`` of value A and ``theirs`` of B (counts) has one A left
    to place and at least two Bs: the window rule's condition."""
    return mine == quota - 1 and theirs <= quota - 2


def pair_starts(bits: int) -> int:
    """The cells i (a line bitset) where cells i and i+1 are both in ``bits``."""
    return bits & (bits >> 8)


LineSteps = Callable[[Context, Line, int, int, int], list[Step]]
"""The steps of a technique in a line whose bitsets (zeros, ones, open) are given."""


def scan_lines(
    may_find: Callable[[Line, int, int, int], bool],
    steps_of: LineSteps,
    ctx: Context,
    pending: set[int],
    constraints: Sequence[Constraint],
) -> list[Step]:
    """:meth:`Technique.wave_in` over binary lines in one loop: a line with open cells whose
    bitsets (:func:`line_bits`: zeros, ones, open) ``may_find`` accepts is asked for steps;
    the others are dropped from ``pending`` at once (the common case, a few bit operations)."""
    wave: list[Step] = []
    barren = []
    views, state = ctx.views, ctx.state
    for ci in sorted(pending):
        line = constraints[ci]
        bits = views.get(line)  # as line_bits, without a call for each line
        if bits is None:
            bits = views[line] = read_bits(line, state)
        zeros, ones, empty = bits
        if empty and may_find(line, zeros, ones, empty):  # type: ignore[arg-type]
            found = steps_of(ctx, line, zeros, ones, empty)  # type: ignore[arg-type]
            if found:
                wave += found
                continue
        barren.append(ci)
    pending.difference_update(barren)
    return wave


RULES = ("pair", "sandwich", "last-cell", "count", "window")
"""The bitset rules :func:`line_closure` knows, in the order of its flags."""


ONES_AT = 4
"""In :func:`line_closure`'s packed bitset, a cell holding 1 sets bit ``8 * i + 4`` (a 0 sets
bit ``8 * i``): shifts by whole cells move both values at once and never mix them."""


def line_closure(
    pair: bool,
    sandwich: bool,
    last: bool,
    count: bool,
    window: bool,
    quota: int,
    read: Callable[[State], Sequence[int]],
    ctx: Context,
    line: Line,
) -> list[tuple[int, int]] | None:
    """The placements (a cell and its new one-value mask) the flagged rules (those of
    :class:`Pair`, :class:`Sandwich`, :class:`BinaryLastCell`, :class:`CountCompletion`,
    :class:`Window`) make in a binary line with this quota (its cells' masks given by ``read``)
    when used until none finds more; None: a contradiction on the way (the steps say which).
    Works on the line's bitsets alone: the line is read once and no rule is called. The decided
    cells of both values share one bitset (see :data:`ONES_AT`), so each pattern rule costs one
    pass for both."""
    masks = int.from_bytes(read(ctx.state), "little")  # as read_bits
    low = masks & LOW
    high = (masks >> 1) & LOW
    empty = low & high
    if not empty:
        return []
    zeros, ones = low ^ empty, high ^ empty
    both_values = zeros | (ones << ONES_AT)
    e = empty
    if count or window:
        zc, oc = zeros.bit_count(), ones.bit_count()
    while True:
        # forced: bit 8i → cell i must take 1 (next to 0s), bit 8i+4 → it must take 0
        forced = 0
        if pair:  # as Pair.forced
            pairs = both_values & (both_values >> 8)
            forced = (pairs << 16) | (pairs >> 8)
        if sandwich:  # as Sandwich.forced
            forced |= (both_values & (both_values >> 16)) << 8
        to1 = forced & e
        to0 = (forced >> ONES_AT) & e
        if count or window:
            if count:  # as CountCompletion
                if zc == quota:
                    to1 |= e
                elif oc == quota:
                    to0 |= e
            if window and (  # as Window
                one_left_to_place(zc, oc, quota) or one_left_to_place(oc, zc, quota)
            ):
                z, o = both_values & LOW, (both_values >> ONES_AT) & LOW
                found = window_outside(z, o, e, quota, len(line.vars))
                if found is not None:
                    if found[0]:
                        to0 |= found[2]
                    else:
                        to1 |= found[2]
        if last and not e & (e - 1):  # as BinaryLastCell
            z, o = both_values & LOW, (both_values >> ONES_AT) & LOW
            allowed = last_allowed(line, z, o, e)
            if allowed == 0b01:
                to0 |= e
            elif allowed == 0b10:
                to1 |= e
            elif allowed != 0b11:
                return None  # no value completes the line
        if not to0 | to1:
            break
        if to0 & to1:
            return None
        both_values |= to0 | (to1 << ONES_AT)
        e ^= to0 | to1  # both lie in e
        if not e:
            break
        if count or window:
            zc += to0.bit_count()
            oc += to1.bit_count()
    placed = empty ^ e
    if not placed:
        return []
    cells = line.vars
    o = both_values >> ONES_AT
    out = []
    while placed:
        bit = placed & -placed
        out.append((cells[(bit.bit_length() - 1) >> 3], 2 if o & bit else 1))  # masks
        placed ^= bit
    return out


def balanced_joint_scan(
    constraint: Constraint, techniques: Sequence[Technique]
) -> JointScan | None:
    """:func:`line_closure` of the techniques on a binary line, when it knows each one's rule."""
    if not is_balanced(constraint):
        return None
    rules = set()
    for technique in techniques:
        rule = getattr(technique, "line_rule", None)
        if rule not in RULES:
            return None
        rules.add(rule)
    flags = (rule in rules for rule in RULES)
    quota = constraint.rule.quota  # type: ignore[attr-defined]
    return partial(line_closure, *flags, quota, slice_reader(constraint))  # type: ignore[return-value]


def slice_reader(line: Line) -> Callable[[State], Sequence[int]]:
    """The line's masks from a state: one slice when its cells are evenly spaced (a row or a
    column: several times faster than picking the cells), else :attr:`Line.read`."""
    cells = line.vars
    step = cells[1] - cells[0] if len(cells) > 1 else 1
    if step > 0 and cells == tuple(range(cells[0], cells[-1] + 1, step)):
        return itemgetter(slice(cells[0], cells[-1] + 1, step))
    return line.read


def window_outside(
    zeros: int, ones: int, empty: int, quota: int, length: int
) -> tuple[int, int, int] | None:
    """The first window of a line (bitsets as :func:`line_bits` gives them, the quota and the
    length) that must hold the last A: (A, its first cell, the open cells outside it as a line
    bitset), or None."""
    return next(windows(zeros, ones, empty, quota, length), None)


def windows(
    zeros: int, ones: int, empty: int, quota: int, length: int
) -> Iterator[tuple[int, int, int]]:
    """Every window of a line that must hold the last A, in order (see
    :func:`window_outside`)."""
    for a, mine, theirs in ((0, zeros, ones), (1, ones, zeros)):
        if not one_left_to_place(mine.bit_count(), theirs.bit_count(), quota):
            continue
        open_in_window = empty + (empty >> 8) + (empty >> 16)
        holds_a = mine | (mine >> 8) | (mine >> 16)
        starts = (open_in_window >> 1) & every_cell(length - 2) & ~holds_a  # >= 2 open, no A
        while starts:
            bit = starts & -starts
            outside = empty & ~(bit * 0x010101)
            if outside:
                yield a, (bit.bit_length() - 1) >> 3, outside
            starts ^= bit


def last_allowed(line: Line, zeros: int, ones: int, empty: int) -> int:
    """The values (a mask) that complete a line whose only open cell is ``empty``."""
    support = line.rule.cached_supports(bits_masks(zeros, ones, empty, len(line.vars)))
    return 0 if support is None else support[(empty.bit_length() - 1) >> 3]


class BalancedTechnique(Technique):
    """A technique that reads Binairo/Tango lines."""

    kinds = ("line",)
    bitset_rule: ClassVar[bool] = False
    """Whether :meth:`forced` gives the technique's conclusions."""
    line_rule: ClassVar[str | None] = None
    """The technique's rule in :func:`line_closure`, if it has one there (a subclass that
    changes what the technique finds sets it back to None)."""

    def applies_to(self, constraint: Constraint, model: Model) -> bool:
        return is_balanced(constraint)

    def may_find(self, line: Line, zeros: int, ones: int, empty: int) -> bool:
        """False only when :meth:`steps_in` finds nothing in a line with these bitsets (as
        :func:`line_bits` gives them, some cells open); a quick test, as :func:`scan_lines`
        asks it."""
        return True

    def wave_in(
        self, ctx: Context, pending: set[int], constraints: Sequence[Constraint]
    ) -> list[Step]:
        return scan_lines(self.may_find, self.steps_of, ctx, pending, constraints)

    def steps_of(self, ctx: Context, line: Line, zeros: int, ones: int, empty: int) -> list[Step]:
        """The steps in a line with these bitsets (as :func:`line_bits` gives them, some cells
        open), for :func:`scan_lines`; by default :meth:`steps_in`, which reads them again."""
        return self.steps_in(ctx, line)

    def forced(self, bits: int, empty: int) -> int | None:
        """The open cells (a line bitset) that must take the other value because of the cells
        ``bits`` holding one value; None: the technique has no such bitset rule."""
        return None

    def joint_scan(
        self, constraint: Constraint, techniques: Sequence[Technique]
    ) -> JointScan | None:
        return balanced_joint_scan(constraint, techniques)

    def placements_in(self, ctx: Context, constraint: Constraint) -> list[tuple[int, int]] | None:
        if not self.bitset_rule:
            return None  # no bitset rule: the steps are used
        cells = constraint.vars
        return [
            (cells[i], 1 - x)
            for x, bits, empty in value_bits(ctx, constraint)
            for i in positions(self.forced(bits, empty) or 0)
        ]


class ThreeInARow(BalancedTechnique):
    """A cell that would make three equal cells in a row with two cells holding a value: it
    takes the other value."""

    def witnesses(self, bits: int, empty: int) -> list[tuple[int, int, int]]:
        """(the open cell, the two cells holding the value) as line positions, in reading
        order, for the cells ``bits`` holding one value."""
        raise NotImplementedError

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        return iter(self.steps_in(ctx, constraint))

    def steps_in(self, ctx: Context, constraint: Constraint) -> list[Step]:
        assert isinstance(constraint, Line)
        zeros, ones, empty = line_bits(ctx, constraint)
        if not empty:
            return []
        forced = self.forced
        if self.bitset_rule and not (forced(zeros, empty) or forced(ones, empty)):
            return []  # nothing here, the common case, told by two bitset passes
        return self.steps_of(ctx, constraint, zeros, ones, empty)

    def steps_of(self, ctx: Context, line: Line, zeros: int, ones: int, empty: int) -> list[Step]:
        cells, unit, make = line.vars, line.label, self.make
        return [
            make(((cells[target], 1 - x),), unit=unit, cells=(cells[a], cells[b]), value=x)
            for x, bits in ((0, zeros), (1, ones))
            for target, a, b in self.witnesses(bits, empty)
        ]


class Pair(ThreeInARow):
    bitset_rule = True
    line_rule = "pair"
    name = "pair"
    title = "Pair"
    description = (
        "Two equal neighbours in a line (XX.): the cells at both ends of the pair must hold the "
        "other value, or there would be three in a row."
    )

    def witnesses(self, bits: int, empty: int) -> list[tuple[int, int, int]]:
        both = pair_starts(bits)
        ends_after, ends_before = both & (empty >> 16), empty & (both >> 8)
        if not ends_after | ends_before:
            return []  # no open cell next to a pair of this value (the other value has one)
        after = [(i + 2, i, i + 1) for i in positions(ends_after)]
        before = [(i, i + 1, i + 2) for i in positions(ends_before)]
        return sorted(after + before)

    def forced(self, bits: int, empty: int) -> int:
        both = pair_starts(bits)
        return ((both << 16) | (both >> 8)) & empty

    def may_find(self, line: Line, zeros: int, ones: int, empty: int) -> bool:
        both = pair_starts(zeros) | pair_starts(ones)  # as forced, both values at once
        return bool(((both << 16) | (both >> 8)) & empty)

    def explain(self, step: Step, ex: Explainer) -> str:
        a, b = step.data["cells"]
        x = step.data["value"]
        both = f"{ex.cells([a, b])} are both {ex.value(x)}"
        return f"{both}, and three {ex.plural(x)} in a row are not allowed"


class Sandwich(ThreeInARow):
    bitset_rule = True
    line_rule = "sandwich"
    name = "sandwich"
    title = "Sandwich"
    description = (
        "A gap between two equal cells (X.X): the middle cell must hold the other value, or "
        "there would be three in a row."
    )

    def witnesses(self, bits: int, empty: int) -> list[tuple[int, int, int]]:
        return [(m, m - 1, m + 1) for m in positions(self.forced(bits, empty))]

    def forced(self, bits: int, empty: int) -> int:
        return ((bits & (bits >> 16)) << 8) & empty  # between cells i and i+2 holding the value

    def may_find(self, line: Line, zeros: int, ones: int, empty: int) -> bool:
        ends = (zeros & (zeros >> 16)) | (ones & (ones >> 16))  # as forced, both values at once
        return bool((ends << 8) & empty)

    def explain(self, step: Step, ex: Explainer) -> str:
        a, b = step.data["cells"]
        x = step.data["value"]
        return f"it sits between two {ex.plural(x)} ({ex.cells([a, b])})"


class CountCompletion(BalancedTechnique):
    line_rule = "count"
    name = "count-completion"
    title = "Count completion"
    description = (
        "A line already holds its quota (half its length) of one value: every open cell of it "
        "takes the other value."
    )

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        return iter(self.steps_in(ctx, constraint))

    def steps_in(self, ctx: Context, constraint: Constraint) -> list[Step]:
        assert isinstance(constraint, Line)
        found = self._completed(ctx, constraint)
        if found is None:
            return []
        x, placements = found
        return [
            self.make(
                placements=placements,
                unit=constraint.label,
                value=x,
                count=constraint.rule.quota,  # type: ignore[attr-defined]
            )
        ]

    def may_find(self, line: Line, zeros: int, ones: int, empty: int) -> bool:
        quota = line.rule.quota  # type: ignore[attr-defined]
        return zeros.bit_count() == quota or ones.bit_count() == quota

    def placements_in(self, ctx: Context, constraint: Constraint) -> list[tuple[int, int]]:
        found = self._completed(ctx, constraint)
        return [] if found is None else found[1]

    def _completed(
        self, ctx: Context, constraint: Constraint
    ) -> tuple[int, list[tuple[int, int]]] | None:
        """The value whose quota the line holds and the placements of the other value in its
        open cells, or None."""
        quota = constraint.rule.quota  # type: ignore[attr-defined]
        for x, bits, empty in value_bits(ctx, constraint):
            if bits.bit_count() == quota:
                return x, [(constraint.vars[i], 1 - x) for i in positions(empty)]
        return None

    def explain(self, step: Step, ex: Explainer) -> str:
        x = step.data["value"]
        return f"{step.data['unit']} already holds its {ex.plural(x, step.data['count'])}"


class Window(BalancedTechnique):
    line_rule = "window"
    name = "window"
    title = "Last one must break a run"
    description = (
        "A line needs exactly one more of value A and at least two more of B. A window of three "
        "consecutive cells holding no A would become BBB if all its open cells were B, so the "
        "last A must be inside it, and every open cell outside the window is B."
    )

    def steps_in(self, ctx: Context, constraint: Constraint) -> list[Step]:
        assert isinstance(constraint, Line)
        zeros, ones, empty = line_bits(ctx, constraint)
        if not empty or not self.may_find(constraint, zeros, ones, empty):
            return []  # the common case: no window can hold the last A
        return list(self.find_in(ctx, constraint))

    def may_find(self, line: Line, zeros: int, ones: int, empty: int) -> bool:
        quota = line.rule.quota  # type: ignore[attr-defined]
        zc, oc = zeros.bit_count(), ones.bit_count()
        return one_left_to_place(zc, oc, quota) or one_left_to_place(oc, zc, quota)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        """Every window that must hold the last A (one step each: which one a solver sees
        first must not depend on the direction the line is read in)."""
        assert isinstance(constraint, Line)
        zeros, ones, empty = line_bits(ctx, constraint)
        quota = constraint.rule.quota  # type: ignore[attr-defined]
        for a, start, outside in windows(zeros, ones, empty, quota, len(constraint.vars)):
            cells = constraint.vars
            window = range(start, start + 3)
            yield self.make(
                placements=[(cells[j], 1 - a) for j in positions(outside)],
                unit=constraint.label,
                value=a,
                window=tuple(cells[j] for j in window),
                open_cells=tuple(cells[j] for j in window if empty >> (j << 3) & 1),
            )

    def placements_in(self, ctx: Context, constraint: Constraint) -> list[tuple[int, int]]:
        """What every window of the line places, as :meth:`find_in`'s steps together."""
        zeros, ones, empty = line_bits(ctx, constraint)
        quota = constraint.rule.quota  # type: ignore[attr-defined]
        placed: dict[tuple[int, int], None] = {}
        for a, _start, outside in windows(zeros, ones, empty, quota, len(constraint.vars)):
            placed.update(dict.fromkeys((constraint.vars[j], 1 - a) for j in positions(outside)))
        return list(placed)

    def explain(self, step: Step, ex: Explainer) -> str:
        """Names only the window's cells open when the step was found (the others hold B)."""
        a = step.data["value"]
        window = list(step.data["window"])
        spots = list(step.data["open_cells"])
        where = ex.cells(spots) if len(spots) == 1 else f"one of {ex.cells(spots)}"
        those = "those cells" if spots == window else ex.cells(window)
        return (
            f"{step.data['unit']} has one {ex.model.value_name(a)} left to place; it must go in "
            f"{where}, or {those} would hold three {ex.plural(1 - a)} in a row"
        )


class BinaryLastCell(LastCell):
    """:class:`LastCell` that finds a binary line's only open cell on its bitsets."""

    description = (
        "A row or column with a single open cell: it takes the value the line still lacks to "
        "hold its count of each value."
    )

    line_rule: ClassVar[str | None] = "last-cell"
    """The technique's rule in :func:`line_closure`."""

    def open_position(self, ctx: Context, constraint: Line) -> int | None:
        if not is_balanced(constraint):
            return super().open_position(ctx, constraint)
        empty = line_bits(ctx, constraint)[2]
        if not empty or empty & (empty - 1):
            return None  # no open cell, or several
        return (empty.bit_length() - 1) >> 3

    def wave_in(
        self, ctx: Context, pending: set[int], constraints: Sequence[Constraint]
    ) -> list[Step]:
        return scan_lines(one_open, self.steps_of, ctx, pending, constraints)

    def steps_of(self, ctx: Context, line: Line, zeros: int, ones: int, empty: int) -> list[Step]:
        """:meth:`steps_in` (for :func:`scan_lines`)."""
        return self.steps_in(ctx, line)

    def joint_scan(
        self, constraint: Constraint, techniques: Sequence[Technique]
    ) -> JointScan | None:
        return balanced_joint_scan(constraint, techniques)


def one_open(line: Line, zeros: int, ones: int, empty: int) -> bool:
    """Whether a line's open cells (a line bitset, not empty) are one: where a last cell may be."""
    return not empty & (empty - 1)


class NearCopy(Technique):
    name = "near-copy"
    title = "Avoid copying a complete line"
    description = (
        "With distinct lines: line r holds all its X at known places and line s holds all but "
        "one of its X, each where r has one. Putting s's last X at r's remaining X position "
        "would make s a copy of r, so that cell takes the other value."
    )

    reads_solutions = False

    def find(self, ctx: Context) -> Iterator[Step]:
        state = ctx.state
        for group in ctx.model.constraints:
            if not isinstance(group, DistinctLines):
                continue
            decided = [
                [state[v].bit_length() - 1 if is_single(state[v]) else -1 for v in line]
                for line in group.lines
            ]
            for x in (0, 1):
                for r, first in enumerate(decided):
                    quota = len(first) // 2
                    if first.count(x) != quota:
                        continue
                    places = {j for j, value in enumerate(first) if value == x}
                    for s, second in enumerate(decided):
                        if s == r or len(second) != len(first) or second.count(x) != quota - 1:
                            continue
                        mine = {j for j, value in enumerate(second) if value == x}
                        if not mine <= places:
                            continue
                        (spot,) = places - mine
                        if second[spot] >= 0:
                            continue
                        var = group.lines[s][spot]
                        yield self.make(
                            placements=[(var, 1 - x)],
                            unit=group.line_labels[s],
                            copies=group.line_labels[r],
                            value=x,
                        )

    def explain(self, step: Step, ex: Explainer) -> str:
        x = step.data["value"]
        return (
            f"{step.data['unit']} has all but one of its {ex.plural(x)} where "
            f"{step.data['copies']} has them; one more there would copy {step.data['copies']}"
        )


def binary_table(model: Model) -> list[TechniqueSpec]:
    """The technique ladder of the binary families (Tatham's levels, then ours)."""
    table = [
        TechniqueSpec(Pair, 1.0, "trivial"),
        TechniqueSpec(Sandwich, 1.0, "trivial"),
        TechniqueSpec(BinaryLastCell, 1.2, "trivial"),
        TechniqueSpec(CountCompletion, 2.0, "easy"),
    ]
    if model.options.get("unique_lines"):
        table.append(TechniqueSpec(NearCopy, 2.5, "easy"))
    table += [
        TechniqueSpec(Window, 3.0, "normal"),
        TechniqueSpec(LineEnumeration, 4.0, "hard"),
        TechniqueSpec(Lookahead, 7.0, "expert", name="lookahead-1", kwargs={"depth": 1}),
        TechniqueSpec(Lookahead, 9.0, "extreme", name="lookahead-2", kwargs={"depth": 2}),
        TechniqueSpec(Guess, 12.0, "extreme", default=False),
    ]
    return table
