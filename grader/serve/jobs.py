"""The work behind each request, run in a worker process: plain functions of the request's
JSON body and the server's time limit, returning JSON data.

:func:`run` is what a worker is given: it turns the errors of bad input into an answer
(``{"error": line, "status": 400}``) so that nothing but data crosses back to the server.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from grader.core.errors import FieldProblem, InputError, UsageError
from grader.rating.family import Puzzle
from grader.rating.grading import Grade, GradeOptions
from grader.serve.inputs import MAX_PUZZLES, entries_of, flag, options_of, puzzle_of, whole

Answer = dict[str, Any]

_GRADES: OrderedDict[str, Grade] = OrderedDict()
"""This worker's last grades by request (stepping through a solve renders step after step of
the same grade)."""
GRADES_KEPT = 4


def puzzle_data(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as a file holds it (the page edits this object): the family's own layout of
    its givens, with its id and name."""
    data = puzzle.family.to_data(puzzle.model, puzzle.clue_state)
    for extra in ("id", "name", "source", "author"):
        if puzzle.data.get(extra) is not None:
            data.setdefault(extra, puzzle.data[extra])
    return data


def graded(puzzle: Puzzle, options: GradeOptions) -> Grade:
    """The grade of ``puzzle``, kept for the next requests about the same puzzle and options
    (a report cut short by the time limit is not kept)."""
    import json

    from grader.rating.grading import grade

    key = json.dumps(
        [puzzle.id, puzzle.origin, puzzle.data, repr(options)], sort_keys=True, default=str
    )
    if key in _GRADES:
        _GRADES.move_to_end(key)
        return _GRADES[key]
    result = grade(puzzle, options)
    if result.run.status != "timeout":
        _GRADES[key] = result
        while len(_GRADES) > GRADES_KEPT:
            _GRADES.popitem(last=False)
    return result


# ---------------------------------------------------------------------------------------------
# the jobs
# ---------------------------------------------------------------------------------------------


def load_job(body: dict[str, Any], limit: float) -> Answer:
    """Every puzzle of a text (or the one puzzle object), as the page edits them."""
    from grader.rating.loading import build

    found = entries_of(body)
    if len(found) > MAX_PUZZLES:
        raise UsageError(f"text: holds {len(found)} puzzles; at most {MAX_PUZZLES} at a time")
    return {"puzzles": [puzzle_data(build(entry)) for entry in found]}


def grade_job(body: dict[str, Any], limit: float) -> Answer:
    """Exactly the report ``grade --json --trace`` prints."""
    return graded(puzzle_of(body), options_of(body, limit)).to_dict(trace=True)


def hint_job(body: dict[str, Any], limit: float) -> Answer:
    """The next step with its evidence, exactly as ``grader hint --json`` prints it."""
    from grader.rating.grading import hint_payload, next_step

    puzzle = puzzle_of(body)
    options = options_of(body, limit)
    return hint_payload(puzzle, next_step(puzzle, options), options.timeout)


def render_job(body: dict[str, Any], limit: float) -> Answer:
    """The SVG of the givens; with ``step`` N the board before step N with its evidence; with
    ``solve`` the grid the techniques reach; with ``solution`` the exact solution. ``grid``
    says where the cells are in the picture (for clicks)."""
    from grader.output.render import CELL, board_svg, margins, puzzle_board

    puzzle = puzzle_of(body)
    step = whole(body, "step", low=1)
    solve, solution = flag(body, "solve"), flag(body, "solution")
    if sum([step is not None, solve, solution]) > 1:
        raise UsageError("step, solve and solution draw different boards: give one of them")
    answer: Answer = {}
    if step is None and not solve and not solution:
        board = puzzle_board(puzzle)
    else:
        result = graded(puzzle, options_of(body, limit, exact=step is not None or solution))
        board = _solved_board(puzzle, result, step, solution)
        answer["steps_count"] = len(result.steps)
        answer["status"] = result.status_text()
    left, top, _, _ = margins(board)
    answer["svg"] = board_svg(board, flag(body, "candidates", True))
    answer["grid"] = {
        "left": left,
        "top": top,
        "cell": CELL,
        "rows": board.rows,
        "cols": board.cols,
    }
    return answer


def _solved_board(puzzle: Puzzle, result: Grade, step: int | None, solution: bool) -> Any:
    """The board of a step, of the techniques' end, or of the exact solution."""
    from grader.core.model import mask_of
    from grader.output.render import board_of_step, puzzle_board

    if step is not None:
        reached = len(result.steps)
        if step > reached:
            cut = " (the time limit cut the solve short)" if result.status == "timeout" else ""
            raise UsageError(f"step: the solve has {reached} step(s), not {step}{cut}")
        return board_of_step(puzzle, result.steps, result.techniques, step)
    if solution:
        if result.solution is None:
            held = {0: "no solution", "2+": "2+ solutions"}.get(result.solutions, "no known one")
            raise UsageError(f"solution: the puzzle has {held}")
        return puzzle_board(puzzle, [mask_of([value]) for value in result.solution])
    return puzzle_board(puzzle, result.run.state, stated=result.run.stated)


