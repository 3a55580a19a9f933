"""Webhooks: an app registers an endpoint with its app key, and is told of what is
stored, as the Standard Webhooks specification says (https://www.standardwebhooks.com):
each message signed with the endpoint's secret by the `standardwebhooks` package,
under a `webhook-id` that names the event and the endpoint and stays the same on
every attempt, so a receiver drops a message it has had.

The deliverer (`service/readside/deliverer.py`) reads the log; this module is what an
app asks of its endpoints, and what both share: the kinds of event, the message of
an event and its signature. Where an endpoint may be is `addresses.py`'s to say.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
import uuid
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

import msgspec
from standardwebhooks import Webhook

from domain.names import name_key
from service.application.addresses import (
    Resolve,
    destination,
    refusal,
    resolve_by_system,
)
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
# How long a registration waits for its host to be resolved: one slower is refused
# as one not found.
RESOLVE_SECONDS = 10.0
# The deliveries an app key may send again by hand in a minute (each process counts
# its own, as it counts creations): each is an attempt made while its request
# waits, in the serving process.
RESENDS_PER_MINUTE = 10


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


class Webhooks:
    """An app's endpoints: registered, listed, rotated, switched, and their
    attempts. An endpoint may follow one of `games` (their names)."""

    def __init__(
        self,
        store: WebhookStore,
        log: EventStore,
        allow_private: bool,
        games: Collection[str],
        resolve: Resolve = resolve_by_system,
    ) -> None:
        self.store = store
        self._log = log
        self.allow_private = allow_private
        self._games = tuple(games)
        self._resolve = resolve

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
        if asked.game is not None and asked.game not in self._games:
            raise Invalid(
                f"'{asked.game[:50]}' is no game: one of {', '.join(self._games)}."
            )
        if len(await self.store.of_key(app.id)) >= MAX_ENDPOINTS:
            raise Invalid(
                f"An app key has at most {MAX_ENDPOINTS} endpoints: switch one off "
                "or use another key."
            )
        await self._check(asked.url)
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

    async def _check(self, url: str) -> None:
        """Invalid unless `url`'s host is found, within `RESOLVE_SECONDS`, and
        allowed; each delivery checks it again."""
        try:
            async with asyncio.timeout(RESOLVE_SECONDS):
                await destination(url, self.allow_private, self._resolve)
        except TimeoutError:
            raise refusal(urlsplit(url).hostname or "", self.allow_private) from None

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
