"""The end of the game (K12)."""

from __future__ import annotations

import pytest

from domain.double_donkey import DOUBLE_DONKEY
from domain.double_donkey import events as ev
from domain.double_donkey.moves import Reveal, Roll
from domain.double_donkey.view import view
from domain.errors import GameFinished, RuleError
from domain.history import History, Undo
from tests.domain.double_donkey.given import (
    EXAMPLE_HAY,
    after,
    at_reveal,
    dd,
    setup,
    when,
)

SEVEN, FOUR = dd("orange", "green"), dd("light_blue", "yellow")
CARDS = {"Olivia": (SEVEN,), "Fran": (FOUR, FOUR), "Jan": (FOUR,), "Margaret": (FOUR,)}


def test_a_player_with_no_hand_and_no_personal_pile_after_a_reveal_wins_K12():
    state = at_reveal(EXAMPLE_HAY, hands=(3, 2, 3, 3), personal_piles=(7, 0, 5, 5))
    events = when(state, Reveal(CARDS))
    assert events[-1] == ev.GameWon(("Fran",))
    state = after(state, Reveal(CARDS))
    assert DOUBLE_DONKEY.outcome(state) == ("Fran",)
    assert view(state).winners == ["Fran"]


def test_the_game_ends_at_once_without_biggest_donkey_or_refill_K12():
    state = at_reveal(EXAMPLE_HAY, hands=(3, 2, 3, 3), personal_piles=(7, 0, 5, 5))
    events = when(state, Reveal(CARDS))
    kinds = {type(e) for e in events}
    assert kinds.isdisjoint(
        {ev.BiggestDonkeyTaken, ev.HandsRefilled, ev.CardsDrawn, ev.RoundStarted}
    )
    assert after(state, Reveal(CARDS)).biggest_donkey is None


def test_no_roll_off_follows_a_reveal_that_ends_the_game_K12():
    state = at_reveal(EXAMPLE_HAY, hands=(3, 2, 3, 3), personal_piles=(7, 0, 7, 7))
    cards = {**CARDS, "Jan": (SEVEN,)}  # Olivia and Jan tied
    assert when(state, Reveal(cards))[-1] == ev.GameWon(("Fran",))


def test_players_emptying_everything_in_the_same_reveal_share_the_victory_K12():
    state = at_reveal(EXAMPLE_HAY, hands=(1, 2, 3, 3), personal_piles=(0, 0, 5, 5))
    state = after(state, Reveal(CARDS))
    assert DOUBLE_DONKEY.outcome(state) == ("Olivia", "Fran")


def test_an_empty_hand_with_cards_left_in_the_personal_pile_does_not_win_K12():
    state = at_reveal(EXAMPLE_HAY, hands=(3, 2, 3, 3), personal_piles=(7, 1, 5, 5))
    state = after(state, Reveal(CARDS))
    assert DOUBLE_DONKEY.outcome(state) is None and state.hands[1] == 1


def test_an_empty_personal_pile_with_cards_left_in_hand_does_not_win_K12():
    state = at_reveal(EXAMPLE_HAY, hands=(3, 3, 3, 3), personal_piles=(7, 0, 5, 5))
    state = after(state, Reveal(CARDS))
    assert DOUBLE_DONKEY.outcome(state) is None and state.hands[1] == 1


def test_no_move_is_taken_once_the_game_is_over_K12():
    state = at_reveal(EXAMPLE_HAY, hands=(3, 2, 3, 3), personal_piles=(7, 0, 5, 5))
    state = after(state, Reveal(CARDS))
    with pytest.raises(RuleError) as refused:
        when(state, Roll("Olivia", dict.fromkeys(EXAMPLE_HAY, 3)))
    assert refused.value.rule == "K12"


def test_a_finished_game_takes_only_an_undo_which_reopens_it_K12_A2():
    game = setup(seed=11)
    history = History.start(DOUBLE_DONKEY, game)
    for move in DOUBLE_DONKEY.simulate(game):
        before, (_, history) = history, history.play(move)
    assert history.finished and history.winners
    with pytest.raises(GameFinished):
        history.play(Roll("Olivia", dict.fromkeys(EXAMPLE_HAY, 3)))
    _, reopened = history.play(Undo())
    assert not reopened.finished and reopened.state == before.state
