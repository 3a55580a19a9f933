"""How one tablelog process is configured."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settings:
    """`database_url` is a psycopg conninfo; the CLI fills it from DATABASE_URL or
    from the embedded server it starts. It may name several hosts (libpq's
    `host=a,b,c` with `target_session_attrs=read-write`): after a failover the pool's
    new connections find the new primary."""

    database_url: str
    # A conninfo of read replicas (DATABASE_READ_URL), or None to read the
    # primary. The reads of the log, the lists and the player records go there; the
    # writes, and each write's checks, stay on `database_url`.
    database_read_url: str | None = None
    pool_min_size: int = 2
    pool_max_size: int = 10
    # A move is a few hundred bytes; the largest body we accept is an import.
    max_body_bytes: int = 256 * 1024
    # Games whose timeline (the state after every move) is kept in memory between
    # requests. More than the tables one machine serves at once: a game not held is
    # read and folded again on its next move, which costs a cold load. Memory is
    # bounded by `cached_moves` below: a game counts its creation as a move.
    cached_games: int = 10_000
    # Browser apps on other origins may call the API (CORS). Any origin by default:
    # writes carry a bearer token, never cookies, so a page cannot act for a user.
    cors_origins: tuple[str, ...] = ("*",)

    # What one connection may hold, and who migrates.
    # The role that runs the migrations (it owns the tables); None: `database_url`.
    migration_database_url: str | None = None
    # Seconds a client has to deliver a whole request (head and body), counted from
    # the moment the connection is ready for one: when it opens, and after each
    # answer. A client that sends half a request is dropped when they run out.
    request_timeout: float = 10.0
    # Seconds an idle keep-alive connection stays open between requests.
    keep_alive_timeout: float = 5.0
    # Open connections served at once (live streams included); a connection beyond
    # them is answered 503 and closed at once.
    max_connections: int = 1000
    # Of those, the connections one client address may hold (an IPv6 client by its
    # /64), so that one client cannot hold them all; one more is answered 503 and
    # closed at once. The address is the one the connection comes from: behind a
    # reverse proxy every client shares the proxy's, so there it caps the proxy
    # (raise it to `max_connections` and cap each client at the proxy).
    max_connections_per_client: int = 100
    # Live streams (GET /games/{id}/stream) open at once; one more answers 503.
    max_streams: int = 200
    # Of those, the streams one client may hold open (a client as for
    # `creations_per_minute` below); one more answers 503.
    max_streams_per_client: int = 20
    # Seconds an answer may wait for a client that reads none of it (the connection's
    # send buffers full); then the connection is dropped and the answer with it.
    write_timeout: float = 30.0
    # Identical warnings and errors (same place, same exception) within this many
    # seconds are logged once, then once more with how many there were.
    log_repeat_seconds: float = 10.0

    # What one request or one client may cost.
    # The timeline cache is bounded by the stored moves it holds as well: a folded
    # move costs 1 to 2.5 KB (measured with tracemalloc), so 100,000 keep the cache
    # under about 250 MB whatever clients send.
    cached_moves: int = 100_000
    # Games created (POST /games) and imported (POST /games/import) per client and
    # per minute; None for no limit. A client is its address as the server gives it
    # (behind a proxy, the server's forwarded-IPs setting decides: uvicorn honours
    # X-Forwarded-For from 127.0.0.1 only); IPv6 addresses count by /64 network.
    creations_per_minute: int | None = 60

    # Serve Prometheus metrics at GET /metrics. Off by default:
    # they tell how busy the service is to anyone who asks, so a host turns them on
    # where only its scraper reaches that path (a private port, a proxy rule).
    metrics: bool = False

    # Processes serving the API on one port (`tablelog serve --workers`),
    # each with its own pool, timeline cache, connection and stream caps and
    # rate-limit counts; they share the database.
    workers: int = 1
