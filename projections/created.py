"""A game as created, as the read models take it beside its history: what its
stored row says of it (the service's `GameRow` is one)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol
from uuid import UUID


class Created(Protocol):
    """The fields of a game's row that its read models read: set at its creation,
    never changed."""

    @property
    def id(self) -> UUID: ...

    @property
    def game(self) -> str: ...

    @property
    def players(self) -> Sequence[str]:
        """In seating order."""

    @property
    def first_player(self) -> str: ...

    @property
    def title(self) -> str | None: ...

    @property
    def group(self) -> str | None: ...

    @property
    def created_at(self) -> datetime: ...

    @property
    def variation_of(self) -> UUID | None:
        """Set on a variation: the game it branched from, at `variation_step`."""

    @property
    def variation_step(self) -> int | None: ...

    @property
    def visibility(self) -> str:
        """Who sees it: `public`, `unlisted` or `members`."""

    @property
    def sample(self) -> bool:
        """Whether it is a sample game (`tablelog seed`): on its group's ladder
        alone, never on its game's own."""

    @property
    def keyed(self) -> bool:
        """Whether it was created (or imported) with a key, an app's or a
        group's."""
