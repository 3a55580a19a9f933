"""What a Dozito table logs: the API's Dozito moves.

These Structs are also the stored shape of a move: unknown fields are ignored, so
that a stored row stays readable (see `domain.history.Codec`).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.dozito.components import Card, Spot
from domain.names import PlayerName

Source = Literal["deck", "discard_left", "discard_right"]
Pile = Literal["left", "right"]


# gc=False on what a stored row holds: see domain.history.Codec.
class StartRound(msgspec.Struct, frozen=True, gc=False, tag="start_round"):
    """Begins every round: the two revealed discard piles, left then right (Z3)."""

    discards: Annotated[tuple[Card, ...], msgspec.Meta(min_length=2, max_length=2)]
    starter: PlayerName | None = None


class Draw(msgspec.Struct, frozen=True, gc=False, tag="draw"):
    """Take the deck's top card (stated) or a discard pile's top card (Z4)."""

    player: PlayerName
    source: Source
    card: Card | None = None


class Place(msgspec.Struct, frozen=True, gc=False, tag="place"):
    """Put the held card on a spot; `revealed` states a face-down card it displaces."""

    player: PlayerName
    spot: Spot | None = None
    revealed: Card | None = None


class Discard(msgspec.Struct, frozen=True, gc=False, tag="discard"):
    """Lay the held card on a discard pile; this ends the turn (Z4)."""

    player: PlayerName
    pile: Pile


Move = StartRound | Draw | Place | Discard
MOVES: tuple[type[Move], ...] = (StartRound, Draw, Place, Discard)
