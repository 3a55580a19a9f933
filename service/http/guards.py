"""Who may write: every write to a game needs its bearer write token.

Run as the handler's `before_request` hook, so the token is checked before the body
is read: a request without the right token learns nothing about what its body would
have done. Not a Litestar guard: Litestar hands each guard its own copy of the route
handler, made anew on every request, on the service's busiest route.
"""

from __future__ import annotations

from litestar import Request

from service.application.games import Games
from service.application.tokens import check_bearer


async def holds_write_token(request: Request) -> None:
    games: Games = request.app.state.games
    stored = await games.write_token_hash(request.path_params["game_id"])
    check_bearer(request.headers.get("Authorization"), stored)
