"""The HTTP baseline: a bare Litestar app whose one handler stores the posted move
with one INSERT, over the service's own pool (`service.storage.pools`, opened and
closed as bootstrap opens and closes it) and nothing else of the service: no rules,
no cache, no auth."""

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
from service.storage import pools


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
        async with pools.opened(settings) as opened:
            async with opened.primary.connection() as conn:
                table = PLAIN_TABLE.replace("TABLE", "TABLE IF NOT EXISTS", 1)
                await conn.execute(table)
            app.state.pool = opened.primary
            yield

    return Litestar(route_handlers=[post_move], lifespan=[database])
