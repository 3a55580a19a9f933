"""Dozito (`dozito`): 2-5 players build 3x4 grids of coloured cards (rulings Z1-Z15).

Where the rulings leave a choice, this engine decides:
- Z8: the card a STOP card displaces (revealed, or face up) stays in the hand until
  the table logs a `discard` naming its pile, as for any other discard (Z6 applies);
  the view's `phase` is then `discard`.
- Z14: `starter` may be left out when the rules name the starter; if sent it must be
  that player. On a tie it is required and must be one of the tied (`starter_choices`).
  Round 1 follows the same pattern with the first player (Z3).
- Z2: a card cannot be both STOP and Replay; a `draw` from a discard pile must not
  state the card (its top is known); jokers of a colour look alike, so only their
  count (three at most in view) is checked, not their suns.
- Z11: `final_turns` lists the players still owed a final turn, the one playing it
  included until that turn (with its Replay turns) ends.
- Z10: a reshuffle leaves each non-empty pile's top; it happens when a turn begins
  with an empty draw pile, in the events of the move that ended the previous turn.
- Z12: after an instant win the round is not scored and the board stays as it was.
- Option `rounds` is 1-20; a move out of turn is refused with Z4.
"""

from __future__ import annotations

from importlib.resources import files

from domain.dozito.describe import describe
from domain.dozito.events import EVENTS, Event
from domain.dozito.evolve import evolve
from domain.dozito.examples import examples
from domain.dozito.moves import MOVES, Move
from domain.dozito.picture import picture
from domain.dozito.rules import PHASES, allowed, decide, phase
from domain.dozito.setup import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    initial_state,
    rematch_first_player,
)
from domain.dozito.sheet import Sheet, next_sheet, sheet_start
from domain.dozito.state import Options, State
from domain.dozito.table import simulate
from domain.dozito.view import DozitoView, is_terminal, outcome, view
from domain.dozito.wording import LABELS, WORDS
from domain.game import Rules


class Dozito:
    """Dozito's rules: each part of `domain.game.Rules`, from the module of the
    game that holds it."""

    name = "dozito"
    labels = LABELS
    family = "dozito"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    options = Options
    moves = MOVES
    events = EVENTS
    phases = PHASES
    words = WORDS
    sheet_type = Sheet
    page = files(__name__) / "page.js"

    initial_state = staticmethod(initial_state)
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
    simulate = staticmethod(simulate)
    examples = staticmethod(examples)


DOZITO: Rules[State, Move, Event, DozitoView, Sheet] = Dozito()

__all__ = ["DOZITO", "Dozito"]
