"""Score sheets: every round's points with the detail that explains them, the totals and
the winners, folded from a game's history by the game's own projection."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import msgspec

from domain.history import History


class RoundLine(msgspec.Struct, kw_only=True):
    round: int
    points: dict[str, int]
    detail: dict[str, Any] = {}


class ScoreSheet(msgspec.Struct, kw_only=True):
    players: list[str]
    rounds: list[RoundLine]
    totals: dict[str, int]
    winners: list[str]
    finished: bool


def score_sheet(history: History) -> ScoreSheet:
    return _per_game()[history.rules.name](history)


@cache
def _per_game() -> dict[str, Callable[[History], ScoreSheet]]:
    # Imported on first use, not at import time: each game's module imports the
    # shapes above, so either module may be imported first without a cycle.
    from projections import dobro, double_donkey, dozito

    return {
        "dobro": dobro.score_sheet,
        "dobro-pixar": dobro.score_sheet,
        "dozito": dozito.score_sheet,
        "double-donkey": double_donkey.score_sheet,
    }
