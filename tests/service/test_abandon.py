"""T2 over HTTP: `{"type": "abandon"}` ends a game with no winners and status
`abandoned`; lists filter by it, player records count it apart from finished games,
and an undo reopens the game."""

from __future__ import annotations

import uuid

from tests.support.http import create, move, play_simulated
from tests.support.problems import assert_problem
from tests.support.waiting import eventually


def test_an_abandoned_game_is_listed_and_counted_apart_and_undo_reopens_it_T2(client):
    ann, bob = f"Ann-{uuid.uuid4().hex[:6]}", f"Bob-{uuid.uuid4().hex[:6]}"
    game = create(client, game="dozito", players=[ann, bob], first_player=ann)
    play_simulated(client, game, limit=4)

    assert move(client, game, {"type": "abandon"}).status_code == 201
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["status"] == "abandoned" and summary["winners"] == []
    next_move = {"type": "discard", "player": ann, "pile": "left"}
    assert_problem(move(client, game, next_move), 409, rule="T2")

    listed = eventually(
        lambda: client.get(
            "/games", params={"player": ann, "status": "abandoned"}
        ).json()["games"]
    )
    assert [g["id"] for g in listed] == [game["id"]]
    record = client.get(f"/players/{ann}").json()
    assert (record["played"], record["finished"], record["abandoned"]) == (1, 0, 1)

    assert move(client, game, {"type": "undo"}).status_code == 201
    assert client.get(f"/games/{game['id']}").json()["status"] == "in_progress"
    eventually(lambda: client.get(f"/players/{ann}").json()["abandoned"] == 0)
