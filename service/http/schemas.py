"""How the OpenAPI document shows the msgspec Structs, so that generated clients type
exactly what the service sends and takes.

- A request body (a Struct that forbids unknown fields) is closed
  (`additionalProperties: false`), and a field it may leave out is optional with no
  `default` keyword: generators make a field with a default required, which is right
  for what the service sends and wrong for what a client writes.
- What the service sends is a separate schema where a request body has the same
  shape (`DozitoCardRead` beside `DozitoCard`, `DobroPlayRead` beside `DobroPlay`):
  every field is present in an answer, so every field is required (except those a
  Struct leaves out at their default, `omit_defaults`, and those unset by default,
  which an answer leaves out while they are).
- A Struct of a game's domain is named for its game (`DozitoDiscardTops`): two games'
  `Card`s would otherwise share a title, which generated clients refuse.
- A union of Structs told apart by a field is a `oneOf` with a `discriminator`
  (`Tagged`): the moves by `type`, a game's public state (`GameState`), score
  sheet (`GameSheet`) and creation as stored (`GameCreation`, with its game's
  options) by `game`, mapped from the registry (both Dobro editions to
  `DobroView`, `DobroSheet` and `DobroGameCreated`).
- What depends on the games is made from the registry the app was built with
  (`DocumentedStructs(games)`), never from one read when a module is imported: a
  game's name is one of its games' (`OneOfTheGames`), and a type marked
  `OfTheGames(made)` is the one `made(games)` gives (a logged move of any of its
  games, the shapes of a stored event).
- A dict keyed by a closed set of names (a die's colour) lists those names as its
  properties and no other.
- A field's `Meta(extra_json_schema=...)` is added to its schema: the domain narrows
  there what a schema can say and a decoder leaves to the rules, so that their
  refusals still cite a ruling (a Skip card in a `play`, D9).
- A game's options, and the Structs they hold (`DobroDeckManifest`), are the JSON
  Schema msgspec derives from them, as `GET /games/kinds` gives it: bounds, keys,
  descriptions and examples alike, without the `default`s a request body leaves out.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Optional

import msgspec

# Litestar's own plugin for Structs, extended rather than copied; it is not exported
# (Litestar 2), and tests/service/test_openapi.py fails if a release changes it.
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import Discriminator, OpenAPIType, Reference, Schema
from litestar.params import KwargDefinition
from litestar.typing import FieldDefinition

from domain.creation import GameCreated
from domain.game import AnyRules
from domain.registry import Registry
from service.application.creating import NewGame
from service.application.games import OneOfTheGames
from service.application.moves import move_bodies


class Tagged:
    """Marks a union of Structs (`Annotated[A | B, Tagged("type")]`) that `field`
    tells apart: a `oneOf` with a discriminator."""

    def __init__(self, field: str) -> None:
        self.field = field


@dataclass(frozen=True)
class OfTheGames:
    """Marks a type made from the app's games: the one `made(games)` gives (made
    once a registry: the document names each Struct it holds once)."""

    made: Callable[[Registry], Any]


class _State:
    """Marks the annotation of a game's public state in an answer."""


class _Created:
    """Marks the annotation of a game's creation as stored (`game_created`)."""


@dataclass(frozen=True)
class _Sheet:
    """Marks the annotation of a game's score sheet in an answer (or null)."""

    nullable: bool = False


GameState = Annotated[Any, _State]
GameSheet = Annotated[Any, _Sheet()]
GameSheetOrNull = Annotated[Any, _Sheet(nullable=True)]
GameCreation = Annotated[Any, _Created]


def _view_of(rules: AnyRules) -> type[msgspec.Struct]:
    return typing.get_type_hints(rules.view)["return"]


def _sheet_marked(field_definition: FieldDefinition) -> _Sheet | None:
    return next((m for m in field_definition.metadata if isinstance(m, _Sheet)), None)


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


