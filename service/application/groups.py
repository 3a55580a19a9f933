"""Groups: a family, a club, a game night, owned by the keys of its members. Only
the group's keys put games in it, so no stranger can add games to its ladder.

A group is made with its owner's key (`POST /groups`); the owner invites phones
(`tli_...` codes, each good for some uses until it expires), and each phone that
redeems one gets a member key. A key is `tlg_` and 256 random bits, shown once; only
its SHA-256 is kept, as for app keys (service/application/keys.py says why a plain
hash is right for a secret drawn at random), and so is an invite code's. A group
has one owner key at a time; it may hand ownership on to a member key, and the
operator may give a group a new owner key (`tablelog groups claim`), which revokes
the one before.

`Groups.verify` looks the key up in the database on every request, as app keys
are: a key revoked is refused by every process from the next request on. A group
is not shown to strangers: a request without one of its live keys is answered as
for a group that does not exist.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated

import msgspec
from msgspec import Meta

from domain.names import normal_name
from service.application.creating import NAME_LENGTH, InGroup, PlayerName, check_group
from service.application.errors import (
    Conflict,
    Invalid,
    KeyNotAllowed,
    KeyRefused,
    KeyUnknown,
    NotFound,
)
from service.application.keys import same_group
from service.application.visibility import GROUP_DEFAULT, Visibility
from service.storage.groups import (
    MEMBER,
    OWNER,
    REVOKED,
    GroupKeyRow,
    GroupRow,
    GroupStore,
    InviteRow,
    NameTaken,
    NewKey,
)

# What marks a bearer credential as a group's key, and a code as an invite.
PREFIX = "tlg_"
INVITE_PREFIX = "tli_"
# The page's invite link: the code rides in the fragment, which no browser sends to
# a server, so it reaches no log and no Referer.
JOIN_LINK = "/app/#/join/"

DEVICE_LENGTH = 100
# Invites a group holds live at once (not used up, expired or revoked).
MOST_LIVE_INVITES = 10
# Member keys a group holds live at once (its owner's aside).
MOST_MEMBERS = 100
# The groups one client address may make in an hour.
GROUPS_PER_HOUR = 10
MOST_USES = 100
DAY = 24 * 3600
INVITE_LASTS = 7 * DAY
INVITE_LASTS_AT_MOST = 30 * DAY
INVITE_LASTS_AT_LEAST = 60

Device = Annotated[str, Meta(min_length=1, max_length=DEVICE_LENGTH, pattern=r"\S")]


class NewGroup(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `POST /groups`: the group's name, read as a player's name is,
    the device its owner's key is for ("Ana's phone"), and who sees its games
    (members-only unless it says otherwise)."""

    name: PlayerName
    device: Device
    # Who sees the games created in it, unless a game asks for another.
    visibility: Visibility = GROUP_DEFAULT

    def __post_init__(self) -> None:
        _check_device(self.device)
        check_group(self.name, "name")
        if len(normal_name(self.name)) > NAME_LENGTH:
            raise ValueError(
                f"name must be at most {NAME_LENGTH} characters in Unicode's "
                "composed form (NFC)"
            )


