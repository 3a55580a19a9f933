"""Dobro, in its two editions: `dobro` (the original) and `dobro-pixar` (rulings
D1-D17 in docs/rules.md). The editions share the rules and differ in their deck, wild
range and D5's two-player removals: one class, an instance for each. The Dobrei card
has no rule effect: it is not modelled (D2).
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.resources import files

from domain.dobro.components import DOBRO_DECK, DOBRO_PIXAR_DECK, Edition, Options
from domain.dobro.describe import describe
from domain.dobro.events import EVENTS, Event
from domain.dobro.evolve import evolve
from domain.dobro.examples import examples
from domain.dobro.moves import MOVES, Move
from domain.dobro.picture import picture
from domain.dobro.rules import PHASES, allowed, decide, phase
from domain.dobro.setup import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    initial_state,
    rematch_first_player,
)
from domain.dobro.sheet import Sheet, next_sheet, sheet_start
from domain.dobro.state import State
from domain.dobro.table import simulate
from domain.dobro.view import DobroView, is_terminal, outcome, view
from domain.dobro.wording import WORDS
from domain.game import Rules, Setup


class Dobro:
    """Dobro's rules for one edition: each part of `domain.game.Rules`, from the
    module of the game that holds it."""

    family = "dobro"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    options = Options
    moves = MOVES
    events = EVENTS
    phases = PHASES
    words = WORDS
    sheet_type = Sheet
    page = files(__name__) / "page.js"

    decide = staticmethod(decide)
    evolve = staticmethod(evolve)
    is_terminal = staticmethod(is_terminal)
    phase = staticmethod(phase)
    allowed = staticmethod(allowed)
    view = staticmethod(view)
    outcome = staticmethod(outcome)
    rematch_first_player = staticmethod(rematch_first_player)
    sheet_start = staticmethod(sheet_start)
    next_sheet = staticmethod(next_sheet)
    describe = staticmethod(describe)
    picture = staticmethod(picture)
    examples = staticmethod(examples)

    def __init__(self, edition: Edition, label: str) -> None:
        self.edition = edition
        self.name = edition.name
        self.labels = {"en": label, "fr": label}

    def initial_state(self, setup: Setup) -> State:
        return initial_state(self.edition, setup)

    def simulate(self, setup: Setup) -> Iterator[Move]:
        return simulate(self.edition, setup)


DOBRO: Rules[State, Move, Event, DobroView, Sheet] = Dobro(DOBRO_DECK, "Dobro")
DOBRO_PIXAR: Rules[State, Move, Event, DobroView, Sheet] = Dobro(
    DOBRO_PIXAR_DECK, "Dobro Pixar"
)

__all__ = ["DOBRO", "DOBRO_PIXAR", "Dobro"]
