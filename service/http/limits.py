"""Per-client limits: one client may not create games faster than the service can
be shared, whatever it sends (Litestar's rate-limiting middleware, in memory)."""

from __future__ import annotations

import ipaddress

import anyio
from litestar import Request
from litestar.middleware import DefineMiddleware
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.stores.memory import MemoryStore

from service.settings import Settings

# Handlers that anyone may call to create a game: each client may call them
# `Settings.creations_per_minute` times a minute, all of them together.
CREATES_GAMES = "creates_games"


def client_of(request: Request) -> str:
    """Who a request counts against: its address as the server gives it (which,
    behind a proxy, is the server's business), an IPv6 address by its /64 network,
    which one host commonly holds whole."""
    return client_key(request.client.host if request.client else "")


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


def creates_games(request: Request) -> bool:
    """Whether the request's handler is one `opt`-marked CREATES_GAMES."""
    return bool(request.route_handler.opt.get(CREATES_GAMES))


def creation_limit(settings: Settings, store: MemoryStore) -> list[DefineMiddleware]:
    """Litestar's rate limit on the handlers that create games, per client."""
    if settings.creations_per_minute is None:
        return []
    config = RateLimitConfig(
        rate_limit=("minute", settings.creations_per_minute),
        identifier_for_request=client_of,
        check_throttle_handler=creates_games,
        store="rate_limit",
    )
    return [config.middleware]


async def forget_expired(store: MemoryStore) -> None:
    """The store keeps a client's count until asked for it again: drop the expired
    ones each minute, so many clients seen once do not pile up."""
    while True:
        await anyio.sleep(60)
        await store.delete_expired()
