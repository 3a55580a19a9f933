"""The shape of a score sheet, shared by every game's sheet: a line per round with the
detail that explains its points, the totals and the winners.

A replay's steps share the sheets and lines of the steps before them where nothing
changed, so a sheet or a line is never changed once built (hence frozen): a change
is a new one.
"""

from __future__ import annotations

from typing import Any

import msgspec


class RoundLine(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    points: dict[str, int]
    detail: dict[str, Any] = {}


class ScoreSheet(msgspec.Struct, frozen=True, kw_only=True):
    players: list[str]
    rounds: list[RoundLine]
    totals: dict[str, int]
    winners: list[str]
    finished: bool
