"""Effort formulas side by side on the outside signals: why effort is ``c² · H(n)`` per wave.

Every puzzle is graded once; each formula then prices the same waves (:func:`grader.core.effort.
wave_costs`: a wave's dearest cost ``c`` and its ``n`` moves), so the formulas are compared on
identical solves. Printed per formula: Spearman with LinkedIn's weekday on the 103 Tangos, its
bootstrap 90 % interval (how far 103 dailies pin it down), and the Kendall tau-b of effort with
each binairo site's level; then what fitting the power of the cost, or one exponent of the
wave's size, to the weekday gains on the dailies it was not fitted on (random 2-fold splits),
and what fitting the techniques' prices does (one of 432 price sets for Tango's five dearer
techniques, chosen on one half of the dailies, tested on the other). All the formulas are sums
over the engine's order-free waves, so each is the same for every symmetric copy of a puzzle.

    python bench/effort_variants.py                  # about 10 s
    python bench/effort_variants.py --splits 50 --bootstrap 200
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from itertools import product
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from binairo_external import site_taus  # noqa: E402
from sudoku_se import spearman  # noqa: E402

from grader.core.effort import COST_POWER, harmonic, wave_costs, wave_effort  # noqa: E402
from grader.rating.costs import choose  # noqa: E402
from grader.rating.grading import grade  # noqa: E402
from grader.rating.loading import puzzle_from_dict  # noqa: E402
from shared_sets import SHARED_DATA, binairo_external, tango_real  # noqa: E402

Waves = list[tuple[float, int]]


def power_sum(n: int, b: float) -> float:
    """1 + 2^-b + … + n^-b (b = 1: the harmonic number)."""
    return sum(k**-b for k in range(1, n + 1))


FORMULAS: dict[str, Callable[[Waves], float]] = {
    "c²·H(n) (today's effort)": lambda ws: sum(wave_effort(c, n) for c, n in ws),
    "c·H(n) (to 2026-11-27)": lambda ws: sum(c * harmonic(n) for c, n in ws),
    "c·(1 + ln n)": lambda ws: sum(c * (1 + math.log(n)) for c, n in ws),
    "c·√n": lambda ws: sum(c * math.sqrt(n) for c, n in ws),
    "c·Σ k^-0.6": lambda ws: sum(c * power_sum(n, 0.6) for c, n in ws),
    "c·n (moves at wave's cost)": lambda ws: sum(c * n for c, n in ws),
    "c per wave (size ignored)": lambda ws: sum(c for c, _ in ws),
    "c^1.5·H(n)": lambda ws: sum(c**1.5 * harmonic(n) for c, n in ws),
    "c³·H(n)": lambda ws: sum(c**3 * harmonic(n) for c, n in ws),
    "2^c·H(n)": lambda ws: sum(2**c * harmonic(n) for c, n in ws),
    "c² per wave (size ignored)": lambda ws: sum(c * c for c, _ in ws),
    "waves with c ≥ 3": lambda ws: sum(c >= 3 for c, _ in ws),
    "hardest step (difficulty)": lambda ws: max((c for c, _ in ws), default=0.0),
}


def waves_of(data: dict) -> tuple[Waves, int]:
    """The priced waves of the puzzle's solve, and its number of givens."""
    waves, givens, _ = solve_of(data)
    return waves, givens


def solve_of(data: dict) -> tuple[Waves, int, list[tuple[tuple[str, float], ...]]]:
    """:func:`waves_of`, and each wave's steps as (technique, cost) (for re-pricing them)."""
    result = grade(puzzle_from_dict(data, "effort_variants", str(data.get("id"))))
    givens = sum(mask.bit_count() == 1 for mask in result.puzzle.givens)
    waves = wave_costs(result.steps, result.run.waves)
    names, start = [], 0
    for _, size in waves:  # the same waves, a step each when the run kept none
        names.append(tuple((s.technique, s.cost) for s in result.steps[start : start + size]))
        start += size
    return waves, givens, names


