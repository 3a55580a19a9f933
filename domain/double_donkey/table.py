"""A seeded virtual Double Donkey table: a shuffled deck, real dice, simple players.

It yields only what a real table logs (rolls, choices, reveals, roll-offs). It follows
the public state with the engine's own decide/evolve, as a table reads the service's
screen, and keeps the hidden truth (every pile's real cards) itself: the refills the
engine derives are drawn from those real piles, and a disagreement on any count stops
the game with an error.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from domain.double_donkey import events as ev
from domain.double_donkey.components import (
    COLORS,
    DOUBLE_DONKEYS,
    HAND_SIZE,
    PERSONAL_PILE,
    Card,
    Color,
)
from domain.double_donkey.evolve import evolve
from domain.double_donkey.moves import Choose, LastDie, Move, Reveal, Roll, RollOff
from domain.double_donkey.rules import choosable, decide
from domain.double_donkey.setup import initial_state
from domain.double_donkey.state import (
    Choosing,
    DecidingLastDie,
    Revealing,
    Rolling,
    RollingOff,
    State,
)
from domain.game import Setup

MAX_MOVES = 20_000  # a safety net: random games end long before


def deck() -> list[Card]:
    """K2: 51 Double Donkeys (each of the 15 colour pairs 3 times, the first 6 pairs a
    4th time: the box's real pairs are not given) and the 6 Angry Donkeys."""
    pairs = list(itertools.combinations(COLORS, 2))
    doubles = [Card(colors=pair) for pair in (pairs * 4)[:DOUBLE_DONKEYS]]
    return doubles + [Card(angry=color) for color in COLORS]


class _Table:
    """The real cards: piles are lists whose first card is the top one."""

    def __init__(self, state: State, rng: random.Random) -> None:
        cards = deck()
        rng.shuffle(cards)
        self.rng = rng
        self.personal = {}
        self.hands = {}
        for seat, player in enumerate(state.players):
            pile = cards[seat * PERSONAL_PILE : (seat + 1) * PERSONAL_PILE]
            self.hands[player], self.personal[player] = (
                pile[:HAND_SIZE],
                pile[HAND_SIZE:],
            )
        self.central = cards[len(state.players) * PERSONAL_PILE :]
        self.discard: list[Card] = []
        self.in_play: list[Card] = []

    def follow(self, event: ev.Event) -> None:
        """Move the real cards as the engine's derived event says."""
        match event:
            case ev.CardsRevealed(cards):
                for player, played in cards.items():
                    for card in played:
                        self.hands[player].remove(card)
                    self.in_play.extend(played)
            case ev.CardsDiscarded():
                self.discard.extend(self.in_play)
                self.in_play = []
            case ev.HandsRefilled(cards):
                for player, count in cards.items():
                    self.hands[player] += self.personal[player][:count]
                    del self.personal[player][:count]
            case ev.DiscardReshuffled():
                self.central, self.discard = self.discard, []
                self.rng.shuffle(self.central)
            case ev.CardsDrawn(player, count):
                self.hands[player] += self.central[:count]
                del self.central[:count]

    def check(self, state: State) -> None:
        seen = (
            [len(self.hands[p]) for p in state.players],
            [len(self.personal[p]) for p in state.players],
            [len(self.central), len(self.discard), len(self.in_play)],
        )
        shown = (
            list(state.hands),
            list(state.personal_piles),
            [state.draw_pile, state.discard_pile, state.in_play],
        )
        if seen != shown:
            raise RuntimeError(f"the table holds {seen}, the engine shows {shown}")


def simulate(setup: Setup) -> Iterator[Move]:
    rng = random.Random(setup.seed)
    state = initial_state(setup)
    table = _Table(state, rng)
    for _ in range(MAX_MOVES):
        move = _next_move(state, table, rng)
        if move is None:
            return
        yield move
        for event in decide(state, move):
            table.follow(event)
            state = evolve(state, event)
        table.check(state)
    raise RuntimeError("the simulated game did not end")


def _next_move(state: State, table: _Table, rng: random.Random) -> Move | None:
    phase = state.phase
    match phase:
        case Rolling(player):
            on_hay = state.hay_dict()
            dice = {c: rng.randint(1, 6) for c in COLORS if c not in on_hay}
            return Roll(player, dice)
        case Choosing(player, rolled):
            return Choose(player, _pick_die(state, rolled, rng))
        case DecidingLastDie(player, _, pips):
            keep = pips <= 3 or rng.random() < 0.3
            return LastDie(player, None if keep else rng.randint(1, 6))
        case Revealing():
            return Reveal(_reveal(state, table, rng))
        case RollingOff(among):
            return RollOff({p: rng.randint(1, 6) for p in among})
    return None


def _pick_die(
    state: State, rolled: tuple[tuple[Color, int], ...], rng: random.Random
) -> Color:
    """K5's legal dice; mostly the lowest (low dice make low donkeys), sometimes any."""
    allowed = choosable(state)
    legal = [(c, p) for c, p in rolled if c in allowed]
    if rng.random() < 0.6:
        return min(legal, key=lambda die: die[1])[0]
    return rng.choice(legal)[0]


def _reveal(
    state: State, table: _Table, rng: random.Random
) -> dict[str, tuple[Card, ...]]:
    """1 to 3 random cards each; a player with an empty personal pile often plays
    everything, hoping to win (K12)."""
    cards = {}
    for player in state.players:
        hand = table.hands[player]
        if not hand:
            continue
        most = min(HAND_SIZE, len(hand))
        count = rng.randint(1, most)
        if not table.personal[player] and rng.random() < 0.5:
            count = most
        cards[player] = tuple(rng.sample(hand, count))
    return cards
