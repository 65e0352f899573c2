"""Puzzle families: each module turns a puzzle file into a model of grader's constraints."""
