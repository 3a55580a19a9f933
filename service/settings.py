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
    # Browser apps on other origins may call the API (CORS). Any origin by default:
    # writes carry a bearer token, never cookies, so a page cannot act for a user.
    cors_origins: tuple[str, ...] = ("*",)
