"""Groups as stored (migrations 0021, 0022): each group, its keys and their roles,
its invites and their revocations, the visibility of the games made in it. Nothing
here is ever updated or deleted: a key's role, and a group's visibility, in force
is its latest row.

The writes that could race (the last use of an invite, the group's owner, its
limits) take the group's advisory lock for their transaction: the serving role may
not lock an append-only table's rows (`SELECT ... FOR UPDATE` needs UPDATE).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from psycopg import AsyncConnection, errors
from psycopg_pool import AsyncConnectionPool

OWNER, MEMBER, REVOKED = "owner", "member", "revoked"

# A group's visibility in force (migration 0022): its latest row. A group has one
# from its creation; one without reads as members-only, privacy by default.
GROUP_VISIBILITY = (
    "coalesce((SELECT v.visibility FROM group_visibilities v"
    " WHERE v.group_id = g.id ORDER BY v.seq DESC LIMIT 1), 'members')"
)
_GROUP = f"g.id, g.name, g.created_at, {GROUP_VISIBILITY}"
# A key with its role in force and when it took it.
_KEY = (
    "k.id, k.group_id, k.device, k.created_at, r.role, r.at"
    " FROM group_keys k CROSS JOIN LATERAL (SELECT role, at FROM group_key_roles"
    " WHERE key_id = k.id ORDER BY seq DESC LIMIT 1) r"
)
_INVITE = (
    "i.id, i.group_id, i.uses,"
    " (SELECT count(*) FROM group_keys k WHERE k.invite_id = i.id)::int,"
    " i.expires_at, i.expires_at <= now(), i.created_at, v.revoked_at"
    " FROM group_invites i LEFT JOIN group_invite_revocations v ON v.invite_id = i.id"
)


@dataclass(frozen=True, slots=True)
class GroupRow:
    """A group, with the visibility the games created in it get unless they ask
    for another."""

    id: UUID
    name: str
    created_at: datetime
    visibility: str


@dataclass(frozen=True, slots=True)
class GroupKeyRow:
    """A key with its role in force (`revoked` once revoked) since `since`."""

    id: UUID
    group_id: UUID
    device: str
    created_at: datetime
    role: str
    since: datetime


@dataclass(frozen=True, slots=True)
class InviteRow:
    id: UUID
    group_id: UUID
    uses: int
    used: int
    expires_at: datetime
    expired: bool
    created_at: datetime
    revoked_at: datetime | None

    @property
    def live(self) -> bool:
        return self.revoked_at is None and not self.expired and self.used < self.uses


class NameTaken(Exception):
    """Another group holds the name, as names are compared."""


@dataclass(frozen=True, slots=True)
class NewKey:
    """A key to store: its id, its device and its hash."""

    id: UUID
    device: str
    key_hash: bytes


@dataclass(frozen=True, slots=True)
class Redemption:
    """What redeeming an invite found, under the group's lock: the invite (None: no
    invite has that code), its group, the group's live member keys before, and the
    key made (None: the invite or the group's limit refused it)."""

    invite: InviteRow | None
    group: GroupRow | None
    members: int
    key: GroupKeyRow | None


class GroupStore:
    """The groups of one database, over `pool`: the primary's, so that a key revoked
    there is refused by the next lookup of every process."""

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self._pool = pool

    async def create(
        self, id: UUID, name: str, owner: NewKey, visibility: str
    ) -> GroupRow:
        """A new group, its owner's key and its games' visibility; NameTaken if the
        name is another's."""
        async with self._pool.connection() as conn, conn.transaction():
            try:
                await conn.execute(
                    "INSERT INTO groups (id, name) VALUES (%s, %s)", (id, name)
                )
            except errors.UniqueViolation:
                raise NameTaken(name) from None
            await _add_key(conn, id, owner, OWNER)
            await _set_visibility(conn, id, visibility)
            found = await _group(conn, "g.id = %s", id)
        assert found is not None
        return found

    async def get(self, id: UUID) -> GroupRow | None:
        async with self._pool.connection() as conn:
            return await _group(conn, "g.id = %s", id)

    async def named(self, name: str) -> GroupRow | None:
        """The group whose name is `name` as names are compared."""
        async with self._pool.connection() as conn:
            return await _group(conn, "g.name_key = player_key(%s)", name)

    async def all(self) -> list[GroupRow]:
        """Every group, the oldest first."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_GROUP} FROM groups g ORDER BY g.created_at, g.id"
            )
            return [GroupRow(*row) for row in await cursor.fetchall()]

    async def key_by_hash(self, key_hash: bytes) -> tuple[GroupKeyRow, GroupRow] | None:
        """The key that hashes to `key_hash`, whatever its role, with its group."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_KEY} WHERE k.key_hash = %s", (key_hash,)
            )
            row = await cursor.fetchone()
            if row is None:
                return None
            key = GroupKeyRow(*row)
            group = await _group(conn, "g.id = %s", key.group_id)
        assert group is not None
        return key, group

    async def keys(self, group_id: UUID) -> list[GroupKeyRow]:
        """Every key of the group, revoked ones too, the oldest first."""
        async with self._pool.connection() as conn:
            return await _keys(conn, group_id)

    async def invites(self, group_id: UUID) -> list[InviteRow]:
        """Every invite of the group, the oldest first."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_INVITE} WHERE i.group_id = %s ORDER BY i.created_at, i.id",
                (group_id,),
            )
            return [InviteRow(*row) for row in await cursor.fetchall()]

    async def add_invite(
        self,
        group_id: UUID,
        id: UUID,
        code_hash: bytes,
        uses: int,
        lasts_seconds: int,
        most_live: int,
    ) -> InviteRow | None:
        """A new invite; None when the group holds `most_live` live ones already."""
        async with self._locked(group_id) as conn:
            live = [i for i in await _invites(conn, group_id) if i.live]
            if len(live) >= most_live:
                return None
            await conn.execute(
                "INSERT INTO group_invites (id, group_id, code_hash, uses, expires_at)"
                " VALUES (%s, %s, %s, %s, now() + make_interval(secs => %s))",
                (id, group_id, code_hash, uses, lasts_seconds),
            )
            return await _invite(conn, "i.id = %s", id)

    async def revoke_invite(self, group_id: UUID, id: UUID) -> InviteRow | None:
        """The invite once revoked (revoked already: as it was); None if the group
        has no such invite."""
        async with self._pool.connection() as conn, conn.transaction():
            found = await _invite(conn, "i.id = %s AND i.group_id = %s", id, group_id)
            if found is None:
                return None
            await conn.execute(
                "INSERT INTO group_invite_revocations (invite_id) VALUES (%s)"
                " ON CONFLICT (invite_id) DO NOTHING",
                (id,),
            )
            return await _invite(conn, "i.id = %s", id)

    async def redeem(
        self, code_hash: bytes, key: NewKey, most_members: int
    ) -> Redemption:
        """A member key made with the invite whose code hashes to `code_hash`, if
        it is live and the group has room (see `Redemption`)."""
        async with self._pool.connection() as conn:
            found = await _invite(conn, "i.code_hash = %s", code_hash)
        if found is None:
            return Redemption(None, None, 0, None)
        async with self._locked(found.group_id) as conn:
            # Read again under the lock: another redemption may have used it.
            invite = await _invite(conn, "i.id = %s", found.id)
            group = await _group(conn, "g.id = %s", found.group_id)
            assert invite is not None
            members = sum(k.role == MEMBER for k in await _keys(conn, invite.group_id))
            if not invite.live or members >= most_members:
                return Redemption(invite, group, members, None)
            await _add_key(conn, invite.group_id, key, MEMBER, invite.id)
            made = await _key(conn, key.id)
        return Redemption(invite, group, members, made)

    async def claim(self, group_id: UUID, key: NewKey) -> list[GroupKeyRow]:
        """A new owner key of the group; every owner key before it revoked, which
        are returned."""
        async with self._locked(group_id) as conn:
            owners = [k for k in await _keys(conn, group_id) if k.role == OWNER]
            for owner in owners:
                await _set_role(conn, owner.id, REVOKED)
            await _add_key(conn, group_id, key, OWNER)
        return owners

    async def hand_on(self, group_id: UUID, owner: UUID, member: UUID) -> bool:
        """`member`'s key becomes the owner's and `owner`'s a member's, in one
        transaction; False (nothing changed) unless `owner` is the group's owner
        key and `member` one of its member keys."""
        async with self._locked(group_id) as conn:
            roles = {k.id: k.role for k in await _keys(conn, group_id)}
            if roles.get(owner) != OWNER or roles.get(member) != MEMBER:
                return False
            await _set_role(conn, member, OWNER)
            await _set_role(conn, owner, MEMBER)
            return True

    async def revoke_key(self, group_id: UUID, key_id: UUID) -> str | None:
        """Revoke a member key of the group: its role before (`owner`: nothing
        was done, an owner key is not revoked so), None for no such key."""
        async with self._locked(group_id) as conn:
            roles = {k.id: k.role for k in await _keys(conn, group_id)}
            role = roles.get(key_id)
            if role == MEMBER:
                await _set_role(conn, key_id, REVOKED)
            return role

    async def set_visibility(self, group_id: UUID, visibility: str) -> GroupRow:
        """The group's games created from now on get `visibility`: a row of its
        own, the latest in force."""
        async with self._pool.connection() as conn, conn.transaction():
            await _set_visibility(conn, group_id, visibility)
            found = await _group(conn, "g.id = %s", group_id)
        assert found is not None
        return found

    async def key(self, key_id: UUID) -> GroupKeyRow | None:
        async with self._pool.connection() as conn:
            return await _key(conn, key_id)

    @asynccontextmanager
    async def _locked(self, group_id: UUID) -> AsyncIterator[AsyncConnection]:
        """A transaction holding the group's advisory lock to its end."""
        async with self._pool.connection() as conn, conn.transaction():
            await lock_group(conn, group_id)
            yield conn


