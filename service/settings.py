"""How one tablelog process is configured: every setting, declared once, as data.

`Settings` is a frozen msgspec Struct. Each field but the database's addresses is a
setting that `tablelog` takes both as an option (`--max-body-bytes 65536`) and from
the environment (`TABLELOG_MAX_BODY_BYTES=65536`), the option winning
(`service/cli`): its help is the field's description, its bounds the field's
constraints, both in its `msgspec.Meta`. `read` fills it from their text with
`msgspec.convert`, which checks every value against its field, so a value that does
not fit stops the command, naming the option or the variable it came from and what
it wanted (`TABLELOG_METRICS: expected on or off, got 'ture'`). The database's
addresses come from the variables libpq's users know (`DATABASE_URL`,
`DATABASE_READ_URL`, `MIGRATION_DATABASE_URL`) or from the embedded server `serve`
starts.

msgspec rather than a settings library: pydantic-settings would add pydantic to every
install for what `Settings`' own annotations already say, and msgspec is already the
service's reader of every other input.
"""

from __future__ import annotations

import difflib
import math
import re
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec

PREFIX = "TABLELOG_"


def setting(help: str, **bounds: float) -> msgspec.Meta:
    """A field that `tablelog` takes as an option and from the environment: its
    help, and the bounds `msgspec.convert` holds its value to (ge, gt, le)."""
    return msgspec.Meta(description=help, **bounds)


# The waits between the attempts to deliver an event, in seconds.
Seconds = Annotated[float, msgspec.Meta(gt=0)]
_RETRIES = (5.0, 300.0, 1800.0, 7200.0, 18000.0, *(36000.0,) * 7)


