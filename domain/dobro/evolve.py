"""Applying one Dobro event to the state: no rules here, only bookkeeping."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.dobro.components import REVERSE, SKIP, Card
from domain.dobro.events import (
    CardsPlayed,
    Event,
    GameEnded,
    PileTaken,
    RefillForgotten,
    ReversePlayed,
    RoundDealt,
    RoundScored,
    SkipPlayed,
)
from domain.dobro.state import RoundResult, State, new_round


def evolve(state: State, event: Event) -> State:
    """The state after `event`. Cards leaving a hand for the table, the events
    most folded, are folded here, in the one call a stored game's fold makes for
    each of its events; every other event by its fold below (`FOLDS`).

    A card or two leave a hand; the hand refills; the turn passes. A play sets the
    value in play, a Reverse the direction."""
    value_in_play, direction = state.value_in_play, state.direction
    # By the exact type, a tenth of isinstance's cost (events have no subclasses).
    if type(event) is CardsPlayed:
        cards: tuple[Card, ...] = event.cards
        value_in_play = event.value
    elif type(event) is SkipPlayed:
        cards = (SKIP,)
    elif type(event) is ReversePlayed:
        cards = (REVERSE,)
        direction = event.direction
    else:
        return FOLDS[type(event)](state, event)
    seats = state.table.seats
    # Looked up even when unused: a stored row naming a player the game does not
    # have must fail to fold, not pass (the runner then sets the game aside).
    seat = seats[event.player]
    refill = event.refill
    hand_sizes = state.hand_sizes
    if refill != len(cards):  # the draw pile ran short: the hand is not full again
        hand_sizes = _added(hand_sizes, seat, refill - len(cards))
    return replace(
        state,
        value_in_play=value_in_play,
        direction=direction,
        cards_in_play=state.cards_in_play + cards,
        hand_sizes=hand_sizes,
        draw_pile_size=state.draw_pile_size - refill,
        next_player=state.next_player
        if event.next_player is None
        else seats[event.next_player],
    )


def _added(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    """`values` with `amount` added at `index`."""
    changed = list(values)
    changed[index] += amount
    return tuple(changed)


def _pile_taken(state: State, e: PileTaken) -> State:
    seat = state.table.seats[e.player]
    return replace(
        state,
        score_piles=_added(state.score_piles, seat, e.cards),
        taken=state.taken + state.cards_in_play,
        cards_in_play=(),
        value_in_play=None,
        next_player=seat,
    )


def _refill_forgotten(state: State, e: RefillForgotten) -> State:
    return replace(state, forgetful=state.table.seats[e.player])


def _round_scored(state: State, e: RoundScored) -> State:
    result = RoundResult(
        round=e.round,
        emptied_by=e.emptied_by,
        score_piles=e.score_piles,
        rank_points=e.rank_points,
        forgetful=e.forgetful,
        forgetful_adjustment=e.forgetful_adjustment,
        points=e.points,
    )
    table = state.table
    n = len(table.players)
    # D13: the cards in play and in hands are discarded (the draw pile is already
    # empty); the score piles live on in the result; the Forgetful card returns to
    # the centre (D12). The table is cleared alike after every round: the next
    # round's deal follows, or, after the last round, nothing does.
    return replace(
        state,
        value_in_play=None,
        cards_in_play=(),
        hand_sizes=(0,) * n,
        score_piles=(0,) * n,
        taken=(),
        forgetful=None,
        totals=tuple(e.totals[name] for name in table.players),
        results=(*state.results, result),
    )


def _round_dealt(state: State, e: RoundDealt) -> State:
    # The direction carries over (D17); the Forgetful card is back in the centre (D12).
    return new_round(
        state.table,
        e.round,
        state.table.seats[e.starter],
        state.direction,
        state.totals,
        state.results,
        e.draw_pile_size,
    )


def _game_ended(state: State, e: GameEnded) -> State:
    return replace(state, winners=e.winners)


FOLDS: dict[type, Callable[[State, Any], State]] = {
    PileTaken: _pile_taken,
    RefillForgotten: _refill_forgotten,
    RoundScored: _round_scored,
    RoundDealt: _round_dealt,
    GameEnded: _game_ended,
}
