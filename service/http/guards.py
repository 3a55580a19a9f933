"""Who may write: every write to a game needs its bearer write token, or the app key
that created it.

Run as the handler's `before_request` hook, so the credential is checked before the
body is read: a request without the right one learns nothing about what its body
would have done. Not a Litestar guard: Litestar hands each guard its own copy of the
route handler, made anew on every request, on the service's busiest route.
"""

from __future__ import annotations

from litestar import Request

from service.application.errors import TokenWrong
from service.application.games import Games
from service.application.tokens import check_bearer
from service.http.callers import caller_of, unknown_key


async def holds_write_token(request: Request) -> None:
    """The game's write token, or the key of the app that created it (`Callers`
    has checked the key and its scope already)."""
    games: Games = request.app.state.games
    game_id = request.path_params["game_id"]
    caller = caller_of(request)
    if caller is not None:
        caller.may_write(await games.created_by(game_id))
        return
    stored = await games.write_token_hash(game_id)
    try:
        check_bearer(request.headers.get("Authorization"), stored)
    except TokenWrong:
        # A credential shaped as a key that no app holds, and not this game's
        # token either: the key's refusal says more.
        unknown = unknown_key(request)
        if unknown is None:
            raise
        raise unknown from None
