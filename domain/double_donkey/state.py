"""The state of a Double Donkey game as the table sees it, and as it is dealt (K3).

Counts only: the service never sees a hand or the order of a pile. Every count is per
seat, in the players' (clockwise) order. `phase` says what the table must log next.
"""

from __future__ import annotations

import msgspec

from domain.double_donkey.components import (
    DECK_SIZE,
    HAND_SIZE,
    PERSONAL_PILE,
    Card,
    Color,
)
from domain.game import Setup


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Double Donkey has no options."""


# The phases and the state hold only names, cards, counts and tuples of them, never
# anything that could refer back: they cannot be part of a reference cycle. One state
# is made per event folded; keeping them out of the garbage collector spares its
# passes over every state a cached timeline holds.
class Rolling(msgspec.Struct, frozen=True, gc=False, tag="rolling"):
    """K4: `player` rolls every die not yet on the Hay card."""

    player: str


class Choosing(msgspec.Struct, frozen=True, gc=False, tag="choosing"):
    """K4, K5: `player` rolled these dice and puts one on the Hay card."""

    player: str
    rolled: tuple[tuple[Color, int], ...]


class DecidingLastDie(msgspec.Struct, frozen=True, gc=False, tag="deciding_last_die"):
    """K6: `player` keeps or rerolls the last die, which shows `pips`."""

    player: str
    color: Color
    pips: int


class Revealing(msgspec.Struct, frozen=True, gc=False, tag="revealing"):
    """K7: every player reveals 1 to 3 cards at once."""


class RollingOff(msgspec.Struct, frozen=True, gc=False, tag="rolling_off"):
    """K9: these players, tied for the Biggest Donkey, roll a die each."""

    among: tuple[str, ...]


class Finished(msgspec.Struct, frozen=True, gc=False, tag="finished"):
    """K12: the game is over."""

    winners: tuple[str, ...]


Phase = Rolling | Choosing | DecidingLastDie | Revealing | RollingOff | Finished
DICE_PHASES = (Rolling, Choosing, DecidingLastDie)


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    players: tuple[str, ...]
    round: int
    dice_holder: str
    phase: Phase
    hay: tuple[tuple[Color, int], ...]  # in the order the dice were placed
    hands: tuple[int, ...]
    personal_piles: tuple[int, ...]
    draw_pile: int
    discard_pile: int
    in_play: int  # revealed cards still on the table (a roll-off is pending)
    biggest_donkey: str | None = None
    revealed: tuple[tuple[str, tuple[Card, ...]], ...] = ()  # the latest reveal
    values: tuple[tuple[str, tuple[int, ...]], ...] = ()  # and its values (K8)
    roll_offs: tuple[tuple[tuple[str, int], ...], ...] = ()  # since that reveal

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def hand(self, player: str) -> int:
        return self.hands[self.seat(player)]

    def personal_pile(self, player: str) -> int:
        return self.personal_piles[self.seat(player)]

    def after(self, player: str) -> str:
        """The next player clockwise."""
        return self.players[(self.seat(player) + 1) % len(self.players)]

    def hay_dict(self) -> dict[Color, int]:
        return dict(self.hay)


def initial_state(setup: Setup) -> State:
    """K3: each player's 10-card personal pile, of which the top 3 are the hand; the
    remaining 57 - 10 x players cards are the central draw pile.

    The set-up is not checked here: `domain.double_donkey.setup.initial_state`, the
    game's own, checks it first. Folds of games already created start from this."""
    count = len(setup.players)
    return State(
        players=tuple(setup.players),
        round=1,
        dice_holder=setup.first_player,
        phase=Rolling(setup.first_player),
        hay=(),
        hands=(HAND_SIZE,) * count,
        personal_piles=(PERSONAL_PILE - HAND_SIZE,) * count,
        draw_pile=DECK_SIZE - PERSONAL_PILE * count,
        discard_pile=0,
        in_play=0,
    )
