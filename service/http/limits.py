"""Per-client limits: one client may not create games faster than the service can
be shared, whatever it sends, nor make more than `GROUPS_PER_HOUR` groups an hour,
nor an app key send webhooks' deliveries again by hand faster than
`RESENDS_PER_MINUTE` (Litestar's rate-limiting middleware, in memory).

A client is its address, or the app whose key the request carries (`callers.py`):
a key has a budget of its own, wherever its requests come from, at its own rate
of creations when it was made with one, else at the service's."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from time import time

import anyio
from litestar import Request
from litestar.datastructures import MutableScopeHeaders
from litestar.exceptions import TooManyRequestsException
from litestar.middleware import DefineMiddleware
from litestar.middleware.rate_limit import (
    DURATION_VALUES,
    CacheObject,
    DurationUnit,
    RateLimitConfig,
    RateLimitMiddleware,
)
from litestar.stores.memory import MemoryStore
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.application.groups import GROUPS_PER_HOUR
from service.application.keys import App
from service.application.webhooks import RESENDS_PER_MINUTE
from service.http.callers import caller_of
from service.settings import Settings

# Handlers that anyone may call to create a game: each client may call them
# `Settings.creations_per_minute` times a minute, all of them together.
CREATES_GAMES = "creates_games"
# Handlers that make a group: each client address may call them `GROUPS_PER_HOUR`
# times an hour.
CREATES_GROUPS = "creates_groups"
# Handlers that send a webhook's delivery again by hand: each app key may call
# them `RESENDS_PER_MINUTE` times a minute.
RESENDS = "resends_deliveries"


def client_of(request: Request) -> str:
    """Who a request counts against: its address as the server gives it (which,
    behind a proxy, is the server's business), an IPv6 address by its /64 network,
    which one host commonly holds whole."""
    return client_key(request.client.host if request.client else "")


def creator_of(request: Request) -> str:
    """Who a creation counts against: the app of its key, else its address."""
    caller = caller_of(request)
    return f"app key {caller.id}" if caller is not None else client_of(request)


def client_key(host: str) -> str:
    """The client an address stands for: itself, an IPv6 address by its /64."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def resender_of(request: Request) -> str:
    """Who a resend counts against: the app of its key (a resend needs one)."""
    return f"resends of {creator_of(request)}"


def group_maker_of(request: Request) -> str:
    """Who a group's making counts against: its address (no key is needed)."""
    return f"groups made by {client_of(request)}"


def creation_limit(settings: Settings, store: MemoryStore) -> list[DefineMiddleware]:
    """The rate limit on the handlers that create games, per client."""

    def rate_of(caller: App | None) -> int | None:
        if caller is not None and caller.creations_per_minute is not None:
            return caller.creations_per_minute
        return settings.creations_per_minute

    # Litestar's own rate is a default `CountedLimit` never reads: it takes each
    # request's from `rate_of`.
    most = settings.creations_per_minute or 1
    return _limit(
        CREATES_GAMES,
        ("minute", most),
        creator_of,
        rate_of,
        "games created or imported",
    )


def group_limit() -> list[DefineMiddleware]:
    """The rate limit on making groups, per client address, an hour."""
    return _limit(
        CREATES_GROUPS,
        ("hour", GROUPS_PER_HOUR),
        group_maker_of,
        lambda _: GROUPS_PER_HOUR,
        "groups made",
        by_address=True,
    )


def resend_limit() -> list[DefineMiddleware]:
    """The rate limit on resending webhooks' deliveries, per app key."""
    return _limit(
        RESENDS,
        ("minute", RESENDS_PER_MINUTE),
        resender_of,
        lambda _: RESENDS_PER_MINUTE,
        "webhook deliveries resent",
    )


def _limit(
    marked: str,
    rate: tuple[DurationUnit, int],
    identify: Callable[[Request], str],
    rate_of: Callable[[App | None], int | None],
    counted: str,
    by_address: bool = False,
) -> list[DefineMiddleware]:
    """A `CountedLimit` on the handlers marked `marked`, counting per `identify`."""
    config = RateLimitConfig(
        rate_limit=rate, identifier_for_request=identify, store="rate_limit"
    )
    return [
        DefineMiddleware(
            CountedLimit,
            config=config,
            marked=marked,
            rate_of=rate_of,
            counted=counted,
            by_address=by_address,
        )
    ]


class CountedLimit(RateLimitMiddleware):
    """Litestar's rate limit on the handlers whose `opt` holds `marked`, at each
    request's own rate, `rate_of` its caller (None: no limit), over the config's
    window (a minute, an hour); its 429 says what it counted (`counted`), and
    against whom: the app key, or with `by_address` (or without a key) the address.

    The mark is read from the scope before anything else: every other request (a
    move, a read) passes by a dictionary look-up, with no Request made for it and no
    `check_throttle_handler`, which Litestar would run on a worker thread when it is
    a plain function, a hop there and back on every request."""

    def __init__(
        self,
        app: ASGIApp,
        config: RateLimitConfig,
        marked: str,
        rate_of: Callable[[App | None], int | None],
        counted: str,
        by_address: bool = False,
    ) -> None:
        super().__init__(app, config)
        self.marked = marked
        self.rate_of = rate_of
        self.counted = counted
        self.by_address = by_address
        self.window = DURATION_VALUES[self.unit]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not scope["route_handler"].opt.get(self.marked):
            await self.app(scope, receive, send)
            return
        app = scope["litestar_app"]
        request: Request = app.request_class(scope)
        caller = caller_of(request)
        most = self.rate_of(caller)
        if most is None:
            await self.app(scope, receive, send)
            return
        key = self.cache_key_from_request(request)
        store = self.config.get_store_from_app(app)
        async with self._lock:
            counted = await self.retrieve_cached_history(key, store)
            if len(counted.history) >= most:
                by_key = caller is not None and not self.by_address
                raise TooManyRequestsException(
                    headers=_headers(counted, most, self.window),
                    extra={
                        "counted": "app key" if by_key else "address",
                        "what": self.counted,
                    },
                )
            await self.set_cached_history(key=key, cache_object=counted, store=store)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                headers = MutableScopeHeaders(message)
                for name, value in _headers(counted, most, self.window).items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, with_headers)


def _headers(counted: CacheObject, most: int, window: int) -> dict[str, str]:
    """The IETF draft's RateLimit headers, as Litestar's middleware sends them."""
    return {
        "RateLimit-Policy": f"{most}; w={window}",
        "RateLimit-Limit": str(most),
        "RateLimit-Remaining": str(max(most - len(counted.history), 0)),
        "RateLimit-Reset": str(counted.reset - int(time())),
    }


async def forget_expired(store: MemoryStore) -> None:
    """The store keeps a client's count until asked for it again: drop the expired
    ones each minute, so many clients seen once do not pile up."""
    while True:
        await anyio.sleep(60)
        await store.delete_expired()
