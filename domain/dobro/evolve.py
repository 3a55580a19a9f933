"""Applying one Dobro event to the state: no rules here, only bookkeeping."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.dobro.components import Card
from domain.dobro.events import (
    CardsPlayed,
    GameEnded,
    PileTaken,
    RefillForgotten,
    ReversePlayed,
    RoundDealt,
    RoundScored,
    SkipPlayed,
)
from domain.dobro.state import DobroState, RoundResult, new_round


def evolve(state: DobroState, event: Any) -> DobroState:
    return _APPLY[type(event)](state, event)


def _seat(state: DobroState, name: str) -> int:
    return state.table.players.index(name)


def _played(
    state: DobroState,
    player: str,
    cards: tuple[Card, ...],
    refill: int,
    next_player: str | None,
    **changes: Any,
) -> DobroState:
    """Cards leave a hand for the table; the hand refills; the turn passes."""
    seat = _seat(state, player)
    hands = list(state.hand_sizes)
    hands[seat] += refill - len(cards)
    played = list(state.played)
    for card in cards:
        played[state.table.deck.kinds.index(card)] += 1
    return replace(
        state,
        cards_in_play=state.cards_in_play + cards,
        hand_sizes=tuple(hands),
        draw_pile_size=state.draw_pile_size - refill,
        played=tuple(played),
        next_player=state.next_player
        if next_player is None
        else _seat(state, next_player),
        **changes,
    )


def _cards_played(state: DobroState, e: CardsPlayed) -> DobroState:
    return _played(
        state, e.player, e.cards, e.refill, e.next_player, value_in_play=e.value
    )


def _skip_played(state: DobroState, e: SkipPlayed) -> DobroState:
    return _played(state, e.player, ("skip",), e.refill, e.next_player)


def _reverse_played(state: DobroState, e: ReversePlayed) -> DobroState:
    return _played(
        state, e.player, ("reverse",), e.refill, e.next_player, direction=e.direction
    )


def _pile_taken(state: DobroState, e: PileTaken) -> DobroState:
    seat = _seat(state, e.player)
    piles = list(state.score_piles)
    piles[seat] += e.cards
    return replace(
        state,
        score_piles=tuple(piles),
        cards_in_play=(),
        value_in_play=None,
        next_player=seat,
    )


def _refill_forgotten(state: DobroState, e: RefillForgotten) -> DobroState:
    return replace(state, forgetful=_seat(state, e.player))


def _round_scored(state: DobroState, e: RoundScored) -> DobroState:
    result = RoundResult(
        round=e.round,
        emptied_by=e.emptied_by,
        score_piles=e.score_piles,
        rank_points=e.rank_points,
        forgetful=e.forgetful,
        forgetful_adjustment=e.forgetful_adjustment,
        points=e.points,
    )
    totals = tuple(e.totals[name] for name in state.table.players)
    return replace(state, totals=totals, results=(*state.results, result))


def _round_dealt(state: DobroState, e: RoundDealt) -> DobroState:
    # The direction carries over (D17); the Forgetful card is back in the centre (D12).
    return new_round(
        state.table,
        e.round,
        _seat(state, e.starter),
        state.direction,
        state.totals,
        state.results,
        e.draw_pile_size,
    )


def _game_ended(state: DobroState, e: GameEnded) -> DobroState:
    return replace(state, winners=e.winners)


_APPLY: dict[type, Callable[[DobroState, Any], DobroState]] = {
    CardsPlayed: _cards_played,
    SkipPlayed: _skip_played,
    ReversePlayed: _reverse_played,
    PileTaken: _pile_taken,
    RefillForgotten: _refill_forgotten,
    RoundScored: _round_scored,
    RoundDealt: _round_dealt,
    GameEnded: _game_ended,
}
