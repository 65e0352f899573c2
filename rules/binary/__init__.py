"""Machinery shared by the binary families (binairo, tango): line automata and random fills."""
