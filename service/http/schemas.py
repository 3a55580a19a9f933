"""How the OpenAPI document shows the msgspec Structs: closed where the service is
strict, game-qualified names, and a game's public state typed.

- A Struct that forbids unknown fields (every request body) is documented with
  `additionalProperties: false`, so validators and generated clients know that the
  service refuses a field it does not know.
- A Struct of a game's domain (a public state and what it holds) is named for its game
  (`DozitoDiscardTops`): two games' `Card`s would otherwise share a title, which
  generated clients refuse. Where a move body already has the shape under that name
  (the strict copies of `service.application.moves`, made from the same Struct), the
  state shows it by that schema: one `DozitoCard` type for what is sent and shown.
- `GameState`, the annotation of `state` in the answers, is one of the games' public
  states. No field tells them apart (the answer's `game` is beside `state`, not in
  it), so it is a `oneOf` without a discriminator: each state has required fields no
  other has (`edition`, `grids`, `hay`), so exactly one matches a real answer.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any

import msgspec

# Litestar's own plugin for Structs, extended rather than copied; it is not exported
# (Litestar 2), and tests/service/test_openapi.py fails if a release changes it.
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import Schema
from litestar.params import KwargDefinition
from litestar.typing import FieldDefinition

from domain.registry import GAMES
from service.application.moves import MOVE_BODIES


class _State:
    """Marks the annotation of a game's public state in an answer."""


GameState = Annotated[Any, _State]


def _views() -> list[type[msgspec.Struct]]:
    views = [typing.get_type_hints(rules.view)["return"] for rules in GAMES.values()]
    return list(dict.fromkeys(views))  # the two Dobro editions share theirs


def _structs_in(annotation: Any) -> dict[str, type[msgspec.Struct]]:
    """Every Struct an annotation holds, nested ones too, by name."""
    found: dict[str, type[msgspec.Struct]] = {}
    pending = [annotation]
    while pending:
        current = pending.pop()
        if isinstance(current, type) and issubclass(current, msgspec.Struct):
            if current.__name__ not in found:
                found[current.__name__] = current
                pending.extend(f.type for f in msgspec.structs.fields(current))
        else:
            pending.extend(typing.get_args(current))
    return found


def _game_of(struct: type) -> str | None:
    """The game whose domain package defines `struct`, as a name prefix."""
    package = struct.__module__.split(".")
    if len(package) < 3 or package[0] != "domain":
        return None
    return "".join(part.title() for part in package[1].split("_"))


class DocumentedStructs(StructSchemaPlugin):
    """Litestar's schemas of msgspec Structs, named and closed as above."""

    def __init__(self) -> None:
        self._bodies = _structs_in(MOVE_BODIES.union)
        self._views = _views()

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        return _State in field_definition.metadata or super().is_plugin_supported_field(
            field_definition
        )

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator):
        if _State in field_definition.metadata:
            return Schema(
                one_of=[
                    schema_creator.for_field_definition(
                        FieldDefinition.from_annotation(view)
                    )
                    for view in self._views
                ]
            )
        struct = field_definition.annotation
        name = self._qualified(struct)
        if name is not None and field_definition.kwarg_definition is None:
            shown = self._bodies.get(name)
            if shown is not None:
                return schema_creator.for_field_definition(
                    FieldDefinition.from_annotation(shown)
                )
            key = KwargDefinition(schema_component_key=name)
            return schema_creator.for_field_definition(
                FieldDefinition.from_annotation(struct, kwarg_definition=key)
            )
        schema = super().to_openapi_schema(field_definition, schema_creator)
        if name is not None:
            schema.title = name
        if struct.__struct_config__.forbid_unknown_fields:
            schema.additional_properties = False
        return schema

    @staticmethod
    def _qualified(struct: type) -> str | None:
        game = _game_of(struct)
        if game is None:
            return None
        name = struct.__name__
        return name if name.startswith(game) else game + name
