"""Every game the service hosts, by the name clients use in `POST /games`, and the
languages it speaks them in.

A game is one package of `domain/` whose class implements `domain.game.Rules`;
listing it here is all it takes for the service to host it: the move bodies, the
OpenAPI document, `GET /games/kinds`, score sheets, replays, export and import all
read this registry. `LANGUAGES` are each language's catalogue: the words every game
shares and those of the games listed (`domain.wording.languages`). `register` adds
a game from elsewhere (the tests' toy game), and its words, before the service's
modules, which read the registry as they are imported.
"""

from __future__ import annotations

from domain.dobro import DOBRO, DOBRO_PIXAR
from domain.double_donkey import DOUBLE_DONKEY
from domain.dozito import DOZITO
from domain.game import AnyRules
from domain.wording import Language, languages

GAMES: dict[str, AnyRules] = {
    rules.name: rules for rules in (DOBRO, DOBRO_PIXAR, DOZITO, DOUBLE_DONKEY)
}
LANGUAGES: dict[str, Language] = languages(*(rules.words for rules in GAMES.values()))


def register(rules: AnyRules) -> None:
    assert rules.name not in GAMES, f"{rules.name} is registered already"
    GAMES[rules.name] = rules
    LANGUAGES.update(languages(*(rules.words for rules in GAMES.values())))
