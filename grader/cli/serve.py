"""``grader serve``: the workbench in the browser (the web extra's)."""

from __future__ import annotations

from typing import Annotated

import typer

from grader.cli.common import grader_app
from grader.core.errors import UsageError


@grader_app.command(
    "serve",
    help="Start the workbench: a local web page to paste, edit, grade, step through, generate "
    "and bank puzzles, and its JSON API (needs the web extra: pip install "
    "'puzzle-grader[web]'). Listens on 127.0.0.1 unless --host says otherwise.",
)
def grader_serve(
    host: Annotated[
        str, typer.Option("--host", help="The address to listen on (127.0.0.1: this machine).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8000,
    bank: Annotated[
        str | None,
        typer.Option("--bank", help="A bank to list, save to and publish from.", metavar="FILE.db"),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", help="Worker processes (jobs at once).", min=1)
    ] = 2,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout", help="Seconds allowed per request; a report cut short says so.", min=0.001
        ),
    ] = 10.0,
    allow_host: Annotated[
        list[str] | None,
        typer.Option("--allow-host", help="Another name requests may give this server (Host)."),
    ] = None,
) -> None:
    from pathlib import Path

    try:
        from grader.serve.server import Config, serve
    except ImportError as missing:
        from grader.storage.batch import install_hint

        raise UsageError(
            f"serve: needs the web extra ({missing.name} is missing; {install_hint('web')})"
        ) from None
    config = Config(
        host=host,
        port=port,
        bank=Path(bank) if bank else None,
        workers=workers,
        timeout=timeout,
        allow_hosts=tuple(allow_host or ()),
    )
    serve(config)
