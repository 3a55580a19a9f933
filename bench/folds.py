"""Folds: stored moves decoded and folded into each game's state, per second, beside
decoding the same stored JSON with msgspec alone (what the fold cannot go below), in
alternating slices: the ratio of each round is given too, with their median and
range.

The fold is a cold load's, through the service's own path: a timeline started from
the game's row and extended with its stored (version, data) rows as the store reads
them, keeping the state of every step as a cached timeline does."""

from __future__ import annotations

import time
from dataclasses import asdict
from datetime import UTC, datetime

import msgspec

from bench.report import Figure, Report
from bench.timing import Slice, by_round, summed
from bench.workload import new_game, setup_for
from domain.game import Rules, Setup
from domain.history import Codec, History
from domain.registry import BUILT_IN
from service.application.timeline import Timeline, setup_of
from service.storage.store import GameRow

# Stored moves per game: whole simulated games, seed after seed.
MOVES_PER_GAME = 20_000


# A game's row and its stored moves as the store reads them back: (version, data).
Stored = tuple[GameRow, list[tuple[int, str]]]


def logs(rules: Rules, count: int) -> list[Stored]:
    """Complete simulated games' stored records, `count` or a few more in all."""
    found: list[Stored] = []
    total, seed = 0, 0
    while total < count:
        setup = setup_for(rules, seed)
        history = History.start(rules, setup)
        events = []
        for move in rules.simulate(setup):
            record, history = history.play(move)
            events.append((history.version, msgspec.json.encode(record).decode()))
        found.append((_row(rules, setup), events))
        total += len(events)
        seed += 1
    return found


def _row(rules: Rules, setup: Setup) -> GameRow:
    row, _ = new_game(rules, setup)
    return GameRow(**asdict(row), created_at=datetime.now(UTC))


def _timed(passes, seconds: float) -> tuple[int, float]:
    """Whole passes over the logs until `seconds` are up: records done, time."""
    start = time.perf_counter()
    done = 0
    while time.perf_counter() - start < seconds:
        done += passes()
    return done, time.perf_counter() - start


def _decode(codec: Codec, games: list[Stored]) -> Slice:
    decode = codec.record_decoder.decode
    # The data alone, not unpacked from its row in the loop timed.
    stored = [data for _, events in games for _, data in events]

    def passes() -> int:
        for data in stored:
            decode(data)
        return len(stored)

    async def run(seconds: float) -> tuple[int, float]:
        return _timed(passes, seconds)

    return run


def _fold(rules: Rules, games: list[Stored]) -> Slice:
    """What `Timelines.load` does with a game no process holds and no snapshot."""
    codec = Codec(rules)

    def passes() -> int:
        for row, events in games:
            timeline = Timeline(row, History.start(rules, setup_of(row)))
            timeline.extend(events, codec.record_from_json)
        return sum(len(events) for _, events in games)

    async def run(seconds: float) -> tuple[int, float]:
        return _timed(passes, seconds)

    return run


async def measure(report: Report, seconds: float, rounds: int) -> None:
    for name, rules in BUILT_IN.items():
        games = logs(rules, MOVES_PER_GAME)
        contestants = {
            "fold": _fold(rules, games),
            "decode": _decode(Codec(rules), games),
        }
        per_round = await by_round(contestants, seconds, rounds)
        ratios = [r["fold"].per_second / r["decode"].per_second for r in per_round]
        report.add(
            Figure(
                "folds",
                f"{name}: decode + fold / decode alone",
                summed("fold", per_round),
                summed("decode", per_round),
                ("min", 0.3),
                rounds=tuple(ratios),
            )
        )
