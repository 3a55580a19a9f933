"""Request bodies decoded once, at the edge, strictly, by their declared type.

Litestar decodes a handler's `data` leniently (a string "2" passes for the number 2).
A `strict_body(T)` DTO instead decodes the raw bytes with a msgspec decoder of T in
its default strict mode, and gives the OpenAPI document T's schema: a handler then
declares `data: T` with `dto=strict_body(T)` and receives a T, decoded once.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import msgspec
from litestar.dto import AbstractDTO, DTOConfig, DTOFieldDefinition
from litestar.typing import FieldDefinition


def strict_body(body_type: Any) -> type[AbstractDTO]:
    """A DTO that decodes `body_type` strictly (a Struct or a union of Structs)."""
    decoder = msgspec.json.Decoder(body_type)

    class StrictBody(AbstractDTO):
        config = DTOConfig()

        def decode_bytes(self, value: bytes) -> Any:
            return decoder.decode(value)

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
