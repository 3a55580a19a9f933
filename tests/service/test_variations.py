"""Variations through the HTTP API against the real database: a new game branched from
a step of another, with its own token and log, visible as a variation, and counted in
no player's record nor list of games played."""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx
import msgspec
import psycopg
import pytest

from domain.registry import BUILT_IN
from service import bootstrap
from service.readside.projector import Projector
from service.settings import Settings
from service.storage.pools import connection_pool
from service.storage.store import EventStore
from tests.support.groups import make_group, new_players
from tests.support.http import create, move, play_simulated, simulated_moves
from tests.support.keys import make_key
from tests.support.server import running_server

PLAYERS = ["Vera", "Wim", "Xan"]


def new_game(client) -> dict:
    # Names of their own: the records counted here are these players' alone.
    players = [f"{name} {uuid.uuid4().hex[:6]}" for name in PLAYERS]
    return create(
        client, game="dobro", players=players, first_player=players[0], seed=3
    )


def branch(client, game_id: str, at: int, **headers: str):
    return client.post(f"/games/{game_id}/variations", json={"at": at}, headers=headers)


def test_a_variation_starts_as_the_original_stood_at_its_step(client):
    game = new_game(client)
    play_simulated(client, game, limit=12)
    answer = branch(client, game["id"], 7)
    assert answer.status_code == 201, answer.text
    variation = answer.json()
    assert answer.headers["location"] == f"/games/{variation['id']}"
    assert variation["id"] != game["id"]
    assert variation["write_token"] and variation["write_token"] != game["write_token"]
    assert variation["variation_of"] == {"game": game["id"], "step": 7}
    assert variation["version"] == 8
    original_at_7 = client.get(f"/games/{game['id']}/replay/7").json()
    assert variation["state"] == original_at_7["state"]
    read = client.get(f"/games/{variation['id']}").json()
    assert read["variation_of"] == {"game": game["id"], "step": 7}
    assert client.get(f"/games/{game['id']}").json()["variation_of"] is None

    # Its own log holds the seven moves, as the original logged them.
    events = client.get(f"/games/{variation['id']}/events").json()["events"]
    original = client.get(f"/games/{game['id']}/events?limit=8").json()["events"]
    assert [e["data"] for e in events[1:]] == [e["data"] for e in original[1:]]


def test_a_variation_takes_its_own_moves_with_its_own_token_and_the_original_none(
    client,
):
    game = new_game(client)
    play_simulated(client, game, limit=6)
    variation = branch(client, game["id"], 3).json()
    other = next(
        m
        for n, m in enumerate(simulated_moves(game), start=1)
        if n == 4  # the original's fourth move, logged in the variation
    )
    body = msgspec.to_builtins(other) | {"expected_version": 4}
    assert move(client, variation, body).status_code == 201
    # The original's token is not the variation's, and the original did not move.
    assert move(client, game | {"id": variation["id"]}, body).status_code == 403
    assert client.get(f"/games/{game['id']}").json()["version"] == 7
    # Its moves are checked like any game's: the rules refuse one out of turn.
    refused = move(client, variation, {"type": "take", "player": "nobody"})
    assert refused.status_code == 422


def logged_times(client, game_id: str) -> list[str]:
    """When each line of the game's export says it was logged at the table."""
    lines = client.get(f"/games/{game_id}/export").text.splitlines()
    return [msgspec.json.decode(line)["logged_at"] for line in lines]


