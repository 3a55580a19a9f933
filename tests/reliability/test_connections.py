"""Connections cannot hold the service.

A client that sends half a request and waits is dropped once the request timeout has
passed; hundreds of them leave /health answering; a connection beyond the cap is
refused at once; a live stream is neither cut by those limits nor opened beyond its
own cap; and the same warning a hundred times is logged once, then with its count.

Everything runs over loopback against a real server (uvicorn in a thread, and for
the log a real `tablelog serve` process).
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import httpx
import msgspec
import pytest

from service.cli.logs import collapse_repeats, flush
from service.http.app import create_app
from service.http.server import HEALTH_RESERVE, MAX_HEAD_BYTES, config
from service.settings import Settings
from tests.support.http import create, move, simulated_moves
from tests.support.server import running_server
from tests.support.sockets import HALF_A_REQUEST, address, closed_after
from tests.support.streams import open_stream, refused_stream, take


@contextmanager
def slow_clients(
    base_url: str, count: int, sent: bytes
) -> Iterator[list[socket.socket]]:
    """`count` connections that each send `sent` and then wait."""
    with ExitStack() as stack:
        held = []
        for _ in range(count):
            client = stack.enter_context(socket.create_connection(address(base_url)))
            client.sendall(sent)
            held.append(client)
        yield held


def test_a_client_that_sends_half_a_request_is_dropped_within_the_timeout(database_url):
    with (
        running_server(database_url, request_timeout=1.0) as base_url,
        slow_clients(base_url, 1, HALF_A_REQUEST) as (head,),
        slow_clients(base_url, 1, b"") as (silent,),
        slow_clients(
            base_url,
            1,
            b"POST /games HTTP/1.1\r\nHost: tablelog\r\nContent-Type: application/json"
            b'\r\nContent-Length: 200\r\n\r\n{"game": ',
        ) as (body,),
    ):
        took, answer = closed_after(head, limit=5)
        assert took < 2.5
        assert answer.startswith(b"HTTP/1.1 408 ")
        for client in (silent, body):
            took, _ = closed_after(client, limit=5)
            assert took < 2.5


def test_the_next_request_on_a_kept_alive_connection_has_the_same_deadline(
    database_url,
):
    with (
        running_server(
            database_url, request_timeout=1.0, keep_alive_timeout=30
        ) as base_url,
        slow_clients(base_url, 1, b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n") as (c,),
    ):
        c.settimeout(5)
        assert c.recv(4096).startswith(b"HTTP/1.1 200 ")
        c.sendall(HALF_A_REQUEST)
        took, _ = closed_after(c, limit=5)
        assert took < 2.5


def test_a_request_after_one_answered_before_its_body_came_has_the_same_deadline(
    database_url,
):
    with (
        running_server(
            database_url, request_timeout=1.0, keep_alive_timeout=30
        ) as base_url,
        httpx.Client(base_url=base_url) as client,
    ):
        game = create(client, game="dobro", players=["Ann", "Bob"], seed=3)
        # No token: refused before a byte of the body is read.
        unread = (
            f"POST /games/{game['id']}/moves HTTP/1.1\r\nHost: t\r\n"
            "Content-Type: application/json\r\nContent-Length: 10\r\n\r\n"
        ).encode()
        with slow_clients(base_url, 1, unread) as (c,):
            c.settimeout(5)
            assert c.recv(4096).startswith(b"HTTP/1.1 401 ")
            c.sendall(b'{"a": 1}  ' + HALF_A_REQUEST)
            took, _ = closed_after(c, limit=5)
        assert took < 2.5


def test_a_request_head_longer_than_the_bound_is_refused(database_url):
    with running_server(database_url, request_timeout=30) as base_url:
        # Within the bound, in pieces: answered.
        with slow_clients(base_url, 1, b"GET /health HTTP/1.1\r\nHost: t\r\n") as (c,):
            c.sendall(b"X-Long: " + b"a" * (MAX_HEAD_BYTES // 2))
            time.sleep(0.1)
            c.sendall(b"\r\n\r\n")
            c.settimeout(5)
            assert c.recv(4096).startswith(b"HTTP/1.1 200 ")
        # One header past it, sent a piece at a time: refused once it passes.
        with slow_clients(base_url, 1, b"GET /health HTTP/1.1\r\nHost: t\r\n") as (c,):
            c.sendall(b"X-Long: ")
            for _ in range(3):
                time.sleep(0.05)
                c.sendall(b"a" * (MAX_HEAD_BYTES // 3))
            took, answer = closed_after(c, limit=5)
        assert answer.startswith(b"HTTP/1.1 431 ")
        assert took < 1


def _head_of(size: int) -> bytes:
    """A GET of /health whose head (request line and headers) is `size` bytes."""
    start, end = b"GET /health HTTP/1.1\r\nHost: t\r\nX-Long: ", b"\r\n\r\n"
    return start + b"a" * (size - len(start) - len(end)) + end


@pytest.mark.parametrize("kib", [20, 64, 120])
def test_a_request_head_past_the_bound_is_refused_however_it_arrives(database_url, kib):
    head = _head_of(kib * 1024)
    with running_server(database_url, request_timeout=30) as base_url:
        # In one write.
        with slow_clients(base_url, 1, head) as (c,):
            _, answer = closed_after(c, limit=5)
        assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
        # In one write after a request: that one answered first, then the 431.
        with slow_clients(base_url, 1, _head_of(200) + head) as (c,):
            _, answer = closed_after(c, limit=5)
        first, refused = answer.split(b"HTTP/1.1 ")[1:]
        assert first.startswith(b"200 ") and refused.startswith(b"431 "), answer
        # In pieces of 1 KiB.
        with slow_clients(base_url, 1, b"") as (c,):
            for at in range(0, len(head), 1024):
                try:
                    c.sendall(head[at : at + 1024])
                except OSError:  # refused and closed before the rest was sent
                    break
            _, answer = closed_after(c, limit=5)
        assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]


def test_a_request_head_of_exactly_the_bound_is_answered(database_url):
    with (
        running_server(database_url, request_timeout=30) as base_url,
        slow_clients(base_url, 1, _head_of(MAX_HEAD_BYTES)) as (c,),
    ):
        c.settimeout(5)
        assert c.recv(4096).startswith(b"HTTP/1.1 200 ")


@pytest.mark.skipif(sys.platform == "win32", reason="no uvloop on Windows")
def test_the_server_runs_on_uvloop(database_url):
    import uvloop

    settings = Settings(database_url=database_url)
    loop = config(create_app(settings), settings).get_loop_factory()()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


def test_an_idle_keep_alive_connection_is_closed(database_url):
    with (
        running_server(database_url, keep_alive_timeout=1) as base_url,
        slow_clients(base_url, 1, b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n") as (c,),
    ):
        c.settimeout(5)
        assert c.recv(4096).startswith(b"HTTP/1.1 200 ")
        took, _ = closed_after(c, limit=5)
        assert took < 2.5


def test_health_answers_while_hundreds_of_slow_clients_hold_connections(database_url):
    with (
        running_server(database_url, request_timeout=30, max_connections=400) as url,
        slow_clients(url, 300, HALF_A_REQUEST),
        httpx.Client(base_url=url, timeout=5) as client,
    ):
        start = time.monotonic()
        assert client.get("/health").status_code == 200
        assert time.monotonic() - start < 1


def test_a_connection_beyond_the_cap_is_refused_at_once(database_url):
    with running_server(database_url, request_timeout=30, max_connections=50) as url:
        # The cap, and the few connections beyond it kept for the health checks.
        with slow_clients(url, 50 + HEALTH_RESERVE, HALF_A_REQUEST):
            with slow_clients(url, 1, b"") as (refused,):
                took, answer = closed_after(refused, limit=5)
            assert took < 0.5
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 503 ")
            assert b"Content-Type: application/problem+json" in head
            assert b"Retry-After: 1" in head
            assert b'"status": 503' in body
        # The held connections gone, there is room again.
        deadline = time.monotonic() + 5
        while True:
            try:
                answer = httpx.get(f"{url}/health", timeout=5)
            except httpx.TransportError:
                answer = None
            if answer is not None and answer.status_code == 200:
                break
            assert time.monotonic() < deadline, "no room after the clients left"
            time.sleep(0.05)


def test_live_streams_outlive_the_limits_and_beyond_their_cap_answer_503(
    database_url,
):
    with (
        running_server(
            database_url, request_timeout=1, keep_alive_timeout=1, max_streams=2
        ) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        game = create(client, game="dobro", players=["Ann", "Bob"], seed=3)
        stream = f"/games/{game['id']}/stream"
        first = open_stream(client, stream)
        second = open_stream(httpx.Client(base_url=url), stream)
        beyond = refused_stream(client, stream)
        assert beyond.headers["content-type"] == "application/problem+json"
        assert beyond.headers["retry-after"] == "5"
        assert "2 live streams are open" in beyond.json()["detail"]

        time.sleep(2.5)  # past both connection timeouts
        first_move = msgspec.to_builtins(next(iter(simulated_moves(game))))
        played = move(client, game, first_move)
        assert played.status_code == 201, played.text
        for received in (first, second):
            ((version, event, _),) = take(received, 1)
            assert (version, event) == ("2", "move")


def test_a_closed_stream_gives_its_place_back(database_url):
    with (
        running_server(database_url, max_streams=1) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        game = create(client, game="dobro", players=["Ann", "Bob"], seed=3)
        stream = f"/games/{game['id']}/stream"
        request = f"GET {stream} HTTP/1.1\r\nHost: t\r\n\r\n".encode()
        with slow_clients(url, 1, request) as (viewer,):
            viewer.settimeout(5)
            assert viewer.recv(4096).startswith(b"HTTP/1.1 200 ")
            refused_stream(client, stream)
        deadline = time.monotonic() + 5
        while True:
            with client.stream("GET", stream) as answer:
                if answer.status_code == 200:
                    break
            assert time.monotonic() < deadline, "the stream's place was not given back"
            time.sleep(0.05)


def test_a_burst_of_one_warning_is_logged_once_with_its_count(database_url):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "DATABASE_URL": database_url}
    env.pop("MIGRATION_DATABASE_URL", None)
    serve = [sys.executable, "-m", "service", "serve", "--port", str(port)]
    server = subprocess.Popen(
        [*serve, "--request-timeout", "0.5", "--log-repeat-seconds", "1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for(url, server)
        # 100 clients that never finish a request, 100 that send garbage.
        with slow_clients(url, 100, HALF_A_REQUEST) as held:
            for client in held:
                closed_after(client, limit=5)
        with slow_clients(url, 100, b"NOT HTTP AT ALL\r\n\r\n") as garbage:
            for client in garbage:
                closed_after(client, limit=5)
        time.sleep(1.5)  # the window ends: the counts are written
    finally:
        server.send_signal(signal.SIGINT)
        output, _ = server.communicate(timeout=60)
    slow = [line for line in output.splitlines() if "did not send a whole" in line]
    assert len(slow) == 2, output
    assert "repeated 99 more times" in slow[1]
    invalid = [line for line in output.splitlines() if "Invalid HTTP request" in line]
    assert len(invalid) == 2, output
    assert "repeated 99 more times" in invalid[1]


def _wait_for(url: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health").status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
        if server.poll() is not None:
            pytest.fail(f"tablelog serve exited: {server.stdout.read()}")
    server.kill()
    pytest.fail("tablelog serve did not answer in time")


def test_the_filter_lets_other_kinds_through_and_counts_each():
    records: queue.Queue = queue.Queue()

    class Collect(logging.Handler):
        def emit(self, record):
            records.put(self.format(record))

    logger = logging.getLogger("tests.repeats")
    logger.propagate = False
    # A level of its own: the root's is whatever an earlier test in the process set.
    logger.setLevel(logging.INFO)
    handler = Collect()
    logger.addHandler(handler)
    try:
        filters = collapse_repeats([logger], window=60)
        for _ in range(50):
            logger.warning("the same, from one place: %s", "detail")
            logger.error("another kind")
            logger.info("information passes every time")
        flush(filters)
    finally:
        logger.removeHandler(handler)
    lines = list(records.queue)
    assert lines.count("information passes every time") == 50
    assert lines.count("the same, from one place: detail") == 1
    assert lines.count("another kind") == 1
    assert "the same, from one place: detail (repeated 49 more times in 60 s)" in lines
    assert "another kind (repeated 49 more times in 60 s)" in lines


def _help(*command: str) -> str:
    return subprocess.run(
        [sys.executable, "-m", "service", *command, "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_serve_documents_every_limit_in_its_help():
    shown = _help("serve")
    for option in (
        "--request-timeout",
        "--keep-alive-timeout",
        "--max-connections",
        "--max-streams",
        "--max-connections-per-client",
        "--max-streams-per-client",
        "--write-timeout",
        "--log-repeat-seconds",
    ):
        assert option in shown
    assert "MIGRATION_DATABASE_URL" in _help()
