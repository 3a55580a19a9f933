"""The headers the service reads and sends, declared in the OpenAPI document.

Litestar documents the headers a handler takes as arguments (`Idempotency-Key`,
`Last-Event-ID`) and the ones it sets on a success; the others are read or set around
the handlers (caching, wording, refusals), so each route's operation declares them:
`operation_class=declared(...)`. Only declarations, but for `created`: a new game's
201, which says where the game is (`Location`, `game_address`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TypeVar
from uuid import UUID

from litestar import Response
from litestar.datastructures import ResponseHeader
from litestar.openapi.spec import OpenAPIHeader, OpenAPIResponse, Operation, Parameter
from litestar.openapi.spec import Schema as OpenAPISchema

_TEXT = OpenAPISchema(type="string")
PROBLEM = "application/problem+json"
T = TypeVar("T")

_ACCEPT_LANGUAGE = Parameter(
    name="Accept-Language",
    param_in="header",
    schema=_TEXT,
    required=False,
    description="The language of the answer's sentences and refusals: English "
    "(`en`, the default) or French (`fr`).",
)
_IF_NONE_MATCH = Parameter(
    name="If-None-Match",
    param_in="header",
    schema=_TEXT,
    required=False,
    description="An `ETag` this read answered: 304 with no body while the game "
    "has not moved.",
)
_ETAG = OpenAPIHeader(
    schema=_TEXT,
    description="The game's version (and the service's): send it back as "
    "If-None-Match.",
)
_CONTENT_ETAG = OpenAPIHeader(
    schema=_TEXT,
    description="A hash of the answer: send it back as If-None-Match.",
)
_RETRY_AFTER = OpenAPIHeader(
    schema=OpenAPISchema(type="integer"), description="Seconds to wait."
)
_CONTENT_LANGUAGE = OpenAPIHeader(
    schema=_TEXT, description="The language of `title` and `detail`."
)
_VARY = OpenAPIHeader(schema=_TEXT, description="`Accept-Language`.")
_CACHE_CONTROL = OpenAPIHeader(schema=_TEXT, description="`no-cache`.")


LOCATION = ResponseHeader(
    name="Location",
    description="The new game's address (`/games/{id}`).",
    documentation_only=True,
)


def game_address(game_id: UUID) -> str:
    """Where a game is: what `Location` says of it."""
    return f"/games/{game_id}"


def created(answer: T, game_id: UUID) -> Response[T]:
    """A 201 answer of a new game, with its address in `Location`."""
    return Response(
        answer, status_code=201, headers={"Location": game_address(game_id)}
    )


@cache
def declared(
    *, tagged: bool = False, worded: bool = False, by_content: bool = False
) -> type[Operation]:
    """An operation that declares, besides what Litestar found: `Retry-After` on
    429 and 503 and the language of every problem answer; with `tagged`,
    If-None-Match, the `ETag` of a success and the 304 (a tag of the game's
    version, or with `by_content` of the answer); with `worded`,
    `Accept-Language`."""

    @dataclass
    class Declared(Operation):
        def __post_init__(self) -> None:
            responses = self.responses or {}
            for status, answer in responses.items():
                if isinstance(answer, OpenAPIResponse):
                    _declare_answer(status, answer, tagged, worded, by_content)
            wanted = [_IF_NONE_MATCH] * tagged + [_ACCEPT_LANGUAGE] * worded
            self.parameters = [*(self.parameters or []), *wanted] or None
            if tagged:
                self.responses = {
                    **responses,
                    "304": _not_modified(worded, by_content),
                }

    return Declared


def _declare_answer(
    status: str, answer: OpenAPIResponse, tagged: bool, worded: bool, by_content: bool
) -> None:
    headers = dict(answer.headers or {})
    if status in ("429", "503"):
        headers["Retry-After"] = _RETRY_AFTER
    if PROBLEM in (answer.content or {}):
        headers |= {"Content-Language": _CONTENT_LANGUAGE, "Vary": _VARY}
    if tagged and status == "200":
        headers["ETag"] = _CONTENT_ETAG if by_content else _ETAG
        if "cache-control" not in headers:  # an answer Litestar did not describe
            headers["Cache-Control"] = _CACHE_CONTROL
        if worded:
            headers.setdefault("Vary", _VARY)
    answer.headers = headers or None


def _not_modified(worded: bool, by_content: bool = False) -> OpenAPIResponse:
    tag = _CONTENT_ETAG if by_content else _ETAG
    headers = {"Cache-Control": _CACHE_CONTROL, "ETag": tag}
    headers |= {"Vary": _VARY} if worded else {}
    moved = "the answer has not changed" if by_content else "the game has not moved"
    return OpenAPIResponse(
        description=f"Not Modified: {moved} since that tag.", headers=headers
    )
