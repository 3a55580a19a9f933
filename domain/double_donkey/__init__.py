"""Double Donkey (`double-donkey`): dice on the Hay card, donkeys worth their dice.

Rulebook: /work/shared/rules/double-donkey.txt; rulings K1-K12 in RULINGS.md.
"""

from domain.double_donkey.events import EVENTS
from domain.double_donkey.evolve import evolve
from domain.double_donkey.moves import MOVES
from domain.double_donkey.rules import decide
from domain.double_donkey.state import MAX_PLAYERS, MIN_PLAYERS, Options, initial_state
from domain.double_donkey.table import simulate
from domain.double_donkey.view import outcome, view
from domain.game import Rules

DOUBLE_DONKEY = Rules(
    name="double-donkey",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=Options,
    moves=MOVES,
    events=EVENTS,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    outcome=outcome,
    simulate=simulate,
)

__all__ = ["DOUBLE_DONKEY"]
