"""The server's guard, an ASGI middleware in front of every route.

- ``Host`` must name this server (127.0.0.1, localhost or [::1] at its port, the ``--host``
  given, the ``--allow-host`` names): a page of another site whose name was made to point here
  (DNS rebinding) is refused;
- a request that changes something (POST) and says where it comes from (``Origin``, which
  browsers send) must come from one of those addresses: another site's page cannot use it;
- a body over :data:`MAX_BODY` bytes is refused with 413 before it is read whole;
- answers carry headers that keep the page to its own files (no frames, no other origin).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

MAX_BODY = 1024 * 1024
"""The largest request body, in bytes (1 MiB)."""
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        b"frame-ancestors 'none'",
    ),
]
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def host_name(host: str) -> str:
    """A host as a ``Host`` header writes it (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def allowed_hosts(host: str, port: int, extra: Iterable[str] = ()) -> frozenset[str]:
    """The ``Host`` values this server answers: each name with its port (and bare at port 80)."""
    names = {*LOOPBACK, host_name(host), *(host_name(name) for name in extra)}
    found = {f"{name}:{port}".lower() for name in names}
    if port == 80:
        found |= {name.lower() for name in names}
    return frozenset(found)


async def send_error(send: Any, status: int, message: str) -> None:
    """Answer ``{"error": message}`` with ``status``."""
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The checks above, around ``app``."""

    def __init__(self, app: Any, hosts: frozenset[str], max_body: int = MAX_BODY) -> None:
        self.app = app
        self.hosts = hosts
        self.max_body = max_body

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self.refusal(scope["method"], headers)
        if problem is not None:
            await send_error(send, *problem)
            return
        if scope["method"] not in SAFE_METHODS:
            body = await self._body(receive)
            if body is None:
                await send_error(send, 413, f"body: larger than {self.max_body / 2**20:g} MiB")
                return
            receive = _replay(body, receive)

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def refusal(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        """Why a request is refused before its body is read (status and one line), or None."""
        host = headers.get("host", "")
        if host.lower() not in self.hosts:
            return 400, f"Host: {host!r} is not this server's address"
        origin = headers.get("origin")
        if origin is not None and method not in SAFE_METHODS:
            where = urlsplit(origin).netloc.lower()
            if where not in self.hosts:
                return 403, f"Origin: {origin!r} is another site; it may not use this server"
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return 413, f"body: larger than {self.max_body / 2**20:g} MiB"
        return None

    async def _body(self, receive: Any) -> bytes | None:
        """The whole body, or None once it passes the limit (the rest is not read)."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _replay(body: bytes, receive: Any) -> Any:
    """A ``receive`` that gives ``body`` once, then what the client sends (its leaving)."""
    sent = False

    async def replay() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
