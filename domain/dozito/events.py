"""The facts a Dozito game is made of; each carries what `evolve` needs, no rules."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.dozito.components import Card
from domain.dozito.moves import Pile, Source
from domain.maps import in_key_order

# What the holder may do next with the held card (Z4, Z5, Z7, Z8).
Choice = Literal["place_or_discard", "place", "discard", "discard_after_stop"]


# gc=False on what a stored row holds: see domain.history.Codec.
class RoundStarted(msgspec.Struct, frozen=True, gc=False, tag="round_started"):
    round: int
    starter: str
    discards: tuple[Card, Card]
    draw_pile_size: int


class CardDrawn(msgspec.Struct, frozen=True, gc=False, tag="card_drawn"):
    player: str
    source: Source
    card: Card
    choice: Choice
    draw_pile_size: int


class CardPlaced(msgspec.Struct, frozen=True, gc=False, tag="card_placed"):
    """`card` went to `spot`; `held` is the card it displaced (revealed or face up)."""

    player: str
    spot: int
    card: Card
    held: Card
    revealed: bool
    choice: Choice


class CardDiscarded(msgspec.Struct, frozen=True, gc=False, tag="card_discarded"):
    player: str
    pile: Pile
    card: Card


class TurnBegan(msgspec.Struct, frozen=True, gc=False, tag="turn_began"):
    """`player` plays next; `replay` when it is a Replay card's extra turn (Z9)."""

    player: str
    final_turns: tuple[str, ...] | None
    replay: bool = False


class DeckReshuffled(msgspec.Struct, frozen=True, gc=False, tag="deck_reshuffled"):
    """Z10: all discards but each pile's top went back into the draw pile."""

    draw_pile_size: int


class PlayerScore(msgspec.Struct, frozen=True, gc=False):
    """One player's round (Z13): group sizes by colour, suns, and the points."""

    player: str
    groups: tuple[tuple[str, int], ...]
    suns: int
    points: int


class RoundScored(msgspec.Struct, frozen=True, gc=False, tag="round_scored"):
    """Z13-Z14: the round's points, the totals, and who starts next.

    `next_starter` is null when several players share the fewest points: the table
    names one of `tied` when it starts the next round.
    """

    round: int
    scores: tuple[PlayerScore, ...]
    totals: dict[str, int]
    next_starter: str | None
    tied: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        in_key_order(self, "totals")


class GameEnded(msgspec.Struct, frozen=True, gc=False, tag="game_ended"):
    """Z12 (`instant_win`) or Z15 (`rounds_played`)."""

    winners: tuple[str, ...]
    reason: Literal["instant_win", "rounds_played"]


Event = (
    RoundStarted
    | CardDrawn
    | CardPlaced
    | CardDiscarded
    | TurnBegan
    | DeckReshuffled
    | RoundScored
    | GameEnded
)
EVENTS: tuple[type[Event], ...] = (
    RoundStarted,
    CardDrawn,
    CardPlaced,
    CardDiscarded,
    TurnBegan,
    DeckReshuffled,
    RoundScored,
    GameEnded,
)
