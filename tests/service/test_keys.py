"""App keys over HTTP: a request with `Authorization: Bearer tl_...` acts as its app.
It may write the games it created, within its scopes; its creations count against
its own rate, not its address's; an unknown or revoked key is refused at once, by
every process; and a setting may require a key to create a game."""

from __future__ import annotations

import hashlib
import subprocess
import uuid

import httpx
import psycopg
import pytest

from service.application import creating, tokens
from tests.support.exports import NDJSON, export_of
from tests.support.http import client_from
from tests.support.keys import BODY, bearer, make_key, revoke
from tests.support.problems import assert_problem
from tests.support.processes import tablelog_on
from tests.support.server import running_server

PLAY = {"type": "play", "player": "Ann", "cards": [4]}


def created(client: httpx.Client, credential: str | None = None) -> dict:
    headers = bearer(credential) if credential else {}
    answer = client.post("/games", json=BODY, headers=headers)
    assert answer.status_code == 201, answer.text
    return answer.json()


def moved(client: httpx.Client, game: dict, credential: str, body=PLAY):
    return client.post(
        f"/games/{game['id']}/moves", json=body, headers=bearer(credential)
    )


# ------------------------------------------------------------------ writing


def test_a_game_created_with_a_key_is_written_with_the_key_or_its_token(
    client, database_url
):
    key = make_key(database_url)
    game = created(client, key)

    assert moved(client, game, key).status_code == 201
    answer = moved(client, game, game["write_token"], {"type": "undo"})
    assert answer.status_code == 201, answer.text
    assert answer.json()["version"] == 3


def test_the_creating_key_is_recorded_with_the_game(client, database_url):
    key = make_key(database_url)
    game = created(client, key)
    exported = export_of("dobro", 1, 3, table=uuid.uuid4().hex[:6])
    imported = client.post(
        "/games/import", content=exported, headers=NDJSON | bearer(key)
    )
    assert imported.status_code == 201, imported.text
    # Imported again without the key (or with another), it is that game all the same.
    for headers in (NDJSON, NDJSON | bearer(make_key(database_url))):
        again = client.post("/games/import", content=exported, headers=headers)
        assert again.status_code == 409, again.text
        assert again.json()["game_id"] == imported.json()["id"]

    with psycopg.connect(database_url) as conn:
        owners = conn.execute(
            "SELECT k.key_hash FROM games g JOIN app_keys k ON k.id = g.app_key"
            " WHERE g.id IN (%s, %s)",
            (game["id"], imported.json()["id"]),
        ).fetchall()
    assert [bytes(h) for (h,) in owners] == [hashlib.sha256(key.encode()).digest()] * 2
    # The imported game is the key's to write as well.
    assert moved(client, imported.json(), key, {"type": "undo"}).status_code == 201


def test_a_key_is_refused_for_a_game_it_did_not_create(client, database_url):
    key, other = make_key(database_url), make_key(database_url)
    anonymous = created(client)
    others = created(client, other)

    for game in (anonymous, others):
        assert_problem(moved(client, game, key), 403, "did not create this game")
    # Refused before anything is stored.
    assert client.get(f"/games/{others['id']}").json()["version"] == 1


def test_without_a_key_a_game_is_created_and_written_as_ever(client):
    game = created(client)
    assert moved(client, game, game["write_token"]).status_code == 201
    assert_problem(moved(client, game, "not-the-token"), 403)


# ------------------------------------------------------------------ scopes


def test_a_key_without_moves_write_cannot_write_even_its_own_game(client, database_url):
    key = make_key(database_url, scopes=("games:create", "read"))
    game = created(client, key)
    assert_problem(moved(client, game, key), 403, "moves:write")
    # Its write token still writes it.
    assert moved(client, game, game["write_token"]).status_code == 201


def test_a_key_without_games_create_cannot_create_or_import(client, database_url):
    key = make_key(database_url, scopes=("moves:write", "read"))
    answer = client.post("/games", json=BODY, headers=bearer(key))
    assert_problem(answer, 403, "games:create")
    answer = client.post(
        "/games/import", content=export_of("dobro", 1, 3), headers=NDJSON | bearer(key)
    )
    assert_problem(answer, 403, "games:create")


