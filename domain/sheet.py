"""The shape of a score sheet, shared by every game's sheet: a line per round with the
detail that explains its points, the totals and the winners.

Each game's `sheet.py` narrows these two Structs: its line's `detail` is a Struct of
its own, and its sheet's `rounds` are its lines, so the sheet a game folds is typed
to the last key (the OpenAPI document tells the games' sheets apart by `game`).

A replay's steps share the sheets and lines of the steps before them where nothing
changed, so a sheet or a line is never changed once built (hence frozen): a change
is a new one.
"""

from __future__ import annotations

import msgspec


class RoundLine(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    points: dict[str, int]


class ScoreSheet(msgspec.Struct, frozen=True, kw_only=True):
    # The game's name as created: an edition's own (`dobro-pixar`).
    game: str
    players: list[str]
    rounds: list[RoundLine]
    totals: dict[str, int]
    winners: list[str]
    finished: bool
