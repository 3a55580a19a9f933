"""Folds: stored moves decoded and folded into each game's state, per second, beside
decoding the same stored JSON with msgspec alone (what the fold cannot go below), in
alternating slices: the ratio of each round is given too, with their median and
range."""

from __future__ import annotations

import statistics
import time

import msgspec

from bench.report import Figure, Rate, Report
from bench.timing import Slice, alternate
from bench.workload import setup_for
from domain.game import Rules, Setup
from domain.history import Codec, History
from domain.registry import GAMES

# Stored moves per game: whole simulated games, seed after seed.
MOVES_PER_GAME = 20_000


def logs(rules: Rules, count: int) -> list[tuple[Setup, list[bytes]]]:
    """Complete simulated games' stored records, `count` or a few more in all."""
    found: list[tuple[Setup, list[bytes]]] = []
    total, seed = 0, 0
    while total < count:
        setup = setup_for(rules, seed)
        history = History.start(rules, setup)
        records = []
        for move in rules.simulate(setup):
            record, history = history.play(move)
            records.append(msgspec.json.encode(record))
        found.append((setup, records))
        total += len(records)
        seed += 1
    return found


def _timed(passes, seconds: float) -> tuple[int, float]:
    """Whole passes over the logs until `seconds` are up: records done, time."""
    start = time.perf_counter()
    done = 0
    while time.perf_counter() - start < seconds:
        done += passes()
    return done, time.perf_counter() - start


def _decode(codec: Codec, games: list[tuple[Setup, list[bytes]]]) -> Slice:
    decode = codec.record_decoder.decode

    def passes() -> int:
        for _, records in games:
            for data in records:
                decode(data)
        return sum(len(records) for _, records in games)

    async def run(seconds: float) -> tuple[int, float]:
        return _timed(passes, seconds)

    return run


def _fold(rules: Rules, games: list[tuple[Setup, list[bytes]]]) -> Slice:
    codec = Codec(rules)

    def passes() -> int:
        for setup, records in games:
            history = History.start(rules, setup)
            for data in records:
                history = history.apply(codec.record_from_json(data))
        return sum(len(records) for _, records in games)

    async def run(seconds: float) -> tuple[int, float]:
        return _timed(passes, seconds)

    return run


async def measure(report: Report, seconds: float, rounds: int) -> None:
    for name, rules in GAMES.items():
        games = logs(rules, MOVES_PER_GAME)
        contestants = {
            "fold": _fold(rules, games),
            "decode": _decode(Codec(rules), games),
        }
        # One slice each a round, so each round gives a ratio of its own.
        per_round = [
            await alternate(contestants, seconds / rounds, 1) for _ in range(rounds)
        ]
        ratios = [r["fold"].per_second / r["decode"].per_second for r in per_round]
        report.add(
            Figure(
                "folds",
                f"{name}: decode + fold / decode alone",
                _summed("fold", per_round),
                _summed("decode", per_round),
                ("min", 0.3),
                note=f"per round: median {statistics.median(ratios):.3f}, range "
                f"{min(ratios):.3f} to {max(ratios):.3f} over {rounds} rounds",
            )
        )


def _summed(name: str, rounds: list[dict[str, Rate]]) -> Rate:
    return Rate(
        name,
        sum(r[name].count for r in rounds),
        sum(r[name].seconds for r in rounds),
    )
