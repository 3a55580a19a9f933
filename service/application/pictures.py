"""Pictures of a game's replay steps: one step as a still (SVG, PNG), or a run of
steps as an animated GIF.

Each step's picture is described from its public state and sentence
(`domain.picture`), then drawn by the renderer of the format asked, both in a worker
thread: a GIF of 200 steps is a second or more of work, which the event loop
would otherwise spend away from every other request. The bounds, each in
docs/api.md (Limits):

- at most `workers` pictures are drawn at once in a process, and at most `waiting`
  more wait for a worker; past them a request is refused at once (`Busy`, a 503
  with Retry-After) rather than queued without end;
- a GIF holds at most `MAX_FRAMES` steps, and every picture has the one fixed size
  of `domain.picture`;
- a drawing over `max_bytes` is refused rather than sent;
- what was drawn is kept, by game, version, steps, format and language, in a cache
  bounded by the bytes it holds: the same picture asked again costs no drawing, and
  asked while it is drawn, it waits for that one drawing.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import anyio
import msgspec

from domain.frame import pictured
from domain.history import History, Recorded, Truncated
from domain.picture import Picture
from domain.wording import Language, message
from projections import replay
from service.application.errors import Busy, Invalid, NotFound
from service.application.games import Games
from service.application.timeline import Timeline

# The steps one GIF may show.
MAX_FRAMES = 200
# Pictures drawn at once in a process, and requests that may wait for one.
WORKERS = 2
WAITING = 8
# The largest picture answered, and the bytes the cache keeps in all.
MAX_BYTES = 8 * 1024 * 1024
CACHE_BYTES = 32 * 1024 * 1024

# A renderer: the pictures of the steps asked, in order, to the bytes answered.
Renderer = Callable[[Sequence[Picture]], bytes]


class Drawn(msgspec.Struct, frozen=True):
    """A picture as answered, and the game's version it shows the steps of."""

    content: bytes
    version: int


class Pictures:
    """The pictures of one process: drawn by `renderers` (by format name), at most
    `workers` at once, kept in a cache of at most `cache_bytes`."""

    def __init__(
        self,
        games: Games,
        renderers: Mapping[str, Renderer],
        *,
        workers: int = WORKERS,
        waiting: int = WAITING,
        max_bytes: int = MAX_BYTES,
        cache_bytes: int = CACHE_BYTES,
    ) -> None:
        self.games = games
        self.renderers = renderers
        self.workers = anyio.CapacityLimiter(workers)
        self.waiting = waiting
        self.max_bytes = max_bytes
        self.cache = DrawnCache(cache_bytes)
        self._in_flight = 0
        self._drawing: dict[Any, asyncio.Future[bytes]] = {}

    async def draw(
        self,
        game_id: uuid.UUID,
        first: int,
        last: int | None,
        kind: str,
        language: Language,
    ) -> Drawn:
        """Steps `first` to `last` of the game (one step for a still; None: as far
        as the game and `MAX_FRAMES` go) as `kind` draws them, in `language`.
        NotFound for a step the game does not have; Invalid for a run backwards or
        longer than `MAX_FRAMES`, or a drawing over `max_bytes`; Busy when too many
        pictures are being drawn."""
        if last is not None:
            _check_run(first, last)
        timeline = await self.games.timeline(game_id)
        moves = timeline.moves
        if last is None:
            last = max(first, min(moves, first + MAX_FRAMES - 1))
        for step in (first, last):
            if not 0 <= step <= moves:
                raise NotFound(message("game.no_step", last=moves, step=step))
        key = (game_id, timeline.version, first, last, kind, language.code)
        if (content := self.cache.get(key)) is not None:
            return Drawn(content, timeline.version)
        # The same picture asked again while it is drawn waits for that drawing.
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = asyncio.ensure_future(
                self._kept(key, timeline, first, last, kind, language)
            )
            self._drawing[key] = drawing
            drawing.add_done_callback(lambda done: self._finished(key, done))
        # Shielded: a request that goes away leaves the drawing to the others.
        return Drawn(await asyncio.shield(drawing), timeline.version)

    def _finished(self, key: Any, drawing: asyncio.Future[bytes]) -> None:
        del self._drawing[key]
        if not drawing.cancelled():
            drawing.exception()  # retrieved: every request may have gone away

    async def _kept(
        self,
        key: Any,
        timeline: Timeline,
        first: int,
        last: int,
        kind: str,
        language: Language,
    ) -> bytes:
        """The picture drawn, refused if too large, and kept in the cache."""
        game_id = key[0]
        content = await self._drawn(game_id, timeline, first, last, kind, language)
        if len(content) > self.max_bytes:
            raise Invalid(
                f"These steps make a picture over {self.max_bytes:,} bytes: "
                "ask for fewer."
            )
        self.cache.put(key, content)
        return content

    async def _drawn(
        self,
        game_id: uuid.UUID,
        timeline: Timeline,
        first: int,
        last: int,
        kind: str,
        language: Language,
    ) -> bytes:
        if self._in_flight >= self.workers.total_tokens + self.waiting:
            raise Busy("Too many pictures are being drawn: ask again in a moment.")
        render = self.renderers[kind]
        self._in_flight += 1
        try:
            try:
                steps = timeline.steps()
                return await self._in_worker(render, *steps, first, last, language)
            except Truncated:
                # A step before the snapshot the timeline resumed from, or an undo's
                # sentence naming a move before it: the game folded whole.
                whole = await self.games.timeline(game_id, whole=True)
                steps = whole.steps()
                return await self._in_worker(render, *steps, first, last, language)
        finally:
            self._in_flight -= 1

    async def _in_worker(
        self,
        render: Renderer,
        histories: Sequence[History],
        records: Sequence[Recorded],
        first: int,
        last: int,
        language: Language,
    ) -> bytes:
        def drawn() -> bytes:
            return render(
                [
                    step_picture(histories, records, n, language)
                    for n in range(first, last + 1)
                ]
            )

        return await anyio.to_thread.run_sync(drawn, limiter=self.workers)


def _check_run(first: int, last: int) -> None:
    if first > last:
        raise Invalid(f"The steps run from `from` to `to`: {first} is after {last}.")
    if last - first + 1 > MAX_FRAMES:
        raise Invalid(
            f"A picture shows at most {MAX_FRAMES} steps, not {last - first + 1}."
        )


def step_picture(
    histories: Sequence[History],
    records: Sequence[Recorded],
    step: int,
    language: Language,
) -> Picture:
    """Step `step`'s picture: the game after its first `step` moves."""
    after = histories[step]
    sentence = (
        None if step == 0 else replay.description(histories, records, step, language)
    )
    return pictured(after.rules, after.view(), step, sentence, language)


class DrawnCache:
    """Pictures drawn, least recently asked dropped first once they hold more than
    `limit` bytes in all."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0
        self._entries: OrderedDict[Any, bytes] = OrderedDict()

    def get(self, key: Any) -> bytes | None:
        content = self._entries.get(key)
        if content is not None:
            self._entries.move_to_end(key)
        return content

    def put(self, key: Any, content: bytes) -> None:
        if len(content) > self.limit or key in self._entries:
            return
        self._entries[key] = content
        self.held += len(content)
        while self.held > self.limit:
            _, dropped = self._entries.popitem(last=False)
            self.held -= len(dropped)

    def __len__(self) -> int:
        return len(self._entries)