def new_job(body: dict[str, Any], limit: float) -> Answer:
    """An empty puzzle of a family and size (to fill in by hand)."""
    from grader.generation.generator import empty_model

    family, size, options = _family_size(body)
    model = empty_model(family, size, options)
    state = [variable.domain for variable in model.variables]
    return {"puzzle": family.to_data(model, state)}


def generate_job(body: dict[str, Any], limit: float) -> Answer:
    """A new puzzle of a family, size and level, from ``seed`` (as ``grader generate`` writes
    it: with its solution and how it was made), with its grade."""
    from grader.generation.generator import Generator, Request
    from grader.rating.loading import puzzle_from_dict

    family, size, options = _family_size(body)
    level = body.get("level", "normal")
    if not isinstance(level, str):
        raise UsageError("level: must be a level name, e.g. normal")
    mode = body.get("mode", "deducible")
    seed = whole(body, "seed", 0, low=0)
    request = Request(
        family=family.name,
        size=size,
        level=level,
        seed=seed,
        mode=mode if isinstance(mode, str) else "",
        options=options,
        timeout=limit,
    )
    generator = Generator(request)
    found = next(iter(generator.puzzles()), None)
    if found is None:
        why = generator.gave_up or f"no puzzle was made within {limit:g} s"
        raise TimeoutError(f"generate: {why} (try another seed or level)")
    puzzle = puzzle_from_dict(found.data, "generated", found.data["id"])
    result = graded(puzzle, GradeOptions(timeout=limit))  # the report grade --timeout prints
    return {"puzzle": found.data, "grade": result.to_dict(trace=True)}


def record_job(body: dict[str, Any], limit: float) -> Answer:
    """What the bank stores of a puzzle (graded as ``grader bank`` grades: default options)."""
    from grader.storage.bank import record_of

    puzzle = puzzle_of(body)
    result = graded(puzzle, GradeOptions(timeout=limit))
    if result.run.status == "timeout":
        raise TimeoutError(f"bank: grading took longer than {limit:g} s; not saved")
    if result.solutions != 1:
        raise UsageError(
            f"bank: only puzzles with one solution are stored; this one has {result.solutions}"
        )
    return record_of(puzzle, result.to_dict())


def _family_size(body: dict[str, Any]) -> tuple[Any, tuple[int, int], dict[str, Any]]:
    """A request's ``family`` (its default size unless ``size`` says: ``"6x6"``, ``9`` or
    ``[rows, cols]``) and ``rules`` (the family's options)."""
    from grader.rating.registry import families
    from grader.storage.bank import parse_size

    name = body.get("family")
    known = families()
    if name not in known:
        raise UsageError(f"family: unknown family {name!r} (known: {', '.join(known)})")
    family = known[name]
    size = body.get("size")
    if size is None:
        shape = family.default_size
    elif isinstance(size, int) and not isinstance(size, bool):
        shape = (size, size)
    elif isinstance(size, str):
        try:
            shape = parse_size(size)
        except UsageError as error:
            raise UsageError(str(error).removeprefix("--")) from None
    elif isinstance(size, list) and len(size) == 2 and all(type(n) is int for n in size):
        shape = (size[0], size[1])
    else:
        raise UsageError("size: must be ROWSxCOLS, N or [rows, cols]")
    largest = family.largest_size
    if min(shape) < 1:
        raise UsageError(f"size: {shape[0]}x{shape[1]} is not a size")
    if largest and (shape[0] > largest[0] or shape[1] > largest[1]):
        raise UsageError(f"size: {shape[0]}x{shape[1]} is larger than {largest[0]}x{largest[1]}")
    options = body.get("rules") or {}
    if not isinstance(options, dict):
        raise UsageError("rules: must be an object of the family's options")
    return family, shape, options


JOBS: dict[str, Callable[[dict[str, Any], float], Answer]] = {
    "load": load_job,
    "grade": grade_job,
    "hint": hint_job,
    "render": render_job,
    "new": new_job,
    "generate": generate_job,
    "record": record_job,
}


STAGES = {"generate": 2}
"""Jobs that run two stages, each under the request's time limit (generating, then grading
what was made as ``grade`` would): their worker is given that much longer."""


def run(kind: str, body: dict[str, Any], limit: float) -> Answer:
    """Job ``kind`` on a request's body: ``{"ok": answer}``, or ``{"error": one line,
    "status": code}`` (400 bad input, 504 out of time, 500 an internal error)."""
    try:
        return {"ok": JOBS[kind](body, limit)}
    except (InputError, UsageError, FieldProblem) as error:
        return {"error": " ".join(str(error).split()), "status": 400}
    except TimeoutError as error:
        return {"error": str(error), "status": 504}
    except Exception as error:  # the server stays up and says what broke
        return {"error": f"internal error: {type(error).__name__}: {error}", "status": 500}
