"""Playing a game again through the HTTP API, on a real PostgreSQL (T4): the next
game at the same table, made by whoever may write the game before, once, with the
first player its rules name; refused as a move is refused to anyone else."""

from __future__ import annotations

import random
import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx
import msgspec
import psycopg
import pytest

from service.application.tokens import KEYS_BEGIN, derived_token, token_hash
from tests.support.groups import ADDRESSES, make_group, new_players
from tests.support.http import (
    client_from,
    create,
    move,
    play_simulated,
    simulated_moves,
)
from tests.support.keys import bearer, make_key
from tests.support.problems import assert_problem
from tests.support.server import running_server

DOZITO = {"game": "dozito", "options": {"rounds": 1}, "seed": 5}
COMPARED = ("content-type", "content-language", "vary", "cache-control")


@pytest.fixture(scope="module")
def base_url(database_url):
    with running_server(database_url) as url:
        yield url


@pytest.fixture
def client(base_url):
    # An address of its own: the groups a test makes count against its address.
    with client_from(base_url, next(ADDRESSES)) as client:
        yield client


def players(count: int = 3) -> list[str]:
    # Names of their own: nothing here depends on another test's games.
    return [f"{name} {uuid.uuid4().hex[:4]}" for name in ("Ana", "Bia", "Caio")][:count]


def finished(client: httpx.Client, headers: dict | None = None, **body) -> dict:
    """A new game (with a group's key in `headers`, if given), played to its end."""
    names = body.pop("players", None) or players()
    # Each a new player of the group's roster, in a game of a group.
    seats = new_players(*names)
    body = {**DOZITO, "players": seats, "first_player": names[1], **body}
    answer = client.post("/games", json=body, headers=headers or {})
    assert answer.status_code == 201, answer.text
    game = answer.json()
    play_simulated(client, game)
    read = client.get(f"/games/{game['id']}", headers=headers or {}).json()
    assert read["status"] == "finished"
    return game


def rematch(client: httpx.Client, game: dict, **headers: str) -> httpx.Response:
    """`POST /games/{id}/rematch` with the game's write token, unless `headers`
    bring another credential."""
    sent = bearer(game["write_token"]) | headers
    return client.post(f"/games/{game['id']}/rematch", headers=sent)


def credited(database_url: str, game_id: str) -> tuple:
    """The app key and the group key a game's row credits with its creation."""
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT app_key::text, group_key::text FROM games WHERE id = %s",
            (game_id,),
        ).fetchone()


def test_a_finished_game_is_played_again_by_the_same_table_T4(client, database_url):
    group = make_group(client, visibility="unlisted")
    game = finished(
        client,
        bearer(group["key"]),
        title="Friday night",
        location="Karen's kitchen",
        notes="The first game",
    )
    answer = rematch(client, game)
    assert answer.status_code == 201, answer.text
    again = answer.json()
    assert answer.headers["location"] == f"/games/{again['id']}"
    assert again["id"] != game["id"] and again["rematch_of"] == game["id"]
    for same in ("game", "players", "options", "group", "visibility", "title"):
        assert again[same] == game[same], same
    assert again["group"] == group["name"] and again["visibility"] == "unlisted"
    assert again["location"] == "Karen's kitchen" and again["notes"] is None
    assert again["seed"] != game["seed"]
    assert (again["status"], again["version"], again["winners"]) == (
        "in_progress",
        1,
        [],
    )
    assert again["write_token"] not in (None, game["write_token"])
    read = client.get(f"/games/{again['id']}").json()
    assert read["rematch_of"] == game["id"]
    assert client.get(f"/games/{game['id']}").json()["rematch_of"] is None
    # Made with the game's token, not with a key: the row credits no key.
    assert credited(database_url, again["id"]) == (None, None)

    # Its own token logs its moves; the token of the game before does not.
    first = msgspec.to_builtins(next(simulated_moves(again)))
    assert move(client, game | {"id": again["id"]}, first).status_code == 403
    assert move(client, again, first).status_code == 201


