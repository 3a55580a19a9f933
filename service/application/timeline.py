"""Games kept in memory between requests: each game's history after every stored
move, in an LRU cache bounded by the moves it holds, caught up from the store on
demand.

An append or a replay step then reads only the events the process has not seen. The
cache is an optimisation only: the store's (game, version) key decides every race, and
a timeline that is behind is caught up, never trusted for a write.

A game no process holds is resumed from its snapshot when it has one and it is
signed with this cache's key (see `service.application.snapshots`): its timeline is
then truncated, holding the game from the snapshot's version on; what needs the
moves before it (an undo reaching below the snapshot, a replay page, a replay step
before it) gets the game folded from its creation (`load(whole=True)`), which then
takes the truncated one's place.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import anyio

from domain.game import StoredSetup
from domain.history import Codec, Histories, History, Recorded, Truncated
from domain.registry import Registry
from domain.wording import message
from service.application.errors import NotFound
from service.application.observers import SnapshotObserver, Unobserved
from service.application.snapshots import (
    SNAPSHOT_AFTER,
    SNAPSHOT_BEHIND,
    Snapshots,
    process_key,
)
from service.storage.store import EventStore, GameRow

# A fold of more moves than this is done in a worker thread: folding 5,000 moves
# takes some 150 ms, which the event loop would otherwise spend away from every
# other request.
FOLD_IN_THREAD = 500

log = logging.getLogger(__name__)
T = TypeVar("T")


class Steps(Sequence[T], Generic[T]):
    """A timeline's histories or records indexed by replay step, as the replay
    functions read them, from the first step it holds: an earlier one raises
    `Truncated`."""

    __slots__ = ("_first", "_items")

    def __init__(self, items: Sequence[T], first: int) -> None:
        self._items = items
        self._first = first

    def __len__(self) -> int:
        return self._first + len(self._items)

    def __getitem__(self, step: Any) -> Any:
        if not isinstance(step, int) or step < self._first:
            raise Truncated
        return self._items[step - self._first]


class Timeline:
    """A game's histories after each stored move: `at(v)` is the game at version v,
    from version `first` on (1 but for a game resumed from a snapshot).

    Only ever extended, and only in version order, so concurrent requests of one
    process can share it: a version some other request already added is skipped.
    """

    __slots__ = ("first", "histories", "records", "row")

    def __init__(self, row: GameRow, start: History) -> None:
        self.row = row
        self.first = start.version
        self.histories = Histories(start)
        self.records: list[Recorded] = []

    @property
    def latest(self) -> History:
        return self.histories[-1]

    @property
    def truncated(self) -> bool:
        """Resumed from a snapshot: the versions before `first` are not held."""
        return self.first > 1

    @property
    def version(self) -> int:
        """The latest version held (`latest.version`, without making its History)."""
        return self.first + len(self.records)

    @property
    def moves(self) -> int:
        """The stored moves (the game's last replay step)."""
        return self.version - 1

    def at(self, version: int) -> History:
        if version < self.first:
            raise Truncated
        return self.histories[version - self.first]

    def steps(self) -> tuple[Sequence[History], Sequence[Recorded]]:
        """(histories, records) by replay step: `histories[n]` the game after n
        moves, `records[n - 1]` the nth move; `Truncated` before what is held."""
        first = self.first - 1
        return Steps(self.histories, first), Steps(self.records, first)

    def add(self, version: int, record: Recorded) -> None:
        if version == self.version + 1:
            self.histories.extend((record,))
            self.records.append(record)

    def extend(
        self, events: Sequence[tuple[int, str]], decode: Callable[[str], Recorded]
    ) -> None:
        """`add` for each stored (version, data) in turn, decoding only those it
        does not hold yet, and folding them in one go: a cold load of a long game
        makes one turn per stored move. The store's versions follow one another
        (each append takes the next on the key), so those held are a prefix."""
        held = self.version
        records = [decode(data) for version, data in events if version > held]
        self.histories.extend(records)
        self.records.extend(records)


class Timelines:
    """The cache: at most `games` games holding at most `moves` stored moves in all
    (a game's creation counts as one), the least recently used dropped first.

    Memory grows with the moves held, not with the games: a folded move costs about
    1 to 2.5 KB (a state and a record per move; measured with tracemalloc on
    simulated games of every kind), so the count of moves is what bounds it. A game
    longer than the whole bound is still folded and served, just not kept.

    Snapshots are signed and checked with `snapshot_key` (by default a key made for
    the process), and each one ignored is told to `observer`.
    """

    def __init__(
        self,
        store: EventStore,
        rules: Registry,
        games: int = 1024,
        moves: int = 100_000,
        snapshot_after: int = SNAPSHOT_AFTER,
        *,
        snapshot_key: bytes | None = None,
        observer: SnapshotObserver | None = None,
    ) -> None:
        self.store = store
        self.rules = rules
        # Work too long for the event loop (a long game's fold, a replay page) runs
        # in a worker thread, one at a time: it is Python, so more threads would not
        # run it faster, only take the interpreter's lock from the loop more often
        # (with two, /health waited up to 0.66 s under 12 readers; with one, 0.14 s
        # but for one outlier).
        self.heavy_work = anyio.CapacityLimiter(1)
        self._snapshot_after = snapshot_after
        self._codecs = {name: Codec(r) for name, r in rules.items()}
        self._cache: OrderedDict[uuid.UUID, Timeline] = OrderedDict()
        self._games = games
        self._moves = moves
        # What each cached game counted for when last remembered, and their sum.
        self._counted: dict[uuid.UUID, int] = {}
        self._held = 0
        self._snapshot_key = snapshot_key or process_key()
        self._observer = observer or Unobserved()
        self._snapshots: dict[str, Snapshots] = {}
        # The snapshot writes under way, by game: at most one each.
        self._writing: dict[uuid.UUID, asyncio.Task[None]] = {}

    @property
    def moves_held(self) -> int:
        """The stored moves the cache holds (each game's creation counts as one)."""
        return self._held

    def games_held(self) -> int:
        return len(self._cache)

    def cached(self, game_id: uuid.UUID) -> Timeline | None:
        """The game as this process last saw it, which may be behind the store."""
        return self._cache.get(game_id)

    async def load(self, game_id: uuid.UUID, *, whole: bool = False) -> Timeline:
        """The game as stored now (caught up with moves other processes appended);
        `whole`: holding every version, never resumed from a snapshot."""
        timeline = self._cache.get(game_id)
        if timeline is not None and whole and timeline.truncated:
            self._forget(game_id)
            timeline = None
        fresh = timeline is None
        if timeline is None:
            timeline = await self._start(game_id, whole)
        events = await self.store.read_data(game_id, timeline.version)
        try:
            if fresh and len(events) > FOLD_IN_THREAD:
                # Only a timeline no other request can see yet is folded off the loop.
                await anyio.to_thread.run_sync(
                    self._fold, timeline, events, limiter=self.heavy_work
                )
            else:
                self._fold(timeline, events)
        except Truncated:  # an undo stored since the snapshot reaches below it
            return await self.load(game_id, whole=True)
        if fresh and len(events) > self._snapshot_after:
            self._snapshot(timeline)
        self.remember(timeline)
        return timeline

    async def _start(self, game_id: uuid.UUID, whole: bool) -> Timeline:
        found = await self.store.get_game_and_snapshot(game_id)
        if found is None:
            raise NotFound(message("game.not_found", game_id=str(game_id)))
        row, snapshot = found
        start = History.start(self.rules[row.game], setup_of(row))
        if snapshot is not None and not whole:
            start = self._snapshots_of(start).resume(game_id, start, snapshot)
        return Timeline(row, start)

    def _snapshots_of(self, start: History) -> Snapshots:
        game = start.rules.name
        if game not in self._snapshots:
            codec = self._codecs[game]
            self._snapshots[game] = Snapshots(
                self.store,
                start.rules,
                type(start.state),
                codec.record_type,
                self._snapshot_key,
                self._observer,
            )
        return self._snapshots[game]

    def _snapshot(self, timeline: Timeline) -> None:
        """Write the game's snapshot in the background, SNAPSHOT_BEHIND moves
        short of the latest: a replay step needs the state before it, and an undo's
        the move it took back, so the latest steps are then served from it. A game
        folded from its creation replaces whatever snapshot it has: it may be one
        this load ignored."""
        game_id = timeline.row.id
        if game_id in self._writing:
            return
        history = timeline.at(max(timeline.first, timeline.version - SNAPSHOT_BEHIND))
        task = asyncio.get_running_loop().create_task(
            self._write(
                self._snapshots_of(history),
                game_id,
                history,
                replace=not timeline.truncated,
            )
        )
        self._writing[game_id] = task
        task.add_done_callback(lambda _: self._writing.pop(game_id, None))

    async def _write(
        self,
        snapshots: Snapshots,
        game_id: uuid.UUID,
        history: History,
        *,
        replace: bool,
    ) -> None:
        try:
            await snapshots.write(game_id, history, replace=replace)
        except Exception:  # a read model's write: the next cold load tries again
            log.warning("snapshot of game %s not written", game_id, exc_info=True)

    async def snapshots_written(self) -> None:
        """Wait for the snapshot writes under way (for tests and benches)."""
        while self._writing:
            await asyncio.gather(*self._writing.values())

    def _fold(self, timeline: Timeline, events: Sequence[tuple[int, str]]) -> None:
        timeline.extend(events, self._codecs[timeline.row.game].record_from_json)

    def codec(self, game: str) -> Codec:
        """The decoders of a game's stored rows."""
        return self._codecs[game]

    async def at(self, game_id: uuid.UUID, version: int) -> tuple[Timeline, History]:
        """The game as stored now, and as it was at `version` (stored)."""
        timeline = await self.load(game_id)
        if version < timeline.first:
            timeline = await self.load(game_id, whole=True)
        return timeline, timeline.at(version)

    async def as_stored_at(
        self, game_id: uuid.UUID, version: int
    ) -> tuple[GameRow, History]:
        """The game as it was at `version` (stored). A stored version never changes,
        so a version this process's cache holds is taken from it without reading
        the store, which `at` does to be current; only one it lacks is read."""
        cached = self.cached(game_id)
        if cached is not None and cached.first <= version <= cached.version:
            return cached.row, cached.at(version)
        timeline, history = await self.at(game_id, version)
        return timeline.row, history

    async def row(self, game_id: uuid.UUID) -> GameRow:
        row = await self.store.get_game(game_id)
        if row is None:
            raise NotFound(message("game.not_found", game_id=str(game_id)))
        return row

    def remember(self, timeline: Timeline) -> None:
        """Keep the game as the most recently used, and count what it holds now:
        called after every load and every append, so the count is never behind."""
        game_id = timeline.row.id
        timeline = self._cache.setdefault(game_id, timeline)
        self._cache.move_to_end(game_id)
        size = len(timeline.histories)
        self._held += size - self._counted.get(game_id, 0)
        self._counted[game_id] = size
        while self._cache and (
            len(self._cache) > self._games or self._held > self._moves
        ):
            self._forget(next(iter(self._cache)))

    def _forget(self, game_id: uuid.UUID) -> None:
        del self._cache[game_id]
        self._held -= self._counted.pop(game_id)


def setup_of(row: GameRow) -> StoredSetup:
    """The stored game's set-up, which the rules took when it was created."""
    return StoredSetup(
        players=tuple(row.players),
        first_player=row.first_player,
        seed=row.seed,
        options=row.options,
    )
