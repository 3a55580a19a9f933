"""Errors the engines raise when a move cannot be accepted.

Each carries its sentence as data (`said`, a `domain.wording.Message`), so that the
service can say it in the language a player reads; `message` is its English wording.
"""

from __future__ import annotations

from typing import Any

from domain.wording import ENGLISH, message


class RuleError(Exception):
    """A move the rules forbid (A1). `rule` is the ruling's id (e.g. "D8"): the
    heading it has in docs/rules.md; `key` and `params` the sentence that says why."""

    def __init__(self, rule: str, key: str, **params: Any) -> None:
        self.rule = rule
        self.said = message(key, **params)
        self.message = ENGLISH.render(self.said)
        super().__init__(self.message)

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"


class GameFinished(Exception):
    """A move other than undo on a game that has ended: A2 once it is finished, T2
    once it was abandoned (and for an abandon of a game already over)."""

    def __init__(self, rule: str, key: str) -> None:
        self.rule = rule
        self.said = message(key)
        self.message = ENGLISH.render(self.said)
        super().__init__(self.message)