@pytest.mark.parametrize(
    ("kind", "count"),
    [("dobro", 3), ("dobro-pixar", 2), ("dozito", 3), ("double-donkey", 4)],
)
def test_the_first_player_of_a_game_played_again_is_its_rules_D18_Z16_K13(
    client, kind, count
):
    names = [*players(), f"Davi {uuid.uuid4().hex[:4]}"][:count]
    options = {} if kind == "double-donkey" else {"rounds": 1}
    game = create(
        client,
        game=kind,
        players=names,
        first_player=names[1],
        seed=11,
        options=options,
    )
    play_simulated(client, game)
    again = rematch(client, game).json()
    if kind.startswith("dobro"):  # D18: drawn again, from the new seed (D4)
        assert again["first_player"] == random.Random(again["seed"]).choice(names)
    else:  # Z16, K13: the same player opens again
        assert again["first_player"] == names[1]
    assert again["players"] == names


def test_an_abandoned_game_is_played_again_T4(client):
    names = players(2)
    game = create(client, game="double-donkey", players=names, first_player=names[0])
    play_simulated(client, game, limit=3)
    assert move(client, game, {"type": "abandon"}).status_code == 201
    answer = rematch(client, game)
    assert answer.status_code == 201, answer.text
    assert answer.json()["first_player"] == names[0]


def test_a_game_still_being_played_is_not_played_again_T4(client, stored_rows):
    game = create(client, **DOZITO, players=players())
    play_simulated(client, game, limit=4)
    before = stored_rows()
    problem = assert_problem(rematch(client, game), 409, rule="T4")
    assert problem["detail"] == (
        "This game is not over yet: it can be played again once it is finished "
        "or abandoned. (T4)"
    )
    french = assert_problem(
        rematch(client, game, **{"Accept-Language": "fr"}), 409, rule="T4"
    )
    assert french["detail"] == (
        "Cette partie n'est pas finie : on pourra la rejouer une fois terminée "
        "ou abandonnée. (T4)"
    )
    # An undo that reopens a finished game puts it back in play.
    for rest in list(simulated_moves(game))[4:]:
        assert move(client, game, msgspec.to_builtins(rest)).status_code == 201
    assert move(client, game, {"type": "undo"}).status_code == 201
    assert_problem(rematch(client, game), 409, rule="T4")
    assert stored_rows()[0] == before[0]


def test_a_game_is_played_again_once_a_second_request_is_told_of_the_first_T4(
    client,
):
    group = make_group(client)  # its games are its members' (`members`)
    game = finished(client, bearer(group["key"]))
    made = rematch(client, game, **bearer(group["key"])).json()

    # A member, who may read the next game, is told which it is, and where.
    again = rematch(client, game, **bearer(group["key"]))
    problem = assert_problem(again, 409)
    assert problem["game_id"] == made["id"]
    assert again.headers["location"] == f"/games/{made['id']}"
    assert problem["detail"] == (
        f"This game was already played again: the next game is {made['id']}."
    )
    # The token of the game before does not read the next game, a members' one:
    # that request is told only that the game was played again.
    hidden = rematch(client, game)
    problem = assert_problem(hidden, 409)
    assert "game_id" not in problem and "location" not in hidden.headers
    assert problem["detail"] == "This game was already played again."


def test_two_requests_at_once_make_one_next_game_T4(base_url, client, database_url):
    game_players = players()
    game = finished(client, players=game_players)

    def request(_: int) -> httpx.Response:
        with httpx.Client(base_url=base_url, timeout=30) as client:
            return rematch(client, game)

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(request, range(4)))
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [201, 409, 409, 409], [a.text for a in answers]
    made = next(a.json() for a in answers if a.status_code == 201)
    # Public games: each refusal names the game made.
    assert {a.json().get("game_id") for a in answers} == {None, made["id"]}
    with psycopg.connect(database_url) as conn:
        (count,) = conn.execute(
            "SELECT count(*) FROM games WHERE rematch_of = %s", (game["id"],)
        ).fetchone()
    assert count == 1