class Settings(msgspec.Struct, frozen=True, kw_only=True):
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

    # Where `tablelog serve` listens, and how it logs.
    host: Annotated[str, setting("the address to listen on")] = "127.0.0.1"
    port: Annotated[int, setting("the port to listen on", ge=0, le=65535)] = 8000
    log_level: Annotated[
        Literal["critical", "error", "warning", "info", "debug"],
        setting("the least severe messages logged"),
    ] = "info"
    log_format: Annotated[
        Literal["text", "json"],
        setting("text, or json: one JSON object a line (the access log included)"),
    ] = "text"

    pool_min_size: Annotated[
        int, setting("database connections each process keeps open", ge=0)
    ] = 2
    pool_max_size: Annotated[
        int,
        setting(
            "database connections each process may open; mind PostgreSQL's "
            "max_connections with several workers",
            ge=1,
        ),
    ] = 10
    # A move is a few hundred bytes (a JSON body is at most 128 KiB); an import has
    # its own bound below.
    max_body_bytes: Annotated[
        int, setting("the largest request body but an import's; more is a 413", ge=1)
    ] = 256 * 1024
    # The longest game the limits allow, as its export writes it, is under 13.4 MB:
    # 5,000 moves of at most 1.5 KB (a Double Donkey reveal: five names of 40
    # four-byte characters, three cards each), 500 notes of 2,000 characters escaped
    # at their longest (12.1 KB a line) and a creation line under 20 KB.
    max_import_bytes: Annotated[
        int,
        setting(
            "the largest import (POST /games/import) in bytes; more is a 413", ge=1
        ),
    ] = 16 * 1024 * 1024
    # Games whose timeline (the state after every move) is kept in memory between
    # requests. More than the tables one machine serves at once: a game not held is
    # read and folded again on its next move, which costs a cold load. Memory is
    # bounded by `cached_moves` below: a game counts its creation as a move.
    cached_games: Annotated[
        int, setting("games each process keeps folded in memory", ge=0)
    ] = 10_000
    # The timeline cache is bounded by the stored moves it holds as well: a folded
    # move costs 1 to 2.5 KB, so 100,000 keep the cache under about 250 MB whatever
    # clients send.
    cached_moves: Annotated[
        int, setting("stored moves the games kept in memory may hold in all", ge=0)
    ] = 100_000
    # The key that signs the snapshots of long games, kept outside the database,
    # which the serving role may write (service/application/snapshots.py). None:
    # `tablelog`'s commands take snapshot.key in --data-dir; an app built otherwise
    # (the tests) a key made for its process.
    snapshot_key_file: Annotated[
        str | None,
        setting(
            "the file of the key that signs the snapshots of long games, made on "
            "first use; every host serving one database needs the same. none: "
            "snapshot.key in --data-dir"
        ),
    ] = None
    # Browser apps on other origins may call the API (CORS). Any origin by default:
    # writes carry a bearer token, never cookies, so a page cannot act for a user.
    cors_origins: Annotated[
        tuple[str, ...],
        setting("origins whose pages may call the API, comma-separated; * for any"),
    ] = ("*",)
    # A client is its address as the server gives it (behind a proxy, the server's
    # forwarded-IPs setting decides: uvicorn honours X-Forwarded-For from 127.0.0.1
    # only); IPv6 addresses count by /64 network.
    creations_per_minute: Annotated[
        Annotated[int, msgspec.Meta(ge=1)] | None,
        setting(
            "games one client may create or import a minute; past it a 429; none "
            "for no limit"
        ),
    ] = 60
    # Off: anyone may create a game, as the table's page does. On: only the apps
    # holding a key (`tablelog keys create`), each at its key's rate.
    creation_needs_key: Annotated[
        bool,
        setting(
            "create and import games only with an app key (Authorization: Bearer "
            "tl_...); without one, a 401"
        ),
    ] = False
    # Off: a game's own ladder rates every public game, whoever created it. On:
    # only those created (or imported) with a key, an app's or a group's. The
    # ladders are folded by this rule: after changing it, rebuild them
    # (`tablelog projections rebuild`).
    rated_needs_key: Annotated[
        bool,
        setting(
            "rate on the games' own ladders only the games created or imported "
            "with a key (an app's or a group's); rebuild the read models after "
            "changing it"
        ),
    ] = False

    # The deliverer takes turns with the other processes' (one delivers at a time);
    # off, only `tablelog webhooks deliver` delivers.
    webhooks: Annotated[
        bool,
        setting(
            "deliver webhooks from this process (off: only `tablelog webhooks "
            "deliver` does)"
        ),
    ] = True
    # Loopback, private, link-local and the cloud metadata range are refused as
    # endpoints: a key's holder could otherwise make the service call inside its
    # network.
    webhooks_allow_private: Annotated[
        bool,
        setting(
            "let webhook endpoints be on loopback or private addresses (a test rig, "
            "a receiver inside your own network)"
        ),
    ] = False
    # The waits between the attempts to deliver an event, in seconds; after the
    # last one fails the endpoint is switched off.
    webhook_retries: Annotated[
        tuple[Seconds, ...],
        setting(
            "seconds waited before each new attempt at a delivery (about three "
            "days in all by default); after the last, the endpoint is switched off"
        ),
    ] = _RETRIES

    # Seconds a client has to deliver a whole request (head and body), counted from
    # the moment the connection is ready for one: when it opens, and after each
    # answer. A client that sends half a request is dropped when they run out.
    request_timeout: Annotated[
        float,
        setting(
            "seconds a client has to send a whole request, from the moment its "
            "connection opens or its previous answer ends; then it is closed",
            gt=0,
        ),
    ] = 10.0
    keep_alive_timeout: Annotated[
        float, setting("seconds an idle keep-alive connection stays open", gt=0)
    ] = 5.0
    max_connections: Annotated[
        int,
        setting(
            "open connections served at once by each worker (live streams "
            "included); one more is answered 503 and closed",
            ge=1,
        ),
    ] = 1000
    # The address is the one the connection comes from: behind a reverse proxy
    # every client shares the proxy's, so there it caps the proxy.
    max_connections_per_client: Annotated[
        int,
        setting(
            "open connections one client address may hold in each worker; one more "
            "is answered 503 and closed. Behind a reverse proxy every client has "
            "the proxy's address: raise it to --max-connections there",
            ge=1,
        ),
    ] = 100
    max_streams: Annotated[
        int,
        setting(
            "live streams (GET /games/{id}/stream) open at once in each worker; one "
            "more is answered 503",
            ge=0,
        ),
    ] = 200
    # A client as for `creations_per_minute`.
    max_streams_per_client: Annotated[
        int,
        setting(
            "live streams one client may hold open in each worker; one more is "
            "answered 503",
            ge=0,
        ),
    ] = 20
    # The connection's send buffers full: the answer and its buffer are dropped.
    write_timeout: Annotated[
        float,
        setting(
            "seconds an answer may wait for a client that reads none of it; then "
            "its connection is dropped",
            gt=0,
        ),
    ] = 30.0
    log_repeat_seconds: Annotated[
        float,
        setting(
            "identical warnings within this many seconds are logged once, then once "
            "with their count",
            ge=0,
        ),
    ] = 10.0
    # Off by default: they tell how busy the service is to anyone who asks, so a
    # host turns them on where only its scraper reaches that path (a private port, a
    # proxy rule).
    metrics: Annotated[
        bool,
        setting(
            "serve Prometheus metrics at GET /metrics on this port, to anyone who "
            "can reach it: turn on where only your scraper reaches that path"
        ),
    ] = False
    # Each with its own pool, timeline cache, connection and stream caps and
    # rate-limit counts; they share the database.
    workers: Annotated[
        int,
        setting(
            "processes serving the API on the one port, sharing the database; each "
            "has its own connection and stream caps and rate-limit counts",
            ge=1,
        ),
    ] = 1


