"""Webhook endpoints over HTTP (docs/api.md, "Webhooks"): an app registers, reads,
rotates and switches its endpoints with its app key (scope `webhooks`), and reads
and resends their deliveries. Another app's endpoint is answered as none (404)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from service.application.webhooks import (
    ATTEMPTS_SHOWN,
    KINDS,
    MAX_ENDPOINTS,
    MAX_URL,
    RESENDS_PER_MINUTE,
    ROTATION_OVERLAP_SECONDS,
    Registration,
    Webhooks,
)
from service.http.bodies import MAX_JSON_BODY_BYTES, strict_body
from service.http.callers import APP_KEY_SCHEME, SCOPE, app_of
from service.http.headers import declared
from service.http.limits import RESENDS
from service.http.problems import problems
from service.readside.deliverer import Deliverer
from service.storage.webhooks import AttemptRow, EndpointRow

WEBHOOKS = "webhooks"
_KEYED = {
    "opt": {SCOPE: WEBHOOKS},
    "security": [{APP_KEY_SCHEME: []}],
}

Kind = Annotated[str, msgspec.Meta(max_length=50)]


class NewEndpoint(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """An endpoint to register: where to send, what of, and of which games only
    (none: every game the service stores)."""

    url: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_URL)]
    kinds: Annotated[list[Kind], msgspec.Meta(min_length=1, max_length=len(KINDS))]
    game_id: UUID | None = None
    game: Annotated[str, msgspec.Meta(max_length=50)] | None = None
    group: Annotated[str, msgspec.Meta(max_length=100)] | None = None


class Endpoint(msgspec.Struct, kw_only=True):
    """An endpoint; `enabled` false with `reason` says why it was switched off (by
    its app, a 410 Gone, or every attempt failing)."""

    id: UUID
    url: str
    kinds: list[str]
    game_id: UUID | None
    game: str | None
    group: str | None
    created_at: datetime
    enabled: bool
    reason: str | None
    switched_at: datetime | None


class EndpointSecret(Endpoint, kw_only=True):
    """An endpoint with its signing secret, shown this once."""

    secret: str


class EndpointList(msgspec.Struct, kw_only=True):
    endpoints: list[Endpoint]


class Attempt(msgspec.Struct, kw_only=True):
    """One attempt at a delivery: `status` is the endpoint's answer (null: none,
    `error` says why), `attempt` its number for that `webhook_id`."""

    id: int
    webhook_id: str
    kind: str
    game_id: UUID
    version: int
    attempt: int
    status: int | None
    error: str | None
    milliseconds: int
    by_hand: bool
    at: datetime


class AttemptList(msgspec.Struct, kw_only=True):
    attempts: list[Attempt]


def endpoint_of(row: EndpointRow) -> Endpoint:
    return Endpoint(**_fields(row))


def _fields(row: EndpointRow) -> dict:
    return {
        "id": row.id,
        "url": row.url,
        "kinds": list(row.kinds),
        "game_id": row.game_id,
        "game": row.game,
        "group": row.group,
        "created_at": row.created_at,
        "enabled": row.enabled,
        "reason": row.reason,
        "switched_at": row.switched_at,
    }


def attempt_of(row: AttemptRow) -> Attempt:
    return Attempt(
        id=row.id,
        webhook_id=row.message_id,
        kind=row.kind,
        game_id=row.game_id,
        version=row.version,
        attempt=row.attempt,
        status=row.status,
        error=row.error,
        milliseconds=row.milliseconds,
        by_hand=row.by_hand,
        at=row.at,
    )


class WebhookController(Controller):
    path = "/webhooks"
    tags = ("webhooks",)

    @post(
        "/",
        status_code=201,
        summary="Register a webhook endpoint",
        description="Needs an app key with the scope `webhooks`. The endpoint is "
        "told of what is stored from now on, each message signed as Standard "
        "Webhooks says with the secret this answer shows once. `kinds`: "
        + "; ".join(f"`{kind}`, {said}" for kind, said in KINDS.items())
        + f". At most {MAX_ENDPOINTS} endpoints a key. Its host must be on the "
        "public internet (every address its name resolves to), unless the "
        "service is run with `webhooks_allow_private`, which takes loopback and "
        "private addresses too (never a cloud metadata service's); a host "
        "refused is answered with the same 422 whether it was found or not.",
        dto=strict_body(NewEndpoint),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        responses=problems(401, 403, 413, 415, 422, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def register_webhook(
        self,
        request: Request,
        data: JSONBody[NewEndpoint],
        webhooks: NamedDependency[Webhooks],
        deliverer: NamedDependency[Deliverer],
    ) -> EndpointSecret:
        row, secret = await webhooks.register(
            app_of(request),
            Registration(
                url=data.url,
                kinds=tuple(data.kinds),
                game_id=data.game_id,
                game=data.game,
                group=data.group,
            ),
        )
        deliverer.wake(endpoints_changed=True)
        return EndpointSecret(**_fields(row), secret=secret)

    @get(
        "/",
        summary="The app's webhook endpoints, oldest first",
        responses=problems(401, 403, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def list_webhooks(
        self, request: Request, webhooks: NamedDependency[Webhooks]
    ) -> EndpointList:
        rows = await webhooks.of(app_of(request))
        return EndpointList(endpoints=[endpoint_of(row) for row in rows])

    @get(
        "/{webhook_id:uuid}",
        summary="One of the app's webhook endpoints",
        responses=problems(401, 403, 404, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def get_webhook(
        self,
        request: Request,
        webhook_id: FromPath[UUID],
        webhooks: NamedDependency[Webhooks],
    ) -> Endpoint:
        return endpoint_of(await webhooks.get(app_of(request), webhook_id))

    @post(
        "/{webhook_id:uuid}/rotate",
        status_code=200,
        summary="A new signing secret, shown once",
        description="The new secret signs from now on; the ones before it sign "
        f"too for {ROTATION_OVERLAP_SECONDS // 3600} hours, each message then "
        "carrying one signature by each, so a receiver changes its secret at ease.",
        opt={"body_media_type": None, SCOPE: WEBHOOKS},
        security=[{APP_KEY_SCHEME: []}],
        responses=problems(401, 403, 404, 503),
        operation_class=declared(),
    )
    async def rotate_webhook_secret(
        self,
        request: Request,
        webhook_id: FromPath[UUID],
        webhooks: NamedDependency[Webhooks],
    ) -> EndpointSecret:
        row, secret = await webhooks.rotate(app_of(request), webhook_id)
        return EndpointSecret(**_fields(row), secret=secret)

    @post(
        "/{webhook_id:uuid}/disable",
        status_code=200,
        summary="Switch an endpoint off",
        description="Nothing more is sent to it; switched on again, it is told of "
        "what was stored meanwhile, in order, from where it stopped.",
        opt={"body_media_type": None, SCOPE: WEBHOOKS},
        security=[{APP_KEY_SCHEME: []}],
        responses=problems(401, 403, 404, 503),
        operation_class=declared(),
    )
    async def disable_webhook(
        self,
        request: Request,
        webhook_id: FromPath[UUID],
        webhooks: NamedDependency[Webhooks],
    ) -> Endpoint:
        return endpoint_of(await webhooks.switch(app_of(request), webhook_id, False))

    @post(
        "/{webhook_id:uuid}/enable",
        status_code=200,
        summary="Switch an endpoint on again",
        description="It is told of what was stored while it was off, in order, from "
        "the event it stopped at.",
        opt={"body_media_type": None, SCOPE: WEBHOOKS},
        security=[{APP_KEY_SCHEME: []}],
        responses=problems(401, 403, 404, 503),
        operation_class=declared(),
    )
    async def enable_webhook(
        self,
        request: Request,
        webhook_id: FromPath[UUID],
        webhooks: NamedDependency[Webhooks],
        deliverer: NamedDependency[Deliverer],
    ) -> Endpoint:
        endpoint = await webhooks.switch(app_of(request), webhook_id, True)
        deliverer.wake(endpoints_changed=True)
        return endpoint_of(endpoint)

    @get(
        "/{webhook_id:uuid}/deliveries",
        summary="The endpoint's latest delivery attempts, newest first",
        description=f"The latest {ATTEMPTS_SHOWN} attempts, each with what the "
        "endpoint answered and how long it took.",
        responses=problems(401, 403, 404, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def list_webhook_deliveries(
        self,
        request: Request,
        webhook_id: FromPath[UUID],
        webhooks: NamedDependency[Webhooks],
    ) -> AttemptList:
        rows = await webhooks.attempts(app_of(request), webhook_id)
        return AttemptList(attempts=[attempt_of(row) for row in rows])

    @post(
        "/{webhook_id:uuid}/deliveries/{attempt_id:int}/resend",
        status_code=200,
        summary="Send an attempt's event again, now",
        description="The same message under the same `webhook-id`, signed anew; "
        "answers the attempt this made. It changes nothing of the endpoint's own "
        f"deliveries. At most {RESENDS_PER_MINUTE} a minute a key (429 with "
        "Retry-After past it), one at a time: one asked while another is under "
        "way waits for it.",
        opt={"body_media_type": None, SCOPE: WEBHOOKS, RESENDS: True},
        security=[{APP_KEY_SCHEME: []}],
        responses=problems(401, 403, 404, 422, 429, 503),
        operation_class=declared(),
    )
    async def resend_webhook_delivery(
        self,
        request: Request,
        webhook_id: FromPath[UUID],
        attempt_id: FromPath[int],
        webhooks: NamedDependency[Webhooks],
        deliverer: NamedDependency[Deliverer],
    ) -> Attempt:
        app = app_of(request)
        endpoint = await webhooks.get(app, webhook_id)
        attempt = await webhooks.attempt(app, webhook_id, attempt_id)
        return attempt_of(await deliverer.resend(endpoint, attempt))
