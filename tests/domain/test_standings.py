"""A finished game's standings on its score sheet (T3): the winners first, then the
others by their totals in the direction their game is won by, equal totals sharing a
rank (1, 2, 2, 4); none while the game goes on or once it is abandoned."""

from __future__ import annotations

import pytest

from domain.game import Setup
from domain.history import Abandon, History
from domain.registry import BUILT_IN
from domain.sheet import standings
from projections.scoresheet import score_sheet, score_sheets

PLAYERS = ("Priscila", "Mauricio", "Karen", "Patricia")
# Each game's direction: whether the most points (True) or the fewest rank first.
MOST_WINS = {"dobro": True, "dobro-pixar": True, "dozito": True}


def played(name: str, seed: int, **options) -> History:
    rules = BUILT_IN[name]
    players = PLAYERS[: max(3, rules.min_players)]
    setup = Setup(players=players, first_player=players[0], seed=seed, options=options)
    history = History.start(rules, setup)
    for move in rules.simulate(setup):
        _, history = history.play(move)
    return history


def expected(sheet, most_wins: bool) -> dict[str, int]:
    """Ranked another way: sorted, each rank the position of the first equal."""

    def key(player):
        if player in sheet.winners:
            return (0, 0)
        total = sheet.totals[player]
        return (1, -total if most_wins else total)

    order = sorted(sheet.players, key=key)
    return {
        p: 1 + next(i for i, o in enumerate(order) if key(o) == key(p)) for p in order
    }


def test_winners_rank_first_and_equal_totals_share_a_rank_T3():
    totals = {"Ana": 10, "Bea": 30, "Caio": 20, "Davi": 20, "Eva": 5}
    assert standings(totals, ["Ana"], most_wins=True) == {
        "Ana": 1,
        "Bea": 2,
        "Caio": 3,
        "Davi": 3,
        "Eva": 5,
    }
    assert standings(totals, ["Bea", "Eva"], most_wins=False) == {
        "Bea": 1,
        "Eva": 1,
        "Ana": 3,
        "Caio": 4,
        "Davi": 4,
    }


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_a_finished_game_ranks_its_players_in_its_direction_T3(name, seed):
    sheet = score_sheet(played(name, seed))
    assert sheet.finished
    assert sheet.standings == expected(sheet, MOST_WINS.get(name, False))
    assert [p for p, rank in sheet.standings.items() if rank == 1] == sheet.winners
    assert list(sheet.standings) == sheet.players


@pytest.mark.parametrize("seed", range(6))
def test_the_french_scale_ranks_the_fewest_points_first_T3(seed):
    sheet = score_sheet(played("dobro", seed, scoring="fewest-first"))
    assert sheet.standings == expected(sheet, most_wins=False)
    losers = [p for p in sheet.players if p not in sheet.winners]
    by_rank = sorted(losers, key=sheet.standings.__getitem__)
    assert [sheet.totals[p] for p in by_rank] == sorted(sheet.totals[p] for p in losers)


def test_double_donkey_ranks_the_fewest_cards_held_after_its_winners_T3():
    for seed in range(40):
        sheet = score_sheet(played("double-donkey", seed))
        losers = sorted(
            (p for p in sheet.players if p not in sheet.winners),
            key=sheet.totals.__getitem__,
        )
        if len({sheet.totals[p] for p in losers}) > 1:
            break
    else:
        pytest.fail("no game whose losers hold different counts of cards")
    assert [sheet.standings[p] for p in losers] == sorted(
        sheet.standings[p] for p in losers
    )
    assert sheet.standings[losers[0]] < sheet.standings[losers[-1]]


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_no_standings_in_progress_nor_once_abandoned_T3(name):
    rules = BUILT_IN[name]
    setup = Setup(players=PLAYERS[:3], first_player=PLAYERS[0], seed=3)
    history = History.start(rules, setup)
    moves = rules.simulate(setup)
    records, histories = [], [history]
    for _ in range(3):
        record, history = history.play(next(moves))
        records.append(record)
        histories.append(history)
    assert score_sheet(history).standings == {}
    record, history = history.play(Abandon())
    records.append(record)
    histories.append(history)
    assert score_sheet(history).standings == {}
    assert score_sheets(histories, records)[-1].standings == {}


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_the_fold_one_move_at_a_time_gives_the_same_standings_T3(name):
    history = played(name, seed=5)
    records = [record for _, record in history.records()]
    histories = [History.start(history.rules, history.setup)]
    for record in records:
        histories.append(histories[-1].apply(record))
    assert score_sheets(histories, records)[-1].standings == (
        score_sheet(history).standings
    )