@dataclass(frozen=True, slots=True)
class Served:
    """A setting as `tablelog` takes it: `--name` and TABLELOG_NAME."""

    name: str
    default: Any
    help: str
    # The field's type as annotated: its bounds are in its Metas.
    kind: Any

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def variable(self) -> str:
        return PREFIX + self.name.upper()

    @property
    def switch(self) -> bool:
        """On or off: `--name` or `--no-name`."""
        return _Kind.of(self.kind).base is bool

    @property
    def listed(self) -> bool:
        """Several values, comma-separated."""
        return typing.get_origin(_Kind.of(self.kind).base) is tuple

    @property
    def choices(self) -> tuple[str, ...] | None:
        base = _Kind.of(self.kind).base
        return typing.get_args(base) if typing.get_origin(base) is Literal else None

    def shown(self) -> str:
        """The default as the help gives it, written as it would be typed."""
        if isinstance(self.default, tuple):
            return ",".join(_typed(item) for item in self.default)
        return str(self.default)

    def wanted(self) -> str:
        """What the setting takes, in words: `a whole number of at least 1`."""
        kind = _Kind.of(self.kind)
        if self.listed:
            (item, _) = typing.get_args(kind.base)
            words = _Kind.of(item).words(plural=True) + ", comma-separated"
        else:
            words = kind.words(plural=False)
        return words + (", or none" if kind.optional else "")


@dataclass(frozen=True, slots=True)
class _Kind:
    """A field's type taken apart: the type of its values, their bounds, and
    whether it may be None."""

    base: Any
    metas: tuple[msgspec.Meta, ...]
    optional: bool

    @classmethod
    def of(cls, kind: Any) -> _Kind:
        metas: list[msgspec.Meta] = []
        optional = False
        while True:
            if typing.get_origin(kind) is Annotated:
                metas += [m for m in kind.__metadata__ if isinstance(m, msgspec.Meta)]
                kind = kind.__origin__
            elif type(None) in typing.get_args(kind):
                optional = True
                (kind,) = (k for k in typing.get_args(kind) if k is not type(None))
            else:
                return cls(kind, tuple(metas), optional)

    def words(self, *, plural: bool) -> str:
        if self.base is bool:
            return "on or off"
        if typing.get_origin(self.base) is Literal:
            return "one of " + ", ".join(typing.get_args(self.base))
        nouns = {
            int: ("a whole number", "whole numbers"),
            float: ("a number", "numbers"),
        }
        one, many = nouns.get(self.base, ("text", "texts"))
        return (many if plural else one) + self.bounds()

    def bounds(self) -> str:
        for meta in self.metas:
            if meta.ge is not None and meta.le is not None:
                return f" from {_typed(meta.ge)} to {_typed(meta.le)}"
            if meta.ge is not None:
                return f" of at least {_typed(meta.ge)}"
            if meta.gt is not None:
                return f" above {_typed(meta.gt)}"
        return ""


