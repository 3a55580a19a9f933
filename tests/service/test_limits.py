"""Security limits: oversized or pathological requests are refused with a 4xx before
they cost memory or store anything, and write tokens are kept only as hashes."""

from __future__ import annotations

import hashlib

import psycopg
import pytest

from service.application import tokens
from service.settings import Settings

MAX_BODY = Settings(database_url="").max_body_bytes
PLAYERS = ["Priscila", "Mauricio", "Karen", "Patricia"]


@pytest.fixture
def game(client):
    body = {"game": "dobro-pixar", "players": PLAYERS, "first_player": "Priscila"}
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def post_move(client, game, content: bytes):
    return client.post(
        f"/games/{game['id']}/moves",
        content=content,
        headers={
            "Authorization": f"Bearer {game['write_token']}",
            "Content-Type": "application/json",
        },
    )


def assert_refused(answer, *statuses):
    assert answer.status_code in statuses, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_a_body_over_the_limit_is_a_413_and_stores_nothing(client, game, stored_rows):
    before = stored_rows()
    padding = b" " * (MAX_BODY + 1)
    create = b'{"game": "dobro", "players": ["A", "B"]}' + padding
    answer = client.post(
        "/games", content=create, headers={"Content-Type": "application/json"}
    )
    assert_refused(answer, 413)
    move = b'{"type": "take", "player": "Priscila"}' + padding
    assert_refused(post_move(client, game, move), 413)
    assert stored_rows() == before


def test_deeply_nested_json_is_refused_and_stores_nothing(client, game, stored_rows):
    before = stored_rows()
    depth = 50_000
    nested = b"[" * depth + b"]" * depth
    create = b'{"game": "dobro", "players": ["A", "B"], "options": ' + nested + b"}"
    answer = client.post(
        "/games", content=create, headers={"Content-Type": "application/json"}
    )
    assert_refused(answer, 400, 422)
    move = b'{"type": "play", "player": "Priscila", "cards": ' + nested + b"}"
    assert_refused(post_move(client, game, move), 400, 422)
    created = b'{"type": "game_created", "game": "dobro", "options": ' + nested + b"}"
    answer = client.post(
        "/games/import",
        content=created + b"\n" + move,
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert_refused(answer, 422)
    assert answer.json()["line"] == 1
    assert stored_rows() == before


def test_a_move_with_ten_thousand_cards_is_a_422(client, game, stored_rows):
    before = stored_rows()
    cards = b"[" + b",".join([b"5"] * 10_000) + b"]"
    move = b'{"type": "play", "player": "Priscila", "cards": ' + cards + b"}"
    assert_refused(post_move(client, game, move), 422)
    assert stored_rows() == before


@pytest.mark.parametrize(
    "overrides",
    [
        {"players": [f"P{i}" for i in range(10_000)]},
        {"players": ["x" * 100_000, "Bob"]},
        {"title": "t" * 100_000},
        {"notes": "n" * 100_000},
        {"title": "nul \u0000 inside"},
        {"players": ["Ann\u0000", "Bob"]},
    ],
    ids=[
        "ten thousand players",
        "a huge name",
        "a huge title",
        "huge notes",
        "a NUL in the title",
        "a NUL in a name",
    ],
)
def test_huge_or_unstorable_fields_of_a_new_game_are_a_422(
    client, stored_rows, overrides
):
    before = stored_rows()
    body = {"game": "dobro", "players": ["Ann", "Bob"], **overrides}
    assert_refused(client.post("/games", json=body), 422)
    assert stored_rows() == before


def test_an_overlong_idempotency_key_is_refused(client, game, stored_rows):
    before = stored_rows()
    answer = client.post(
        f"/games/{game['id']}/moves",
        json={"type": "play", "player": "Priscila", "cards": [4]},
        headers={
            "Authorization": f"Bearer {game['write_token']}",
            "Idempotency-Key": "k" * 10_000,
        },
    )
    assert_refused(answer, 400, 422)
    assert stored_rows() == before


def test_only_a_hash_of_the_write_token_is_stored(client, game, database_url):
    token = game["write_token"]
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT to_jsonb(g)::text, token_hash FROM games g WHERE id = %s",
            (game["id"],),
        ).fetchone()
        events = conn.execute(
            "SELECT data::text FROM events WHERE game_id = %s", (game["id"],)
        ).fetchall()
    assert token not in row[0]
    assert all(token not in data for (data,) in events)
    assert bytes(row[1]) == hashlib.sha256(token.encode()).digest()


def test_tokens_are_compared_in_constant_time(monkeypatch):
    compared = []

    def spy(a, b):
        compared.append((a, b))
        return a == b

    monkeypatch.setattr(tokens.hmac, "compare_digest", spy)
    stored = tokens.token_hash("right")
    tokens.check_bearer("Bearer right", stored)
    assert compared == [(tokens.token_hash("right"), stored)]
