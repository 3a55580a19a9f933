"""Groups over HTTP (docs/api.md, "Groups"): a group is made with its owner's key,
which invites phones; each phone joins with an invite and gets a member key. Every
route of a group needs a live key of it (`Authorization: Bearer tlg_...`): without
one, the group is answered as one that does not exist (404)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, cast
from uuid import UUID

import msgspec
from litestar import Controller, Response, delete, get, post
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from service.application.groups import (
    GROUPS_PER_HOUR,
    INVITE_LASTS_AT_MOST,
    JOIN_LINK,
    MOST_LIVE_INVITES,
    MOST_MEMBERS,
    Groups,
    GroupVisibility,
    HandingOn,
    Joining,
    MadeKey,
    Member,
    NewGroup,
    NewInvite,
    member_of,
)
from service.application.visibility import Visibility
from service.http.bodies import MAX_JSON_BODY_BYTES, strict_body
from service.http.callers import GROUP_KEY_SCHEME
from service.http.headers import declared
from service.http.limits import CREATES_GROUPS
from service.http.problems import problems
from service.storage.groups import REVOKED, GroupKeyRow, GroupRow, InviteRow

_KEYED = {"security": [{GROUP_KEY_SCHEME: []}]}
_NO_BODY = {"opt": {"body_media_type": None}, **_KEYED}

GROUP_LOCATION = ResponseHeader(
    name="Location",
    description="The new group's address (`/groups/{id}`).",
    documentation_only=True,
)


# A key's role: the group's owner's (one key at a time), a member's, or revoked.
Role = Literal["owner", "member", "revoked"]
# The role of a key in force.
LiveRole = Literal["owner", "member"]


class GroupKey(msgspec.Struct, kw_only=True):
    """A key of a group, never the key itself: its id, the device it is for, its
    role (`owner`, `member` or `revoked`), when it was made and revoked."""

    id: UUID
    device: str
    role: Role
    created_at: datetime
    revoked_at: datetime | None


class GroupView(msgspec.Struct, kw_only=True):
    """A group as its members see it: the caller's role, the live keys, and who
    sees the games created in it (`visibility`)."""

    id: UUID
    name: str
    created_at: datetime
    role: LiveRole
    members: list[GroupKey]
    visibility: Visibility


class GroupKeys(msgspec.Struct, kw_only=True):
    members: list[GroupKey]


class NewKey(msgspec.Struct, kw_only=True):
    """A group's key, shown this once: `key` is sent as `Authorization: Bearer`."""

    key: str
    key_id: UUID
    role: LiveRole


class CreatedGroup(NewKey, kw_only=True):
    id: UUID
    name: str
    created_at: datetime
    visibility: Visibility


class GroupName(msgspec.Struct, kw_only=True):
    id: UUID
    name: str


class JoinedGroup(NewKey, kw_only=True):
    group: GroupName


class Invite(msgspec.Struct, kw_only=True):
    """An invite, never its code: how many may join with it (`uses`), how many
    did (`used`), until when, and when it was revoked."""

    id: UUID
    uses: int
    used: int
    expires_at: datetime
    created_at: datetime
    revoked_at: datetime | None


class CreatedInvite(msgspec.Struct, kw_only=True):
    """An invite with its code and the page's link, shown this once."""

    id: UUID
    code: str
    link: str
    uses: int
    used: int
    expires_at: datetime


class InviteList(msgspec.Struct, kw_only=True):
    invites: list[Invite]


def key_of(row: GroupKeyRow) -> GroupKey:
    revoked = row.since if row.role == REVOKED else None
    return GroupKey(
        id=row.id,
        device=row.device,
        role=row.role,
        created_at=row.created_at,
        revoked_at=revoked,
    )


def invite_of(row: InviteRow) -> Invite:
    return Invite(
        id=row.id,
        uses=row.uses,
        used=row.used,
        expires_at=row.expires_at,
        created_at=row.created_at,
        revoked_at=row.revoked_at,
    )


def _visibility(group: GroupRow) -> Visibility:
    return cast(Visibility, group.visibility)


