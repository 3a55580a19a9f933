"""Score sheets: every round's points with the detail that explains them, the totals and
the winners, folded from a game's history by the game's own fold (`Rules.sheet_start`
and `Rules.next_sheet`, in its package's `sheet.py`; `History.score_sheet` folds it).

`score_sheet` gives the sheet of one history. `score_sheets` gives the sheet after
every stored move of a game in one pass: each game's `next_sheet` folds one more move
into the sheet before it and hands that same sheet back when the move scored nothing,
so the steps of a replay share their sheets instead of each folding the game again.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.history import Abandon, History, MoveRetracted, Recorded, Undo
from domain.sheet import RoundLine, ScoreSheet

__all__ = ["RoundLine", "ScoreSheet", "score_sheet", "score_sheets"]


def score_sheet(history: History) -> ScoreSheet:
    return history.score_sheet()


def score_sheets(
    histories: Sequence[History], records: Sequence[Recorded]
) -> list[ScoreSheet]:
    """`sheets[n]` is the sheet after the first n stored moves, undos included
    (`histories[n]` is the game after them, `records[n - 1]` the nth move).

    One call of the game's `next_sheet` per move: O(moves) in all, plus the rounds'
    lines copied when a round's line is added or completed.
    """
    sheets = [score_sheet(histories[0])]
    next_sheet = histories[0].rules.next_sheet
    for n, record in enumerate(records, start=1):
        if isinstance(record.move, Undo):
            # The game is back where it was before the retracted move (version v is
            # the (v - 1)th move), so is its sheet.
            (retracted,) = (e for e in record.events if isinstance(e, MoveRetracted))
            sheets.append(sheets[retracted.version - 2])
        elif isinstance(record.move, Abandon):  # nothing scored: the game just ends
            sheets.append(sheets[n - 1])
        else:
            before, after = histories[n - 1].state, histories[n].state
            sheets.append(next_sheet(sheets[n - 1], before, record, after))
    return sheets
