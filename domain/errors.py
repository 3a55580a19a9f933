"""Errors the engines raise when a move cannot be accepted.

Each carries its sentence as data (`said`, a `domain.wording.Message`), which whoever
answers says in the language of its reader, with the catalogue of the games it
serves (`domain.registry.LANGUAGES`): a game's words live in its own package, which
an error does not know. Its `str` is for developers: the ruling, the sentence's key
and its values.
"""

from __future__ import annotations

from typing import Any

from domain.wording import message


class RuleError(Exception):
    """A move the rules forbid (A1). `rule` is the ruling's id (e.g. "D8"): the
    heading it has in docs/rules.md; `said` the sentence that says why."""

    def __init__(self, rule: str, key: str, **params: Any) -> None:
        self.rule = rule
        self.said = message(key, **params)
        super().__init__(rule, key, params)

    def __str__(self) -> str:
        return _plain(self.rule, self.said.key, self.said.params)


class GameFinished(Exception):
    """A move other than undo on a game that has ended: A2 once it is finished, T2
    once it was abandoned (and for an abandon of a game already over)."""

    def __init__(self, rule: str, key: str) -> None:
        self.rule = rule
        self.said = message(key)
        super().__init__(rule, key)

    def __str__(self) -> str:
        return _plain(self.rule, self.said.key, self.said.params)


class GameInProgress(Exception):
    """A request only a game that is over can take: a game is played again once
    it is finished or abandoned (T4)."""

    def __init__(self, rule: str, key: str) -> None:
        self.rule = rule
        self.said = message(key)
        super().__init__(rule, key)

    def __str__(self) -> str:
        return _plain(self.rule, self.said.key, self.said.params)


def _plain(rule: str, key: str, params: Any) -> str:
    """ "turn.other (expected='Ana', name='Bo') (D8)"."""
    values = ", ".join(f"{name}={value!r}" for name, value in params.items())
    return f"{key} ({values}) ({rule})" if values else f"{key} ({rule})"
