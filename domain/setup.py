"""The set-up checks every game shares, each failing with the game's own ruling.

Who sits at the table (D3, Z3, K3), who starts (D4, Z3, K3) and the options the game
is created with: a malformed option breaks the ruling that governs it, an option the
game does not have breaks A1. Each game's `setup.py` calls these once, when the game
is created, and adds its own checks; a stored game's names are not judged again when
it is folded (`domain.game.StoredSetup`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

import msgspec

from domain.errors import RuleError
from domain.game import Setup, StoredSetup
from domain.names import name_fault, name_key

OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)


def seated(
    setup: Setup, game: str, fewest: int, most: int, rule: str
) -> tuple[str, ...]:
    """The players in their seating order: `fewest` to `most` of them, each with a
    name of their own (`domain.names`: names that differ only by case, invisible
    characters or Unicode's forms are one name). A stored set-up's names were
    judged when its game was created, and are not judged again."""
    players = tuple(setup.players)
    if not fewest <= len(players) <= most:
        raise RuleError(
            rule,
            "setup.players",
            game=game,
            fewest=fewest,
            most=most,
            count=len(players),
        )
    if isinstance(setup, StoredSetup):
        return players
    for name in players:
        if (fault := name_fault(name)) is not None:
            raise RuleError(rule, fault.key, **fault.params)
    seen: dict[str, str] = {}
    for name in players:
        key = name_key(name)
        if key in seen:
            first = seen[key]
            if first == name:
                raise RuleError(rule, "setup.name_twice", name=name)
            raise RuleError(rule, "setup.name_same", name=name, first=first)
        seen[key] = name
    return players


def first_player(setup: Setup, players: tuple[str, ...], rule: str) -> str:
    """The player the table chose to start (D4): one of the players."""
    if setup.first_player not in players:
        raise RuleError(rule, "setup.first_player", name=setup.first_player)
    return setup.first_player


def decoded_options(
    setup: Setup, struct: type[OptionsT], rulings: Mapping[str, str], game: str
) -> OptionsT:
    """`setup.options` as the game's Options `struct`; `rulings` names the ruling that
    governs each option. Each option is checked on its own, so that the error cites
    that option's ruling."""
    known = struct.__struct_encode_fields__
    for name, value in setup.options.items():
        if name not in known:
            raise RuleError("A1", "setup.no_option", game=game, name=name)
        try:
            msgspec.convert({name: value}, struct, str_keys=True)
        except msgspec.ValidationError as error:
            rule = rulings.get(name, "A1")
            raise RuleError(rule, "setup.option", name=name, error=str(error)) from None
    try:
        return msgspec.convert(setup.options, struct, str_keys=True)
    except msgspec.ValidationError as error:  # options that do not go together
        raise RuleError("A1", "setup.options", error=str(error)) from None
