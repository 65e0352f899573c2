"""The fields every puzzle file may carry, as a pydantic model each family's schema extends.
Imported only when a file is validated (pydantic's import is a third of a process's
start-up); the shared reading of rows of symbols is in :mod:`rules.cells`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class PuzzleFileBase(BaseModel):
    """Fields every puzzle file may carry besides its family's own."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    id: str | int | None = None
    name: str | None = None
    source: str | None = None
    author: str | None = None
    notes: str | None = None
    meta: dict[str, Any] | None = None
