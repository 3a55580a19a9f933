"""The read side of a serving process, as the application sees it (`ReadSide`): the
followers of the log (the live streams, the webhooks' deliverer), woken by every
append, and the projection runner, which writes a game's summary as soon as its
status changes."""

from __future__ import annotations

from datetime import datetime

from domain.history import History
from service.readside.deliverer import Deliverer
from service.readside.live import LiveLog
from service.readside.projector import Projector
from service.storage.store import GameRow


class Followers:
    def __init__(
        self, live: LiveLog, projector: Projector, deliverer: Deliverer | None = None
    ) -> None:
        self._live = live
        self._projector = projector
        self._deliverer = deliverer

    def appended(self) -> None:
        self._live.wake()
        self._projector.wake()
        if self._deliverer is not None:
            self._deliverer.wake()

    async def new_status(self, row: GameRow, history: History, at: datetime) -> None:
        await self._projector.summarise_now(row, history, at)
