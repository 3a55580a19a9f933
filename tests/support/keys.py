"""App keys for the tests that act as an app: made and revoked as `tablelog keys`
makes and revokes them, and sent as a bearer credential."""

from __future__ import annotations

import asyncio
import hashlib

from service.application.keys import Keys
from service.settings import Settings
from service.storage.pools import connection_pool

# A game for an app to create.
BODY = {"game": "dobro", "players": ["Ann", "Bob"], "first_player": "Ann", "seed": 3}
# A key's scopes when a test names none.
ALL = ("games:create", "moves:write", "read")
# An app that registers webhooks.
KEYED = ("games:create", "moves:write", "read", "webhooks")


def make_key(database_url: str, scopes=ALL, rate: int | None = None) -> str:
    """A new key, as `tablelog keys create` makes it."""
    return asyncio.run(_keys(database_url, "create", "an app", list(scopes), rate))[1]


def revoke(database_url: str, key: str) -> None:
    async def work(keys: Keys) -> None:
        row = await keys.store.by_hash(hashlib.sha256(key.encode()).digest())
        await keys.revoke(row.id)

    asyncio.run(_with_keys(database_url, work))


async def _keys(database_url: str, method: str, *args):
    async def work(keys: Keys):
        return await getattr(keys, method)(*args)

    return await _with_keys(database_url, work)


async def _with_keys(database_url: str, work):
    settings = Settings(database_url=database_url, pool_min_size=1, pool_max_size=1)
    async with connection_pool(settings) as pool:
        return await work(Keys(pool))


def bearer(credential: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {credential}"}
