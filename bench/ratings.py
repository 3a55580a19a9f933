"""Ratings: what keeping the players' ratings costs.

- A finishing move's latency, p99, in a process whose projection runner keeps the
  ratings beside the game list, against the same process with a runner that keeps
  the game list alone. Each contestant has a database of its own holding games one
  move short of their end, already in its cache, and its runner following the log in
  the same event loop, as in a serving process; the two take turns in SLICES short
  slices (who goes first alternating), each finishing its games with WORKERS tables
  at once, a move every PAUSE seconds. The figure is the ratio of the p99 of every
  move timed; the ratio within each quarter of the moves gives its range.
- Rebuilding the ratings of 100,000 simulated finished games: each game's result
  (drawn from a seeded generator over 10,000 players: two to five of them, their
  ranks with ties) rated through the runner's own path (`ratings.rate`, a batch of
  250 games a transaction, as a batch of 500 events holds, from empty tables),
  beside reading the log of those games alone (`EventStore.read_all`, their
  creation and finishing rows, in the runner's batches).
- Reading a leaderboard of those ratings, about 10,000 players a game: its first
  page, its last page and a player's record, beside a query's floor (`SELECT 1`).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
import uuid
from contextlib import AsyncExitStack
from datetime import UTC, datetime

import msgspec
from psycopg_pool import AsyncConnectionPool

from bench.report import Figure, Latency, Percentile, Rate, Report
from bench.scratch import Server
from bench.workload import TOKEN, import_game
from domain.game import Setup
from domain.history import History
from domain.registry import BUILT_IN
from projections.ratings import Finish
from service import bootstrap
from service.application.creating import move_type
from service.application.observers import Unobserved
from service.application.tokens import token_hash
from service.readside import ratings, records
from service.readside.projector import BATCH, LIVE
from service.settings import Settings
from service.storage.store import EventStore

WORKERS = 4
PAUSE = 0.05
# Slices of the finishing moves, the contestants alternating (--quick: one): short
# enough that a neighbour's burst of load on this shared machine hits both alike.
SLICES = 40
NAMES = [f"Player {n}" for n in range(40)]

RATED_GAMES = 100_000
PLAYERS = 10_000
READS = 200


async def measure(databases: Server, report: Report, finishes: int) -> None:
    await _finishing(databases, report, finishes)
    url = databases.database("ratings_rebuild")
    count = RATED_GAMES if finishes >= 100 else 2_000
    async with AsyncConnectionPool(url, min_size=1, max_size=4) as pool:
        results = await _fill(pool, count)
        reading = await _read_log(pool)
        rating = await _rate(pool, results)
        report.counts["finished games rated for the rebuild"] = count
        report.add(
            Figure(
                "ratings",
                "rebuild of the ratings / reading the log alone (games a second)",
                rating,
                reading,
            )
        )
        await _leaderboards(pool, report)


# ------------------------------------------------------------ a finishing move


def _almost_finished(seed: int) -> tuple[str, Setup, list, object]:
    """A game one move short of its end: kind, set-up, stored moves, last move."""
    rules = list(BUILT_IN.values())[seed % len(BUILT_IN)]
    rng = random.Random(seed)
    players = tuple(rng.sample(NAMES, rng.randint(rules.min_players, 4)))
    setup = Setup(players=players, first_player=players[0], seed=seed, options={})
    history = History.start(rules, setup)
    stored = []
    for move in rules.simulate(setup):
        record, history = history.play(move)
        stored.append((move, record))
    *before, (last, _) = stored
    moves = [_stored(move, record) for move, record in before]
    return rules.name, setup, moves, last


def _stored(move, record):
    from bench.workload import Stored

    return Stored(move_type(move), msgspec.json.encode(record))


class _Contestant:
    """A process's games and its runner, over a database of its own."""

    def __init__(self, url: str, rating: bool) -> None:
        self.url, self.rating = url, rating
        self.latencies: list[float] = []

    async def __aenter__(self) -> _Contestant:
        # A serving process as bootstrap builds one, without its HTTP: no metrics,
        # no pictures, and the deliverer left to another process.
        settings = Settings(
            database_url=self.url, pool_min_size=2, pool_max_size=8, webhooks=False
        )
        self.process = AsyncExitStack()
        service = await self.process.enter_async_context(
            bootstrap.serving(
                settings, observer=Unobserved(), renderers={}, ratings=self.rating
            )
        )
        self.pool = service.pools.primary
        self.projector, self.games = service.projector, service.games
        self.runner = asyncio.create_task(self.projector.run(poll_seconds=0.2))
        return self

    async def __aexit__(self, *_: object) -> None:
        self.runner.cancel()
        await asyncio.gather(self.runner, return_exceptions=True)
        await self.process.aclose()

    async def prepare(self, seeds: range) -> list[tuple[uuid.UUID, object]]:
        ready = []
        for seed in seeds:
            name, setup, moves, last = _almost_finished(seed)
            game_id = await import_game(self.store, BUILT_IN[name], setup, moves)
            await self.games.timeline(game_id)  # held, as a table's game is
            ready.append((game_id, last))
        await self.projector.catch_up()
        return ready

    @property
    def store(self) -> EventStore:
        return self.games.store

    async def finish(self, games: list[tuple[uuid.UUID, object]]) -> None:
        """Finish the games, WORKERS at once, timing each finishing move."""
        queue = list(games)

        async def table() -> None:
            while queue:
                game_id, last = queue.pop()
                start = time.perf_counter()
                await self.games.submit(game_id, last)
                self.latencies.append(time.perf_counter() - start)
                await asyncio.sleep(PAUSE)

        await asyncio.gather(*(table() for _ in range(WORKERS)))
        await self.projector.catch_up()


