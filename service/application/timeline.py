"""Games kept in memory between requests: each game's history after every stored
move, in an LRU cache bounded by the moves it holds, caught up from the store on
demand.

An append or a replay step then reads only the events the process has not seen. The
cache is an optimisation only: the store's (game, version) key decides every race, and
a timeline that is behind is caught up, never trusted for a write.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence

import anyio

from domain.game import Rules, Setup
from domain.history import Codec, History, Recorded
from domain.wording import message
from service.application.errors import NotFound
from service.storage.store import EventStore, GameRow

# A fold of more moves than this is done in a worker thread: folding 5,000 moves
# takes some 150 ms, which the event loop would otherwise spend away from every
# other request.
FOLD_IN_THREAD = 500


class Timeline:
    """A game's histories after each stored move: `at(v)` is the game at version v.

    Only ever extended, and only in version order, so concurrent requests of one
    process can share it: a version some other request already added is skipped.
    """

    __slots__ = ("histories", "records", "row")

    def __init__(self, row: GameRow, start: History) -> None:
        self.row = row
        self.histories = [start]
        self.records: list[Recorded] = []

    @property
    def latest(self) -> History:
        return self.histories[-1]

    def at(self, version: int) -> History:
        return self.histories[version - 1]

    def add(self, version: int, record: Recorded) -> None:
        if version == self.latest.version + 1:
            self.histories.append(self.latest.apply(record))
            self.records.append(record)

    def extend(
        self, events: Sequence[tuple[int, str]], decode: Callable[[str], Recorded]
    ) -> None:
        """`add` for each stored (version, data) in turn, decoding only those it
        keeps: one loop with no call per event but the decode and the fold, as a
        cold load of a long game makes one turn per stored move."""
        histories, records = self.histories, self.records
        history = histories[-1]
        for version, data in events:
            if version == history.version + 1:
                record = decode(data)
                history = history.apply(record)
                histories.append(history)
                records.append(record)


class Timelines:
    """The cache: at most `games` games holding at most `moves` stored moves in all
    (a game's creation counts as one), the least recently used dropped first.

    Memory grows with the moves held, not with the games: a folded move costs about
    1 to 2.5 KB (a state and a record per move; measured with tracemalloc on
    simulated games of every kind), so the count of moves is what bounds it. A game
    longer than the whole bound is still folded and served, just not kept.
    """

    def __init__(
        self,
        store: EventStore,
        rules: Mapping[str, Rules],
        games: int,
        moves: int,
        heavy_work: anyio.CapacityLimiter,
    ) -> None:
        self._store = store
        self._heavy_work = heavy_work
        self._rules = rules
        self._codecs = {name: Codec(r) for name, r in rules.items()}
        self._cache: OrderedDict[uuid.UUID, Timeline] = OrderedDict()
        self._games = games
        self._moves = moves
        # What each cached game counted for when last remembered, and their sum.
        self._counted: dict[uuid.UUID, int] = {}
        self._held = 0

    @property
    def moves_held(self) -> int:
        """The stored moves the cache holds (each game's creation counts as one)."""
        return self._held

    def games_held(self) -> int:
        return len(self._cache)

    def cached(self, game_id: uuid.UUID) -> Timeline | None:
        """The game as this process last saw it, which may be behind the store."""
        return self._cache.get(game_id)

    async def load(self, game_id: uuid.UUID) -> Timeline:
        """The game as stored now (caught up with moves other processes appended)."""
        timeline = self._cache.get(game_id)
        fresh = timeline is None
        if timeline is None:
            row = await self.row(game_id)
            timeline = Timeline(
                row, History.start(self._rules[row.game], setup_of(row))
            )
        events = await self._store.read_data(game_id, timeline.latest.version)
        if fresh and len(events) > FOLD_IN_THREAD:
            # Only a timeline no other request can see yet is folded off the loop.
            await anyio.to_thread.run_sync(
                self._fold, timeline, events, limiter=self._heavy_work
            )
        else:
            self._fold(timeline, events)
        self.remember(timeline)
        return timeline

    def _fold(self, timeline: Timeline, events: Sequence[tuple[int, str]]) -> None:
        timeline.extend(events, self._codecs[timeline.row.game].record_from_json)

    def codec(self, game: str) -> Codec:
        """The decoders of a game's stored rows."""
        return self._codecs[game]

    async def row(self, game_id: uuid.UUID) -> GameRow:
        row = await self._store.get_game(game_id)
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
            dropped, _ = self._cache.popitem(last=False)
            self._held -= self._counted.pop(dropped)


def setup_of(row: GameRow) -> Setup:
    return Setup(
        players=tuple(row.players),
        first_player=row.first_player,
        seed=row.seed,
        options=row.options,
    )
