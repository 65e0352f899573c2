"""Where our chains part from Sudoku Explainer's: one chain's potentials, or one nesting level's
hints, from both programs on the same grid.

SE's side is ``bench/se_probe/ChainProbe.java``, compiled into a temporary directory against
``GRADER_SERATE_CP`` (``../shared/anchors/build.sh``) and calling SE's own ``Chaining``; ours is
``ChainSearch`` at the same nesting level. Both start from the givens with their values crossed
out of their peers, as serate starts. ``trace`` lists what one dynamic chain turns on and off in
each program's order and prints the first place where the orders differ (with the rule SE
nested there); ``hints`` lists every hint of the level on both sides, SE's order first.

    python bench/se_probe.py hints PUZZLE --level 3
    python bench/se_probe.py trace PUZZLE --level 3 --start r7c4=3

Needs ``javac`` and ``GRADER_SERATE_CP``; exits 2 with one line without them.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from vs_common import reference

HERE = Path(__file__).resolve().parent


def run_se(classpath: str, args: list[str]) -> list[list[str]]:
    """ChainProbe's output lines, split at tabs."""
    if shutil.which("javac") is None:
        print("se_probe.py: javac is not installed (a JDK is needed)", file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(
            [
                "javac",
                "-nowarn",
                "-cp",
                classpath,
                "-d",
                work,
                str(HERE / "se_probe" / "ChainProbe.java"),
            ],
            check=True,
        )
        out = subprocess.run(
            ["java", "-Xmx2g", "-cp", f"{classpath}:{work}", "ChainProbe", *args],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    return [line.split("\t") for line in out.splitlines()]


def our_search(text: str, level: int):
    """Our chain search over the puzzle's start grid, known unique (as SE rates only those)."""
    from grader.core.engine import Engine
    from grader.core.exact import count_solutions
    from grader.core.technique import Context
    from grader.rating.costs import choose
    from grader.rating.loading import load
    from rules.sudoku.chains.chaining import ChainSearch

    puzzle = load(text)[0]
    _, found = count_solutions(puzzle.model, puzzle.givens, 2)
    engine = Engine(puzzle.model, choose(puzzle.family, puzzle.model), solutions=found)
    state = Engine(puzzle.model, [], solutions=found).run(puzzle.givens).state
    return ChainSearch(Context(puzzle.model, state, engine), level)


def name(search, pid: int) -> str:
    """A potential as SE's probe writes it: ``r7c4=3`` (on) or ``r7c4!=3`` (off)."""
    model = search.ctx.model
    var, v = divmod(pid >> 1, search.V)
    return f"{model.name(var)}{'=' if pid & 1 else '!='}{model.symbol(v)}"


def hints(text: str, level: int, classpath: str) -> None:
    print(f"SE, Chaining(level {level}): rating, nodes (flat), hint")
    for _, rating, nodes, flat, what in run_se(classpath, ["hints", text, str(level)]):
        print(f"  {rating:>5} {nodes:>5} ({flat:>4})  {what}")
    search = our_search(text, level)
    print(f"ours, nesting {level}: rating, nodes (flat), kind, source")
    for h in sorted(search.dynamic_hints("dynamic")):
        source = h.source[0]
        shown = name(search, source) if isinstance(source, int) else str(source)
        flat = h.complexity - sum(inner.complexity for inner in h.nested)
        print(f"  {h.difficulty:5.1f} {h.complexity:>5} ({flat:>4})  {h.kind} from {shown}")


def trace(text: str, level: int, start: str, classpath: str) -> None:
    match = re.fullmatch(r"r(\d+)c(\d+)(=|!=)(\d+)", start)
    if not match:
        print(
            f"se_probe.py: --start {start!r}: expected r<row>c<col>=<value> or !=", file=sys.stderr
        )
        sys.exit(2)
    row, col, sign, value = match.groups()
    on = sign == "="
    se = run_se(classpath, ["trace", text, str(level), row, col, value, "on" if on else "off"])
    search = our_search(text, level)
    V = search.V
    pid = (((int(row) - 1) * 9 + int(col) - 1) * V + int(value) - 1) << 1 | on
    res = search.propagate(pid, True, True)
    ours = {"on": [name(search, p) for p in res.on], "off": [name(search, p) for p in res.off]}
    why = {line[1]: line[3] for line in se if line[0] == "off" and len(line) > 3}
    for table in ("on", "off"):
        theirs = [line[1] for line in se if line[0] == table]
        print(f"{table}: SE {len(theirs)}, ours {len(ours[table])}")
        for i, (a, b) in enumerate(zip(theirs, ours[table], strict=False)):
            if a != b:
                print(f"  first difference at {i}:")
                print(f"    SE   {theirs[i : i + 6]}")
                print(f"    ours {ours[table][i : i + 6]}")
                if a in why:
                    print(f"  SE's {a} comes from: {why[a]}")
                break
        else:
            print(
                "  the same order"
                + (" (one list is longer)" if len(theirs) != len(ours[table]) else "")
            )
    found = [line[1] for line in se if line[0] == "contradiction"]
    print(
        f"contradiction: SE {found[0] if found else 'none'}, ours "
        f"{name(search, res.contradiction[0]) if res.contradiction else 'none'}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("hints", "trace"))
    parser.add_argument("puzzle", help="81 characters, . or 0 for a blank")
    parser.add_argument("--level", type=int, default=0, help="SE's nesting level (0 to 5)")
    parser.add_argument("--start", default=None, help="trace: the assumption, e.g. r7c4=3")
    args = parser.parse_args()
    if not re.fullmatch(r"[0-9.]{81}", args.puzzle):
        print("se_probe.py: the puzzle must be 81 characters of 1-9, . or 0", file=sys.stderr)
        return 2
    classpath = reference("GRADER_SERATE_CP", "se_probe.py")
    if args.mode == "hints":
        hints(args.puzzle, args.level, classpath)
    elif args.start is None:
        print("se_probe.py: trace needs --start, e.g. --start r7c4=3", file=sys.stderr)
        return 2
    else:
        trace(args.puzzle, args.level, args.start, classpath)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # a pager or head closed the pipe
        sys.stderr.close()
        sys.exit(0)
