"""Undo (A2) and the fold of stored records, the same for every game."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.errors import GameFinished, RuleError
from domain.game import Setup
from domain.history import (
    Abandon,
    Codec,
    Histories,
    History,
    MoveRetracted,
    Truncated,
    Undo,
)
from domain.registry import BUILT_IN

PLAYERS = ("Ann", "Bob", "Cid", "Dee")


def setup_for(seed: int) -> Setup:
    return Setup(players=PLAYERS, first_player="Ann", seed=seed)


def simulated(name: str, seed: int):
    rules = BUILT_IN[name]
    setup = setup_for(seed)
    history = History.start(rules, setup)
    moves = []
    for move in rules.simulate(setup):
        history = history.play(move)[1]
        moves.append(move)
    return rules, setup, moves, history


@pytest.fixture(params=sorted(BUILT_IN), scope="module")
def finished_game(request):
    return simulated(request.param, seed=5)


def test_a_simulated_game_ends_with_winners(finished_game):
    _, _, moves, history = finished_game
    assert moves and history.finished and history.winners


def test_undo_then_logging_the_move_again_changes_nothing_A2(finished_game):
    rules, setup, moves, expected = finished_game
    history = History.start(rules, setup)
    chance = random.Random(1)
    for move in moves:
        before = history.state
        history = history.play(move)[1]
        if chance.random() < 0.2:
            history = history.play(Undo())[1]
            assert history.state == before
            history = history.play(move)[1]
    assert history.state == expected.state
    assert history.winners == expected.winners


def test_consecutive_undos_retract_earlier_moves_never_an_undo_A2(finished_game):
    rules, setup, moves, _ = finished_game
    states = [History.start(rules, setup)]
    for move in moves[:5]:
        states.append(states[-1].play(move)[1])
    history = states[-1]
    retracted = []
    for back in range(1, 6):
        record, history = history.play(Undo())
        retracted.append(record.events)
        assert history.state == states[-1 - back].state
    assert retracted == [(MoveRetracted(v),) for v in (6, 5, 4, 3, 2)]
    with pytest.raises(RuleError) as refused:
        history.decide(Undo())
    assert refused.value.rule == "A2"


def test_a_finished_game_takes_only_an_undo_which_reopens_it_A2(finished_game):
    _, _, moves, history = finished_game
    with pytest.raises(GameFinished) as refused:
        history.decide(moves[-1])
    assert refused.value.rule == "A2"
    reopened = history.play(Undo())[1]
    assert not reopened.finished
    assert reopened.play(moves[-1])[1].state == history.state


def test_stored_records_fold_back_to_the_live_state(finished_game):
    rules, setup, moves, expected = finished_game
    codec = Codec(rules)
    live = History.start(rules, setup)
    folded = History.start(rules, setup)
    for i, move in enumerate([*moves[:3], Undo(), *moves[2:]]):
        record, live = live.play(move)
        stored = msgspec.json.encode(record)
        folded = folded.apply(codec.record_from_json(stored))
        assert folded.version == i + 2
    assert folded.state == live.state == expected.state


def test_records_in_force_leave_out_what_undo_retracted_A2(finished_game):
    rules, setup, moves, _ = finished_game
    history = History.start(rules, setup)
    for move in moves[:3]:
        history = history.play(move)[1]
    history = history.play(Undo())[1].play(moves[2])[1]
    assert [v for v, _ in history.records()] == [2, 3, 6]
    assert [r.move for _, r in history.records()] == moves[:3]


def _played(history: History, moves: list) -> tuple[list, list[History]]:
    """The records of `moves` played in turn from `history`, and each history after."""
    records, histories = [], []
    for move in moves:
        record, history = history.play(move)
        records.append(record)
        histories.append(history)
    return records, histories


def _seen(history: History) -> tuple:
    return history.version, history.state, history.status, history.records()


def test_a_batch_folded_at_once_gives_each_version_as_applied_one_by_one_A2_T2(
    finished_game,
):
    rules, setup, moves, _ = finished_game
    start = History.start(rules, setup)
    played = [*moves[:4], Undo(), Undo(), *moves[2:5], Abandon(), Undo(), moves[5]]
    records, one_by_one = _played(start, played)
    histories = Histories(start)
    histories.extend(records[:3])
    histories.extend(records[3:])
    assert len(histories) == len(records) + 1
    assert [_seen(h) for h in histories] == [_seen(start)] + [
        _seen(h) for h in one_by_one
    ]
    # Each undo holds the version of its own and the top beneath what it retracts.
    assert histories[6].version == 7 and histories[6].top is histories[2].top
    abandoned, reopened, _ = histories[-3:]
    assert (abandoned.status, reopened.status) == ("abandoned", "in_progress")
    assert reopened.top is histories[-4].top
    assert [_seen(h) for h in histories[2:5]] == [_seen(h) for h in one_by_one[1:4]]


def test_an_undo_reaching_below_a_snapshot_adds_nothing_of_its_batch(finished_game):
    rules, setup, moves, _ = finished_game
    at = _played(History.start(rules, setup), moves[:3])[1][-1]
    resumed = History.resume(
        rules, setup, at.version, [(at.version, at.state, None, False)], None
    )
    # A move and two undos: the second would go back below the snapshot.
    (move, undo), _ = _played(resumed, [moves[3], Undo()])
    held = Histories(resumed)
    with pytest.raises(Truncated):
        held.extend([move, undo, undo])
    assert len(held) == 1 and held[0].version == at.version
