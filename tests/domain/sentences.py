"""Given a state, when a move is stored with the events the engine derives for it,
then its sentence: the helper every game's describe tests share."""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from typing import Any

from domain.game import AnyRules, Recorded
from domain.registry import BUILT_IN
from domain.wording import Message

ENGLISH = BUILT_IN.languages["en"]


def said(rules: AnyRules, state: Any, move: object) -> str:
    """The sentence for `move` stored on `state`."""
    return ENGLISH.render(
        rules.describe(state, Recorded(move, tuple(rules.decide(state, move))))
    )


def told(rules: AnyRules, state: Any, *moves: object) -> list[str]:
    """Each move's sentence, as stored one after the other."""
    sentences = []
    for move in moves:
        events = tuple(rules.decide(state, move))
        sentences.append(ENGLISH.render(rules.describe(state, Recorded(move, events))))
        state = reduce(rules.evolve, events, state)
    return sentences


def english(describe: Callable[[Any, Recorded], Message]) -> Callable[..., str]:
    """A game's `describe`, its sentence worded in English."""
    return lambda state, record: ENGLISH.render(describe(state, record))
