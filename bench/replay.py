"""Replay: `GET /games/{id}/replay/{step}` latency at the last step of games of 50, 500
and 5,000 moves, on the service in a process of its own. The first request for a game
is cold (the service folds the game from the store); the later ones are warm (the
game's timeline is cached)."""

from __future__ import annotations

import statistics
import time
from urllib.parse import urlsplit

from psycopg_pool import AsyncConnectionPool

from bench.http import server
from bench.load import Connection
from bench.report import Figure, Latency, Report
from bench.scratch import Server
from bench.workload import default_rules, import_game, setup_for, stored_moves
from service.storage.store import EventStore

LENGTHS = (50, 500, 5_000)
GAMES_PER_LENGTH = 3


async def _import_games(url: str) -> dict[int, list[str]]:
    rules = default_rules()
    moves = stored_moves(rules, setup_for(rules), max(LENGTHS))
    async with AsyncConnectionPool(url, min_size=1, max_size=2) as pool:
        store = EventStore(pool)
        return {
            length: [
                str(await import_game(store, rules, setup_for(rules), moves[:length]))
                for _ in range(GAMES_PER_LENGTH)
            ]
            for length in LENGTHS
        }


async def _get(conn: Connection, path: str) -> float:
    start = time.perf_counter()
    status, body = await conn.request("GET", path)
    took = (time.perf_counter() - start) * 1000
    assert status == 200, body
    return took


async def measure(
    databases: Server, report: Report, seconds: float, rounds: int
) -> None:
    url = databases.database("replay")
    games = await _import_games(url)
    cold: dict[int, list[float]] = {n: [] for n in LENGTHS}
    warm: dict[int, list[float]] = {n: [] for n in LENGTHS}
    with server("tablelog", url) as base_url:
        address = urlsplit(base_url)
        conn = Connection(address.hostname, address.port)
        await conn.open()
        for i in range(GAMES_PER_LENGTH):
            for n in LENGTHS:
                cold[n].append(await _get(conn, f"/games/{games[n][i]}/replay/{n}"))
        for n in LENGTHS:  # a first warm request each, not counted
            for game in games[n]:
                await _get(conn, f"/games/{game}/replay/{n}")
        slice_seconds = seconds / rounds / len(LENGTHS)
        for _ in range(rounds):
            for n in LENGTHS:
                deadline = time.perf_counter() + slice_seconds
                while time.perf_counter() < deadline:
                    game = games[n][len(warm[n]) % GAMES_PER_LENGTH]
                    warm[n].append(await _get(conn, f"/games/{game}/replay/{n}"))
        conn.close()
    first, last = LENGTHS[0], LENGTHS[-1]
    for kind, samples, target in (("warm", warm, ("max", 3.0)), ("cold", cold, None)):
        for n in LENGTHS[1:]:
            report.add(
                Figure(
                    "replay",
                    f"{kind} step {n:,} / step {first}",
                    _latency(f"{n:,} moves", samples[n]),
                    _latency(f"{first} moves", samples[first]),
                    target if n == last else None,
                )
            )
    report.counts["replay games per length"] = GAMES_PER_LENGTH


def _latency(label: str, samples: list[float]) -> Latency:
    return Latency(label, statistics.median(samples), len(samples))
