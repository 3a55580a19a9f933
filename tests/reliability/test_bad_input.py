"""Bad input: oversized bodies, deep JSON, wrong types, unknown games and moves, wrong
tokens. Each gets its 4xx as problem+json, and the game's log is unchanged."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.support.games import Game, create, stored


@pytest.fixture
def game(client) -> Game:
    game = create(client, "dobro-pixar")
    answer = client.post(
        f"/games/{game.id}/moves", json=game.move_at(1), headers=game.auth
    )
    assert answer.status_code == 201
    return game


def _deep(levels: int) -> bytes:
    return (
        b'{"type": "play", "player": "Ann", "cards": '
        + b"[" * levels
        + b"]" * levels
        + b"}"
    )


def _post(client, game: Game, content: bytes, headers: dict | None = None):
    return client.post(
        f"/games/{game.id}/moves",
        content=content,
        headers={"Content-Type": "application/json"} | game.auth | (headers or {}),
    )


def _assert_refused(answer: httpx.Response, status: int) -> None:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["status"] == status and problem["title"] and problem["detail"]


BODIES = {
    "oversized body": (b'{"type": "play", "pad": "' + b"x" * 300_000 + b'"}', 413),
    "deep JSON": (_deep(50_000), 422),  # within the 128 KiB of a move
    "not JSON": (b'{"type": "play", ', 400),
    "a list": (b"[1, 2, 3]", 422),
    "wrong types": (b'{"type": "play", "player": 5, "cards": "five"}', 422),
    "unknown move": (b'{"type": "shuffle", "player": "Bob"}', 422),
    "no type": (b'{"player": "Bob"}', 422),
    "unknown field": (b'{"type": "take", "player": "Bob", "extra": 1}', 422),
    "too many cards": (b'{"type": "play", "player": "Bob", "cards": [2,2,2,2,2]}', 422),
    "huge number": (
        b'{"type": "play", "player": "Bob", "cards": [1' + b"0" * 400 + b"]}",
        422,
    ),
}


@pytest.mark.parametrize("content, status", BODIES.values(), ids=BODIES.keys())
def test_a_bad_body_is_refused_and_stores_nothing(client, game, content, status):
    before = stored(client, game)

    _assert_refused(_post(client, game, content), status)

    assert stored(client, game) == before


# Litestar decodes bodies in msgspec's lax mode ("2" would pass for 2): the moves
# endpoint reads its body again strictly.
def test_an_expected_version_that_is_not_a_number_is_refused(client, game):
    before = stored(client, game)
    body = {**game.move_at(2), "expected_version": "2"}

    _assert_refused(_post(client, game, json.dumps(body).encode()), 422)

    assert stored(client, game) == before


TOKENS = {
    "no token": ({"Authorization": ""}, 401),
    "another scheme": ({"Authorization": "Basic YW5uOmJvYg=="}, 401),
    "a bearer without token": ({"Authorization": "Bearer"}, 401),
    "a wrong token": ({"Authorization": "Bearer not-the-token"}, 403),
    "another game's token": (None, 403),
}


@pytest.mark.parametrize("headers, status", TOKENS.values(), ids=TOKENS.keys())
def test_a_write_without_the_right_token_is_refused(client, game, headers, status):
    if headers is None:
        headers = create(client, "dobro").auth
    before = stored(client, game)

    answer = _post(client, game, json.dumps(game.move_at(2)).encode(), headers)

    _assert_refused(answer, status)
    assert stored(client, game) == before


def test_a_move_for_an_unknown_game_is_a_404(client, game):
    unknown = Game("0b7e8f1c-0000-4000-8000-000000000000", game.kind, game.token, [])

    _assert_refused(_post(client, unknown, json.dumps(game.move_at(2)).encode()), 404)


def test_an_unknown_game_cannot_be_created(client):
    answer = client.post("/games", json={"game": "chess", "players": ["Ann", "Bob"]})

    _assert_refused(answer, 422)


def test_a_too_long_idempotency_key_is_refused(client, game):
    before = stored(client, game)

    answer = _post(
        client,
        game,
        json.dumps(game.move_at(2)).encode(),
        {"Idempotency-Key": "k" * 500},
    )

    assert 400 <= answer.status_code < 500
    assert answer.headers["content-type"] == "application/problem+json"
    assert stored(client, game) == before
