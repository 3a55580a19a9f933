"""The HTTP server that runs the app: uvicorn on uvloop, with httptools' parser (what
`uvicorn[standard]` serves) and a guard on every connection.

A client on the internet may open connections and never finish a request on them.
What the servers on offer do about it (read from their code and documentation):

- uvicorn closes a keep-alive connection left idle *after* an answer
  (`timeout_keep_alive`), but has no timeout on receiving a request: a connection
  that sends half a request line, or nothing, is kept for ever. `limit_concurrency`
  answers 503 only once a request has arrived whole, so half-sent requests still
  pile up until the file descriptors run out. With httptools it bounds no request
  head's size either (its h11 parser does, at 16 KiB).
- hypercorn drops a connection idle before its first request (`keep_alive_timeout`)
  and has a per-read `read_timeout`, which a client sending a byte every few seconds
  never trips; it has no cap on connections.
- granian has a header-read timeout and a cap on requests in flight
  (`backpressure`), but runs the app in worker processes of its own and cannot run
  in a thread of the test process as the tests run the service.

So the service stays on uvicorn and `GuardedProtocol`, its httptools protocol, adds
on each connection what it lacks:

- a whole request (head and body) must arrive within `request_timeout` of the
  connection being ready for one (opened, or answered);
- a request head (its line and headers) holds at most `MAX_HEAD_BYTES`, as h11
  bounds it, whether it arrives in one read or many; a longer one is answered 431
  (after the answers to the requests before it) and its connection closed;
- one client address holds at most `max_connections_per_client` connections, and
  the process at most `max_connections`: a connection beyond either is answered 503
  and closed at once, before a byte of it is read, so the connections already open
  keep being served;
- a few connections beyond `max_connections` (`HEALTH_RESERVE`) are still read, for
  the health checks alone: the request line must come within `HEALTH_SECONDS`, and
  `/health`, `/health/live` or `/health/ready` is answered (then the connection is
  closed), anything else 503. An orchestrator probing a full server hears that it
  lives, rather than restarting it for being busy;
- an answer its client reads none of for `write_timeout` (the transport paused: its
  buffers full) has its connection dropped, its unsent bytes with it;
- a request framed twice, with Content-Length and Transfer-Encoding, is read by its
  Transfer-Encoding, answered, and its connection closed (RFC 9112, section 6.3):
  whatever a proxy in front took for the rest of its body is never read as a
  request.

One parser, not two: the guard follows the parser's progress through a request (its
callbacks), so a second parser would need a second guard, kept equal to the first.
httptools is a dependency on every platform (it has wheels for each); uvloop is not
on Windows, where the standard asyncio loop serves (`LOOP`). Both are what a move
spends least CPU on: the parser and the loop are C, where h11 and asyncio's
transports are Python.

uvicorn's own `timeout_keep_alive` still closes idle keep-alive connections. A live
stream is a request that arrived whole long ago: the request deadline does not cut
it, the write timeout does once its viewer stops reading (its number has caps of its
own, `service/http/stream.py`).

With several worker processes on one port (`tablelog serve --workers`), each process
applies both limits to the connections it accepted: the machine serves up to
`max_connections` times the number of workers.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.http.limits import client_key
from service.settings import Settings

try:
    import resource
except ImportError:  # Windows: no file descriptor limit to raise
    resource = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

# File descriptors the process needs besides its clients' connections: the database
# pool, the listening socket, log files, the embedded server's pipes.
_OTHER_FILES = 64

_TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
)


_HEAD_TOO_LONG = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\n"
    b"Connection: close\r\n\r\n"
)


def _refusal(detail: bytes) -> bytes:
    body = b'{"status": 503, "title": "Service Unavailable", "detail": "%s"}' % detail
    return (
        b"HTTP/1.1 503 Service Unavailable\r\n"
        b"Content-Type: application/problem+json\r\n"
        b"Retry-After: 1\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n"
        b"Connection: close\r\n\r\n" + body
    )


_REFUSED = _refusal(
    b"The service has as many connections open as it serves at once; try again "
    b"in a moment."
)
_REFUSED_CLIENT = _refusal(
    b"Your address has as many connections open as one client may hold; close "
    b"one, or try again in a moment."
)

# Connections read beyond `max_connections`, for the health checks alone, and the
# seconds each has to send its request line: short, so that clients that fill the
# reserve with nothing leave it soon. Probes come one at a time; a few suffice.
HEALTH_RESERVE = 8
HEALTH_SECONDS = 2.0
_HEALTH_PATHS = (b"/health", b"/health/live", b"/health/ready")
# A request line longer than this is no health check.
_LONGEST_PROBE_LINE = 1024

# The longest request head (request line and headers) read: h11's bound.
MAX_HEAD_BYTES = 16 * 1024

# uvicorn's event loop: uvloop where it is installed (every platform but Windows).
LOOP = "asyncio" if sys.platform == "win32" else "uvloop"


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """What one connection, and one client's connections, may hold of a process."""

    request_timeout: float
    write_timeout: float
    max_connections: int
    max_connections_per_client: int


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on each request and on each
    stalled answer, a bound on each request head, and caps on connections, per
    process and per client address.

    uvicorn builds one instance per connection, through the factory `guarded()`
    makes. The caps count the connections of this process: with several workers
    (`tablelog serve --workers`) each holds its own. `held` counts the open
    connections of each client address, shared by every connection of the process,
    so a new connection costs the same however many are open.
    """

    def __init__(
        self,
        *args: Any,
        limits: ConnectionLimits,
        held: collections.Counter[str],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # Read by its Transfer-Encoding, then closed (on_headers_complete), as h11
        # reads it; llhttp would refuse it.
        self.parser.set_dangerous_leniencies(lenient_chunked_length=True)
        self.limits = limits
        self._held = held
        # The address counted in `held`; None until counted, and again once the
        # connection is gone.
        self._client_key: str | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._stalled: asyncio.TimerHandle | None = None
        # The bytes received so far on a connection of the health reserve, until its
        # request line is whole; None on any other connection.
        self._probe: bytearray | None = None
        self._close_after_answer = False
        # Requests arrived whole and answered on this connection: the next one is
        # awaited (its deadline running) while every one that arrived is answered.
        self._arrived = self._answered = 0
        # The bytes received of the head being read; None once it is whole.
        self._head: int | None = None
        # Heads begun on this connection, to tell a head that began in the bytes
        # just parsed from one that was under way before them.
        self._heads = 0
        # A head past the bound, to be refused once the requests before it are
        # answered; nothing more is read meanwhile.
        self._head_refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        _send_at_once(transport)
        limits = self.limits
        key = self._client_key = client_key(self.client[0]) if self.client else ""
        self._held[key] += 1
        if self._held[key] > limits.max_connections_per_client:
            log.warning(
                "refused a connection: its address holds %d, the most one client may",
                limits.max_connections_per_client,
            )
            self._refuse(_REFUSED_CLIENT)
        elif len(self.connections) > limits.max_connections + HEALTH_RESERVE:
            log.warning(
                "refused a connection: %d are open, the most served at once",
                limits.max_connections,
            )
            self._refuse(_REFUSED)
        elif len(self.connections) > limits.max_connections:
            self._probe = bytearray()
            self._await_request(min(limits.request_timeout, HEALTH_SECONDS))
        else:
            self._await_request()

    def data_received(self, data: bytes) -> None:
        if self._head_refused:
            return
        if self._probe is not None:
            self._probe += data
            line, whole, _ = self._probe.partition(b"\r\n")
            if not whole and len(self._probe) <= _LONGEST_PROBE_LINE:
                return
            data, self._probe = bytes(self._probe), None
            if not _asks_health(line):
                self._refuse(_REFUSED)
                return
            self._close_after_answer = True
        self._parse(data)

    def _parse(self, data: bytes) -> None:
        """Give the parser `data` a slice at a time, each no longer than the room
        left to the head being read (`MAX_HEAD_BYTES` when none is), and refuse a
        head that fills its room without ending.

        The bytes are counted as they are given, not by the parser's callbacks:
        httptools keeps a header's bytes until the header is whole, so its callbacks
        would come too late to bound them. Nor by whole reads: a head that arrives
        whole in one read ends inside it, however long it is. A head that ends
        inside a slice holds at most its room, so none longer than the bound is ever
        taken. One that began inside a slice is counted from the slice's start, so a
        request pipelined behind another in the same read may be refused a little
        short of the bound, never let through past it."""
        at = 0
        while at < len(data) and not self._head_refused:
            under_way, heads = self._head, self._heads
            room = MAX_HEAD_BYTES - (under_way or 0)
            piece = data[at : at + room]
            at += len(piece)
            super().data_received(piece)
            if self.transport.is_closing() or self.parser.should_upgrade():
                return  # refused by the parser, or no longer HTTP/1.1
            if self._head is None:
                continue
            began_before = under_way is not None and heads == self._heads
            self._head = (under_way if began_before else 0) + len(piece)
            if self._head >= MAX_HEAD_BYTES:
                self._refuse_head()

    def _refuse_head(self) -> None:
        """Answer 431 and close, once the requests before this head are answered:
        an answer written now would come before theirs, and be taken for theirs."""
        log.warning("refused a request head longer than %d bytes", MAX_HEAD_BYTES)
        self._head_refused = True
        if self._arrived > self._answered:
            self.transport.pause_reading()
        else:
            self._refuse(_HEAD_TOO_LONG)

    # The parser's callbacks, in the order it calls them for each request.

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head = 0
        self._heads += 1

    def on_headers_complete(self) -> None:
        self._head = None
        super().on_headers_complete()
        if _framed_twice(self.headers):
            log.warning(
                "answered a request with both Content-Length and Transfer-Encoding, "
                "then closed its connection"
            )
        elif not self._close_after_answer:
            return
        # The answer says the connection closes, then uvicorn closes it: nothing
        # after this request is read as one.
        self.cycle.keep_alive = False

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._arrived += 1
        # A request answered before its body was whole (refused unread) leaves
        # the deadline running: it is the next request's, from that answer.
        if self._arrived > self._answered:
            self._cancel_deadline()

    def on_response_complete(self) -> None:
        self._answered += 1
        super().on_response_complete()
        if self.transport.is_closing() or self._arrived > self._answered:
            return
        if self._head_refused:
            self._refuse(_HEAD_TOO_LONG)
        else:
            # Ready for the next request on this connection (a pipelined one may
            # have arrived whole already).
            self._await_request()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stalled is None:
            self._stalled = self.loop.call_later(
                self.limits.write_timeout, self._not_reading
            )

    def resume_writing(self) -> None:
        super().resume_writing()
        self._cancel_stall()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        self._cancel_stall()
        key, self._client_key = self._client_key, None
        if key is not None:
            self._held[key] -= 1
            if not self._held[key]:
                del self._held[key]
        super().connection_lost(exc)

    def _refuse(self, answer: bytes) -> None:
        self._cancel_deadline()
        self.transport.write(answer)
        self.transport.close()

    def _await_request(self, seconds: float | None = None) -> None:
        self._cancel_deadline()
        self._deadline = self.loop.call_later(
            self.limits.request_timeout if seconds is None else seconds,
            self._too_slow,
        )

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        log.warning(
            "closed a connection that did not send a whole request within %g s",
            self.limits.request_timeout,
        )
        if self._head is not None:
            # Half a request head: say why before closing. Once the app is running
            # (a body too slow), closing tells it the client is gone.
            self.transport.write(_TIMED_OUT)
        self.transport.close()

    def _cancel_stall(self) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None

    def _not_reading(self) -> None:
        # Even a connection already closing: close() keeps the unsent answer until
        # the client reads it, which this one does not.
        self._stalled = None
        log.warning(
            "dropped a connection whose client read none of its answer for %g s",
            self.limits.write_timeout,
        )
        self.transport.abort()


def _asks_health(request_line: bytes) -> bool:
    """Whether a request line is a GET or HEAD of a health check."""
    method, _, rest = request_line.partition(b" ")
    target, _, _ = rest.partition(b" ")
    path, _, _ = target.partition(b"?")
    return method in (b"GET", b"HEAD") and path in _HEALTH_PATHS


def _framed_twice(headers: list[tuple[bytes, bytes]]) -> bool:
    names = {name for name, _ in headers}
    return b"content-length" in names and b"transfer-encoding" in names


def _send_at_once(transport: asyncio.Transport) -> None:
    """Turn Nagle's algorithm off on a TCP connection, so that an answer's last
    segment leaves at once rather than after the client acknowledges the one before.

    asyncio does so itself only for a connection accepted on a socket made with
    proto IPPROTO_TCP, as its own `create_server(host, port)` makes. The socket
    uvicorn binds for several workers is made with proto 0, so without this their
    connections kept Nagle on: an answer written in two pieces (head, then body) had
    its body held until the client's delayed acknowledgement, some 40 ms, and two
    workers held a third of the tables one did (measured with `tablelog bench`)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def guarded(limits: ConnectionLimits) -> Callable[..., GuardedProtocol]:
    """The protocol factory for uvicorn's `http=`, with these limits and a count of
    connections per client address. A partial, not a class made on the fly: worker
    processes are spawned and get the configuration pickled, which takes a function
    of a module by name only; each worker unpickles a count of its own."""
    return functools.partial(GuardedProtocol, limits=limits, held=collections.Counter())


