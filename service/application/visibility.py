"""Who sees a game: one rule, which every view of a game applies (docs/api.md,
"Who sees what").

A game is `public` (listed, in the feed, on the global ladders), `unlisted` (read
by whoever has its address, listed nowhere) or `members` (read only by its
group's members, with a live key of the group, or with the game's write token).
Its visibility is fixed when it is created, written with its row. To a caller who
may not read it a game does not exist: the answer is the one for a game never
created (`hidden`), never a refusal that would say there is one.

What lists a game (the game list, the feed, a player's records, the ladders) lists
the public games, and every game of the caller's own group whatever its
visibility: never another group's unlisted or members games.

The sample games (`tablelog seed`, `service.application.samples`) may be removed
(`tablelog seed --remove`): a sample removed does not exist for anyone, a member
of its group or the holder of its write token too, and nothing lists it; seeding
again brings it back. The queries that list games ask the same of the database
(`service.storage.samples.removed_game`).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Literal, Protocol
from uuid import UUID

from domain.names import name_key
from domain.wording import message
from service.application.errors import Invalid, NotFound
from service.application.tokens import token_hash

Visibility = Literal["public", "unlisted", "members"]
PUBLIC: Visibility = "public"
UNLISTED: Visibility = "unlisted"
MEMBERS: Visibility = "members"
VISIBILITIES: tuple[Visibility, ...] = (PUBLIC, UNLISTED, MEMBERS)

# What a game of no group is when its creation names none, and a group made with
# none names for its games: privacy by default where there are members to share
# with.
UNGROUPED_DEFAULT = PUBLIC
GROUP_DEFAULT = MEMBERS

NEEDS_A_GROUP = (
    "A members-only game needs a group: create it with one of the group's keys "
    "('Authorization: Bearer tlg_...', or an app key made for the group), or "
    "ask for 'public' or 'unlisted'."
)


class Shown(Protocol):
    """What the rule reads of a game: its stored row says it."""

    @property
    def visibility(self) -> str: ...

    @property
    def group(self) -> str | None: ...

    @property
    def token_hash(self) -> bytes: ...

    @property
    def sample(self) -> bool: ...


class Removals(Protocol):
    """Where the removal of the samples in force is read (the store)."""

    async def samples_removed(self) -> bool: ...


def removed(game: Shown, samples_removed: bool) -> bool:
    """Whether the game is removed: a sample while the samples are removed."""
    return game.sample and samples_removed


async def removed_now(game: Shown, removals: Removals) -> bool:
    """Whether the game is removed now: the removal in force is asked for a
    sample only, so no other game's read costs a query."""
    return game.sample and removed(game, await removals.samples_removed())


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who reads: the group whose live key the request carries (a group key, or
    an app key made for the group; None for neither) and the bearer credential it
    sent, which may be a game's write token (None for none)."""

    group: str | None = None
    credential: str | None = None

    def lists(self, game: Shown, *, removed: bool) -> bool:
        """Whether a listing shows the game: public, or of the viewer's own group,
        unless it is `removed`."""
        if removed:
            return False
        return game.visibility == PUBLIC or self.member_of(game.group)

    def member_of(self, group: str | None) -> bool:
        """Whether the viewer holds a live key of `group` (names compared as
        names are)."""
        return (
            group is not None
            and self.group is not None
            and name_key(group) == name_key(self.group)
        )

    def reads(self, game: Shown, *, removed: bool) -> bool:
        """Whether the viewer may read the game: any game but a members-only one,
        and that one with a key of its group or its write token; none that is
        `removed`."""
        if removed:
            return False
        if game.visibility != MEMBERS or self.member_of(game.group):
            return True
        return self.credential is not None and hmac.compare_digest(
            token_hash(self.credential), game.token_hash
        )


ANYONE = Viewer()


def hidden(game_id: UUID) -> NotFound:
    """What a caller who may not read the game is told: exactly what it would be
    told of a game never created."""
    return NotFound(message("game.not_found", game_id=str(game_id)))


def chosen(asked: Visibility | None, group: str | None, default: str) -> str:
    """The visibility a new game gets: the one asked for, else its group's default
    (`default`), else public; Invalid for a members-only game of no group."""
    if group is None:
        if asked == MEMBERS:
            raise Invalid(NEEDS_A_GROUP)
        return asked or UNGROUPED_DEFAULT
    return asked or default
