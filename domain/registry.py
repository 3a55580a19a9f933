"""Every game the service hosts, by the name clients use in `POST /games`.

A game is one package of `domain/` that builds its `Rules` (domain.game); listing it
here is all it takes for the service to host it: the move bodies, the OpenAPI
document, `GET /games/kinds`, score sheets, replays, export and import all read this
registry. `register` adds a game from elsewhere (the tests' toy game) before the
service's modules, which read the registry as they are imported.
"""

from __future__ import annotations

from domain.dobro import DOBRO, DOBRO_PIXAR
from domain.double_donkey import DOUBLE_DONKEY
from domain.dozito import DOZITO
from domain.game import Rules

GAMES: dict[str, Rules] = {
    rules.name: rules for rules in (DOBRO, DOBRO_PIXAR, DOZITO, DOUBLE_DONKEY)
}


def register(rules: Rules) -> None:
    assert rules.name not in GAMES, f"{rules.name} is registered already"
    GAMES[rules.name] = rules
