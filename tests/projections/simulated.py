"""Seeded simulated games played through `History`, for the score sheets' and the
replays' properties."""

from __future__ import annotations

from collections.abc import Iterator

from domain.game import Rules, Setup
from domain.history import History, Recorded, Undo

NAMES = ("Ana", "Bia", "Caio", "Davi", "Eva", "Fabi")


def histories(
    rules: Rules, players: int, seed: int, every: int = 40, **options: object
) -> Iterator[History]:
    """A game's history every `every` moves while it goes on, then once it is over."""
    setup = Setup(
        players=NAMES[:players], first_player=NAMES[0], seed=seed, options=options
    )
    history = History.start(rules, setup)
    for count, move in enumerate(rules.simulate(setup), start=1):
        _, history = history.play(move)
        if count % every == 0 and not history.finished:
            yield history
    assert history.finished
    yield history


def timeline(
    rules: Rules, players: int, seed: int, undo_every: int = 0
) -> tuple[list[History], list[Recorded]]:
    """A seeded game's histories after each stored move and its records, as the
    service keeps them; every `undo_every`th move is undone and logged again."""
    setup = Setup(players=NAMES[:players], first_player=NAMES[0], seed=seed)
    histories = [History.start(rules, setup)]
    records: list[Recorded] = []

    def store(move: object) -> None:
        record, history = histories[-1].play(move)
        histories.append(history)
        records.append(record)

    for count, move in enumerate(rules.simulate(setup), start=1):
        store(move)
        if undo_every and count % undo_every == 0:
            store(Undo())
            store(move)
    return histories, records