async def _finishing(databases: Server, report: Report, finishes: int) -> None:
    slices = SLICES if finishes >= 100 else 1
    per_slice = max(1, finishes // slices)
    contestants = {
        "with ratings": _Contestant(databases.database("ratings_on"), True),
        "without": _Contestant(databases.database("ratings_off"), False),
    }
    async with contestants["with ratings"] as ours, contestants["without"] as theirs:
        ready = {
            name: await contestant.prepare(range(finishes))
            for name, contestant in contestants.items()
        }
        for n in range(slices):
            # Who goes first alternates: a neighbour's load that grows or fades
            # during a slice weighs on both alike over the slices.
            order = list(contestants.items())[:: 1 if n % 2 == 0 else -1]
            for name, contestant in order:
                await contestant.finish(
                    ready[name][n * per_slice : (n + 1) * per_slice]
                )
        rated = await _count(ours.pool, "SELECT count(*) FROM rated_games")
        unrated = await _count(theirs.pool, "SELECT count(*) FROM rated_games")
    report.counts["finishing moves timed, each contestant"] = per_slice * slices
    report.counts["games rated (with ratings / without)"] = f"{rated} / {unrated}"
    # The range: the same ratio within each quarter of the slices.
    parts = 4 if slices > 1 else 1
    blocks = [
        _p99(_part(ours.latencies, i, parts)) / _p99(_part(theirs.latencies, i, parts))
        for i in range(parts)
    ]
    report.details["finishing move: p99 ratio of each quarter"] = blocks
    report.add(
        Figure(
            "ratings",
            "finishing move, p99: with ratings / without",
            _percentile("with ratings", ours.latencies),
            _percentile("without", theirs.latencies),
            target=("max", 1.2),
            note=f"quarters {min(blocks):.2f} to {max(blocks):.2f}",
        )
    )


def _part(latencies: list[float], index: int, parts: int) -> list[float]:
    size = len(latencies) // parts
    return latencies[index * size : (index + 1) * size]


def _p99(latencies: list[float]) -> float:
    return (
        statistics.quantiles(latencies, n=100)[98]
        if len(latencies) > 1
        else (latencies[0] if latencies else 0.0)
    )


def _percentile(label: str, latencies: list[float]) -> Percentile:
    return Percentile(label, _p99(latencies) * 1000, len(latencies))


async def _count(pool: AsyncConnectionPool, query: str) -> int:
    async with pool.connection() as conn:
        cursor = await conn.execute(query)
        return (await cursor.fetchone())[0]


# ------------------------------------------------------------ the rebuild


async def _fill(
    pool: AsyncConnectionPool, count: int
) -> list[tuple[uuid.UUID, Finish]]:
    """`count` finished games in the log (a creation and a finishing row each, in
    that order) and in the game list, with their results as the runner takes
    them."""
    rng = random.Random(2026)
    kinds = list(BUILT_IN)
    hashed = token_hash(TOKEN)
    at = datetime.now(UTC)
    results = []
    games_rows, events_rows, summary_rows = [], [], []
    for n in range(count):
        game_id = uuid.UUID(int=rng.getrandbits(128))
        kind = kinds[n % len(kinds)]
        seated = tuple(rng.sample(range(PLAYERS), rng.randint(2, 5)))
        players = tuple(f"Player {p}" for p in seated)
        ranks = tuple(sorted(rng.randint(1, len(players)) for _ in players))
        winners = tuple(p for p, r in zip(players, ranks, strict=True) if r == 1)
        if not winners:
            ranks, winners = (1, *ranks[1:]), players[:1]
        results.append(
            (
                game_id,
                Finish(
                    game=kind,
                    group=None,
                    players=players,
                    first_player=players[0],
                    winners=winners,
                    ranks=ranks,
                    finished_at=at,
                ),
            )
        )
        games_rows.append((game_id, kind, list(players), players[0], n, hashed))
        events_rows.append((game_id, 1, "game_created", '{"type":"game_created"}'))
        events_rows.append((game_id, 2, "finished", '{"move":{},"events":[]}'))
        summary_rows.append(
            (game_id, kind, list(players), "finished", list(winners), 2, at, at)
        )
    async with pool.connection() as conn, conn.cursor() as cursor:
        async with cursor.copy(
            "COPY games (id, game, players, first_player, seed, token_hash) FROM STDIN"
        ) as copy:
            for row in games_rows:
                await copy.write_row(row)
        async with cursor.copy(
            "COPY events (game_id, version, type, data) FROM STDIN"
        ) as copy:
            for row in events_rows:
                await copy.write_row(row)
        async with cursor.copy(
            "COPY game_summaries (game_id, game, players, status, winners, version,"
            " created_at, updated_at) FROM STDIN"
        ) as copy:
            for row in summary_rows:
                await copy.write_row(row)
    return results


async def _read_log(pool: AsyncConnectionPool) -> Rate:
    """The log of those games read in the runner's batches: games a second."""
    store = EventStore(pool)
    start = time.perf_counter()
    read, position = 0, None
    while batch := await store.read_all(position, BATCH):
        read += len(batch)
        position = batch[-1][0]
    return Rate("read_all alone", read // 2, time.perf_counter() - start)


async def _rate(
    pool: AsyncConnectionPool, results: list[tuple[uuid.UUID, Finish]]
) -> Rate:
    """Every game rated from empty tables, a batch of the runner's a transaction
    (a batch of BATCH events holds BATCH / 2 of these games)."""
    start = time.perf_counter()
    step = BATCH // 2
    for first in range(0, len(results), step):
        batch = {gid: (2, finish) for gid, finish in results[first : first + step]}
        async with pool.connection() as conn, conn.transaction():
            await ratings.rate(conn, LIVE, batch)
    return Rate("rate", len(results), time.perf_counter() - start)


# ------------------------------------------------------------ the leaderboards


async def _leaderboards(pool: AsyncConnectionPool, report: Report) -> None:
    game = next(iter(BUILT_IN))
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT count(*) FROM ratings WHERE game = %s AND ladder = ''", (game,)
        )
        (players,) = await cursor.fetchone()
    last = max(0, players - 20)
    reads = {
        "first page": lambda: records.leaderboard(pool, game, None, 20, 0, BUILT_IN),
        "last page": lambda: records.leaderboard(pool, game, None, 20, last, BUILT_IN),
        "a player's record": lambda: records.player_record(pool, "Player 17"),
    }

    async def floor() -> None:
        async with pool.connection() as conn:
            await conn.execute("SELECT 1")

    report.counts["players on the leaderboard read"] = players
    for name, read in reads.items():
        ours, theirs = [], []
        for _ in range(READS):
            for timed, into in ((read, ours), (floor, theirs)):
                start = time.perf_counter()
                await timed()
                into.append((time.perf_counter() - start) * 1000)
        report.add(
            Figure(
                "ratings",
                f"leaderboard read at {players:,} players: {name} / SELECT 1",
                Latency(name, statistics.median(ours), len(ours)),
                Latency("SELECT 1", statistics.median(theirs), len(theirs)),
            )
        )
