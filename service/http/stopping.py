"""Stopping in bounded time: the answer to a request the server stops serving
before it is done, and the end of whatever else still waits on the database.

On SIGTERM uvicorn stops taking connections, gives the requests in flight a grace
period (`GRACE_SECONDS`), then cancels those still running: a request waiting on a
stalled database would be answered 500, and a write would leave its client
guessing. It is answered 503 with Retry-After instead; a write's answer says
whether what it sent may have been stored, so that the client knows to send it
again (with the same Idempotency-Key, it is stored at most once) or to read the
game first.

A move is stored only by the shared commit (service/storage/commits.py), which
tells whether the commit holding it was sent; a move cancelled before that was not
stored and never will be. Other writes (a game created, an import) do not say, so
their answer says they may have been.

A task cancelled in the middle of a query does not end at once: psycopg asks the
server to cancel the query and waits for it to end, so that its transaction is
rolled back and the connection kept. A database that answers takes milliseconds; one
that answers nothing (a network dropping every packet, a frozen host) holds each
such task 5 s for the cancel request and 5 s more for the query, and the process
with them. So once the grace period is over the app stops everything it started
(`stop`: the tasks `Started` kept, never the server's own or those of whoever
drives the app), and what has not ended `CANCEL_SECONDS` later is cancelled
again: psycopg then closes its connection at once. A statement the server was
still running may yet complete there, which is why a move whose commit was sent is
answered "may have been stored". Every request is answered, and the process ends,
within `GRACE_SECONDS` + `CANCEL_SECONDS` of the signal and the moments it takes to
close, whatever the database does.
"""

from __future__ import annotations

import asyncio
import contextvars
import weakref
from collections.abc import Callable, Coroutine, Iterable, Iterator
from typing import Any

import msgspec
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Receive, Scope, Send
from psycopg_pool import AsyncConnectionPool

from service.http.problems import RETRY_AFTER_SECONDS
from service.storage.commits import may_be_stored

_READS = frozenset({"GET", "HEAD", "OPTIONS"})

# Seconds the requests in flight get to finish on SIGTERM (uvicorn's graceful
# shutdown, which `tablelog serve` sets); live streams stay open until their viewer
# leaves, so not long.
GRACE_SECONDS = 3.0
# Seconds what runs when the grace period is over has to end once cancelled, before
# it is cancelled again: ample for a database that answers to cancel a query.
CANCEL_SECONDS = 1.0
# The least a pool is given to stop its own tasks, however late.
_MOMENT = 0.05

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
NOT_READ = (
    "The server is restarting and stopped before answering. Send the request again "
    "in a moment."
)


class Started:
    """The tasks an app started: each request's, its lifespan's followers, and
    every task made while one of them runs (a shared commit, a snapshot's write),
    which a stop ends (`stop`). Only those: the server's tasks, and those of
    whoever drives the app (a test client's call to stop it), are not the app's.

    A task adopted marks its context; the loop's task factory, while `watching`,
    keeps each task made in a context so marked, as a task inherits its maker's.
    """

    def __init__(self) -> None:
        self._tasks: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()

    def adopt(self) -> None:
        """The current task, and every task it makes, are the app's."""
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        _STARTED.set(self)

    def watching(self, loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
        """Keep the tasks made on `loop` by the app's; the call that undoes it."""
        previous = loop.get_task_factory()

        def factory(
            loop: asyncio.AbstractEventLoop,
            coro: Coroutine[Any, Any, Any],
            **options: Any,
        ) -> asyncio.Future[Any]:
            if previous is None:
                task = asyncio.Task(coro, loop=loop, **options)
            else:
                task = previous(loop, coro, **options)
            if _STARTED.get(None) is self and isinstance(task, asyncio.Task):
                self._tasks.add(task)
            return task

        loop.set_task_factory(factory)
        return lambda: loop.set_task_factory(previous)

    def __iter__(self) -> Iterator[asyncio.Task[Any]]:
        return iter(list(self._tasks))


_STARTED: contextvars.ContextVar[Started] = contextvars.ContextVar("started")


class AnsweredWhenStopping(ASGIMiddleware):
    """Answer 503 to a request cancelled before its answer began; each request's
    task is the app's (`Started`)."""

    scopes = (ScopeType.HTTP,)

    def __init__(self, started: Started) -> None:
        self.started = started

    async def handle(
        self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp
    ) -> None:
        self.started.adopt()
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
    if scope["method"] in _READS:
        return NOT_READ
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


async def stop(
    followers: Iterable[asyncio.Task[Any]],
    pools: Iterable[AsyncConnectionPool],
    started: Started,
) -> None:
    """Stop the app within `CANCEL_SECONDS`: its followers, its pools, then every
    other task it `started`: the requests cut after the grace period, the commits
    and snapshots under way.

    Each task is cancelled once, then again if still running at the deadline. A
    request uvicorn cancelled already is not cancelled a second time at once: that
    was its clean cancellation. The pools close before the rest is cancelled, as
    cancelling their own tasks would fail their close; a connection a pool is still
    making (to a database that answers nothing) is not waited for past the
    deadline, and is dropped with the process."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + CANCEL_SECONDS
    for task in followers:
        task.cancel()
    for pool in pools:
        await pool.close(timeout=max(deadline - loop.time(), _MOMENT))
    tasks = {task for task in started if not task.done()} - {asyncio.current_task()}
    if not tasks:
        return
    for task in tasks:
        if not task.cancelling():
            task.cancel()
    _, running = await asyncio.wait(tasks, timeout=max(deadline - loop.time(), 0))
    if not running:
        return
    for task in running:
        task.cancel()
    await asyncio.wait(running, timeout=CANCEL_SECONDS)
