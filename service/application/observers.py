"""Who the application tells of its writes: the read side (in a serving process, the
log followers and the projection runner) and an observer of every move (the
metrics), which is told of every snapshot ignored too. `Games` is given both when it
is built; a process without them says so."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from domain.history import History
from service.storage.store import GameRow


class MoveObserver(Protocol):
    """Told of every move logged and every move refused under a ruling (the HTTP
    layer's metrics); the application knows nothing of how they are counted."""

    def appended(self, game: str) -> None:
        """A move of a game of kind `game` was stored."""

    def submitted(self, seconds: float) -> None:
        """A move was decided and stored (or its stored answer found) in `seconds`."""

    def refused(self, ruling: str) -> None:
        """A move was refused under the ruling `ruling` (A1, A2, D8, ...)."""


class SnapshotObserver(Protocol):
    """Told of every stored snapshot a cold load ignores (the HTTP layer's
    metrics): see `service.application.snapshots`."""

    def snapshot_ignored(self, reason: str) -> None:
        """A snapshot was ignored for `reason` (unsigned, bad_signature, ...)."""


class Unobserved:
    """No metrics to tell: the shell's commands, the tests."""

    def appended(self, game: str) -> None:
        pass

    def submitted(self, seconds: float) -> None:
        pass

    def refused(self, ruling: str) -> None:
        pass

    def snapshot_ignored(self, reason: str) -> None:
        pass


class ReadSide(Protocol):
    """What the application tells the read side of its writes (in a serving
    process: the live log followers and the projection runner)."""

    def appended(self) -> None:
        """Events were stored: wake this process's followers of the log."""

    async def new_status(self, row: GameRow, history: History, at: datetime) -> None:
        """A game appeared or its status changed (created, finished, abandoned,
        reopened), stored at `at`: awaited before the request answers, so that the
        game list reads what the request just wrote."""


class NoReadSide:
    """A process that keeps no read model (the shell's commands, the tests): a
    serving process's projection runner catches up from the log."""

    def appended(self) -> None:
        pass

    async def new_status(self, row: GameRow, history: History, at: datetime) -> None:
        pass
