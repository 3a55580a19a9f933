"""The REST answers of docs/api.md, kept apart from the domain's events and states.

The request bodies are the application layer's (`NewGame`, the move bodies); the game
list and player records are the read side's shapes (`service.readside.summaries`).
What an answer holds of its game (its name, its state, a logged move, a stored
event's shape) is typed for the games of the app that answers it: marked here, and
made from the app's registry by its OpenAPI document (`service.http.schemas`)."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Annotated, Any, Union
from uuid import UUID

import msgspec

from domain.creation import GAME_CREATED
from domain.history import TABLE_MOVES, Abandon, GameAbandoned, MoveRetracted, Undo
from domain.registry import Registry
from projections.replay import Step
from service.application.games import GameName, Status
from service.application.notes import StepNote
from service.application.variations import VariationOf
from service.application.visibility import Visibility
from service.http.schemas import (
    GameCreation,
    GameSheet,
    GameSheetOrNull,
    GameState,
    OfTheGames,
    Tagged,
)


@functools.cache
def _logged_move(games: Registry, nullable: bool = False) -> Any:
    """A move as logged, in a replay's step: any of the games', told apart by its
    `type` (the move types of the games and of every game, `undo` and `abandon`,
    are all different)."""
    moves = [m for rules in games.values() for m in (*rules.moves, *TABLE_MOVES)]
    kinds = (*dict.fromkeys(moves), *([None] if nullable else []))
    return Annotated[Union[kinds], Tagged("type")]  # noqa: UP007 (built at runtime)


LoggedMove = Annotated[Any, OfTheGames(_logged_move)]
LoggedMoveOrNull = Annotated[
    Any, OfTheGames(functools.partial(_logged_move, nullable=True))
]


class GameSummary(msgspec.Struct, kw_only=True):
    """What `GET /games/{id}` answers."""

    id: UUID
    game: GameName
    players: list[str]
    first_player: str
    seed: int
    options: dict[str, Any]
    status: Status
    version: int
    winners: list[str]
    state: GameState
    title: str | None = None
    played_at: datetime | None = None
    location: str | None = None
    notes: str | None = None
    created_at: datetime | None = None
    variation_of: VariationOf | None = None
    """Set on a variation: the game it branched from and the step it starts at."""
    # The group the game is played in (its leaderboards rate its games only).
    group: str | None = None
    visibility: Visibility = "public"
    """Who sees the game: `public`, `unlisted` or `members` (docs/api.md, "Who
    sees what")."""
    rematch_of: UUID | None = None
    """Set on a game played again (`POST /games/{id}/rematch`): the game it
    follows."""


class CreatedGame(GameSummary, kw_only=True):
    """What `POST /games` answers: the summary and, shown this once, the write token."""

    write_token: str


class MoveAccepted(msgspec.Struct):
    """What `POST /games/{id}/moves` answers."""

    version: int
    state: GameState


class LoggedEvent(msgspec.Struct):
    """A stored event as `GET /games/{id}/events` and the stream show it. `data` is
    the game's creation at version 1, else `{"move": ..., "events": [...]}`: the move
    as logged and the facts the rules derived from it. The OpenAPI document shows each
    `type`'s shape (`LoggedEvents`)."""

    version: int
    type: str
    data: Any
    recorded_at: datetime


def _logged(
    name: str, tag: str, data: Any, fields: tuple[tuple[str, Any], ...]
) -> type[msgspec.Struct]:
    """The schema of a stored event of one `type` (a Struct only the OpenAPI
    document reads), with `fields` before its own."""
    return msgspec.defstruct(
        name,
        [*fields, ("version", int), ("data", data), ("recorded_at", datetime)],
        tag_field="type",
        tag=tag,
        module=__name__,
    )


@functools.cache
def _recorded(name: str, move: type, events: tuple[type, ...]) -> type:
    """A stored move's data: the move as logged and the game's events it led to,
    each told apart by its `type` among its game's (two games' events may share a
    `type`, `round_scored`: their schemas carry their game's name)."""
    union = Union[events] if len(events) > 1 else events[0]  # noqa: UP007
    return msgspec.defstruct(
        f"{name}Recorded",
        [("move", move), ("events", list[Annotated[union, Tagged("type")]])],
        module=__name__,
    )


@functools.cache
def _stored_events(
    games: Registry, kind: str, fields: tuple[tuple[str, Any], ...] = ()
) -> Any:
    """Every shape of a stored event as `kind` shows it, by `type`: the creation,
    then each move of each of the games (the Dobro editions share theirs), then
    undo and abandon."""
    shapes = [_logged(f"{kind}Creation", GAME_CREATED, GameCreation, fields)]
    moves: dict[type, tuple[str, tuple[type, ...]]] = {}
    for rules in games.values():
        prefix = "".join(part.title() for part in rules.family.split("-"))
        for move in rules.moves:
            moves.setdefault(move, (prefix + move.__name__, tuple(rules.events)))
    moves[Undo] = (Undo.__name__, (MoveRetracted,))
    moves[Abandon] = (Abandon.__name__, (GameAbandoned,))
    for move, (name, events) in moves.items():
        data = _recorded(name, move, events)
        tag = move.__struct_config__.tag
        shapes.append(_logged(f"{kind}{name}", tag, data, fields))
    return Annotated[Union[tuple(shapes)], Tagged("type")]  # noqa: UP007


# A stored event as `/games/{id}/events` and the game's stream give it
# (`LoggedEvent`), and as the feed gives it (`service.http.feed.FeedEvent`).
LoggedEvents = Annotated[
    Any, OfTheGames(functools.partial(_stored_events, kind="Logged"))
]
_FEED_FIELDS = (("cursor", str), ("game_id", UUID), ("game", GameName))
FeedEvents = Annotated[
    Any,
    OfTheGames(functools.partial(_stored_events, kind="Feed", fields=_FEED_FIELDS)),
]


class EventPage(msgspec.Struct):
    events: list[LoggedEvents]
    version: int
    """The game's current version: a reader has everything once it has read up to it."""


class Health(msgspec.Struct):
    status: str


class ReplayFrame(msgspec.Struct, kw_only=True):
    """`GET /games/{id}/replay/{step}`: the game after its first `step` moves, with
    its score sheet as it stood then."""

    step: int
    version: int
    state: GameState
    scoresheet: GameSheet
    move: LoggedMoveOrNull = None
    description: str | None = None
    notes: list[StepNote] = []
    """The notes in force on this step, in the order they were written."""


class ReplayStep(msgspec.Struct, kw_only=True):
    """One step of `GET /games/{id}/replay`. `scoresheet` is the sheet after this
    step where the step changed it, else null: the sheet is then the one of the
    nearest earlier step that has one (most moves score nothing, and a sheet per step
    would multiply a long game's replay many times over)."""

    step: int
    version: int
    move: LoggedMove
    description: str
    state: GameState
    scoresheet: GameSheetOrNull
    notes: list[StepNote] = []
    """The notes in force on this step, in the order they were written."""


class Replay(msgspec.Struct, kw_only=True):
    """A page of `GET /games/{id}/replay`: its first step carries the score sheet
    in force then. `next` is the `after` of the following page, null on the last."""

    steps: list[ReplayStep]
    next: int | None = None


def replay_of(
    steps: list[Step],
    next: int | None = None,
    notes: dict[int, list[StepNote]] | None = None,
) -> Replay:
    """The steps with each score sheet given only where it changed (and on the
    first step, whatever the page), and each with its notes in force."""
    notes = notes or {}
    shown: list[ReplayStep] = []
    previous = None
    for step in steps:
        sheet = step.scoresheet
        fields = msgspec.structs.asdict(step) | {
            "scoresheet": None if sheet is previous else sheet,
            "notes": notes.get(step.step, []),
        }
        shown.append(ReplayStep(**fields))
        previous = sheet
    return Replay(steps=shown, next=next)


class ImportedGame(msgspec.Struct, kw_only=True):
    """What `POST /games/import` answers: the new game and, shown this once, its
    write token."""

    id: UUID
    game: GameName
    players: list[str]
    version: int
    status: Status
    winners: list[str]
    write_token: str
