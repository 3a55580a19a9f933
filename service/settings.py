"""How one tablelog process is configured: every setting, declared once.

Each setting but the database's addresses is a field of `Settings` with its default
and its help, and `tablelog serve` takes every one of them both as an option
(`--max-body-bytes 65536`) and from the environment (`TABLELOG_MAX_BODY_BYTES=65536`),
the option winning (`service/cli`). The database's addresses come from the variables
libpq's users know (`DATABASE_URL`, `DATABASE_READ_URL`, `MIGRATION_DATABASE_URL`) or
from the embedded server `serve` starts.

The settings are a few scalars, so one loader of ours reads them (`from_text`) rather
than a settings library: pydantic-settings would add pydantic to every install for
what `Settings`' own annotations already say.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field, fields
from typing import Any


def setting(default: Any, help: str) -> Any:
    """A field that `tablelog serve` takes as an option and from the environment."""
    return field(default=default, metadata={"help": help})


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
    # The role that runs the migrations (it owns the tables); None: `database_url`.
    migration_database_url: str | None = None

    pool_min_size: int = setting(2, "database connections each process keeps open")
    pool_max_size: int = setting(
        10,
        "database connections each process may open; mind PostgreSQL's "
        "max_connections with several workers",
    )
    # A move is a few hundred bytes (a JSON body is at most 128 KiB); an import has
    # its own bound below.
    max_body_bytes: int = setting(
        256 * 1024, "the largest request body but an import's; more is a 413"
    )
    # The longest game the limits allow, as its export writes it, is under 13.4 MB:
    # 5,000 moves of at most 1.5 KB (a Double Donkey reveal: five names of 40
    # four-byte characters, three cards each), 500 notes of 2,000 characters escaped
    # at their longest (12.1 KB a line) and a creation line under 20 KB.
    max_import_bytes: int = setting(
        16 * 1024 * 1024,
        "the largest import (POST /games/import) in bytes; more is a 413",
    )
    # Games whose timeline (the state after every move) is kept in memory between
    # requests. More than the tables one machine serves at once: a game not held is
    # read and folded again on its next move, which costs a cold load. Memory is
    # bounded by `cached_moves` below: a game counts its creation as a move.
    cached_games: int = setting(10_000, "games each process keeps folded in memory")
    # The timeline cache is bounded by the stored moves it holds as well: a folded
    # move costs 1 to 2.5 KB, so 100,000 keep the cache under about 250 MB whatever
    # clients send.
    cached_moves: int = setting(
        100_000, "stored moves the games kept in memory may hold in all"
    )
    # The key that signs the snapshots of long games, kept outside the database,
    # which the serving role may write (service/application/snapshots.py). None:
    # `tablelog`'s commands take snapshot.key in --data-dir; an app built otherwise
    # (the tests) a key made for its process.
    snapshot_key_file: str | None = setting(
        None,
        "the file of the key that signs the snapshots of long games, made on first "
        "use; every host serving one database needs the same. none: snapshot.key "
        "in --data-dir",
    )
    # Browser apps on other origins may call the API (CORS). Any origin by default:
    # writes carry a bearer token, never cookies, so a page cannot act for a user.
    cors_origins: tuple[str, ...] = setting(
        ("*",), "origins whose pages may call the API, comma-separated; * for any"
    )
    # A client is its address as the server gives it (behind a proxy, the server's
    # forwarded-IPs setting decides: uvicorn honours X-Forwarded-For from 127.0.0.1
    # only); IPv6 addresses count by /64 network.
    creations_per_minute: int | None = setting(
        60,
        "games one client may create or import a minute; past it a 429; none for "
        "no limit",
    )
    # Off: anyone may create a game, as the table's page does. On: only the apps
    # holding a key (`tablelog keys create`), each at its key's rate.
    creation_needs_key: bool = setting(
        False,
        "create and import games only with an app key (Authorization: Bearer "
        "tl_...); without one, a 401",
    )

    # The deliverer takes turns with the other processes' (one delivers at a time);
    # off, only `tablelog webhooks deliver` delivers.
    webhooks: bool = setting(
        True,
        "deliver webhooks from this process (off: only `tablelog webhooks deliver` "
        "does)",
    )
    # Loopback, private, link-local and the cloud metadata range are refused as
    # endpoints: a key's holder could otherwise make the service call inside its
    # network.
    webhooks_allow_private: bool = setting(
        False,
        "let webhook endpoints be on loopback or private addresses (a test rig, a "
        "receiver inside your own network)",
    )
    # The waits between the attempts to deliver an event, in seconds; after the
    # last one fails the endpoint is switched off.
    webhook_retries: tuple[str, ...] = setting(
        (
            "5",
            "300",
            "1800",
            "7200",
            "18000",
            "36000",
            "36000",
            "36000",
            "36000",
            "36000",
            "36000",
            "36000",
        ),
        "seconds waited before each new attempt at a delivery (about three days in "
        "all by default); after the last, the endpoint is switched off",
    )

    # Seconds a client has to deliver a whole request (head and body), counted from
    # the moment the connection is ready for one: when it opens, and after each
    # answer. A client that sends half a request is dropped when they run out.
    request_timeout: float = setting(
        10.0,
        "seconds a client has to send a whole request, from the moment its "
        "connection opens or its previous answer ends; then it is closed",
    )
    keep_alive_timeout: float = setting(
        5.0, "seconds an idle keep-alive connection stays open"
    )
    max_connections: int = setting(
        1000,
        "open connections served at once by each worker (live streams included); "
        "one more is answered 503 and closed",
    )
    # The address is the one the connection comes from: behind a reverse proxy
    # every client shares the proxy's, so there it caps the proxy.
    max_connections_per_client: int = setting(
        100,
        "open connections one client address may hold in each worker; one more is "
        "answered 503 and closed. Behind a reverse proxy every client has the "
        "proxy's address: raise it to --max-connections there",
    )
    max_streams: int = setting(
        200,
        "live streams (GET /games/{id}/stream) open at once in each worker; one "
        "more is answered 503",
    )
    # A client as for `creations_per_minute`.
    max_streams_per_client: int = setting(
        20,
        "live streams one client may hold open in each worker; one more is "
        "answered 503",
    )
    # The connection's send buffers full: the answer and its buffer are dropped.
    write_timeout: float = setting(
        30.0,
        "seconds an answer may wait for a client that reads none of it; then its "
        "connection is dropped",
    )
    log_repeat_seconds: float = setting(
        10.0,
        "identical warnings within this many seconds are logged once, then once "
        "with their count",
    )
    # Off by default: they tell how busy the service is to anyone who asks, so a
    # host turns them on where only its scraper reaches that path (a private port, a
    # proxy rule).
    metrics: bool = setting(
        False,
        "serve Prometheus metrics at GET /metrics on this port, to anyone who can "
        "reach it: turn on where only your scraper reaches that path",
    )
    # Each with its own pool, timeline cache, connection and stream caps and
    # rate-limit counts; they share the database.
    workers: int = setting(
        1,
        "processes serving the API on the one port, sharing the database; each has "
        "its own connection and stream caps and rate-limit counts",
    )


SERVED = tuple(f for f in fields(Settings) if "help" in f.metadata)
"""The settings `tablelog serve` takes as options and from the environment."""

_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def from_text(name: str, text: str) -> Any:
    """A served setting's value from its text (an option or a variable): numbers,
    `on`/`off` for a switch, a comma-separated list, `none` where None is allowed.
    ValueError says what was expected."""
    kind = typing.get_type_hints(Settings)[name]
    words = text.strip()
    if type(None) in typing.get_args(kind):
        if words.lower() in {"none", ""}:
            return None
        (kind,) = (k for k in typing.get_args(kind) if k is not type(None))
    if kind is bool:
        if words.lower() in _TRUE | _FALSE:
            return words.lower() in _TRUE
        raise ValueError(f"{name} is on or off, not {text!r}")
    if typing.get_origin(kind) is tuple:
        return tuple(item.strip() for item in words.split(",") if item.strip())
    try:
        return kind(words)
    except ValueError:
        wanted = {int: "a whole number", float: "a number"}.get(kind, kind.__name__)
        raise ValueError(f"{name} is {wanted}, not {text!r}") from None
