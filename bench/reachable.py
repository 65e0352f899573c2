"""Which levels the generator reaches, per family and size: the measurement behind each
family's ``reachable`` and ``out_of_reach`` tables (``Family.reach``).

    python bench/reachable.py                        # every family and size below (long)
    python bench/reachable.py --family tango --attempts 100 --timeout 60

A cell is ``yes`` when a puzzle was made, ``no`` when every one of ``--attempts`` tries failed
(the evidence for refusing the level), ``?`` when the time limit came first (no claim), and
``proven`` when the family proves that no puzzle of the size can leave a cell blank
(:meth:`Family.never_blank`; nothing is tried, and the family refuses every level). The
last lines print each family's tables as they would be declared. Figures are CPU seconds; the
time limit is wall-clock, so a busy machine leaves more cells at ``?``.
"""

from __future__ import annotations

import argparse
import time

from grader.generator import Generator, Request
from grader.registry import families

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


def cell(family: str, size: tuple[int, int], level: str, attempts: int, timeout: float) -> str:
    """``yes``, ``no``, ``?`` or ``proven`` for one family, size and level, with attempts and
    CPU s."""
    if families()[family].never_blank(size, {}) is not None:
        return "proven (no cell can be blank)"
    request = Request(
        family,
        size,
        level,
        count=1,
        seed=1,
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
    return f"{verdict} ({generator.attempts} tries, {cpu:.1f} s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", action="append", help="Only these families.")
    parser.add_argument("--size", action="append", help="Only these sizes (RxC or N).")
    parser.add_argument("--attempts", type=int, default=100, help="Tries per cell.")
    parser.add_argument("--timeout", type=float, default=60.0, help="Seconds per cell.")
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
                result = cell(name, size, level, args.attempts, args.timeout)
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
