"""What a Dobro table logs, the API's Dobro moves: the wire `type` is each tag.

These Structs are also the stored shape of a move: unknown fields are ignored, so
that a stored row stays readable (see `domain.history.Codec`).
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from domain.dobro.components import Card
from domain.names import PLAYER_NAME

Name = Annotated[str, Meta(min_length=1, max_length=100), PLAYER_NAME]

# What a schema says of a play's cards: numbers and wilds. A Skip or a Reverse is
# its own move; one named in a play is decoded and refused by the rules (D9).
_PLAYED = {
    "items": {
        "oneOf": [
            {"type": "integer", "minimum": 2, "maximum": 12},
            {"type": "string", "enum": ["wild"]},
        ]
    }
}


# gc=False on what a stored row holds: see domain.history.Codec.
class Play(msgspec.Struct, frozen=True, gc=False, tag="play"):
    """One card or a pair (D8, D9); `wild_as` for a wild, `announced` the call (D10)."""

    player: Name
    cards: Annotated[
        tuple[Card, ...], Meta(min_length=1, max_length=2, extra_json_schema=_PLAYED)
    ]
    wild_as: int | None = None
    announced: int | None = None


class Skip(msgspec.Struct, frozen=True, gc=False, tag="skip"):
    player: Name


class Reverse(msgspec.Struct, frozen=True, gc=False, tag="reverse"):
    player: Name


class Take(msgspec.Struct, frozen=True, gc=False, tag="take"):
    """The player ends the climb and takes the cards in play (D8)."""

    player: Name


class ForgotRefill(msgspec.Struct, frozen=True, gc=False, tag="forgot_refill"):
    """`player` was seen not refilling: the Forgetful card goes to them (D12)."""

    player: Name


Move = Play | Skip | Reverse | Take | ForgotRefill
MOVES: tuple[type[Move], ...] = (Play, Skip, Reverse, Take, ForgotRefill)
