"""Snapshots of long games, a disposable read model: the state in force at some
version, so that the first read of a game no process holds folds only the moves
stored after it.

A snapshot holds the top of the game's undo stack only (the latest moves in force,
each with its state and its stored record) and the score sheet at the lowest of them:
storing the whole stack would be as large as the log. A game resumed from one is
truncated (`History.resume`): an undo reaching below it, a replay step before it or
a replay page is served from a fold of the whole log instead, as without snapshots.

A snapshot is used only when it is the game's own (its data names the game) and
the game's log holds its version (the row's and the data's, which must agree): the
serving role may write snapshots, and another game's or one past the log would serve
a state the log never reached and append after it.

Nothing depends on a snapshot being there: each is only ever a copy of what the log
folds into, and deleting every row changes no answer. One is kept a game, replaced by
a later one. `engine` names the code that folds and scores the game (a hash of its
source and of its state's shape): after any change to it, older snapshots are
ignored, and one that cannot be decoded is ignored too; both are logged.
"""

from __future__ import annotations

import hashlib
import logging
import sys
import uuid
from pathlib import Path
from typing import Annotated, Any

import msgspec

from domain import history as history_module
from domain.game import Rules
from domain.history import History
from projections.scoresheet import ScoreSheet, score_sheet
from service.storage.store import EventStore, Snapshot

log = logging.getLogger(__name__)

# A cold load that folds more stored moves than this past its snapshot (or the
# game's creation) writes a new one: a game has at most one snapshot, at most one
# such write runs per game, and a game read only warm is never written.
SNAPSHOT_AFTER = 250
# The moves in force a snapshot holds, the latest and the 15 below it: undos of up to
# 15 of them in a row are folded from the snapshot too. An undo taking back more
# is rare, and is served from a fold of the whole log.
SNAPSHOT_DEPTH = 16
# A snapshot is of the game this many stored moves before the latest its writer
# folded: the replay steps after it (and their undos' sentences, of the moves they
# took back, when these are after it too) are served from it, at the cost of as
# many more rows folded on each cold load.
SNAPSHOT_BEHIND = 16


class _Held(msgspec.Struct, array_like=True):
    """A move in force, as stored: `state` and `record` are typed by the game's
    decoder (the lowest's record is not stored: its sheet is)."""

    version: int
    abandoned: bool
    state: Any
    record: Any


class _Snapshot(msgspec.Struct, array_like=True):
    game_id: uuid.UUID
    version: int
    held: list[Any]  # of _Held, lowest first
    sheet: ScoreSheet


class Snapshots:
    """Reading and writing one game kind's snapshots."""

    def __init__(
        self, store: EventStore, rules: Rules, state_type: type, record_type: type
    ) -> None:
        self._store = store
        held = msgspec.defstruct(
            "Held",
            [("state", state_type), ("record", record_type | None)],
            bases=(_Held,),
            array_like=True,
        )
        self._decoder = msgspec.msgpack.Decoder(
            msgspec.defstruct(
                "Snapshot",
                [
                    ("held", Annotated[list[held], msgspec.Meta(min_length=1)]),
                    ("sheet", rules.sheet_type),
                ],
                bases=(_Snapshot,),
                array_like=True,
            )
        )
        self.engine = engine_of(rules, state_type)

    def resume(self, game_id: uuid.UUID, start: History, stored: Snapshot) -> History:
        """The game from its stored snapshot, or `start` (its creation) when this
        engine cannot read it, it is another game's or the game's log does not hold
        its version."""
        if not stored.logged:
            log.warning(
                "snapshot of game %s ignored: its version %s is past the game's log",
                game_id,
                stored.version,
            )
            return start
        if stored.engine != self.engine:
            log.info("snapshot of game %s ignored: another engine wrote it", game_id)
            return start
        try:
            snapshot = self._decoder.decode(stored.data)
        except msgspec.DecodeError as error:  # ValidationError is one
            log.warning("snapshot of game %s ignored: %s", game_id, error)
            return start
        if snapshot.game_id != game_id:
            log.warning(
                "snapshot of game %s ignored: it is game %s's",
                game_id,
                snapshot.game_id,
            )
            return start
        if snapshot.version != stored.version:
            log.warning(
                "snapshot of game %s ignored: its data is of version %s, its row of %s",
                game_id,
                snapshot.version,
                stored.version,
            )
            return start
        held = [(h.version, h.state, h.record, h.abandoned) for h in snapshot.held]
        return History.resume(
            start.rules, start.setup, snapshot.version, held, snapshot.sheet
        )

    async def write(self, game_id: uuid.UUID, history: History) -> None:
        """Store `history`'s top SNAPSHOT_DEPTH moves in force, and the score sheet
        at the lowest."""
        lowest, *above = history.held(SNAPSHOT_DEPTH)
        held = [_Held(lowest.top.version, lowest.top.abandoned, lowest.state, None)]
        held += [
            _Held(h.top.version, h.top.abandoned, h.state, h.top.record) for h in above
        ]
        data = msgspec.msgpack.encode(
            _Snapshot(game_id, history.version, held, score_sheet(lowest))
        )
        await self._store.write_snapshot(game_id, history.version, self.engine, data)


def engine_of(rules: Rules, state_type: type) -> str:
    """A name for the code a snapshot depends on: the game's package, the history,
    the projections and this module (their source), and the shape of its state and
    sheet. Any change to them names another engine, which costs each long game one
    fold."""
    digest = hashlib.sha256(rules.name.encode())
    digest.update(
        msgspec.json.encode(
            msgspec.json.schema_components([state_type, rules.sheet_type])
        )
    )
    game_package = sys.modules[rules.decide.__module__].__file__
    folders = {
        Path(game_package).parent,
        Path(sys.modules["projections"].__file__).parent,
    }
    files = [
        Path(__file__),
        Path(history_module.__file__),
        *(f for d in folders for f in d.glob("*.py")),
    ]
    for path in sorted(files):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]
