"""Dozito's score sheet (Z12, Z13, Z15): "Arthur counts his points" played move by move
through `History`, an instant win, and seeded simulated games agreeing with the engine.
"""

from __future__ import annotations

import pytest
from msgspec import UNSET, to_builtins

from domain.dozito import DOZITO
from domain.dozito.components import Card
from domain.dozito.events import (
    CardDiscarded,
    GameEnded,
    PlayerScore,
    RoundScored,
    RoundStarted,
)
from domain.dozito.moves import Discard, Draw, Place, StartRound
from domain.dozito.rules import winners
from domain.dozito.scoring import CHART
from domain.game import Setup
from domain.history import History, Recorded
from projections.scoresheet import score_sheet
from tests.projections.simulated import histories

ARTHUR, MAELLE = "Arthur", "Maëlle"


def card(color: str, number: int, suns: int = 0) -> Card:
    return Card(color=color, number=number, suns=suns)


def started() -> History:
    setup = Setup(
        players=(ARTHUR, MAELLE), first_player=ARTHUR, seed=1, options={"rounds": 1}
    )
    history = History.start(DOZITO, setup)
    return logged(history, StartRound((card("red", 7), card("red", 8))))


def logged(history: History, *moves: object) -> History:
    for move in moves:
        _, history = history.play(move)
    return history


def chain(player: str, drawn: Card, revealed: list[Card]) -> list[object]:
    """A turn: draw `drawn`, place it on its spot, and each card it uncovers on its
    own spot in turn (Z4); the last card uncovered is discarded."""
    places = [Place(player, revealed=card) for card in revealed]
    return [Draw(player, "deck", drawn), *places, Discard(player, "left")]


# Scoring, "Example: Arthur counts his points": three red (5), four blue (10), two
# green (2), a lone green 6 (0), 10 suns; spot 7 stays face down. A lone yellow 12
# fills the grid.
#    R1  R2  R3  G4
#    B5  G6  ??  G8
#    B9  B10 B11 Y12
ARTHURS_TURN = chain(
    ARTHUR,
    card("red", 1),
    [
        card("red", 2, suns=1),
        card("red", 3),
        card("green", 4, suns=3),
        card("blue", 5),
        card("green", 6, suns=2),
        card("green", 8),
        card("blue", 9, suns=2),
        card("blue", 10, suns=1),
        card("blue", 11),
        card("yellow", 12, suns=1),
        card("purple", 3),  # under the yellow 12: discarded
    ],
)


def maelles_grid() -> list[object]:
    """Maëlle uncovers her whole grid in one turn, purple and yellow mixed (no Z12)."""
    colors = {n: "purple" if n % 2 else "yellow" for n in range(1, 13)}
    colors[3], colors[12] = "yellow", "purple"  # the purple 3 is on a discard pile
    spots = [card(colors[n], n) for n in range(2, 13)]
    return chain(MAELLE, card(colors[1], 1), [*spots, card("green", 1)])


def test_arthur_counts_his_points_group_by_group_Z13() -> None:
    """Scoring, "Example: Arthur counts his points": "He scores 5 points thanks to his
    group of three red cards, 10 points thanks to his group of four blue cards, and 2
    points thanks to his group of two green cards. The green 6 is not counted [...]
    He adds 10 more points thanks to the Dozito suns [...] a total of 27 points"."""
    history = logged(started(), *ARTHURS_TURN, *maelles_grid())
    # Maëlle's grid is full (Z11): Arthur plays his final turn, then the round ends.
    history = logged(history, Draw(ARTHUR, "deck", card("red", 9)))
    sheet = score_sheet(logged(history, Discard(ARTHUR, "left")))
    [line] = sheet.rounds
    arthur = to_builtins(line.detail.players[ARTHUR])
    assert sorted(arthur["groups"], key=lambda g: (g["color"], g["size"])) == [
        {"color": "blue", "size": 4, "points": 10},
        {"color": "green", "size": 1, "points": 0},
        {"color": "green", "size": 2, "points": 2},
        {"color": "red", "size": 3, "points": 5},
        {"color": "yellow", "size": 1, "points": 0},
    ]
    assert arthur["suns"] == 10 and arthur["points"] == 27
    assert line.points[ARTHUR] == 27 and line.detail.rule == "Z13"
    for explained in line.detail.players.values():
        chart = sum(group.points for group in explained.groups)
        assert chart + explained.suns == explained.points
    assert sheet.totals == line.points
    assert sheet.totals[MAELLE] == 35  # her purple and yellow groups
    assert sheet.finished and sheet.winners == [MAELLE]  # most points (Z15)


