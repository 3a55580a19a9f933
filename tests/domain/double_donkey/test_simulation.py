"""Simulated games (OpenSpiel's games_sim_test): 200 seeded games per player count,
played by the virtual table and checked move by move against the invariants."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from domain.double_donkey import DOUBLE_DONKEY
from domain.double_donkey import events as ev
from domain.double_donkey.components import DECK_SIZE, HAND_SIZE
from domain.history import Codec, History
from tests.domain.double_donkey.given import setup

GAMES = 200
NAMES = ("Olivia", "Fran", "Jan", "Margaret", "Ann")
CODEC = Codec(DOUBLE_DONKEY)


def _check_counts(state) -> None:
    """K3, K10: the 57 cards are all somewhere, and no hand holds more than 3."""
    total = (
        sum(state.hands)
        + sum(state.personal_piles)
        + state.draw_pile
        + state.discard_pile
        + state.in_play
    )
    assert total == DECK_SIZE
    assert all(0 <= hand <= HAND_SIZE for hand in state.hands)
    assert min(*state.personal_piles, state.draw_pile, state.discard_pile) >= 0


def _emptied(state) -> tuple[str, ...]:
    """K12: the players whose hand and personal pile are both empty."""
    return tuple(
        p for p in state.players if state.hand(p) == 0 and state.personal_pile(p) == 0
    )


def _play_game(game_setup, seen: Counter):
    history = History.start(DOUBLE_DONKEY, game_setup)
    records = []
    for move in DOUBLE_DONKEY.simulate(game_setup):
        assert DOUBLE_DONKEY.outcome(history.state) is None
        record, history = history.play(move)
        records.append(record)
        seen.update(type(e).__name__ for e in record.events)
        _check_counts(history.state)
        if DOUBLE_DONKEY.outcome(history.state) is None:
            assert not _emptied(history.state)  # else the game had ended (K12)
    return history, records


def _check_end(history, records) -> None:
    """K12: the game ended on a reveal, won by exactly the emptied players, with no
    Biggest Donkey, roll-off or refill after it."""
    winners = DOUBLE_DONKEY.outcome(history.state)
    assert winners and winners == _emptied(history.state)
    last = records[-1]
    assert last.move.__struct_config__.tag == "reveal"
    assert last.events[-1] == ev.GameWon(winners)
    kinds = {type(e) for e in last.events}
    assert kinds.isdisjoint({ev.BiggestDonkeyTaken, ev.RollOffCalled, ev.HandsRefilled})
    assert DOUBLE_DONKEY.view(history.state).winners == list(winners)


def _check_reafter(game_setup, history, records) -> None:
    """Every record survives JSON, and folding the decoded log gives the live state."""
    folded = History.start(DOUBLE_DONKEY, game_setup)
    for record in records:
        decoded = CODEC.record_from_json(msgspec.json.encode(record))
        assert (decoded.move, decoded.events) == (record.move, record.events)
        folded = folded.apply(decoded)
    assert folded.state == history.state
    view = msgspec.json.encode(DOUBLE_DONKEY.view(history.state))
    assert msgspec.json.decode(view)["hand_sizes"].keys() == set(game_setup.players)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_simulated_games_keep_every_invariant(players):
    seen: Counter = Counter()
    for seed in range(GAMES):
        names = NAMES[:players]
        game_setup = setup(names, first=names[seed % players], seed=seed)
        history, records = _play_game(game_setup, seen)
        _check_end(history, records)
        _check_reafter(game_setup, history, records)
        seen["shared victory"] += len(DOUBLE_DONKEY.outcome(history.state)) > 1
    # The games reach every derived rule: flips, roll-offs, shared wins, and with 5
    # players (a 7-card central pile) reshuffles; fewer players end the game first.
    for kind in ("DiceFlipped", "RollOffCalled", "RollOffRolled", "shared victory"):
        assert seen[kind], kind
    assert seen["DiscardReshuffled"] or players < 5


def test_the_simulation_is_deterministic_for_a_seed():
    game_setup = setup(NAMES[:3], seed=7)
    first = list(DOUBLE_DONKEY.simulate(game_setup))
    assert first == list(DOUBLE_DONKEY.simulate(game_setup))
    assert first != list(DOUBLE_DONKEY.simulate(setup(NAMES[:3], seed=8)))


def test_the_simulation_logs_only_moves_of_the_api():
    moves = list(DOUBLE_DONKEY.simulate(setup(NAMES[:4], seed=3)))
    for move in moves:
        wire = msgspec.to_builtins(move)
        assert CODEC.move_from_builtins(wire) == move
    kinds = {msgspec.to_builtins(m)["type"] for m in moves}
    assert {"roll", "choose", "last_die", "reveal"} <= kinds
