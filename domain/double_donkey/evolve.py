"""Folding Double Donkey's events into the state: bookkeeping only, no rules."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from operator import add, sub
from typing import Any

from msgspec.structs import replace

from domain.double_donkey import events as ev
from domain.double_donkey.components import COLORS
from domain.double_donkey.state import (
    Choosing,
    DecidingLastDie,
    Finished,
    Revealing,
    Rolling,
    RollingOff,
    State,
)


def evolve(state: State, event: ev.Event) -> State:
    """The state after `event`: its type's fold (each below, listed in `FOLDS`)."""
    return FOLDS[type(event)](state, event)


# The helpers below run for most events folded: a list comprehension handed to
# tuple() builds the same tuple faster than a generator does, and map() over two
# tuples of counts with operator.add or sub faster than either.
def _in_seats(state: State, per_player: dict[str, int]) -> tuple[int, ...]:
    return tuple([per_player.get(player, 0) for player in state.players])


def _present(
    state: State, per_player: Mapping[str, Iterable[Any]]
) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    return tuple([(p, tuple(per_player[p])) for p in state.players if p in per_player])


def _rolled(state: State, e: ev.DiceRolled) -> State:
    dice = e.dice
    rolled = tuple([(c, dice[c]) for c in COLORS if c in dice])
    return replace(state, phase=Choosing(e.player, rolled))


def _revealed(state: State, e: ev.CardsRevealed) -> State:
    cards = e.cards
    counts = [len(cards.get(p, ())) for p in state.players]
    return replace(
        state,
        hands=tuple(map(sub, state.hands, counts)),
        in_play=state.in_play + sum(counts),
        revealed=_present(state, cards),
        values=(),
        roll_offs=(),
    )


def _flipped(state: State, e: ev.DiceFlipped) -> State:
    return replace(state, hay=tuple((c, e.hay[c]) for c, _ in state.hay))


def _refilled(state: State, e: ev.HandsRefilled) -> State:
    drawn = _in_seats(state, e.cards)
    return replace(
        state,
        hands=tuple(map(add, state.hands, drawn)),
        personal_piles=tuple(map(sub, state.personal_piles, drawn)),
    )


def _drawn(state: State, e: ev.CardsDrawn) -> State:
    return replace(
        state,
        hands=tuple(map(add, state.hands, _in_seats(state, {e.player: e.count}))),
        draw_pile=state.draw_pile - e.count,
    )


def _round_started(state: State, e: ev.RoundStarted) -> State:
    return replace(
        state,
        round=e.round,
        dice_holder=e.dice_holder,
        phase=Rolling(e.dice_holder),
        hay=(),
    )


FOLDS: dict[type, Callable[[State, Any], State]] = {
    ev.DiceRolled: _rolled,
    ev.DieChosen: lambda s, e: replace(s, hay=(*s.hay, (e.color, e.pips))),
    ev.RollPassed: lambda s, e: replace(s, phase=Rolling(e.player)),
    ev.LastDieOffered: lambda s, e: replace(
        s, phase=DecidingLastDie(e.player, e.color, e.pips)
    ),
    ev.LastDiePlaced: lambda s, e: replace(
        s, hay=(*s.hay, (e.color, e.pips)), phase=Revealing()
    ),
    ev.CardsRevealed: _revealed,
    ev.DiceFlipped: _flipped,
    ev.CardsValued: lambda s, e: replace(s, values=_present(s, e.values)),
    ev.GameWon: lambda s, e: replace(s, phase=Finished(tuple(e.winners))),
    ev.RollOffCalled: lambda s, e: replace(s, phase=RollingOff(tuple(e.among))),
    ev.RollOffRolled: lambda s, e: replace(
        s, roll_offs=(*s.roll_offs, tuple(e.rolls.items()))
    ),
    ev.BiggestDonkeyTaken: lambda s, e: replace(s, biggest_donkey=e.player),
    ev.CardsDiscarded: lambda s, e: replace(
        s, in_play=s.in_play - e.count, discard_pile=s.discard_pile + e.count
    ),
    ev.HandsRefilled: _refilled,
    ev.DiscardReshuffled: lambda s, e: replace(
        s, discard_pile=s.discard_pile - e.count, draw_pile=s.draw_pile + e.count
    ),
    ev.CardsDrawn: _drawn,
    ev.RoundStarted: _round_started,
}
