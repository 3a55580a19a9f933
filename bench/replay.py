"""Replay: `GET /games/{id}/replay/{step}` at the last step of games of 50, 300 and
5,000 moves, on the service in a process of its own.

Cold: the first request for a game the service does not hold, so it reads the game
from the store and folds it. The service measured starts after another one has folded
the games into the read models, as after a restart: its projection runner has nothing
left to do, and the games longer than `SNAPSHOT_AFTER` moves have their snapshots
(written by that first service's cold loads). Cold reads are of the last replay step
and, of other games, of `GET /games/{id}`. Each cold read is timed beside a plain read
of the same rows, in the same round: one SELECT of the game's stored moves from this
process and a msgspec decode of each, what any fold from the store must do at least.
The cold reads are interleaved, one game of every kind and length a round, so a
neighbour's burst of load hits them all alike. Warm: later requests of the default
game, whose timeline the service then holds.
"""

from __future__ import annotations

import statistics
import time
from urllib.parse import urlsplit

import anyio
import psycopg

from bench.http import server
from bench.load import Connection
from bench.report import Figure, Latency, Report
from bench.scratch import Server
from bench.workload import DEFAULT_GAME, import_game, setup_for, stored_moves
from domain.history import Codec
from domain.registry import BUILT_IN
from service import bootstrap
from service.application.snapshots import SNAPSHOT_AFTER
from service.settings import Settings

LENGTHS = (50, 300, 5_000)
# Cold reads of each game kind and length: one game each, each read once, for
# each of the two reads measured cold.
COLD_GAMES = 5
COLD_READS = ("replay", "game")
# Warm reads are of the default game's games, in turn.
WARM_GAMES = 3
# The first reads of a game nobody holds, in milliseconds (issue: cold loads).
COLD_TARGET_MS = {300: 10.0, 5_000: 50.0}

Games = dict[tuple[str, int], list[str]]


async def _import_games(url: str) -> Games:
    """COLD_GAMES games of every kind and length (WARM_GAMES more of the default)."""
    games: Games = {}
    settings = Settings(database_url=url, pool_min_size=1, pool_max_size=2)
    async with bootstrap.shell(settings) as service:
        store = service.store
        for name, rules in BUILT_IN.items():
            moves = stored_moves(rules, setup_for(rules), max(LENGTHS))
            count = COLD_GAMES * len(COLD_READS)
            count += WARM_GAMES if name == DEFAULT_GAME else 0
            for length in LENGTHS:
                games[name, length] = [
                    str(
                        await import_game(
                            store, rules, setup_for(rules), moves[:length]
                        )
                    )
                    for _ in range(count)
                ]
    return games


async def _projected(url: str, count: int, long: int) -> None:
    """The games folded into the read models by a service run before the one
    measured, and the `long` ones snapshotted: that one's projection runner then has
    nothing left to fold, and holds none of them (it would hold every game it
    folded, and load the machine while it folds)."""
    with server("tablelog", url):
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as db:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                cursor = await db.execute(
                    "SELECT (SELECT count(*) FROM game_summaries),"
                    " (SELECT count(*) FROM game_snapshots)"
                )
                if await cursor.fetchone() >= (count, long):
                    return
                await anyio.sleep(0.2)
    raise RuntimeError("the projection runner did not fold the bench's games")


async def _get(conn: Connection, path: str) -> float:
    start = time.perf_counter()
    status, body = await conn.request("GET", path)
    took = (time.perf_counter() - start) * 1000
    assert status == 200, body
    return took


async def _plain_read(db: psycopg.AsyncConnection, codec: Codec, game: str) -> float:
    """A game's stored moves read and decoded, and nothing else: milliseconds."""
    decode = codec.record_decoder.decode
    start = time.perf_counter()
    cursor = await db.execute(
        "SELECT data::text FROM events WHERE game_id = %s AND version > 1"
        " ORDER BY version",
        (game,),
    )
    for (data,) in await cursor.fetchall():
        decode(data)
    return (time.perf_counter() - start) * 1000


Samples = dict[tuple[str, int], list[float]]


