"""The conformance kit in full: every check of every installed family, generation in every
(size, level) each family declares reachable (the test suite generates at the smallest size
only). Prints one line per check with its seconds, and the generation cells that made no puzzle
within the time limit.

    python bench/conformance.py                    # every family
    python bench/conformance.py --family sudoku --timeout 120
"""

from __future__ import annotations

import argparse
import time

from grader.rating.registry import families
from grader.testing import family_checks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", action="append", help="only these families")
    parser.add_argument("--check", action="append", help="only these checks")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per generated cell")
    args = parser.parse_args()
    failed = 0
    for name in args.family or sorted(families()):
        checks = family_checks(name, quick=False, generation_timeout=args.timeout)
        kit = checks[0].run.__self__  # type: ignore[attr-defined]
        for check in checks:
            if args.check and check.name not in args.check:
                continue
            started = time.monotonic()
            try:
                check()
                verdict = "ok"
            except AssertionError as error:
                verdict = f"FAILED: {error}"
                failed += 1
            print(
                f"{name:<10} {check.name:<22} {time.monotonic() - started:7.1f} s  {verdict}",
                flush=True,
            )
        if kit.unsettled:
            print(f"{name:<10} not settled within {args.timeout:g} s: {', '.join(kit.unsettled)}")
    print(f"{failed} check(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
