"""Dozito's cards and grid (Z1, Z2, Z3): what a card is and where spots sit."""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.wording import Message, message

DEFAULT_COLORS = ("red", "blue", "green", "purple", "yellow")
NUMBERS = range(1, 13)
JOKERS_PER_COLOR = 3
DECK_SIZE = 75  # Z1: 5 colours x 12 numbers + 15 jokers
GRID_SIZE = 12
STOP_SUNS = 3

Number = Annotated[int, msgspec.Meta(ge=1, le=12)]
Suns = Annotated[int, msgspec.Meta(ge=0, le=3)]
Spot = Annotated[int, msgspec.Meta(ge=1, le=12)]


# gc=False on what a stored row holds: see domain.history.Codec.
class Card(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A card as the table states it; `suns` left out means 0, or 3 on a STOP (Z2).

    Cards kept in events and state are normalized: `suns` is always a number.
    """

    color: str
    number: Number | None = None
    joker: bool = False
    suns: Suns | None = None
    stop: bool = False
    replay: bool = False

    @property
    def face(self) -> int:
        """A numbered card's number: the spot it goes on (Z4). A joker has none."""
        if self.number is None:
            raise ValueError(f"the {self} has no number")
        return self.number

    @property
    def key(self) -> tuple[str, int | None]:
        """Identity: colour and number; the three jokers of a colour share one key."""
        return (self.color, self.number)

    def __str__(self) -> str:
        return f"{self.color} joker" if self.joker else f"{self.color} {self.number}"

    @property
    def said(self) -> Message:
        """The card as a sentence names it: "red 5", "red joker", "5 rouge"."""
        color = color_said(self.color)
        if self.joker:
            return message("dozito.card.joker", color=color)
        return message("dozito.card.numbered", color=color, number=self.number)


def color_said(color: str) -> Message | str:
    """A colour as a sentence names it: the box's five in the sentence's language
    ("rouge"), a colour the table named itself (Z2) as the table named it."""
    return message(f"dozito.color.{color}") if color in DEFAULT_COLORS else color


def _neighbours(spot: int) -> tuple[int, ...]:
    """Orthogonal neighbours of a spot index (0-based) in the 3x4 grid (Z3, Z13)."""
    row, col = divmod(spot, 4)
    near = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
    return tuple(r * 4 + c for r, c in near if 0 <= r < 3 and 0 <= c < 4)


NEIGHBOURS = tuple(_neighbours(spot) for spot in range(GRID_SIZE))
