"""Live games: `GET /games/{id}/stream` sends every stored move as Server-Sent
Events, in order, as it is stored, and `Last-Event-ID` resumes after a dropped
connection."""

from __future__ import annotations

import json
import queue
import threading

import httpx

from tests.support.http import create, play_simulated

PLAYERS = ["Olivia", "Fran", "Jan", "Margaret"]


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


def test_the_stream_delivers_every_move_of_a_game_in_order_as_it_is_stored(client):
    game = create(client, game="double-donkey", players=PLAYERS, seed=8)
    received = open_stream(client, f"/games/{game['id']}/stream")
    logged = play_simulated(client, game, limit=40)
    messages = take(received, logged)
    assert [int(i) for i, _, _ in messages] == list(range(2, logged + 2))
    stored = client.get(f"/games/{game['id']}/events", params={"after": 1}).json()
    assert [json.loads(data) for _, _, data in messages] == stored["events"]
    assert {event for _, event, _ in messages} == {"move"}


def test_last_event_id_resumes_after_that_version(client):
    game = create(client, game="dobro", players=["Ana", "Bia"], seed=4)
    play_simulated(client, game, limit=10)
    received = open_stream(
        client, f"/games/{game['id']}/stream", **{"Last-Event-ID": "6"}
    )
    backlog = take(received, 5)
    assert [int(i) for i, _, _ in backlog] == [7, 8, 9, 10, 11]
    play_simulated_from = client.get(f"/games/{game['id']}").json()["version"]
    assert play_simulated_from == 11
    answer = client.post(
        f"/games/{game['id']}/moves",
        json={"type": "undo"},
        headers={"Authorization": f"Bearer {game['write_token']}"},
    )
    assert answer.status_code == 201
    (undo,) = take(received, 1)
    assert undo[0] == "12" and json.loads(undo[2])["type"] == "undo"


def test_an_unknown_game_has_no_stream(client):
    answer = client.get("/games/00000000-0000-0000-0000-000000000000/stream")
    assert answer.status_code == 404
