"""The answer to a write the server stops serving before it is done.

On SIGTERM uvicorn stops taking connections, gives the requests in flight a grace
period, then cancels those still running: a write waiting on a stalled database
would be answered 500 and leave its client guessing. It is answered 503 with
Retry-After instead, saying whether what it sent may have been stored, so that the
client knows to send it again (with the same Idempotency-Key, it is stored at most
once) or to read the game first.

A move is stored only by the shared commit (service/storage/commits.py), which
tells whether the commit holding it was sent; a move cancelled before that was not
stored and never will be. Other writes (a game created, an import) do not say, so
their answer says they may have been.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Receive, Scope, Send

from service.http.problems import RETRY_AFTER_SECONDS
from service.storage.commits import may_be_stored

_READS = frozenset({"GET", "HEAD", "OPTIONS"})

NOT_STORED = (
    "The server is restarting and stopped before storing the move: it was not "
    "stored. Send it again in a moment."
)
MAYBE_STORED = (
    "The server is restarting and stopped while the database was storing the move: "
    "it may have been stored. Send it again in a moment with the same "
    "Idempotency-Key (it is stored once), or read the game first."
)
MAYBE_DONE = (
    "The server is restarting and stopped before answering: the request may have "
    "been carried out. Check before sending it again in a moment."
)


class AnsweredWhenStopping(ASGIMiddleware):
    """Answer 503 to a write cancelled before its answer began."""

    scopes = (ScopeType.HTTP,)

    async def handle(
        self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp
    ) -> None:
        if scope["method"] in _READS:
            await next_app(scope, receive, send)
            return
        began = False

        async def sending(message: Any) -> None:
            nonlocal began
            began = began or message["type"] == "http.response.start"
            await send(message)

        try:
            await next_app(scope, receive, sending)
        except asyncio.CancelledError:
            if began:
                raise
            # Answered rather than cancelled: the cancellation is uvicorn's, ending
            # this request only, and the 503 is all that is left to do for it.
            await _unavailable(send, _detail(scope))


def _detail(scope: Scope) -> str:
    if may_be_stored():
        return MAYBE_STORED
    if scope["path"].endswith("/moves"):
        return NOT_STORED
    return MAYBE_DONE


async def _unavailable(send: Send, detail: str) -> None:
    body = msgspec.json.encode(
        {"status": 503, "title": "Service Unavailable", "detail": detail}
    )
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/problem+json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(RETRY_AFTER_SECONDS).encode()),
                (b"content-language", b"en"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