def _values(struct: type[msgspec.Struct], field: str) -> tuple[str, ...]:
    """The values `field` can have in `struct`: its tag, or its Literal's."""
    config = struct.__struct_config__
    if config.tag_field == field and config.tag is not None:
        return (config.tag,)
    for info in msgspec.structs.fields(struct):
        if info.encode_name == field:
            return typing.get_args(info.type)
    raise TypeError(f"{struct.__name__} has no `{field}` to tell it apart")


def _unwrapped(annotation: Any) -> Any:
    while typing.get_origin(annotation) is Annotated:
        annotation = typing.get_args(annotation)[0]
    return annotation


def _closed_keys(annotation: Any) -> tuple[str, ...]:
    """The keys of a dict keyed by a Literal (`dict[Color, int]`), else ()."""
    annotation = _unwrapped(annotation)
    if typing.get_origin(annotation) is not dict:
        return ()
    key = _unwrapped(typing.get_args(annotation)[0])
    return typing.get_args(key) if typing.get_origin(key) is typing.Literal else ()


def _extra_schema(annotation: Any) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    for meta in getattr(annotation, "__metadata__", ()):
        if isinstance(meta, msgspec.Meta) and meta.extra_json_schema:
            extra |= meta.extra_json_schema
    return extra


class DocumentedStructs(StructSchemaPlugin):
    """Litestar's schemas of msgspec Structs, named and closed as above, for an
    app that hosts `games`."""

    def __init__(self, games: Registry) -> None:
        self._games = games
        self._bodies = _structs_in(move_bodies(games).union)
        self._options = {
            struct
            for rules in games.values()
            for struct in _structs_in(rules.options).values()
        }

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        return (
            _State in field_definition.metadata
            or _Created in field_definition.metadata
            or _sheet_marked(field_definition) is not None
            or _game_name(field_definition) is not None
            or any(
                isinstance(m, Tagged | OfTheGames) for m in field_definition.metadata
            )
            or super().is_plugin_supported_field(field_definition)
        )

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator):
        if (optional := _game_name(field_definition)) is not None:
            return self._names(optional, schema_creator)
        for meta in field_definition.metadata:
            if isinstance(meta, OfTheGames):
                made = FieldDefinition.from_annotation(meta.made(self._games))
                return schema_creator.for_field_definition(made)
        if _State in field_definition.metadata:
            return self._states(schema_creator)
        if _Created in field_definition.metadata:
            return self._creations(schema_creator)
        if sheet := _sheet_marked(field_definition):
            return self._sheets(schema_creator, sheet.nullable)
        for meta in field_definition.metadata:
            if isinstance(meta, Tagged):
                return self._tagged(field_definition.annotation, meta, schema_creator)
        struct = field_definition.annotation
        if struct is NewGame:
            return self._new_games(field_definition, schema_creator)
        name = self._qualified(struct)
        if name is not None and field_definition.kwarg_definition is None:
            key = KwargDefinition(schema_component_key=name)
            return schema_creator.for_field_definition(
                FieldDefinition.from_annotation(struct, kwarg_definition=key)
            )
        if struct in self._options:
            return _as_msgspec_says(field_definition, name, schema_creator)
        schema = super().to_openapi_schema(field_definition, schema_creator)
        if name is not None:
            schema.title = name
        self._refine(struct, schema)
        _one_shape(struct, schema)
        return schema

    def _names(self, optional: bool, schema_creator) -> Schema:
        """A game's name: one of the games', as a `Literal` of them reads."""
        names = Literal[tuple(self._games)]  # type: ignore[valid-type]
        annotation = Optional[names] if optional else names  # noqa: UP045
        return schema_creator.for_field_definition(
            FieldDefinition.from_annotation(annotation)
        )

    def _new_games(self, field_definition, schema_creator) -> Schema:
        """`POST /games`'s body, one shape per game told apart by `game`: that
        game's names and options (closed Structs, so a misspelt or mistyped option,
        or another game's, does not match). The service decodes every one as
        `NewGame`, whose `game` is a string and `options` a dict, so that a name the
        registry does not hold and a game's refused options are refused in the
        rules' words (`domain/setup.py`)."""
        shapes = _by_game(self._games, _new_game_of)
        union = self._one_of("game", shapes, schema_creator)
        # A component of its own, so that clients name the union `NewGame`.
        schema = schema_creator.schema_registry.get_schema_for_field_definition(
            field_definition
        )
        schema.title, schema.type = NewGame.__name__, OpenAPIType.OBJECT
        schema.one_of, schema.discriminator = union.one_of, union.discriminator
        return schema

    def _creations(self, schema_creator) -> Schema:
        """A creation told apart by its `game`, with that game's options as a new
        game's body takes them (the options are stored as sent)."""
        shapes = _by_game(self._games, _created_of)
        return self._one_of("game", shapes, schema_creator)

    def _states(self, schema_creator) -> Schema:
        views = {name: _view_of(self._games[name]) for name in sorted(self._games)}
        return self._one_of("game", views, schema_creator)

    def _sheets(self, schema_creator, nullable: bool) -> Schema:
        games = self._games
        sheets = {name: games[name].sheet_type for name in sorted(games)}
        one_of = self._one_of("game", sheets, schema_creator)
        if nullable:
            return Schema(one_of=[one_of, Schema(type=OpenAPIType.NULL)])
        return one_of

    def _tagged(self, union: Any, tagged: Tagged, schema_creator) -> Schema:
        # A union of one is the type itself (an undo's one event).
        members = [m for m in typing.get_args(union) or (union,) if m is not type(None)]
        by_value = {
            value: member
            for member in members
            for value in _values(member, tagged.field)
        }
        one_of = self._one_of(tagged.field, by_value, schema_creator)
        if type(None) in typing.get_args(union):
            return Schema(one_of=[one_of, Schema(type=OpenAPIType.NULL)])
        return one_of

    @staticmethod
    def _one_of(field: str, by_value: dict[str, type], schema_creator) -> Schema:
        """`oneOf` the Structs, told apart by `field`'s value."""
        references = {
            struct: schema_creator.for_field_definition(
                FieldDefinition.from_annotation(struct)
            )
            for struct in by_value.values()
        }
        mapping = {value: references[struct] for value, struct in by_value.items()}
        return Schema(
            one_of=list(references.values()),
            discriminator=_Discriminator(property_name=field, references=mapping),
        )

    @staticmethod
    def _refine(struct: type[msgspec.Struct], schema: Schema) -> None:
        """Closed request bodies without defaults; answers with every field."""
        config = struct.__struct_config__
        fields = msgspec.structs.fields(struct)
        properties = schema.properties or {}
        for info in fields:
            shown = properties.get(info.encode_name)
            if not isinstance(shown, Schema):
                continue
            if _only_member(shown) is not None:
                # A field the Struct may leave out (`X | UnsetType`) is X.
                shown = properties[info.encode_name] = _only_member(shown)
                if not isinstance(shown, Schema):
                    continue
            keys = _closed_keys(info.type)
            if keys and isinstance(shown.additional_properties, Schema | Reference):
                shown.properties = dict.fromkeys(keys, shown.additional_properties)
                shown.additional_properties = False
            _one_item_type(shown)
            for keyword, value in _extra_schema(info.type).items():
                setattr(shown, _ATTRIBUTES.get(keyword, keyword), value)
            if config.forbid_unknown_fields:
                shown.default = None
        if config.forbid_unknown_fields:
            schema.additional_properties = False
        else:
            # A tagged Struct's tag is always sent: a client tells the shapes by it.
            tag = [config.tag_field] if config.tag is not None else []
            schema.required = sorted(
                tag
                + [
                    info.encode_name
                    for info in fields
                    if info.required
                    or not (config.omit_defaults or _unset_by_default(info))
                ]
            )

    def _qualified(self, struct: type) -> str | None:
        """A domain Struct's schema name: its game's, and `Read` after it where a
        request body has that name (the strict copy of the same shape)."""
        game = _game_of(struct)
        name = struct.__name__
        if struct.__module__ == "domain.history" and name in self._bodies:
            return name + "Read"  # undo and abandon, as logged in every game
        if game is None:
            return None
        name = name if name.startswith(game) else game + name
        return name + "Read" if name in self._bodies else name


