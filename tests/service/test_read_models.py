"""The game list and player records, kept by the projection runner that
follows the global log with a stored checkpoint."""

from __future__ import annotations

import asyncio
import uuid

from psycopg_pool import AsyncConnectionPool

from domain.registry import BUILT_IN
from service.application.creating import NewGame
from service.application.games import Games
from service.application.observers import NoReadSide, Unobserved
from service.application.timeline import Timelines
from service.readside.projector import Projector
from service.storage.store import EventStore
from tests.support.http import create, play_simulated
from tests.support.read_models import folded, summaries
from tests.support.waiting import eventually


class Waking(NoReadSide):
    """Wakes the projection runner at every append, as a serving process does."""

    def __init__(self, projector: Projector) -> None:
        self._projector = projector

    def appended(self) -> None:
        self._projector.wake()


def test_games_list_filters_pages_and_agrees_with_player_records(client):
    ann, bob = f"Ann-{uuid.uuid4().hex[:6]}", f"Bob-{uuid.uuid4().hex[:6]}"
    finished = create(client, game="dobro", players=[ann, bob], seed=1)
    play_simulated(client, finished)
    winners = client.get(f"/games/{finished['id']}").json()["winners"]
    others = [create(client, game="dozito", players=[ann, bob]) for _ in range(3)]

    def listed():
        page = client.get("/games", params={"player": ann, "limit": 10}).json()
        return page if len(page["games"]) == 4 else None

    page = eventually(listed)
    assert [g["id"] for g in page["games"]] == [g["id"] for g in reversed(others)] + [
        finished["id"]
    ]
    assert page["next_offset"] is None
    done = client.get("/games", params={"player": ann, "status": "finished"}).json()
    assert [(g["id"], g["winners"]) for g in done["games"]] == [
        (finished["id"], winners)
    ]
    dozito = client.get("/games", params={"player": bob, "game": "dozito", "limit": 2})
    assert len(dozito.json()["games"]) == 2 and dozito.json()["next_offset"] == 2
    record = eventually(
        lambda: (r := client.get(f"/players/{ann}").json())["finished"] == 1 and r
    )
    assert record["played"] == 4
    assert record["won"] == (1 if ann in winners else 0)
    assert record["games"]["dozito"] == {
        "played": 3,
        "finished": 0,
        "abandoned": 0,
        "won": 0,
        "rating": None,
        "place": None,
        "by_seat": [],
        "as_first_player": {"played": 0, "won": 0, "win_rate": 0.0},
        "longest_winning_streak": 0,
    }


async def play_concurrently(games: Games, seeds: range) -> int:
    """Play one simulated game per seed, all at once; how many events were stored."""

    async def play(seed: int) -> int:
        request = NewGame(game="dobro", players=["Ann", "Bob", "Cid"], seed=seed)
        row, history, _ = await games.create(request)
        for move in BUILT_IN["dobro"].simulate(history.setup):
            history = await games.submit(row.id, move)
        return history.version

    return sum(await asyncio.gather(*(play(seed) for seed in seeds)))


def test_the_runner_under_concurrent_writers_loses_and_duplicates_nothing(
    fresh_database_url, run
):
    async def scenario():
        async with AsyncConnectionPool(fresh_database_url, open=False) as pool:
            store = EventStore(pool)
            timelines = Timelines(store, BUILT_IN)
            projector = Projector(pool, store, timelines)
            games = Games(timelines, read_side=Waking(projector), observer=Unobserved())
            runner = asyncio.create_task(projector.run(poll_seconds=0.05))
            await play_concurrently(games, range(8))
            runner.cancel()
            await projector.catch_up()
            live = await summaries(pool)
            assert live == await folded(games) and len(live) == 8

            assert (
                await Projector(pool, games.store, games.timelines).rebuild() > 8 * 100
            )
            assert await summaries(pool) == live

            # A runner that starts again (a new process) resumes at the checkpoint:
            # it folds only what was stored since.
            stored_since = await play_concurrently(games, range(100, 102))
            restarted = Projector(pool, games.store, Timelines(games.store, BUILT_IN))
            assert await restarted.catch_up() == stored_since
            assert await summaries(pool) == await folded(games)

    run(scenario())


NIGHT = 'Ana\'s "night"'


def test_a_batch_of_summaries_goes_in_one_statement_and_only_moves_forward(
    database_url, run
):
    from datetime import UTC, datetime

    import psycopg

    from projections.summaries import Summary
    from service.readside.projector import LIVE
    from service.readside.summaries import write

    ids = [uuid.uuid4(), uuid.uuid4()]
    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)

    def summary(game_id, version, status="in_progress", winners=()):
        title = NIGHT if game_id == ids[0] else None
        # The second game is a variation of the first, from its step 1.
        of, step = (None, None) if game_id == ids[0] else (ids[0], 1)
        row = Summary(
            game_id=game_id,
            game="dobro",
            players=["Ana", "Zoé"],
            title=title,
            status=status,
            winners=list(winners),
            version=version,
            created_at=at,
            updated_at=at,
            variation_of=of,
            variation_step=step,
        )
        return game_id, (version, row)

    async def upsert(summaries) -> list:
        async with await psycopg.AsyncConnection.connect(database_url) as conn:
            await write(conn, LIVE, dict(summaries))
            await conn.commit()
            cursor = await conn.execute(
                "SELECT game_id, players, title, status, winners, version, updated_at,"
                " variation_of, variation_step FROM game_summaries"
                " WHERE game_id = ANY(%s) ORDER BY version",
                (ids,),
            )
            return await cursor.fetchall()

    assert run(upsert([summary(ids[0], 3), summary(ids[1], 2)])) == [
        (ids[1], ["Ana", "Zoé"], None, "in_progress", [], 2, at, ids[0], 1),
        (ids[0], ["Ana", "Zoé"], NIGHT, "in_progress", [], 3, at, None, None),
    ]
    rows = run(upsert([summary(ids[0], 2), summary(ids[1], 5, "finished", ["Zoé"])]))
    assert [(r[0], r[3], r[4], r[5]) for r in rows] == [
        (ids[0], "in_progress", [], 3),
        (ids[1], "finished", ["Zoé"], 5),
    ]