PRICE_GRID: dict[str, tuple[float, ...]] = {
    "last-cell": (1.0, 1.2, 1.5),
    "count-completion": (1.0, 2.0, 3.0),
    "window": (2.0, 3.0, 4.0, 6.0),
    "line-enumeration": (3.0, 4.0, 6.0, 8.0),
    "short-contradiction": (5.0, 8.0, 12.0),
}
"""Prices tried per technique (the others keep their cost) when re-pricing is fitted."""


def fitted_prices(
    solves: Sequence[list[tuple[tuple[str, float], ...]]],
    shipped: dict[str, float],
    days: Sequence[int],
    splits: int,
    seed: int,
) -> tuple[float, float, float, float]:
    """Effort ``c² · H(n)`` with every wave priced at its dearest step's price (its technique's
    price plus whatever its step adds to the technique's cost, such as a round bonus), the
    prices chosen from :data:`PRICE_GRID` on one half of a random 2-fold split and tested on
    the other (:func:`held_out`): the Spearman of the shipped costs and the best one on all the
    dailies, the mean test Spearman, and its mean gain over the shipped costs (whether
    re-pricing the techniques follows the weekday on dailies it was not fitted on)."""
    names = list(PRICE_GRID)
    combos = [dict(zip(names, prices, strict=True)) for prices in product(*PRICE_GRID.values())]

    def effort_at(prices: dict[str, float], waves: list[tuple[tuple[str, float], ...]]) -> float:
        return sum(
            wave_effort(
                max(prices.get(t, shipped[t]) + cost - shipped[t] for t, cost in wave), len(wave)
            )
            for wave in waves
        )

    values = {k: [effort_at(c, waves) for waves in solves] for k, c in enumerate(combos)}
    base = [effort_at({}, waves) for waves in solves]
    tested, gain, _ = held_out(values, base, days, splits, seed)
    best_all = max(spearman(v, days) for v in values.values())
    return spearman(base, days), best_all, tested, gain


def held_out(
    values: dict, base: Sequence[float], days: Sequence[int], splits: int, seed: int
) -> tuple[float, float, dict]:
    """Each choice's values (per puzzle) chosen on one half of a random 2-fold split, by its
    Spearman with the weekday there, and tested on the other half: the mean test Spearman, its
    mean gain over ``base`` on the same halves, and how often each choice was chosen."""
    rng = random.Random(seed)
    order = list(range(len(base)))
    tested, gains, chosen = [], [], dict.fromkeys(values, 0)

    def rho(vals: Sequence[float], part: list[int]) -> float:
        return spearman([vals[i] for i in part], [days[i] for i in part])

    for _ in range(splits):
        rng.shuffle(order)
        half = len(order) // 2
        for fit, test in ((order[:half], order[half:]), (order[half:], order[:half])):
            best = max(values, key=lambda k: rho(values[k], fit))
            chosen[best] += 1
            tested.append(rho(values[best], test))
            gains.append(tested[-1] - rho(base, test))
    return sum(tested) / len(tested), sum(gains) / len(gains), chosen


def bootstrap(values: Sequence[float], days: Sequence[int], reps: int, seed: int) -> tuple:
    """The 5th and 95th percentiles of Spearman over resamples of the puzzles."""
    rng = random.Random(seed)
    n = len(values)
    found = []
    for _ in range(reps):
        picks = [rng.randrange(n) for _ in range(n)]
        found.append(spearman([values[i] for i in picks], [days[i] for i in picks]))
    found.sort()
    return found[reps // 20], found[-(reps // 20) - 1]


def fitted_exponent(
    waves: Sequence[Waves], days: Sequence[int], splits: int, seed: int
) -> tuple[float, float, dict[float, int]]:
    """``c²·Σ k^-b`` with ``b`` chosen on one half of a random 2-fold split and tested on the
    other: the mean test Spearman, its mean gain over today's ``b = 1``, and how often each
    ``b`` was chosen (what fitting the weekday buys on dailies it was not fitted on)."""
    grid = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.5)
    values = {
        b: [sum(c**COST_POWER * power_sum(n, b) for c, n in ws) for ws in waves] for b in grid
    }
    return held_out(values, values[1.0], days, splits, seed)


