"""Z1-Z2: checking a card the table states (drawn, revealed, or opening a pile).

A numbered card is one of a kind: its attributes must agree with every earlier
sighting in the game, and it cannot come out of the deck or a face-down spot while the
service knows it to be elsewhere. Jokers of one colour look alike: only their count is
checked (at most three of a colour in view).
"""

from __future__ import annotations

import msgspec

from domain.dozito.components import JOKERS_PER_COLOR, STOP_SUNS, Card, color_said
from domain.dozito.state import Holding, State
from domain.errors import RuleError
from domain.wording import Message, Names, message


def normalized(state: State, card: Card) -> Card:
    """The card with its suns settled (0, or 3 for a STOP), or a Z1/Z2 RuleError."""
    if card.color not in state.colors:
        colors = Names(color_said(color) for color in state.colors)
        raise RuleError("Z1", "dozito.color", color=card.color, colors=colors)
    if card.joker == (card.number is not None):
        raise RuleError("Z1", "dozito.joker_or_number")
    if card.joker and (card.stop or card.replay):
        raise RuleError("Z2", "dozito.joker_special", card=card.said)
    if card.stop and card.replay:
        raise RuleError("Z2", "dozito.stop_and_replay", card=card.said)
    if card.stop and card.suns not in (None, STOP_SUNS):
        raise RuleError("Z2", "dozito.stop_suns", card=card.said, suns=card.suns)
    suns = card.suns if card.suns is not None else (STOP_SUNS if card.stop else 0)
    return card if card.suns == suns else msgspec.structs.replace(card, suns=suns)


def _describe(card: Card) -> Message:
    """What a card shows besides its number (a card is never both STOP and Replay)."""
    kind = "stop" if card.stop else "replay" if card.replay else "plain"
    return message(f"dozito.look.{kind}", count=card.suns)


def agreeing(state: State, card: Card) -> Card:
    """The normalized card, refused (Z2) if an earlier sighting showed it otherwise."""
    card = normalized(state, card)
    if not card.joker:
        before = state.sightings[state.card_index(card)]
        if before is not None and before != card:
            raise RuleError(
                "Z2",
                "dozito.seen",
                card=card.said,
                before=_describe(before),
                now=_describe(card),
            )
    return card


def unseen(state: State, card: Card) -> Card:
    """A card coming out of hiding (deck or face-down spot): refused (Z2) if in view."""
    card = agreeing(state, card)
    if card.joker:
        _check_joker_count(state, card)
        return card
    spot = card.face - 1
    for player, grid in zip(state.players, state.grids, strict=True):
        if (there := grid[spot]) is not None and there.key == card.key:
            raise RuleError("Z2", "dozito.in_grid", card=card.said, player=player)
    held = state.phase
    if isinstance(held, Holding) and held.card.key == card.key:
        raise RuleError("Z2", "dozito.in_hand", card=card.said, player=held.player)
    for pile in state.piles:
        if any(other.key == card.key for other in pile):
            raise RuleError("Z2", "dozito.in_pile", card=card.said)
    return card


def _check_joker_count(state: State, card: Card) -> None:
    in_view = [c for grid in state.grids for c in grid if c is not None]
    in_view += [*state.piles[0], *state.piles[1]]
    if isinstance(state.phase, Holding):
        in_view.append(state.phase.card)
    count = sum(1 for c in in_view if c.joker and c.color == card.color)
    if count >= JOKERS_PER_COLOR:
        raise RuleError(
            "Z2",
            "dozito.jokers_seen",
            count=JOKERS_PER_COLOR,
            color=color_said(card.color),
        )
