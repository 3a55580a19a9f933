"""Dozito's score sheet (Z12, Z13, Z15): each scored round explained group by group.

The points of a round come from its `RoundScored` event, which lists each player's
groups (colour, size) and suns; a group's points are the Z13 chart's, so the groups'
points and the suns add up to the round's points. An instant win (Z12) ends the game
in a round that is not scored: it is shown as that round's line with no points. A
final tie on the totals is explained on the last line as Z15 settles it: by each tied
player's best single round.
"""

from __future__ import annotations

from typing import Any

from domain.dozito.events import GameEnded, PlayerScore, RoundScored, RoundStarted
from domain.dozito.scoring import CHART
from domain.dozito.state import Finished, State
from domain.history import History
from projections.sheet import RoundLine, ScoreSheet


def score_sheet(history: History) -> ScoreSheet:
    state: State = history.state
    winners = history.winners
    rounds = _rounds(history)
    totals = dict(zip(state.players, state.totals, strict=True))
    if isinstance(state.phase, Finished) and state.phase.reason == "rounds_played":
        rounds = _with_tie_break(rounds, totals)
    return ScoreSheet(
        players=list(state.players),
        rounds=rounds,
        totals=totals,
        winners=list(winners or ()),
        finished=winners is not None,
    )


def _rounds(history: History) -> list[RoundLine]:
    lines = []
    current = 0
    for _, record in history.records():
        for event in record.events:
            if isinstance(event, RoundStarted):
                current = event.round
            elif isinstance(event, RoundScored):
                lines.append(_scored(event))
            elif isinstance(event, GameEnded) and event.reason == "instant_win":
                lines.append(_instant_win(current, event.winners))
    return lines


def _scored(event: RoundScored) -> RoundLine:
    return RoundLine(
        round=event.round,
        points={score.player: score.points for score in event.scores},
        detail={
            "rule": "Z13",
            "players": {score.player: _explained(score) for score in event.scores},
        },
    )


def _explained(score: PlayerScore) -> dict[str, Any]:
    """A player's round: each group with its chart points, then the suns."""
    groups = [
        {"color": color, "size": size, "points": CHART[size]}
        for color, size in score.groups
    ]
    return {"groups": groups, "suns": score.suns, "points": score.points}


def _instant_win(round_number: int, winners: tuple[str, ...]) -> RoundLine:
    return RoundLine(
        round=round_number,
        points={},
        detail={
            "scored": False,
            "instant_win": {"rule": "Z12", "winner": winners[0]},
        },
    )


def _with_tie_break(rounds: list[RoundLine], totals: dict[str, int]) -> list[RoundLine]:
    """Z15, when several players share the most points: each one's best single round
    (the best wins; equal bests share the victory), noted on the last line."""
    most = max(totals.values())
    tied = [player for player, total in totals.items() if total == most]
    if len(tied) < 2 or not rounds:
        return rounds
    best = {
        player: max(line.points.get(player, 0) for line in rounds) for player in tied
    }
    last = rounds[-1]
    detail = {
        **last.detail,
        "tie_break": {"rule": "Z15", "tied": tied, "best_round": best},
    }
    return [
        *rounds[:-1],
        RoundLine(round=last.round, points=last.points, detail=detail),
    ]
