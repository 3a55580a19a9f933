"""Dozito moves to try against the rules (`Rules.examples`): each kind of move by the
players an offer names (by every player when it names none), for each choice it
gives, with cards the table could state (Z2: a card not in view, as it was seen
before, if it was).

Nothing here decides: the shared contract suite hands these moves to `decide` to
hold `allowed` to it (an offered choice some move of which the rules accept, and a
kind left out none of whose moves they accept).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import get_args

from domain.dozito.components import GRID_SIZE, JOKERS_PER_COLOR, NUMBERS, Card
from domain.dozito.moves import Discard, Draw, Move, Pile, Place, Source, StartRound
from domain.dozito.state import Holding, State
from domain.game import Offer

# Cards tried for each card the table states: a few hidden ones do.
TRIED = 3


def examples(state: State, offer: Offer[str]) -> Iterator[Move]:
    hidden = _hidden(state)
    players = offer.choices.get("player") or state.players
    match offer.kind:
        case "start_round":
            discards = (hidden[0], hidden[1])
            for starter in offer.choices.get("starter") or (None, *state.players):
                yield StartRound(discards, starter)
        case "draw":
            sources: tuple[Source, ...] = get_args(Source)
            for player, source in product(
                players, offer.choices.get("source") or sources
            ):
                if source != "deck":
                    yield Draw(player, source)
                for card in hidden[:TRIED] if source == "deck" else ():
                    yield Draw(player, "deck", card)
        case "place":
            spots = offer.choices.get("spot") or range(1, GRID_SIZE + 1)
            for player, spot in product(players, spots):
                if state.grids[state.seat(player)][spot - 1] is not None:
                    yield Place(player, spot)
                    continue
                for card in hidden[:TRIED]:
                    yield Place(player, spot, card)
        case "discard":
            piles: tuple[Pile, ...] = get_args(Pile)
            for player, pile in product(players, offer.choices.get("pile") or piles):
                yield Discard(player, pile)


def _hidden(state: State) -> list[Card]:
    """Cards the table could state coming out of hiding: each numbered card not in
    view, as first seen (or plain, if never seen), then a joker of each colour with
    fewer than three in view."""
    shown = [card for grid in state.grids for card in grid if card is not None]
    shown += [*state.piles[0], *state.piles[1]]
    if isinstance(state.phase, Holding):
        shown.append(state.phase.card)
    in_view = {card.key for card in shown if not card.joker}
    found = []
    for color in state.colors:
        for number in NUMBERS:
            card = Card(color=color, number=number, suns=0)
            if card.key not in in_view:
                found.append(state.sightings[state.card_index(card)] or card)
    for color in state.colors:
        jokers = sum(1 for card in shown if card.joker and card.color == color)
        if jokers < JOKERS_PER_COLOR:
            found.append(Card(color=color, joker=True, suns=0))
    return found
