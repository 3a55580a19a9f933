"""The games a service hosts, by the name clients use in `POST /games`, and the
languages it speaks them in.

A `Registry` is built once, from whole games: the four of this repository
(`BUILT_IN`) and those a service finds installed as plug-ins
(`service.application.plugins`). It is handed to whatever hosts them (the app, the
shell's commands, the tests), which builds from it the move bodies, the OpenAPI
document, `GET /games/kinds`, the page's list of games, export and import; nothing
reads a registry of its own when it is imported. Its `languages` are each
language's catalogue: the words every game shares and those of its games
(`domain.wording.languages`).

A game joins a registry only whole: `faults` says what keeps one out (a name or a
move's `type` another game holds, a part of `domain.game.Rules` missing, words that
contradict another game's, a page module its family does not share, a first deal
that cannot be dealt), and `Registry` refuses such a game with `GameRefused`, naming
it and each fault.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import msgspec

from domain.dobro import DOBRO, DOBRO_PIXAR
from domain.double_donkey import DOUBLE_DONKEY
from domain.dozito import DOZITO
from domain.game import AnyRules, Rules, Setup
from domain.history import TABLE_MOVES
from domain.wording import Language, languages

# A game's name and family: what `POST /games` takes, a URL's segment
# (`/app/games/<family>.js`) and, title-cased, the prefix of its schemas' names.
NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
# The parts of `domain.game.Rules`, each of which every game gives.
PARTS = tuple(name for name in vars(Rules) if not name.startswith("_"))
# The players a game's first deal is tried with, as many as it takes at fewest.
_TRIED_PLAYERS = tuple(f"Player {n}" for n in range(1, 100))


class GameRefused(ValueError):
    """A game a registry cannot take: `game` names it, `faults` say why."""

    def __init__(self, game: str, faults: list[str]) -> None:
        self.game = game
        self.faults = faults
        super().__init__(f"{game}: {'; '.join(faults)}")


class Registry(Mapping[str, AnyRules]):
    """Games by name, in the order given, and the languages they are said in.

    Two registries are the same only if they are one object: each is built once
    and handed on, and what is built from one (an app's schemas, its catalogues)
    is kept against it."""

    def __init__(self, games: Iterable[AnyRules] = ()) -> None:
        self._games: dict[str, AnyRules] = {}
        for rules in games:
            found = faults(rules, self._games.values())
            if found:
                raise GameRefused(_named(rules), found)
            self._games[rules.name] = rules
        self.languages: dict[str, Language] = languages(
            *(rules.words for rules in self._games.values())
        )

    def __getitem__(self, name: str) -> AnyRules:
        return self._games[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"Registry({', '.join(self._games)})"

    def families(self) -> dict[str, AnyRules]:
        """Each family's first game, by family: the editions of a game share
        their page module (`Rules.page`)."""
        found: dict[str, AnyRules] = {}
        for rules in self._games.values():
            found.setdefault(rules.family, rules)
        return found


def faults(rules: Any, registered: Iterable[AnyRules] = ()) -> list[str]:
    """What keeps `rules` out of a registry that holds `registered`, in words a
    game's author acts on; none for a game that may join."""
    missing = [part for part in PARTS if not hasattr(rules, part)]
    if missing:
        return [f"it lacks {', '.join(missing)} of domain.game.Rules"]
    registered = list(registered)
    found = _names(rules, registered)
    found += _players(rules)
    found += _types(rules, registered)
    found += _words(rules, registered)
    found += _page(rules, registered)
    return found or _first_deal(rules)


def _named(rules: Any) -> str:
    name = getattr(rules, "name", None)
    return name if isinstance(name, str) else repr(rules)


def _names(rules: Any, registered: list[AnyRules]) -> list[str]:
    found = []
    for part in ("name", "family"):
        value = getattr(rules, part)
        if not isinstance(value, str) or not NAME.match(value):
            found.append(
                f"its {part} {value!r} is not lower-case words joined by hyphens"
            )
    if any(other.name == rules.name for other in registered):
        found.append(f"another game is named {rules.name!r} already")
    labels = rules.labels
    if not isinstance(labels, Mapping) or not all(
        isinstance(labels.get(code), str) and labels[code] for code in _CODES
    ):
        found.append(f"its labels do not name it in each of {', '.join(_CODES)}")
    return found


def _players(rules: Any) -> list[str]:
    fewest, most = rules.min_players, rules.max_players
    if not (isinstance(fewest, int) and isinstance(most, int) and 1 <= fewest <= most):
        return [f"its players ({fewest!r} to {most!r}) are not a range from 1 up"]
    return []


def _types(rules: Any, registered: list[AnyRules]) -> list[str]:
    """Its options, moves and events are msgspec Structs, its moves tagged by
    `type` with tags no other game's moves have (the service tells every game's
    move bodies apart by it), and its view names the Struct it answers."""
    found = []
    if not _is_struct(rules.options):
        found.append("its options are not a msgspec Struct")
    for part in ("moves", "events"):
        kinds = getattr(rules, part)
        if not kinds or not all(_tagged(kind) for kind in kinds):
            found.append(f"its {part} are not Structs tagged by `type`")
    if found:
        return found
    taken = {_tag(kind): kind for kind in TABLE_MOVES}
    taken |= {_tag(kind): kind for game in registered for kind in game.moves}
    clashes = sorted(
        _tag(kind) for kind in rules.moves if taken.get(_tag(kind), kind) is not kind
    )
    if clashes:
        found.append(f"another game's moves have the type {', '.join(clashes)}")
    try:
        view = typing.get_type_hints(rules.view)["return"]
    except Exception:  # any fault of a game's annotations is the game's
        view = None
    if not _is_struct(view):
        found.append("its view does not name the Struct it answers")
    if "finished" not in rules.phases:
        found.append("its phases have no `finished`")
    return found


def _words(rules: Any, registered: list[AnyRules]) -> list[str]:
    """Its words are worded in every language, the same keys in each, and none
    says otherwise what the shared words or another game's say."""
    words = rules.words
    if not (
        isinstance(words, Mapping)
        and set(words) == set(_CODES)
        and all(isinstance(words[code], Mapping) for code in _CODES)
    ):
        return [f"its words are not worded in each of {', '.join(_CODES)}"]
    keys = {code: set(words[code]) for code in _CODES}
    if any(keys[code] != keys[_CODES[0]] for code in _CODES):
        return ["its words do not word the same keys in every language"]
    known = languages(*(game.words for game in registered))
    clashes = sorted(
        key
        for code in _CODES
        for key, template in words[code].items()
        if known[code].templates.get(key, template) != template
    )
    if clashes:
        return [f"its words say otherwise what others word: {', '.join(clashes)}"]
    return []


def _page(rules: Any, registered: list[AnyRules]) -> list[str]:
    """Its page module is a JavaScript file, the one of its family's games."""
    page = rules.page
    if not str(getattr(page, "name", "")).endswith(".js"):
        return ["its page module is not a .js file of its package"]
    family = next((o for o in registered if o.family == rules.family), None)
    if family is not None and str(family.page) != str(page):
        return [f"its family {rules.family!r} has another page module, {family.page}"]
    return []


def _first_deal(rules: Any) -> list[str]:
    """Its game starts: the first deal of its fewest players, its phase one of its
    phases, and its view encodes as JSON."""
    players = _TRIED_PLAYERS[: rules.min_players]
    setup = Setup(players=players, first_player=players[0], seed=0)
    try:
        state = rules.initial_state(setup)
        msgspec.json.encode(rules.view(state))
        phase = rules.phase(state)
    except Exception as error:  # a plug-in may fail in any way: say which
        return [f"its first deal fails: {type(error).__name__}: {error}"]
    if phase not in rules.phases:
        return [f"its first phase {phase!r} is not one of its phases"]
    return []


def _is_struct(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, msgspec.Struct)


def _tag(kind: Any) -> Any:
    return kind.__struct_config__.tag


def _tagged(kind: Any) -> bool:
    if not _is_struct(kind):
        return False
    config = kind.__struct_config__
    return config.tag_field == "type" and isinstance(config.tag, str)


_CODES = tuple(languages())

# The games of this repository, in the order `GET /games/kinds` lists them.
BUILT_IN = Registry((DOBRO, DOBRO_PIXAR, DOZITO, DOUBLE_DONKEY))
