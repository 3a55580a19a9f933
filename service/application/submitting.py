"""Logging a move: load → decide → append.

A move is decided on the game's folded history and stored as the next version; the
primary key (game, version) settles races between requests and between processes.
The histories come from the timeline cache, caught up from the store when a race or
a refusal says the cached game may be behind.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import msgspec

from domain.errors import GameFinished, RuleError
from domain.history import TABLE_MOVES, History, Recorded, Undo
from domain.wording import message
from service.application.creating import move_type
from service.application.errors import Conflict, Invalid, Refused
from service.application.idempotency import Idempotency
from service.application.observers import MoveObserver, ReadSide
from service.application.timeline import Timeline, Timelines
from service.storage.store import (
    IdempotencyKeyUsed,
    VersionConflict,
)

# Without expected_version a client asks for its move to follow whatever is current:
# a lost race is re-decided on the new state, a bounded number of times.
APPEND_ATTEMPTS = 8

# The most moves a game holds, logged one by one or imported (undos count: each is a
# stored move). It bounds the work and memory one game can cost: the longest
# simulated game has about 420 moves.
MAX_MOVES = 5000


class Submitting:
    """Moves decided and stored over `timelines`; `read_side` is told of each write
    and `observer` of each move."""

    def __init__(
        self, timelines: Timelines, read_side: ReadSide, observer: MoveObserver
    ) -> None:
        self.timelines = timelines
        self.store = timelines.store
        self.read_side = read_side
        self.observer = observer
        rules = timelines.rules
        self._moves = {name: {*r.moves, *TABLE_MOVES} for name, r in rules.items()}

    async def timeline(self, game_id: uuid.UUID, *, whole: bool = False) -> Timeline:
        return await self.timelines.load(game_id, whole=whole)

    async def submit(
        self,
        game_id: uuid.UUID,
        move: Any,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> History:
        """Decide and store one move of the game; the history after it (the
        observer is told how long it took, or the ruling that refused it)."""
        started = time.perf_counter()
        try:
            history = await self._submit(game_id, move, expected_version, idempotency)
        except (RuleError, GameFinished, Refused) as error:
            if ruling := _ruling_of(error):
                self.observer.refused(ruling)
            raise
        self.observer.submitted(time.perf_counter() - started)
        return history

    async def _submit(
        self,
        game_id: uuid.UUID,
        move: Any,
        expected_version: int | None,
        idempotency: Idempotency | None,
    ) -> History:
        """Decide and store one move of the game; the history after it.

        The move is decided on the cached timeline without reading the store: the
        (game, version) key refuses the append if another process stored a move
        first, and only then, or when a refusal might come from a stale state, is
        the timeline caught up and the move decided again.
        """
        timeline = self.timelines.cached(game_id)
        fresh = timeline is None
        if timeline is None:
            timeline = await self.timeline(game_id)
        self.check_game(timeline.row.game, move)
        timeline = await self._able(timeline, move)
        history = timeline.latest
        for _ in range(APPEND_ATTEMPTS):
            stored = await self._attempt(
                timeline, history, move, expected_version, idempotency, fresh
            )
            if stored is not None:
                return stored
            timeline, fresh = await self._able(await self.timeline(game_id), move), True
            history = timeline.latest
        raise Conflict(message("game.too_fast"))

    async def _able(self, timeline: Timeline, move: Any) -> Timeline:
        """`timeline`, or the whole game when the move is an undo reaching below
        the snapshot it resumed from (A2 needs the state before the move undone)."""
        if isinstance(move, Undo) and timeline.latest.top.truncated:
            return await self.timeline(timeline.row.id, whole=True)
        return timeline

    async def _attempt(
        self,
        timeline: Timeline,
        history: History,
        move: Any,
        expected_version: int | None,
        idempotency: Idempotency | None,
        fresh: bool,
    ) -> History | None:
        """Decide the move on `history` and store it as the version after it; None
        when it must be tried again on the game caught up (another move took that
        version, or a refusal may come from a stale cached state).

        The idempotency key is not looked up before the append: the append stores
        the move and its key in one statement, and a key stored already refuses it
        there (IdempotencyKeyUsed), so a move under a new key costs one round trip.
        Only a refusal of the rules is preceded by the look-up: a retry of a move
        stored already, decided again on the state after it, may be refused (not
        this player's turn any more, an expected version passed), and is owed its
        first answer instead."""
        try:
            record = _decide(history, move, expected_version)
        except (Conflict, RuleError, GameFinished, Invalid):
            if not fresh:
                return None
            if idempotency is not None:
                answered = await self._answered(timeline, idempotency)
                if answered is not None:
                    return answered
            raise
        try:
            return await self._append(
                timeline, history.version + 1, record, idempotency
            )
        except VersionConflict:
            return None
        except IdempotencyKeyUsed:
            # A retry of this very request raced us and was stored first.
            assert idempotency is not None
            timeline = await self.timeline(timeline.row.id)
            return await self._answered(timeline, idempotency, required=True)

    def check_game(self, game: str, move: Any) -> None:
        """A1: a move of another game is refused."""
        if type(move) not in self._moves[game]:
            raise Invalid(
                message("move.other_game", move=move_type(move), game=game), rule="A1"
            )

    async def _append(
        self,
        timeline: Timeline,
        version: int,
        record: Recorded,
        idempotency: Idempotency | None,
    ) -> History:
        stored = await self.store.append(
            timeline.row.id,
            version,
            move_type(record.move),
            msgspec.json.encode(record),
            idempotency_key=idempotency.key if idempotency else None,
            request_hash=idempotency.fingerprint if idempotency else None,
        )
        before = timeline.latest
        timeline.add(version, record)
        self.timelines.remember(timeline)
        self.observer.appended(timeline.row.game)
        self.read_side.appended()
        after = timeline.at(version)
        if after.status != before.status:
            await self.read_side.new_status(timeline.row, after, stored.recorded_at)
        return after

    async def _answered(
        self, timeline: Timeline, idempotency: Idempotency, *, required: bool = False
    ) -> History | None:
        """The answer already given under the key, if the game stored one."""
        found = await self.store.find_idempotent(timeline.row.id, idempotency.key)
        if found is None:
            assert not required, "the key was stored, yet is not found"
            return None
        version, first_fingerprint = found
        idempotency.check(first_fingerprint)
        _, answered = await self.timelines.as_stored_at(timeline.row.id, version)
        return answered


def _ruling_of(error: Exception) -> str | None:
    """The ruling a refusal names, as its problem answer names it, if any."""
    if isinstance(error, RuleError | GameFinished):
        return error.rule
    return error.extra.get("rule") if isinstance(error, Refused) else None


def _decide(history: History, move: Any, expected_version: int | None) -> Recorded:
    if history.version > MAX_MOVES:  # version 1 is the creation
        raise Invalid(message("game.full", most=MAX_MOVES))
    if expected_version is not None and expected_version != history.version:
        raise Conflict(
            message(
                "game.moved_on", version=history.version, expected=expected_version
            ),
            version=history.version,
        )
    return history.decide(move)
