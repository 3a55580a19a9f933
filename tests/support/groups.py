"""Groups for the tests that need one: made over HTTP as an owner makes one, and
an app key made for a group as `tablelog keys create --group` makes it."""

from __future__ import annotations

import asyncio
import itertools
import uuid

import httpx

from service.application.keys import Keys
from service.settings import Settings
from service.storage.pools import connection_pool
from tests.support.keys import KEYED

# Addresses for the tests' clients, each taken once in a process: each test makes
# its groups from an address of its own, as the service counts the groups an
# address makes in an hour.
ADDRESSES = (
    f"127.0.{a}.{b}" for a, b in itertools.product(range(10, 250), range(1, 255))
)


def unique(name: str) -> str:
    return f"{name} {uuid.uuid4().hex[:6]}"


def make_group(client: httpx.Client, name: str | None = None, **body) -> dict:
    """A new group (its `key` is its owner's)."""
    answer = client.post(
        "/groups",
        json={"name": name or unique("Club"), "device": "Ana's phone", **body},
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def make_group_app_key(database_url: str, group_id: str, scopes=KEYED) -> str:
    """An app key made for the group."""

    async def work() -> str:
        settings = Settings(database_url=database_url, pool_min_size=1)
        async with connection_pool(settings) as pool:
            made = await Keys(pool).create("club app", list(scopes), None, group_id)
            return made[1]

    return asyncio.run(work())


def new_players(*names: str) -> list[dict]:
    """A group's new game's seats, each a new player of its roster unless one of
    that name is on it already: as a table says it seats players it may not have
    seated before."""
    return [{"name": name, "new": True} for name in names]
