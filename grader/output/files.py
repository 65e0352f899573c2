"""Writing outputs whole or not at all, and never over a file the user did not offer."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from grader.core.errors import UsageError


def check_new(path: str | Path, force: bool) -> Path:
    """The output path, refused (one line) when it exists and ``force`` was not given; its
    folder is made when missing."""
    target = refuse_directory(path)
    if target.exists() and not force:
        raise UsageError(f"{target}: already exists (use --force to overwrite it)")
    make_folder(target)
    _probe(target)
    return target


def refuse_directory(path: str | Path) -> Path:
    """The output path, refused (one line) when it names an existing folder: said before
    anything else about it (its suffix, whether it may be overwritten)."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{target}: is a directory, expected an output file")
    return target


def _probe(target: Path) -> None:
    """Refuse at once (one line) a folder where no file can be written, before any work."""
    directory = target.parent if str(target.parent) else Path(".")
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".probe", dir=directory)
    except OSError as error:
        raise UsageError(f"{target}: cannot be written here ({_reason(error)})") from None
    os.close(handle)
    Path(name).unlink(missing_ok=True)


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def output_suffix(path: str | Path, suffixes: Sequence[str], kind: str) -> str:
    """The output file's suffix (lower case), refused in one line when not one of
    ``suffixes``: ``g.csv: unknown puzzle file format '.csv'; use .jsonl or .json``; a folder
    is refused as such."""
    suffix = refuse_directory(path).suffix.lower()
    if suffix not in suffixes:
        choices = ", ".join(suffixes[:-1]) + " or " + suffixes[-1]
        raise UsageError(f"{path}: unknown {kind} format {suffix or '(none)'!r}; use {choices}")
    return suffix


PUZZLE_SUFFIXES = (".jsonl", ".json")
"""The puzzle files commands write (``generate -o``, ``bank export -o``) and ``grade`` reads
back as the same puzzles."""


def puzzle_file_text(lines: Sequence[str], output: str | Path) -> str:
    """The puzzle file of these JSON lines (a puzzle each): one JSON array for a ``.json``
    file (:func:`grader.load` reads a ``.json`` file as one document), else JSON lines."""
    if Path(output).suffix.lower() == ".json":
        return "[\n" + ",\n".join(lines) + "\n]\n" if lines else "[]\n"
    return "".join(line + "\n" for line in lines)


def make_folder(target: Path) -> None:
    """Make the folder of an output file (and its parents) when missing; one line if that
    cannot be done (a file in the way, no permission)."""
    parent = target.parent if str(target.parent) else Path(".")
    if parent.is_dir():
        return
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(
            f"{target}: the folder {parent} cannot be made ({error.strerror or error})"
        ) from None


def write_atomic(path: str | Path, content: bytes | str | Callable[[Path], None]) -> Path:
    """Write ``content`` (bytes, text, or a function writing to a path) to a temporary file
    beside ``path`` and rename it into place, so readers never see a half-written file."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        handle, temp_name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".part" + target.suffix, dir=directory
        )
    except OSError as error:
        raise UsageError(f"{target}: cannot be written here ({_reason(error)})") from None
    temp = Path(temp_name)
    try:
        if callable(content):
            os.close(handle)
            content(temp)
        else:
            data = content.encode("utf-8") if isinstance(content, str) else content
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, target)
    except OSError as error:
        temp.unlink(missing_ok=True)
        raise UsageError(f"{target}: cannot be written ({_reason(error)})") from None
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