def _served() -> tuple[Served, ...]:
    hints = typing.get_type_hints(Settings, include_extras=True)
    served = []
    for field in msgspec.structs.fields(Settings):
        kind = hints[field.name]
        help = next(
            (m.description for m in _Kind.of(kind).metas if m.description), None
        )
        if help is not None:
            served.append(Served(field.name, field.default, help, kind))
    return tuple(served)


SERVED = _served()
"""The settings `tablelog` takes as options and from the environment, in order."""
SETTINGS = {served.name: served for served in SERVED}


class SettingRefused(ValueError):
    """A setting's value that does not fit: where it came from and what it wanted."""


def read(
    names: Iterable[str],
    options: Mapping[str, Any],
    environment: Mapping[str, str],
    **fixed: Any,
) -> Settings:
    """The settings `names` from the command line's `options` (a switch's True or
    False, else the text typed; None where not given), else from the
    `environment`'s TABLELOG_ variables, else their defaults; and `fixed` as given
    (the database's addresses, a command's own pool). SettingRefused names the first
    value that does not fit."""
    given: dict[str, tuple[str, Any]] = {}
    for name in names:
        served = SETTINGS[name]
        if options.get(name) is not None:
            given[name] = (served.option, options[name])
        elif served.variable in environment:
            given[name] = (served.variable, environment[served.variable])
    values = {
        name: _from_text(SETTINGS[name], value) for name, (_, value) in given.items()
    }
    try:
        settings = msgspec.convert(values | fixed, Settings, strict=False)
    except msgspec.ValidationError as error:
        raise _refusal(error, given) from None
    if settings.pool_max_size < settings.pool_min_size:
        most, least = (_named("pool_max_size", given), _named("pool_min_size", given))
        raise SettingRefused(
            f"{most} ({settings.pool_max_size}) is below {least} "
            f"({settings.pool_min_size}): a pool keeps open no more connections "
            "than it may open"
        )
    return settings


def unknown(environment: Mapping[str, str]) -> list[str]:
    """A sentence for each TABLELOG_ variable that names no setting (a typo, or a
    setting of another release), with the one it is most like."""
    known = [served.name.upper() for served in SERVED] + ["DATA_DIR"]
    sentences = []
    for variable in sorted(environment):
        name = variable.removeprefix(PREFIX)
        if variable.startswith(PREFIX) and name not in known:
            like = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
            hint = f" (did you mean {PREFIX}{like[0]}?)" if like else ""
            sentences.append(f"{variable} is no setting of tablelog{hint}: ignored")
    return sentences


_ON, _OFF = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}
_AT = re.compile(r"at `\$\.(\w+)")


def _from_text(served: Served, value: Any) -> Any:
    """A value typed or set as msgspec's lax mode reads it: `on`/`off` for a switch,
    a comma-separated list, `none` where None is allowed; a switch given on the
    command line is already True or False."""
    if not isinstance(value, str):
        return value
    words = value.strip()
    if _Kind.of(served.kind).optional and words.lower() in {"none", ""}:
        return None
    if served.switch:
        lowered = words.lower()
        return True if lowered in _ON else False if lowered in _OFF else words
    if served.listed:
        return [item.strip() for item in words.split(",") if item.strip()]
    return words


def _refusal(
    error: msgspec.ValidationError, given: dict[str, tuple[str, Any]]
) -> Exception:
    found = _AT.search(str(error))
    if found is None or found[1] not in given:
        return SettingRefused(str(error))
    name = found[1]
    where, value = given[name]
    return SettingRefused(f"{where}: expected {SETTINGS[name].wanted()}, got {value!r}")


def _named(name: str, given: dict[str, tuple[str, Any]]) -> str:
    return given[name][0] if name in given else SETTINGS[name].option


def _typed(number: Any) -> str:
    """A number as it would be typed: 5, not 5.0."""
    if isinstance(number, float) and math.isfinite(number) and number.is_integer():
        return str(int(number))
    return str(number)
