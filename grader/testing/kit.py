"""The checks of the conformance kit: everything a user can do with a family, on puzzles the kit
derives from the family itself (:mod:`grader.testing.cases`).

Each check is a method ``check_*`` of :class:`Kit`; it raises :class:`CheckFailed` naming what
went wrong. :func:`family_checks` lists them (one test each), :func:`check_family` runs them all.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from grader.core.errors import FieldProblem, UsageError
from grader.core.model import is_single
from grader.core.units import seconds_text
from grader.rating.family import Family
from grader.rating.grading import Grade, GradeOptions, grade
from grader.rating.loading import load, puzzle_from_dict
from grader.rating.registry import get_family
from grader.testing.cases import Case, Cases, derive, first_puzzle, smallest_cell
from grader.testing.cli import CliResult, run_cli, run_script

REPORT_KEYS = {
    "id",
    "family",
    "size",
    "givens",
    "solutions",
    "solved",
    "status",
    "difficulty",
    "effort",
    "level",
    "hardest",
    "techniques",
    "grid",
    "version",
    "settings",
}
"""Keys every JSON report holds (the report contract of the manual's reference)."""

TIMEOUT = 1.0
"""``--timeout`` given at the family's largest size."""
START_UP_CPU = 1.5
"""CPU seconds a ``grade`` process spends outside the time it is given: start-up (0.3 s), reading
the file (0.2 s for 200x200 cells) and writing the report."""
TIMEOUT_SLACK = 0.5 * TIMEOUT + START_UP_CPU
"""CPU seconds a ``--timeout`` run may take beyond its limit: half the limit (it stops within
1.5 times it) and :data:`START_UP_CPU`. CPU time, not wall clock, so that a loaded machine does
not fail the check (before the engine's plan and the long line passes stopped at the deadline, an
empty 200x200 binairo with distinct lines took 12 CPU s at ``--timeout 1``, an empty 40x40
siteswap with throws 0-35 over 60)."""
TIMEOUT_MEMORY_MB = 512.0
"""Peak memory a ``--timeout`` run may reach (the empty 200x200 binairo with distinct lines
reached 1.5 GB before its plan was cut short)."""


class CheckFailed(AssertionError):
    """A conformance check found a problem."""


class FamilyCheckFailed(AssertionError):
    """One or more checks of :func:`check_family` failed."""


def rating(result: Grade) -> dict[str, Any]:
    """What must not change under a symmetry: the verdict and every figure of the rating."""
    return {
        "solutions": result.solutions,
        "solved": result.solved,
        "difficulty": round(result.difficulty, 6),
        "effort": result.effort,
        "level": result.level,
        "techniques": {k: int(v["count"]) for k, v in result.technique_counts().items()},
    }


def check_meta_is_grade(where: str, meta: dict[str, Any], result: Grade) -> None:
    """A generated puzzle's ``meta`` says the level, difficulty and effort that ``result``, its
    grade with the default options, reports."""
    rated = {"level": result.level, "difficulty": result.difficulty, "effort": result.effort}
    differ = {key: (meta.get(key), value) for key, value in rated.items() if meta.get(key) != value}
    if differ:
        raise CheckFailed(f"{where}: meta and grade differ (meta, grade): {differ}")


class Kit:
    """A family under test, its puzzles and a folder for the files the commands read and write.

    ``quick`` generates at the family's smallest declared size only (the test suite's setting);
    otherwise every declared (size, level) is generated. ``generation_timeout`` bounds each
    generated cell: a cell that makes no puzzle in time is reported as not settled, not failed.
    """

    def __init__(
        self,
        family: Family | str,
        workdir: str | Path | None = None,
        *,
        quick: bool = True,
        seed: int = 1,
        generation_timeout: float = 30.0,
    ) -> None:
        found = get_family(family) if isinstance(family, str) else family
        if found is None:
            raise CheckFailed(f"no installed family is called {family!r}")
        self.family: Family = found
        self.workdir = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="grader-kit-"))
        self.quick = quick
        self.seed = seed
        self.generation_timeout = generation_timeout
        self.unsettled: list[str] = []
        """Generated cells that made no puzzle within the time limit."""

    # -- the puzzles -----------------------------------------------------------------------------

    @cached_property
    def cases(self) -> Cases:
        source = first_puzzle(self.family, self.seed, self.generation_timeout * 2)
        return derive(self.family, source, self.seed)

    def file(self, case: Case, data: dict[str, Any] | None = None, suffix: str = "") -> str:
        """The case written as a puzzle file (``data`` instead of its own, when given)."""
        name = re.sub(r"[^a-z0-9]+", "-", case.name) + suffix
        path = self.workdir / f"{self.family.name}-{name}.json"
        path.write_text(json.dumps(data or case.data), encoding="utf-8")
        return str(path)

    def out(self, name: str) -> str:
        """A path for a command's output (any earlier one removed)."""
        path = self.workdir / f"{self.family.name}-{name}"
        path.unlink(missing_ok=True)
        return str(path)

    def run(self, *args: str, codes: tuple[int, ...] = (0,)) -> CliResult:
        """Run a command; fail unless it exits with one of ``codes`` and no traceback."""
        result = run_cli(*args)
        problem = None
        if result.code not in codes:
            problem = f"expected exit code {codes}"
        elif "Traceback" in result.stderr or "internal error" in result.stderr:
            problem = "printed an internal error"
        elif result.code != 0 and len(result.stderr.strip().splitlines()) != 1:
            problem = "failed without exactly one line on stderr"
        if problem:
            raise CheckFailed(f"{result.describe()} ({problem})")
        return result

    # -- files -----------------------------------------------------------------------------------

    def check_round_trip(self) -> None:
        """load → file dict → load gives the same rules, givens and grid."""
        for case in self.cases.all():
            first = load(self.file(case))[0]
            again = puzzle_from_dict(
                self.family.to_data(first.model, first.clue_state), "round trip", first.id
            )
            if again.model.key != first.model.key:
                raise CheckFailed(f"{case.name}: the rules changed: {again.model.key}")
            if again.clue_state != first.clue_state or again.givens != first.givens:
                raise CheckFailed(f"{case.name}: the givens changed in a round trip")
            if self.family.format_grid(again.model, again.clue_state) != self.family.format_grid(
                first.model, first.clue_state
            ):
                raise CheckFailed(f"{case.name}: the grid reads differently after a round trip")

    def check_family_option(self) -> None:
        """A file without ``family`` loads with ``grade --family NAME``; without the option it
        is one line naming the field."""
        case = self.cases.unique
        data = {k: v for k, v in case.data.items() if k != "family"}
        path = self.file(case, data, suffix="-no-family")
        result = self.run("grade", "--json", "--family", self.family.name, path)
        report = result.json_lines()[0]
        if report["family"] != self.family.name or report["solutions"] != 1:
            raise CheckFailed(f"--family {self.family.name}: got {report}")
        refused = self.run("grade", path, codes=(2,))
        if "family" not in refused.stderr:
            raise CheckFailed(f"without --family: {refused.stderr.strip()}")

    # -- grading in every output ---------------------------------------------------------------

    def check_json_reports(self) -> None:
        """``grade --json --trace``: the contract's keys, the right count of solutions, and a
        named contradiction for the puzzles that have one."""
        for case in self.cases.all():
            result = self.run("grade", "--json", "--trace", self.file(case))
            report = result.json_lines()[0]
            missing = REPORT_KEYS - set(report)
            if missing:
                raise CheckFailed(f"{case.name}: the report lacks {sorted(missing)}")
            if report["solutions"] != case.solutions:
                raise CheckFailed(
                    f"{case.name}: solutions {report['solutions']!r}, expected {case.solutions!r}"
                )
            if case.solutions == 1 and report["status"] not in ("solved", "stuck"):
                raise CheckFailed(f"{case.name}: status {report['status']}")
            if case.contradiction and not report.get("contradiction"):
                raise CheckFailed(f"{case.name}: the report names no contradiction")
            if case.contradiction == "deduced" and not report.get("steps"):
                raise CheckFailed(f"{case.name}: the trace lists no step before the contradiction")
            if case.contradiction and report["level"] != "invalid":
                raise CheckFailed(f"{case.name}: level {report['level']}, expected invalid")

    def check_text_reports(self) -> None:
        """``grade`` and ``grade --trace``: one report each, the contradiction said once, the
        trace's start board showing the file's givens."""
        for case in self.cases.all():
            path = self.file(case)
            plain = self.run("grade", path)
            traced = self.run("grade", "--trace", path)
            report = self.run("grade", "--json", path).json_lines()[0]
            for result in (plain, traced):
                if case.contradiction:
                    said = result.stdout.count(report["contradiction"])
                    if said != 1:
                        raise CheckFailed(
                            f"{case.name}: `{' '.join(result.args)}` says the contradiction "
                            f"{said} times"
                        )
            puzzle = load(path)[0]
            board = "\n".join(self.family.text_board(puzzle.model, puzzle.clue_state))
            start = traced.stdout.split("start", 1)[-1]
            if board.split("\n")[0] not in start:
                raise CheckFailed(f"{case.name}: the trace does not start from the givens")
            if case.contradiction == "deduced" and "  1. [" not in traced.stdout:
                raise CheckFailed(f"{case.name}: the text trace lists no step")

    def check_html(self) -> None:
        """``grade --html``: one page with a board for every puzzle of a file."""
        lines = "\n".join(json.dumps(case.data) for case in self.cases.all())
        source = self.workdir / f"{self.family.name}-all.jsonl"
        source.write_text(lines + "\n", encoding="utf-8")
        page = self.out("trace.html")
        self.run("grade", "--html", page, str(source))
        text = Path(page).read_text(encoding="utf-8")
        if text.count("<svg") < len(self.cases.all()):
            raise CheckFailed("the HTML trace lacks a board for some puzzle")

    def check_render(self) -> None:
        """``grader render``: the givens, ``--solve`` and ``--step N`` as SVG."""
        for case in self.cases.all():
            path = self.file(case)
            steps = len(self.run("grade", "--json", "--trace", path).json_lines()[0]["steps"])
            variants = [[], ["--solve"]] + ([["--step", str(steps)]] if steps else [])
            for extra in variants:
                target = self.out("board.svg")
                self.run("grader", "render", path, "-o", target, *extra)
                if "<svg" not in Path(target).read_text(encoding="utf-8"):
                    raise CheckFailed(f"{case.name}: render {extra} drew no SVG")

    def check_hint(self) -> None:
        """``grader hint``: a step on the unique puzzle (stamped with the version and settings,
        as grade's report), the count of solutions on the puzzle with two, the contradiction
        on the puzzles with none."""
        for case in self.cases.all():
            path = self.file(case)
            text = self.run("grader", "hint", path).stdout
            payload = self.run("grader", "hint", "--json", path).json_lines()[0]
            if case.solutions == 1 and not payload.get("hint"):
                raise CheckFailed(f"{case.name}: hint gives no step: {text.strip()}")
            if case.solutions == 1:
                last = text.rstrip().splitlines()[-1]
                if not last.startswith(f"grader {payload['version']} · techniques: "):
                    raise CheckFailed(f"{case.name}: hint's step ends with no stamp: {last!r}")
            if case.solutions == "2+" and "solutions" not in text:
                raise CheckFailed(f"{case.name}: hint does not say the puzzle has 2+ solutions")
            if case.contradiction:
                report = self.run("grade", "--json", path).json_lines()[0]
                if report["contradiction"] not in text:
                    raise CheckFailed(
                        f"{case.name}: hint does not name the contradiction: {text.strip()}"
                    )
                if case.contradiction == "deduced" and "givens break a rule" in text:
                    raise CheckFailed(f"{case.name}: hint blames the givens for a deduction")

    def check_solve(self) -> None:
        """``grader solve``: the solution of the unique puzzle, the contradiction named for the
        puzzles without one."""
        for case in self.cases.all():
            path = self.file(case)
            result = self.run("grader", "solve", "--json", path)
            payload = result.json_lines()[0]
            if case.solutions == 1 and not payload.get("solution"):
                raise CheckFailed(f"{case.name}: solve printed no solution")
            if case.solutions == 1:
                last = self.run("grader", "solve", path).stdout.rstrip().splitlines()[-1]
                if not last.startswith(f"grader {payload['version']} · techniques: "):
                    raise CheckFailed(f"{case.name}: solve's steps end with no stamp: {last!r}")
            if case.contradiction:
                report = self.run("grade", "--json", path).json_lines()[0]
                text = self.run("grader", "solve", path).stdout
                if report["contradiction"] not in payload["verdict"] + text:
                    raise CheckFailed(f"{case.name}: solve does not name the contradiction")

    def check_messages_speak_symbols(self) -> None:
        """The contradictions of the two puzzles without solution name values by the file's
        symbols: a number left once house labels (``row 3``) and cell names (``r3c4``) are
        taken out is a symbol of the family, never a value's inner index."""
        for case in (self.cases.givens_conflict, self.cases.deduced_conflict):
            if case is None:
                continue
            puzzle = load(self.file(case))[0]
            reason = grade(puzzle).to_dict().get("contradiction") or ""
            model = puzzle.model
            values = range(max(v.domain for v in model.variables).bit_length())
            symbols = {model.symbol(v) for v in values} | {model.value_name(v) for v in values}
            text = re.sub(r"\b[A-Za-z]+ \d+\b", " ", reason)  # row 3, column 2, beat 4 ...
            text = re.sub(r"\br\d+c[0-9A-Za-z]+\b", " ", text)  # cells and edges
            for token in re.findall(r"\b\d+\b", text):
                if token not in symbols:
                    raise CheckFailed(f"{case.name}: {reason!r} names {token!r}, no symbol")

    # -- symmetry --------------------------------------------------------------------------------

    @cached_property
    def hardest_puzzle(self) -> dict[str, Any] | None:
        """A puzzle of the highest level the family declares reachable at its smallest size
        (None if none comes within the generation time limit)."""
        from grader.generation.generator import Request, generate

        cells = self.generation_cells()
        first = smallest_cell(self.family)
        top = [c for c in cells if first and c[0] == first[0]][-1:]
        for size, level in top:
            request = Request(
                self.family.name, size, level, seed=self.seed, timeout=self.generation_timeout
            )
            for made in generate(request):
                return made.data
        return None

    def check_symmetry(self) -> None:
        """Every symmetric copy the family declares keys alike (``grader canon``) and grades
        alike: solutions, difficulty, effort, level and technique counts; on the kit's unique
        puzzle and the one with two solutions, the family's example, a puzzle of its highest
        reachable level and one of every level it reaches at its smallest size."""
        family = self.family
        cases = [self.cases.unique, self.cases.two_solutions]
        for name, data in (("example", family.example), ("hardest", self.hardest_puzzle)):
            if data:
                cases.append(Case(name, dict(data), 1))
        cases += self.level_puzzles
        for case in cases:
            puzzle = load(self.file(case))[0]
            data = family.to_data(puzzle.model, puzzle.clue_state)
            key = family.canonical_key(puzzle.model, puzzle.clue_state)
            base = rating(grade(puzzle))
            for name, copy in family.symmetric_copies(data):
                other = puzzle_from_dict(copy, name, name)
                if family.canonical_key(other.model, other.clue_state) != key:
                    raise CheckFailed(f"{case.name}, {name}: another canonical key")
                moved = rating(grade(other))
                if moved != base:
                    changed = {k: (base[k], moved[k]) for k in base if base[k] != moved[k]}
                    raise CheckFailed(f"{case.name}, {name}: the rating changes: {changed}")

    @cached_property
    def level_puzzles(self) -> list[Case]:
        """One generated puzzle of every level the family reaches at its smallest size (a
        level that makes none within the generation time limit is left out)."""
        from grader.generation.generator import Request, generate

        first = smallest_cell(self.family)
        if first is None:
            return []
        size = first[0]
        found = []
        for level in self.family.reachable.get(size, ()):
            request = Request(
                self.family.name, size, level, seed=self.seed, timeout=self.generation_timeout
            )
            for made in generate(request):
                found.append(Case(f"generated {level}", dict(made.data), 1))
        return found

    # -- generation ------------------------------------------------------------------------------

    def generation_cells(self) -> list[tuple[tuple[int, int], str]]:
        """The (size, level) cells to generate: all declared, or the smallest size's."""
        cells = sorted(self.family.reachable.items(), key=lambda i: (i[0][0] * i[0][1], i[0]))
        if self.quick:
            first = smallest_cell(self.family)
            cells = [c for c in cells if first and c[0] == first[0]]
        return [(size, level) for size, levels in cells for level in levels]

    def check_generation(self) -> None:
        """Every declared reachable (size, level): a puzzle with a blank, unique, rated at its
        level, which the level below does not solve."""
        from grader.core.exact import count_solutions
        from grader.generation.generator import Request, generate

        family = self.family
        for size, level in self.generation_cells():
            request = Request(
                family.name, size, level, count=1, seed=self.seed, timeout=self.generation_timeout
            )
            made = list(generate(request))
            where = f"{family.name} {size[0]}x{size[1]} {level}"
            if not made:
                self.unsettled.append(where)
                continue
            puzzle = puzzle_from_dict(made[0].data, where, where)
            if all(is_single(m) for m in puzzle.clue_state):
                raise CheckFailed(f"{where}: the puzzle has no blank cell")
            if (puzzle.model.rows, puzzle.model.cols) != tuple(size):
                raise CheckFailed(f"{where}: the file's size is {puzzle.model.size}")
            if count_solutions(puzzle.model, puzzle.givens, 2)[0] != 1:
                raise CheckFailed(f"{where}: the puzzle is not unique")
            result = grade(puzzle)
            if result.level != level:
                raise CheckFailed(f"{where}: graded {result.level}")
            check_meta_is_grade(where, made[0].data["meta"], result)
            index = family.levels.index(level)
            if index > 0 and family.level_of_cost(0.0) is None:
                below = grade(puzzle, GradeOptions(techniques=family.levels[index - 1]))
                if below.solved:
                    raise CheckFailed(
                        f"{where}: the techniques up to {family.levels[index - 1]} solve it"
                    )

    def check_unreachable_refused(self) -> None:
        """A level the family declares out of reach is refused at once, in one line."""
        for size, levels in self.family.out_of_reach.items():
            for level in levels:
                args = ["--size", f"{size[0]}x{size[1]}", "--level", level, "-n", "1"]
                result = self.run("grader", "generate", self.family.name, *args, codes=(2,))
                if result.seconds > 5:
                    raise CheckFailed(f"{result.describe()} took {seconds_text(result.seconds)}")

    def check_plan_twice(self) -> None:
        """A plan run twice adds nothing the second time; ``bank list --size`` and the exported
        file's size agree with the generated size."""
        cell = smallest_cell(self.family)
        if cell is None:
            return
        (rows, cols), level = cell
        plan = self.workdir / f"{self.family.name}-plan.toml"
        plan.write_text(
            f'seed = {self.seed}\n[[row]]\nfamily = "{self.family.name}"\n'
            f'size = "{rows}x{cols}"\nlevel = "{level}"\ncount = 1\n',
            encoding="utf-8",
        )
        bank = self.out("bank.db")
        listed = []
        for _ in range(2):
            self.run("grader", "generate", "--plan", str(plan), "--bank", bank)
            result = self.run("grader", "bank", "list", bank, "--size", f"{rows}x{cols}", "--json")
            listed.append(len(result.json_lines()))
        if listed != [1, 1]:
            raise CheckFailed(f"bank list --size {rows}x{cols} after each run: {listed}")
        exported = self.out("export.jsonl")
        self.run("grader", "bank", "export", bank, "-o", exported)
        data = json.loads(Path(exported).read_text(encoding="utf-8").splitlines()[0])
        if data.get("size") not in (None, [rows, cols]):
            raise CheckFailed(f"the exported file says size {data.get('size')}")
        meta = data.get("meta") or {}
        if meta.get("level") != level:
            raise CheckFailed(f"the exported meta says level {meta.get('level')}")

    # -- limits ----------------------------------------------------------------------------------

    def check_timeout(self) -> None:
        """``grade --timeout 1`` on the empty puzzle of the family's largest size, without rules
        and with every rule on (:func:`largest_rule_sets`), stops in time (exit 3 or a
        finished grade) with bounded memory."""
        size = self.family.largest_size
        if size is None:
            return
        for rules in largest_rule_sets(self.family):
            where = f"--timeout {TIMEOUT} at {size}" + (f" with rules {rules}" if rules else "")
            try:
                model = self.family.empty_model(size, rules)
            except (FieldProblem, UsageError) as error:
                raise CheckFailed(f"largest size {size} with rules {rules}: {error}") from None
            path = self.workdir / f"{self.family.name}-largest-{len(rules)}-rules.json"
            path.write_text(json.dumps(self.family.to_data(model, model.initial_state())))
            result = run_script("grade", "--timeout", str(TIMEOUT), str(path))
            if result.code not in (0, 3):
                raise CheckFailed(result.describe())
            cpu = result.cpu_seconds or 0.0
            if cpu > TIMEOUT + TIMEOUT_SLACK:
                raise CheckFailed(f"{where}: {cpu:.1f} CPU s")
            if result.max_rss_mb is not None and result.max_rss_mb > TIMEOUT_MEMORY_MB:
                raise CheckFailed(f"{where}: {result.max_rss_mb:.0f} MB")


