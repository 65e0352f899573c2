"""The siteswap techniques and their technique table.

Levels: *trivial* is the sum rule, free landing beats in a cell's row and column, the non-constant
rule and the hidden landing beat (one cell can still reach a beat); *easy* adds distinct runs and
pairs of landing beats; *normal* triples; *hard* single-line enumeration (an exact matching of
throws to beats); *expert* and *extreme* lookahead. With ``latin``/``boxes`` the sudoku house
techniques join at their Sudoku Explainer costs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any

from grader.core.constraints import Constraint, Line
from grader.core.evidence import Evidence, constraints_by_label
from grader.core.explain import Explainer, listed
from grader.core.model import Model, is_single, open_positions, single_value, values_of
from grader.core.step import Step
from grader.core.technique import Context, Technique
from grader.rating.family import TechniqueSpec
from grader.techniques import Guess, LineEnumeration, Lookahead, ShortContradiction
from grader.techniques.houses import naked_groups
from grader.techniques.line_enumeration import consistent, distinct_groups, line_scope
from rules.houses import house_table
from rules.siteswap.model import is_run, runs_through
from rules.siteswap.runs import SiteswapRule, claimed_sites, site_masks


def period(line: Line) -> int:
    return len(line.vars)


def beats(sites: Iterable[int]) -> str:
    """Sites (0-based) as 1-based beats: ``2``, ``2 and 5``, ``1, 3 and 4``."""
    return listed([str(s + 1) for s in sites])


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


def run_view(ctx: Context, line: Line) -> tuple[tuple[int, ...], list[int]]:
    """A run's cell masks and, per position, the landing sites its throws reach, on the current
    state (kept in ``ctx.memo`` until the state changes: several techniques, and the crossing
    runs of :class:`FreeLandingSites`, read each run)."""
    key = ("run", line)
    found = ctx.memo.get(key)
    if found is None:
        masks = line.read(ctx.state)
        found = ctx.memo[key] = (masks, site_masks(masks, period(line)))
    return found


def run_claims(ctx: Context, line: Line) -> tuple[int, dict[int, int]]:
    """:func:`claimed_sites` of a run on the current state (kept as :func:`run_view`)."""
    key = ("claims", line)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = claimed_sites(run_view(ctx, line)[0], period(line))
    return found


def first_run_cells(model: Model) -> dict[Line, list[tuple[int, list[tuple[Line, int, int]]]]]:
    """Per run, its cells that it is the first run through, each with every run through it as
    (run, position, length) (memoized): :class:`FreeLandingSites` looks at a cell from its
    first run only."""
    found = model.memo.get("siteswap_first_runs")
    if found is None:
        found = {}
        for var, through in enumerate(runs_through(model)):
            if through:
                crossing = [(line, pos, period(line)) for line, pos in through]
                found.setdefault(through[0][0], []).append((var, crossing))
        for line, cells in found.items():
            cells.sort(key=lambda cell: line.vars.index(cell[0]))  # in the run's order
        model.memo["siteswap_first_runs"] = found
    return found


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
        open_pos = open_positions([state[v] for v in constraint.vars])
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
        for var, crossing in first_run_cells(model).get(constraint, ()):
            mask = state[var]
            if is_single(mask):
                continue
            keep = mask
            lines = []
            for line, pos, n in crossing:
                bits, claimed = run_claims(ctx, line)
                mine = run_view(ctx, line)[1][pos]  # the cell's landing sites in that run
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

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The throws already landing on the beats it crosses out, and the runs they are in."""
        labels = constraints_by_label(model)
        lines = step.data["lines"]
        used = frozenset(w for _label, _n, _pos, landings, _ in lines for _site, w in landings)
        names = tuple(dict.fromkeys(label for label, *_ in lines if label in labels))
        units = frozenset(v for label in names for v in labels[label])
        return Evidence(
            used=used, units=units, changed=frozenset(step.changed_vars()), unit_labels=names
        )

    def explain(self, step: Step, ex: Explainer) -> str:
        d = step.data
        cell = ex.cell(d["cell"])
        parts = []
        for label, n, pos, used, allowed in d["lines"]:
            landings = [f"{ex.cell(w)} already lands on beat {s + 1}" for s, w in used]
            landings[1:] = [text.replace(" already lands", "") for text in landings[1:]]
            who = listed(landings)
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
        open_vars = [
            constraint.vars[i] for i in open_positions([state[v] for v in constraint.vars])
        ]
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
        n = period(constraint)
        masks, sites = run_view(ctx, constraint)
        once = twice = 0  # the beats some cell can land on, and those two or more can
        for mask in sites:
            twice |= once & mask
            once |= mask
        unreached = ((1 << n) - 1) & ~once
        for s in values_of(unreached | (once & ~twice)):
            bit = 1 << s
            if unreached & bit:
                yield self.make(
                    contradiction=f"no throw of {constraint.label} can land on beat {s + 1}",
                    unit=constraint.label,
                    site=s,
                    period=n,
                )
                return
            p = next(p for p in range(n) if sites[p] & bit)
            if sites[p] == bit:
                continue
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
        open_pos = open_positions(masks)
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
        n = period(constraint)
        masks, sites = run_view(ctx, constraint)
        open_pos = open_positions(sites)
        if len(open_pos) <= self.degree:
            return
        k = self.degree
        if not self.hidden:
            for group, union in naked_groups({p: sites[p] for p in open_pos}, k):
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
        TechniqueSpec(ShortContradiction, 5.0, "hard"),
        TechniqueSpec(Lookahead, 6.0, "expert", name="lookahead-1", kwargs={"depth": 1}),
        TechniqueSpec(Lookahead, 8.0, "extreme", name="lookahead-2", kwargs={"depth": 2}),
        TechniqueSpec(Guess, 10.0, "extreme", default=False),
    ]
    if options.get("latin") or options.get("boxes"):
        # Singles, locked candidates, subsets and fish at their Sudoku Explainer costs; the
        # uniqueness patterns and chains are left out (lookahead covers what chains would do).
        table += house_table()
    return sorted(table, key=lambda s: s.cost)