def test_an_instant_win_is_shown_and_its_round_is_not_scored_Z12() -> None:
    history = logged(started(), *chain(ARTHUR, card("red", 1), []))
    purple = [card("purple", n) for n in range(2, 13)]
    turn = chain(MAELLE, card("purple", 1), [*purple, card("green", 1)])
    sheet = score_sheet(logged(history, *turn[:-1]))  # the game ends on placing
    [line] = sheet.rounds
    assert line.round == 1 and line.points == {}
    assert to_builtins(line.detail) == {
        "scored": False,
        "instant_win": {"rule": "Z12", "winner": MAELLE},
    }
    assert sheet.totals == {ARTHUR: 0, MAELLE: 0}
    assert sheet.winners == [MAELLE] and sheet.finished


def score(player: str, color: str, size: int, suns: int) -> PlayerScore:
    """A player's round with one group of `size` cards of `color` and `suns` suns."""
    return PlayerScore(player, ((color, size),), suns, CHART[size] + suns)


def rounds_logged(*rounds: tuple[PlayerScore, PlayerScore]) -> History:
    """Given a two-player game of len(rounds) rounds whose rounds score so, each
    round started and ended (Z13) as these events; then the game ends (Z15)."""
    setup = Setup(
        players=(ARTHUR, MAELLE),
        first_player=ARTHUR,
        seed=1,
        options={"rounds": len(rounds)},
    )
    history = History.start(DOZITO, setup)
    totals = {ARTHUR: 0, MAELLE: 0}
    discards = (card("red", 7), card("red", 8))
    for number, scores in enumerate(rounds, start=1):
        started = RoundStarted(number, ARTHUR, discards, 49)
        history = history.apply(Recorded(StartRound(discards), (started,)))
        totals = {s.player: totals[s.player] + s.points for s in scores}
        scored = RoundScored(number, scores, totals, ARTHUR)
        ended: list[object] = [CardDiscarded(ARTHUR, "left", card("red", 9)), scored]
        if number == len(rounds):
            seats = tuple(totals.values())
            points = tuple(tuple(s.points for s in r) for r in rounds)
            ended.append(
                GameEnded(winners(setup.players, seats, points), "rounds_played")
            )
        history = history.apply(Recorded(Discard(ARTHUR, "left"), tuple(ended)))
    return history


def test_a_final_tie_is_settled_by_the_best_single_round_Z15() -> None:
    """Both end on 12 points; Arthur's best round (10) beats Maëlle's (6)."""
    sheet = score_sheet(
        rounds_logged(
            (score(ARTHUR, "red", 3, 5), score(MAELLE, "blue", 2, 4)),
            (score(ARTHUR, "red", 2, 0), score(MAELLE, "blue", 2, 4)),
        )
    )
    assert sheet.totals == {ARTHUR: 12, MAELLE: 12}
    assert sheet.winners == [ARTHUR] and sheet.finished
    assert sheet.rounds[0].detail.tie_break is UNSET
    assert to_builtins(sheet.rounds[-1].detail.tie_break) == {
        "rule": "Z15",
        "tied": [ARTHUR, MAELLE],
        "best_round": {ARTHUR: 10, MAELLE: 6},
    }


def test_a_final_tie_on_the_best_round_too_is_a_shared_victory_Z15() -> None:
    sheet = score_sheet(
        rounds_logged((score(ARTHUR, "red", 2, 4), score(MAELLE, "blue", 3, 1)))
    )
    assert sheet.winners == [ARTHUR, MAELLE]
    assert to_builtins(sheet.rounds[-1].detail.tie_break) == {
        "rule": "Z15",
        "tied": [ARTHUR, MAELLE],
        "best_round": {ARTHUR: 6, MAELLE: 6},
    }


@pytest.mark.parametrize("players", range(2, 6))
def test_simulated_sheets_agree_with_the_engine(players: int) -> None:
    """Seeded games: each player's groups and suns add up to their round points, the
    rounds' points to the totals, which are the engine's; the winners its outcome."""
    for seed in range(20):
        for history in histories(DOZITO, players, seed):
            sheet = score_sheet(history)
            view = DOZITO.view(history.state)
            assert sheet.totals == view.totals
            for player in sheet.players:
                assert (
                    sum(r.points.get(player, 0) for r in sheet.rounds)
                    == (view.totals[player])
                )
            scored = [r for r in sheet.rounds if r.points]
            assert [r.points for r in scored] == list(view.round_scores)
            for line in scored:
                for player, explained in line.detail.players.items():
                    chart = sum(group.points for group in explained.groups)
                    assert chart + explained.suns == line.points[player]
            assert sheet.finished == history.finished
            assert sheet.winners == list(history.winners or ())
