"""Load: 16 concurrent clients over 50 games for a bounded time. Afterwards every 201
answer is in the log exactly once, every 409 stored nothing, and every game's log folds.

Clients share the games and know only what their last answer told them, so they
often send a move for a version that another client has just taken: the service must
refuse those with 409 and store nothing for them.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter

import httpx
import pytest

from domain.registry import BUILT_IN
from tests.support.games import Game, assert_log_sound, create
from tests.support.server import running_server

CLIENTS = 16
GAMES_COUNT = 50
SECONDS = 8


@pytest.fixture
def base_url(fresh_database_url):
    with running_server(fresh_database_url) as url:
        yield url


async def _client(
    base_url: str,
    games: list[Game],
    seen: dict[str, int],
    deadline: float,
    answers: Counter,
    seed: int,
) -> None:
    chance = random.Random(seed)
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        while time.monotonic() < deadline:
            game = chance.choice(games)
            version = seen[game.id]
            move = game.move_at(version)
            answer = await client.post(
                f"/games/{game.id}/moves",
                json={**move, "expected_version": version},
                headers=game.auth,
            )
            answers[answer.status_code] += 1
            if answer.status_code == 201:
                stored = answer.json()["version"]
                assert stored == version + 1
                assert stored not in game.acknowledged, "a version answered 201 twice"
                game.acknowledged[stored] = move
                seen[game.id] = max(seen[game.id], stored)
            else:
                assert answer.status_code == 409, answer.text
                assert answer.headers["content-type"] == "application/problem+json"
                seen[game.id] = max(seen[game.id], answer.json()["version"])


def test_every_201_is_stored_once_and_every_409_stored_nothing(base_url):
    kinds = sorted(BUILT_IN)
    with httpx.Client(base_url=base_url, timeout=30) as client:
        games = [create(client, kinds[i % len(kinds)]) for i in range(GAMES_COUNT)]
    seen = {game.id: 1 for game in games}
    answers: Counter = Counter()

    async def load() -> None:
        deadline = time.monotonic() + SECONDS
        await asyncio.gather(
            *(
                _client(base_url, games, seen, deadline, answers, seed)
                for seed in range(CLIENTS)
            )
        )

    asyncio.run(load())

    assert answers[201] > 0 and answers[409] > 0, answers
    with httpx.Client(base_url=base_url, timeout=30) as client:
        stored = sum(assert_log_sound(client, game) - 1 for game in games)
    # Every stored move was answered 201 (so no 409 stored anything), exactly once.
    assert stored == answers[201] == sum(len(g.acknowledged) for g in games)
