"""Dobro's score sheet (D14-D16): the Pixar rulebook's scoring examples, and seeded
simulated games whose sheets agree with the engine.

The rulebook's rounds are logged as the engine's own Dobro tests build them
(tests/domain/dobro/given.py): the climbs' takes as `PileTaken` facts, then a last
play by a taker holding one card with the draw pile empty, decided by the engine,
which ends and scores the round (D13, D14).
"""

from __future__ import annotations

import pytest
from msgspec import UNSET, to_builtins

from domain.dobro import DOBRO, DOBRO_PIXAR
from domain.dobro.events import PileTaken
from domain.dobro.moves import ForgotRefill, Play, Take
from domain.game import Rules, Setup
from domain.history import History, Recorded
from projections.scoresheet import score_sheet
from tests.domain.dobro.given import (
    FINAL_SCORING_EXAMPLE,
    PIXAR_TABLE,
    draw_pile_empty,
)
from tests.projections.simulated import histories

FOUR = ("Ana", "Bia", "Caio", "Davi")


def created(players=PIXAR_TABLE, rules: Rules = DOBRO_PIXAR, **options) -> History:
    setup = Setup(players=players, first_player=players[0], seed=7, options=options)
    return History.start(rules, setup)


def round_logged(
    history: History, piles: dict[str, int], forgetful: str | None = None
) -> History:
    """Given a round whose climbs end with these score piles (and `forgetful` seen
    forgetting to refill, D12), the last taker empties their hand: the round ends."""
    for player, cards in piles.items():
        history = history.apply(Recorded(Take(player), (PileTaken(player, cards),)))
    if forgetful is not None:
        _, history = history.play(ForgotRefill(forgetful))
    state = history.state
    last = state.table.players[state.next_player]
    move = Play(last, (7,))
    events = history.rules.decide(draw_pile_empty(state, **{last: 1}), move)
    return history.apply(Recorded(move, tuple(events)))


def test_pixar_scoring_example_ranks_18_12_12_8_as_1_2_2_4_D14() -> None:
    """Pixar rulebook, "Round Scoring", "Scoring example": "Priscila finished with 18
    cards in her Score Pile. Karen and Patricia finished with 12 cards, and Mauricio
    with 8 cards. [...] Priscila receives 1 point. Karen and Patricia are tied for
    second place, so both receive 2 points. Mauricio [...] receives 4 points." """
    piles = {"Priscila": 18, "Karen": 12, "Patricia": 12, "Mauricio": 8}
    sheet = score_sheet(round_logged(created(), piles))
    [line] = sheet.rounds
    points = {"Priscila": 1, "Mauricio": 4, "Karen": 2, "Patricia": 2}
    assert line.round == 1 and line.points == points
    assert line.detail.score_piles == piles
    assert line.detail.rank_points == points
    assert line.detail.forgetful is None
    assert line.detail.forgetful_adjustment == 0
    assert line.detail.emptied_by == "Mauricio"  # the last taker
    assert (line.detail.scale, line.detail.rule) == ("official", "D14")
    assert sheet.totals == points
    assert sheet.winners == [] and not sheet.finished