def test_a_key_without_read_cannot_read_but_anyone_may(client, database_url):
    writer = make_key(database_url, scopes=("games:create", "moves:write"))
    reader = make_key(database_url, scopes=("read",))
    game = created(client, writer)
    for path in (f"/games/{game['id']}", "/games", f"/games/{game['id']}/events"):
        assert_problem(client.get(path, headers=bearer(writer)), 403, "read")
        assert client.get(path, headers=bearer(reader)).status_code == 200
        assert client.get(path).status_code == 200


def test_an_unknown_key_is_refused_everywhere_with_a_401(client):
    unknown = "tl_" + "x" * 43
    game = created(client)
    answers = [
        client.post("/games", json=BODY, headers=bearer(unknown)),
        client.get(f"/games/{game['id']}", headers=bearer(unknown)),
        moved(client, game, unknown),
    ]
    for answer in answers:
        assert_problem(answer, 401, "unknown")


def test_a_game_token_that_begins_as_a_key_does_still_writes(client, monkeypatch):
    # A token drawn at random begins as a key does once in 262,144 draws: a game
    # holding such a token is still written with it.
    old = "tl_" + "k" * 29
    monkeypatch.setattr(creating, "new_token", lambda: (old, tokens.token_hash(old)))
    game = created(client)
    assert game["write_token"] == old

    assert moved(client, game, old).status_code == 201
    assert_problem(moved(client, game, "tl_" + "z" * 29), 401, "unknown")


def test_a_new_write_token_never_begins_as_a_key(monkeypatch):
    drawn = iter(["tl_looks-like-a-key", "a-token"])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda n: next(drawn))
    assert tokens.new_token()[0] == "a-token"


# ------------------------------------------------------------------ revocation


def test_a_revoked_key_is_refused_at_once_by_every_process(database_url):
    key = make_key(database_url)
    with (
        running_server(database_url) as first_url,
        running_server(database_url) as second_url,
        httpx.Client(base_url=first_url, timeout=30) as first,
        httpx.Client(base_url=second_url, timeout=30) as second,
    ):
        game = created(first, key)
        # Both processes have seen the key, and hold the game.
        assert moved(second, game, key).status_code == 201
        assert first.get(f"/games/{game['id']}", headers=bearer(key)).status_code == 200

        revoke(database_url, key)

        for client in (first, second):
            assert_problem(moved(client, game, key, {"type": "undo"}), 401, "revoked")
            answer = client.get(f"/games/{game['id']}", headers=bearer(key))
            assert_problem(answer, 401, "revoked")
            answer = client.post("/games", json=BODY, headers=bearer(key))
            assert_problem(answer, 401, "revoked")
        # The game's own token still writes it.
        undo = moved(first, game, game["write_token"], {"type": "undo"})
        assert undo.status_code == 201


# ------------------------------------------------------------------ rates


@pytest.fixture(scope="module")
def limited(database_url):
    with running_server(database_url, creations_per_minute=2) as url:
        yield url


def creations(client: httpx.Client, key: str | None, times: int) -> list[int]:
    headers = bearer(key) if key else {}
    return [
        client.post("/games", json=BODY, headers=headers).status_code
        for _ in range(times)
    ]


def test_two_keys_from_one_address_each_have_their_own_budget(limited, database_url):
    first, second = make_key(database_url), make_key(database_url)
    with client_from(limited, "127.0.0.3") as client:
        assert creations(client, None, 3) == [201, 201, 429]  # the address's own
        assert creations(client, first, 3) == [201, 201, 429]
        answer = client.post("/games", json=BODY, headers=bearer(first))
        assert_problem(answer, 429, "with your app key")
        assert 0 < int(answer.headers["Retry-After"]) <= 60
        assert creations(client, second, 2) == [201, 201]


def test_one_key_from_two_addresses_shares_one_budget(limited, database_url):
    key = make_key(database_url)
    with (
        client_from(limited, "127.0.0.4") as here,
        client_from(limited, "127.0.0.5") as there,
    ):
        assert creations(here, key, 1) == [201]
        assert creations(there, key, 2) == [201, 429]
        # Imports count with creations.
        answer = here.post(
            "/games/import",
            content=export_of("dobro", 2, 3),
            headers=NDJSON | bearer(key),
        )
        assert answer.status_code == 429