def _view(caller: Member, group: GroupRow, keys: list[GroupKeyRow]) -> GroupView:
    return GroupView(
        id=group.id,
        name=group.name,
        created_at=group.created_at,
        role=caller.role,
        members=[key_of(row) for row in keys if row.role != REVOKED],
        visibility=_visibility(group),
    )


def _made(made: MadeKey) -> dict:
    return {"key": made.key, "key_id": made.key_id, "role": made.role}


class GroupController(Controller):
    path = "/groups"
    tags = ("groups",)

    @post(
        "/",
        status_code=201,
        summary="Make a group, and its owner's key",
        description="No key needed. The name is read as a player's name is, and "
        "no two groups share one (409). The answer's `key` (`tlg_...`) is the "
        "owner's, shown this once: only its hash is kept. `visibility`: who sees "
        "the games created in it unless a game asks for another (`members` by "
        "default: its members only). Each client address "
        f"may make {GROUPS_PER_HOUR} groups an hour (429 with Retry-After past it).",
        dto=strict_body(NewGroup),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        opt={CREATES_GROUPS: True},
        responses=problems(409, 413, 415, 422, 429, 503),
        response_headers=[GROUP_LOCATION],
        operation_class=declared(),
    )
    async def create_group(
        self, data: JSONBody[NewGroup], groups: NamedDependency[Groups]
    ) -> Response[CreatedGroup]:
        made = await groups.create(data)
        group = made.group
        answer = CreatedGroup(
            id=group.id,
            name=group.name,
            created_at=group.created_at,
            visibility=_visibility(group),
            **_made(made),
        )
        return Response(
            answer, status_code=201, headers={"Location": f"/groups/{group.id}"}
        )

    @post(
        "/join",
        status_code=201,
        summary="Join a group with an invite: a member's key",
        description="No key needed: the invite's code (`tli_...`) is the "
        "credential. The answer's `key` (`tlg_...`) is shown this once. An "
        "invite unknown, revoked, expired or used up is a 401 saying which; a "
        f"group holding {MOST_MEMBERS} live member keys a 422.",
        dto=strict_body(Joining),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        responses=problems(401, 413, 415, 422, 503),
        operation_class=declared(),
    )
    async def join_group(
        self, data: JSONBody[Joining], groups: NamedDependency[Groups]
    ) -> Response[JoinedGroup]:
        made = await groups.join(data)
        answer = JoinedGroup(
            group=GroupName(id=made.group.id, name=made.group.name), **_made(made)
        )
        return Response(answer, status_code=201)

    @get(
        "/{group_id:uuid}",
        summary="A group, as its members see it",
        description="Any live key of the group: its name, the caller's role and "
        "the live keys (never a key itself). Without one, a 404 as for a group "
        "that does not exist.",
        responses=problems(401, 404, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def get_group(
        self,
        group_id: FromPath[UUID],
        groups: NamedDependency[Groups],
        member: NamedDependency[Member | None],
    ) -> GroupView:
        caller = member_of(member, group_id)
        keys = await groups.members(caller)
        group = caller.group
        return _view(caller, group, keys)

    @post(
        "/{group_id:uuid}/visibility",
        status_code=200,
        summary="Change who sees the games created in the group from now on",
        description="The owner's key. `visibility`: `public`, `unlisted` or "
        "`members`, for the games created in the group from now on, unless a game "
        "asks for another; a game keeps the visibility it was created with. Every "
        "change is kept; the latest is in force.",
        dto=strict_body(GroupVisibility),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        responses=problems(401, 403, 404, 413, 415, 422, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def set_group_visibility(
        self,
        group_id: FromPath[UUID],
        data: JSONBody[GroupVisibility],
        groups: NamedDependency[Groups],
        member: NamedDependency[Member | None],
    ) -> GroupView:
        caller = member_of(member, group_id)
        group = await groups.set_visibility(caller, data.visibility)
        return _view(caller, group, await groups.members(caller))

    @post(
        "/{group_id:uuid}/invites",
        status_code=201,
        summary="Invite phones into the group",
        description="The owner's key. `uses`: how many phones may join with it "
        "(1 to 100, default 1); `expires_in`: for how many seconds (60 to "
        f"{INVITE_LASTS_AT_MOST}, default a week). The `code` (`tli_...`) is "
        "shown this once; `link` is the page's, which keeps the code in the "
        "fragment (no server sees it). A group holds at most "
        f"{MOST_LIVE_INVITES} live invites (422 past it).",
        dto=strict_body(NewInvite),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        responses=problems(401, 403, 404, 413, 415, 422, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def create_invite(
        self,
        group_id: FromPath[UUID],
        data: JSONBody[NewInvite],
        groups: NamedDependency[Groups],
        member: NamedDependency[Member | None],
    ) -> Response[CreatedInvite]:
        made = await groups.invite(member_of(member, group_id), data)
        invite = made.invite
        answer = CreatedInvite(
            id=invite.id,
            code=made.code,
            link=JOIN_LINK + made.code,
            uses=invite.uses,
            used=invite.used,
            expires_at=invite.expires_at,
        )
        return Response(answer, status_code=201)

    @get(
        "/{group_id:uuid}/invites",
        summary="The group's invites, oldest first, never their codes",
        description="The owner's key.",
        responses=problems(401, 403, 404, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def list_invites(
        self,
        group_id: FromPath[UUID],
        groups: NamedDependency[Groups],
        member: NamedDependency[Member | None],
    ) -> InviteList:
        rows = await groups.invites(member_of(member, group_id))
        return InviteList(invites=[invite_of(row) for row in rows])

    @delete(
        "/{group_id:uuid}/invites/{invite_id:uuid}",
        status_code=200,
        summary="Revoke an invite",
        description="The owner's key. No one joins with it from now on.",
        responses=problems(401, 403, 404, 503),
        operation_class=declared(),
        **_NO_BODY,
    )
    async def revoke_invite(
        self,
        group_id: FromPath[UUID],
        invite_id: FromPath[UUID],
        groups: NamedDependency[Groups],
        member: NamedDependency[Member | None],
    ) -> Invite:
        row = await groups.revoke_invite(member_of(member, group_id), invite_id)
        return invite_of(row)

    @get(
        "/{group_id:uuid}/members",
        summary="Every key of the group, revoked ones too, never a key itself",
        description="The owner's key.",
        responses=problems(401, 403, 404, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def list_members(
        self,
        group_id: FromPath[UUID],
        groups: NamedDependency[Groups],
        member: NamedDependency[Member | None],
    ) -> GroupKeys:
        caller = member_of(member, group_id)
        caller.owner("list its keys")
        return GroupKeys(members=[key_of(row) for row in await groups.members(caller)])

    @delete(
        "/{group_id:uuid}/members/{key_id:uuid}",
        status_code=200,
        summary="Revoke a key of the group",
        description="The owner's key, or a member's for its own key. Every request "
        "with the key is refused from now on (401), by every server process. The "
        "owner's own key cannot be revoked (422): hand ownership on first.",
        responses=problems(401, 403, 404, 422, 503),
        operation_class=declared(),
        **_NO_BODY,
    )
    async def revoke_member(
        self,
        group_id: FromPath[UUID],
        key_id: FromPath[UUID],
        groups: NamedDependency[Groups],
        member: NamedDependency[Member | None],
    ) -> GroupKey:
        row = await groups.revoke_key(member_of(member, group_id), key_id)
        return key_of(row)

    @post(
        "/{group_id:uuid}/owner",
        status_code=200,
        summary="Hand ownership on to a member's key",
        description="The owner's key. `member`: a live member key's id, which "
        "becomes the owner's key as the caller's becomes a member's, at once.",
        dto=strict_body(HandingOn),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        responses=problems(401, 403, 404, 413, 415, 422, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def hand_ownership_on(
        self,
        group_id: FromPath[UUID],
        data: JSONBody[HandingOn],
        groups: NamedDependency[Groups],
        member: NamedDependency[Member | None],
    ) -> GroupKeys:
        rows = await groups.hand_on(member_of(member, group_id), data.member)
        return GroupKeys(members=[key_of(row) for row in rows])
