"""The HTTP baseline: a bare Litestar app whose one handler stores the posted move
with one INSERT, over a pool like the service's (no rules, no cache, no auth)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from uuid import UUID

import msgspec
from litestar import Litestar, post
from litestar.datastructures import State

from bench.appends import PLAIN_INSERT, PLAIN_TABLE
from service.settings import Settings
from service.storage.pools import connection_pool


@post("/games/{game_id:uuid}/moves", status_code=201)
async def post_move(game_id: UUID, data: dict[str, Any], state: State) -> dict:
    version = int(data.pop("expected_version", 1)) + 1
    async with state.pool.connection() as conn:  # autocommit: one round trip
        await conn.execute(
            PLAIN_INSERT,
            (game_id, version, str(data["type"]), msgspec.json.encode(data).decode()),
        )
    return {"version": version}


def create_bare_app(settings: Settings) -> Litestar:
    @asynccontextmanager
    async def database(app: Litestar) -> AsyncIterator[None]:
        pool = connection_pool(settings)
        await pool.open()
        async with pool.connection() as conn:
            await conn.execute(PLAIN_TABLE.replace("TABLE", "TABLE IF NOT EXISTS", 1))
        app.state.pool = pool
        try:
            yield
        finally:
            await pool.close()

    return Litestar(route_handlers=[post_move], lifespan=[database])
