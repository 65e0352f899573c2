"""Command line: ``grade FILE...`` and ``grader COMMAND``, one module per group of commands.

- :mod:`grader.cli.common`: the apps, shared options, exit codes, ``--debug``, the entry logic;
- :mod:`grader.cli.grading`: ``grade`` (also ``grader grade``), ``solve``, ``hint``;
- :mod:`grader.cli.generate`: ``generate``;
- :mod:`grader.cli.batch`: ``batch``, ``histogram``;
- :mod:`grader.cli.bank`: ``bank list``, ``bank show``, ``bank export``;
- :mod:`grader.cli.render`: ``render``;
- :mod:`grader.cli.info`: ``schema``, ``techniques``, ``families``, ``canon``;
- :mod:`grader.cli.serve`: ``serve`` (the workbench in the browser, :mod:`grader.serve`).

Each command is a thin layer over library functions the notebooks and the Python API call too.
Exit codes: 0 every puzzle was graded (whatever the verdict); 2 bad input or options (one line
names the file, the field and the problem); 3 a time limit cut a report short; 1 an internal
error (``--debug`` shows the traceback); 130 interrupted.

May import: every layer of :mod:`grader` but :mod:`grader.testing`.
"""

from __future__ import annotations

from grader.cli import (  # noqa: F401 (they register)
    bank,
    batch,
    generate,
    grading,
    info,
    render,
    serve,
)
from grader.cli.common import grade_app, grader_app, main

__all__ = ["grade_app", "grade_main", "grader_app", "grader_main"]

ORDER = (
    "grade",
    "solve",
    "hint",
    "schema",
    "techniques",
    "families",
    "render",
    "generate",
    "canon",
    "batch",
    "histogram",
    "serve",
)
"""How ``grader --help`` lists the commands (``bank`` and its subcommands come last)."""
grader_app.registered_commands.sort(key=lambda command: ORDER.index(command.name))


def grade_main() -> None:
    """The ``grade`` script."""
    main(grade_app, "grade")


def grader_main() -> None:
    """The ``grader`` script."""
    main(grader_app, "grader")
