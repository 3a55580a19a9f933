"""Live games: `GET /games/{id}/stream` sends every stored move as Server-Sent
Events, in order, as it is stored, and `Last-Event-ID` resumes after a dropped
connection."""

from __future__ import annotations

import json

from tests.support.http import create, play_simulated
from tests.support.streams import open_stream, take

PLAYERS = ["Olivia", "Fran", "Jan", "Margaret"]


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
