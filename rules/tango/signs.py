"""What a Tango player reads from a line's signs before enumerating the line: an ``=`` pair
beside a symbol (the three-in-a-row rule through a sign), and the count of a line whose ``x``
pairs hold one of each value or whose ``=`` pair cannot hold two more of one.

Each is a special case of line enumeration (every conclusion is one all the line's valid
completions share), found on the line's bitsets, and costs half a point more than the sign-free
rule it extends (:mod:`rules.tango.techniques`).
"""

from __future__ import annotations

from collections.abc import Iterator

from grader.core.constraints import Constraint, Line
from grader.core.explain import Explainer
from grader.core.model import Model
from grader.core.step import Step
from grader.core.technique import Context
from rules.binary.lines import every_cell, line_bits, positions
from rules.binary.techniques import BalancedTechnique, value_bits


def open_pairs(line: Line, sign: str, empty: int) -> list[int]:
    """The positions i, in order, where the line has ``sign`` between cells i and i+1 and both
    cells are open (``empty`` a line bitset)."""
    return [
        i
        for i, s in sorted(line.rule.signs.items())  # type: ignore[attr-defined]
        if s == sign and empty >> (i << 3) & 1 and empty >> ((i + 1) << 3) & 1
    ]


def x_blocks(line: Line, empty: int) -> list[tuple[int, int]]:
    """The maximal runs of open cells joined by x signs, as (first cell, number of cells): the
    cells of a run alternate, so it holds at least half its length (rounded down) of each
    value, exactly half when its length is even."""
    blocks: list[tuple[int, int]] = []
    for i in open_pairs(line, "x", empty):
        if blocks and sum(blocks[-1]) - 1 == i:
            first, length = blocks[-1]
            blocks[-1] = (first, length + 1)
        else:
            blocks.append((i, 2))
    return blocks


class SignedLineTechnique(BalancedTechnique):
    """A technique reading a balanced line that has signs of one kind."""

    sign = "="
    """The sign the technique reads."""

    def applies_to(self, constraint: Constraint, model: Model) -> bool:
        if not super().applies_to(constraint, model):
            return False
        return self.sign in constraint.rule.signs.values()  # type: ignore[attr-defined]

    def pair_step(self, line: Line, i: int, x: int, **data: object) -> Step:
        """The step giving the other value than ``x`` to the = pair at positions i and i+1."""
        cells = line.vars
        return self.make(
            placements=[(cells[i], 1 - x), (cells[i + 1], 1 - x)],
            unit=line.label,
            cells=(cells[i], cells[i + 1]),
            value=x,
            **data,
        )


class EqualPairBeside(SignedLineTechnique):
    name = "equal-pair"
    title = "Equal pair beside a symbol"
    description = (
        "An = sign joins two open cells of a line next to a cell holding X: were they X too, "
        "the three would be XXX, so both take the other value."
    )

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        """A step per = pair and value some neighbour of the pair holds, naming every such
        neighbour (two steps, a contradiction between them, when its neighbours differ)."""
        assert isinstance(constraint, Line)
        zeros, ones, empty = line_bits(ctx, constraint)
        cells = constraint.vars
        for i in open_pairs(constraint, "=", empty):
            ends = [j for j in (i - 1, i + 2) if 0 <= j < len(cells)]
            for x, bits in ((0, zeros), (1, ones)):
                beside = tuple(cells[j] for j in ends if bits >> (j << 3) & 1)
                if beside:
                    yield self.pair_step(constraint, i, x, beside=beside)

    def explain(self, step: Step, ex: Explainer) -> str:
        x = step.data["value"]
        beside = list(step.data["beside"])
        holding = f"{ex.cell(beside[0])} = {ex.value(x)}"
        if len(beside) == 2:
            holding = f"{ex.cells(beside)}, both {ex.plural(x)}"
        return (
            f"the = sign joins {ex.cells(list(step.data['cells']))}, beside {holding}: two more "
            f"{ex.plural(x)} there would make three in a row"
        )


class OppositePairCount(SignedLineTechnique):
    name = "opposite-pair-count"
    title = "Count with x pairs"
    description = (
        "Two open cells joined by an x sign hold one sun and one moon. Counting one X in each "
        "such pair, a line holds all its Xs: every other open cell takes the other value, and a "
        "chain of an odd number of cells joined by x signs alternates with the fewer Xs."
    )
    sign = "x"

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        """When the decided Xs and half of each x chain (rounded down) make the line's quota,
        no open cell may hold another X: the cells outside the chains take the other value,
        and an odd chain its pattern with fewer Xs (the other value at every second cell from
        both ends)."""
        assert isinstance(constraint, Line)
        zeros, ones, empty = line_bits(ctx, constraint)
        blocks = x_blocks(constraint, empty)
        if not blocks:
            return
        in_blocks = 0
        for first, length in blocks:
            in_blocks |= every_cell(length) << (first << 3)
        rest = positions(empty & ~in_blocks)
        odd = [(first, length) for first, length in blocks if length % 2]
        if not rest and not odd:
            return
        cells = constraint.vars
        quota = constraint.rule.quota  # type: ignore[attr-defined]
        held = sum(length // 2 for _, length in blocks)
        for x, bits in ((0, zeros), (1, ones)):
            if bits.bit_count() + held != quota:
                continue
            placements = [(cells[j], 1 - x) for j in rest]
            for first, length in odd:
                placements += [(cells[first + k], (1 - x) ^ (k & 1)) for k in range(length)]
            yield self.make(
                placements=sorted(placements),
                unit=constraint.label,
                value=x,
                count=quota,
                pairs=tuple(
                    (cells[j], cells[j + 1])
                    for first, length in blocks
                    for j in range(first, first + length - 1, 2)
                ),
                chains=tuple(tuple(cells[first : first + length]) for first, length in odd),
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        x = step.data["value"]
        pairs = [ex.cells(list(pair)) for pair in step.data["pairs"]]
        where = f"the x pair {pairs[0]}" if len(pairs) == 1 else f"each x pair ({'; '.join(pairs)})"
        text = (
            f"{step.data['unit']} holds its {ex.plural(x, step.data['count'])}, counting one "
            f"in {where}"
        )
        for chain in step.data["chains"]:
            xs = list(chain[1::2])
            text += (
                f"; the x chain {ex.cells(list(chain))} alternates and can hold only "
                f"{ex.plural(x, len(xs))}, at {ex.cells(xs)}"
            )
        return text


class EqualPairCount(SignedLineTechnique):
    name = "equal-pair-count"
    title = "No room for an equal pair"
    description = (
        "A line lacks only one X, and an = sign joins two of its open cells: they cannot both "
        "be X, so both take the other value."
    )

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        quota = constraint.rule.quota  # type: ignore[attr-defined]
        for x, bits, empty in value_bits(ctx, constraint):
            if bits.bit_count() != quota - 1:
                continue
            for i in open_pairs(constraint, "=", empty):
                yield self.pair_step(constraint, i, x)

    def explain(self, step: Step, ex: Explainer) -> str:
        x = step.data["value"]
        return (
            f"{step.data['unit']} lacks only one {ex.model.value_name(x)}, so the = pair "
            f"{ex.cells(list(step.data['cells']))} cannot both be {ex.plural(x)}: both are "
            f"{ex.plural(1 - x)}"
        )
