"""Double Donkey (`double-donkey`): dice on the Hay card, donkeys worth their dice.

Rulebook: the Double Donkey rulebook (Piatnik, 2022), as rulings K1-K12 in
docs/rules.md settle it. Where they are silent, this engine reads them so:

- Set-up (K3): the rulebook deals 10 cards to each player's personal pile and each
  player draws its top 3 as the starting hand, so a game starts with hands of 3,
  personal piles of 7 and a central draw pile of the 57 - 10 x players cards left
  (37, 27, 17 or 7); the discard pile is empty and nobody holds the Biggest Donkey.
- A player holding no card at a reveal (only a Biggest Donkey holder who found nothing
  to draw could) sits it out: they are left out of `reveal`, or given `[]`.
- "At most one Angry Donkey of each colour" (K2) holds for the whole reveal, since
  the box has one of each.
- K9's tie-break counts personal piles as they are at the reveal (before refills).
- The K12 check comes before the Biggest Donkey: a reveal that ends the game is not
  followed by a roll-off even if the highest cards tie.
- A move logged out of step cites the ruling of what is expected instead (K4 while
  dice are rolled and chosen, K6 for the last die, K7 for the reveal), except a
  roll-off, which always cites K9; a move after the end cites K12.
- Once the Biggest Donkey is given the next round starts at once: the Hay card shows
  nothing, and the public view keeps the latest reveal and its values.
"""

from __future__ import annotations

from importlib.resources import files

from domain.double_donkey.describe import describe
from domain.double_donkey.events import EVENTS, Event
from domain.double_donkey.evolve import evolve
from domain.double_donkey.examples import examples
from domain.double_donkey.moves import MOVES, Move
from domain.double_donkey.picture import picture
from domain.double_donkey.rules import PHASES, allowed, decide, phase
from domain.double_donkey.setup import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    initial_state,
    rematch_first_player,
)
from domain.double_donkey.sheet import Sheet, next_sheet, sheet_start
from domain.double_donkey.state import Options, State
from domain.double_donkey.table import simulate
from domain.double_donkey.view import DoubleDonkeyView, is_terminal, outcome, view
from domain.double_donkey.wording import LABELS, WORDS
from domain.game import Rules


class DoubleDonkey:
    """Double Donkey's rules: each part of `domain.game.Rules`, from the module of
    the game that holds it."""

    name = "double-donkey"
    labels = LABELS
    family = "double-donkey"
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


DOUBLE_DONKEY: Rules[State, Move, Event, DoubleDonkeyView, Sheet] = DoubleDonkey()

__all__ = ["DOUBLE_DONKEY", "DoubleDonkey"]
