"""Read your writes: a game is in `GET /games` and `/players/{name}` as soon as the
request that created it (or changed its status) has answered; a name no game has is
a 404, so a typo does not look like a player who never won."""

from __future__ import annotations

import uuid

import msgspec

from tests.support.exports import import_file, simulated_file
from tests.support.http import create, move, simulated_moves
from tests.support.problems import assert_problem


def names() -> list[str]:
    return [f"Ann-{uuid.uuid4().hex[:6]}", f"Bob-{uuid.uuid4().hex[:6]}"]


def listed(client, player: str) -> list[dict]:
    return client.get("/games", params={"player": player}).json()["games"]


def test_a_game_is_listed_the_moment_its_creation_answers(client):
    for _ in range(10):
        ann, bob = names()
        game = create(client, game="dobro", players=[ann, bob])
        assert [g["id"] for g in listed(client, ann)] == [game["id"]]
        assert client.get(f"/players/{bob}").json()["played"] == 1


def test_a_finished_game_is_listed_finished_the_moment_its_last_move_answers(client):
    ann, bob = names()
    game = create(client, game="dobro", players=[ann, bob], seed=3)
    for simulated in simulated_moves(game):
        assert move(client, game, msgspec.to_builtins(simulated)).status_code == 201
    (summary,) = listed(client, ann)
    assert summary["status"] == "finished" and summary["winners"]
    assert client.get(f"/players/{ann}").json()["finished"] == 1


def test_an_imported_game_is_listed_the_moment_the_import_answers(client):
    answer = import_file(client, simulated_file("dozito", seed=8))
    assert answer.status_code == 201, answer.text
    player = answer.json()["players"][0]
    assert answer.json()["id"] in [g["id"] for g in listed(client, player)]


def test_a_name_no_game_has_is_a_404(client):
    problem = assert_problem(client.get(f"/players/Nobody-{uuid.uuid4().hex}"), 404)
    assert "No game has a player named" in problem["detail"]
