"""Races: many clients append with the same expected version to several games at once;
exactly one wins each version of each game, the others get 409 and store nothing.
Retries with the same Idempotency-Key, sent at once or one after the other, never store
twice. (Moves arriving together share commits: the races mix games in one commit.)"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.support.games import Game, assert_log_sound, create, stored
from tests.support.server import running_server

RACERS = 8
VERSIONS = 8
# The games raced at once, one of each kind.
KINDS = ("dobro", "dobro-pixar", "dozito", "double-donkey")


@pytest.fixture(scope="module")
def base_url(database_url):
    with running_server(database_url) as url:
        yield url


def _race(base_url: str, requests: list[tuple[Game, dict, dict]]) -> list:
    """Send every request at once, each on a connection of its own: a new client
    per race, with room for them all, opens one connection per request in flight.
    (One client each would take some 40 ms apiece to make, its SSL context, and the
    first requests would be answered before the last had left.)"""

    async def send(
        client: httpx.AsyncClient, game: Game, body: dict, headers: dict
    ) -> httpx.Response:
        return await client.post(
            f"/games/{game.id}/moves", json=body, headers=game.auth | headers
        )

    async def all_at_once() -> list[httpx.Response]:
        room = httpx.Limits(max_connections=len(requests))
        async with httpx.AsyncClient(
            base_url=base_url, timeout=30, limits=room
        ) as client:
            return await asyncio.gather(*(send(client, *r) for r in requests))

    return asyncio.run(all_at_once())


def test_exactly_one_client_wins_each_version(base_url):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        games = [create(client, kind) for kind in KINDS]
    for version in range(1, VERSIONS + 1):
        bodies = [
            {**game.move_at(version), "expected_version": version} for game in games
        ]
        answers = _race(
            base_url,
            [(game, body, {}) for game, body in zip(games, bodies, strict=True)]
            * RACERS,
        )

        for index, (game, body) in enumerate(zip(games, bodies, strict=True)):
            mine = answers[index :: len(games)]
            statuses = sorted(a.status_code for a in mine)
            assert statuses == [201] + [409] * (RACERS - 1), statuses
            (won,) = (a for a in mine if a.status_code == 201)
            assert won.json()["version"] == version + 1
            game.acknowledged[version + 1] = body
    with httpx.Client(base_url=base_url, timeout=30) as client:
        for game in games:
            assert assert_log_sound(client, game) == VERSIONS + 1


def test_the_same_move_raced_without_expected_version_is_stored_once_per_key(
    base_url,
):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        games = [create(client, kind) for kind in KINDS]
    for version in range(1, VERSIONS + 1):
        key = {"Idempotency-Key": f"move-{version}"}
        answers = _race(
            base_url, [(game, game.move_at(version), key) for game in games] * RACERS
        )

        for index, game in enumerate(games):
            mine = answers[index :: len(games)]
            assert {a.status_code for a in mine} == {201}, [
                a.text for a in mine if a.status_code != 201
            ]
            assert {a.json()["version"] for a in mine} == {version + 1}
            assert len({a.content for a in mine}) == 1  # the first answer, replayed
            game.acknowledged[version + 1] = game.move_at(version)
    with httpx.Client(base_url=base_url, timeout=30) as client:
        for game in games:
            assert assert_log_sound(client, game) == VERSIONS + 1


def test_a_retry_after_the_game_moved_on_replays_its_answer_and_stores_nothing(
    base_url,
):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        game = create(client, "dobro")
        first = {**game.move_at(1), "expected_version": 1}
        key = {"Idempotency-Key": "first-move"}
        answer = client.post(
            f"/games/{game.id}/moves", json=first, headers=game.auth | key
        )
        assert answer.status_code == 201
        second = client.post(
            f"/games/{game.id}/moves",
            json={**game.move_at(2), "expected_version": 2},
            headers=game.auth,
        )
        assert second.status_code == 201

        retries = _race(base_url, [(game, first, key)] * RACERS)

        assert {r.status_code for r in retries} == {201}
        assert {r.json()["version"] for r in retries} == {2}
        assert {r.content for r in retries} == {answer.content}
        assert len(stored(client, game)) == 3


def test_a_key_reused_for_another_move_is_refused_and_stores_nothing(base_url):
    with httpx.Client(base_url=base_url, timeout=30) as client:
        game = create(client, "double-donkey")
        key = {"Idempotency-Key": "reused"}
        first = client.post(
            f"/games/{game.id}/moves", json=game.move_at(1), headers=game.auth | key
        )
        assert first.status_code == 201

        other = client.post(
            f"/games/{game.id}/moves", json=game.move_at(2), headers=game.auth | key
        )

        assert other.status_code == 422, other.text
        assert other.headers["content-type"] == "application/problem+json"
        assert len(stored(client, game)) == 2
