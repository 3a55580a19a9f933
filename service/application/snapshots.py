"""Snapshots of long games, a disposable read model: the state in force at some
version, so that the first read of a game no process holds folds only the moves
stored after it.

A snapshot holds the top of the game's undo stack only (the latest moves in force,
each with its state and its stored record) and the score sheet at the lowest of them:
storing the whole stack would be as large as the log. A game resumed from one is
truncated (`History.resume`): an undo reaching below it, a replay step before it or
a replay page is served from a fold of the whole log instead, as without snapshots.

The serving role may write snapshots, so whoever holds its credentials may write any
row: a snapshot is used only when its signature, an HMAC-SHA256 under a key the
database does not hold (`key_from_file`), is of the game's id, the row's version,
its engine and its data. It is checked before the data is decoded. A row that is
unsigned, whose signature does not match (its data changed, another game's copied, a
host with another key), whose version the game's log does not hold, of another
engine or that does not decode is ignored: the game is folded from its log, as
without a snapshot. Each is logged, naming the game, and counted by its reason
(`SnapshotObserver`).

Nothing depends on a snapshot being there: each is only ever a copy of what the log
folds into, and deleting every row changes no answer. One is kept a game, replaced by
a later one, or by a fold of the whole log. `engine` names the code that folds and
scores the game (a hash of its source and of its state's shape): after any change to
it, older snapshots are ignored.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import logging
import os
import secrets
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Annotated, Any

import msgspec

from domain import history as history_module
from domain.game import Rules
from domain.history import History
from projections import scoresheet as scoresheet_module
from projections.scoresheet import ScoreSheet, score_sheet
from service.application.observers import SnapshotObserver
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
# The bytes of a key made for signing: 256 bits, as strong as SHA-256 is.
KEY_BYTES = 32

# Why a stored snapshot is ignored: the metric's label, and the log's words.
IGNORED = {
    "past_log": "its version is past the game's log",
    "unsigned": "it is unsigned",
    "bad_signature": "its signature does not match it (changed, copied from "
    "another game or signed with another key)",
    "other_engine": "another engine wrote it",
    "undecodable": "this engine cannot decode it",
}


class _Held(msgspec.Struct, array_like=True):
    """A move in force, as stored: `state` and `record` are typed by the game's
    decoder (the lowest's record is not stored: its sheet is)."""

    version: int
    abandoned: bool
    state: Any
    record: Any


class _Snapshot(msgspec.Struct, array_like=True):
    held: list[Any]  # of _Held, lowest first
    sheet: ScoreSheet


class Snapshots:
    """Reading and writing one game kind's snapshots, signed with `key`; each one
    ignored is told to `observer`."""

    def __init__(
        self,
        store: EventStore,
        rules: Rules,
        state_type: type,
        record_type: type,
        key: bytes,
        observer: SnapshotObserver,
    ) -> None:
        self._store = store
        self._key = key
        self._observer = observer
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
        """The game from its stored snapshot, or `start` (its creation) when the
        snapshot is not to be used (see the module's docstring)."""
        snapshot = self._verified(game_id, stored)
        if snapshot is None:
            return start
        held = [(h.version, h.state, h.record, h.abandoned) for h in snapshot.held]
        return History.resume(
            start.rules, start.setup, stored.version, held, snapshot.sheet
        )

    def _verified(self, game_id: uuid.UUID, stored: Snapshot) -> _Snapshot | None:
        """The snapshot's contents, when the log holds its version, its signature
        is this key's for this game and all the row holds, and this engine wrote
        it; else None, the reason logged and counted. The signature is checked
        before the engine or the data is trusted: both are the row's, which anyone
        with the serving role's credentials may have written."""
        if not stored.logged:
            return self._ignored(game_id, "past_log")
        if stored.signature is None:
            return self._ignored(game_id, "unsigned")
        expected = signature(
            self._key, game_id, stored.version, stored.engine, stored.data
        )
        if not hmac.compare_digest(expected, stored.signature):
            return self._ignored(game_id, "bad_signature")
        if stored.engine != self.engine:
            return self._ignored(game_id, "other_engine")
        try:
            return self._decoder.decode(stored.data)
        except msgspec.DecodeError:  # ValidationError is one
            return self._ignored(game_id, "undecodable")

    def _ignored(self, game_id: uuid.UUID, reason: str) -> None:
        # Another engine's is what every upgrade leaves; the others are not.
        level = logging.INFO if reason == "other_engine" else logging.WARNING
        log.log(level, "snapshot of game %s ignored: %s", game_id, IGNORED[reason])
        self._observer.snapshot_ignored(reason)

    async def write(
        self, game_id: uuid.UUID, history: History, *, replace: bool = False
    ) -> None:
        """Store `history`'s top SNAPSHOT_DEPTH moves in force, and the score sheet
        at the lowest, signed; `replace`: whatever snapshot the game has, not only
        an older one (see `EventStore.write_snapshot`)."""
        lowest, *above = history.held(SNAPSHOT_DEPTH)
        held = [_Held(lowest.top.version, lowest.top.abandoned, lowest.state, None)]
        held += [
            _Held(h.top.version, h.top.abandoned, h.state, h.top.record) for h in above
        ]
        data = msgspec.msgpack.encode(_Snapshot(held, score_sheet(lowest)))
        version = history.version
        await self._store.write_snapshot(
            game_id,
            version,
            self.engine,
            data,
            signature(self._key, game_id, version, self.engine, data),
            replace=replace,
        )


def signature(
    key: bytes, game_id: uuid.UUID, version: int, engine: str, data: bytes
) -> bytes:
    """The HMAC-SHA256 of a snapshot under `key`: of the game's id, the version,
    the engine and the data, each of a fixed length or preceded by its length (the
    data last), so that no two snapshots give the same bytes to sign."""
    named = engine.encode()
    mac = hmac.new(key, digestmod=hashlib.sha256)
    mac.update(game_id.bytes)
    mac.update(version.to_bytes(8, "big"))
    mac.update(len(named).to_bytes(8, "big"))
    mac.update(named)
    mac.update(data)
    return mac.digest()


def signing_key(file: str | None) -> bytes:
    """The key that signs the snapshots: the one in `file` (made there on first
    use), or with no file one made for this process, whose snapshots only it can
    then use (snapshots are disposable: another process folds the log instead)."""
    return process_key() if file is None else key_from_file(Path(file))


@functools.cache
def process_key() -> bytes:
    """A key made for this process, the same for each of its caches."""
    return secrets.token_bytes(KEY_BYTES)


def key_from_file(path: Path) -> bytes:
    """The key kept in `path`, made there on first use: KEY_BYTES random bytes in
    a file only its owner may read or write (0600).

    Made whole under a name of its own, written to disk, then linked to `path`,
    which fails when `path` exists: processes starting at once (the workers of
    `serve`, the hosts sharing the file) all end with the one key linked first, and
    none reads a file half written. A file holding fewer than KEY_BYTES bytes (one
    an operator wrote) is refused, ValueError saying so."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, made = tempfile.mkstemp(dir=path.parent, prefix=".snapshot.key.")
        try:
            with os.fdopen(descriptor, "wb") as file:
                file.write(secrets.token_bytes(KEY_BYTES))
                file.flush()
                os.fsync(file.fileno())
            # Another process that linked its key first made the key.
            with contextlib.suppress(FileExistsError):
                os.link(made, path)
        finally:
            os.unlink(made)
    key = path.read_bytes()
    if len(key) < KEY_BYTES:
        raise ValueError(
            f"{path} holds {len(key)} bytes, fewer than the {KEY_BYTES} of a key: "
            "remove it to have a new key made"
        )
    return key


def engine_of(rules: Rules, state_type: type) -> str:
    """A name for the code a snapshot depends on: the source of `engine_sources`
    and the shape of the game's state and sheet. Any change to them names another
    engine, which costs each long game one fold."""
    digest = hashlib.sha256(rules.name.encode())
    digest.update(
        msgspec.json.encode(
            msgspec.json.schema_components([state_type, rules.sheet_type])
        )
    )
    for path in engine_sources(rules):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def engine_sources(rules: Rules) -> list[Path]:
    """The modules whose code a game's snapshot holds the work of: the game's
    package, the modules of the domain every game shares (the history, the
    sheets' shape and their standings), the score sheet's projection and this
    module; not the other read models' folds, which no snapshot holds."""
    game_package = Path(sys.modules[rules.decide.__module__].__file__).parent
    shared = Path(history_module.__file__).parent
    return sorted(
        {
            Path(__file__),
            Path(scoresheet_module.__file__),
            *shared.glob("*.py"),
            *game_package.glob("*.py"),
        }
    )
