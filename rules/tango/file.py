"""The Tango file: the export layout read, and the signs checked and put in a canonical order.
The file's schema is in :mod:`rules.tango.schema`."""

from __future__ import annotations

from typing import Any

from grader.rating.family import require
from rules.tango.model import Sign

TANGO_SYMBOLS = {"S": 0, "M": 1}


EXPORT_FIELDS = {"rows": "grid", "constraints": "signs"}
"""The LinkedIn Tango export's names for the file's fields (``rules/tango`` reads both)."""


def from_export(data: dict[str, Any]) -> dict[str, Any]:
    """A Tango in the export layout (``rows``, ``constraints``, ``size`` as one number, and
    fields of its own such as ``linkedin_number``) as a Tango file; the fields the file does
    not know go to ``meta``. Any other dict is returned as it is."""
    if "grid" in data or "rows" not in data:
        return data
    from rules.tango.schema import TangoFile  # the export is JSON: validated by it next

    known = set(TangoFile.model_fields)
    out: dict[str, Any] = {}
    meta = dict(data.get("meta") or {})
    for key, value in data.items():
        key = EXPORT_FIELDS.get(key, key)
        if key in known and key != "meta":
            out[key] = value
        else:
            meta[key] = value
    if meta:
        out["meta"] = meta
    return out


def check_signs(signs: list[Sign], rows: int, cols: int) -> list[Sign]:
    """Signs in a canonical order, each between two orthogonal neighbours of the grid."""
    seen: set[tuple[int, int, int, int]] = set()
    out = []
    for i, (r1, c1, r2, c2, sign) in enumerate(signs):
        field = f"signs[{i}]"
        for r, c in ((r1, c1), (r2, c2)):
            require(0 <= r < rows and 0 <= c < cols, field, f"cell ({r}, {c}) is outside the grid")
        require(
            abs(r1 - r2) + abs(c1 - c2) == 1,
            field,
            f"cells ({r1}, {c1}) and ({r2}, {c2}) are not neighbours",
        )
        if (r2, c2) < (r1, c1):
            r1, c1, r2, c2 = r2, c2, r1, c1
        require((r1, c1, r2, c2) not in seen, field, "a second sign between the same two cells")
        seen.add((r1, c1, r2, c2))
        out.append((r1, c1, r2, c2, sign))
    return sorted(out)
