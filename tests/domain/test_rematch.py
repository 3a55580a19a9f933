"""T4: a game that is over is played again, opened by the player its own rules name
(D18, Z16, K13), or by the next seat where a rulebook says nothing."""

from __future__ import annotations

import pytest
from tablelog_toy import NIM

from domain.errors import GameInProgress
from domain.game import AnyRules, Setup
from domain.history import Abandon, History, Undo
from domain.registry import BUILT_IN
from domain.rematch import next_seat, rematch_first_player
from tests.domain.specification import english

SETUP = Setup(players=("Ana", "Bia", "Caio"), first_player="Bia", seed=4)


def played(rules: AnyRules, setup: Setup = SETUP, moves: int = 10_000) -> History:
    """The game after the virtual table's first `moves` moves (its end, by default)."""
    history = History.start(rules, setup)
    for _, move in zip(range(moves), rules.simulate(setup), strict=False):
        history = history.play(move)[1]
    return history


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_a_game_in_progress_is_not_played_again_T4(name):
    history = played(BUILT_IN[name], moves=3)
    assert history.status == "in_progress"
    with pytest.raises(GameInProgress) as refused:
        rematch_first_player(history)
    assert refused.value.rule == "T4"
    assert english(refused.value) == (
        "This game is not over yet: it can be played again once it is finished "
        "or abandoned."
    )


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_a_finished_game_and_an_abandoned_one_are_played_again_T4(name):
    rules = BUILT_IN[name]
    finished = played(rules)
    assert finished.status == "finished"
    abandoned = played(rules, moves=3).play(Abandon())[1]
    for over in (finished, abandoned):
        first = rematch_first_player(over)
        assert first is None or first in SETUP.players


def test_an_undo_that_reopens_a_game_puts_it_back_in_play_T4():
    reopened = played(BUILT_IN["dozito"]).play(Undo())[1]
    with pytest.raises(GameInProgress):
        rematch_first_player(reopened)


@pytest.mark.parametrize("name", ["dobro", "dobro-pixar"])
def test_a_dobro_game_played_again_draws_its_first_player_from_its_new_seed_D18(name):
    assert rematch_first_player(played(BUILT_IN[name])) is None


def test_a_dozito_game_played_again_is_opened_by_the_same_player_Z16():
    assert rematch_first_player(played(BUILT_IN["dozito"])) == "Bia"


def test_a_double_donkey_game_played_again_gives_the_dice_to_the_same_player_K13():
    assert rematch_first_player(played(BUILT_IN["double-donkey"])) == "Bia"


def test_where_the_rulebook_says_nothing_the_next_seat_opens_the_next_game_T4():
    assert next_seat(SETUP, None) == "Caio"
    last_seat = Setup(players=SETUP.players, first_player="Caio", seed=4)
    assert next_seat(last_seat, None) == "Ana"
    two = Setup(players=("Ana", "Bia"), first_player="Ana", seed=1)
    assert rematch_first_player(played(NIM, two)) == "Bia"
