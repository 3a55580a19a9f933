"""Raw loopback connections to a test server, for the tests of what a client that
misbehaves on the wire may hold: a request sent in part, a connection read to its
end."""

from __future__ import annotations

import socket
import time

import pytest

HALF_A_REQUEST = b"GET /health HTTP/1.1\r\nHost: tablelog\r\nUser-Agent: slow"


def address(base_url: str) -> tuple[str, int]:
    host, _, port = base_url.removeprefix("http://").partition(":")
    return host, int(port)


def closed_after(client: socket.socket, limit: float) -> tuple[float, bytes]:
    """Read until the server closes the connection; how long it took and what came."""
    client.settimeout(limit)
    start = time.monotonic()
    received = b""
    try:
        while chunk := client.recv(4096):
            received += chunk
    except TimeoutError:
        pytest.fail(f"the connection was still open after {limit} s")
    except ConnectionResetError:
        pass
    return time.monotonic() - start, received
