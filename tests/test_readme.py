"""Every command of the README's "Using it" and "Making puzzles" sections, and of the manual's
pages of the same names, runs as written from a fresh copy of the repository (the files
``git ls-files`` lists) and exits 0; every JSON puzzle shown there or on a family's notes loads.

The README's two opening commands (install, run the tests) are what CI runs already.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, copy_checkout

SECTIONS = ("## Using it", "## Making puzzles")
"""The README's sections whose commands run."""
PAGES = ("docs/using.md", "docs/making-puzzles.md")
"""The manual's pages whose commands all run."""


def sh_commands(text: str) -> list[str]:
    """The command lines of the ``sh`` blocks of a Markdown text (comments left out)."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                commands.append(line)
    return commands


def readme_commands() -> list[str]:
    """The commands of the README's :data:`SECTIONS` and of the manual's :data:`PAGES`, each
    once, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for heading in SECTIONS:
        start = text.index(heading + "\n")
        end = text.find("\n## ", start + len(heading))
        commands += sh_commands(text[start : end if end >= 0 else len(text)])
    for page in PAGES:
        commands += sh_commands((ROOT / page).read_text(encoding="utf-8"))
    return list(dict.fromkeys(commands))


def readme_puzzles() -> list[str]:
    """The lines of the JSON puzzle examples of the README, the manual and the families'
    notes."""
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    texts += sorted((ROOT / "rules").glob("*/about.md"))
    out = []
    for path in texts:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"```json\n(.*?)```", text, flags=re.S):
            out.extend(re.split(r"\n(?=\{)", block.strip()))
    return out


@pytest.fixture(scope="module")
def fresh_copy(tmp_path_factory) -> Path:
    """The repository's tracked files (and the files not yet committed) in a new folder."""
    target = tmp_path_factory.mktemp("clone")
    copy_checkout(target)
    return target


def test_the_sections_hold_commands():
    commands = readme_commands()
    assert len(commands) >= 20
    assert all(c.split()[0] in ("grade", "grader") for c in commands), commands


def test_every_readme_command_runs_as_written(fresh_copy):
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env["MPLBACKEND"] = "Agg"
    before = set(files_in(fresh_copy))
    for _ in range(2):  # a user runs the block again: it must not trip over its own outputs
        for command in readme_commands():
            words = shlex.split(command, comments=True)
            expanded = []
            for word in words:  # the shell's globbing, without a shell
                matches = sorted(str(p.relative_to(fresh_copy)) for p in fresh_copy.glob(word))
                expanded.extend(matches if any(ch in word for ch in "*?[") and matches else [word])
            result = subprocess.run(
                expanded, cwd=fresh_copy, env=env, capture_output=True, text=True, timeout=300
            )
            assert result.returncode == 0, f"{command}\n{result.stderr[-2000:]}"
    left = sorted(set(files_in(fresh_copy)) - before)
    assert all(name.startswith("out/") for name in left), left  # /out/ is git-ignored


def files_in(folder: Path) -> list[str]:
    """Every file under ``folder``, relative to it."""
    return [str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()]


@pytest.mark.parametrize("line", readme_puzzles())
def test_every_readme_puzzle_loads(line):
    import json

    from grader.rating.loading import puzzle_from_dict

    puzzle_from_dict(json.loads(line), "README", "README")


README_MAX_LINES = 200
"""The README is a front door: what it is, the two commands, a tour, where the manual is."""
TRACE_MARK = re.compile(r"<!-- trace: (.+?) -->\n```\n(.*?)```", flags=re.S)
"""A trace shown in the docs: the command that prints it, then the excerpt."""
STEP_LINE = re.compile(r"^\s*\d+\. \[")


def step_lines(text: str) -> list[str]:
    """The numbered steps of a trace, each on one line (a wrapped step's lines joined), with
    runs of spaces made one."""
    steps: list[str] = []
    for line in text.splitlines():
        if STEP_LINE.match(line):
            steps.append(line.strip())
        elif steps and line.strip():
            steps[-1] += " " + line.strip()
    return [" ".join(step.split()) for step in steps]


def shown_traces() -> list[tuple[str, str, str]]:
    """(page, command, excerpt) for every trace the README and the manual show."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    pages += sorted((ROOT / "rules").glob("*/about.md"))
    found = []
    for page in pages:
        for command, excerpt in TRACE_MARK.findall(page.read_text(encoding="utf-8")):
            found.append((str(page.relative_to(ROOT)), command, excerpt))
    return found


def test_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES
    assert "## Using it" in lines and "## The manual" in lines


def test_the_shown_traces_are_marked():
    pages = {page for page, _, _ in shown_traces()}
    assert {"README.md", "docs/using.md", "docs/getting-started.md"} <= pages


@pytest.mark.parametrize("page, command, excerpt", shown_traces())
def test_a_shown_trace_is_what_the_program_prints(page, command, excerpt):
    """Every step of an excerpt is a step the command prints today, in the same order."""
    bin_dir = Path(sys.executable).parent
    words = shlex.split(command)
    result = subprocess.run(
        [str(bin_dir / words[0]), *words[1:]], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    printed = step_lines(result.stdout)
    shown = step_lines(excerpt)
    assert shown, f"{page}: the trace of {command!r} shows no step"
    positions = [printed.index(step) if step in printed else -1 for step in shown]
    missing = [step for step, at in zip(shown, positions, strict=True) if at < 0]
    assert missing == [], f"{page}: {command!r} no longer prints these steps"
    assert positions == sorted(positions), f"{page}: steps shown out of order"


def test_the_readme_picture_is_what_render_draws(tmp_path):
    """The README's picture of a step is what the command under it draws today."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"`(grader render [^`]+ -o (docs/images/\S+\.svg) --force)`", text)
    assert command and f"]({command.group(2)})" in text
    words = shlex.split(command.group(1))
    words[words.index("-o") + 1] = str(tmp_path / "step.svg")
    bin_dir = Path(sys.executable).parent
    result = subprocess.run(
        [str(bin_dir / words[0]), *words[1:]], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    drawn = (tmp_path / "step.svg").read_bytes()
    assert drawn == (ROOT / command.group(2)).read_bytes(), "run the command to redraw it"
