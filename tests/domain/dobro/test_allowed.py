"""What a Dobro table may log now (`allowed`, the view's `allowed` and `choices`):
the kinds of move the deck leaves possible, and the card values a play may use.
Every game's offers are held to its rules alike by tests/domain/test_contract.py;
these are Dobro's rulings at work."""

from __future__ import annotations

import pytest

from domain.dobro import DOBRO_PIXAR
from domain.dobro.components import WILD
from domain.dobro.moves import Play, Reverse, Skip, Take
from domain.errors import RuleError
from domain.game import Setup
from domain.history import History
from domain.registry import BUILT_IN
from tests.domain.dobro.given import after, draw_pile_empty, refused, start

SEEDS = range(12)


def played(name: str, seed: int, players: tuple[str, ...]):
    """(allowed before the move, the move) for every move of a seeded game, and the
    history at its end."""
    rules = BUILT_IN[name]
    setup = Setup(players=players, first_player=players[0], seed=seed)
    history = History.start(rules, setup)
    steps = []
    for move in rules.simulate(setup):
        steps.append((rules.view(history.state).allowed, move))
        history = history.play(move)[1]
    return steps, history


@pytest.mark.parametrize("seed", SEEDS)
def test_two_player_pixar_never_offers_skip_or_reverse_D5(seed):
    steps, _ = played("dobro-pixar", seed, ("Ann", "Bob"))
    for allowed, _ in steps:
        assert "skip" not in allowed and "reverse" not in allowed


def dobro_offers(state) -> tuple[str, ...]:
    return tuple(DOBRO_PIXAR.view(state).allowed)


def test_an_opening_offers_no_take_nor_skip_or_reverse_while_cards_remain_D7():
    state = start()
    assert dobro_offers(state) == ("play", "forgot_refill")
    refused(state, Take("Priscila"), "D7")
    refused(state, Skip("Priscila"), "D7")


def test_skip_and_reverse_open_a_climb_once_the_draw_pile_is_empty_D7():
    state = draw_pile_empty(start())
    assert dobro_offers(state) == ("play", "skip", "reverse", "forgot_refill")


def test_a_climb_offers_every_kind():
    state = after(start(), Play("Priscila", (4,)))
    assert dobro_offers(state) == ("play", "skip", "reverse", "take", "forgot_refill")


def test_a_climb_offers_only_the_cards_that_reach_its_value_D8():
    # Pixar's 20: two 10s, a 10 and a wild, or two wilds declared as 10 reach it.
    state = after(start(), Play("Priscila", (10, 10)))
    assert DOBRO_PIXAR.view(state).choices["play"] == {
        "player": ["Mauricio"],
        "cards": [10, WILD],
    }
    refused(state, Play("Mauricio", (9, 9)), "D8")


def test_a_value_none_are_left_of_is_not_offered_D1():
    # Pixar's four 10s: in play, then taken, they stay played until the round ends.
    state = after(
        start(),
        Play("Priscila", (10, 10)),
        Play("Mauricio", (10, 10)),
        Take("Karen"),
    )
    offered = DOBRO_PIXAR.view(state).choices["play"]["cards"]
    assert offered == [2, 3, 4, 5, 6, 7, 8, 9, WILD]
    refused(state, Play("Karen", (10,)), "D1")


def test_a_value_no_card_left_can_reach_offers_no_play_D8():
    # Pixar's top card is 10, a wild counts 10 at most: 20 is the best pair, and a
    # doubled 20 makes 40, out of reach.
    state = after(
        start(), Play("Priscila", (10, 10)), Play("Mauricio", (WILD, WILD), 10)
    )
    assert state.value_in_play == 40
    assert "play" not in dobro_offers(state)
    for cards in ((10, 10), (WILD, WILD), (10, WILD)):
        with pytest.raises(RuleError):
            after(state, Play("Karen", cards, 10 if cards == (WILD, WILD) else None))
    assert "take" in dobro_offers(state)


def test_a_kind_of_card_played_out_is_not_offered_D1():
    state = draw_pile_empty(start())
    # Pixar has two Reverses: both are played this round, each turning the table.
    state = after(state, Reverse("Priscila"), Reverse("Patricia"))
    assert "reverse" not in dobro_offers(state)
    refused(state, Reverse("Priscila"), "D1")
