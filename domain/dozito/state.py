"""The state a Dozito game folds into: phases as variants, grids and piles as tuples."""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.dozito.components import DEFAULT_COLORS, Card
from domain.dozito.events import Choice

# A grid is 12 spots (spot n at index n - 1); None is a face-down card.
Grid = tuple[Card | None, ...]
# Z2: the first sighting of each numbered card (colour index * 12 + number - 1).
Sightings = tuple[Card | None, ...]


# Z2 as the options' schema says it: five names, each its own and none empty. The
# set-up checks it (`setup.py`), so that a refusal says it in the players' words
# rather than the decoder's; msgspec checks no uniqueness anyway.
_FIVE = {
    "minItems": len(DEFAULT_COLORS),
    "maxItems": len(DEFAULT_COLORS),
    "uniqueItems": True,
}
# Z2: a colour's name is shown on every card of it, and kept in the log with them.
COLOR_LENGTH = 40
ColorName = Annotated[
    str, msgspec.Meta(extra_json_schema={"minLength": 1, "maxLength": COLOR_LENGTH})
]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Z15 `rounds`; Z2 `colors`: the five colour names the table uses."""

    rounds: Annotated[int, msgspec.Meta(ge=1, le=20)] = 3
    colors: Annotated[
        tuple[ColorName, ...],
        msgspec.Meta(
            description="Z2: the five colour names the table uses, all different, "
            f"each of 1 to {COLOR_LENGTH} characters.",
            extra_json_schema=_FIVE,
        ),
    ] = DEFAULT_COLORS


# The phases and the state hold only names, cards and tuples of them, never anything
# that could refer back: they cannot be part of a reference cycle. One state (and
# mostly one phase) is made per event folded; keeping them out of the garbage
# collector spares its passes over every state a cached timeline holds.
class BetweenRounds(msgspec.Struct, frozen=True, gc=False, tag="between_rounds"):
    """Awaiting `start_round`; `starter` is None when the table picks among `tied`."""

    round: int
    starter: str | None
    tied: tuple[str, ...] = ()


class Drawing(msgspec.Struct, frozen=True, gc=False, tag="drawing"):
    player: str


class Holding(msgspec.Struct, frozen=True, gc=False, tag="holding"):
    """`player` holds `card`; `choice` says whether it may be placed or discarded."""

    player: str
    card: Card
    choice: Choice


class Finished(msgspec.Struct, frozen=True, gc=False, tag="finished"):
    winners: tuple[str, ...]
    reason: str


Phase = BetweenRounds | Drawing | Holding | Finished


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    players: tuple[str, ...]
    rounds: int
    colors: tuple[str, ...]
    round: int
    phase: Phase
    grids: tuple[Grid, ...]
    piles: tuple[tuple[Card, ...], tuple[Card, ...]]
    draw_pile_size: int
    final_turns: tuple[str, ...] | None
    totals: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    sightings: Sightings

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def card_index(self, card: Card) -> int:
        """A numbered card's place among `sightings` (a fold's look-up: no call of
        `Card.face`)."""
        number = card.number
        if number is None:
            raise ValueError(f"the {card} has no number")
        return self.colors.index(card.color) * 12 + number - 1
