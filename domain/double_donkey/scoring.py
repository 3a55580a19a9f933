"""What a reveal is worth: Angry Donkey flips (K7), card values (K8), who is tied for
the Biggest Donkey (K9) and the refills that end a round (K10)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.double_donkey import events as ev
from domain.double_donkey.components import COLORS, HAND_SIZE, Card, Color, opposite
from domain.double_donkey.state import State


def flipped_colors(cards: Mapping[str, Iterable[Card]]) -> tuple[Color, ...]:
    """K7: the colours of the Angry Donkeys revealed, in the dice's order."""
    angry = {card.angry for revealed in cards.values() for card in revealed}
    return tuple(color for color in COLORS if color in angry)


def flip(hay: Mapping[Color, int], colors: Iterable[Color]) -> dict[Color, int]:
    """K7: each named die turned to its opposite face."""
    turned = set(colors)
    return {c: opposite(p) if c in turned else p for c, p in hay.items()}


def card_value(card: Card, hay: Mapping[Color, int]) -> int:
    """K8: an Angry Donkey is its colour's die, a Double Donkey the sum of its two."""
    return sum(hay[color] for color in card.donkeys)


def contenders(state: State, values: Mapping[str, Iterable[int]]) -> tuple[str, ...]:
    """K9: the players with the highest card; among several, those with the fewest
    cards in their personal pile. More than one left means a roll-off. A player whose
    hand was empty revealed nothing (K7) and does not contend."""
    best = {player: max(played) for player, played in values.items() if played}
    top = max(best.values())
    tied = [p for p in state.players if best.get(p) == top]
    fewest = min(state.personal_pile(p) for p in tied)
    return tuple(p for p in tied if state.personal_pile(p) == fewest)


def highest_rollers(among: Iterable[str], rolls: Mapping[str, int]) -> tuple[str, ...]:
    """K9: the roll-off's players sharing the highest roll."""
    among = tuple(among)
    top = max(rolls[p] for p in among)
    return tuple(p for p in among if rolls[p] == top)


def refills(state: State, holder: str) -> list[ev.Event]:
    """K10: played cards to the discard pile; each hand back to 3 from its personal
    pile, the Biggest Donkey's holder's from the central pile, reshuffling the discard
    pile at the moment a card must be drawn from an empty central pile."""
    events: list[ev.Event] = [ev.CardsDiscarded(state.in_play)]
    own = {
        p: min(HAND_SIZE - state.hand(p), state.personal_pile(p))
        for p in state.players
        if p != holder
    }
    events.append(ev.HandsRefilled({p: n for p, n in own.items() if n > 0}))
    need = HAND_SIZE - state.hand(holder)
    draw, discard = state.draw_pile, state.discard_pile + state.in_play
    while need > 0 and draw + discard > 0:
        if draw == 0:
            events.append(ev.DiscardReshuffled(discard))
            draw, discard = discard, 0
        count = min(need, draw)
        events.append(ev.CardsDrawn(holder, count))
        need, draw = need - count, draw - count
    return events