def test_a_variations_copied_moves_keep_the_time_they_were_played(client):
    game = new_game(client)
    play_simulated(client, game, limit=5)
    time.sleep(0.05)  # the copies are made later than any of the moves
    variation = branch(client, game["id"], 3).json()
    body = msgspec.to_builtins(list(simulated_moves(game))[3])
    assert move(client, variation, body | {"expected_version": 4}).status_code == 201

    original = logged_times(client, game["id"])
    times = logged_times(client, variation["id"])
    # The creation and the three moves copied: the original's times, to the
    # microsecond; the variation's own move: after the branching, never before.
    assert times[:4] == original[:4]
    assert times[4] > original[4]
    stored = client.get(f"/games/{variation['id']}/events").json()["events"]
    assert all(e["recorded_at"] > original[3] for e in stored)
    # Its export, times and all, is that variation (its times never go backwards).
    again = client.post(
        "/games/import",
        content=client.get(f"/games/{variation['id']}/export").content,
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert again.status_code == 409, again.text
    assert again.json()["game_id"] == variation["id"]


def test_a_variation_from_step_zero_is_the_game_as_created(client):
    game = new_game(client)
    play_simulated(client, game, limit=2)
    variation = branch(client, game["id"], 0).json()
    assert variation["version"] == 1
    assert variation["variation_of"] == {"game": game["id"], "step": 0}
    assert variation["first_player"] == game["first_player"]


def test_a_step_the_game_does_not_have_or_an_unknown_game_is_a_404(client):
    game = new_game(client)
    play_simulated(client, game, limit=2)
    answer = branch(client, game["id"], 3, **{"Accept-Language": "fr"})
    assert answer.status_code == 404
    assert answer.json()["detail"] == "La partie a les étapes 0 à 2, pas 3."
    assert branch(client, str(uuid.uuid4()), 0).status_code == 404
    assert client.get(f"/games/{uuid.uuid4()}/variations").status_code == 404
    for body in ({"at": -1}, {"at": "1"}, {}, {"at": 1, "from": 2}):
        answer = client.post(f"/games/{game['id']}/variations", json=body)
        assert answer.status_code == 422, body


def test_a_games_variations_are_listed_by_it_and_nowhere_else(client):
    game = new_game(client)
    play_simulated(client, game, limit=5)
    first = branch(client, game["id"], 2).json()
    second = branch(client, game["id"], 4).json()
    listed = client.get(f"/games/{game['id']}/variations").json()
    assert [(g["id"], g["variation_of"]) for g in listed["games"]] == [
        (second["id"], {"game": game["id"], "step": 4}),
        (first["id"], {"game": game["id"], "step": 2}),
    ]
    assert listed["next_offset"] is None
    paged = client.get(f"/games/{game['id']}/variations?limit=1").json()
    assert [g["id"] for g in paged["games"]] == [second["id"]]
    assert paged["next_offset"] == 1
    assert client.get(f"/games/{first['id']}/variations").json()["games"] == []

    # Not among the games played, by anyone.
    player = game["players"][0]
    mine = client.get("/games", params={"player": player}).json()["games"]
    assert [g["id"] for g in mine] == [game["id"]]
    assert mine[0]["variation_of"] is None
    everyone = client.get("/games", params={"limit": 100}).json()["games"]
    assert first["id"] not in {g["id"] for g in everyone}
    record = client.get(f"/players/{player}").json()
    assert record["played"] == 1


def test_a_variation_of_a_finished_game_counts_no_win(client):
    game = new_game(client)
    logged = play_simulated(client, game)
    finished = client.get(f"/games/{game['id']}").json()
    assert finished["status"] == "finished"
    variation = branch(client, game["id"], logged).json()
    assert variation["status"] == "finished"
    assert variation["winners"] == finished["winners"]
    for player in game["players"]:
        record = client.get(f"/players/{player}").json()
        assert record["played"] == record["finished"] == 1
        assert record["won"] == (player in finished["winners"])


def test_an_app_key_branches_a_variation_and_writes_it_and_its_notes(
    client, database_url
):
    key = make_key(database_url)
    game = new_game(client)
    play_simulated(client, game, limit=4)
    keyed = {"Authorization": f"Bearer {key}"}
    answer = client.post(
        f"/games/{game['id']}/variations", json={"at": 2}, headers=keyed
    )
    assert answer.status_code == 201, answer.text
    variation = answer.json()
    fifth = list(simulated_moves(game))[2]
    logged = client.post(
        f"/games/{variation['id']}/moves",
        json=msgspec.to_builtins(fifth),
        headers=keyed,
    )
    assert logged.status_code == 201, logged.text
    noted = client.post(
        f"/games/{variation['id']}/notes",
        json={"step": 3, "text": "Tried it"},
        headers=keyed,
    )
    assert noted.status_code == 201, noted.text
    # The key did not create the original: it writes no note there.
    refused = client.post(
        f"/games/{game['id']}/notes", json={"step": 1, "text": "No"}, headers=keyed
    )
    assert refused.status_code == 403


def test_a_rebuilt_read_model_keeps_a_variation_a_variation(fresh_database_url):
    with (
        running_server(fresh_database_url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        game = new_game(client)
        play_simulated(client, game, limit=3)
        variation = branch(client, game["id"], 2).json()
        asyncio.run(rebuild(fresh_database_url))
        listed = client.get(f"/games/{game['id']}/variations").json()["games"]
        assert [g["variation_of"] for g in listed] == [{"game": game["id"], "step": 2}]
        assert [g["id"] for g in client.get("/games").json()["games"]] == [game["id"]]
        assert client.get(f"/games/{variation['id']}").json()["variation_of"]


async def rebuild(url: str) -> int:
    async with connection_pool(Settings(database_url=url, pool_min_size=1)) as pool:
        games = bootstrap.shell_games(EventStore(pool), BUILT_IN)
        return await Projector(pool, games.store, games.timelines).rebuild()


# ------------------------------------------------------------- names and hidings


def change(client, game_id: str, variation_id: str, body, token: str | None = None):
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return client.patch(
        f"/games/{game_id}/variations/{variation_id}", json=body, headers=headers
    )


def listed_names(client, game_id: str) -> list[tuple[str, str | None]]:
    answer = client.get(f"/games/{game_id}/variations")
    assert answer.status_code == 200, answer.text
    return [(g["id"], g["name"]) for g in answer.json()["games"]]


def name_rows(database_url: str, variation_id: str) -> list[tuple]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT entry, name, hidden FROM variation_names"
            " WHERE variation_id = %s ORDER BY entry",
            (variation_id,),
        ).fetchall()


def test_a_variation_is_named_and_hidden_as_rows_after_the_last(client, database_url):
    game = new_game(client)
    play_simulated(client, game, limit=4)
    first = branch(client, game["id"], 2).json()
    second = branch(client, game["id"], 3).json()
    assert listed_names(client, game["id"]) == [
        (second["id"], None),
        (first["id"], None),
    ]

    # The variation's own token names it, kept trimmed; the list says so.
    named = change(
        client, game["id"], first["id"], {"name": "  Bo takes "}, first["write_token"]
    )
    assert named.status_code == 200, named.text
    assert named.json() == {
        "id": first["id"],
        "variation_of": {"game": game["id"], "step": 2},
        "name": "Bo takes",
        "hidden": False,
    }
    # The original's token renames it: a row after the first, never in its place.
    renamed = change(
        client, game["id"], first["id"], {"name": "Bo keeps"}, game["write_token"]
    )
    assert renamed.json()["name"] == "Bo keeps"
    assert listed_names(client, game["id"]) == [
        (second["id"], None),
        (first["id"], "Bo keeps"),
    ]

    # Hidden: left out of the list, and still a game read at its address.
    hidden = change(
        client, game["id"], first["id"], {"hidden": True}, game["write_token"]
    )
    assert hidden.json() | {"id": None} == {
        "id": None,
        "variation_of": {"game": game["id"], "step": 2},
        "name": "Bo keeps",
        "hidden": True,
    }
    assert listed_names(client, game["id"]) == [(second["id"], None)]
    for path in ("", "/replay", "/replay/2", "/export", "/variations"):
        assert client.get(f"/games/{first['id']}{path}").status_code == 200, path

    # The same change again stores nothing; shown again, it is listed again.
    again = change(
        client,
        game["id"],
        first["id"],
        {"hidden": True, "name": "Bo keeps"},
        first["write_token"],
    )
    assert again.status_code == 200 and again.json()["hidden"] is True
    assert name_rows(database_url, first["id"]) == [
        (1, "Bo takes", None),
        (2, "Bo keeps", None),
        (3, None, True),
    ]
    shown = change(
        client, game["id"], first["id"], {"hidden": False}, first["write_token"]
    )
    assert shown.json()["hidden"] is False
    assert listed_names(client, game["id"]) == [
        (second["id"], None),
        (first["id"], "Bo keeps"),
    ]

    with (
        psycopg.connect(database_url) as conn,
        pytest.raises(psycopg.errors.RaiseException, match="append-only"),
    ):
        conn.execute(
            "UPDATE variation_names SET name = 'x' WHERE variation_id = %s",
            (first["id"],),
        )


def test_only_a_writer_of_the_variation_or_its_game_names_it(client, database_url):
    game = new_game(client)
    play_simulated(client, game, limit=3)
    variation = branch(client, game["id"], 1).json()
    other = new_game(client)
    body = {"name": "Mine"}
    assert change(client, game["id"], variation["id"], body).status_code == 401
    wrong = change(client, game["id"], variation["id"], body, other["write_token"])
    assert wrong.status_code == 403
    key = make_key(database_url)  # an app key that created neither game
    assert change(client, game["id"], variation["id"], body, key).status_code == 403
    assert name_rows(database_url, variation["id"]) == []

    # An app key that created the variation names it; a group's key, its group's.
    keyed = branch(client, game["id"], 2, Authorization=f"Bearer {key}").json()
    assert change(client, game["id"], keyed["id"], body, key).status_code == 200
    # A key of the group, for a variation of one of its games; to another
    # group's key, a members' game and its variations do not exist.
    ours, theirs = make_group(client), make_group(client)
    players = [f"Ana {uuid.uuid4().hex[:4]}", "Bea"]
    made = client.post(
        "/games",
        json={
            "game": "dobro",
            "players": new_players(*players),
            "first_player": players[0],
            "seed": 5,
        },
        headers={"Authorization": f"Bearer {ours['key']}"},
    )
    assert made.status_code == 201, made.text
    grouped = branch(
        client, made.json()["id"], 0, Authorization=f"Bearer {ours['key']}"
    ).json()
    refused = change(client, made.json()["id"], grouped["id"], body, theirs["key"])
    assert grouped["visibility"] == "members" and refused.status_code == 404
    named = change(client, made.json()["id"], grouped["id"], body, ours["key"])
    assert named.status_code == 200, named.text


def test_a_variation_name_is_refused_past_its_limits_and_nothing_is_stored(
    client, database_url
):
    game = new_game(client)
    play_simulated(client, game, limit=2)
    variation = branch(client, game["id"], 1).json()
    token = variation["write_token"]
    for body in (
        {},
        {"name": ""},
        {"name": "   "},
        {"name": "a\nb"},
        {"name": "x\u0000"},
        {"name": "é" * 81},
        {"name": 5},
        {"name": "ok", "colour": "red"},
        {"hidden": "yes"},
    ):
        answer = change(client, game["id"], variation["id"], body, token)
        assert answer.status_code == 422, (body, answer.text)
    assert (
        change(
            client, game["id"], variation["id"], {"name": "é" * 80}, token
        ).status_code
        == 200
    )
    assert name_rows(database_url, variation["id"]) == [(1, "é" * 80, None)]

    # A variation of another game, or an id no game has: the same 404, in words.
    other = branch(client, new_game(client)["id"], 0).json()
    for unknown in (other["id"], str(uuid.uuid4())):
        answer = client.patch(
            f"/games/{game['id']}/variations/{unknown}",
            json={"name": "x"},
            headers={"Authorization": f"Bearer {token}", "Accept-Language": "fr"},
        )
        assert answer.status_code == 404
        assert answer.json()["detail"] == f"La partie n'a pas de variante {unknown}."
    # The original is no variation of itself.
    itself = change(client, game["id"], game["id"], {"name": "x"}, game["write_token"])
    assert itself.status_code == 404


def test_a_variation_is_named_or_hidden_at_most_a_hundred_times(client, database_url):
    game = new_game(client)
    play_simulated(client, game, limit=1)
    variation = branch(client, game["id"], 1).json()
    token = variation["write_token"]
    for n in range(100):
        answer = change(
            client, game["id"], variation["id"], {"name": f"Try {n}"}, token
        )
        assert answer.status_code == 200, answer.text
    refused = change(client, game["id"], variation["id"], {"hidden": True}, token)
    assert refused.status_code == 422
    assert "100" in refused.json()["detail"]
    assert len(name_rows(database_url, variation["id"])) == 100
    assert listed_names(client, game["id"]) == [(variation["id"], "Try 99")]
