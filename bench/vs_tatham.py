"""Our Binairo grading and generation beside Simon Tatham's Unruly (C), the same puzzles in one run.

Every program runs as a child process, one at a time, measured whole (CPU seconds, user + system,
start-up included). Tatham's standalone build handles one puzzle per process, so its figures are
always one process per puzzle. Rows:

- ``grade``: ``--count`` 14x14 Normal game IDs that Tatham's generator makes (``--seed S 14x14dn``,
  seeds 1..count), graded by Tatham's solver (one process each) and by ours, once as one
  ``grade --json`` process over a file of the IDs and once as one process per ID (like for like);
  agreement: Tatham's ``Difficulty:`` against our level;
- ``collection``: ``--collection`` (1,000) game IDs of Tatham's generator (seeds 1..n, the first
  ones reused), graded by Tatham's solver (one process each: it takes one ID) and by ours in one
  ``grade --json`` process over a file of them: a whole collection, start-up spread thin;
- ``generate``: ``--generate`` 14x14 Normal puzzles: Tatham's generator (seeds 1..n, one process
  each) against ``grader generate binairo --size 14x14 --level normal -n N`` (one process); then
  each side's puzzles are graded by the other (not timed) to see whether the levels agree.

    python bench/vs_tatham.py                 # 102 and 1,000 graded, 40 generated (~3 minutes)
    python bench/vs_tatham.py --count 20 --generate 10 --every 2 --collection 100

Needs ``GRADER_UNRULY`` (``../shared/anchors/build.sh``); exits 2 with one line without it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from vs_common import header, load, our_program, percent, ratio, reference, run_child

PARAMS = "14x14dn"


@dataclass
class Tally:
    """CPU and wall seconds summed over a side's processes, and the levels it gave."""

    cpu: float = 0.0
    wall: float = 0.0
    processes: int = 0
    levels: list[str] = field(default_factory=list)

    def add(self, cpu: float, wall: float) -> None:
        self.cpu += cpu
        self.wall += wall
        self.processes += 1


def tatham_generate(program: str, seed: int, tally: Tally) -> str:
    """One game ID (``14x14dn:...``) from Tatham's generator."""
    child = run_child([program, "--seed", str(seed), PARAMS])
    tally.add(child.cpu, child.wall)
    for line in child.stdout.splitlines():
        if line.startswith("Game ID: "):
            return f"{PARAMS}:{line.removeprefix('Game ID: ').strip()}"
    raise RuntimeError(f"Tatham's generator printed no game ID for seed {seed}")


def tatham_level(program: str, game_id: str, tally: Tally | None) -> str:
    """Tatham's ``Difficulty:`` for a game ID, lower case (``unsolved`` when it gets stuck)."""
    child = run_child([program, game_id])
    if tally is not None:
        tally.add(child.cpu, child.wall)
    level = "unsolved"
    for line in child.stdout.splitlines():
        if line.startswith("Difficulty: "):
            level = line.removeprefix("Difficulty: ").strip().lower()
        if line.startswith(("No solution found", "Puzzle is invalid")):
            return "unsolved"
    return level


def our_levels(stdout: str) -> list[str]:
    """Our levels from ``grade --json`` lines (``unsolved`` when the techniques get stuck)."""
    levels = []
    for line in stdout.splitlines():
        if line.startswith("{"):
            report = json.loads(line)
            levels.append(report.get("level") if report.get("solved") else "unsolved")
    return levels


def agree(ours: list[str], theirs: list[str]) -> str:
    """How often the two lists of levels are equal, and the pairs that differ."""
    pairs = list(zip(ours, theirs, strict=True))
    same = sum(a == b for a, b in pairs)
    differ = Counter(f"ours {a}/Tatham {b}" for a, b in pairs if a != b)
    notes = ", ".join(f"{k}: {v}" for k, v in differ.most_common())
    return f"{same}/{len(pairs)} ({percent(same, len(pairs))})" + (f"; {notes}" if notes else "")


def game_ids_of(jsonl: Path) -> list[str]:
    """Unruly game IDs of our generated puzzles (the project's own writer)."""
    from grader.rating.loading import puzzle_from_dict
    from rules.binairo.file import unruly_id

    ids = []
    for number, line in enumerate(jsonl.read_text().splitlines(), 1):
        puzzle = puzzle_from_dict(json.loads(line), str(jsonl), f"{jsonl.name}:{number}")
        ids.append(unruly_id(puzzle.model, puzzle.givens))
    return ids


def tatham_ids(program: str, seeds: range, generated: list[str]) -> list[str]:
    """Game IDs of Tatham's generator for ``seeds`` (those already ``generated`` reused; the
    generation of the others is not timed)."""
    spare = Tally()
    return [
        generated[s - 1] if s <= len(generated) else tatham_generate(program, s, spare)
        for s in seeds
    ]


