"""The game list's rows (`game_summaries`): a game as it stands at the version the
projection runner folded it to, one row a game.

The runner folds each game of a batch at its latest version and writes its row
(`service/readside/summaries.py`), as it writes a game whose status changed ahead
of the batch; a row only ever moves forward, to a later version.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgspec

from domain.history import History
from projections.created import Created


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """A game's row of the list, its fields named and ordered as its columns."""

    game_id: UUID
    game: str
    players: list[str]
    title: str | None
    status: str
    winners: list[str]
    version: int
    created_at: datetime
    updated_at: datetime
    """When the version folded was stored."""
    variation_of: UUID | None
    variation_step: int | None


def summary(game: Created, history: History, recorded_at: datetime) -> Summary:
    """The game's row as it stands in `history`, whose latest move was stored at
    `recorded_at`: in progress, finished with its winners, or abandoned (T2)."""
    return Summary(
        game_id=game.id,
        game=game.game,
        players=list(game.players),
        title=game.title,
        status=history.status,
        winners=list(history.winners or ()),
        version=history.version,
        created_at=game.created_at,
        updated_at=recorded_at,
        variation_of=game.variation_of,
        variation_step=game.variation_step,
    )
