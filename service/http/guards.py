"""Who may write: every write to a game needs its bearer write token.

A Litestar guard, so the token is checked before the body is read: a request without
the right token learns nothing about what its body would have done.
"""

from __future__ import annotations

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.application.games import Games
from service.application.tokens import check_bearer


async def holds_write_token(
    connection: ASGIConnection, handler: BaseRouteHandler
) -> None:
    games: Games = connection.app.state.games
    stored = await games.write_token_hash(connection.path_params["game_id"])
    check_bearer(connection.headers.get("Authorization"), stored)
