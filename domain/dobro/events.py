"""The facts a Dobro game's moves become. Each carries what `evolve` needs to apply it
(new value, next player, refill, round scores, next starter, winners), so that the
rules live in `decide` alone and a stored log replays without them.
"""

from __future__ import annotations

import msgspec

from domain.dobro.components import Card, Direction
from domain.maps import in_key_order


# gc=False on what a stored row holds: see domain.history.Codec.
class CardsPlayed(msgspec.Struct, frozen=True, gc=False, tag="cards_played"):
    """`value` is the new value in play; `next_player` is None when the play emptied
    the player's hand with the draw pile empty: the round ends (D13)."""

    player: str
    cards: tuple[Card, ...]
    wild_as: int | None
    value: int
    refill: int
    next_player: str | None


class SkipPlayed(msgspec.Struct, frozen=True, gc=False, tag="skip_played"):
    player: str
    refill: int
    next_player: str | None


class ReversePlayed(msgspec.Struct, frozen=True, gc=False, tag="reverse_played"):
    """`direction` is the direction after the flip."""

    player: str
    direction: Direction
    refill: int
    next_player: str | None


class PileTaken(msgspec.Struct, frozen=True, gc=False, tag="pile_taken"):
    """The climb ends: `cards` cards go to the player's score pile; they open next."""

    player: str
    cards: int


class RefillForgotten(msgspec.Struct, frozen=True, gc=False, tag="refill_forgotten"):
    """The Forgetful card goes to `player` (D12)."""

    player: str


class RoundScored(msgspec.Struct, frozen=True, gc=False, tag="round_scored"):
    """A round's score (D14, D15): `points` are net of the Forgetful adjustment."""

    round: int
    emptied_by: str
    score_piles: dict[str, int]
    rank_points: dict[str, int]
    forgetful: str | None
    forgetful_adjustment: int
    points: dict[str, int]
    totals: dict[str, int]

    def __post_init__(self) -> None:
        in_key_order(self, "score_piles", "rank_points", "points", "totals")


class RoundDealt(msgspec.Struct, frozen=True, gc=False, tag="round_dealt"):
    """A new round is dealt: `starter` opens it (D17)."""

    round: int
    starter: str
    draw_pile_size: int


class GameEnded(msgspec.Struct, frozen=True, gc=False, tag="game_ended"):
    """The last round is scored; `winners` follow D16."""

    winners: tuple[str, ...]


Event = (
    CardsPlayed
    | SkipPlayed
    | ReversePlayed
    | PileTaken
    | RefillForgotten
    | RoundScored
    | RoundDealt
    | GameEnded
)
EVENTS: tuple[type[Event], ...] = (
    CardsPlayed,
    SkipPlayed,
    ReversePlayed,
    PileTaken,
    RefillForgotten,
    RoundScored,
    RoundDealt,
    GameEnded,
)
