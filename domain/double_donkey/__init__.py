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

from domain.double_donkey import wording
from domain.double_donkey.describe import describe
from domain.double_donkey.events import EVENTS
from domain.double_donkey.evolve import FOLDS
from domain.double_donkey.moves import MOVES
from domain.double_donkey.picture import picture
from domain.double_donkey.rules import decide
from domain.double_donkey.setup import MAX_PLAYERS, MIN_PLAYERS, initial_state
from domain.double_donkey.sheet import next_sheet, score_sheet
from domain.double_donkey.state import Options
from domain.double_donkey.table import simulate
from domain.double_donkey.view import outcome, view
from domain.game import Rules

DOUBLE_DONKEY = Rules(
    name="double-donkey",
    labels={"en": "Double Donkey", "fr": "Double Donkey"},
    family="double-donkey",
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

__all__ = ["DOUBLE_DONKEY"]