async def lock_group(conn: AsyncConnection, group_id: UUID) -> None:
    """Hold the group's advisory lock to the end of `conn`'s transaction."""
    await conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
        (f"tablelog group {group_id}",),
    )


async def _add_key(
    conn: AsyncConnection,
    group_id: UUID,
    key: NewKey,
    role: str,
    invite_id: UUID | None = None,
) -> None:
    await conn.execute(
        "INSERT INTO group_keys (id, group_id, device, key_hash, invite_id)"
        " VALUES (%s, %s, %s, %s, %s)",
        (key.id, group_id, key.device, key.key_hash, invite_id),
    )
    await _set_role(conn, key.id, role)


async def _set_role(conn: AsyncConnection, key_id: UUID, role: str) -> None:
    await conn.execute(
        "INSERT INTO group_key_roles (key_id, role) VALUES (%s, %s)", (key_id, role)
    )


async def _set_visibility(
    conn: AsyncConnection, group_id: UUID, visibility: str
) -> None:
    await conn.execute(
        "INSERT INTO group_visibilities (group_id, visibility) VALUES (%s, %s)",
        (group_id, visibility),
    )


async def _group(conn: AsyncConnection, where: str, *values: object) -> GroupRow | None:
    cursor = await conn.execute(f"SELECT {_GROUP} FROM groups g WHERE {where}", values)
    row = await cursor.fetchone()
    return None if row is None else GroupRow(*row)


async def _key(conn: AsyncConnection, key_id: UUID) -> GroupKeyRow | None:
    cursor = await conn.execute(f"SELECT {_KEY} WHERE k.id = %s", (key_id,))
    row = await cursor.fetchone()
    return None if row is None else GroupKeyRow(*row)


async def _keys(conn: AsyncConnection, group_id: UUID) -> list[GroupKeyRow]:
    cursor = await conn.execute(
        f"SELECT {_KEY} WHERE k.group_id = %s ORDER BY k.created_at, k.id", (group_id,)
    )
    return [GroupKeyRow(*row) for row in await cursor.fetchall()]


async def _invite(
    conn: AsyncConnection, where: str, *values: object
) -> InviteRow | None:
    cursor = await conn.execute(f"SELECT {_INVITE} WHERE {where}", values)
    row = await cursor.fetchone()
    return None if row is None else InviteRow(*row)


async def _invites(conn: AsyncConnection, group_id: UUID) -> list[InviteRow]:
    cursor = await conn.execute(f"SELECT {_INVITE} WHERE i.group_id = %s", (group_id,))
    return [InviteRow(*row) for row in await cursor.fetchall()]