def config(app: Any, settings: Settings, **options: Any) -> uvicorn.Config:
    """uvicorn's configuration for the app, with the limits of `settings`.

    `options` are uvicorn's own (host, port, log_level, workers, ...). The open-files
    limit raised here is inherited by worker processes.
    """
    # The health reserve's connections are file descriptors too.
    room = _room_for(settings.max_connections + HEALTH_RESERVE) - HEALTH_RESERVE
    limits = ConnectionLimits(
        request_timeout=settings.request_timeout,
        write_timeout=settings.write_timeout,
        max_connections=max(room, 1),
        max_connections_per_client=settings.max_connections_per_client,
    )
    return uvicorn.Config(
        app,
        http=guarded(limits),
        loop=LOOP,
        timeout_keep_alive=settings.keep_alive_timeout,  # type: ignore[arg-type]
        **options,
    )


def _room_for(connections: int) -> int:
    """Make sure the process may open that many connections; the cap it can keep.

    Each connection is a file descriptor. Many systems start a process with a soft
    limit of 1024, so the soft limit is raised towards the hard one; if even that
    is too low, the cap is lowered to fit, since a cap above it would let accept()
    fail instead of refusing cleanly.
    """
    if resource is None:
        return connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + _OTHER_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft != resource.RLIM_INFINITY and soft < wanted:
        fitted = max(soft - _OTHER_FILES, 1)
        log.warning(
            "the process may open %d files: serving %d connections at once, not %d",
            soft,
            fitted,
            connections,
        )
        return fitted
    return connections
