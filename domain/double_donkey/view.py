"""The public state of a Double Donkey game, as the API shows it, players by name."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.double_donkey.components import Card, Color
from domain.double_donkey.rules import MoveKind, Phase, allowed, choosable, phase
from domain.double_donkey.state import (
    DICE_PHASES,
    Choosing,
    Finished,
    RollingOff,
    State,
)
from domain.game import choices, kinds


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
    # What the move awaited allows now: the `player` who makes it, the `dice` a
    # roll throws (K4), the `color` a choice may take (K5, `choosable`), the
    # players whose `cards` a reveal holds (K7), those whose `rolls` a roll-off
    # holds (K9).
    choices: dict[MoveKind, dict[str, list[str]]] = {}


def view(state: State) -> DoubleDonkeyView:
    current = state.phase
    offers = allowed(state)
    return DoubleDonkeyView(
        round=state.round,
        phase=phase(state),
        next_player=current.player if isinstance(current, DICE_PHASES) else None,
        dice_holder=state.dice_holder,
        hay=dict(state.hay),
        hand_sizes=dict(zip(state.players, state.hands, strict=True)),
        personal_piles=dict(zip(state.players, state.personal_piles, strict=True)),
        draw_pile_size=state.draw_pile,
        biggest_donkey=state.biggest_donkey,
        rolled=dict(current.rolled) if isinstance(current, Choosing) else {},
        roll_off=list(current.among) if isinstance(current, RollingOff) else None,
        discard_pile_size=state.discard_pile,
        cards_in_play=state.in_play,
        revealed={p: list(cards) for p, cards in state.revealed},
        values={p: list(values) for p, values in state.values},
        roll_offs=[dict(rolls) for rolls in state.roll_offs],
        winners=list(current.winners) if isinstance(current, Finished) else [],
        allowed=kinds(offers),
        choosable=list(choosable(state)),
        choices=choices(offers),
    )


def outcome(state: State) -> tuple[str, ...] | None:
    """K12: the winners once someone has emptied hand and personal pile."""
    return state.phase.winners if isinstance(state.phase, Finished) else None


def is_terminal(state: State) -> bool:
    """K12: someone has emptied hand and personal pile."""
    return isinstance(state.phase, Finished)
