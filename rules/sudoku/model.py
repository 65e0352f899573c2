"""The Sudoku model: rows, columns and boxes, each all different, and the candidates a solver
starts from."""

from __future__ import annotations

from grader.constraints import AllDifferent
from grader.model import Model, State, Variable, cell_name, is_single
from rules.sudoku.file import symbols_for


def build_model(n: int, box: tuple[int, int]) -> Model:
    """The empty n x n sudoku with the given box shape."""
    br, bc = box
    variables = tuple(
        Variable(cell_name(r, c), (1 << n) - 1, r, c) for r in range(n) for c in range(n)
    )
    full = (1 << n) - 1
    constraints = []
    for r in range(n):
        constraints.append(AllDifferent([r * n + c for c in range(n)], f"row {r + 1}", full))
    for c in range(n):
        constraints.append(AllDifferent([r * n + c for r in range(n)], f"column {c + 1}", full))
    for b in range(n):
        r0, c0 = (b // (n // bc)) * br, (b % (n // bc)) * bc
        cells = [(r0 + i) * n + c0 + j for i in range(br) for j in range(bc)]
        constraints.append(AllDifferent(cells, f"box {b + 1}", full))
    symbols = dict(enumerate(symbols_for(n)))
    return Model(
        family="sudoku",
        rows=n,
        cols=n,
        variables=variables,
        constraints=tuple(constraints),
        symbols=symbols,
        key=f"sudoku {n} box={br}x{bc}",
        options={"box": [br, bc]},
    )


def crossed_out(model: Model, state: State) -> State:
    """The candidates a solver starts from: every given's value crossed out of its peers.

    Sudoku Explainer starts there too, so a given is never mistaken for a naked single. A cell
    left with one candidate stays open for the techniques (a naked or hidden single)."""
    from grader.techniques.houses import houses_of

    houses = houses_of(model)
    out = list(state)
    for var, mask in enumerate(state):
        if is_single(mask):
            for p in houses.peers[var]:
                if not is_single(state[p]):
                    out[p] &= ~mask
    return out