def _game_name(field_definition: FieldDefinition) -> bool | None:
    """Whether a game's name (`OneOfTheGames`) may be null; None for a field that
    is not one."""
    if OneOfTheGames in field_definition.metadata:
        return False
    if field_definition.is_optional and any(
        OneOfTheGames in inner.metadata for inner in field_definition.inner_types
    ):
        return True
    return None


def _by_game(
    games: Registry, shape_of: Callable[[type, tuple[str, ...], str], type]
) -> dict[str, type]:
    """Each game's shape, as `shape_of(options, names, family)` makes it for the
    games that share their options (a game and its editions)."""
    by_options: dict[type, list[str]] = {}
    for name, rules in games.items():
        by_options.setdefault(rules.options, []).append(name)
    return {
        name: shape_of(options, tuple(names), games[names[0]].family)
        for options, names in by_options.items()
        for name in names
    }


def _title(family: str) -> str:
    """A game's family as a schema's name has it (`double-donkey`: DoubleDonkey)."""
    return "".join(part.title() for part in family.split("-"))


@functools.cache
def _new_game_of(
    options: type[msgspec.Struct], names: tuple[str, ...], family: str
) -> type:
    """The body of a new game of `names` (a game and its editions) as the document
    shows it: `NewGame` with `game` one of them and `options` theirs."""
    return msgspec.defstruct(
        f"New{_title(family)}Game",
        [
            ("game", Literal[names]),
            ("options", options, msgspec.field(default_factory=options)),
        ],
        bases=(NewGame,),
        forbid_unknown_fields=True,
        kw_only=True,
        module=__name__,
    )


