"""Dobro's score sheet (D14-D16, T3): each scored round as the engine scored it.

The engine keeps every scored round in the state (`RoundResult`: score piles, rank
points, the Forgetful card and its adjustment, who emptied their hand, the points net
of the adjustment), so the sheet reads them from there and recomputes nothing but which
players a final D16 tie-break had to separate. A stored move that neither scores a
round nor ends the game leaves the sheet as it was (`next_sheet`).
"""

from __future__ import annotations

import msgspec

from domain.dobro.components import EditionName
from domain.dobro.events import GameEnded, RoundScored
from domain.dobro.state import RoundResult, State
from domain.game import Recorded
from domain.sheet import RoundLine, ScoreSheet, standings

# The ruling behind each scale (option `scoring`).
SCALE_RULING = {"official": "D14", "fewest-first": "D15"}


class TieBreak(msgspec.Struct, frozen=True, kw_only=True):
    """D16: the players who shared the best total, and their last round's piles."""

    rule: str
    tied: list[str]
    last_round_piles: dict[str, int]


class RoundDetail(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    scale: str
    rule: str
    score_piles: dict[str, int]
    rank_points: dict[str, int]
    forgetful: str | None
    forgetful_adjustment: int
    emptied_by: str
    # On the last round's line of a game won on a tie of totals.
    tie_break: TieBreak | msgspec.UnsetType = msgspec.UNSET


class Line(RoundLine, frozen=True, kw_only=True):
    detail: RoundDetail


class Sheet(ScoreSheet, frozen=True, kw_only=True):
    game: EditionName
    rounds: list[Line]


def sheet_start(state: State) -> Sheet:
    return _sheet(state)


def next_sheet(sheet: Sheet, before: State, record: Recorded, after: State) -> Sheet:
    """The sheet once `record` is stored: `sheet` itself unless a round was scored."""
    if any(isinstance(event, RoundScored | GameEnded) for event in record.events):
        return _sheet(after)
    return sheet


def _sheet(state: State) -> Sheet:
    players = list(state.table.players)
    rounds = [_line(result, state.table.scoring) for result in state.results]
    totals = dict(zip(players, state.totals, strict=True))
    winners = list(state.winners or ())
    if state.winners is not None and rounds:
        tie_break = _tie_break(totals, state.results[-1], state.table.scoring)
        if tie_break:
            last = rounds[-1]
            detail = msgspec.structs.replace(last.detail, tie_break=tie_break)
            rounds[-1] = msgspec.structs.replace(last, detail=detail)
    finished = state.winners is not None
    return Sheet(
        game=state.table.edition,
        players=players,
        rounds=rounds,
        totals=totals,
        winners=winners,
        finished=finished,
        # T3: the most points win on the official scale, the fewest on the French.
        standings=standings(
            totals, winners, most_wins=state.table.scoring == "official"
        )
        if finished
        else {},
    )


def _line(result: RoundResult, scoring: str) -> Line:
    return Line(
        round=result.round,
        points=dict(result.points),
        detail=RoundDetail(
            scale=scoring,
            rule=SCALE_RULING[scoring],
            score_piles=dict(result.score_piles),
            rank_points=dict(result.rank_points),
            forgetful=result.forgetful,
            forgetful_adjustment=result.forgetful_adjustment,
            emptied_by=result.emptied_by,
        ),
    )


def _tie_break(
    totals: dict[str, int], last: RoundResult, scoring: str
) -> TieBreak | None:
    """D16, when several players share the best total: their last round's piles
    (fewest cards wins; equal piles share the victory)."""
    best = max(totals.values()) if scoring == "official" else min(totals.values())
    tied = [player for player, total in totals.items() if total == best]
    if len(tied) < 2:
        return None
    return TieBreak(
        rule="D16",
        tied=tied,
        last_round_piles={player: last.score_piles[player] for player in tied},
    )
