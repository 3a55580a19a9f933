"""Double Donkey's components (K1, K2) and the counts of the set-up (K3)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from domain.wording import Message, message

Color = Literal["light_blue", "orange", "dark_blue", "purple", "yellow", "green"]
COLORS: tuple[Color, ...] = (
    "light_blue",
    "orange",
    "dark_blue",
    "purple",
    "yellow",
    "green",
)

Pips = Annotated[int, msgspec.Meta(ge=1, le=6)]

DOUBLE_DONKEYS = 51
ANGRY_DONKEYS = 6
DECK_SIZE = DOUBLE_DONKEYS + ANGRY_DONKEYS  # the Biggest Donkey and Hay cards aside
PERSONAL_PILE = 10
HAND_SIZE = 3


# gc=False on what a stored row holds: see domain.history.Codec.
class Card(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A Double Donkey `{"colors": [a, b]}` or an Angry Donkey `{"angry": colour}`.

    msgspec cannot tell two untagged Structs apart, so both shapes are one Struct with
    optional fields; exactly one of them must be given (a decoding error otherwise).
    That the two colours differ is a rule (K2), checked when the card is revealed.
    """

    colors: tuple[Color, Color] | None = None
    angry: Color | None = None
    # The fields of which exactly one is given: the OpenAPI document shows the card
    # as one of these two shapes.
    one_shape_of: ClassVar[tuple[str, ...]] = ("colors", "angry")

    def __post_init__(self) -> None:
        if (self.colors is None) == (self.angry is None):
            raise ValueError("a card has either two `colors` or one `angry` colour")

    def __str__(self) -> str:
        if self.angry is not None:
            return f"the {label(self.angry)} Angry Donkey"
        first, second = self.colors or ("", "")
        return f"the {label(first)}/{label(second)} Double Donkey"

    @property
    def donkeys(self) -> tuple[Color, ...]:
        """The colours of its donkeys, whose dice it is worth (K8): two for a Double
        Donkey, one for an Angry Donkey."""
        if self.colors is not None:
            return self.colors
        return () if self.angry is None else (self.angry,)

    @property
    def said(self) -> Message:
        """The card as a sentence names it: "the orange/green Double Donkey"."""
        if self.angry is not None:
            return message("donkey.angry", color=color_said(self.angry))
        first, second = (color_said(c) for c in self.colors or ())
        return message("donkey.double", first=first, second=second)


def label(color: str) -> str:
    """A colour as players say it: "dark blue"."""
    return color.replace("_", " ")


def color_said(color: str) -> Message:
    """A colour as a sentence names it: "dark blue", "bleu foncé"."""
    return message(f"donkey.color.{color}")


def opposite(pips: int) -> int:
    """The face opposite `pips` on a die (K7)."""
    return 7 - pips
