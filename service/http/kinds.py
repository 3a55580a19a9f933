"""`GET /games/kinds`: every game the service hosts, as the registry it was built
with describes it, so that a client builds its new-game form (names, labels,
player range, options and their bounds) without copying any game's rules. The page
lists its games from it, and loads each family's page module
(`/app/games/<family>.js`)."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar.datastructures import CacheControlHeader
from litestar.handlers import HTTPRouteHandler

from domain.registry import Registry
from service.http.caching import read


class PlayerRange(msgspec.Struct):
    min: int
    max: int


class GameKind(msgspec.Struct, kw_only=True):
    """One game as `POST /games` takes it (`name`), with what a form needs."""

    name: str
    # The game this is an edition of (`dobro` for `dobro-pixar`); its own name if none.
    family: str
    # The game's name as players read it, by language code.
    labels: dict[str, str]
    players: PlayerRange
    # The JSON Schema of `options` at creation: every option, its bounds and default.
    options: dict[str, Any]


class GameKinds(msgspec.Struct):
    kinds: list[GameKind]


def kinds_of(games: Registry) -> GameKinds:
    return GameKinds(
        [
            GameKind(
                name=rules.name,
                family=rules.family,
                labels=dict(rules.labels),
                players=PlayerRange(rules.min_players, rules.max_players),
                options=msgspec.json.schema(rules.options),
            )
            for rules in games.values()
        ]
    )


def kinds_route(games: Registry) -> HTTPRouteHandler:
    """`GET /games/kinds` for an app that hosts `games`, described once."""
    kinds = kinds_of(games)

    @read(
        "/games/kinds",
        summary="The games the service hosts, and how each is created",
        tags=["games"],
        cache_control=CacheControlHeader(public=True, max_age=3600),
    )
    async def game_kinds() -> GameKinds:
        return kinds

    return game_kinds
