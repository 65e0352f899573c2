"""The engine core: what every family and every command stands on.

The model (variables with candidate bitmasks, constraints over them, line automata), a step and
its evidence, the technique base class, the propagation loop (:mod:`grader.core.engine`), the
exact search (SAT) and the randomized backtracking search, effort, explanation helpers, board
symmetries, graph searches, errors, seconds as messages print them and the program's version.

May import: the standard library and third-party libraries only. Never imports
:mod:`grader.techniques`, :mod:`grader.rating`, :mod:`grader.output`, :mod:`grader.storage`,
:mod:`grader.generation`, :mod:`grader.cli` or :mod:`grader.testing`, and knows no family by
name (``tests/test_layers.py`` holds it to that).
"""
