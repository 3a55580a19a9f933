"""Helpers for Double Donkey's given/when/then tests: states, cards and dice phases."""

from __future__ import annotations

from msgspec.structs import replace

from domain.double_donkey import DOUBLE_DONKEY
from domain.double_donkey.components import COLORS, Card
from domain.double_donkey.moves import Choose, LastDie, Roll
from domain.double_donkey.setup import initial_state
from domain.double_donkey.state import Revealing, State
from domain.game import Setup
from tests.domain.specification import Specification

PLAYERS = ("Olivia", "Fran", "Jan", "Margaret")

# The Hay card at the end of the rulebook's example round ("1. Choosing dice").
EXAMPLE_HAY = {
    "light_blue": 2,
    "orange": 5,
    "purple": 1,
    "green": 2,
    "dark_blue": 3,
    "yellow": 2,
}


def setup(players=PLAYERS, first=None, seed=1, options=None) -> Setup:
    return Setup(
        players=tuple(players),
        first_player=first or players[0],
        seed=seed,
        options=options or {},
    )


def new_game(players=PLAYERS, first=None) -> State:
    return initial_state(setup(players, first))


def at_reveal(hay=None, players=PLAYERS, **changes) -> State:
    """All six dice on the Hay card (`hay`, colour -> pips), cards to be revealed."""
    hay = hay or dict.fromkeys(COLORS, 1)
    return replace(
        new_game(players), phase=Revealing(), hay=tuple(hay.items()), **changes
    )


given, when, after, refused = Specification(DOUBLE_DONKEY)


def dd(first: str, second: str) -> Card:
    return Card(colors=(first, second))


def angry(color: str) -> Card:
    return Card(angry=color)


def dice_phase(state: State, hay: dict[str, int]) -> State:
    """Play a dice phase that leaves `hay` on the Hay card, choosing in `hay`'s order.

    Every die rolled shows the chosen die's value, so K5 always allows the choice."""
    order = list(hay)
    for color in order[:5]:
        player = state.phase.player
        owed = [c for c in COLORS if c not in dict(state.hay)]
        state = after(state, Roll(player, dict.fromkeys(owed, hay[color])))
        state = after(state, Choose(player, color))
    last = state.phase
    reroll = None if last.pips == hay[order[5]] else hay[order[5]]
    return after(state, LastDie(last.player, reroll))
