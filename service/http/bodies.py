"""Request bodies decoded once, at the edge, strictly, by their declared type.

Litestar decodes a handler's `data` leniently (a string "2" passes for the number 2).
A `strict_body(T)` DTO instead decodes the raw bytes with a msgspec decoder of T in
its default strict mode, refusing duplicate keys (`strict_json`), and gives the
OpenAPI document T's schema: a handler then declares `data: T` with
`dto=strict_body(T)` and receives a T, decoded once.

Litestar reads a body whatever its Content-Type says, so a browser's cross-site form
(`text/plain`, which needs no CORS preflight) could create games: the
`DeclaredMediaType` middleware answers 415 to a body not of the handler's media type
(`application/json` unless its `opt` names another, or a tuple of others, under
`body_media_type`), before the handler or its `before_request` hook runs.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

import msgspec
from litestar.datastructures import Headers
from litestar.dto import AbstractDTO, DTOConfig, DTOFieldDefinition
from litestar.enums import ScopeType
from litestar.exceptions import HTTPException
from litestar.middleware import ASGIMiddleware
from litestar.status_codes import HTTP_415_UNSUPPORTED_MEDIA_TYPE
from litestar.types import ASGIApp, Receive, Scope, Send
from litestar.typing import FieldDefinition

from service.application import strict_json
from service.application.errors import Invalid

JSON = "application/json"

# The largest JSON body of a game's creation or a move (an import may be larger): a
# creation with every text at its longest, each character escaped, is under 20 KB.
# It bounds the cost of the second read (strict_json) to some 10 ms at worst.
MAX_JSON_BODY_BYTES = 128 * 1024

_WITH_BODY = frozenset(("POST", "PUT", "PATCH"))


class DeclaredMediaType(ASGIMiddleware):
    """415 for a body whose Content-Type is not the one the handler reads.

    A middleware, not a Litestar guard: Litestar hands each guard its own copy of the
    route handler, made anew on every request, and this check runs on every request.
    """

    scopes = (ScopeType.HTTP,)

    async def handle(
        self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp
    ) -> None:
        expected = scope["route_handler"].opt.get("body_media_type", JSON)
        # A handler that reads no body (`body_media_type` None) takes any.
        if scope["method"] in _WITH_BODY and expected is not None:
            taken = (expected,) if isinstance(expected, str) else expected
            given = Headers.from_scope(scope).get("content-type", "")
            media_type = given.partition(";")[0].strip().lower()
            if media_type not in taken:
                shown = f"'{media_type}'" if media_type else "none"
                raise HTTPException(
                    status_code=HTTP_415_UNSUPPORTED_MEDIA_TYPE,
                    detail="The body must be sent as Content-Type: "
                    f"{' or '.join(taken)}, not {shown}.",
                )
        await next_app(scope, receive, send)


def strict_body(
    body_type: Any, gone: Mapping[str, str] | None = None
) -> type[AbstractDTO]:
    """A DTO that decodes `body_type` strictly (a Struct or a union of Structs).
    `gone`: fields the body no longer takes, each with the sentence that refuses it
    (a 422) in place of msgspec's "unknown field"."""
    decoder = msgspec.json.Decoder(body_type)
    refusals = {
        f"Object contains unknown field `{field}`": sentence
        for field, sentence in (gone or {}).items()
    }

    class StrictBody(AbstractDTO):
        config = DTOConfig()

        def decode_bytes(self, value: bytes) -> Any:
            try:
                return strict_json.decode(decoder, value)
            except msgspec.ValidationError as error:
                refusal = refusals.get(str(error))
                if refusal is None:
                    raise
                raise Invalid(refusal) from None

        def decode_builtins(self, value: dict[str, Any]) -> Any:
            return msgspec.convert(value, body_type)

        @classmethod
        def create_for_field_definition(
            cls, field_definition: FieldDefinition, handler_id: str, backend_cls=None
        ) -> None:
            """Nothing to build: the decoder does the work."""

        @classmethod
        def create_openapi_schema(
            cls, field_definition: FieldDefinition, handler_id: str, schema_creator
        ) -> Any:
            return schema_creator.for_field_definition(
                FieldDefinition.from_annotation(body_type)
            )

        @classmethod
        def generate_field_definitions(
            cls, model_type: type[Any]
        ) -> Generator[DTOFieldDefinition, None, None]:
            raise NotImplementedError("a strict body is decoded whole")

        @classmethod
        def detect_nested_field(cls, field_definition: FieldDefinition) -> bool:
            return False

    return StrictBody
