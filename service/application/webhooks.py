"""Webhooks: an app registers an endpoint with its app key, and is told of what is
stored, as the Standard Webhooks specification says (https://www.standardwebhooks.com):
each message signed with the endpoint's secret by the `standardwebhooks` package,
under a `webhook-id` that names the event and the endpoint and stays the same on
every attempt, so a receiver drops a message it has had.

The deliverer (`service/readside/deliverer.py`) reads the log; this module is what an
app asks of its endpoints, and what both share: the kinds of event, the message of
an event, its signature and the check of an endpoint's address.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import ipaddress
import secrets
import socket
import uuid
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

import msgspec
from standardwebhooks import Webhook

from domain.names import name_key
from domain.registry import GAMES
from service.application.errors import Invalid, NotFound
from service.application.keys import App
from service.storage.store import EventStore
from service.storage.webhooks import AttemptRow, EndpointRow, WebhookStore

# What an endpoint may be told of.
KINDS = {
    "move.stored": "every move stored, undos and abandons included",
    "game.finished": "a game played to its end",
    "game.abandoned": "a game abandoned (T2)",
    "game.reopened": "a finished or abandoned game reopened by an undo",
}
MAX_ENDPOINTS = 10
MAX_URL = 2000
# How long the secrets an endpoint had keep signing after a rotation.
ROTATION_OVERLAP_SECONDS = 24 * 3600
# The attempts `GET /webhooks/{id}/deliveries` shows.
ATTEMPTS_SHOWN = 100
SECRET_PREFIX = "whsec_"

# The metadata services of cloud hosts: where a forged request does most harm.
_METADATA = {
    ipaddress.ip_address("169.254.169.254"),
    ipaddress.ip_address("fd00:ec2::254"),
}


@dataclass(frozen=True, slots=True)
class Registration:
    url: str
    kinds: tuple[str, ...]
    game_id: uuid.UUID | None = None
    game: str | None = None
    group: str | None = None


class Message(msgspec.Struct, kw_only=True):
    """What an endpoint is sent (JSON): `type` is the kind, `timestamp` when the
    event was stored, `data` the event (its game's kind and version, the move's
    type), with `href`, where the rest of the game is read."""

    type: str
    timestamp: datetime
    data: MessageData


class MessageData(msgspec.Struct, kw_only=True):
    game_id: uuid.UUID
    game: str
    version: int
    move: str
    status: str
    winners: list[str]
    href: str


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def message_id(
    endpoint_id: uuid.UUID, game_id: uuid.UUID, version: int, kind: str
) -> str:
    """The `webhook-id` of an event's message of `kind` sent to an endpoint: the
    same on every attempt, in every process, after any restart."""
    digest = hashlib.sha256(f"{endpoint_id}/{game_id}/{version}/{kind}".encode())
    return "msg_" + digest.hexdigest()[:32]


def signature(secrets_in_force: list[str], id: str, at: datetime, body: bytes) -> str:
    """The `webhook-signature` header: one `v1,...` by each secret in force, space
    separated, so a receiver still holding the secret before a rotation verifies."""
    return " ".join(
        Webhook(secret).sign(id, at, body.decode()) for secret in secrets_in_force
    )


async def check_address(url: str, allow_private: bool) -> None:
    """Invalid unless `url` is an http(s) address whose host resolves to public
    addresses only (or `allow_private`): checked at registration and again before
    every delivery, as a name may resolve elsewhere later."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Invalid(f"'{url[:200]}' is not an http or https address.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Invalid(f"'{url[:200]}' names no valid port.") from None
    try:
        found = await asyncio.get_running_loop().getaddrinfo(
            parts.hostname, port, type=socket.SOCK_STREAM
        )
    except OSError:
        raise Invalid(f"The host '{parts.hostname}' could not be found.") from None
    for *_, address in found:
        ip = ipaddress.ip_address(address[0])
        if (
            ip in _METADATA
            or ip.is_multicast
            or ip.is_unspecified
            or (
                not allow_private
                and (
                    ip.is_loopback
                    or ip.is_private
                    or ip.is_link_local
                    or ip.is_reserved
                )
            )
        ):
            raise Invalid(
                f"The host '{parts.hostname}' is at {ip}, a private or reserved "
                "address: webhooks go to public addresses only."
            )


class Webhooks:
    """An app's endpoints: registered, listed, rotated, switched, and their
    attempts."""

    def __init__(
        self, store: WebhookStore, log: EventStore, allow_private: bool
    ) -> None:
        self.store = store
        self._log = log
        self.allow_private = allow_private

    async def register(self, app: App, asked: Registration) -> tuple[EndpointRow, str]:
        """The endpoint and its secret (shown once): told of what is stored from
        now on."""
        if len(asked.url) > MAX_URL:
            raise Invalid(f"An endpoint's address is at most {MAX_URL} characters.")
        unknown = [kind for kind in asked.kinds if kind not in KINDS]
        if unknown or not asked.kinds:
            raise Invalid(
                f"Name the events to be told of, among {', '.join(KINDS)}"
                + (f" ('{unknown[0][:50]}' is none of them)." if unknown else ".")
            )
        if asked.game is not None and asked.game not in GAMES:
            raise Invalid(f"'{asked.game[:50]}' is no game: one of {', '.join(GAMES)}.")
        if len(await self.store.of_key(app.id)) >= MAX_ENDPOINTS:
            raise Invalid(
                f"An app key has at most {MAX_ENDPOINTS} endpoints: switch one off "
                "or use another key."
            )
        await check_address(asked.url, self.allow_private)
        secret = new_secret()
        row = EndpointRow(
            id=uuid.uuid4(),
            app_key=app.id,
            url=asked.url,
            kinds=tuple(kind for kind in KINDS if kind in asked.kinds),
            game_id=asked.game_id,
            game=asked.game,
            group=name_key(asked.group) if asked.group else None,
            created_at=datetime.min,
            enabled=True,
            reason=None,
            switched_at=None,
        )
        return await self.store.add(row, secret, await self._log.head()), secret

    async def of(self, app: App) -> list[EndpointRow]:
        return await self.store.of_key(app.id)

    async def get(self, app: App, id: uuid.UUID) -> EndpointRow:
        """The app's endpoint; NotFound for another app's, as for none."""
        found = await self.store.get(id)
        if found is None or found.app_key != app.id:
            raise NotFound(f"Your app key has no webhook endpoint {id}.")
        return found

    async def rotate(self, app: App, id: uuid.UUID) -> tuple[EndpointRow, str]:
        endpoint = await self.get(app, id)
        secret = new_secret()
        await self.store.rotate(id, secret, ROTATION_OVERLAP_SECONDS)
        return endpoint, secret

    async def switch(self, app: App, id: uuid.UUID, on: bool) -> EndpointRow:
        endpoint = await self.get(app, id)
        if endpoint.enabled != on:
            await self.store.switch(
                id, on, "switched on by its app" if on else "switched off by its app"
            )
        return await self.get(app, id)

    async def attempts(self, app: App, id: uuid.UUID) -> list[AttemptRow]:
        await self.get(app, id)
        return await self.store.attempts(id, ATTEMPTS_SHOWN)

    async def attempt(self, app: App, id: uuid.UUID, attempt_id: int) -> AttemptRow:
        await self.get(app, id)
        found = await self.store.attempt_by_id(id, attempt_id)
        if found is None:
            raise NotFound(f"The endpoint {id} has no delivery attempt {attempt_id}.")
        return found
