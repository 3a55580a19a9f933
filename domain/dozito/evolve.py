"""Dozito's evolve: each event applied to the state, with no rules of its own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.dozito.components import GRID_SIZE, Card
from domain.dozito.events import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    DeckReshuffled,
    Event,
    GameEnded,
    RoundScored,
    RoundStarted,
    TurnBegan,
)
from domain.dozito.state import (
    BetweenRounds,
    Drawing,
    Finished,
    Holding,
    Sightings,
    State,
)


def evolve(state: State, event: Event) -> State:
    """The state after `event`: its type's fold (each below, listed in `FOLDS`)."""
    return FOLDS[type(event)](state, event)


def _seen(state: State, sightings: Sightings, card: Card) -> Sightings:
    """`sightings` with `card` added if it is a numbered card seen the first time."""
    if card.joker:
        return sightings
    index = state.card_index(card)
    if sightings[index] is not None:
        return sightings
    return _with(sightings, index, card)


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """`values` with `value` at `index` instead."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _round_started(state: State, event: RoundStarted) -> State:
    left, right = event.discards
    return replace(
        state,
        round=event.round,
        phase=Drawing(event.starter),
        grids=tuple((None,) * GRID_SIZE for _ in state.players),
        piles=((left,), (right,)),
        draw_pile_size=event.draw_pile_size,
        final_turns=None,
        sightings=_seen(state, _seen(state, state.sightings, left), right),
    )


def _card_drawn(state: State, event: CardDrawn) -> State:
    holding = Holding(event.player, event.card, event.choice)
    if event.source == "deck":
        return replace(
            state,
            phase=holding,
            draw_pile_size=event.draw_pile_size,
            sightings=_seen(state, state.sightings, event.card),
        )
    left, right = state.piles
    piles = (left[:-1], right) if event.source == "discard_left" else (left, right[:-1])
    return replace(state, phase=holding, piles=piles)


def _card_placed(state: State, event: CardPlaced) -> State:
    grids = state.grids
    seat = state.seat(event.player)
    grid = _with(grids[seat], event.spot - 1, event.card)
    sightings = state.sightings
    if event.revealed:
        sightings = _seen(state, sightings, event.held)
    return replace(
        state,
        phase=Holding(event.player, event.held, event.choice),
        grids=_with(grids, seat, grid),
        sightings=sightings,
    )


def _card_discarded(state: State, event: CardDiscarded) -> State:
    left, right = state.piles
    if event.pile == "left":
        piles = ((*left, event.card), right)
    else:
        piles = (left, (*right, event.card))
    return replace(state, phase=Drawing(event.player), piles=piles)


def _turn_began(state: State, event: TurnBegan) -> State:
    return replace(state, phase=Drawing(event.player), final_turns=event.final_turns)


def _deck_reshuffled(state: State, event: DeckReshuffled) -> State:
    piles = tuple(pile[-1:] for pile in state.piles)
    return replace(state, piles=piles, draw_pile_size=event.draw_pile_size)


def _round_scored(state: State, event: RoundScored) -> State:
    points = tuple(score.points for score in event.scores)
    totals = tuple(event.totals[player] for player in state.players)
    phase = BetweenRounds(event.round + 1, event.next_starter, event.tied)
    return replace(
        state,
        phase=phase,
        totals=totals,
        round_scores=(*state.round_scores, points),
        final_turns=None,
    )


def _game_ended(state: State, event: GameEnded) -> State:
    return replace(state, phase=Finished(event.winners, event.reason))


FOLDS: dict[type, Callable[[State, Any], State]] = {
    RoundStarted: _round_started,
    CardDrawn: _card_drawn,
    CardPlaced: _card_placed,
    CardDiscarded: _card_discarded,
    TurnBegan: _turn_began,
    DeckReshuffled: _deck_reshuffled,
    RoundScored: _round_scored,
    GameEnded: _game_ended,
}