def largest_rule_sets(family: Family) -> list[dict[str, Any]]:
    """The rules ``check_timeout`` grades the largest size with: none, and every rule on
    (:attr:`~grader.rating.family.Family.largest_rules`) when the family has any."""
    sets: list[dict[str, Any]] = [{}]
    if family.largest_rules:
        sets.append(dict(family.largest_rules))
    return sets


@dataclass
class Check:
    """One check of a family, callable (for a test each)."""

    name: str
    run: Callable[[], None]

    def __call__(self) -> None:
        self.run()


CHECKS = tuple(name for name in vars(Kit) if name.startswith("check_"))
"""Every check, in the order they run."""


def family_checks(family: Family | str, **settings: Any) -> list[Check]:
    """The checks of a family, sharing one :class:`Kit` (its puzzles are derived once)."""
    kit = Kit(family, **settings)
    return [Check(name.removeprefix("check_"), getattr(kit, name)) for name in CHECKS]


def check_family(family: Family | str, **settings: Any) -> None:
    """Run every check; raise :class:`FamilyCheckFailed` listing each one that failed."""
    failures = list(_failures(family_checks(family, **settings)))
    if failures:
        raise FamilyCheckFailed("\n".join(failures))


def _failures(checks: list[Check]) -> Iterator[str]:
    for check in checks:
        try:
            check()
        except AssertionError as error:
            yield f"{check.name}: {error}"
