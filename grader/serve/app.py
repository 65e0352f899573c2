"""The web app: the page's files and the JSON API (``/api/...``), on Starlette.

Every route that grades, draws or generates sends its body to a worker
(:mod:`grader.serve.workers`, running :func:`grader.serve.jobs.run`) under the server's time
limit; the bank is read and written here, only the file named at start.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from grader.serve import banking, jobs
from grader.serve.security import Guard, allowed_hosts
from grader.serve.workers import JobFailed, Workers

STATIC = Path(__file__).parent / "static"
GRACE_SECONDS = 5.0
"""Time a job has past the request's limit before its worker is killed (the techniques and
the exact search stop by themselves at the limit; this is for what does not)."""


@dataclass(frozen=True)
class Config:
    """What ``grader serve`` was started with."""

    host: str = "127.0.0.1"
    port: int = 8000
    bank: Path | None = None
    workers: int = 2
    timeout: float = 10.0
    allow_hosts: tuple[str, ...] = field(default_factory=tuple)


class BadRequest(Exception):
    """A request refused with one line (400 unless ``status`` says otherwise)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def body_of(request: Request) -> dict[str, Any]:
    """The request's JSON object, or :class:`BadRequest` naming what is wrong."""
    raw = await request.body()
    try:
        data = json.loads(raw.decode("utf-8-sig") or "null")
    except UnicodeDecodeError:
        raise BadRequest("body: is not UTF-8 text") from None
    except json.JSONDecodeError as problem:
        raise BadRequest(
            f"body: is not valid JSON (line {problem.lineno} column {problem.colno}: {problem.msg})"
        ) from None
    except RecursionError:
        raise BadRequest("body: is not valid JSON (nested too deeply)") from None
    if not isinstance(data, dict):
        raise BadRequest("body: expected a JSON object")
    return data


async def work(request: Request, kind: str, body: dict[str, Any] | None = None) -> Any:
    """Job ``kind`` on the request's body, in a worker; its answer or :class:`BadRequest`."""
    config: Config = request.app.state.config
    workers: Workers = request.app.state.workers
    body = await body_of(request) if body is None else body
    answer = await workers.run(
        jobs.run,
        kind,
        body,
        config.timeout,
        limit=jobs.STAGES.get(kind, 1) * config.timeout + GRACE_SECONDS,
        gone=request.is_disconnected,
    )
    if "error" in answer:
        raise BadRequest(answer["error"], answer["status"])
    return answer["ok"]


def job_route(kind: str):
    """A route answering with job ``kind``'s data."""

    async def endpoint(request: Request) -> JSONResponse:
        return JSONResponse(await work(request, kind))

    endpoint.__name__ = f"{kind}_endpoint"
    return endpoint


async def index(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html")


async def about(request: Request) -> JSONResponse:
    """The server's version and settings (the page shows the bank's part when there is one)."""
    from grader.core.version import __version__

    config: Config = request.app.state.config
    return JSONResponse(
        {
            "version": __version__,
            "bank": str(config.bank) if config.bank else None,
            "timeout": config.timeout,
            "workers": config.workers,
        }
    )


async def family_list(request: Request) -> JSONResponse:
    """Every installed family: name, title, sizes, levels, options and an example puzzle."""
    from grader.rating.registry import families

    return JSONResponse(
        [
            {
                "name": name,
                "title": family.title,
                "default_size": list(family.default_size),
                "largest_size": list(family.largest_size) if family.largest_size else None,
                "levels": list(family.levels),
                "options": dict(family.options),
                "example": family.example,
            }
            for name, family in families().items()
        ]
    )


# ---------------------------------------------------------------------------------------------
# the bank
# ---------------------------------------------------------------------------------------------


async def bank_list(request: Request) -> JSONResponse:
    return JSONResponse(await banking.listing(_bank(request), dict(request.query_params)))


async def bank_save(request: Request) -> JSONResponse:
    path = _bank(request)
    record = await work(request, "record")
    return JSONResponse(await banking.save(path, record))


async def bank_entry(request: Request) -> JSONResponse:
    return JSONResponse(await banking.entry(_bank(request), request.path_params["ref"]))


async def bank_publish(request: Request) -> JSONResponse:
    path, ref = _bank(request), request.path_params["ref"]
    return JSONResponse(await banking.publish(path, ref, True))


async def bank_unpublish(request: Request) -> JSONResponse:
    path, ref = _bank(request), request.path_params["ref"]
    return JSONResponse(await banking.publish(path, ref, False))


def _bank(request: Request) -> Path:
    config: Config = request.app.state.config
    if config.bank is None:
        raise BadRequest("bank: this server has none (start it with --bank FILE.db)", 404)
    return config.bank


# ---------------------------------------------------------------------------------------------
# the app
# ---------------------------------------------------------------------------------------------


async def bad_request(request: Request, problem: Exception) -> JSONResponse:
    assert isinstance(problem, BadRequest)
    return error(str(problem), problem.status)


async def bank_problem(request: Request, problem: Exception) -> JSONResponse:
    assert isinstance(problem, banking.BankProblem)
    return error(str(problem), problem.status)


async def job_failed(request: Request, problem: Exception) -> JSONResponse:
    assert isinstance(problem, JobFailed)
    return error(problem.message, problem.status)


async def http_problem(request: Request, problem: Exception) -> JSONResponse:
    assert isinstance(problem, HTTPException)
    return error(f"{request.url.path}: {problem.detail}", problem.status_code)


ROUTES = [
    Route("/", index),
    Route("/api/about", about),
    Route("/api/families", family_list),
    *(
        Route(f"/api/{kind}", job_route(kind), methods=["POST"])
        for kind in ("load", "grade", "hint", "render", "new", "generate")
    ),
    Route("/api/bank", bank_list, methods=["GET"]),
    Route("/api/bank", bank_save, methods=["POST"]),
    Route("/api/bank/{ref}", bank_entry, methods=["GET"]),
    Route("/api/bank/{ref}/publish", bank_publish, methods=["POST"]),
    Route("/api/bank/{ref}/unpublish", bank_unpublish, methods=["POST"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


def create_app(config: Config) -> Any:
    """The app, behind its :class:`~grader.serve.security.Guard`."""

    @asynccontextmanager
    async def lifespan(app: Starlette):
        import grader.generation.generator
        import grader.output.render  # noqa: F401 (loaded once, before the workers fork)
        from grader.rating.registry import families

        families()  # every family loaded before the workers are forked from this process
        app.state.workers = Workers(config.workers)
        app.state.workers.start()
        try:
            yield
        finally:
            app.state.workers.close()

    app = Starlette(
        routes=ROUTES,
        lifespan=lifespan,
        exception_handlers={
            BadRequest: bad_request,
            JobFailed: job_failed,
            banking.BankProblem: bank_problem,
            HTTPException: http_problem,
        },
    )
    app.state.config = config
    hosts = allowed_hosts(config.host, config.port, config.allow_hosts)
    return Guard(app, hosts)
