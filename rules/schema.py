"""The fields every puzzle file may carry, as a pydantic model each family's schema extends.
Imported only when a file is validated (pydantic's import is a third of a process's
start-up); the shared reading of rows of symbols is in :mod:`rules.cells`.

Every field has a ``description``: the manual's file-format page shows it (``docs/gen``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class PuzzleFileBase(BaseModel):
    """Fields every puzzle file may carry besides its family's own."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    id: str | int | None = Field(
        default=None,
        description="the puzzle's name in reports and the bank; default: the file's name "
        "without its suffix (NAME#N for the N-th puzzle of a list, .jsonl or text file)",
    )
    name: str | None = Field(
        default=None, description="a title, shown in reports and above the HTML explanation"
    )
    source: str | None = Field(
        default=None, description="where the puzzle comes from (kept by the bank)"
    )
    author: str | None = Field(default=None, description="who set it (kept by the bank)")
    notes: str | None = Field(default=None, description="free text for people; not read")
    meta: dict[str, Any] | None = Field(
        default=None,
        description="any object, kept as it is (the generator writes its level, difficulty, "
        "seed and settings here)",
    )
