"""A Double Donkey game's set-up (K3): 2 to 5 players and the first dice holder."""

from __future__ import annotations

from domain.double_donkey.state import Options, State
from domain.double_donkey.state import initial_state as dealt
from domain.game import Setup
from domain.setup import decoded_options, first_player, seated

MIN_PLAYERS, MAX_PLAYERS = 2, 5  # K3: each needs a 10-card pile out of 57 cards

# Which ruling governs each option: Double Donkey has none, so any is unknown (A1).
OPTION_RULINGS: dict[str, str] = {}


def initial_state(setup: Setup) -> State:
    """The game as dealt (K3), `setup.first_player` holding the six dice."""
    players = seated(setup, "Double Donkey", MIN_PLAYERS, MAX_PLAYERS, "K3")
    first_player(setup, players, "K3")
    decoded_options(setup, Options, OPTION_RULINGS, "Double Donkey")
    return dealt(setup)


def rematch_first_player(setup: Setup, state: State) -> str:
    """K13: "The youngest player receives the 6 dice", and a table playing again
    is of the same ages: whoever held them first holds them first again."""
    return setup.first_player
