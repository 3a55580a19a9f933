"""The first event of every game: its creation, stored as version 1.

It holds the table's set-up (the game, the players in seating order, the first
player, the seed, the options) and what the table said about the game (title, date,
place, notes). An export's first line is this event; an import reads it back.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.game import Setup, StoredSetup

GAME_CREATED = "game_created"


class GameCreated(msgspec.Struct, tag=GAME_CREATED, kw_only=True):
    """The first event of every game (version 1): the table's set-up."""

    game: str
    players: list[str]
    first_player: str
    seed: int
    options: dict[str, Any]
    title: str | None = None
    played_at: str | None = None
    location: str | None = None
    notes: str | None = None
    # The group the game is played in (a family, a club). Unset, not null, when the
    # table named none: such a game is stored and exported without the key, so its
    # export is the same file, which an import recognises (its digest).
    group: str | msgspec.UnsetType = msgspec.UNSET

    @classmethod
    def of(cls, game: str, setup: Setup, **about: Any) -> GameCreated:
        """The creation event of a game set up so; `about`: title, played_at, ..."""
        return cls(
            game=game,
            players=list(setup.players),
            first_player=setup.first_player,
            seed=setup.seed,
            options=setup.options,
            **about,
        )

    def setup(self) -> StoredSetup:
        """The set-up as stored, which the rules took when the game was created."""
        return StoredSetup(
            players=tuple(self.players),
            first_player=self.first_player,
            seed=self.seed,
            options=self.options,
        )
