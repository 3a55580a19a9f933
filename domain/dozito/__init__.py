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

from domain.dozito import wording
from domain.dozito.describe import describe
from domain.dozito.events import EVENTS
from domain.dozito.evolve import FOLDS
from domain.dozito.moves import MOVES
from domain.dozito.picture import picture
from domain.dozito.rules import decide
from domain.dozito.setup import MAX_PLAYERS, MIN_PLAYERS, initial_state
from domain.dozito.sheet import next_sheet, score_sheet
from domain.dozito.state import Options
from domain.dozito.table import simulate
from domain.dozito.view import outcome, view
from domain.game import Rules

DOZITO = Rules(
    name="dozito",
    labels={"en": "Dozito", "fr": "Dozito"},
    family="dozito",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=Options,
    moves=MOVES,
    events=EVENTS,
    initial_state=initial_state,
    decide=decide,
    folds=FOLDS,
    view=view,
    outcome=outcome,
    score_sheet=score_sheet,
    next_sheet=next_sheet,
    simulate=simulate,
    sentences={"en": wording.ENGLISH, "fr": wording.FRENCH},
    describe=describe,
    picture=picture,
)

__all__ = ["DOZITO"]
