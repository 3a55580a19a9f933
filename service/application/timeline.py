"""Games kept in memory between requests: each game's history after every stored
move, in a small LRU cache, caught up from the store on demand.

An append or a replay step then reads only the events the process has not seen. The
cache is an optimisation only: the store's (game, version) key decides every race, and
a timeline that is behind is caught up, never trusted for a write.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Mapping

from domain.game import Rules, Setup
from domain.history import Codec, History, Recorded
from service.application.errors import NotFound
from service.storage.store import EventStore, GameRow


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


class Timelines:
    """The cache: at most `size` games, the least recently used dropped first."""

    def __init__(
        self, store: EventStore, rules: Mapping[str, Rules], size: int
    ) -> None:
        self._store = store
        self._rules = rules
        self._codecs = {name: Codec(r) for name, r in rules.items()}
        self._cache: OrderedDict[uuid.UUID, Timeline] = OrderedDict()
        self._size = size

    def cached(self, game_id: uuid.UUID) -> Timeline | None:
        """The game as this process last saw it, which may be behind the store."""
        return self._cache.get(game_id)

    async def load(self, game_id: uuid.UUID) -> Timeline:
        """The game as stored now (caught up with moves other processes appended)."""
        timeline = self._cache.get(game_id)
        if timeline is None:
            row = await self.row(game_id)
            timeline = Timeline(
                row, History.start(self._rules[row.game], setup_of(row))
            )
        codec = self._codecs[timeline.row.game]
        for event in await self._store.read(game_id, timeline.latest.version):
            timeline.add(event.version, codec.record_from_json(event.data))
        self.remember(timeline)
        return timeline

    def codec(self, game: str) -> Codec:
        """The decoders of a game's stored rows."""
        return self._codecs[game]

    async def row(self, game_id: uuid.UUID) -> GameRow:
        row = await self._store.get_game(game_id)
        if row is None:
            raise NotFound(f"There is no game {game_id}.")
        return row

    def remember(self, timeline: Timeline) -> None:
        timeline = self._cache.setdefault(timeline.row.id, timeline)
        self._cache.move_to_end(timeline.row.id)
        while len(self._cache) > self._size:
            self._cache.popitem(last=False)


def setup_of(row: GameRow) -> Setup:
    return Setup(
        players=tuple(row.players),
        first_player=row.first_player,
        seed=row.seed,
        options=row.options,
    )
