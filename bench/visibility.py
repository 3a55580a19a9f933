"""Visibility: a move into a members-only game, and a read of its replay, beside the
same on a public game; and a move into a group's game, which seats its roster's
players, beside one into a game of no group; on the service in a process of its
own.

The first two games are a group's, created with its key; each request carries the
game's write token, so the members-only game is read and written by a token holder:
every request of it asks whether the caller may see the game (the token's hash
compared with the stored one) before anything else, and its answers are marked
private. The public game's requests skip nothing else. The group's public game is
then set beside a public game created without a key: what a roster adds to a move.
Two contestants alternate, one slice each a round (which goes first swapped each
round), and each round gives the ratio of the first's time per request to the
second's: its median and range are the figure.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from bench.http import server
from bench.load import Connection
from bench.report import Figure, Report
from bench.scratch import Server
from bench.timing import Slice, alternate, run_async, summed
from bench.workload import creation_body, default_rules, setup_for, wire_moves

CLIENTS = 4
# The moves each client's game is given: fewer than a game holds (5,000).
MOVES = 4_000
# The moves of each game whose replay is read.
READ_MOVES = 30
# Time per request, members over public: what the check of who sees a game may add;
# a group's game over a game of no group: what its roster may add.
TARGET = ("max", 1.1)


class _Client:
    """One connection to the service, as the bench's load generator speaks."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.conn = Connection(parts.hostname or "127.0.0.1", parts.port or 80)

    async def call(
        self, method: str, path: str, body: Any = None, token: str = ""
    ) -> tuple[int, bytes]:
        headers = f"Authorization: Bearer {token}\r\n" if token else ""
        data = b"" if body is None else json.dumps(body).encode()
        return await self.conn.request(method, path, data, headers)


async def _game(client: _Client, key: str, visibility: str) -> dict[str, Any]:
    """A game of the group whose key is `key`, or of no group without one."""
    body = creation_body(visibility=visibility)
    if key:  # the group's roster has its players from the first game seating them
        body["players"] = [{"name": name, "new": True} for name in body["players"]]
    status, answer = await client.call("POST", "/games", body, key)
    assert status == 201, answer
    return json.loads(answer)


def _moves_slice(
    base_url: str, key: str, visibility: str, label: str, statuses: Counter
) -> Slice:
    """CLIENTS clients, each logging the moves of a game of its own (`_game`)."""
    moves = wire_moves(default_rules(), setup_for(default_rules()), MOVES)

    async def worker(deadline: float) -> int:
        client = _Client(base_url)
        await client.conn.open()
        try:
            game = await _game(client, key, visibility)
            path, token = f"/games/{game['id']}/moves", game["write_token"]
            done = 0
            while time.perf_counter() < deadline and done < MOVES:
                body = {**moves[done], "expected_version": done + 1}
                status, _ = await client.call("POST", path, body, token)
                statuses[f"visibility {label} moves {status}"] += 1
                done += 1
            return done
        finally:
            client.conn.close()

    return _slice(worker)


def _reads_slice(
    base_url: str, game: dict[str, Any], visibility: str, statuses: Counter
) -> Slice:
    """CLIENTS clients, each reading the game's replay again and again."""

    async def worker(deadline: float) -> int:
        client = _Client(base_url)
        await client.conn.open()
        path, token = f"/games/{game['id']}/replay", game["write_token"]
        done = 0
        try:
            while time.perf_counter() < deadline:
                status, _ = await client.call("GET", path, token=token)
                statuses[f"visibility {visibility} replays {status}"] += 1
                done += 1
            return done
        finally:
            client.conn.close()

    return _slice(worker)


def _slice(worker: Callable[[float], Awaitable[int]]) -> Slice:
    async def run(seconds: float) -> tuple[int, float]:
        return await run_async([worker] * CLIENTS, seconds)

    return run


async def _played(base_url: str, key: str, visibility: str) -> dict[str, Any]:
    """A game of the group with READ_MOVES moves logged."""
    client = _Client(base_url)
    await client.conn.open()
    try:
        game = await _game(client, key, visibility)
        moves = wire_moves(default_rules(), setup_for(default_rules()), READ_MOVES)
        path = f"/games/{game['id']}/moves"
        for move in moves:
            status, answer = await client.call("POST", path, move, game["write_token"])
            assert status == 201, answer
        return game
    finally:
        client.conn.close()


async def _group_key(base_url: str) -> str:
    client = _Client(base_url)
    await client.conn.open()
    try:
        body = {"name": "Bench club", "device": "the bench"}
        status, answer = await client.call("POST", "/groups", body)
        assert status == 201, answer
        return json.loads(answer)["key"]
    finally:
        client.conn.close()


async def _rounds(
    first: tuple[str, Slice], second: tuple[str, Slice], seconds: float, rounds: int
) -> list[dict]:
    """Each round one slice of each (label, slice), the one that goes first
    swapped from round to round: the work a slice leaves behind (the projection
    runner folding its moves) then falls on each alike."""
    per_round = []
    for number in range(rounds):
        order = [first, second]
        contestants = dict(order if number % 2 == 0 else order[::-1])
        per_round.append(await alternate(contestants, seconds / rounds, 1))
    return per_round


def _figure(
    name: str, per_round: list, rounds_note: str, over: tuple[str, str]
) -> Figure:
    """The figure of `per_round`: the time per request of `over`'s first label
    over its second's, each round."""
    first, second = over
    return Figure(
        "visibility",
        name,
        summed(first, per_round),
        summed(second, per_round),
        TARGET,
        note=rounds_note,
        rounds=tuple(r[second].per_second / r[first].per_second for r in per_round),
    )


async def measure(
    databases: Server, report: Report, seconds: float, rounds: int
) -> None:
    statuses: Counter = Counter()
    with server("tablelog", databases.database("visibility")) as base_url:
        key = await _group_key(base_url)
        moves = await _rounds(
            ("members", _moves_slice(base_url, key, "members", "members", statuses)),
            ("public", _moves_slice(base_url, key, "public", "public", statuses)),
            seconds,
            rounds,
        )
        hidden = await _played(base_url, key, "members")
        shown = await _played(base_url, key, "public")
        reads = await _rounds(
            ("members", _reads_slice(base_url, hidden, "members", statuses)),
            ("public", _reads_slice(base_url, shown, "public", statuses)),
            seconds,
            rounds,
        )
        rostered = await _rounds(
            ("group", _moves_slice(base_url, key, "public", "group", statuses)),
            ("no group", _moves_slice(base_url, "", "public", "no group", statuses)),
            seconds,
            rounds,
        )
    note = "time per request, members-only game over public game, a ratio a round"
    apart = ("members", "public")
    report.add(_figure("POST /moves, members game / public game", moves, note, apart))
    report.add(_figure("GET /replay, members game / public game", reads, note, apart))
    report.add(
        _figure(
            "POST /moves, group's game / game of no group",
            rostered,
            "time per request, a group's public game (its players on its roster) "
            "over a public game of no group, a ratio a round",
            ("group", "no group"),
        )
    )
    for name, count in statuses.items():
        report.counts[name] = report.counts.get(name, 0) + count