async def _cold(
    conn: Connection, db: psycopg.AsyncConnection, games: Games
) -> tuple[Samples, Samples]:
    """Each game read once cold, beside a plain read of its rows: (cold, plain);
    the reads of `GET /games/{id}` under (game, -length)."""
    cold: Samples = {}
    plain: Samples = {}
    codecs = {name: Codec(rules) for name, rules in BUILT_IN.items()}
    for i in range(COLD_GAMES * len(COLD_READS)):
        for (name, n), ids in games.items():
            game = ids[i]
            path = f"/games/{game}" + (f"/replay/{n}" if i < COLD_GAMES else "")
            key = (name, n) if i < COLD_GAMES else (name, -n)
            # In turn first and second, so neither always finds the other's pages
            # in PostgreSQL's cache.
            if i % 2:
                cold.setdefault(key, []).append(await _get(conn, path))
            plain.setdefault(key, []).append(await _plain_read(db, codecs[name], game))
            if not i % 2:
                cold.setdefault(key, []).append(await _get(conn, path))
    return cold, plain


async def _warm(
    conn: Connection, games: list[list[str]], seconds: float, rounds: int
) -> list[list[float]]:
    """Requests of held games, per length, in alternating slices of time."""
    for ids, n in zip(games, LENGTHS, strict=True):  # a first warm request each,
        for game in ids:  # not counted
            await _get(conn, f"/games/{game}/replay/{n}")
    warm: list[list[float]] = [[] for _ in games]
    slice_seconds = seconds / rounds / len(games)
    for _ in range(rounds):
        for samples, ids, n in zip(warm, games, LENGTHS, strict=True):
            deadline = time.perf_counter() + slice_seconds
            while time.perf_counter() < deadline:
                game = ids[len(samples) % len(ids)]
                samples.append(await _get(conn, f"/games/{game}/replay/{n}"))
    return warm


async def measure(
    databases: Server, report: Report, seconds: float, rounds: int
) -> None:
    url = databases.database("replay")
    games = await _import_games(url)
    long = sum(len(ids) for (_, n), ids in games.items() if n > SNAPSHOT_AFTER)
    await _projected(url, sum(len(ids) for ids in games.values()), long)
    cold_count = COLD_GAMES * len(COLD_READS)
    held = [games[DEFAULT_GAME, n][cold_count:] for n in LENGTHS]
    cold_games = {key: ids[:cold_count] for key, ids in games.items()}
    with server("tablelog", url) as base_url:
        address = urlsplit(base_url)
        conn = Connection(address.hostname, address.port)
        await conn.open()
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as db:
            cold, plain = await _cold(conn, db, cold_games)
        warm = await _warm(conn, held, seconds, rounds)
        conn.close()
    _report_cold(report, cold, plain)
    first = LENGTHS[0]
    for n, samples in zip(LENGTHS[1:], warm[1:], strict=True):
        report.add(
            Figure(
                "replay",
                f"warm step {n:,} / step {first}",
                _latency(f"{n:,} moves", samples),
                _latency(f"{first} moves", warm[0]),
                ("max", 3.0) if n == LENGTHS[-1] else None,
            )
        )
    report.counts["replay cold games per kind, length and read"] = COLD_GAMES
    report.counts["replay games with a snapshot"] = long


def _report_cold(report: Report, cold: Samples, plain: Samples) -> None:
    first, last = LENGTHS[0], LENGTHS[-1]
    report.add(
        Figure(
            "replay",
            f"{DEFAULT_GAME}: cold step {last:,} / step {first}",
            _latency(f"{last:,} moves", cold[DEFAULT_GAME, last]),
            _latency(f"{first} moves", cold[DEFAULT_GAME, first]),
        )
    )
    for (name, signed), samples in cold.items():
        n = abs(signed)
        if n not in COLD_TARGET_MS:
            continue
        ours = _latency(f"{n:,} moves", samples)
        bound = COLD_TARGET_MS[n]
        verdict = "met" if ours.median_ms <= bound else "missed"
        read = f"step {n:,}" if signed > 0 else f"the game ({n:,} moves)"
        report.add(
            Figure(
                "replay cold",
                f"{name}: first read of {read} / plain read + decode of its rows",
                ours,
                _latency("plain", plain[name, signed]),
                note=f"target ≤ {bound:g} ms: {verdict} (median {ours.median_ms:.1f} "
                f"ms, range {ours.low_ms:.1f} to {ours.high_ms:.1f})",
            )
        )


def _latency(label: str, samples: list[float]) -> Latency:
    return Latency(
        label, statistics.median(samples), len(samples), min(samples), max(samples)
    )
