"""The public state of a Double Donkey game, as the API shows it, players by name."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.double_donkey.components import Card, Color
from domain.double_donkey.rules import choosable
from domain.double_donkey.state import (
    DICE_PHASES,
    Choosing,
    DecidingLastDie,
    Finished,
    Revealing,
    Rolling,
    RollingOff,
    State,
)

MoveKind = Literal["roll", "choose", "last_die", "reveal", "roll_off"]
# What the table must log next, or `finished`.
Phase = MoveKind | Literal["finished"]


class DoubleDonkeyView(msgspec.Struct, frozen=True, kw_only=True):
    game: Literal["double-donkey"] = "double-donkey"
    round: int
    # What the table must log next (the dice: roll, choose, last_die; the cards:
    # reveal, roll_off), or `finished`.
    phase: Phase
    next_player: str | None  # the player at the dice; null while everyone reveals
    dice_holder: str
    hay: dict[Color, int]
    hand_sizes: dict[str, int]
    personal_piles: dict[str, int]
    draw_pile_size: int
    biggest_donkey: str | None
    rolled: dict[Color, int]  # the dice just rolled, waiting for a choice
    roll_off: list[str] | None  # who must roll off (K9), when one is pending
    discard_pile_size: int
    cards_in_play: int
    revealed: dict[str, list[Card]]  # the latest reveal and its values (K8)
    values: dict[str, list[int]]
    roll_offs: list[dict[str, int]]  # the roll-offs since the latest reveal
    winners: list[str]
    # The kinds of move the rules await now (`undo` aside): `phase`, as a list a
    # client can offer from, empty once the game is over.
    allowed: list[MoveKind] = []
    # K5: the colours of the rolled dice that `choose` may put on the Hay card now,
    # in the order rolled; empty unless a die is being chosen.
    choosable: list[Color] = []


_PHASES: dict[type, Phase] = {
    Rolling: "roll",
    Choosing: "choose",
    DecidingLastDie: "last_die",
    Revealing: "reveal",
    RollingOff: "roll_off",
    Finished: "finished",
}


def view(state: State) -> DoubleDonkeyView:
    phase = state.phase
    in_dice = isinstance(phase, DICE_PHASES)
    awaited = _PHASES[type(phase)]
    return DoubleDonkeyView(
        round=state.round,
        phase=awaited,
        next_player=phase.player if in_dice else None,
        dice_holder=state.dice_holder,
        hay=dict(state.hay),
        hand_sizes=dict(zip(state.players, state.hands, strict=True)),
        personal_piles=dict(zip(state.players, state.personal_piles, strict=True)),
        draw_pile_size=state.draw_pile,
        biggest_donkey=state.biggest_donkey,
        rolled=dict(phase.rolled) if isinstance(phase, Choosing) else {},
        roll_off=list(phase.among) if isinstance(phase, RollingOff) else None,
        discard_pile_size=state.discard_pile,
        cards_in_play=state.in_play,
        revealed={p: list(cards) for p, cards in state.revealed},
        values={p: list(values) for p, values in state.values},
        roll_offs=[dict(rolls) for rolls in state.roll_offs],
        winners=list(phase.winners) if isinstance(phase, Finished) else [],
        allowed=[] if awaited == "finished" else [awaited],  # type: ignore[list-item]
        choosable=list(choosable(state)),
    )


def outcome(state: State) -> tuple[str, ...] | None:
    """K12: the winners once someone has emptied hand and personal pile."""
    return state.phase.winners if isinstance(state.phase, Finished) else None
