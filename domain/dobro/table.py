"""A seeded virtual Dobro table: real shuffled hands, simple players, public moves.

The table keeps the hidden truth (hands, draw pile, the 10 cards set aside with two
players) and its own copy of the public state, folded from the engine's own events, so
that it knows refills, round ends and the next starter exactly as the service derives
them. It yields only what a real table would log.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from domain.dobro.components import REVERSE, SKIP, WILD, Card, Edition
from domain.dobro.events import CardsPlayed, ReversePlayed, RoundDealt, SkipPlayed
from domain.dobro.evolve import evolve
from domain.dobro.moves import ForgotRefill, Move, Play, Reverse, Skip, Take
from domain.dobro.rules import decide
from domain.dobro.setup import initial_state
from domain.dobro.state import State
from domain.game import Setup

# A candidate play: the cards, the wild's declared value, the play's total.
Candidate = tuple[tuple[Card, ...], int | None, int]

FORGETTING = 0.03  # how often someone is caught not refilling


def simulate(edition: Edition, setup: Setup) -> Iterator[Move]:
    rng = random.Random(setup.seed)
    state = initial_state(edition, setup)
    hands, draw = _deal(rng, state)
    while state.winners is None:
        move = _choose(rng, state, hands[state.next_player])
        for event in decide(state, move):
            state = evolve(state, event)
            if isinstance(event, CardsPlayed | SkipPlayed | ReversePlayed):
                _follow(hands, draw, state, event)
            elif isinstance(event, RoundDealt):
                hands, draw = _deal(rng, state)
        yield move
        if state.winners is None and rng.random() < FORGETTING:
            forgot = ForgotRefill(rng.choice(state.table.players))
            for event in decide(state, forgot):
                state = evolve(state, event)
            yield forgot


def _deal(rng: random.Random, state: State) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle the round's deck, deal the hands, set 10 aside with two players (D5)."""
    deck = state.table.deck
    cards = [
        kind for kind, n in zip(deck.kinds, deck.counts, strict=True) for _ in range(n)
    ]
    rng.shuffle(cards)
    size, n = state.table.hand_size, len(state.table.players)
    hands = [cards[i * size : (i + 1) * size] for i in range(n)]
    draw = cards[n * size + state.table.set_aside :]
    if len(draw) != state.draw_pile_size:
        raise AssertionError(
            "the virtual table dealt another draw pile than the engine"
        )
    return hands, draw


def _follow(
    hands: list[list[Card]],
    draw: list[Card],
    state: State,
    event: CardsPlayed | SkipPlayed | ReversePlayed,
) -> None:
    """The hidden cards move as the engine says: out of a hand, refill from the pile."""
    seat = state.table.players.index(event.player)
    hand = hands[seat]
    if isinstance(event, CardsPlayed):
        cards = event.cards
    else:
        cards = (SKIP,) if isinstance(event, SkipPlayed) else (REVERSE,)
    for card in cards:
        hand.remove(card)
    for _ in range(event.refill):
        hand.append(draw.pop())
    if len(hand) != state.hand_sizes[seat]:
        raise AssertionError("the virtual table's hand differs from the engine's size")


def _choose(rng: random.Random, state: State, hand: list[Card]) -> Move:
    player = state.table.players[state.next_player]
    current = state.value_in_play
    candidates = [
        c for c in _candidates(rng, state, hand) if current is None or c[2] >= current
    ]
    specials = [card for card in (SKIP, REVERSE) if card in hand]
    if current is None:
        if candidates:
            return _play(rng, player, current, _low(rng, candidates))
        return _special(player, rng.choice(specials))  # only when the pile is empty
    roll = rng.random()
    if roll < 0.1 or not (candidates or specials):
        return Take(player)
    if specials and (roll < 0.25 or not candidates):
        return _special(player, rng.choice(specials))
    return _play(rng, player, current, _low(rng, candidates))


def _low(rng: random.Random, candidates: list[Candidate]) -> Candidate:
    """Mostly one of the cheapest plays, sometimes any."""
    if rng.random() < 0.3:
        return rng.choice(candidates)
    candidates.sort(key=lambda c: (c[2], len(c[0])))
    return rng.choice(candidates[:2])


def _candidates(rng: random.Random, state: State, hand: list[Card]) -> list[Candidate]:
    counts = Counter(hand)
    wilds = counts[WILD]
    found: list[Candidate] = []
    for value, n in counts.items():
        if not isinstance(value, int):  # a wild, or a Skip or Reverse: not a value
            continue
        found.append(((value,), None, value))
        if n >= 2:
            found.append(((value, value), None, 2 * value))
        if wilds:
            found.append(((value, WILD), None, 2 * value))
    if wilds:
        low, high = state.table.deck.wild_low, state.table.deck.wild_high
        floor = state.value_in_play or low
        if floor <= high:
            declared = rng.randint(floor, high)
            found.append(((WILD,), declared, declared))
        half = max(low, -(-floor // 2))
        if wilds >= 2 and half <= high:
            declared = rng.randint(half, high)
            found.append(((WILD, WILD), declared, 2 * declared))
    return found


def _play(rng: random.Random, player: str, current: int | None, c: Candidate) -> Play:
    cards, wild_as, total = c
    value = total if current is None or total != current else 2 * current
    announced = value if rng.random() < 0.5 else None
    return Play(player, cards, wild_as=wild_as, announced=announced)


def _special(player: str, card: Card) -> Skip | Reverse:
    return Skip(player) if card == SKIP else Reverse(player)
