"""The shape of a score sheet, shared by every game's sheet: a line per round with the
detail that explains its points, the totals and the winners."""

from __future__ import annotations

from typing import Any

import msgspec


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
