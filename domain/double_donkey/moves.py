"""The moves a Double Donkey table logs, checked by `rules.decide`.

These Structs are also the stored shape of a move: unknown fields are ignored, so
that a stored row stays readable (see `domain.history.Codec`).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.double_donkey.components import Card, Color, Pips
from domain.maps import in_key_order
from domain.names import PlayerName

_Revealed = Annotated[tuple[Card, ...], msgspec.Meta(max_length=3)]


# gc=False on what a stored row holds: see domain.history.Codec.
class Roll(msgspec.Struct, frozen=True, gc=False, tag="roll"):
    """K4: `player` rolled every die not yet on the Hay card."""

    player: PlayerName
    dice: Annotated[dict[Color, Pips], msgspec.Meta(min_length=1, max_length=6)]

    def __post_init__(self) -> None:
        in_key_order(self, "dice")


class Choose(msgspec.Struct, frozen=True, gc=False, tag="choose"):
    """K4, K5: `player` puts the rolled die of `color` on the Hay card."""

    player: PlayerName
    color: Color


class LastDie(msgspec.Struct, frozen=True, gc=False, tag="last_die"):
    """K6: `player` keeps the last die's face (`reroll` null) or rolls it once more."""

    player: PlayerName
    reroll: Pips | None = None


class Reveal(msgspec.Struct, frozen=True, gc=False, tag="reveal"):
    """K7: the cards every player holding cards reveals at once (1 to 3 each)."""

    cards: Annotated[dict[PlayerName, _Revealed], msgspec.Meta(max_length=5)]

    def __post_init__(self) -> None:
        in_key_order(self, "cards")


class RollOff(msgspec.Struct, frozen=True, gc=False, tag="roll_off"):
    """K9: one die rolled by each player still tied for the Biggest Donkey."""

    rolls: Annotated[dict[PlayerName, Pips], msgspec.Meta(max_length=5)]

    def __post_init__(self) -> None:
        in_key_order(self, "rolls")


Move = Roll | Choose | LastDie | Reveal | RollOff
MOVES: tuple[type[Move], ...] = (Roll, Choose, LastDie, Reveal, RollOff)
