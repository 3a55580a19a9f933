"""The moves as clients send them: strict copies of the domain's move Structs.

The domain's Structs are the stored shapes, and they decode leniently: a field that a
later version adds or drops must never make an old stored row unreadable. What a
client sends is read strictly instead: an unknown field, a string where a number
belongs, a missing `type` are refused. So every move Struct of every game, and every
Struct nested in one (a card), gets a copy here that forbids unknown fields, named for
its game (`DobroPlay`, `DozitoCard`, `DoubleDonkeyCard`), so that the OpenAPI document
has one schema per shape. A move body also carries `expected_version`.

The copies of every game a registry holds form one tagged union (move `type`s differ
across games, `domain.registry` sees to it; the two Dobro editions share theirs),
built once for each app (its move route, its OpenAPI document) and for each
registry's imports: one decoder reads any body, and
`MoveBodies.to_domain` turns a decoded body into the domain's move, running the
domain's own checks (`__post_init__`) on the way. Every player's name in it (the
fields the domain marks `PlayerName`, the keys of a Reveal's cards or a RollOff's
rolls) is read as at the game's creation, with `domain.names.normal_name`.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import Meta

from domain.game import Rules
from domain.history import TABLE_MOVES
from domain.names import PLAYER_NAME, normal_name
from domain.registry import Registry
from service.application import strict_json

ExpectedVersion = Annotated[int, Meta(ge=1)] | None


class MoveBodies:
    """The strict wire copies of every game's moves, and the way back."""

    def __init__(
        self, games: Mapping[str, Rules], extra: tuple[tuple[Any, ...], ...] = ()
    ) -> None:
        """`extra`: defstruct fields every body has besides `expected_version`."""
        self._copies: dict[type, type] = {}
        body_of: dict[type, type] = {}
        fields = (*_EXPECTED_VERSION, *extra)
        for name, rules in games.items():
            prefix = "".join(part.title() for part in name.split("-"))
            for move in rules.moves:
                if move not in body_of:  # the two Dobro editions share them
                    body_of[move] = self._copy(move, prefix, fields)
        for move in TABLE_MOVES:
            body_of[move] = self._copy(move, "", fields)
        domain_of = {body: move for move, body in body_of.items()}
        self._domain_of = domain_of
        self._names = {body: _name_fields(move) for body, move in domain_of.items()}
        tags = [body.__struct_config__.tag for body in domain_of]
        assert len(tags) == len(set(tags)), "two games' moves share a type"
        self.union: Any = Union[tuple(domain_of)]  # noqa: UP007 (built at runtime)
        self.decoder = msgspec.json.Decoder(self.union)

    def decode(self, body: bytes) -> Any:
        """A body read strictly; msgspec.ValidationError (a DecodeError) if not,
        also for an object that gives a key twice."""
        return strict_json.decode(self.decoder, body)

    def to_domain(self, body: msgspec.Struct) -> tuple[Any, int | None]:
        """The domain's move and the expected version the body carries; a
        msgspec.ValidationError if two of its names are one player's."""
        body = self._names_read(body)
        move = msgspec.convert(body, self._domain_of[type(body)], from_attributes=True)
        return move, body.expected_version  # type: ignore[attr-defined]

    def _names_read(self, body: msgspec.Struct) -> msgspec.Struct:
        changes: dict[str, Any] = {}
        for field, keys in self._names[type(body)]:
            value = getattr(body, field)
            if value is None:
                continue
            if not keys:
                changes[field] = normal_name(value)
                continue
            named = {normal_name(name): v for name, v in value.items()}
            if len(named) < len(value):
                raise msgspec.ValidationError(f"`{field}` names one player twice")
            changes[field] = named
        return msgspec.structs.replace(body, **changes) if changes else body

    def _copy(
        self, struct: type[msgspec.Struct], prefix: str, extra: tuple[Any, ...] = ()
    ) -> type[msgspec.Struct]:
        """`struct` with unknown fields forbidden, its nested Structs copied too."""
        if not extra and struct in self._copies:
            return self._copies[struct]
        config = struct.__struct_config__
        fields = [_field(f, self._strict(f.type, prefix)) for f in _fields(struct)]
        copy = msgspec.defstruct(
            f"{prefix}{struct.__name__}",
            [*fields, *extra],
            tag_field=config.tag_field,
            tag=config.tag,
            omit_defaults=config.omit_defaults,
            rename={f.name: f.encode_name for f in _fields(struct)},
            forbid_unknown_fields=True,
            frozen=True,
            kw_only=True,
            module=__name__,
        )
        copy.__doc__ = struct.__doc__
        if hasattr(struct, "one_shape_of"):  # read by the OpenAPI document's schemas
            copy.one_shape_of = struct.one_shape_of  # type: ignore[attr-defined]
        if not extra:
            self._copies[struct] = copy
        return copy

    def _strict(self, annotation: Any, prefix: str) -> Any:
        """The annotation with every Struct in it replaced by its strict copy."""
        if isinstance(annotation, type) and issubclass(annotation, msgspec.Struct):
            return self._copy(annotation, prefix)
        origin = typing.get_origin(annotation)
        if origin is None or origin is Literal:
            return annotation
        args = typing.get_args(annotation)
        if origin is Annotated:
            return Annotated[(self._strict(args[0], prefix), *annotation.__metadata__)]
        inner = tuple(
            arg if arg is Ellipsis else self._strict(arg, prefix) for arg in args
        )
        if origin in (Union, types.UnionType):
            return Union[inner]  # noqa: UP007 (built at runtime)
        if origin is tuple and inner[-1:] == (Ellipsis,):
            # A list on the wire, made a tuple by the conversion to the domain's move:
            # Litestar documents `tuple[X, ...]` as "X or anything", a union that
            # generated clients refuse (and JSON Schema validators then accept junk).
            return list[inner[0]]
        return origin[inner]


_EXPECTED_VERSION = (("expected_version", ExpectedVersion, None),)
_fields = msgspec.structs.fields


def _name_fields(struct: type[msgspec.Struct]) -> tuple[tuple[str, bool], ...]:
    """(field, keys) for each field of `struct` that holds players' names: the
    field's value is one (keys false), or the keys of the dict it holds are."""
    found = []
    for field in _fields(struct):
        annotation = field.type
        if _is_name(annotation):
            found.append((field.name, False))
            continue
        if typing.get_origin(annotation) is Annotated:
            annotation = typing.get_args(annotation)[0]
        if typing.get_origin(annotation) is dict and _is_name(
            typing.get_args(annotation)[0]
        ):
            found.append((field.name, True))
    return tuple(found)


def _is_name(annotation: Any) -> bool:
    """`PlayerName`, or `PlayerName | None`."""
    origin = typing.get_origin(annotation)
    if origin in (Union, types.UnionType):
        return any(_is_name(arg) for arg in typing.get_args(annotation))
    return origin is Annotated and PLAYER_NAME in annotation.__metadata__


def _field(field: msgspec.structs.FieldInfo, annotation: Any) -> tuple[Any, ...]:
    """A defstruct field spec: the name, the type and the default, if any."""
    if field.required:
        return (field.name, annotation)
    if field.default is not msgspec.NODEFAULT:
        return (field.name, annotation, field.default)
    return (
        field.name,
        annotation,
        msgspec.field(default_factory=field.default_factory),
    )


@functools.cache
def move_bodies(games: Registry) -> MoveBodies:
    """The move bodies of `games`, built once a registry: the app decodes its
    moves with them and its OpenAPI document describes them."""
    return MoveBodies(games)