@functools.cache
def _created_of(
    options: type[msgspec.Struct], names: tuple[str, ...], family: str
) -> type:
    """The creation of a game of `names` as the document shows it: `GameCreated`
    with `game` one of them and `options` theirs."""
    return msgspec.defstruct(
        f"{_title(family)}GameCreated",
        [("game", Literal[names]), ("options", options)],
        bases=(GameCreated,),
        kw_only=True,
        module=__name__,
    )


def _as_msgspec_says(field_definition, name: str | None, schema_creator) -> Schema:
    """A Struct of a game's options as msgspec's JSON Schema of it, each Struct it
    holds by reference to its own component."""
    struct = field_definition.annotation
    _, components = msgspec.json.schema_components([struct], ref_template="{name}")
    held = _structs_in(struct)

    def reference(name: str) -> Schema | Reference:
        return schema_creator.for_field_definition(
            FieldDefinition.from_annotation(held[name])
        )

    said = _from_json_schema(components[struct.__name__], reference)
    # Registered before its fields are filled in, as Litestar registers a component.
    schema = schema_creator.schema_registry.get_schema_for_field_definition(
        field_definition
    )
    for attribute in dataclasses.fields(said):
        setattr(schema, attribute.name, getattr(said, attribute.name))
    schema.title = name or struct.__name__
    for shown in (schema.properties or {}).values():
        if isinstance(shown, Schema):
            shown.default = None  # a request body: what is left out is not sent
    return schema


# JSON Schema's keywords as Litestar's Schema attributes (`minItems`: `min_items`).
_ATTRIBUTE_OF = {
    attribute.metadata.get("alias", attribute.name): attribute.name
    for attribute in dataclasses.fields(Schema)
}
# The keywords whose value is a schema, a list of schemas, or schemas by name.
_A_SCHEMA = {"items", "additionalProperties", "propertyNames", "not", "contains"}
_SCHEMAS = {"anyOf", "oneOf", "allOf", "prefixItems"}
_BY_NAME = {"properties", "patternProperties"}


