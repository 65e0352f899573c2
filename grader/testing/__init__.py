"""The conformance kit: one call runs a puzzle family through everything a user can do with it,
as scikit-learn's ``check_estimator`` does for estimators::

    from grader.testing import check_family, family_checks
    check_family("binairo")                 # raises FamilyCheckFailed listing each failure
    for check in family_checks("mine"):     # one at a time, e.g. a test each
        check()

The puzzles come from the family itself (a generated one, then one with two solutions, one
whose givens break a rule and one whose contradiction the techniques find), so a plugin family
needs nothing but its entry point. The checks: file round trips; ``grade`` in every output
(text, ``--trace``, ``--json --trace``, ``--html``), ``render``, ``hint`` and ``solve`` on the
four puzzles; ``--family``; ratings and canonical keys under every symmetry the family declares
(:meth:`grader.rating.family.Family.symmetric_copies`); generation in every declared (size, level);
levels out of reach refused; a plan run twice; ``--timeout`` at the largest size.

May import: every other layer of :mod:`grader` (it drives the command line as a user would).
"""

from grader.testing.cli import CliResult, run_cli, run_script
from grader.testing.kit import (
    CHECKS,
    Check,
    CheckFailed,
    FamilyCheckFailed,
    Kit,
    check_family,
    family_checks,
    rating,
)

__all__ = [
    "CHECKS",
    "Check",
    "CheckFailed",
    "CliResult",
    "FamilyCheckFailed",
    "Kit",
    "check_family",
    "family_checks",
    "rating",
    "run_cli",
    "run_script",
]
