"""Who is calling: the app whose key a request carries (`Authorization: Bearer
tl_...`), the member of a group whose key it carries (`Bearer tlg_...`), or no one.

The `Callers` middleware runs on every route, before the rate limit (which counts
a keyed request against its key) and the handler. A request without a key goes on
as an anonymous one. A key is looked up by its hash in the database
(`Keys.verify`, `Groups.verify`), on each request and in every process: an unknown
or revoked key is refused at once (401). A request carries one credential: an app
key, a group key or a game's write token. An app key must then hold the scope the
operation needs, or the answer is a 403:

- an operation names it in its `opt`: `opt={SCOPE: "games:create"}`;
- a read (GET, HEAD) that names none needs `read`; any other operation that names
  none needs no scope.

A group key holds no scopes: it may create games (in its group), read, and
write its group's games.

With `creation_needs_key` set, an operation needing `games:create` refuses a
request without a key, an app's or a group's (401).

Handlers ask `caller_of(request)`, or take the `caller` dependency
(`caller: NamedDependency[App | None]`); `app_of(request)` is for an operation no
anonymous request may call (401 without a key). `member_of(request)` (the `member`
dependency) is the request's group key, `joined(request)` the group a game it
creates joins. `viewer_of(request)` is who reads (service/application/visibility.py):
the group of its key and its bearer credential, which may be a game's write token;
`listed_for(request)` the group whose games a listing shows it beside the public
ones.
"""

from __future__ import annotations

from litestar import Request
from litestar.datastructures import Headers
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Receive, Scope, Send

from service.application.creating import InGroup
from service.application.errors import KeyRefused, KeyUnknown
from service.application.groups import Groups, Member, is_group_key
from service.application.keys import App, Keys, is_app_key
from service.application.visibility import MEMBERS, Viewer

# The `opt` key naming the scope an operation needs of an app key.
SCOPE = "app_key_scope"
# An operation that takes a game's write token as its bearer credential: there a
# credential that looks like a key but is none may still be the token of a game
# whose token began with `tl_` (see `holds_write_token`).
TAKES_WRITE_TOKEN = "takes_write_token"
GAMES_CREATE = "games:create"
MOVES_WRITE = "moves:write"
READ = "read"

# The OpenAPI document's security schemes of app keys and group keys, and the
# security of an operation open to all that a key may call as its app or member.
APP_KEY_SCHEME = "appKey"
GROUP_KEY_SCHEME = "groupKey"
KEY_OPTIONAL: list[dict[str, list[str]]] = [
    {},
    {APP_KEY_SCHEME: []},
    {GROUP_KEY_SCHEME: []},
]

_CALLER = "app_key_caller"
_MEMBER = "group_key_member"
_UNKNOWN_KEY = "app_key_unknown"
_READS = frozenset(("GET", "HEAD"))


class Callers(ASGIMiddleware):
    """The app of each request's key, checked (see the module's docstring).

    A middleware rather than a Litestar guard, as `DeclaredMediaType` is: it runs
    on every request, and Litestar copies a route's handler for each guard call.
    """

    scopes = (ScopeType.HTTP,)

    def __init__(self, creation_needs_key: bool) -> None:
        self.creation_needs_key = creation_needs_key

    async def handle(
        self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp
    ) -> None:
        opt = scope["route_handler"].opt
        needed = opt.get(SCOPE) or (READ if scope["method"] in _READS else None)
        state = scope.setdefault("state", {})
        state[_CALLER] = state[_MEMBER] = None
        try:
            await self._verify(scope, state)
        except KeyUnknown as unknown:
            if not opt.get(TAKES_WRITE_TOKEN):
                raise
            state[_UNKNOWN_KEY] = unknown
        caller = state[_CALLER]
        if caller is not None and needed is not None:
            caller.require(needed)
        keyless = caller is None and state[_MEMBER] is None
        if keyless and needed == GAMES_CREATE and self.creation_needs_key:
            raise KeyRefused(
                "This service creates games only with a key: send your app key as "
                "'Authorization: Bearer tl_...', or your group's as 'Bearer tlg_...'."
            )
        await next_app(scope, receive, send)

    async def _verify(self, scope: Scope, state: dict) -> None:
        """The app or the member of the request's key, if it carries one."""
        authorization = Headers.from_scope(scope).get("authorization")
        scheme, _, credential = (authorization or "").partition(" ")
        credential = credential.strip()
        if scheme.lower() != "bearer":
            return
        served = scope["litestar_app"].state
        if is_app_key(credential):
            keys: Keys = served.app_keys
            state[_CALLER] = await keys.verify(credential)
        elif is_group_key(credential):
            groups: Groups = served.groups
            state[_MEMBER] = await groups.verify(credential)


def caller_of(request: Request) -> App | None:
    """The app the request acts for: None for a request without a key."""
    return request.scope.get("state", {}).get(_CALLER)


def member_of(request: Request) -> Member | None:
    """The member of a group whose key the request carries: None for none."""
    return request.scope.get("state", {}).get(_MEMBER)


def joined(request: Request) -> InGroup | None:
    """The group a game the request creates joins: its group key's, or the group
    its app key was made for; None for neither."""
    member, caller = member_of(request), caller_of(request)
    if member is not None:
        return member.joins
    if caller is not None and caller.group is not None:
        return InGroup(caller.group, visibility=caller.group_visibility or MEMBERS)
    return None


def viewer_of(request: Request) -> Viewer:
    """Who reads (`visibility.Viewer`): the group of the request's key, if any,
    and its bearer credential, which may be a game's write token."""
    member, caller = member_of(request), caller_of(request)
    group = member.group.name if member is not None else caller and caller.group
    scheme, _, credential = (request.headers.get("authorization") or "").partition(" ")
    credential = credential.strip()
    bearer = credential if scheme.lower() == "bearer" and credential else None
    return Viewer(group, bearer)


def listed_for(request: Request) -> str | None:
    """The group whose games a listing shows the request beside the public ones
    (its key's group; None for none)."""
    return viewer_of(request).group


def app_of(request: Request) -> App:
    """The app the request acts for; KeyRefused (401) for a request without a key."""
    caller = caller_of(request)
    if caller is None:
        raise KeyRefused("Send your app key as 'Authorization: Bearer tl_...'.")
    return caller


def unknown_key(request: Request) -> KeyUnknown | None:
    """The refusal of a credential that looked like a key but is none, on an
    operation that takes write tokens (where it may still be a game's token)."""
    return request.scope.get("state", {}).get(_UNKNOWN_KEY)


async def provide_caller(request: Request) -> App | None:
    """The `caller` dependency: `caller_of(request)`."""
    return caller_of(request)


async def provide_member(request: Request) -> Member | None:
    """The `member` dependency: `member_of(request)`."""
    return member_of(request)
