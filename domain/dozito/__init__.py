"""Dozito (`dozito`): 2-5 players build 3x4 grids of coloured cards (rulings Z1-Z15)."""

from domain.dozito.describe import describe
from domain.dozito.events import EVENTS
from domain.dozito.evolve import evolve
from domain.dozito.moves import MOVES
from domain.dozito.rules import decide, initial_state
from domain.dozito.state import Options
from domain.dozito.table import simulate
from domain.dozito.view import outcome, view
from domain.game import Rules

DOZITO = Rules(
    name="dozito",
    min_players=2,
    max_players=5,
    options=Options,
    moves=MOVES,
    events=EVENTS,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    outcome=outcome,
    simulate=simulate,
    describe=describe,
)

__all__ = ["DOZITO"]