def _from_json_schema(
    said: dict[str, Any], reference: Callable[[str], Schema | Reference]
) -> Schema | Reference:
    """A JSON Schema as Litestar's Schema, each `$ref` (a component's name) as
    `reference` gives it."""
    if "$ref" in said:
        return reference(said["$ref"])
    attributes: dict[str, Any] = {}
    for keyword, value in said.items():
        if keyword in _A_SCHEMA and isinstance(value, dict):
            value = _from_json_schema(value, reference)
        elif keyword in _SCHEMAS:
            value = [_from_json_schema(member, reference) for member in value]
        elif keyword in _BY_NAME:
            value = {k: _from_json_schema(v, reference) for k, v in value.items()}
        elif keyword == "type":
            value = OpenAPIType(value)
        attributes[_ATTRIBUTE_OF[keyword]] = value
    return Schema(**attributes)


def _only_member(shown: Schema) -> Schema | Reference | None:
    """The one member of a `oneOf` of one that says nothing else, else None."""
    if shown.one_of is None or len(shown.one_of) != 1:
        return None
    bare = Schema(one_of=shown.one_of)
    return shown.one_of[0] if shown == bare else None


def _one_item_type(shown: Schema) -> None:
    """A tuple of one type (`tuple[Card, Card]`) as an array of that type: Litestar
    gives its items a `oneOf` of the type and an empty schema, which anything
    matches, so no item would match exactly one."""
    items = shown.items
    if isinstance(items, Schema) and items.one_of:
        kept = [
            s for s in items.one_of if not (isinstance(s, Schema) and s == Schema())
        ]
        if len(kept) == 1:
            shown.items = kept[0]


def _one_shape(struct: type, schema: Schema) -> None:
    """A Struct that is one of two shapes (`one_shape_of`, the fields of which
    exactly one is given: a Double Donkey card's `colors` or `angry`) as a `oneOf`
    of the shapes, each with its own field alone. (The service also reads the other
    field given as null; a schema that allows it makes generated clients type the
    shapes so that neither is assignable to what they send.)"""
    given = getattr(struct, "one_shape_of", ())
    properties = schema.properties or {}
    if not given:
        return
    schema.one_of = [
        Schema(
            type=OpenAPIType.OBJECT,
            properties={name: _not_null(properties[name])},
            required=[name],
            additional_properties=schema.additional_properties,
        )
        for name in given
    ]
    schema.properties = schema.required = schema.additional_properties = None


def _not_null(shown: Schema | Reference) -> Schema | Reference:
    """A field's schema without its `null`: `oneOf [X, null]` as X, and a nullable
    enum's type and values without null."""
    if not isinstance(shown, Schema):
        return shown
    if shown.one_of:
        kept = [s for s in shown.one_of if s != Schema(type=OpenAPIType.NULL)]
        if len(kept) == 1:
            return kept[0]
    if isinstance(shown.type, list) and shown.enum:
        types = [t for t in shown.type if t != OpenAPIType.NULL]
        enum = [v for v in shown.enum if v is not None]
        return Schema(type=types[0] if len(types) == 1 else types, enum=enum)
    return shown


@dataclass
class _Discriminator(Discriminator):
    """A discriminator whose mapping names the schemas as the document finally does:
    Litestar renames a component once every schema is known, and updates the
    references it gave out, not strings copied from them."""

    references: dict[str, Reference] = field(default_factory=dict)

    def to_schema(self) -> dict[str, Any]:
        mapping = {value: ref.ref for value, ref in self.references.items()}
        return {"propertyName": self.property_name, "mapping": mapping}


# The Schema attributes that JSON Schema keywords of `extra_json_schema` set.
_ATTRIBUTES = {"oneOf": "one_of", "anyOf": "any_of", "minItems": "min_items"}


def _unset_by_default(info: msgspec.structs.FieldInfo) -> bool:
    """A field whose default is `msgspec.UNSET`: left out of an answer while unset."""
    return info.default is msgspec.UNSET
