"""One client cannot hold the service.

One client address holds at most its share of the connections and of the live
streams; the health checks answer while every connection is held; an answer its
client does not read is dropped with its connection; and a request framed twice
(Content-Length and Transfer-Encoding) is answered, then its connection closed, so
nothing sent after its body is read as a request.

Clients are told apart by their loopback source address (127.0.0.2, 127.0.0.3, ...,
all of them this machine), over real sockets against a real server.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import httpx

from service.http.server import HEALTH_RESERVE, HEALTH_SECONDS
from tests.support.http import create
from tests.support.server import running_server
from tests.support.sockets import HALF_A_REQUEST, address, closed_after
from tests.support.streams import open_stream, refused_stream


@contextmanager
def clients_from(
    base_url: str, source: str, count: int, sent: bytes
) -> Iterator[list[socket.socket]]:
    """`count` connections from the address `source` that each send `sent`, then
    wait."""
    with ExitStack() as stack:
        held = []
        for _ in range(count):
            client = stack.enter_context(
                socket.create_connection(address(base_url), source_address=(source, 0))
            )
            client.sendall(sent)
            held.append(client)
        yield held


def client_at(base_url: str, source: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(base_url=base_url, transport=transport, timeout=10)


def answers(received: bytes) -> list[bytes]:
    """The status lines of the answers in `received`."""
    return re.findall(rb"HTTP/1\.1 \d{3} [^\r]*", received)


def test_one_address_holds_at_most_its_share_of_the_connections(database_url):
    with (
        running_server(
            database_url,
            request_timeout=30,
            max_connections=50,
            max_connections_per_client=10,
        ) as url,
        clients_from(url, "127.0.0.2", 10, HALF_A_REQUEST),
    ):
        with clients_from(url, "127.0.0.2", 1, b"") as (refused,):
            took, answer = closed_after(refused, limit=5)
        assert took < 0.5
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503 ")
        assert b"Retry-After: 1" in head
        assert b"Your address has as many connections open" in body
        # Everyone else is served.
        with client_at(url, "127.0.0.3") as other:
            assert other.get("/health").status_code == 200


def test_an_address_gets_its_share_back_as_its_connections_close(database_url):
    with running_server(
        database_url,
        request_timeout=30,
        max_connections=50,
        max_connections_per_client=10,
    ) as url:
        # Each round fills the address's share and has one more refused; then all
        # of them close.
        for _ in range(3):
            with clients_from(url, "127.0.0.2", 10, HALF_A_REQUEST):
                with clients_from(url, "127.0.0.2", 1, b"") as (refused,):
                    _, answer = closed_after(refused, limit=5)
                assert answer.startswith(b"HTTP/1.1 503 ")
        # The server learns of the closes as it reads them: a moment later the
        # address is served again.
        deadline = time.monotonic() + 5
        with client_at(url, "127.0.0.2") as again:
            while (status := again.get("/health").status_code) != 200:
                assert time.monotonic() < deadline, status
                time.sleep(0.05)


def test_the_health_checks_answer_while_every_connection_is_held(database_url):
    with (
        running_server(database_url, request_timeout=30, max_connections=20) as url,
        clients_from(url, "127.0.0.2", 20, HALF_A_REQUEST),
    ):
        for path in (b"/health/live", b"/health/ready", b"/health"):
            request = b"GET " + path + b" HTTP/1.1\r\nHost: t\r\n\r\n"
            with clients_from(url, "127.0.0.3", 1, request) as (probe,):
                took, answer = closed_after(probe, limit=5)
            assert answers(answer) == [b"HTTP/1.1 200 OK"], answer
            assert b"connection: close" in answer.lower()
            assert took < 1
        # The reserve serves nothing else, and keeps a silent client briefly.
        request = b"GET /games HTTP/1.1\r\nHost: t\r\n\r\n"
        with clients_from(url, "127.0.0.3", 1, request) as (other,):
            _, answer = closed_after(other, limit=5)
        assert answers(answer) == [b"HTTP/1.1 503 Service Unavailable"]
        with clients_from(url, "127.0.0.3", HEALTH_RESERVE, b"") as silent:
            for client in silent:
                took, _ = closed_after(client, limit=HEALTH_SECONDS + 3)
                assert took < HEALTH_SECONDS + 1


def test_answers_the_client_does_not_read_are_dropped_with_its_connection(
    database_url,
):
    with running_server(database_url, write_timeout=1, keep_alive_timeout=1) as url:
        schema = httpx.get(f"{url}/schema/openapi.json").content
        asked = 120  # 13 MB: three times what the kernel buffers for a socket
        with socket.socket() as client:
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            client.connect(address(url))
            client.sendall(
                b"GET /schema/openapi.json HTTP/1.1\r\nHost: t\r\n\r\n" * asked
            )
            time.sleep(3)  # reading nothing, past the write timeout
            _, received = closed_after(client, limit=5)
        assert len(received) < len(schema) * asked / 2


def test_one_address_holds_at_most_its_share_of_the_live_streams(database_url):
    with (
        running_server(database_url, max_streams=10, max_streams_per_client=1) as url,
        client_at(url, "127.0.0.2") as client,
        client_at(url, "127.0.0.2") as same,
        client_at(url, "127.0.0.3") as other,
    ):
        game = create(client, game="dobro", players=["Ann", "Bob"], seed=3)
        stream = f"/games/{game['id']}/stream"
        open_stream(client, stream)
        refused = refused_stream(same, stream)
        assert refused.headers["retry-after"] == "5"
        assert "One client may hold 1 live streams" in refused.json()["detail"]
        open_stream(other, stream)


def test_a_request_with_content_length_and_transfer_encoding_closes_its_connection(
    database_url,
):
    framed_twice = (
        b"GET /health/live HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    )
    appended = b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n"
    with (
        running_server(database_url, keep_alive_timeout=2) as url,
        clients_from(url, "127.0.0.1", 1, framed_twice + appended) as (client,),
    ):
        took, received = closed_after(client, limit=5)
    assert answers(received) == [b"HTTP/1.1 200 OK"], received
    assert b"connection: close" in received.lower()
    assert took < 1
