"""A Dozito game's set-up: players and who starts (Z3), rounds (Z15), colours (Z2)."""

from __future__ import annotations

from domain.dozito.components import GRID_SIZE
from domain.dozito.state import COLOR_LENGTH, BetweenRounds, Options, State
from domain.errors import RuleError
from domain.game import Setup, StoredSetup
from domain.setup import decoded_options, first_player, seated

MIN_PLAYERS, MAX_PLAYERS = 2, 5  # Z3

# Which ruling governs each option.
OPTION_RULINGS = {"rounds": "Z15", "colors": "Z2"}


def initial_state(setup: Setup) -> State:
    """The game before its first round, which `first_player` starts (Z3)."""
    players = seated(setup, "Dozito", MIN_PLAYERS, MAX_PLAYERS, "Z3")
    first = first_player(setup, players, "Z3")
    options = decoded_options(setup, Options, OPTION_RULINGS, "Dozito")
    colors = options.colors
    if len(colors) != 5 or len(set(colors)) != 5 or not all(colors):
        raise RuleError("Z2", "dozito.colors", most=COLOR_LENGTH)
    # A game stored before the bound stays readable (`StoredSetup`).
    if not isinstance(setup, StoredSetup) and max(map(len, colors)) > COLOR_LENGTH:
        raise RuleError("Z2", "dozito.colors", most=COLOR_LENGTH)
    return State(
        players=players,
        rounds=options.rounds,
        colors=colors,
        round=0,
        phase=BetweenRounds(1, first),
        grids=tuple((None,) * GRID_SIZE for _ in players),
        piles=((), ()),
        draw_pile_size=0,
        final_turns=None,
        totals=(0,) * len(players),
        round_scores=(),
        sightings=(None,) * 60,
    )


def rematch_first_player(setup: Setup, state: State) -> str:
    """Z16: "The player whose age is closest to 12 starts the game!", and a table
    playing again is of the same ages: whoever opened the game opens the next."""
    return setup.first_player
