"""``grader serve``'s JSON API against a running server: every endpoint, and every refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import EXAMPLES
from grader.rating.grading import GradeOptions, grade
from grader.rating.loading import load, puzzle_from_dict
from grader.rating.registry import families
from serving import running_server

httpx = pytest.importorskip("httpx")

EXAMPLE_FILES = sorted(p.name for p in EXAMPLES.glob("*.json"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    bank = tmp_path_factory.mktemp("bank") / "bank.db"
    with (
        running_server("--bank", str(bank), "--workers", "2") as (url, process),
        httpx.Client(base_url=url, timeout=60) as client,
    ):
        client.bank = bank
        client.process = process
        yield client


def example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


def without_seconds(report: dict) -> dict:
    return {key: value for key, value in report.items() if key != "seconds"}


# ---------------------------------------------------------------------------------------------
# the endpoints
# ---------------------------------------------------------------------------------------------


def test_families_lists_every_family_with_an_example(server):
    answer = server.get("/api/families")
    assert answer.status_code == 200
    listed = {entry["name"]: entry for entry in answer.json()}
    assert set(listed) == set(families())
    for name, entry in listed.items():
        assert puzzle_from_dict(entry["example"], name, name).family.name == name
        assert entry["levels"] and len(entry["default_size"]) == 2


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_grade_is_the_report_grade_json_trace_prints(server, name):
    data = example(name)
    answer = server.post("/api/grade", json={"puzzle": data})
    assert answer.status_code == 200, answer.text
    expected = grade(puzzle_from_dict(data, "puzzle", "puzzle"), GradeOptions(timeout=10.0))
    assert without_seconds(answer.json()) == without_seconds(expected.to_dict(trace=True))


def test_grade_reads_the_text_formats(server):
    tatham = (EXAMPLES / "unruly.txt").read_text().splitlines()[1]
    linkedin = (EXAMPLES / "tango-export.jsonl").read_text()
    sudoku_line = "".join(example("sudoku.json")["grid"])
    for text, family in ((tatham, "binairo"), (linkedin, "tango"), (sudoku_line, "sudoku")):
        named = {"family": "tango"} if text == linkedin else {}  # its file does not say
        answer = server.post("/api/grade", json={"text": text, **named})
        assert answer.status_code == 200, answer.text
        report = answer.json()
        assert (report["family"], report["solutions"], report["solved"]) == (family, 1, True)


def test_a_text_naming_a_file_is_not_read(server, tmp_path):
    puzzle_file = tmp_path / "puzzle.json"
    puzzle_file.write_text((EXAMPLES / "binairo.json").read_text())
    answer = server.post("/api/grade", json={"text": str(puzzle_file)})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("text")


def test_load_gives_each_puzzle_of_a_text_as_a_file_holds_it(server):
    text = (EXAMPLES / "unruly.txt").read_text()
    answer = server.post("/api/load", json={"text": text})
    assert answer.status_code == 200
    puzzles = answer.json()["puzzles"]
    assert [p["family"] for p in puzzles] == ["binairo", "binairo"]
    for data, loaded in zip(puzzles, load(str(EXAMPLES / "unruly.txt")), strict=True):
        again = puzzle_from_dict(data, "again", "again")
        assert again.clue_state == loaded.clue_state


def test_hint_is_the_first_step_of_the_grade_with_its_evidence(server):
    data = example("tango.json")
    hint = server.post("/api/hint", json={"puzzle": data}).json()
    report = server.post("/api/grade", json={"puzzle": data}).json()
    assert hint["hint"] == report["steps"][0]
    assert hint["hint"]["evidence"]["cells"]
    assert hint["solutions"] == 1


def test_hint_is_what_grader_hint_json_prints(server):
    """The same payload as the command line, solved or not (one function makes both)."""
    import subprocess
    import sys

    grader = str(Path(sys.executable).parent / "grader")
    solved = example("sudoku.json")
    solved["grid"] = grade(puzzle_from_dict(solved, "sudoku", "sudoku")).to_dict()["grid"]
    for data in (example("tango.json"), example("sudoku.json"), solved):
        printed = subprocess.run(
            [grader, "hint", "--json", "--timeout", "10", "-"],
            input=json.dumps(data),
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        answered = server.post("/api/hint", json={"puzzle": data}).json()
        assert answered == {**json.loads(printed), "id": answered["id"]}


def test_two_copies_of_a_puzzle_in_one_text_keep_their_own_ids(server):
    """A worker keeps recent grades; a copy of a puzzle graded before is still named by
    its own place in the text."""
    line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    text = f"{line}\n{line}"
    asked = [1, 1, 2, 2]  # the workers take turns: each grades the first copy, then the second
    ids = [server.post("/api/grade", json={"text": text, "index": i}).json()["id"] for i in asked]
    assert ids == [f"text#{i}" for i in asked]


def test_render_draws_the_givens_a_step_and_the_solution(server):
    data = example("sudoku.json")
    givens = server.post("/api/render", json={"puzzle": data}).json()
    first = server.post("/api/render", json={"puzzle": data, "step": 1}).json()
    solution = server.post("/api/render", json={"puzzle": data, "solution": True}).json()
    assert givens["svg"].startswith("<svg") and givens["grid"]["rows"] == 9
    assert "#8fdc9c" in first["svg"] and "#8fdc9c" not in givens["svg"]  # the step's change
    report = server.post("/api/grade", json={"puzzle": data}).json()
    assert first["steps_count"] == len(report["steps"])
    solved_digits = sum(solution["svg"].count(f">{d}<") for d in "123456789")
    assert solved_digits == 81
    too_far = server.post("/api/render", json={"puzzle": data, "step": 999})
    assert too_far.status_code == 400 and too_far.json()["error"].startswith("step:")


def test_new_gives_an_empty_puzzle_of_the_size(server):
    answer = server.post("/api/new", json={"family": "sudoku", "size": "4x4"}).json()
    assert answer["puzzle"]["grid"] == ["...."] * 4
    report = server.post("/api/grade", json=answer).json()
    assert report["solutions"] == "2+"


def test_generate_makes_the_level_asked_reproducibly(server):
    asked = {"family": "binairo", "size": "6x6", "level": "easy", "seed": 4}
    first = server.post("/api/generate", json=asked).json()
    again = server.post("/api/generate", json=asked).json()
    assert first["puzzle"] == again["puzzle"]
    assert first["grade"]["level"] == "easy" and first["grade"]["solutions"] == 1
    regraded = server.post("/api/grade", json={"puzzle": first["puzzle"]}).json()
    assert without_seconds(regraded) == without_seconds(first["grade"]) | {"id": regraded["id"]}
    other = server.post("/api/generate", json=asked | {"seed": 5}).json()
    assert other["puzzle"]["grid"] != first["puzzle"]["grid"]


def test_the_bank_saves_lists_publishes_and_unpublishes(server):
    data = example("tango.json")
    saved = server.post("/api/bank", json={"puzzle": data})
    assert saved.status_code == 200, saved.text
    entry = saved.json()["entry"]
    assert saved.json()["added"] is True and entry["family"] == "tango"
    assert server.post("/api/bank", json={"puzzle": data}).json()["added"] is False
    listed = server.get("/api/bank", params={"family": "tango"}).json()
    assert entry["ref"] in [e["ref"] for e in listed["entries"]]
    published = server.post(f"/api/bank/{entry['ref']}/publish").json()
    assert published["published"]
    assert (
        server.get("/api/bank", params={"published": "true"}).json()["entries"][0]["ref"]
        == (entry["ref"])
    )
    assert server.post(f"/api/bank/{entry['ref']}/unpublish").json()["published"] is None
    assert server.get(f"/api/bank/{entry['ref']}").json()["ref"] == entry["ref"]
    assert Path(server.bank).exists()


def test_the_bank_refuses_what_it_cannot_store(server):
    two = server.post("/api/new", json={"family": "sudoku", "size": 4}).json()["puzzle"]
    refused = server.post("/api/bank", json={"puzzle": two})
    assert refused.status_code == 400 and "one solution" in refused.json()["error"]
    missing = server.get("/api/bank/nosuchref")
    assert missing.status_code == 404 and "no puzzle" in missing.json()["error"]
    bad = server.get("/api/bank", params={"order": "sideways"})
    assert bad.status_code == 400 and "order" in bad.json()["error"]


# ---------------------------------------------------------------------------------------------
# refusals
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b"{not json", "body: is not valid JSON"),
        (b"[1, 2]", "body: expected a JSON object"),
        (b'{"nothing": 1}', "puzzle: missing"),
        (b'{"puzzle": {"family": "sudoku", "grid": ["12"]}}', "puzzle: grid:"),
        (b'{"puzzle": {"family": "nosuch"}}', "puzzle: family: unknown family"),
        (b'{"text": 5}', "text: must be a string"),
        (b'{"text": "{\\"family\\": "}', "text: is not valid JSON"),
        (b'{"text": "6x6:BAFCHCebaf", "timeout": -1}', "timeout: must be more than 0"),
        (b'{"text": "6x6:BAFCHCebaf", "techniques": 3}', "techniques: must be"),
        (b'{"text": "6x6:BAFCHCebaf", "costs": {"nosuch": 1}}', "costs: nosuch:"),
        (b'{"text": "6x6:BAFCHCebaf", "index": 2}', "index: the text holds 1 puzzle"),
    ],
)
def test_bad_input_is_one_line_naming_the_field(server, body, field):
    answer = server.post("/api/grade", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    message = answer.json()["error"]
    assert message.startswith(field) and "\n" not in message


@pytest.mark.parametrize(
    ("asked", "field"),
    [
        ({"family": "nosuch"}, "family: unknown family"),
        ({"family": "binairo", "size": "big"}, "size:"),
        ({"family": "binairo", "size": "6x6", "level": "nosuch"}, "level"),
        ({"family": "binairo", "size": "6x6", "seed": -2}, "seed:"),
    ],
)
def test_generate_refuses_bad_requests_naming_the_field(server, asked, field):
    answer = server.post("/api/generate", json=asked)
    assert answer.status_code == 400, answer.text
    assert field in answer.json()["error"]


def test_a_body_over_one_mib_is_refused(server):
    big = json.dumps({"text": "x" * (1024 * 1024)})
    answer = server.post("/api/grade", content=big, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and answer.json()["error"].startswith("body")

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(20):
            yield b" " * 65536

    streamed = server.post("/api/grade", content=chunks())
    assert streamed.status_code == 413


def test_another_host_name_is_refused(server):
    port = server.base_url.port
    for host in (f"evil.example:{port}", f"127.0.0.1:{port + 1}", "localhost"):
        answer = server.get("/api/families", headers={"host": host})
        assert answer.status_code == 400 and answer.json()["error"].startswith("Host")
    for host in (f"localhost:{port}", f"[::1]:{port}", f"127.0.0.1:{port}"):
        assert server.get("/api/about", headers={"host": host}).status_code == 200


def test_a_post_from_another_sites_page_is_refused(server):
    port = server.base_url.port
    data = {"puzzle": example("tango.json")}
    answer = server.post("/api/bank", json=data, headers={"origin": "http://evil.example"})
    assert answer.status_code == 403 and answer.json()["error"].startswith("Origin")
    own = server.post("/api/grade", json=data, headers={"origin": f"http://localhost:{port}"})
    assert own.status_code == 200


def test_unknown_paths_and_methods_answer_json(server):
    missing = server.get("/api/nosuch")
    assert missing.status_code == 404 and "error" in missing.json()
    wrong = server.get("/api/grade")
    assert wrong.status_code == 405 and "error" in wrong.json()


def test_a_request_cut_short_by_the_time_limit_says_so(server):
    data = {"family": "binairo", "size": [40, 40], "grid": ["." * 40] * 40}
    answer = server.post("/api/grade", json={"puzzle": data, "timeout": 0.05})
    assert answer.status_code == 200
    report = answer.json()
    assert report["status"] == "timeout" or report["solutions"] is None
    assert any("timed out" in note for note in report["notes"])


def test_a_crashed_worker_leaves_the_server_up(server):
    import threading

    from serving import children

    slow = {}

    def generate_hard() -> None:
        asked = {"family": "sudoku", "level": "extreme", "seed": 3}
        slow["answer"] = server.post("/api/generate", json=asked)

    thread = threading.Thread(target=generate_hard)
    thread.start()
    import os
    import signal
    import time

    time.sleep(1.5)
    for pid in children(server.process.pid):
        os.kill(pid, signal.SIGKILL)
    thread.join(60)
    assert slow["answer"].status_code == 500
    assert "worker crashed" in slow["answer"].json()["error"]
    again = server.post("/api/grade", json={"puzzle": example("binairo.json")})
    assert again.status_code == 200 and again.json()["solved"]


def test_a_server_without_a_bank_says_so():
    with running_server("--workers", "1") as (url, _):
        answer = httpx.get(f"{url}/api/bank")
        assert answer.status_code == 404 and "--bank" in answer.json()["error"]
        assert httpx.get(f"{url}/api/about").json()["bank"] is None


# ---------------------------------------------------------------------------------------------
# starting it
# ---------------------------------------------------------------------------------------------


def test_serve_without_the_web_extra_says_how_to_install_it():
    from test_batch_extras import assert_names_the_install, run_without

    assert_names_the_install(run_without("starlette", "serve", "--port", "1"), "web")


def test_a_bad_bank_is_refused_before_the_server_starts(tmp_path):
    from test_batch_extras import run_without

    result = run_without("nothing", "serve", "--bank", str(tmp_path))
    assert result.returncode == 2 and result.stderr.startswith(f"error: {tmp_path}: ")
    assert "is a directory" in result.stderr


def test_another_host_prints_what_it_exposes():
    from grader.serve.app import Config
    from grader.serve.server import address, exposure

    assert exposure(Config()) is None and address(Config()) == "http://127.0.0.1:8000/"
    wide = Config(host="0.0.0.0", bank=Path("b.db"), allow_hosts=("box.lan",))
    warning = exposure(wide)
    assert "anyone who can reach this machine" in warning and "b.db" in warning
    assert "box.lan" in warning
