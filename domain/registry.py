"""Every game the service hosts, by the name clients use in `POST /games`."""

from __future__ import annotations

from domain.dobro import DOBRO, DOBRO_PIXAR
from domain.double_donkey import DOUBLE_DONKEY
from domain.dozito import DOZITO
from domain.game import Rules

GAMES: dict[str, Rules] = {
    rules.name: rules for rules in (DOBRO, DOBRO_PIXAR, DOZITO, DOUBLE_DONKEY)
}
