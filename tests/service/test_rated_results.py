"""What the ratings take of a finished game (`projections.ratings.finish_of`, from
the game's stored row): its players in seating order with their ranks in the
standings (T3), and nothing of a game in progress or abandoned."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

import msgspec

from domain.dobro import Dobro
from domain.dobro.components import DOBRO_DECK
from domain.game import Setup
from domain.history import Abandon, History
from domain.registry import BUILT_IN
from projections.ratings import finish_of
from service.storage.store import GameRow

AT = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def played(rules, players, seed, group=None, moves=None):
    setup = Setup(players=players, first_player=players[0], seed=seed)
    history = History.start(rules, setup)
    for n, move in enumerate(rules.simulate(setup)):
        if n == moves:
            break
        _, history = history.play(move)
    row = GameRow(
        id=uuid4(),
        game=rules.name,
        players=players,
        first_player=players[0],
        seed=seed,
        options={},
        token_hash=b"",
        group=group,
        created_at=AT,
    )
    return row, history


def test_a_finished_game_is_taken_in_its_standings_T3():
    row, history = played(BUILT_IN["dozito"], ("Ana", "Bia", "Caio"), 4, group="Club")
    finish = finish_of(row, history, AT)
    sheet = history.score_sheet()
    assert finish.ranks == tuple(sheet.standings[p] for p in row.players)
    assert finish.winners == tuple(sheet.winners)
    assert (finish.game, finish.group, finish.finished_at) == ("dozito", "Club", AT)


def test_nothing_is_taken_of_a_game_in_progress_or_abandoned():
    row, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4, moves=5)
    assert finish_of(row, history, AT) is None
    _, abandoned = history.play(Abandon())
    assert finish_of(row, abandoned, AT) is None


class Unranked(Dobro):
    """Dobro's rules with a sheet that leaves the standings out, as a game's own
    sheet may (the toy game's does)."""

    def sheet_start(self, state):
        return msgspec.structs.replace(super().sheet_start(state), standings={})

    def next_sheet(self, sheet, before, record, after):
        folded = super().next_sheet(sheet, before, record, after)
        return msgspec.structs.replace(folded, standings={})


def test_a_game_whose_sheet_ranks_no_one_has_its_winners_first_T3():
    rules = Unranked(DOBRO_DECK, "Dobro")
    row, history = played(rules, ("Ana", "Bia", "Caio"), 3)
    assert history.score_sheet().standings == {}
    finish = finish_of(row, history, AT)
    won = len(finish.winners)
    assert won >= 1
    assert sorted(finish.ranks) == [1] * won + [won + 1] * (3 - won)
    assert [p for p, r in zip(row.players, finish.ranks, strict=True) if r == 1] == (
        list(finish.winners)
    )
