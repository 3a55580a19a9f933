"""The shape of a score sheet, shared by every game's sheet: a line per round with the
detail that explains its points, the totals, the winners and, once the game is
finished, every player's place (T3).

Each game's `sheet.py` narrows these two Structs: its line's `detail` is a Struct of
its own, and its sheet's `rounds` are its lines, so the sheet a game folds is typed
to the last key (the OpenAPI document tells the games' sheets apart by `game`).

A replay's steps share the sheets and lines of the steps before them where nothing
changed, so a sheet or a line is never changed once built (hence frozen): a change
is a new one.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec


class RoundLine(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    points: dict[str, int]


class ScoreSheet(msgspec.Struct, frozen=True, kw_only=True):
    # The game's name as created: an edition's own (`dobro-pixar`).
    game: str
    players: list[str]
    # A list; a game's sheet narrows it to its own lines.
    rounds: Sequence[RoundLine]
    totals: dict[str, int]
    winners: list[str]
    finished: bool
    # T3: each player's rank once the game is finished (1, 2, 2, 4); empty before.
    standings: dict[str, int] = {}


def standings(
    totals: dict[str, int], winners: list[str] | tuple[str, ...], *, most_wins: bool
) -> dict[str, int]:
    """T3: the winners rank 1, after any tie-break of their game; the others follow
    by their totals, the best first (the most when `most_wins`, else the fewest),
    and equal totals share a rank: competition ranking, 1, 2, 2, 4."""

    def behind(player: str) -> tuple[bool, int]:
        if player in winners:  # whatever their totals, as a tie-break may leave them
            return (False, 0)
        total = totals.get(player, 0)
        return (True, -total if most_wins else total)

    places = {player: behind(player) for player in totals}
    return {
        player: 1 + sum(other < place for other in places.values())
        for player, place in places.items()
    }
