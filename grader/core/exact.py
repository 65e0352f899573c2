"""Exact search: counts solutions (0, 1, 2+) with a SAT solver, independent of the techniques.

Each constraint kind encodes itself into CNF over one-hot literals ``x[var, value]``. One solver
is built per model key (family, size, options, fixed structure) and thread, and reused: a
puzzle's givens and eliminations are passed as assumptions, so asking "is it still unique
without this clue?" costs one incremental call. Constraints that cannot be written up front (a
path's "no separate loop") register a lazy check that adds cutting clauses when a candidate
solution breaks them.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from grader.core.clock import ambient_deadline
from grader.core.model import Model, State, is_single, single_value, values_of

if TYPE_CHECKING:
    from pysat.solvers import Solver

SOLVER_NAME = "g4"
"""Glucose 4.1: as fast as CaDiCaL 1.9.5 on our counts (measured: 9x9 to 25x25 sudokus, binary
grids) and, unlike it in PySAT, interruptible, which ``--timeout`` needs."""
LazyCheck = Callable[[Sequence[int]], list[list[int]]]


@lru_cache(maxsize=4096)
def totalizer(n: int, bound: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Clauses saying exactly ``bound`` of the literals 1..n hold (totalizer), and the top
    variable: 1..n stand for the caller's literals, the rest are auxiliaries. Each shape is
    encoded once per process: PySAT's totalizer keeps about 4 KB of native memory per call,
    which made a long run over many Path puzzles grow by gigabytes."""
    from pysat.card import CardEnc, EncType

    formula = CardEnc.equals(
        list(range(1, n + 1)), bound=bound, top_id=n, encoding=EncType.totalizer
    )
    return tuple(tuple(clause) for clause in formula.clauses), max(formula.nv, n)


def exactly(lits: Sequence[int], bound: int, top_id: int) -> tuple[list[list[int]], int]:
    """The clauses of "exactly ``bound`` of ``lits``" (totalizer) with auxiliaries after
    ``top_id``, and the new top variable: PySAT's ``CardEnc.equals`` clauses, from the
    :func:`totalizer` of this shape."""
    n = len(lits)
    clauses, top = totalizer(n, bound)
    shift = top_id - n  # placeholders 1..n are ``lits``; auxiliaries follow top_id
    out = [
        [
            (lits[abs(x) - 1] if x > 0 else -lits[-x - 1])
            if abs(x) <= n
            else (x + shift if x > 0 else x - shift)
            for x in clause
        ]
        for clause in clauses
    ]
    return out, max(top_id, top + shift)


