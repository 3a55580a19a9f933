"""The body of `POST /games/{id}/moves`: one move of the game, plus `expected_version`.

The wire shape of each move is the game's own move with one more optional field, built
from the games' move Structs so the two cannot drift apart. Every game's moves form one
tagged union (their `type`s differ across games), which is what the OpenAPI document
describes; a move of another game is refused for the game at hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Union

import msgspec
from msgspec import Meta

from domain.game import Rules
from domain.history import Undo
from domain.registry import GAMES
from service.problems import Problem


def _field(field: msgspec.structs.FieldInfo) -> Any:
    if field.required:
        return (field.name, field.type)
    if field.default is not msgspec.NODEFAULT:
        return (field.name, field.type, msgspec.field(default=field.default))
    factory = field.default_factory
    return (field.name, field.type, msgspec.field(default_factory=factory))


def _wire(prefix: str, move: type[msgspec.Struct]) -> type[msgspec.Struct]:
    """The move's fields and `expected_version`, under the move's `type`."""
    fields = [_field(f) for f in msgspec.structs.fields(move)]
    fields.append(("expected_version", Annotated[int, Meta(ge=1)] | None, None))
    return msgspec.defstruct(
        f"{prefix}{move.__name__}",
        fields,
        tag_field="type",
        tag=move.__struct_config__.tag,
        forbid_unknown_fields=True,
        kw_only=True,
        module=__name__,
    )


class MoveBodies:
    """The wire move types of every game, and the way back to the domain's moves."""

    def __init__(self, games: Mapping[str, Rules]) -> None:
        wire_of: dict[type, type] = {}
        self._games_of: dict[type, set[str]] = {}
        for name, rules in games.items():
            prefix = "".join(part.title() for part in name.split("-"))
            for move in (*rules.moves, Undo):
                if move not in wire_of:  # the two Dobro editions share their moves
                    wire_of[move] = _wire("" if move is Undo else prefix, move)
                self._games_of.setdefault(wire_of[move], set()).add(name)
        self._domain = {wire: move for move, wire in wire_of.items()}
        tags = [wire.__struct_config__.tag for wire in self._domain]
        assert len(tags) == len(set(tags)), "two games' moves share a type"
        self.union: Any = Union[tuple(self._domain)]  # noqa: UP007 (built at runtime)

    def to_domain(
        self, game: str, body: msgspec.Struct | dict[str, Any]
    ) -> tuple[Any, int | None]:
        """The game's move and the expected version the body carries (a body
        decoded by the app, or its JSON as builtins)."""
        if isinstance(body, dict):
            body = msgspec.convert(body, self.union)
        if game not in self._games_of[type(body)]:
            kind = body.__struct_config__.tag
            raise Problem(422, f"'{kind}' is not a move of {game}.", rule="A1")
        fields = msgspec.structs.asdict(body)
        expected = fields.pop("expected_version")
        return self._domain[type(body)](**fields), expected


# One set of wire types for the app: Litestar decodes request bodies into these.
MOVE_BODIES = MoveBodies(GAMES)
MoveBody = MOVE_BODIES.union
MOVE_BODY_DECODER = msgspec.json.Decoder(MoveBody)
