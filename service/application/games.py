"""The games of one process, as the HTTP handlers and the shell's commands use them:
each operation one call. Creating a game is `creating.py`'s, playing one again
`rematches.py`'s, logging a move `submitting.py`'s; reading a game (as stored now, a
page of its log or its replay, a step of it) is here, over the cache of folded games
(`timeline.py`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

import anyio

from domain.history import Codec, History, Truncated
from domain.wording import Language, message
from projections import replay
from service.application.creating import Creating, InGroup, NewGame, Roster
from service.application.errors import NotFound
from service.application.idempotency import Idempotency
from service.application.notes import Notes, StepNote, by_step
from service.application.observers import MoveObserver, ReadSide
from service.application.rematches import Rematches
from service.application.submitting import Submitting
from service.application.timeline import Timeline, Timelines
from service.application.variations import Variations
from service.application.visibility import Viewer
from service.storage.store import (
    GameRow,
    StoredEvent,
)

T = TypeVar("T")


class OneOfTheGames:
    """Marks a game's name in an answer or a parameter: one of the games of the
    registry the app was built with, which its OpenAPI document lists
    (`service.http.schemas`)."""


GameName = Annotated[str, OneOfTheGames]
Status = Literal["in_progress", "finished", "abandoned"]


class Games:
    """The games of one process: created, read and logged over the cache of folded
    games (`timelines`), telling `read_side` of every write and `observer` of every
    move. Each is given when the process is built (`service/bootstrap.py`): a
    process without a read side or metrics says so (`NoReadSide()`,
    `Unobserved()`)."""

    def __init__(
        self,
        timelines: Timelines,
        *,
        read_side: ReadSide,
        observer: MoveObserver,
        rosters: Roster | None = None,
    ) -> None:
        self.timelines = timelines
        self.store = timelines.store
        self.rules = timelines.rules
        self.creating = Creating(timelines, read_side, rosters)
        self.submitting = Submitting(timelines, read_side, observer)
        self.variations = Variations(timelines, self.creating)
        self.rematches = Rematches(timelines, self.creating)
        self.notes = Notes(timelines)

    async def create(
        self,
        request: NewGame,
        app_key: uuid.UUID | None = None,
        group: InGroup | None = None,
    ) -> tuple[GameRow, History, str]:
        """A new game at version 1, and its write token (shown this once);
        `app_key`, the key of the app creating it, may write it too; `group`, the
        group whose key creates it, holds it."""
        return await self.creating.create(request, app_key, group)

    async def branch(
        self,
        game_id: uuid.UUID,
        at: int,
        app_key: uuid.UUID | None = None,
        group: InGroup | None = None,
    ) -> tuple[GameRow, History, str]:
        """A variation of the game from step `at`, and its write token; `app_key`
        and `group` as for `create`."""
        return await self.variations.branch(game_id, at, app_key, group)

    async def rematch(
        self,
        game_id: uuid.UUID,
        viewer: Viewer,
        idempotency_key: str | None = None,
        app_key: uuid.UUID | None = None,
        group: InGroup | None = None,
    ) -> tuple[GameRow, History, str]:
        """The game played after `game_id` (T4), and its write token; `viewer`
        asks for it under `idempotency_key`, `app_key` and `group` as for
        `create`."""
        return await self.rematches.rematch(
            game_id, viewer, idempotency_key, app_key, group
        )

    async def submit(
        self,
        game_id: uuid.UUID,
        move: Any,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> History:
        """Decide and store one move of the game; the history after it."""
        return await self.submitting.submit(
            game_id, move, expected_version, idempotency
        )

    # ------------------------------------------------------------------ reading

    async def timeline(self, game_id: uuid.UUID, *, whole: bool = False) -> Timeline:
        """The game as stored now; NotFound for a game never created. `whole`:
        holding every version (not resumed from a snapshot)."""
        return await self.timelines.load(game_id, whole=whole)

    async def current(self, game_id: uuid.UUID) -> tuple[GameRow, History]:
        timeline = await self.timeline(game_id)
        return timeline.row, timeline.latest

    async def events(
        self, game_id: uuid.UUID, after: int, limit: int
    ) -> tuple[Timeline, list[StoredEvent]]:
        """The game as stored now, and a page of its stored rows after `after`."""
        timeline = await self.timeline(game_id)
        # The timeline was caught up on the primary: a replica's page is no older.
        latest = timeline.version
        return timeline, await self.store.read(game_id, after, limit, at_least=latest)

    def codec(self, game: str) -> Codec:
        """The decoders of the stored rows of a game of kind `game`."""
        return self.timelines.codec(game)

    async def replay(
        self,
        game_id: uuid.UUID,
        after: int,
        limit: int,
        language: Language,
        render: Callable[[list[replay.Step], int | None], T],
    ) -> T:
        """Steps `after + 1` to `after + limit` with their sentences in `language`,
        and the `after` of the next page (None on the last), as `render` makes them:
        built and rendered in a worker thread (a long game's page is megabytes)."""
        # Its sheets are folded from the game's creation.
        timeline = await self.timeline(game_id, whole=True)
        # Taken now: the timeline may grow while the page is built in a thread.
        moves = len(timeline.records)
        last = min(moves, after + limit)
        histories, records = timeline.histories[: last + 1], timeline.records[:last]

        def page() -> T:
            steps = replay.steps(histories, records, after + 1, last, language)
            return render(steps, last if last < moves else None)

        return await anyio.to_thread.run_sync(page, limiter=self.timelines.heavy_work)

    async def noted_frame(
        self, game_id: uuid.UUID, step: int, language: Language
    ) -> tuple[replay.Step, list[StepNote]]:
        """The game after its first `step` moves, and the notes in force on that
        step; NotFound past its last."""
        notes = by_step(await self.notes.all(game_id)).get(step, [])
        return await self.frame(game_id, step, language), notes

    async def frame(
        self, game_id: uuid.UUID, step: int, language: Language
    ) -> replay.Step:
        """The game after its first `step` moves; NotFound past its last."""
        timeline = await self.timeline(game_id)
        last = timeline.moves
        if not 0 <= step <= last:
            raise NotFound(message("game.no_step", last=last, step=step))
        if step == 0:
            return replay.start(timeline.latest)
        try:
            return replay.step(*timeline.steps(), step, language=language)
        except Truncated:
            # The step's sentence needs moves before the snapshot the timeline
            # resumed from (an undo's names the move it took back).
            whole = await self.timeline(game_id, whole=True)
            return replay.step(*whole.steps(), step, language=language)

    async def write_token_hash(self, game_id: uuid.UUID) -> bytes:
        """What a write's token must hash to (the game loaded, or from the cache)."""
        timeline = self.timelines.cached(game_id) or await self.timeline(game_id)
        return timeline.row.token_hash

    async def created_by(self, game_id: uuid.UUID) -> GameRow:
        """The game's row, which says the key it was created with (an app's,
        `app_key`, or a group's, `group_key`) and its group: those may write it."""
        timeline = self.timelines.cached(game_id) or await self.timeline(game_id)
        return timeline.row
