"""Who may write: every write to a game needs its bearer write token, the app key
that created it, or a live key of its group (a group's own key, or an app key made
for the group).

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
from service.http.callers import caller_of, member_of, unknown_key


async def holds_write_token(request: Request) -> None:
    """The game's write token, the key of the app that created it or a key of its
    group (`Callers` has checked the key and its scope already)."""
    games: Games = request.app.state.games
    game_id = request.path_params["game_id"]
    caller, member = caller_of(request), member_of(request)
    if caller is not None or member is not None:
        row = await games.created_by(game_id)
        if caller is not None:
            caller.may_write(row.app_key, row.group)
        if member is not None:
            member.may_write(row.group)
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