def grade_both(program: str, grade: str, ids: list[str], work: Path) -> tuple[Tally, Tally]:
    """Tatham's solver on each ID (a process each), then ours on a file of them (one process):
    (Tatham's tally, ours)."""
    theirs = Tally()
    theirs.levels = [tatham_level(program, i, theirs) for i in ids]
    id_file = work / "ids.txt"
    id_file.write_text("".join(i + "\n" for i in ids))
    child = run_child([grade, "--json", str(id_file)])
    ours = Tally()
    ours.add(child.cpu, child.wall)
    ours.levels = our_levels(child.stdout)
    return theirs, ours


TABLE = (
    f"{'row':<38} {'puzzles':>7} {'ours cpu s':>10} {'Tatham cpu s':>12} {'ratio':>7}  levels agree"
)


def line(label: str, count: int, ours: Tally, theirs: Tally, levels: str) -> str:
    return (
        f"{label:<38} {count:>7} {ours.cpu:>10.2f} {theirs.cpu:>12.2f} "
        f"{ratio(ours.cpu, theirs.cpu):>7}  {levels}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=102, help="puzzles to grade")
    parser.add_argument("--generate", type=int, default=40, help="puzzles to generate")
    parser.add_argument("--every", type=int, default=1, help="grade every n-th of the seeds")
    parser.add_argument("--seed", type=int, default=1, help="our generator's seed")
    parser.add_argument(
        "--collection", type=int, default=1000, help="puzzles in the collection row (0: none)"
    )
    args = parser.parse_args()
    if args.every < 1 or args.count < 1 or args.generate < 1 or args.collection < 0:
        parser.error("--count, --generate and --every must be positive, --collection not negative")
    program = reference("GRADER_UNRULY", "vs_tatham")
    grade, grader = our_program("grade"), our_program("grader")
    print(header("vs_tatham: ours beside Simon Tatham's Unruly (14x14 Normal)"), flush=True)
    table = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)

        # Generation: Tatham's one process per puzzle, ours one process for all.
        theirs_gen = Tally()
        generated = [tatham_generate(program, s, theirs_gen) for s in range(1, args.generate + 1)]
        ours_file = work / "ours.jsonl"
        command = [grader, "generate", "binairo", "--size", "14x14", "--level", "normal"]
        command += ["-n", str(args.generate), "--seed", str(args.seed), "-o", str(ours_file)]
        child = run_child([*command, "--no-progress", "--force"])
        ours_gen = Tally()
        ours_gen.add(child.cpu, child.wall)
        if child.returncode != 0:
            print(f"grader generate failed (exit {child.returncode})", file=sys.stderr)
            return 1
        ours_ids = game_ids_of(ours_file)
        tatham_on_ours = [tatham_level(program, i, None) for i in ours_ids]
        gen_levels = "Tatham on ours: " + agree(["normal"] * len(ours_ids), tatham_on_ours)

        # Grading the IDs Tatham's generator makes (seeds 1..count, the first ones reused).
        ids = tatham_ids(program, range(1, args.count + 1, args.every), generated)
        theirs, ours_one = grade_both(program, grade, ids, work)
        ours_each = Tally()
        for game_id in ids:
            child = run_child([grade, "--json", game_id])
            ours_each.add(child.cpu, child.wall)
            ours_each.levels += our_levels(child.stdout)
        levels = agree(ours_one.levels, theirs.levels)
        n = len(ids)
        table.append(line("grade, ours 1 process / Tatham's n", n, ours_one, theirs, levels))
        table.append(line("grade, 1 process per puzzle each way", n, ours_each, theirs, levels))
        table.append(
            line(
                "generate normal, ours 1 / Tatham's n",
                args.generate,
                ours_gen,
                theirs_gen,
                gen_levels,
            )
        )
        if args.collection:
            many = tatham_ids(program, range(1, args.collection + 1), generated)
            theirs_many, ours_many = grade_both(program, grade, many, work)
            levels_many = agree(ours_many.levels, theirs_many.levels)
            label = "collection, ours 1 / Tatham's n"
            table.append(line(label, len(many), ours_many, theirs_many, levels_many))
            print(
                f"    collection of {len(many)}: wall s ours {ours_many.wall:.2f}, Tatham "
                f"{theirs_many.wall:.2f}; per puzzle cpu s ours {ours_many.cpu / len(many):.4f}, "
                f"Tatham {theirs_many.cpu / len(many):.4f}"
            )
        print(
            f"    wall s: grade ours 1 process {ours_one.wall:.2f}, ours per puzzle "
            f"{ours_each.wall:.2f}, Tatham {theirs.wall:.2f}; generate ours {ours_gen.wall:.2f}, "
            f"Tatham {theirs_gen.wall:.2f}",
            f"    per puzzle cpu s: grade ours {ours_one.cpu / n:.4f} (1 process), "
            f"{ours_each.cpu / n:.4f} (each), Tatham {theirs.cpu / n:.4f}; generate ours "
            f"{ours_gen.cpu / args.generate:.4f}, Tatham {theirs_gen.cpu / args.generate:.4f}",
            f"    our levels of Tatham's puzzles: {dict(Counter(ours_one.levels))}; Tatham's: "
            f"{dict(Counter(theirs.levels))}; one process and per-puzzle levels equal: "
            f"{ours_one.levels == ours_each.levels}",
            sep="\n",
        )
    print(TABLE, *table, f"load at the end {load()}", sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
