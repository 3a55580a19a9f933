"""Dobro moves to try against the rules (`Rules.examples`): every play a deck could
make, and each other kind of move, by the players an offer names (by every player
when it names none).

Nothing here decides: the shared contract suite hands these moves to `decide` to
hold `allowed` to it (an offered choice some move of which the rules accept, and a
kind left out none of whose moves they accept).
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.dobro.components import REVERSE, SKIP, WILD, Card
from domain.dobro.moves import ForgotRefill, Move, Play, Reverse, Skip, Take
from domain.dobro.state import State
from domain.game import Offer


def examples(state: State, offer: Offer[str]) -> Iterator[Move]:
    for player in offer.choices.get("player") or state.table.players:
        match offer.kind:
            case "play":
                for cards, wild_as in _plays(state, offer.choices.get("cards")):
                    yield Play(player, cards, wild_as=wild_as)
            case "skip":
                yield Skip(player)
            case "reverse":
                yield Reverse(player)
            case "take":
                yield Take(player)
            case "forgot_refill":
                yield ForgotRefill(player)


def _plays(
    state: State, faces: tuple[Card, ...] | None
) -> Iterator[tuple[tuple[Card, ...], int | None]]:
    """Every single card and pair of the deck's faces (of `faces` alone, when
    given), with each value a wild may be declared as (D9)."""
    deck = state.table.deck
    kinds = [card for card in deck.kinds if card not in (SKIP, REVERSE)]
    for card in kinds if faces is None else [c for c in kinds if c in faces]:
        if card == WILD:
            for wild_as in range(deck.wild_low, deck.wild_high + 1):
                yield (WILD,), wild_as
                yield (WILD, WILD), wild_as
            continue
        yield (card,), None
        yield (card, card), None
        if faces is None or WILD in faces:
            yield (card, WILD), None
