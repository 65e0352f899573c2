"""Output: what a graded puzzle looks like to a person or a program.

The JSON report's keys (:mod:`grader.output.report_keys`), the text report
(:mod:`grader.output.report`), pictures of boards and steps (:mod:`grader.output.render`), the
HTML trace, histograms of collections, and writing files whole or not at all
(:mod:`grader.output.files`).

May import: :mod:`grader.core`, :mod:`grader.techniques` and :mod:`grader.rating`.
"""
