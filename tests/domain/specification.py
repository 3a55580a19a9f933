"""Given/when/then for every game's Decider tests, in one dialect (after FsUno's
`Specifications`): given a state and the events folded into it, when a move is
decided, then these events, or this ruling's refusal.

    given(state, *events) -> state     the events folded, as a stored game would
    when(state, move) -> events        what the rules decide for the move
    after(state, *moves) -> state      each move decided and its events folded
    refused(state, move, rule)         the move refused, citing `rule`
    english(error)                     the refusal's sentence, in English

Each game's `given.py` binds them to its rules: `given, when, after, refused =
Specification(DOZITO)`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import reduce
from typing import Any

import pytest

from domain.errors import GameFinished, RuleError
from domain.game import AnyRules
from domain.registry import BUILT_IN


@dataclass(frozen=True)
class Specification:
    rules: AnyRules

    def given(self, state: Any, *events: Any) -> Any:
        return reduce(self.rules.evolve, events, state)

    def when(self, state: Any, move: Any) -> list[Any]:
        return self.rules.decide(state, move)

    def after(self, state: Any, *moves: Any) -> Any:
        for move in moves:
            state = self.given(state, *self.when(state, move))
        return state

    def refused(self, state: Any, move: Any, rule: str | None = None) -> RuleError:
        """The refusal of `move`; with `rule`, it must cite that ruling."""
        with pytest.raises(RuleError) as caught:
            self.when(state, move)
        if rule is not None:
            assert caught.value.rule == rule, str(caught.value)
        return caught.value

    def __iter__(self) -> Iterator[Any]:
        return iter((self.given, self.when, self.after, self.refused))


def english(error: RuleError | GameFinished) -> str:
    """The sentence of a refusal in English, with the words of every game."""
    return BUILT_IN.languages["en"].render(error.said)
