"""The REST shapes of API.md, kept apart from the domain's events and states."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from msgspec import Meta

from projections.replay import Step

PlayerName = Annotated[str, Meta(min_length=1, max_length=40, pattern=r"\S")]
Text = Annotated[str, Meta(max_length=2000)]


class NewGame(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `POST /games`."""

    game: str
    players: Annotated[list[PlayerName], Meta(min_length=2, max_length=12)]
    first_player: str | None = None
    options: dict[str, Any] = {}
    seed: Annotated[int, Meta(ge=0, le=2**63 - 1)] | None = None
    title: Annotated[str, Meta(max_length=200)] | None = None
    played_at: datetime | None = None
    location: Annotated[str, Meta(max_length=200)] | None = None
    notes: Text | None = None


class GameSummary(msgspec.Struct, kw_only=True):
    """What `GET /games/{id}` answers."""

    id: UUID
    game: str
    players: list[str]
    first_player: str
    seed: int
    options: dict[str, Any]
    status: str
    version: int
    winners: list[str]
    state: Any
    title: str | None = None
    played_at: datetime | None = None
    location: str | None = None
    notes: str | None = None
    created_at: datetime | None = None


class CreatedGame(GameSummary, kw_only=True):
    """What `POST /games` answers: the summary and, shown this once, the write token."""

    write_token: str


class MoveAccepted(msgspec.Struct):
    """What `POST /games/{id}/moves` answers."""

    version: int
    state: Any


class LoggedEvent(msgspec.Struct):
    """A stored event as `GET /games/{id}/events` shows it; `data` as stored."""

    version: int
    type: str
    data: msgspec.Raw
    recorded_at: datetime


class EventPage(msgspec.Struct):
    events: list[LoggedEvent]
    version: int
    """The game's current version: a reader has everything once it has read up to it."""


class Health(msgspec.Struct):
    status: str


class GameListItem(msgspec.Struct, kw_only=True):
    id: UUID
    game: str
    players: list[str]
    title: str | None
    status: str
    winners: list[str]
    version: int
    created_at: datetime
    updated_at: datetime


class GameList(msgspec.Struct, kw_only=True):
    """A page of `GET /games`, newest first; `next_offset` is null on the last page."""

    games: list[GameListItem]
    next_offset: int | None


class PlayerTally(msgspec.Struct, kw_only=True):
    played: int
    finished: int
    won: int


class PlayerRecord(PlayerTally, kw_only=True):
    """`GET /players/{name}`: games played, finished and won, overall and per game."""

    name: str
    games: dict[str, PlayerTally]


class ReplayFrame(msgspec.Struct, kw_only=True):
    """`GET /games/{id}/replay/{step}`: the game after its first `step` moves."""

    step: int
    version: int
    state: Any
    move: Any = None
    description: str | None = None


class Replay(msgspec.Struct, kw_only=True):
    steps: list[Step]