class CnfBuilder:
    """Collects the clauses of a model over one-hot literals."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.top = 0
        self.clauses: list[list[int]] = []
        self.lazy: list[LazyCheck] = []
        self._lits: list[dict[int, int]] = []
        for variable in model.variables:
            lits = {value: self.new_var() for value in values_of(variable.domain)}
            self._lits.append(lits)
            self.exactly_one(list(lits.values()))
        self._true: int | None = None

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def lit(self, var: int, value: int) -> int:
        return self._lits[var][value]

    def has(self, var: int, value: int) -> bool:
        return value in self._lits[var]

    def true_lit(self) -> int:
        if self._true is None:
            self._true = self.new_var()
            self.add([self._true])
        return self._true

    def add(self, clause: Sequence[int]) -> None:
        self.clauses.append(list(clause))

    def at_most_one(self, lits: Sequence[int]) -> None:
        if len(lits) <= 6:
            for i, a in enumerate(lits):
                for b in lits[i + 1 :]:
                    self.add([-a, -b])
        else:
            from pysat.card import CardEnc, EncType

            self._card(
                CardEnc.atmost(list(lits), bound=1, top_id=self.top, encoding=EncType.seqcounter)
            )

    def exactly_one(self, lits: Sequence[int]) -> None:
        self.add(lits)
        self.at_most_one(lits)

    def equals(self, lits: Sequence[int], bound: int) -> None:
        """Exactly ``bound`` of ``lits`` are true (totalizer encoding)."""
        clauses, self.top = exactly(lits, bound, self.top)
        self.clauses.extend(clauses)

    def differ(self, first: Sequence[int], second: Sequence[int]) -> list[int]:
        """A clause true only if the two variable sequences differ somewhere."""
        clause = []
        for a, b in zip(first, second, strict=True):
            d = self.new_var()
            common = set(self._lits[a]) & set(self._lits[b])
            for value in common:
                self.add([-d, -self.lit(a, value), -self.lit(b, value)])
            clause.append(d)
        return clause

    def _card(self, formula) -> None:
        self.top = max(self.top, formula.nv)
        self.clauses.extend(formula.clauses)

    def decode(self, true_lits: Sequence[int]) -> list[int]:
        positive = {lit for lit in true_lits if lit > 0}
        return [
            next(value for value, lit in lits.items() if lit in positive) for lits in self._lits
        ]


class SearchTimeout(Exception):
    """The exact search ran out of time."""


def pysat_call(call: Callable[[], bool | None]) -> bool | None:
    """A PySAT solve, with Ctrl-C caught inside the solver raised as KeyboardInterrupt (PySAT
    reports it as an error of no class of its own)."""
    try:
        return call()
    except Exception as error:
        if "keyboard interrupt" in str(error).lower():
            raise KeyboardInterrupt from None
        raise


def sat_solve(solver: Solver, assumptions: Sequence[int] = ()) -> bool:
    """``solver.solve`` that never mistakes an interrupted call (PySAT answers None) for
    unsatisfiable."""
    result = pysat_call(lambda: solver.solve(assumptions=assumptions))
    if result is None:
        raise KeyboardInterrupt
    return result


class ExactSearch:
    """A reusable SAT solver for one model key."""

    def __init__(self, model: Model, deadline: float | None = None) -> None:
        """Encode ``model``; clauses go to the solver constraint by constraint (a 200x200
        binairo has 17 million: kept as Python lists they took 4 GB, in the solver 1.1 GB;
        the k-modulo totalizer has 5x fewer clauses but made a 100x100 count 23x slower).
        Past ``deadline`` the half-built solver is dropped and :class:`SearchTimeout` raised."""
        from pysat.solvers import Solver  # imported when used: a puzzle the techniques
        # solve needs no exact search, and PySAT takes 10 ms to import

        self.model = model
        self.solver = Solver(name=SOLVER_NAME)
        self.cnf = CnfBuilder(model)
        self.calls = 0
        try:
            self._flush()
            for index, constraint in enumerate(model.constraints):
                constraint.encode(self.cnf)
                if len(self.cnf.clauses) > 10_000 or not index % 64:
                    self._flush()
                    if deadline is not None and time.monotonic() > deadline:
                        raise SearchTimeout
            self._flush()
        except BaseException:
            self.solver.delete()
            raise

    def _flush(self) -> None:
        """Hand the clauses collected so far to the solver."""
        if self.cnf.clauses:
            self.solver.append_formula(self.cnf.clauses)
            self.cnf.clauses = []

    def assumptions(self, state: State) -> list[int]:
        """Literals fixing the givens and excluding eliminated candidates."""
        out = []
        for var, mask in enumerate(state):
            domain = self.model.variables[var].domain
            if mask == domain:
                continue
            if is_single(mask):
                out.append(self.cnf.lit(var, single_value(mask)))
            else:
                out.extend(-self.cnf.lit(var, v) for v in values_of(domain & ~mask))
        return out

    def solve(
        self, state: State, extra: Sequence[int] = (), deadline: float | None = None
    ) -> list[int] | None:
        """One solution consistent with ``state`` (values per variable), or None."""
        return self._solution(self.assumptions(state) + list(extra), deadline)

    def _solution(self, assumptions: list[int], deadline: float | None) -> list[int] | None:
        """A solution meeting the literals ``assumptions`` that passes the lazy checks (each
        failure adds its cuts and the solver goes on), or None."""
        while True:
            if not self._solve(assumptions, deadline):
                return None
            values = self.cnf.decode(self.solver.get_model())
            cuts = [cut for check in self.cnf.lazy for cut in check(values)]
            if not cuts:
                return values
            for cut in cuts:
                self.solver.add_clause(cut)

    def needed_givens(
        self, state: State, deadline: float | None = None, budget: float | None = None
    ) -> set[int]:
        """The variables ``state`` fixes to one value without which, every other one kept,
        some solution takes another value there: the givens a unique puzzle cannot lose
        alone. One solver call each, in variable order; the literals are built once (a model
        is decoded only where lazy checks must see it). With ``budget`` (CPU seconds) the
        calls stop once they have taken that long: those found so far, a subset."""
        started = time.process_time()
        domains = [variable.domain for variable in self.model.variables]
        fixed = {
            var: self.cnf.lit(var, single_value(mask))
            for var, mask in enumerate(state)
            if is_single(mask) and mask != domains[var]
        }
        rest = self.assumptions([domains[v] if v in fixed else m for v, m in enumerate(state)])
        needed = set()
        for var, lit in fixed.items():
            assumptions = [*rest, *(other for v, other in fixed.items() if v != var), -lit]
            if self.cnf.lazy:
                found = self._solution(assumptions, deadline) is not None
            else:
                found = self._solve(assumptions, deadline)
            if found:
                needed.add(var)
            if budget is not None and time.process_time() - started > budget:
                break
        return needed

    def count(
        self, state: State, limit: int = 2, deadline: float | None = None
    ) -> tuple[int, list[list[int]]]:
        """Number of solutions up to ``limit``, and those found."""
        found: list[list[int]] = []
        blockers: list[int] = []
        while len(found) < limit:
            solution = self.solve(state, blockers, deadline)
            if solution is None:
                break
            found.append(solution)
            selector = self.cnf.new_var()
            self.solver.add_clause(
                [-selector] + [-self.cnf.lit(v, value) for v, value in enumerate(solution)]
            )
            blockers.append(selector)
        for selector in blockers:
            self.solver.add_clause([-selector])
        return len(found), found

    def is_possible(self, state: State, var: int, value: int) -> bool:
        """Whether some solution consistent with ``state`` has ``var = value``."""
        if not (state[var] >> value) & 1:
            return False
        return self.solve(state, [self.cnf.lit(var, value)]) is not None

    def _solve(self, assumptions: list[int], deadline: float | None) -> bool:
        self.calls += 1
        if deadline is None:
            return sat_solve(self.solver, assumptions)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise SearchTimeout
        timer = threading.Timer(remaining, self.solver.interrupt)
        timer.start()
        try:
            result = pysat_call(
                lambda: self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            )
        finally:
            timer.cancel()
            self.solver.clear_interrupt()
        if result is None:
            if time.monotonic() < deadline:
                raise KeyboardInterrupt  # not our timer: Ctrl-C inside the solver
            raise SearchTimeout
        return bool(result)


class Solvers(OrderedDict[str, ExactSearch]):
    """One thread's shared solvers by model key, least recently used first. Each thread has
    its own: a solver answers one call at a time (PySAT lets other threads run while it
    solves, and a call reads its answer from the solver after it returns), so two threads
    sharing one got each other's solutions and wrong counts (``tests/test_exact.py``)."""


