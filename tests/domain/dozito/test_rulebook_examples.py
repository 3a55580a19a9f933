"""The rulebook's worked turn examples, quoted by section."""

from msgspec.structs import replace

from domain.dozito import DOZITO, scoring
from domain.dozito.events import TurnBegan
from domain.dozito.state import Drawing
from domain.dozito.view import view
from tests.domain.dozito.given import (
    ARTHUR,
    MAELLE,
    Discard,
    Draw,
    Place,
    after,
    card,
    draws,
    joker,
    plain,
    refused,
    started,
    when,
    with_grid,
)
from tests.domain.sentences import said


def test_example_of_a_full_turn_arthur_Z4_Z6():
    """Turn of Play, "Example of a full turn"."""
    state = started(discards=(plain("red", 3), plain("yellow", 7)))
    state = with_grid(state, ARTHUR, {2: plain("red", 2), 5: plain("blue", 5)})
    # "Arthur takes the top card from one of the discard piles: the red 3."
    state = after(state, Draw(ARTHUR, "discard_left"))
    # "He places it at spot number 3 of his grid, right next to his red 2 ... (A)
    # he flips it over and reveals a green 11."
    state = after(state, Place(ARTHUR, revealed=card("green", 11)))
    assert ("red", 2) in scoring.groups(state.grids[0])
    # "He places the 11 on its spot and reveals a new face-down card (B). It is a
    # red 5."
    state = after(state, Place(ARTHUR, revealed=card("red", 5)))
    assert view(state).held == plain("red", 5)
    # "He chooses to keep the red 5 (C). He places it in his grid, then must discard
    # the blue 5 onto one of the discard piles, and his turn ends. (D)"
    state = after(state, Place(ARTHUR))
    assert view(state).held == plain("blue", 5) and view(state).phase == "discard"
    # Taking the red 3 emptied the left pile, so the blue 5 must go there (Z6).
    refused(state, Discard(ARTHUR, "right"), "Z6")
    assert when(state, Discard(ARTHUR, "left"))[-1] == TurnBegan(MAELLE, None)
    state = after(state, Discard(ARTHUR, "left"))
    shown = view(state)
    # "It is then Maëlle's turn, seated to his left."
    assert shown.next_player == MAELLE
    assert shown.discard_tops.left == plain("blue", 5)
    assert shown.discard_tops.right == plain("yellow", 7)
    grid = shown.grids[ARTHUR]
    assert (grid[1], grid[2], grid[4], grid[10]) == (
        plain("red", 2),
        plain("red", 3),
        plain("red", 5),
        plain("green", 11),
    )


def test_rule_details_maelle_discards_her_purple_joker_on_the_empty_pile_Z6_Z7():
    """Rule Details, Maëlle's example: her blue 3 displaces the purple joker at spot
    3 (A); the joker is discarded, onto the left pile since it is empty (B)."""
    state = started(discards=(plain("red", 7), plain("yellow", 7)))
    state = replace(state, piles=((), state.piles[1]), phase=Drawing(MAELLE))
    state = with_grid(state, MAELLE, {3: joker("purple"), 2: plain("blue", 2)})
    state = after(state, draws(MAELLE, card("blue", 3)), Place(MAELLE))
    assert view(state).held == joker("purple")
    refused(state, Place(MAELLE, 5, card("blue", 4)), "Z7")
    refused(state, Discard(MAELLE, "right"), "Z6")
    assert when(state, Discard(MAELLE, "left"))[-1] == TurnBegan(ARTHUR, None)
    state = after(state, Discard(MAELLE, "left"))
    assert view(state).discard_tops.left == joker("purple")
    assert ("blue", 2) in scoring.groups(state.grids[1])


def test_each_move_is_described_in_a_sentence():
    state = started(discards=(plain("red", 3), plain("yellow", 7)))
    state = with_grid(state, ARTHUR, {5: plain("blue", 5)})
    lines = []
    for move in (
        Draw(ARTHUR, "discard_left"),
        Place(ARTHUR, revealed=card("red", 5)),
        Place(ARTHUR),
        Discard(ARTHUR, "left"),
        draws(MAELLE, joker("green")),
    ):
        lines.append(said(DOZITO, state, move))
        state = after(state, move)
    assert lines == [
        "Arthur takes the red 3 from the left discard pile",
        "Arthur places the red 3 on spot 3, revealing the red 5",
        "Arthur places the red 5 on spot 5",
        "Arthur discards the blue 5 on the left pile",
        "Maëlle draws the green joker from the deck",
    ]
