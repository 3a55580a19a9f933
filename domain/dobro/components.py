"""Dobro's cards, the editions' decks (D1) and the options a game is created with."""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from domain.wording import Message, message

WILD: Final = "wild"
SKIP: Final = "skip"
REVERSE: Final = "reverse"
Special = Literal["wild", "skip", "reverse"]
# A card as the wire names it: a numbered card is its value, the others by name.
Card = Annotated[int, Meta(ge=2, le=12)] | Special
Scoring = Literal["official", "fewest-first"]
Direction = Literal["clockwise", "counterclockwise"]

Count = Annotated[int, Meta(ge=0, le=99)]
# The editions' names, the games' names too.
EditionName = Literal["dobro", "dobro-pixar"]


class Edition(msgspec.Struct, frozen=True):
    """A published deck (D1), the values a wild may be declared as (D9) and the
    edition's default for D5's Skip cards."""

    name: EditionName
    numbered: tuple[tuple[int, int], ...]
    wilds: int
    wild_range: tuple[int, int]
    skips: int
    reverses: int
    two_player_remove_skips: bool


DOBRO_PIXAR_DECK = Edition(
    name="dobro-pixar",
    numbered=((2, 4), (3, 6), (4, 6), (5, 7), (6, 6), (7, 7), (8, 4), (9, 5), (10, 4)),
    wilds=4,
    wild_range=(2, 10),
    skips=2,
    reverses=2,
    two_player_remove_skips=True,
)
DOBRO_DECK = Edition(
    name="dobro",
    numbered=(
        *((2, 5), (3, 6), (4, 6), (5, 6), (6, 6), (7, 5)),
        *((8, 4), (9, 3), (10, 3), (11, 3), (12, 3)),
    ),
    wilds=3,
    wild_range=(2, 12),
    skips=2,
    reverses=2,
    two_player_remove_skips=False,
)


# What the schema of a house deck's `numbered` says beyond its counts' bounds: JSON
# names the values "2" to "12", and at least one is counted (D1). The decoder reads
# the values as numbers from 2 to 12; the set-up refuses a deck with none.
_NUMBERED = {
    "propertyNames": {"enum": [str(value) for value in range(2, 13)]},
    "not": {"additionalProperties": {"const": 0}},
}


class DeckManifest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True
):
    """A house deck (D1): how many cards of each numbered value, wilds and specials.
    Beyond this schema, creation refuses (by the players, and D5 at two): a deck too
    small to deal every hand and the cards set aside (D1), and one whose Skips and
    Reverses left in fill a hand (T1)."""

    numbered: Annotated[
        dict[Annotated[int, Meta(ge=2, le=12)], Count],
        Meta(
            description="How many cards of each value, from 2 to 12: at least one.",
            extra_json_schema=_NUMBERED,
        ),
    ]
    wilds: Count = 0
    skips: Count = 0
    reverses: Count = 0


# A house deck's example: the original edition's, as `deck` would give it.
_ORIGINAL_DECK = {
    "numbered": {str(value): count for value, count in DOBRO_DECK.numbered},
    "wilds": DOBRO_DECK.wilds,
    "skips": DOBRO_DECK.skips,
    "reverses": DOBRO_DECK.reverses,
}


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Dobro game's options; None for `two_player_remove_skips` is the edition's."""

    rounds: Annotated[int, Meta(ge=1, le=99)] = 3
    scoring: Scoring = "official"
    two_player_remove_skips: bool | None = None
    deck: Annotated[DeckManifest | None, Meta(examples=[_ORIGINAL_DECK])] = None


class Deck(msgspec.Struct, frozen=True):
    """The cards of one game's rounds: `counts[i]` cards of `kinds[i]` are shuffled
    each round, `removed[i]` left the game (D5). Numbered kinds come first, ascending.
    A wild is declared from `wild_low` to `wild_high`: the edition's range (D9).
    """

    kinds: tuple[Card, ...]
    counts: tuple[int, ...]
    removed: tuple[int, ...]
    wild_low: int
    wild_high: int

    @property
    def size(self) -> int:
        return sum(self.counts)

    def count(self, card: Card) -> int:
        return self.counts[self.kinds.index(card)] if card in self.kinds else 0

    def removed_count(self, card: Card) -> int:
        return self.removed[self.kinds.index(card)] if card in self.kinds else 0


def card_name(card: Card) -> Message:
    """A card as a player says it at the start of a sentence: "A 7", "A Skip"."""
    if isinstance(card, int):
        return message("dobro.card", value=card)
    return message(f"dobro.card.{card}")


def cards_name(card: Card) -> Message:
    """Cards of one kind: "7s", "wilds", "Skip cards"."""
    if isinstance(card, int):
        return message("dobro.cards", value=card)
    return message(f"dobro.cards.{card}")
