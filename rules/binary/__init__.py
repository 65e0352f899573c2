"""Machinery shared by the binary families (binairo, tango): line automata (``lines``), the
balanced-line model (``model``), the techniques and their table (``techniques``), family hooks
(``family``) and random fills (``fill``)."""
