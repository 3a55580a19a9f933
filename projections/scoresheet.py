"""Score sheets: every round's points with the detail that explains them, the totals and
the winners, folded from a game's history by the game's own projection."""

from __future__ import annotations

from collections.abc import Callable

from domain.history import History
from projections import dobro, double_donkey, dozito
from projections.sheet import RoundLine, ScoreSheet

__all__ = ["RoundLine", "ScoreSheet", "score_sheet"]

_PER_GAME: dict[str, Callable[[History], ScoreSheet]] = {
    "dobro": dobro.score_sheet,
    "dobro-pixar": dobro.score_sheet,
    "dozito": dozito.score_sheet,
    "double-donkey": double_donkey.score_sheet,
}


def score_sheet(history: History) -> ScoreSheet:
    return _PER_GAME[history.rules.name](history)
