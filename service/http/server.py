"""The HTTP server that runs the app: uvicorn, with a guard on every connection.

A client on the internet may open connections and never finish a request on them.
What the servers on offer do about it (read from their code and documentation):

- uvicorn closes a keep-alive connection left idle *after* an answer
  (`timeout_keep_alive`) and bounds a request head's size (h11), but has no timeout
  on receiving a request: a connection that sends half a request line, or nothing,
  is kept for ever. `limit_concurrency` answers 503 only once a request has arrived
  whole, so half-sent requests still pile up until the file descriptors run out.
- hypercorn drops a connection idle before its first request (`keep_alive_timeout`)
  and has a per-read `read_timeout`, which a client sending a byte every few seconds
  never trips; it has no cap on connections.
- granian has a header-read timeout and a cap on requests in flight
  (`backpressure`), but runs the app in worker processes of its own and cannot run
  in a thread of the test process as the tests run the service.

So the service stays on uvicorn's h11 protocol and `GuardedProtocol` adds, on each
connection, what it lacks: a whole request (head and body) must arrive within
`request_timeout` of the connection being ready for one (opened, or answered), and
beyond `max_connections` open connections a new one is answered 503 and closed at
once, before a byte of it is read, so the connections already open keep being served.
uvicorn's own `timeout_keep_alive` still closes idle keep-alive connections. A live
stream is a request that arrived whole long ago: neither limit cuts it (its number has
a cap of its own, `service/http/stream.py`).

With several worker processes on one port (`tablelog serve --workers`), each process
applies both limits to the connections it accepted: the machine serves up to
`max_connections` times the number of workers.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import socket
from collections.abc import Callable
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

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
_REFUSAL_BODY = (
    b'{"status": 503, "title": "Service Unavailable", "detail": "The service has '
    b'as many connections open as it serves at once; try again in a moment."}'
)
_REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Content-Type: application/problem+json\r\n"
    b"Retry-After: 1\r\n"
    b"Content-Length: " + str(len(_REFUSAL_BODY)).encode() + b"\r\n"
    b"Connection: close\r\n\r\n" + _REFUSAL_BODY
)

# The client's h11 states once its request is in: DONE at the end of the body (at
# once for a request without one), MUST_CLOSE for HTTP/1.0; after ERROR or CLOSED
# uvicorn answers or closes the connection itself.
_ARRIVED = (h11.DONE, h11.MUST_CLOSE, h11.ERROR, h11.CLOSED)


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request and a connection cap.

    uvicorn builds one instance per connection, through the factory `guarded()`
    makes. The cap counts the connections of this process: with several workers
    (`tablelog serve --workers`) each holds its own.
    """

    def __init__(
        self, *args: Any, request_timeout: float, max_connections: int, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.request_timeout = request_timeout
        self.max_connections = max_connections
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        _send_at_once(transport)
        if len(self.connections) > self.max_connections:
            log.warning(
                "refused a connection: %d are open, the most served at once",
                self.max_connections,
            )
            transport.write(_REFUSED)
            transport.close()
            return
        self._await_request()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._request_arrived():
            self._cancel_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Ready for the next request on this connection (a pipelined one may have
        # arrived whole already).
        if not self.transport.is_closing() and not self._request_arrived():
            self._await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def _request_arrived(self) -> bool:
        return self.conn.their_state in _ARRIVED

    def _await_request(self) -> None:
        self._cancel_deadline()
        self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

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
            self.request_timeout,
        )
        buffered, _ = self.conn.trailing_data
        started = self.cycle is not None and not self.cycle.response_complete
        if buffered and not started:
            # Half a request head: say why before closing. Once the app is running
            # (a body too slow), closing tells it the client is gone.
            self.transport.write(_TIMED_OUT)
        self.transport.close()


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


def guarded(
    request_timeout: float, max_connections: int
) -> Callable[..., GuardedProtocol]:
    """The protocol factory for uvicorn's `http=`, with these limits. A partial, not
    a class made on the fly: worker processes are spawned and get the configuration
    pickled, which takes a function of a module by name only."""
    return functools.partial(
        GuardedProtocol,
        request_timeout=request_timeout,
        max_connections=max_connections,
    )


def config(app: Any, settings: Settings, **options: Any) -> uvicorn.Config:
    """uvicorn's configuration for the app, with the limits of `settings`.

    `options` are uvicorn's own (host, port, log_level, workers, ...). The open-files
    limit raised here is inherited by worker processes.
    """
    return uvicorn.Config(
        app,
        http=guarded(settings.request_timeout, _room_for(settings.max_connections)),
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