def test_pixar_final_scoring_example_karen_wins_with_8_points_D14_D16() -> None:
    """Pixar rulebook, "End of the Game", "Final scoring example": "Priscila scored 1
    point in the first round, 4 in the second and 3 in the third. However, she finished
    the second and third rounds with the Forgetful card (Dory), so she loses 2 points.
    Her final score is 6 points. Patricia also finishes the game with 6 points, adding
    2 in the first round, 3 in the second and 1 in the third. Mauricio finishes with 7
    points, adding 4 from the first, 1 from the second and 2 from the third. Karen wins
    the game with 8 points, adding 2 from the first, 2 from the second and 4 from the
    third round." """
    history = created()
    for piles, forgetful in FINAL_SCORING_EXAMPLE:
        history = round_logged(history, piles, forgetful=forgetful)
    sheet = score_sheet(history)

    def column(key: str, player: str) -> list[int]:
        return [getattr(line.detail, key)[player] for line in sheet.rounds]

    assert column("rank_points", "Priscila") == [1, 4, 3]
    assert [line.detail.forgetful for line in sheet.rounds] == [
        None,
        "Priscila",
        "Priscila",
    ]
    assert [line.detail.forgetful_adjustment for line in sheet.rounds] == [0, -1, -1]
    assert [line.points["Priscila"] for line in sheet.rounds] == [1, 3, 2]
    assert [line.points["Patricia"] for line in sheet.rounds] == [2, 3, 1]
    assert [line.points["Mauricio"] for line in sheet.rounds] == [4, 1, 2]
    assert [line.points["Karen"] for line in sheet.rounds] == [2, 2, 4]
    assert sheet.totals == {"Priscila": 6, "Mauricio": 7, "Karen": 8, "Patricia": 6}
    assert sheet.winners == ["Karen"] and sheet.finished
    assert sheet.rounds[-1].detail.tie_break is UNSET


def test_the_sheet_shows_the_tie_break_on_the_last_round_D16() -> None:
    """D16: all four end on 5 points; Ana had the fewest cards in the last round."""
    history = created(FOUR, rounds=2)
    history = round_logged(history, {"Ana": 9, "Bia": 8, "Caio": 7, "Davi": 1})
    history = round_logged(history, {"Ana": 1, "Bia": 2, "Caio": 3, "Davi": 9})
    sheet = score_sheet(history)
    assert sheet.totals == dict.fromkeys(FOUR, 5)
    assert sheet.winners == ["Ana"]
    assert sheet.rounds[0].detail.tie_break is UNSET
    assert to_builtins(sheet.rounds[-1].detail.tie_break) == {
        "rule": "D16",
        "tied": list(FOUR),
        "last_round_piles": {"Ana": 1, "Bia": 2, "Caio": 3, "Davi": 9},
    }


def test_the_fewest_first_scale_adds_the_forgetful_point_D15() -> None:
    history = created(FOUR, rules=DOBRO, rounds=1, scoring="fewest-first")
    piles = {"Ana": 9, "Bia": 2, "Caio": 4, "Davi": 6}
    sheet = score_sheet(round_logged(history, piles, forgetful="Caio"))
    [line] = sheet.rounds
    assert line.detail.rank_points == {"Ana": 4, "Bia": 1, "Caio": 2, "Davi": 3}
    assert (line.detail.forgetful, line.detail.forgetful_adjustment) == (
        "Caio",
        1,
    )
    assert line.points == {"Ana": 4, "Bia": 1, "Caio": 3, "Davi": 3}
    assert (line.detail.scale, line.detail.rule) == ("fewest-first", "D15")
    assert sheet.winners == ["Bia"]


@pytest.mark.parametrize("rules", [DOBRO, DOBRO_PIXAR], ids=lambda r: r.name)
@pytest.mark.parametrize("players", range(2, 7))
def test_simulated_sheets_agree_with_the_engine(rules: Rules, players: int) -> None:
    """Seeded games: the rounds' points add up to the totals, which are the public
    state's; the winners are the engine's outcome once the game is over."""
    for seed in range(20):
        for history in histories(rules, players, seed):
            sheet = score_sheet(history)
            view = rules.view(history.state)
            assert sheet.players == list(history.setup.players)
            assert sheet.totals == view.totals
            for player in sheet.players:
                assert (
                    sum(r.points[player] for r in sheet.rounds) == view.totals[player]
                )
            assert [r.round for r in sheet.rounds] == list(
                range(1, len(sheet.rounds) + 1)
            )
            assert sheet.finished == history.finished
            assert sheet.winners == list(history.winners or ())
            if history.finished:
                assert len(sheet.rounds) == view.rounds
