"""How one tablelog process is configured."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settings:
    """`database_url` is a psycopg conninfo; the CLI fills it from DATABASE_URL or
    from the embedded server it starts."""

    database_url: str
    pool_min_size: int = 2
    pool_max_size: int = 10
    # A move is a few hundred bytes; the largest body we accept is an import (issue 6).
    max_body_bytes: int = 256 * 1024
    # Games whose timeline (the state after every move) is kept in memory between
    # requests: about 1 KB per move, so some 300 KB for a typical game.
    cached_games: int = 256
    # Issue 12, requests: what one request or one client may cost.
    # The timeline cache is bounded by the stored moves it holds as well: a folded
    # move costs 1 to 2.5 KB (measured with tracemalloc), so 100,000 keep the cache
    # under about 250 MB whatever clients send.
    cached_moves: int = 100_000
    # Games created (POST /games) and imported (POST /games/import) per client and
    # per minute; None for no limit. A client is its address as the server gives it
    # (behind a proxy, the server's forwarded-IPs setting decides: uvicorn honours
    # X-Forwarded-For from 127.0.0.1 only); IPv6 addresses count by /64 network.
    creations_per_minute: int | None = 60
