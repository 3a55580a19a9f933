"""Live games' event streams (`GET /games/{id}/stream`) read by a client in a thread
of its own, as an app follows a game."""

from __future__ import annotations

import queue
import threading

import httpx


def follow(client: httpx.Client, url: str, received: queue.Queue, **headers) -> None:
    """Read one SSE stream into `received` as (id, event, data) until it closes."""
    fields: dict[str, str] = {}
    try:
        with client.stream("GET", url, headers=headers, timeout=None) as response:
            received.put(("open", response.status_code, None))
            for line in response.iter_lines():
                if line.startswith(":"):
                    continue
                if line:
                    name, _, value = line.partition(":")
                    fields[name] = value.removeprefix(" ")
                elif "data" in fields:
                    received.put(
                        (fields.get("id"), fields.get("event"), fields["data"])
                    )
                    fields = {}
    except httpx.TransportError:
        pass  # the test server stopped: the stream ends with it


def open_stream(client, url, **headers) -> queue.Queue:
    received: queue.Queue = queue.Queue()
    threading.Thread(
        target=follow, args=(client, url, received), kwargs=headers, daemon=True
    ).start()
    assert received.get(timeout=10) == ("open", 200, None)
    return received


def take(received: queue.Queue, count: int) -> list[tuple]:
    return [received.get(timeout=10) for _ in range(count)]


def refused_stream(client: httpx.Client, path: str) -> httpx.Response:
    """The answer to one stream too many: a 503, not a stream that never ends."""
    with client.stream("GET", path) as answer:
        assert answer.status_code == 503
        answer.read()
    return answer
