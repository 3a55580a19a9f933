"""Followers never freeze: the global log is read below the
oldest running transaction that holds an id, so the projection runners take turns
with an advisory lock (no id) and a rebuild folds into new tables in short
transactions. A live stream keeps delivering moves while a rebuild runs, and two
runners never fold a batch at once, neither holding back the log."""

from __future__ import annotations

import asyncio
import threading

import httpx
import msgspec
import pytest

from domain.registry import BUILT_IN
from service import bootstrap
from service.application.creating import NewGame
from service.application.games import Games
from service.application.timeline import Timelines
from service.readside.projector import Projector, RebuildRunning
from service.settings import Settings
from service.storage.pools import connection_pool
from service.storage.store import EventStore
from tests.support.http import create, move, simulated_moves
from tests.support.read_models import folded, summaries
from tests.support.server import running_server
from tests.support.streams import open_stream, take

PLAYERS = ["Ann", "Bob"]


def slowed(games: Games, seconds: float, folding=lambda: None) -> Games:
    """`games` whose every fold of a game for the read models takes `seconds` more;
    `folding` is called as each starts."""
    as_stored_at = games.timelines.as_stored_at

    async def slow_fold(game_id, version):
        folding()
        await asyncio.sleep(seconds)
        return await as_stored_at(game_id, version)

    games.timelines.as_stored_at = slow_fold  # type: ignore[method-assign]
    return games


async def rebuild_slowly(url: str, started: threading.Event, seconds: float) -> int:
    async with connection_pool(Settings(database_url=url, pool_min_size=1)) as pool:
        games = slowed(
            bootstrap.shell_games(EventStore(pool), BUILT_IN), seconds, started.set
        )
        return await Projector(pool, games.store, games.timelines).rebuild()


def test_a_live_stream_keeps_delivering_moves_while_a_rebuild_runs(
    fresh_database_url,
):
    with (
        running_server(fresh_database_url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        others = [create(client, game="dozito", players=PLAYERS) for _ in range(60)]
        game = create(client, game="dobro", players=PLAYERS, seed=3)
        received = open_stream(client, f"/games/{game['id']}/stream")
        started, result = threading.Event(), []
        rebuilding = threading.Thread(
            target=lambda: result.append(
                asyncio.run(rebuild_slowly(fresh_database_url, started, 0.1))
            )
        )
        rebuilding.start()
        assert started.wait(timeout=30)
        # 61 games folded 0.1 s more slowly each: some 6 s of rebuild.
        for version, body in enumerate(list(simulated_moves(game))[:5], start=2):
            answer = move(client, game, msgspec.to_builtins(body))
            assert answer.status_code == 201, answer.text
            ((delivered, _, _),) = take(received, 1)
            assert int(delivered) == version
        assert rebuilding.is_alive(), "the rebuild ended before the moves were seen"
        rebuilding.join(timeout=60)
        assert result == [len(others) + 6]
        listed = client.get("/games", params={"player": "Ann", "limit": 100}).json()
        assert len(listed["games"]) == len(others) + 1


def test_two_runners_never_fold_a_batch_at_once_and_neither_holds_back_the_log(
    fresh_database_url, run
):
    async def scenario():
        settings = Settings(database_url=fresh_database_url, pool_min_size=1)
        async with connection_pool(settings) as pool:
            store = EventStore(pool)
            writer = bootstrap.shell_games(store, BUILT_IN)
            for seed in range(3):
                await writer.create(NewGame(game="dobro", players=PLAYERS, seed=seed))
            folding, most_at_once = 0, 0
            first_fold, release = asyncio.Event(), asyncio.Event()

            def runner() -> Projector:
                timelines = Timelines(store, BUILT_IN)
                load = timelines.load

                async def watched_load(game_id, *, whole=False):
                    nonlocal folding, most_at_once
                    folding += 1
                    most_at_once = max(most_at_once, folding)
                    first_fold.set()
                    await release.wait()
                    folding -= 1
                    return await load(game_id, whole=whole)

                timelines.load = watched_load  # type: ignore[method-assign]
                return Projector(pool, store, timelines)

            first, second = runner(), runner()
            holding = asyncio.create_task(first.catch_up())
            await first_fold.wait()  # the first runner is in the middle of a batch
            assert await second.catch_up(wait=False) == 0  # its turn is taken
            waiting = asyncio.create_task(second.catch_up())
            await asyncio.sleep(0.2)
            # Both runners are at it, one folding, one waiting for its turn: a game
            # created now is in the global log at once.
            created, _, _ = await writer.create(NewGame(game="dobro", players=PLAYERS))
            log = await store.read_all(None, 100)
            assert created.id in {event.game_id for _, event in log}
            release.set()
            counts = await asyncio.gather(holding, waiting)
            assert most_at_once == 1
            assert sum(counts) == 4  # every event folded once, by one of them
            assert await summaries(pool) == await folded(writer)

    run(scenario())


def test_a_second_rebuild_while_one_runs_is_refused(fresh_database_url, run):
    async def scenario():
        settings = Settings(database_url=fresh_database_url, pool_min_size=1)
        async with connection_pool(settings) as pool:
            games = bootstrap.shell_games(EventStore(pool), BUILT_IN)
            for seed in range(5):
                await games.create(NewGame(game="dobro", players=PLAYERS, seed=seed))
            slow = Projector(pool, games.store, slowed(games, 0.2).timelines)
            first = asyncio.create_task(slow.rebuild())
            await asyncio.sleep(0.3)
            with pytest.raises(RebuildRunning, match="another rebuild"):
                other = Timelines(games.store, BUILT_IN)
                await Projector(pool, games.store, other).rebuild()
            assert await first == 5
            assert await summaries(pool) == await folded(games)

    run(scenario())
