"""Why the service refuses a request, in words a player or an app developer reads.

The application layer raises these (and the domain's `RuleError` and `GameFinished`);
the HTTP layer gives each its status and problem details, the CLI prints `detail`.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.wording import Message, message
from service.application.wording import DEFAULT


class Refused(Exception):
    """A request the service refuses; `detail` says why (in English), `said` is the
    same sentence as data for the refusals a player meets (`service.application.
    wording`), `extra` adds fields a client can act on (`rule`, `line`, `version`)."""

    def __init__(self, detail: str | Message, **extra: Any) -> None:
        self.said = detail if isinstance(detail, Message) else None
        self.detail = DEFAULT.render(detail) if isinstance(detail, Message) else detail
        super().__init__(self.detail)
        self.extra = {key: value for key, value in extra.items() if value is not None}


class NotFound(Refused):
    """No such game (or step of one)."""


class Invalid(Refused):
    """A request that cannot be carried out as sent: an unknown game, another game's
    move, a reused idempotency key, an import line that is not what it should be."""


class Conflict(Refused):
    """The game is not where the request expects it: another move came first, or it
    has not finished yet."""


class Duplicate(Conflict):
    """An import of a game already stored (`service.application.exchange`);
    `game_id` names that game."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(
            message("import.duplicate", game_id=str(game_id)), game_id=str(game_id)
        )
        self.game_id = game_id


class PlayedAgain(Conflict):
    """A game played again a second time (T4, once): `game_id` names the game the
    first time made, None when the caller may not read that game."""

    def __init__(self, game_id: UUID | None) -> None:
        if game_id is None:
            super().__init__(message("rematch.made"))
        else:
            said = message("rematch.made_as", game_id=str(game_id))
            super().__init__(said, game_id=str(game_id))
        self.game_id = game_id


class TokenMissing(Refused):
    """A write without the game's write token."""


class TokenWrong(Refused):
    """A write with a token that is not the game's."""


class KeyRefused(Refused):
    """An app key that is revoked, or none where the service requires one."""


class KeyUnknown(KeyRefused):
    """An app key no app holds."""


class KeyNotAllowed(Refused):
    """An app key that does not allow what the request asks: a scope it lacks, a
    game another app created."""


class TooLarge(Refused):
    """More than the service takes in one request."""


class Busy(Refused):
    """Work the process does a few at a time, with too many already waiting: to be
    asked again in a moment."""
