"""Who is calling: the app whose key a request carries (`Authorization: Bearer
tl_...`), or no one.

The `Callers` middleware runs on every route, before the rate limit (which counts
a keyed request against its key) and the handler. A request without a key goes on
as an anonymous one. A key is looked up by its hash in the database
(`Keys.verify`), on each request and in every process: an unknown or revoked key
is refused at once (401). The key must then hold the scope the operation needs, or
the answer is a 403:

- an operation names it in its `opt`: `opt={SCOPE: "games:create"}`;
- a read (GET, HEAD) that names none needs `read`; any other operation that names
  none needs no scope.

With `creation_needs_key` set, an operation needing `games:create` refuses a
request without a key (401).

Handlers ask `caller_of(request)`, or take the `caller` dependency
(`caller: NamedDependency[App | None]`); `app_of(request)` is for an operation no
anonymous request may call (401 without a key).
"""

from __future__ import annotations

from litestar import Request
from litestar.datastructures import Headers
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Receive, Scope, Send

from service.application.errors import KeyRefused, KeyUnknown
from service.application.keys import App, Keys, bearer_key

# The `opt` key naming the scope an operation needs of an app key.
SCOPE = "app_key_scope"
# An operation that takes a game's write token as its bearer credential: there a
# credential that looks like a key but is none may still be the token of a game
# whose token began with `tl_` (see `holds_write_token`).
TAKES_WRITE_TOKEN = "takes_write_token"
GAMES_CREATE = "games:create"
MOVES_WRITE = "moves:write"
READ = "read"

# The OpenAPI document's security scheme of app keys, and the security of an
# operation open to all that a key may call as its app.
APP_KEY_SCHEME = "appKey"
KEY_OPTIONAL: list[dict[str, list[str]]] = [{}, {APP_KEY_SCHEME: []}]

_CALLER = "app_key_caller"
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
        caller = await self._caller(scope, takes_token=bool(opt.get(TAKES_WRITE_TOKEN)))
        if caller is not None and needed is not None:
            caller.require(needed)
        if caller is None and needed == GAMES_CREATE and self.creation_needs_key:
            raise KeyRefused(
                "This service creates games only for apps: send your app key as "
                "'Authorization: Bearer tl_...'."
            )
        await next_app(scope, receive, send)

    async def _caller(self, scope: Scope, *, takes_token: bool) -> App | None:
        key = bearer_key(Headers.from_scope(scope).get("authorization"))
        state = scope.setdefault("state", {})
        state[_CALLER] = None
        if key is None:
            return None
        keys: Keys = scope["litestar_app"].state.app_keys
        try:
            state[_CALLER] = await keys.verify(key)
        except KeyUnknown as unknown:
            if not takes_token:
                raise
            state[_UNKNOWN_KEY] = unknown
        return state[_CALLER]


def caller_of(request: Request) -> App | None:
    """The app the request acts for: None for a request without a key."""
    return request.scope.get("state", {}).get(_CALLER)


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