def fitted_power(
    waves: Sequence[Waves], days: Sequence[int], splits: int, seed: int
) -> tuple[float, float, dict[float, int]]:
    """``c^p·H(n)`` with ``p`` chosen on one half of a random 2-fold split and tested on the
    other, as :func:`fitted_exponent`, against today's ``p`` (:data:`COST_POWER`)."""
    grid = sorted({1.0, 1.5, 2.0, 2.5, 3.0, float(COST_POWER)})
    values = {p: [sum(c**p * harmonic(n) for c, n in ws) for ws in waves] for p in grid}
    return held_out(values, values[float(COST_POWER)], days, splits, seed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=300, help="random 2-fold splits (fitting)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not (SHARED_DATA / "tango_real.jsonl").exists():
        print(f"{SHARED_DATA} is not there: this script needs ../shared/data", file=sys.stderr)
        return 2
    tangos = list(tango_real(SHARED_DATA / "tango_real.jsonl"))
    days = [row["source_weekday_slot"] for row, _ in tangos]
    solves = [solve_of(data) for _, data in tangos]
    tango_waves = [ws for ws, _, _ in solves]
    binairos = [(row, waves_of(data)[0]) for row, data in binairo_external()]
    print(
        f"{len(tangos)} LinkedIn Tangos (weekday), {len(binairos)} binairos (site levels); "
        f"{args.splits} splits, {args.bootstrap} resamples, seed {args.seed}"
    )
    sites = ", ".join(sorted({row["source_site"] for row, _ in binairos}))
    print(f"{'formula':28} {'rho':>6} {'90 % interval':>14}  tau-b of effort: {sites}")
    for name, formula in FORMULAS.items():
        values = [formula(ws) for ws in tango_waves]
        low, high = bootstrap(values, days, args.bootstrap, args.seed)
        by_site: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
        for row, ws in binairos:
            by_site[row["source_site"]].append((row["level_index"], 0.0, formula(ws)))
        taus = ", ".join(f"{tau:.2f}" for _, _, _, _, tau in site_taus(by_site))
        print(f"{name:28} {spearman(values, days):6.3f} {f'[{low:.2f}, {high:.2f}]':>14}  {taus}")
    fewer = [-givens for _, givens, _ in solves]
    print(f"{'fewer givens (no solve)':28} {spearman(fewer, days):6.3f}")
    tested, gain, chosen = fitted_power(tango_waves, days, args.splits, args.seed)
    picks = ", ".join(f"{p:g}: {n}" for p, n in chosen.items() if n)
    print(
        f"c^p·H(n) with p fitted on a random half of the Tangos: rho {tested:.3f} on the other "
        f"half, {gain:+.3f} over p = {COST_POWER} (p chosen {picks})"
    )
    tested, gain, chosen = fitted_exponent(tango_waves, days, args.splits, args.seed)
    picks = ", ".join(f"{b:g}: {n}" for b, n in chosen.items() if n)
    print(
        f"c²·Σ k^-b with b fitted on a random half of the Tangos: rho {tested:.3f} on the other "
        f"half, {gain:+.3f} over b = 1 (b chosen {picks})"
    )
    first = puzzle_from_dict(tangos[0][1], "effort_variants", "costs")
    shipped = {t.name: t.cost for t in choose(first.family, first.model)}
    base, best, tested, gain = fitted_prices(
        [names for _, _, names in solves], shipped, days, max(args.splits // 3, 1), args.seed
    )
    print(
        f"techniques re-priced ({', '.join(PRICE_GRID)}; {len(list(product(*PRICE_GRID.values())))}"
        f" price sets): rho {base:.3f} at the shipped costs, at best {best:.3f} on all the "
        f"Tangos; fitted on a random half, rho "
        f"{tested:.3f} on the other half, {gain:+.3f} over the shipped costs"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
