"""Builders for Dozito tests: cards, games at a given point, and folding moves."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.dozito import DOZITO
from domain.dozito.components import Card
from domain.dozito.moves import Discard, Draw, Place, StartRound
from domain.dozito.state import State
from domain.game import Setup
from tests.domain.specification import Specification

ARTHUR, MAELLE, NOE = "Arthur", "Maëlle", "Noé"


def card(color: str, number: int, **attributes: Any) -> Card:
    return Card(color=color, number=number, **attributes)


def joker(color: str, suns: int = 0) -> Card:
    return Card(color=color, joker=True, suns=suns)


def plain(color: str, number: int, suns: int = 0) -> Card:
    """A card as the engine keeps it (suns settled)."""
    return Card(color=color, number=number, suns=suns)


def game(players: tuple[str, ...] = (ARTHUR, MAELLE), **options: Any) -> State:
    setup = Setup(players=players, first_player=players[0], seed=1, options=options)
    return DOZITO.initial_state(setup)


given, when, after, refused = Specification(DOZITO)


def started(
    players: tuple[str, ...] = (ARTHUR, MAELLE),
    discards: tuple[Card, Card] = (plain("yellow", 9), plain("yellow", 10)),
    **options: Any,
) -> State:
    return after(game(players, **options), StartRound(discards))


def with_grid(state: State, player: str, spots: dict[int, Card]) -> State:
    """The state with `player`'s grid showing `spots` face up (others face down)."""
    seat = state.seat(player)
    grid = tuple(spots.get(spot) for spot in range(1, 13))
    grids = (*state.grids[:seat], grid, *state.grids[seat + 1 :])
    return replace(state, grids=grids)


def full_grid(color: str, hole: int | None = None) -> dict[int, Card]:
    """Twelve face-up cards of `color` (numbers = spots), `hole` left face down."""
    return {n: plain(color, n) for n in range(1, 13) if n != hole}


def mixed_grid(hole: int | None = None) -> dict[int, Card]:
    """Twelve face-up cards of two colours (no instant win), `hole` face down."""
    colors = ("red", "blue")
    return {n: plain(colors[n % 2], n) for n in range(1, 13) if n != hole}


def draws(player: str, new: Card) -> Draw:
    return Draw(player, "deck", new)


__all__ = ["Discard", "Draw", "Place", "StartRound"]
