"""Which levels the generator reaches, per family and size: the measurement behind each
family's ``reachable`` and ``out_of_reach`` tables (``Family.reach``).

    python bench/reachable.py                        # every family and size below (long)
    python bench/reachable.py --family tango --attempts 100 --timeout 60
    python bench/reachable.py --family path --size 6 --seed 0 --seed 1 --seed 2   # how often

A cell is ``yes`` when a puzzle was made, ``no`` when every one of ``--attempts`` tries failed
(the evidence for refusing the level), ``?`` when the time limit came first (no claim), and
``proven`` when the family proves that no puzzle of the size can leave a cell blank
(:meth:`Family.never_blank`; nothing is tried, and the family refuses every level). The
last lines print each family's tables as they would be declared. Figures are CPU seconds; the
time limit is wall-clock, so a busy machine leaves more cells at ``?``. With several
``--seed`` each seed is one run of its own (its own attempts and time limit): a cell is
``yes`` when any seed made a puzzle, ``no`` when every seed used up its attempts, and the line
says how many seeds made one, with each seed's tries and CPU seconds (one lucky seed is not a
rate: path 6x6 extreme came on seed 1's first try).
"""

from __future__ import annotations

import argparse
import time

from grader.generation.generator import Generator, Request
from grader.rating.registry import families

SIZES: dict[str, list[tuple[int, int]]] = {
    "binairo": [(6, 6), (8, 8), (10, 10), (14, 14)],
    "tango": [(6, 6)],
    "sudoku": [(4, 4), (6, 6), (9, 9)],
    "siteswap": [(3, 4), (4, 3), (3, 3), (4, 4)],
    "path": [(5, 5), (6, 6), (8, 8)],
    "pairplace": [(6, 6), (8, 8), (10, 10)],
}
"""The sizes measured (as ``--size`` gives them; printed and declared as the model has them,
``Family.normal_size``); sizes not listed make no claim."""


def one_seed(
    family: str, size: tuple[int, int], level: str, attempts: int, timeout: float, seed: int
) -> tuple[str, int, float]:
    """(``yes``, ``no`` or ``?``, attempts, CPU s) of one run making one puzzle."""
    request = Request(
        family,
        size,
        level,
        count=1,
        seed=seed,
        max_attempts=attempts,
        timeout=timeout,
        refuse_unreachable=False,
    )
    generator = Generator(request)
    cpu = time.process_time()
    found = list(generator.puzzles())
    cpu = time.process_time() - cpu
    if found:
        verdict = "yes"
    elif generator.gave_up and "time limit" in generator.gave_up:
        verdict = "?"
    else:
        verdict = "no"
    return verdict, generator.attempts, cpu


def cell(
    family: str,
    size: tuple[int, int],
    level: str,
    attempts: int,
    timeout: float,
    seeds: list[int] | None = None,
) -> str:
    """``yes``, ``no``, ``?`` or ``proven`` for one family, size and level, with attempts and
    CPU s (per seed when there are several; seed 1 by default)."""
    if families()[family].never_blank(size, {}) is not None:
        return "proven (no cell can be blank)"
    seeds = seeds or [1]
    runs = [one_seed(family, size, level, attempts, timeout, seed) for seed in seeds]
    verdicts = [v for v, _, _ in runs]
    verdict = "yes" if "yes" in verdicts else "?" if "?" in verdicts else "no"
    if len(seeds) == 1:
        return f"{verdict} ({runs[0][1]} tries, {runs[0][2]:.1f} s)"
    each = ", ".join(
        f"seed {s}: {v} {a} tries {c:.1f} s" for s, (v, a, c) in zip(seeds, runs, strict=True)
    )
    return f"{verdict} ({verdicts.count('yes')} of {len(seeds)} seeds; {each})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", action="append", help="Only these families.")
    parser.add_argument("--size", action="append", help="Only these sizes (RxC or N).")
    parser.add_argument("--attempts", type=int, default=100, help="Tries per cell.")
    parser.add_argument("--timeout", type=float, default=60.0, help="Seconds per cell.")
    parser.add_argument(
        "--seed", type=int, action="append", help="Seeds, each its own run (default: 1)."
    )
    args = parser.parse_args()
    chosen = args.family or list(SIZES)
    only = {tuple(int(x) for x in (s.split("x") * 2)[:2]) for s in args.size or []}
    tables: dict[str, dict[str, dict[tuple[int, int], list[str]]]] = {}
    for name in chosen:
        family = families()[name]
        for asked in SIZES[name]:
            size = family.normal_size(asked, {})  # as the tables key it: pair place 6 is 5x6
            if only and not {asked, size} & only:
                continue
            for level in family.levels:
                result = cell(name, asked, level, args.attempts, args.timeout, args.seed)
                print(f"{name:<10} {size[0]}x{size[1]:<4} {level:<8} {result}", flush=True)
                table = {"yes": "reachable", "no": "out_of_reach"}.get(result.split()[0])
                # proven cells need no table: Family.reach refuses them from the proof
                if table is not None:
                    tables.setdefault(name, {}).setdefault(table, {}).setdefault(size, [])
                    tables[name][table][size].append(level)
    print()
    for name, declared in tables.items():
        for table, sizes in declared.items():
            print(f"{name}: {table} = {{")
            for size, levels in sizes.items():
                print(f"    {size}: {tuple(levels)},")
            print("}")


if __name__ == "__main__":
    main()
