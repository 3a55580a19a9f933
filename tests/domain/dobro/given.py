"""Given/when/then for the Dobro tests: build a table, fold events, play moves."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.dobro import DOBRO, DOBRO_PIXAR
from domain.dobro.events import PileTaken, RefillForgotten
from domain.dobro.moves import Play
from domain.dobro.state import State
from domain.game import Rules, Setup
from tests.domain.specification import Specification

PIXAR_TABLE = ("Priscila", "Mauricio", "Karen", "Patricia")

# The Pixar rulebook's "Final scoring example" as three rounds of score piles, and
# who held the Forgetful card at each round's end: piles that rank each player as the
# example says (Priscila 1, 4, 3; Patricia 2, 3, 1; Mauricio 4, 1, 2; Karen 2, 2, 4).
FINAL_SCORING_EXAMPLE = (
    ({"Priscila": 18, "Karen": 12, "Patricia": 12, "Mauricio": 8}, None),
    ({"Mauricio": 15, "Karen": 12, "Patricia": 10, "Priscila": 5}, "Priscila"),
    ({"Patricia": 16, "Mauricio": 12, "Priscila": 9, "Karen": 4}, "Priscila"),
)


def start(
    players: tuple[str, ...] = PIXAR_TABLE,
    first: str | None = None,
    rules: Rules = DOBRO_PIXAR,
    **options: Any,
) -> State:
    """A game just created: the first round dealt, `first` (default: the first seat)
    to open."""
    setup = Setup(
        players=players, first_player=first or players[0], seed=7, options=options
    )
    return rules.initial_state(setup)


# The editions share their rules: the one Dobro's Decider serves both.
given, when, after, refused = Specification(DOBRO)


def draw_pile_empty(state: State, **hands: int) -> State:
    """Given the draw pile has run out and these players hold these many cards."""
    players = state.table.players
    sizes = tuple(
        hands.get(name, size)
        for name, size in zip(players, state.hand_sizes, strict=True)
    )
    return replace(state, draw_pile_size=0, hand_sizes=sizes)


def round_played(
    state: State, piles: dict[str, int], forgetful: str | None = None
) -> tuple[State, list[object]]:
    """Given the round's climbs end with these score piles (and the Forgetful card
    with `forgetful`), the last taker, holding one card with the draw pile empty,
    opens with a 7: the round ends (D13). The events of that last move."""
    events: list[object] = [PileTaken(name, count) for name, count in piles.items()]
    if forgetful is not None:
        events.append(RefillForgotten(forgetful))
    state = given(state, *events)
    last = state.table.players[state.next_player]
    state = draw_pile_empty(state, **{last: 1})
    decided = when(state, Play(last, (7,)))
    return given(state, *decided), decided
