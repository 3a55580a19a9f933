"""Seeded simulated games played through `History`, for the score sheets' properties."""

from __future__ import annotations

from collections.abc import Iterator

from domain.game import Rules, Setup
from domain.history import History

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
