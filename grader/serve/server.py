"""Starting the server: the address it listens on, what that exposes, then uvicorn."""

from __future__ import annotations

import sys
from pathlib import Path

from grader.core.errors import UsageError
from grader.serve.app import Config, create_app
from grader.serve.security import LOOPBACK, host_name

LOCAL_HOSTS = (*LOOPBACK, "::1")


def address(config: Config) -> str:
    """The page's address."""
    host = "127.0.0.1" if config.host in ("0.0.0.0", "::") else config.host
    return f"http://{host_name(host)}:{config.port}/"


def exposure(config: Config) -> str | None:
    """What listening on a host other than this machine's own opens up (None: nothing)."""
    if config.host in LOCAL_HOSTS:
        return None
    bank = f", and write to the bank {config.bank}" if config.bank else ""
    return (
        f"warning: listening on {config.host}: anyone who can reach this machine on port "
        f"{config.port} can grade, draw and generate puzzles here (using its processors){bank}; "
        "there is no password. Requests must name this server as 127.0.0.1, localhost, [::1], "
        f"{config.host}" + "".join(f", {name}" for name in config.allow_hosts) + " (--allow-host "
        "adds a name)."
    )


def check(config: Config) -> None:
    """Refuse (one line) settings the server cannot start with."""
    if not 1 <= config.port <= 65535:
        raise UsageError(f"--port: {config.port} is not a port (1-65535)")
    if config.bank is not None:
        from grader.storage.bank import check_bank

        check_bank(config.bank)


def serve(config: Config) -> None:
    """Run the server until interrupted, printing its address first."""
    import uvicorn

    check(config)
    app = create_app(config)
    print(f"grader serve: open {address(config)} (Ctrl-C stops it)", flush=True)
    warning = exposure(config)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    if config.bank is not None:
        print(f"bank: {Path(config.bank)}", flush=True)
    uvicorn.run(
        app,
        host=config.host,
        port=config.port,
        log_level="warning",
        server_header=False,
        timeout_graceful_shutdown=3,
    )
