"""Replay frames: one step per stored move, undo included, each with a sentence for
people, the public state after it and the score sheet as it stood then.

Building every step of a game is O(moves): the sentences read each move's stored
events, and the score sheets are folded once, one move at a time, a step that scores
nothing sharing the sheet of the step before it (`score_sheets`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.history import Abandon, History, MoveRetracted, Recorded, Undo
from domain.wording import Language, languages, message
from projections.scoresheet import ScoreSheet, score_sheet, score_sheets


class Step(msgspec.Struct, kw_only=True):
    """Stored move number `step` (the game's `version` once it is stored): the move as
    logged, its sentence, and the public state and score sheet after it. Step 0 is
    the game as created: no move, no sentence."""

    step: int
    version: int
    state: Any
    scoresheet: ScoreSheet
    move: Any = None
    description: str | None = None


def start(history: History) -> Step:
    """Step 0: the game as created, before its first move."""
    created = History.start(history.rules, history.setup)
    return Step(
        step=0,
        version=created.version,
        state=created.view(),
        scoresheet=score_sheet(created),
    )


def description(
    histories: Sequence[History],
    records: Sequence[Recorded],
    step: int,
    language: Language | None = None,
) -> str:
    """The sentence for stored move number `step` (1 is the first move), in
    `language` (by default English, in the shared words and the game's own).

    `histories[n]` is the game after n moves and `records[n - 1]` the nth move.
    """
    language = language or english(histories[step])
    return language.say(_sentence(histories, records, step))


def english(history: History) -> Language:
    """English, in the words every game shares and the game's own."""
    return languages(history.rules.words)["en"]


def _sentence(
    histories: Sequence[History], records: Sequence[Recorded], step: int
) -> Any:
    """The sentence as data (`domain.wording`), worded by `description`."""
    record = records[step - 1]
    if isinstance(record.move, Undo):
        (retracted,) = (e for e in record.events if isinstance(e, MoveRetracted))
        taken_back = _sentence(histories, records, retracted.version - 1)
        return message("said.undo", move=taken_back)
    if isinstance(record.move, Abandon):
        return message("said.abandoned")
    before = histories[step - 1]
    return before.rules.describe(before.state, record)


def step(
    histories: Sequence[History],
    records: Sequence[Recorded],
    n: int,
    scoresheet: ScoreSheet | None = None,
    language: Language | None = None,
) -> Step:
    """Step `n` alone; without `scoresheet` its sheet is folded from the history."""
    after = histories[n]
    return Step(
        step=n,
        version=after.version,
        move=records[n - 1].move,
        description=description(histories, records, n, language),
        state=after.view(),
        scoresheet=score_sheet(after) if scoresheet is None else scoresheet,
    )


def steps(
    histories: Sequence[History],
    records: Sequence[Recorded],
    first: int = 1,
    last: int | None = None,
    language: Language | None = None,
) -> list[Step]:
    """Steps `first` to `last` (by default every step); the sheets are folded from
    the start up to `last`."""
    last = len(records) if last is None else last
    sheets = score_sheets(histories[: last + 1], records[:last])
    language = language or english(histories[last])
    return [
        step(histories, records, n, sheets[n], language) for n in range(first, last + 1)
    ]
