"""T2: a game may be abandoned, for every game alike, and an undo reopens it."""

from __future__ import annotations

import pytest

from domain.errors import GameFinished
from domain.game import Setup
from domain.history import Abandon, GameAbandoned, History, Undo
from domain.registry import BUILT_IN

SETUP = Setup(players=("Ana", "Bia"), first_player="Ana", seed=4)


def started(name: str, moves: int) -> History:
    history = History.start(BUILT_IN[name], SETUP)
    for _, move in zip(range(moves), BUILT_IN[name].simulate(SETUP), strict=False):
        history = history.play(move)[1]
    return history


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_an_abandoned_game_ends_where_it_stands_with_no_winners_T2(name):
    history = started(name, 5)
    record, abandoned = history.play(Abandon())
    assert record.events == (GameAbandoned(),)
    assert abandoned.status == "abandoned" and abandoned.winners is None
    assert abandoned.state == history.state
    assert abandoned.version == history.version + 1


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_an_abandoned_game_takes_only_an_undo_which_reopens_it_T2_A2(name):
    history = started(name, 5)
    abandoned = history.play(Abandon())[1]
    next_move = list(BUILT_IN[name].simulate(SETUP))[5]
    with pytest.raises(GameFinished, match="abandoned") as refused:
        abandoned.decide(next_move)
    assert refused.value.rule == "T2"
    with pytest.raises(GameFinished) as refused:
        abandoned.decide(Abandon())
    assert refused.value.rule == "T2"
    reopened = abandoned.play(Undo())[1]
    assert reopened.status == "in_progress" and reopened.state == history.state
    assert reopened.play(next_move)[1].version == reopened.version + 1


def test_a_finished_game_cannot_be_abandoned_T2():
    finished = started("dobro", 10_000)
    assert finished.status == "finished"
    with pytest.raises(GameFinished) as refused:
        finished.decide(Abandon())
    assert refused.value.rule == "T2"


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_an_abandoned_game_allows_no_move_in_its_public_state_T2(name):
    history = started(name, 5)
    assert history.view().allowed
    assert not history.play(Abandon())[1].view().allowed