class NewInvite(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `POST /groups/{id}/invites`: how many phones may join with it,
    and for how many seconds it lasts."""

    uses: Annotated[int, Meta(ge=1, le=MOST_USES)] = 1
    expires_in: Annotated[
        int, Meta(ge=INVITE_LASTS_AT_LEAST, le=INVITE_LASTS_AT_MOST)
    ] = INVITE_LASTS


class Joining(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `POST /groups/join`: an invite's code and the joining device."""

    invite: Annotated[str, Meta(max_length=200)]
    device: Device

    def __post_init__(self) -> None:
        _check_device(self.device)


class GroupVisibility(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `POST /groups/{id}/visibility`: who sees the games created in
    the group from now on (the games it holds keep theirs)."""

    visibility: Visibility


class HandingOn(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `POST /groups/{id}/owner`: the member key to become the owner's."""

    member: uuid.UUID


def _check_device(device: str) -> None:
    if "\x00" in device or any(not char.isprintable() for char in device.strip()):
        raise ValueError("device must hold no control character")


@dataclass(frozen=True, slots=True)
class Member:
    """A request's group key: its group, its id, device and role (owner or member)."""

    group: GroupRow
    key_id: uuid.UUID
    device: str
    role: str

    @property
    def joins(self) -> InGroup:
        """What a game created with this key joins: its group, by this key."""
        return InGroup(self.group.name, self.key_id, self.group.visibility)

    def of(self, group_id: uuid.UUID) -> Member:
        """This member, if of the group `group_id`; else NotFound, as a group that
        does not exist (a group is shown to its members only)."""
        if self.group.id != group_id:
            raise not_found(group_id)
        return self

    def may_write(self, group: str | None) -> None:
        """KeyNotAllowed (403) unless the game (of the group named `group`) is of
        this key's group."""
        if not same_group(group, self.group.name):
            raise KeyNotAllowed(
                f"This game is not one of the group '{self.group.name}': write to "
                "it with the game's write token."
            )

    def owner(self, may: str) -> None:
        """KeyNotAllowed (403) unless the key is the group's owner's."""
        if self.role != OWNER:
            raise KeyNotAllowed(
                f"Only the owner of the group '{self.group.name}' may {may}: this "
                "key is a member's."
            )


@dataclass(frozen=True, slots=True)
class MadeKey:
    """A key made (shown this once) with its group."""

    group: GroupRow
    key_id: uuid.UUID
    key: str
    role: str


@dataclass(frozen=True, slots=True)
class MadeInvite:
    """An invite made: its row, and its code (shown this once)."""

    invite: InviteRow
    code: str


def is_group_key(credential: str) -> bool:
    return credential.startswith(PREFIX)


def secret_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def not_found(group_id: uuid.UUID) -> NotFound:
    return NotFound(f"There is no group {group_id}.")


def member_of(member: Member | None, group_id: uuid.UUID) -> Member:
    """The request's member of the group `group_id`; NotFound, as for a group that
    does not exist, for a request without a key of it."""
    if member is None:
        raise not_found(group_id)
    return member.of(group_id)


class Groups:
    """The groups of one database, over `store` (the primary's)."""

    def __init__(self, store: GroupStore) -> None:
        self.store = store

    async def create(self, request: NewGroup) -> MadeKey:
        """A new group and its owner's key; Conflict (409) for a name taken."""
        name = normal_name(request.name)
        key, made = _new_key(request.device)
        try:
            group = await self.store.create(
                uuid.uuid4(), name, made, request.visibility
            )
        except NameTaken:
            raise Conflict(
                f"There is a group named '{name}' already: choose another name."
            ) from None
        return MadeKey(group, made.id, key, OWNER)

    async def verify(self, key: str) -> Member:
        """The member `key` stands for; KeyUnknown or KeyRefused (401) for a key no
        group holds, or one revoked."""
        found = await self.store.key_by_hash(secret_hash(key))
        if found is None:
            raise KeyUnknown("This group key is unknown: no group holds it.")
        row, group = found
        if row.role == REVOKED:
            raise KeyRefused(
                f"The group key of '{row.device}' was revoked on {_utc(row.since)} "
                f"UTC: ask the owner of '{group.name}' for a new invite."
            )
        return Member(group, row.id, row.device, row.role)

    async def members(self, member: Member) -> list[GroupKeyRow]:
        """Every key of the member's group, revoked ones too."""
        return await self.store.keys(member.group.id)

    async def invite(self, owner: Member, request: NewInvite) -> MadeInvite:
        """A new invite of the owner's group (Invalid past MOST_LIVE_INVITES)."""
        owner.owner("invite anyone")
        code = INVITE_PREFIX + secrets.token_urlsafe(16)
        invite = await self.store.add_invite(
            owner.group.id,
            uuid.uuid4(),
            secret_hash(code),
            request.uses,
            request.expires_in,
            MOST_LIVE_INVITES,
        )
        if invite is None:
            raise Invalid(
                f"The group '{owner.group.name}' has {MOST_LIVE_INVITES} live "
                "invites already, the most it may hold: revoke one first."
            )
        return MadeInvite(invite, code)

    async def invites(self, owner: Member) -> list[InviteRow]:
        owner.owner("see its invites")
        return await self.store.invites(owner.group.id)

    async def revoke_invite(self, owner: Member, invite_id: uuid.UUID) -> InviteRow:
        owner.owner("revoke an invite")
        invite = await self.store.revoke_invite(owner.group.id, invite_id)
        if invite is None:
            raise NotFound(f"The group has no invite {invite_id}.")
        return invite

    async def join(self, request: Joining) -> MadeKey:
        """A member key made with an invite; KeyRefused (401) for an invite
        unknown, revoked, expired or used up, Invalid when the group is full."""
        key, made = _new_key(request.device)
        redeemed = await self.store.redeem(
            secret_hash(request.invite.strip()), made, MOST_MEMBERS
        )
        invite, group = redeemed.invite, redeemed.group
        if invite is None or group is None:
            raise KeyUnknown(
                "This invite is unknown: check the link, or ask the group's owner "
                "for a new one."
            )
        if invite.revoked_at is not None:
            raise KeyRefused(
                f"This invite to '{group.name}' was revoked on "
                f"{_utc(invite.revoked_at)} UTC: ask the owner for a new one."
            )
        if invite.expired:
            raise KeyRefused(
                f"This invite to '{group.name}' expired on {_utc(invite.expires_at)} "
                "UTC: ask the owner for a new one."
            )
        if invite.used >= invite.uses:
            times = "once" if invite.uses == 1 else f"{invite.uses} times"
            raise KeyRefused(
                f"This invite to '{group.name}' was for {times}, and is used up: "
                "ask the owner for a new one."
            )
        if redeemed.key is None:
            raise Invalid(
                f"The group '{group.name}' has {MOST_MEMBERS} member keys already, "
                "the most it may hold: its owner may revoke one first."
            )
        return MadeKey(group, made.id, key, MEMBER)

    async def revoke_key(self, member: Member, key_id: uuid.UUID) -> GroupKeyRow:
        """Revoke a key of the group: the owner may revoke any member key, a member
        its own. The owner's own key is not revoked (Invalid): ownership is
        handed on first."""
        if key_id != member.key_id:
            member.owner("revoke another's key")
        role = await self.store.revoke_key(member.group.id, key_id)
        if role is None:
            raise NotFound(f"The group has no key {key_id}.")
        if role == OWNER:
            raise Invalid(
                "The owner's key cannot be revoked: hand ownership on to a member's "
                "key first (POST /groups/{id}/owner)."
            )
        if role == REVOKED:
            raise Invalid(f"The key {key_id} was revoked already.")
        found = await self.store.key(key_id)
        assert found is not None
        return found

    async def set_visibility(self, owner: Member, visibility: Visibility) -> GroupRow:
        """The visibility of the games created in the owner's group from now on."""
        owner.owner("change who sees its games")
        return await self.store.set_visibility(owner.group.id, visibility)

    async def hand_on(self, owner: Member, key_id: uuid.UUID) -> list[GroupKeyRow]:
        """The member key `key_id` becomes the owner's, the owner's a member's."""
        owner.owner("hand ownership on")
        if not await self.store.hand_on(owner.group.id, owner.key_id, key_id):
            raise Invalid(
                f"The key {key_id} is no live member key of '{owner.group.name}': "
                "ownership goes to a member's key."
            )
        return await self.store.keys(owner.group.id)

    async def claim(self, name: str, device: str) -> tuple[MadeKey, list[GroupKeyRow]]:
        """A new owner key of the group named `name` (as names are compared), made
        from the shell; the owner keys it revokes."""
        group = await self.store.named(normal_name(name))
        if group is None:
            raise NotFound(f"There is no group named '{name}'.")
        device = device.strip()
        if not 1 <= len(device) <= DEVICE_LENGTH:
            raise Invalid(f"A device's label is 1 to {DEVICE_LENGTH} characters.")
        key, made = _new_key(device)
        revoked = await self.store.claim(group.id, made)
        return MadeKey(group, made.id, key, OWNER), revoked

    async def list(self) -> list[GroupRow]:
        return await self.store.all()

    async def named(self, name: str) -> GroupRow:
        group = await self.store.named(normal_name(name))
        if group is None:
            raise NotFound(f"There is no group named '{name}'.")
        return group


def _new_key(device: str) -> tuple[str, NewKey]:
    key = PREFIX + secrets.token_urlsafe(32)
    return key, NewKey(uuid.uuid4(), device.strip(), secret_hash(key))


def _utc(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M}"
