"""Dozito's score sheet (Z12, Z13, Z15, T3): each scored round explained group by group.

The points of a round come from its `RoundScored` event, which lists each player's
groups (colour, size) and suns; a group's points are the Z13 chart's, so the groups'
points and the suns add up to the round's points. An instant win (Z12) ends the game
in a round that is not scored: it is shown as that round's line with no points. A
final tie on the totals is explained on the last line as Z15 settles it: by each tied
player's best single round.

The sheet is folded one stored move at a time (`next_sheet`) from the events alone;
a move that scores nothing leaves the sheet before it as it is.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.dozito.events import GameEnded, PlayerScore, RoundScored
from domain.dozito.scoring import CHART
from domain.dozito.state import State
from domain.game import Recorded
from domain.sheet import RoundLine, ScoreSheet, standings


class Group(msgspec.Struct, frozen=True, kw_only=True):
    color: str
    size: int
    points: int  # the Z13 chart's for its size


class PlayerRound(msgspec.Struct, frozen=True, kw_only=True):
    groups: list[Group]
    suns: int
    points: int


class InstantWin(msgspec.Struct, frozen=True, kw_only=True):
    rule: str
    winner: str


class TieBreak(msgspec.Struct, frozen=True, kw_only=True):
    """Z15: the players who shared the most points, and each one's best round."""

    rule: str
    tied: list[str]
    best_round: dict[str, int]


class RoundDetail(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A scored round (`rule` Z13 and each player's round) or the round an instant
    win ended (`scored` false and `instant_win`, Z12)."""

    rule: str | msgspec.UnsetType = msgspec.UNSET
    players: dict[str, PlayerRound] | msgspec.UnsetType = msgspec.UNSET
    scored: bool | msgspec.UnsetType = msgspec.UNSET
    instant_win: InstantWin | msgspec.UnsetType = msgspec.UNSET
    # On the last round's line of a game ended on a tie of totals.
    tie_break: TieBreak | msgspec.UnsetType = msgspec.UNSET


class Line(RoundLine, frozen=True, kw_only=True):
    detail: RoundDetail


class Sheet(ScoreSheet, frozen=True, kw_only=True):
    game: Literal["dozito"] = "dozito"
    rounds: list[Line]


def sheet_start(state: State) -> Sheet:
    players = state.players
    return Sheet(
        players=list(players),
        rounds=[],
        totals=dict.fromkeys(players, 0),
        winners=[],
        finished=False,
    )


def next_sheet(sheet: Sheet, before: State, record: Recorded, after: State) -> Sheet:
    """The sheet once `record` is stored, from its events alone."""
    rounds, totals, winners = sheet.rounds, sheet.totals, None
    for event in record.events:
        if isinstance(event, RoundScored):
            rounds = [*rounds, _scored(event)]
            totals = {player: event.totals[player] for player in sheet.players}
        elif isinstance(event, GameEnded):
            if event.reason == "instant_win":
                # Every earlier round was scored: this is the next one.
                rounds = [*rounds, _instant_win(len(rounds) + 1, event.winners)]
            else:
                rounds = _with_tie_break(rounds, totals)
            winners = list(event.winners)
    if winners is None and rounds is sheet.rounds:
        return sheet
    return Sheet(
        players=sheet.players,
        rounds=rounds,
        totals=totals,
        winners=winners if winners is not None else sheet.winners,
        finished=winners is not None or sheet.finished,
        # T3: the most points first, after the winners (an instant win's too, Z12).
        standings=sheet.standings
        if winners is None
        else standings(totals, winners, most_wins=True),
    )


def _scored(event: RoundScored) -> Line:
    return Line(
        round=event.round,
        points={score.player: score.points for score in event.scores},
        detail=RoundDetail(
            rule="Z13",
            players={score.player: _explained(score) for score in event.scores},
        ),
    )


def _explained(score: PlayerScore) -> PlayerRound:
    """A player's round: each group with its chart points, then the suns."""
    groups = [
        Group(color=color, size=size, points=CHART[size])
        for color, size in score.groups
    ]
    return PlayerRound(groups=groups, suns=score.suns, points=score.points)


def _instant_win(round_number: int, winners: tuple[str, ...]) -> Line:
    return Line(
        round=round_number,
        points={},
        detail=RoundDetail(
            scored=False, instant_win=InstantWin(rule="Z12", winner=winners[0])
        ),
    )


def _with_tie_break(rounds: list[Line], totals: dict[str, int]) -> list[Line]:
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
    tie_break = TieBreak(rule="Z15", tied=tied, best_round=best)
    detail = msgspec.structs.replace(last.detail, tie_break=tie_break)
    return [*rounds[:-1], msgspec.structs.replace(last, detail=detail)]