_CACHE_SIZE = 8
_local = threading.local()
_every_thread: weakref.WeakValueDictionary[int, Solvers] = weakref.WeakValueDictionary()
"""Every live thread's solvers, for :func:`_release_solvers` (a thread's go when it ends)."""
_every_thread_lock = threading.Lock()


def _fresh_registry_lock() -> None:
    """In a forked child, no other thread is left to release the lock if it was held."""
    global _every_thread_lock
    _every_thread_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_registry_lock)


def solvers() -> Solvers:
    """This thread's solvers."""
    cache = getattr(_local, "solvers", None)
    if cache is None:
        cache = _local.solvers = Solvers()
        with _every_thread_lock:
            _every_thread[id(cache)] = cache
    return cache


@atexit.register
def _release_solvers() -> None:
    """Delete the shared solvers before the interpreter tears modules down: PySAT is imported
    on first use, after this module, so at exit its own module may be gone when a solver left
    for the garbage collector is deleted (a noisy "Exception ignored" on stderr)."""
    with _every_thread_lock:
        caches = list(_every_thread.values())
    for cache in caches:
        _delete_all(cache)


def forget_solvers() -> None:
    """Delete this thread's solvers (the next search builds a fresh one)."""
    _delete_all(solvers())


def _delete_all(cache: Solvers) -> None:
    while cache:
        _, search = cache.popitem()
        search.solver.delete()


REBUILD_AFTER = 1000
"""Solver calls after which a shared solver is rebuilt: every count leaves its blocking clauses
(and the solver its learnt clauses) behind, so memory would grow with every puzzle graded."""


def search_for(model: Model, deadline: float | None = None) -> ExactSearch:
    """This thread's shared solver for the model's key (built on first use, least recently
    used evicted, rebuilt after :data:`REBUILD_AFTER` calls so that a long batch stays flat);
    building it past ``deadline`` raises :class:`SearchTimeout`."""
    cache = solvers()
    search = cache.get(model.key)
    if search is not None and search.calls > REBUILD_AFTER:
        del cache[model.key]
        search.solver.delete()
        search = None
    if search is not None:
        cache.move_to_end(model.key)
        return search
    if deadline is not None and time.monotonic() > deadline:
        raise SearchTimeout  # before the encoding's first steps (40000 cells' one-hot clauses)
    search = ExactSearch(model, deadline)
    cache[model.key] = search
    while len(cache) > _CACHE_SIZE:
        _, old = cache.popitem(last=False)
        old.solver.delete()
    return search


def count_solutions(
    model: Model, state: State, limit: int = 2, deadline: float | None = None
) -> tuple[int, list[list[int]]]:
    """Solutions of the puzzle in ``state`` up to ``limit``, with the ones found. Past
    ``deadline`` (by default the ambient one, :mod:`grader.core.clock`) it raises
    :class:`SearchTimeout`."""
    if deadline is None:
        deadline = ambient_deadline()
    return search_for(model, deadline).count(state, limit, deadline)
