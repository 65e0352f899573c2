"""A long fuzzing run of the loaders and ``grade`` (the suite runs a short one).

    python bench/fuzz.py --minutes 10

Runs the properties of ``tests/test_fuzz.py`` with fresh random examples, round after round,
until the time is up; prints examples tried per property and any failure (with its input).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzzing import (
    check_dict,
    check_file,
    json_values,
    mutated_examples,
    puzzle_dicts,
)

ROUND = 200
COUNTS: dict[str, int] = {}


def counted(name, check):
    def run(value):
        COUNTS[name] = COUNTS.get(name, 0) + 1
        check(value)

    return run


def file_check(suffix: str, binary: bool):
    def run(value):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"puzzle{suffix}"
            if binary:
                path.write_bytes(value)
            else:
                path.write_text(value)
            check_file(path)

    return run


PROPERTIES = {
    "puzzle dicts": (puzzle_dicts(), check_dict),
    "json values": (json_values, check_dict),
    "mutated examples": (mutated_examples(), file_check(".json", False)),
    "random bytes": (st.binary(max_size=400), file_check(".txt", True)),
    "random text lines": (st.text(max_size=300), file_check(".txt", False)),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    args = parser.parse_args()
    stop = time.monotonic() + 60 * args.minutes
    failures = 0
    quick = settings(
        max_examples=ROUND,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    while time.monotonic() < stop and not failures:
        for name, (strategy, check) in PROPERTIES.items():
            test = quick(given(strategy)(counted(name, check)))
            try:
                test()
            except Exception:
                failures += 1
                print(f"FAILURE in {name}:", flush=True)
                traceback.print_exc()
            if time.monotonic() >= stop:
                break
    for name, count in COUNTS.items():
        print(f"{name:<20} {count:>8} examples")
    print(f"{sum(COUNTS.values())} examples in {args.minutes} min, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