def test_a_request_sent_again_with_its_idempotency_key_gets_the_first_answer(
    client, stored_rows
):
    group = make_group(client, visibility="public")
    game = finished(client, bearer(group["key"]))
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = rematch(client, game, **key)
    assert first.status_code == 201, first.text
    made = first.json()
    logged = msgspec.to_builtins(next(simulated_moves(made)))
    assert move(client, made, logged).status_code == 201
    before = stored_rows()

    again = rematch(client, game, **key)
    assert again.status_code == 201, again.text
    assert again.headers["location"] == first.headers["location"]
    assert again.json()["id"] == made["id"]
    assert again.json()["write_token"] == made["write_token"]
    assert again.json()["version"] == 2  # the game as it stands
    assert stored_rows() == before

    # The key is the request's with its credential: another key, or the same key
    # with another credential, is another request, told of the game made.
    for headers in (
        {"Idempotency-Key": str(uuid.uuid4())},
        key | bearer(group["key"]),
    ):
        other = rematch(client, game, **headers)
        assert assert_problem(other, 409)["game_id"] == made["id"]
    assert stored_rows() == before


def test_a_groups_key_and_the_app_key_that_made_the_game_play_it_again(
    client, database_url
):
    group = make_group(client, visibility="public")
    game = finished(client, bearer(group["key"]))
    answer = rematch(client, game, **bearer(group["key"]))
    assert answer.status_code == 201, answer.text
    assert credited(database_url, answer.json()["id"]) == (None, group["key_id"])

    app = make_key(database_url)
    names = players(2)
    made = client.post(
        "/games",
        json={**DOZITO, "players": names, "first_player": names[0]},
        headers=bearer(app),
    ).json()
    play_simulated(client, made)
    answer = rematch(client, made, **bearer(app))
    assert answer.status_code == 201, answer.text
    app_id = credited(database_url, made["id"])[0]
    assert credited(database_url, answer.json()["id"]) == (app_id, None)
    # Another app's key may not: it did not make the game.
    other = make_key(database_url)
    assert_problem(rematch(client, made, **bearer(other)), 403)


def test_who_may_not_write_the_game_is_refused_as_a_move_would_be(client):
    public = finished(client)
    # A game the caller reads: the token's refusals of a move.
    assert_problem(rematch(client, public, Authorization="Bearer wrong"), 403)
    assert_problem(client.post(f"/games/{public['id']}/rematch"), 401)
    stranger = make_group(client)
    assert_problem(rematch(client, public, **bearer(stranger["key"])), 403)

    # A members' game hidden from the caller, and a game never made: the same 404.
    group = make_group(client)
    hidden = finished(client, bearer(group["key"]))
    missing = str(uuid.uuid4())
    for headers in ({}, bearer("wrong"), bearer(stranger["key"])):
        refused = client.post(f"/games/{hidden['id']}/rematch", headers=headers)
        never = client.post(f"/games/{missing}/rematch", headers=headers)
        assert_problem(never, 404)
        assert refused.status_code == never.status_code
        assert refused.content.replace(hidden["id"].encode(), b"ID") == (
            never.content.replace(missing.encode(), b"ID")
        )
        for name in COMPARED:
            assert refused.headers.get(name) == never.headers.get(name), name


def test_a_service_that_creates_games_only_for_keys_plays_again_only_for_keys(
    database_url,
):
    with (
        running_server(database_url, creation_needs_key=True) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        group = make_group(client, visibility="public")
        game = finished(client, bearer(group["key"]))
        assert_problem(rematch(client, game), 401)
        assert rematch(client, game, **bearer(group["key"])).status_code == 201


def test_a_token_drawn_from_a_credential_is_the_same_each_time_and_never_a_keys():
    token, hashed = derived_token("a credential", "rematch game key")
    assert derived_token("a credential", "rematch game key") == (token, hashed)
    assert hashed == token_hash(token) and len(token) == 32
    assert derived_token("another", "rematch game key")[0] != token
    assert derived_token("a credential", "rematch game other")[0] != token
    # One draw in 4,096 begins as a key does: some among these would.
    drawn = [derived_token("a credential", f"purpose {n}")[0] for n in range(20_000)]
    assert not [t for t in drawn if t.startswith(KEYS_BEGIN)]
