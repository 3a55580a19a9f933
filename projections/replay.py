"""Replay frames: one step per stored move, undo included, each with a sentence for
people and the public state after it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.history import History, MoveRetracted, Recorded, Undo


class Step(msgspec.Struct, kw_only=True):
    step: int
    version: int
    move: Any
    description: str
    state: Any


def description(
    histories: Sequence[History], records: Sequence[Recorded], step: int
) -> str:
    """The sentence for stored move number `step` (1 is the first move).

    `histories[n]` is the game after n moves and `records[n - 1]` the nth move.
    """
    record = records[step - 1]
    if isinstance(record.move, Undo):
        (retracted,) = (e for e in record.events if isinstance(e, MoveRetracted))
        taken_back = description(histories, records, retracted.version - 1)
        return f"Undo: “{taken_back}” is taken back"
    before = histories[step - 1]
    describe = before.rules.describe
    if describe is None:
        return _plain(record.move)
    return describe(before.state, record)


def _plain(move: Any) -> str:
    kind = type(move).__struct_config__.tag.replace("_", " ")
    player = getattr(move, "player", None)
    return f"{player}: {kind}" if player else kind.capitalize()


def step(histories: Sequence[History], records: Sequence[Recorded], n: int) -> Step:
    after = histories[n]
    return Step(
        step=n,
        version=after.version,
        move=records[n - 1].move,
        description=description(histories, records, n),
        state=after.rules.view(after.state),
    )


def steps(histories: Sequence[History], records: Sequence[Recorded]) -> list[Step]:
    return [step(histories, records, n) for n in range(1, len(records) + 1)]