def test_a_key_made_with_a_rate_counts_against_its_own(limited, database_url):
    key = make_key(database_url, rate=4)
    with client_from(limited, "127.0.0.6") as client:
        assert creations(client, key, 5) == [201, 201, 201, 201, 429]
        assert client.post("/games", json=BODY).status_code == 201  # the address's


def test_a_key_rate_holds_where_addresses_have_no_limit(client, database_url):
    key = make_key(database_url, rate=1)
    assert creations(client, key, 2) == [201, 429]
    assert creations(client, None, 2) == [201, 201]


# ------------------------------------------------------------------ required keys


@pytest.fixture(scope="module")
def keys_only(database_url):
    with (
        running_server(database_url, creation_needs_key=True) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        yield client


def test_a_service_may_create_games_only_for_apps(keys_only, database_url):
    answer = keys_only.post("/games", json=BODY)
    assert_problem(answer, 401, "only with a key")
    answer = keys_only.post(
        "/games/import", content=export_of("dobro", 3, 3), headers=NDJSON
    )
    assert_problem(answer, 401, "only with a key")

    key = make_key(database_url)
    game = created(keys_only, key)
    # Reads stay open, and the write token writes as ever.
    assert keys_only.get(f"/games/{game['id']}").status_code == 200
    assert moved(keys_only, game, game["write_token"]).status_code == 201


# ------------------------------------------------------------------ the shell


def tablelog(database_url: str, *args: str) -> subprocess.CompletedProcess:
    return tablelog_on(database_url, "keys", *args)


def test_the_shell_creates_lists_and_revokes_keys(client, database_url):
    made = tablelog(
        database_url,
        "create",
        "--name",
        "League table",
        "--scopes",
        "read,games:create,read",
        "--rate",
        "7",
    )
    assert made.returncode == 0, made.stderr
    printed = dict(line.split(": ", 1) for line in made.stdout.splitlines())
    key, key_id = printed["key"], printed["id"]
    assert key.startswith("tl_") and len(key) == 3 + 43
    assert printed["scopes"] == "games:create,read" and printed["rate"] == "7/min"
    assert "not shown again" in made.stderr

    # Only the key's hash is stored.
    with psycopg.connect(database_url) as conn:
        (row, stored) = conn.execute(
            "SELECT to_jsonb(k)::text, key_hash FROM app_keys k WHERE id = %s",
            (key_id,),
        ).fetchone()
    assert key not in row and bytes(stored) == hashlib.sha256(key.encode()).digest()

    game = created(client, key)
    listed = tablelog(database_url, "list")
    (line,) = [line for line in listed.stdout.splitlines() if line.startswith(key_id)]
    assert line.split("\t")[1:4] == ["League table", "games:create,read", "7/min"]
    assert line.endswith("active") and key not in listed.stdout

    revoked = tablelog(database_url, "revoke", key_id)
    assert revoked.returncode == 0, revoked.stderr
    assert "\trevoked " in revoked.stdout
    assert_problem(client.get(f"/games/{game['id']}", headers=bearer(key)), 401)
    again = tablelog(database_url, "revoke", key_id)
    assert again.returncode == 1 and "revoked already" in again.stderr
    listed = tablelog(database_url, "list").stdout
    assert "\trevoked " in next(x for x in listed.splitlines() if x.startswith(key_id))


def test_the_shell_refuses_a_scope_it_does_not_know(database_url):
    made = tablelog(database_url, "create", "--name", "x", "--scopes", "read,admin")
    assert made.returncode == 1 and "not admin" in made.stderr
    assert "tl_" not in made.stdout
    unknown = tablelog(database_url, "revoke", "00000000-0000-0000-0000-000000000000")
    assert unknown.returncode == 1 and "no app key" in unknown.stderr


def test_keys_and_revocations_are_never_changed(database_url):
    key = make_key(database_url)
    revoke(database_url, key)
    with psycopg.connect(database_url, autocommit=True) as conn:
        for statement in (
            "UPDATE app_keys SET scopes = '{read}'",
            "DELETE FROM app_key_revocations",
            "DELETE FROM app_keys",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                conn.execute(statement)
