"""A stored event the projection runner cannot fold (whatever the cause) does not
freeze the read models: the game is set aside where an operator sees it, every other
game keeps reaching the list within seconds, and the game is folded again once it
can be (on its next event, or when the runner retries after a fix)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import httpx
import psycopg
import pytest
from psycopg import sql

from domain.registry import BUILT_IN
from service import bootstrap
from service.application.creating import NewGame
from service.application.games import Games
from service.application.timeline import setup_of
from service.readside import projector as projector_module
from service.readside.projector import Projector
from service.settings import Settings
from service.storage.pools import connection_pool
from service.storage.store import EventStore
from tests.support.server import running_server

PLAYERS = ["Ann", "Bob"]

# Rows whose data the engine cannot fold: a move of a player the game does not have
# (the engine's fold fails on it), and a move type no engine knows (it does not
# decode). Neither can be logged through the API; a bug or a hand-typed INSERT can
# store them.
UNKNOWN_PLAYER = (
    '{"move": {"type": "play", "cards": [3], "player": "Nobody", "wild_as": null,'
    ' "announced": null}, "events": [{"type": "cards_played", "cards": [3],'
    ' "value": 3, "player": "Nobody", "refill": 1, "wild_as": null,'
    ' "next_player": "Ann"}]}'
)
UNKNOWN_MOVE = '{"move": {"type": "shuffle"}, "events": []}'


def _poison(database_url: str, game_id: str, data: str) -> None:
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "INSERT INTO events (game_id, version, type, data)"
            " VALUES (%s, 2, 'play', %s::jsonb)",
            (game_id, data),
        )


def _create(client: httpx.Client, seed: int) -> str:
    body = {"game": "dobro", "players": PLAYERS, "first_player": "Ann", "seed": seed}
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def _listed(client: httpx.Client) -> dict[str, int]:
    answer = client.get("/games", params={"limit": 100})
    assert answer.status_code == 200, answer.text
    return {game["id"]: game["version"] for game in answer.json()["games"]}


@pytest.fixture
def service(fresh_database_url) -> Iterator[httpx.Client]:
    """A service of the test's own, on a database of its own: the poison stays there."""
    with (
        running_server(fresh_database_url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        yield client


@pytest.mark.parametrize("data", [UNKNOWN_PLAYER, UNKNOWN_MOVE], ids=["player", "move"])
def test_a_poison_event_is_set_aside_and_later_games_reach_the_list(
    service, fresh_database_url, data
):
    poisoned = _create(service, seed=1)
    _poison(fresh_database_url, poisoned, data)

    later = [_create(service, seed) for seed in (2, 3, 4)]

    # The later games are listed as soon as they are created (read your writes);
    # the runner then folds past the poison and sets it aside, and goes on.
    deadline = time.monotonic() + 5
    while service.get("/health/projections").json()["status"] != "degraded":
        assert time.monotonic() < deadline, "the poison was never set aside"
        time.sleep(0.05)
    # A move that changes no status reaches the list only through the runner.
    body = {"game": "dobro", "players": PLAYERS, "first_player": "Ann", "seed": 5}
    third = service.post("/games", json=body).json()
    play = {"type": "play", "player": "Ann", "cards": [4]}
    auth = {"Authorization": f"Bearer {third['write_token']}"}
    moved = service.post(f"/games/{third['id']}/moves", json=play, headers=auth)
    assert moved.status_code == 201, moved.text
    while _listed(service).get(third["id"]) != 2:
        assert time.monotonic() < deadline + 5, "the runner stopped at the poison"
        time.sleep(0.05)
    assert set(later) <= _listed(service).keys()
    health = service.get("/health/projections")
    assert health.status_code == 200, health.text
    (aside,) = health.json()["set_aside"]
    assert aside["game_id"] == poisoned and aside["version"] == 2
    assert aside["error"]
    assert service.get("/health").status_code == 200


def test_with_nothing_set_aside_the_projections_are_ok(service):
    assert service.get("/health/projections").json() == {
        "status": "ok",
        "set_aside": [],
    }


# In one process, to give the engine a bug and take it away again.
@pytest.fixture
def runner(fresh_database_url, run) -> Iterator[tuple[Games, Projector]]:
    settings = Settings(database_url=fresh_database_url, pool_min_size=1)
    pool = connection_pool(settings)
    run(pool.open(wait=True, timeout=10))
    games = bootstrap.shell_games(EventStore(pool), BUILT_IN)
    try:
        yield games, Projector(pool, games.store, games.timelines)
    finally:
        run(pool.close())


def _new(seed: int) -> NewGame:
    return NewGame(game="dobro", players=PLAYERS, first_player="Ann", seed=seed)


def _summaries(database_url: str) -> dict[uuid.UUID, int]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT game_id, version FROM game_summaries").fetchall()
    return dict(rows)


def test_a_game_set_aside_folds_again_after_a_fix(
    runner, run, monkeypatch, fresh_database_url
):
    games, projector = runner
    (buggy, *_), (fine, *_) = run(games.create(_new(1))), run(games.create(_new(2)))
    as_stored_at = games.timelines.as_stored_at

    async def engine_with_a_bug(game_id, version):
        if game_id == buggy.id:
            raise RuntimeError("a bug in a future engine")
        return await as_stored_at(game_id, version)

    monkeypatch.setattr(games.timelines, "as_stored_at", engine_with_a_bug)

    assert run(projector.catch_up()) == 2
    assert run(projector.catch_up()) == 0  # the checkpoint moved past the failure
    assert _summaries(fresh_database_url) == {fine.id: 1}
    (aside,) = run(projector_module.set_aside(games.store.pool))
    assert aside.game_id == buggy.id and "a bug in a future engine" in aside.error

    # Its next event tries it again: still failing, now at version 2.
    first_move = next(iter(BUILT_IN["dobro"].simulate(setup_of(buggy))))
    run(games.submit(buggy.id, first_move))
    run(projector.catch_up())
    (aside,) = run(projector_module.set_aside(games.store.pool))
    assert (aside.version, aside.attempts) == (2, 2)

    monkeypatch.undo()  # the fix
    assert run(projector.retry()) == 1

    assert _summaries(fresh_database_url) == {fine.id: 1, buggy.id: 2}
    assert run(projector_module.set_aside(games.store.pool)) == []


def test_a_rebuild_sets_a_poison_game_aside_and_folds_the_rest(
    runner, run, fresh_database_url
):
    games, projector = runner
    poisoned, *_ = run(games.create(_new(1)))
    _poison(fresh_database_url, str(poisoned.id), UNKNOWN_PLAYER)
    fine, *_ = run(games.create(_new(2)))

    assert run(projector.rebuild()) == 3

    assert fine.id in _summaries(fresh_database_url)
    (aside,) = run(projector_module.set_aside(games.store.pool))
    assert aside.game_id == poisoned.id and "Nobody" in aside.error


def test_a_summary_the_database_refuses_sets_aside_its_game_alone(
    runner, run, fresh_database_url
):
    """The summaries of a batch go in one statement; when the database refuses one
    of them, each is written on its own and only that game is set aside."""
    games, projector = runner
    created = [run(games.create(_new(seed)))[0] for seed in (1, 2, 3)]
    refused = created[1]
    # The table refuses that game's row, as it refuses a value out of its checks.
    with psycopg.connect(fresh_database_url) as conn:
        refuse = sql.SQL(
            "ALTER TABLE game_summaries ADD CONSTRAINT refused CHECK (game_id <> {})"
        )
        conn.execute(refuse.format(sql.Literal(refused.id)))

    assert run(projector.catch_up()) == 3
    assert _summaries(fresh_database_url) == {
        game.id: 1 for game in created if game is not refused
    }
    (aside,) = run(projector_module.set_aside(games.store.pool))
    assert aside.game_id == refused.id
    assert "refused" in aside.error
