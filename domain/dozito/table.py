"""A seeded virtual Dozito table: it deals real shuffled cards and logs legal moves.

The table knows what the service cannot: the order of the draw pile and the face-down
cards of every grid. It yields only what a real table logs (round starts, cards drawn
from the deck or revealed as they are seen, placements, discards). The rulebook does not
say which cards carry suns, STOP or Replay: each game's seed picks them with a fixed
distribution per colour (2 STOP, 2 Replay, three 1-sun and one 2-sun cards; one joker
of three with a sun).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from msgspec.structs import replace

from domain.dozito.components import GRID_SIZE, NEIGHBOURS, NUMBERS, Card
from domain.dozito.events import DeckReshuffled
from domain.dozito.evolve import evolve
from domain.dozito.moves import Discard, Draw, Move, Pile, Place, Source, StartRound
from domain.dozito.rules import decide
from domain.dozito.setup import initial_state
from domain.dozito.state import BetweenRounds, Drawing, Holding
from domain.dozito.view import outcome
from domain.game import Setup

MAX_MOVES = 50_000  # a safety net: a simulated game is a few hundred moves


def deck(rng: random.Random, colors: tuple[str, ...]) -> list[Card]:
    """The 75 cards of one game, their suns/STOP/Replay drawn from the seed."""
    cards = []
    for color in colors:
        numbers = rng.sample(list(NUMBERS), len(NUMBERS))
        kinds = [(3, True, False)] * 2 + [(0, False, True), (1, False, True)]
        kinds += [(1, False, False)] * 3 + [(2, False, False)]
        kinds += [(0, False, False)] * (len(numbers) - len(kinds))
        for number, (suns, stop, replay) in zip(numbers, kinds, strict=True):
            cards.append(
                Card(color=color, number=number, suns=suns, stop=stop, replay=replay)
            )
        cards += [Card(color=color, joker=True, suns=s) for s in (1, 0, 0)]
    return cards


def simulate(setup: Setup) -> Iterator[Move]:
    table = _Table(setup)
    for _ in range(MAX_MOVES):
        if outcome(table.state) is not None:
            return
        move = table.next_move()
        table.play(move)
        yield move
    raise RuntimeError(f"Simulated game {setup.seed} did not end.")


class _Table:
    def __init__(self, setup: Setup) -> None:
        self.rng = random.Random(setup.seed)
        self.state = initial_state(setup)
        self.cards = deck(self.rng, self.state.colors)
        self.draw_pile: list[Card] = []
        self.hidden: list[list[Card]] = []

    def play(self, move: Move) -> None:
        for event in decide(self.state, move):
            if isinstance(event, DeckReshuffled):
                self.draw_pile = [c for pile in self.state.piles for c in pile[:-1]]
                self.rng.shuffle(self.draw_pile)
            self.state = evolve(self.state, event)

    def next_move(self) -> Move:
        phase = self.state.phase
        if isinstance(phase, BetweenRounds):
            return self._start_round(phase)
        if isinstance(phase, Drawing):
            return self._draw(phase.player)
        assert isinstance(phase, Holding)
        return self._hold(phase)

    def _stated(self, card: Card) -> Card:
        """How the table states a card: a STOP's suns are sometimes left out (Z2)."""
        if card.stop and self.rng.random() < 0.5:
            return replace(card, suns=None)
        return card

    def _start_round(self, phase: BetweenRounds) -> StartRound:
        cards = self.cards[:]
        self.rng.shuffle(cards)
        players = len(self.state.players)
        self.hidden = [
            cards[i * GRID_SIZE : (i + 1) * GRID_SIZE] for i in range(players)
        ]
        self.draw_pile = cards[players * GRID_SIZE :]
        discards = (self.draw_pile.pop(), self.draw_pile.pop())
        starter: str | None
        if phase.starter is None:
            starter = self.rng.choice(phase.tied)
        else:
            starter = self.rng.choice((None, phase.starter))
        return StartRound(tuple(self._stated(c) for c in discards), starter)

    def _grid(self, player: str) -> tuple[Card | None, ...]:
        return self.state.grids[self.state.seat(player)]

    def _draw(self, player: str) -> Draw:
        grid = self._grid(player)
        left, right = self.state.piles
        piles: tuple[tuple[Source, tuple[Card, ...]], ...] = (
            ("discard_left", left),
            ("discard_right", right),
        )
        tops = [(source, pile[-1]) for source, pile in piles if pile]
        wanted = [source for source, card in tops if _best_spot(grid, card)]
        deck_empty = self.state.draw_pile_size == 0
        if wanted and (deck_empty or self.rng.random() < 0.6):
            return Draw(player, self.rng.choice(wanted))
        if deck_empty:
            return Draw(player, self.rng.choice([source for source, _ in tops]))
        return Draw(player, "deck", self._stated(self.draw_pile.pop()))

    def _hold(self, phase: Holding) -> Place | Discard:
        card, grid = phase.card, self._grid(phase.player)
        if phase.choice in ("discard", "discard_after_stop"):
            return Discard(phase.player, self._pile())
        spot = _best_spot(grid, card)
        if phase.choice == "place" and spot is None:
            spot = card.number or self.rng.randrange(1, GRID_SIZE + 1)
        if spot is None or (phase.choice != "place" and self.rng.random() < 0.05):
            return Discard(phase.player, self._pile())
        return self._place(phase.player, grid, card, spot)

    def _place(
        self, player: str, grid: tuple[Card | None, ...], card: Card, spot: int
    ) -> Place:
        revealed = None
        if grid[spot - 1] is None:
            revealed = self._stated(self.hidden[self.state.seat(player)][spot - 1])
        named = None if card.number == spot and self.rng.random() < 0.5 else spot
        return Place(player, named, revealed)

    def _pile(self) -> Pile:
        left, right = self.state.piles
        if left and not right:
            return "right"
        if right and not left:
            return "left"
        either: tuple[Pile, Pile] = ("left", "right")
        return self.rng.choice(either)


def _best_spot(grid: tuple[Card | None, ...], card: Card) -> int | None:
    """A spot worth placing `card` on: a face-down one, or a better colour fit."""
    spots = range(1, GRID_SIZE + 1) if card.joker else (card.face,)
    for spot in spots:
        if grid[spot - 1] is None:
            return spot
    for spot in spots:
        there = grid[spot - 1]
        if there is not None and _fit(grid, spot, card) > _fit(grid, spot, there):
            return spot
    return None


def _fit(grid: tuple[Card | None, ...], spot: int, card: Card) -> int:
    """How many face-up neighbours share the card's colour."""
    return sum(
        1
        for near in NEIGHBOURS[spot - 1]
        if (other := grid[near]) is not None and other.color == card.color
    )
