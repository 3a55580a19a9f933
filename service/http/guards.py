"""Who may read and write a game. Every route of one game (its path names
`game_id`) first asks whether the caller may read it (`visibility.Viewer`): a game
hidden from the caller, or removed (a sample, `tablelog seed --remove`), is answered
as one never created (404), whatever else the request holds. Every write to a game
then needs its bearer write token, the app key that created it, or a live key of
its group (a group's own key, or an app key made for the group).

Run as the handler's `before_request` hook (the reads with an ETag run theirs,
`caching._not_modified`, which asks the same), so the credential is checked before
the body is read: a request without the right one learns nothing about what its
body would have done. The refusal is raised where a game never created is refused,
inside the route, so both answers go out the same way. Not a Litestar guard:
Litestar hands each guard its own copy of the route handler, made anew on every
request, on the service's busiest route.
"""

from __future__ import annotations

from litestar import Request

from service.application.errors import KeyNotAllowed, TokenWrong
from service.application.games import Games
from service.application.timeline import Timeline
from service.application.tokens import check_bearer
from service.application.visibility import MEMBERS, hidden, removed_now
from service.http.callers import caller_of, member_of, unknown_key, viewer_of

# Set on a request whose game is members-only: its answer is for its members, and
# no shared cache may keep it (`caching`).
PRIVATE = "private_answer"


async def readable(request: Request, timeline: Timeline | None = None) -> Timeline:
    """The request's game (`timeline`, or as this process holds it) if the caller
    may read it; else the refusal of a game never created."""
    games: Games = request.app.state.games
    game_id = request.path_params["game_id"]
    if timeline is None:
        timeline = games.timelines.cached(game_id) or await games.timeline(game_id)
    row = timeline.row
    gone = await removed_now(row, games.store)
    if not viewer_of(request).reads(row, removed=gone):
        raise hidden(game_id)
    request.state[PRIVATE] = row.visibility == MEMBERS
    return timeline


async def may_read(request: Request) -> None:
    """The `before_request` of a route of one game that takes no write
    credential: a game hidden from the caller does not exist."""
    await readable(request)


async def holds_write_token(request: Request) -> None:
    """The game's write token, the key of the app that created it or a key of its
    group (`Callers` has checked the key and its scope already)."""
    games: Games = request.app.state.games
    game_id = request.path_params["game_id"]
    await readable(request)
    caller, member = caller_of(request), member_of(request)
    if caller is not None or member is not None:
        row = await games.created_by(game_id)
        if caller is not None:
            caller.may_write(row.app_key, row.group)
        if member is not None:
            member.may_write(row.group)
        return
    stored = await games.write_token_hash(game_id)
    _check_token(request, stored)


async def may_change_variation(request: Request) -> None:
    """Of a variation of the request's game (`variation_id`): the variation's write
    token or its game's, the key of the app that created either, or a key of
    their group (a variation is of its game's group)."""
    games: Games = request.app.state.games
    game_id = request.path_params["game_id"]
    await readable(request)
    variation = await games.variations.variation(
        game_id, request.path_params["variation_id"]
    )
    original = await games.created_by(game_id)
    caller, member = caller_of(request), member_of(request)
    if member is not None:
        member.may_write(original.group)
        return
    if caller is not None:
        try:
            caller.may_write(original.app_key, original.group)
        except KeyNotAllowed:
            caller.may_write(variation.app_key, variation.group)
        return
    try:
        check_bearer(request.headers.get("Authorization"), variation.token_hash)
    except TokenWrong:
        _check_token(request, original.token_hash)


def _check_token(request: Request, stored: bytes) -> None:
    """The request's bearer token is the one that hashes to `stored`."""
    try:
        check_bearer(request.headers.get("Authorization"), stored)
    except TokenWrong:
        # A credential shaped as a key that no app holds, and not this game's
        # token either: the key's refusal says more.
        unknown = unknown_key(request)
        if unknown is None:
            raise
        raise unknown from None
