"""Sudoku Explainer's chains, rated on its scale: static chains and cycles, Nishio, multiple and
dynamic forcing chains, and chains nested in chains (SE 6.5 to 11+).

:mod:`rules.sudoku.chains.chaining` is the reference in Python; the kernels compiled by numba
(:mod:`~rules.sudoku.chains.propagation_jit`, :mod:`~rules.sudoku.chains.search_jit`,
:mod:`~rules.sudoku.chains.static_jit`) give the same results faster, and
:mod:`~rules.sudoku.chains.reach` says when a kind of chain cannot find anything.
"""
