"""Generation on workers: 1 worker, 2 local workers and a Dask cluster write the same file."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

from conftest import EXAMPLES
from grader.generation.generator import Generator, Outcome, Request, Selection
from grader.generation.parallel import ParallelGenerator, Workers, generate_run
from grader.rating.grading import grade
from grader.rating.loading import load
from grader.storage.bank import Bank


def written(tmp_path, name, request, **where) -> bytes:
    output = tmp_path / f"{name}.jsonl"
    result = generate_run(request, output=output, **where)
    assert result.gave_up is None and not result.interrupted
    return output.read_bytes()


def test_two_workers_and_dask_write_the_same_file_as_one(tmp_path):
    distributed = pytest.importorskip("distributed")
    request = Request("tango", (6, 6), "hard", count=6, seed=5)
    one = written(tmp_path, "one", request)
    two = written(tmp_path, "two", request, workers=2)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = written(tmp_path, "dask", request, dask=client)
    assert one == two == on_dask
    assert len(one.splitlines()) == 6


def test_duplicates_are_dropped_in_index_order_whatever_the_workers():
    # 4x4 Binairos are few: some indexes repeat an earlier puzzle and more indexes are asked for
    request = Request("binairo", (4, 4), "easy", count=20, seed=1)
    alone = list(Generator(request).puzzles())
    with Workers(2) as pool:
        spread = list(ParallelGenerator(request, pool).puzzles())
    assert [g.data for g in alone] == [g.data for g in spread]
    assert len({g.key for g in spread}) == 20
    indexes = [int(g.data["id"].rsplit("-", 1)[1]) for g in spread]
    assert indexes == sorted(indexes) and indexes[-1] > 20  # some indexes were copies


def test_a_puzzle_depends_on_the_seed_and_its_index_only():
    request = Request("tango", (6, 6), "normal", count=1, seed=9)
    fourth = Generator(request).outcome(3).puzzle
    run = list(Generator(Request("tango", (6, 6), "normal", count=4, seed=9)).puzzles())
    assert fourth is not None and run[3].data == fourth.data
    assert fourth.data["id"].endswith("-s9-4")


def test_excluded_keys_count_as_duplicates_and_start_skips_indexes():
    request = Request("tango", (6, 6), "normal", count=2, seed=9)
    first = list(Generator(request).puzzles())
    again = list(Generator(request).puzzles(exclude=[first[0].key]))
    assert again[0].data == first[1].data and again[1].key != first[0].key
    later = list(Generator(request).puzzles(start=1))
    assert later[0].data == first[1].data


def test_selection_stops_at_an_index_without_a_puzzle():
    generator = Generator(Request("tango", (6, 6), "normal", count=3, seed=1, timeout=60))
    selection = Selection(generator)
    assert selection.take(generator.outcome(0)) is not None
    assert selection.take(Outcome(1, None, 5, timed_out=True)) is None
    assert selection.wanted() == 0 and selection.timed_out
    assert "time limit" in (selection.gave_up or "")


def test_a_timeout_keeps_what_is_done(tmp_path):
    output = tmp_path / "out.jsonl"
    request = Request("binairo", (30, 30), "normal", count=50, seed=1, timeout=1.0)
    result = generate_run(request, output=output, workers=2)
    assert result.gave_up is not None and "time limit" in result.gave_up
    assert len(result.lines) < 50
    if result.lines:
        assert output.read_text().splitlines() == result.lines


def test_workers_bank_their_puzzles(tmp_path):
    bank = tmp_path / "site.db"
    request = Request("tango", (6, 6), "easy", count=3, seed=2)
    result = generate_run(request, workers=2, bank=bank)
    assert result.banked == (3, 0)
    with Bank(bank) as store:
        entries = store.query(family="tango")
    assert sorted(e.id for e in entries) == sorted(json.loads(x)["id"] for x in result.lines)
    assert {e.level for e in entries} == {"easy"}


def grader(*args: str, cwd=None) -> subprocess.CompletedProcess:
    code = "import sys; from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_the_command_writes_the_same_file_on_workers_and_on_dask(tmp_path):
    distributed = pytest.importorskip("distributed")
    args = ["generate", "tango", "--level", "hard", "-n", "5", "--seed", "8", "--no-progress"]
    outputs = [tmp_path / f"{name}.jsonl" for name in ("one", "two", "dask")]
    assert grader(*args, "-o", str(outputs[0])).returncode == 0
    assert grader(*args, "-o", str(outputs[1]), "--workers", "2").returncode == 0
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:
        result = grader(*args, "-o", str(outputs[2]), "--dask", cluster.scheduler_address)
    assert result.returncode == 0, result.stderr
    texts = {path.read_bytes() for path in outputs}
    assert len(texts) == 1 and len(outputs[0].read_text().splitlines()) == 5


def test_the_command_runs_a_plan_into_a_bank_and_resumes(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text('seed = 2\n[[row]]\nfamily = "tango"\nsize = 6\nlevel = "easy"\ncount = 3\n')
    bank = tmp_path / "site.db"
    first = grader("generate", "--plan", str(plan), "--bank", str(bank), "--workers", "2")
    assert first.returncode == 0, first.stderr
    assert "tango 6x6 easy: 3 of 3 (0 already in the bank, 3 added)" in first.stderr
    again = grader("generate", "--plan", str(plan), "--bank", str(bank))
    assert again.returncode == 0 and "(3 already in the bank, 0 added)" in again.stderr
    missing = grader("generate", "--plan", str(plan))
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    assert "--bank" in missing.stderr


@pytest.mark.parametrize(
    "example",
    [
        "binairo.json",
        "tango.json",
        "sudoku.json",
        "siteswap_sudoku.json",
        "pairplace.json",
        "path.json",
    ],
)
def test_a_graded_puzzle_of_every_family_travels_between_processes(example):
    """Workers send their puzzles back pickled: a puzzle whose model holds the lookups grading
    built (houses, plans) pickles without them and grades the same on arrival."""
    puzzle = load(EXAMPLES / example)[0]
    report = grade(puzzle).to_dict()
    assert puzzle.model.memo  # lookups were built
    arrived = pickle.loads(pickle.dumps(puzzle))
    assert not arrived.model.memo
    again = grade(arrived).to_dict()
    assert {k: again[k] for k in ("difficulty", "effort", "level", "techniques")} == {
        k: report[k] for k in ("difficulty", "effort", "level", "techniques")
    }


def test_a_line_rule_travels_without_the_supports_it_remembered():
    """The puzzles of a file share their unsigned lines' rules, which remember the supports of
    every puzzle graded: a pickled puzzle carries none of them, and grades the same."""
    from grader.core.constraints import Line

    puzzle = load(EXAMPLES / "binairo.json")[0]
    report = grade(puzzle).to_dict()
    rules = [c.rule for c in puzzle.model.constraints if isinstance(c, Line)]
    assert any(rule.__dict__.get("_support_cache") for rule in rules)
    arrived = pickle.loads(pickle.dumps(puzzle))
    arrived_rules = [c.rule for c in arrived.model.constraints if isinstance(c, Line)]
    assert not any(rule.__dict__.get("_support_cache") for rule in arrived_rules)
    assert grade(arrived).to_dict()["techniques"] == report["techniques"]


@pytest.mark.parametrize(
    ("family", "size", "level"),
    [
        ("binairo", (6, 6), "normal"),
        ("tango", (6, 6), "hard"),
        ("sudoku", (9, 9), "easy"),
        ("siteswap", (5, 5), "trivial"),
        ("pairplace", (4, 4), "easy"),
        ("path", (5, 5), "easy"),
    ],
)
def test_threads_generating_at_once_each_make_what_one_thread_makes_alone(family, size, level):
    """A dask worker runs its tasks in threads, as may a program using the package: four
    threads generating at once each make the puzzles one thread makes alone (every hint the
    generator tries asks the exact search, whose solvers are per thread: the race a shared
    one had is shown by ``tests/test_exact.py``, as it is rare here)."""
    from concurrent.futures import ThreadPoolExecutor

    def made(seed: int) -> list[dict]:
        request = Request(family, size, level, count=1, seed=seed)
        return [found.data for found in Generator(request).puzzles()]

    alone = [made(seed) for seed in range(4)]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(made, range(4)))
    assert together == alone


@pytest.mark.parametrize(
    "request_",
    [
        Request("binairo", (6, 6), None, count=1, seed=1, mode="unique"),
        Request("tango", (6, 6), "hard", count=1, seed=3, mode="unique"),
    ],
    ids=["binairo-unique", "tango-hard-unique"],
)
def test_a_unique_mode_puzzle_depends_on_the_seed_and_its_index_only(request_):
    """Classic mode asks the SAT solver for another solution: a solver shared with the
    puzzles made before would answer by what it learned from them, so a puzzle would depend
    on which indexes its worker made first."""
    from dataclasses import replace

    made = Generator(replace(request_, count=5))
    forwards = {i: made.outcome(i).puzzle.data for i in range(4)}
    backwards = Generator(replace(request_, count=5))
    assert {i: backwards.outcome(i).puzzle.data for i in reversed(range(4))} == forwards
