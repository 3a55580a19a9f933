"""The shape every game shares: a Decider plus what the service needs around it.

A game is `Rules`: `initial_state(setup)`, `decide(state, move) -> list[event]` (raising
`RuleError`), and `evolve(state, event) -> state`, which is total and holds no rules: a
game gives it as `folds`, one function per event type.
`view` gives the public state a table sees, `outcome` the winners once the game is over,
and `simulate` a seeded virtual table that plays whole legal games and yields only the
moves a real table would log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """What the table settles before the first move (stored at creation)."""

    players: tuple[str, ...]
    first_player: str
    seed: int
    options: dict[str, Any] = {}


def draw_first_player(players: Sequence[str], seed: int) -> str:
    """D4 (and Z3, K3): without a named first player, the game's seed picks one."""
    return random.Random(seed).choice(list(players))


@dataclass(frozen=True, slots=True)
class Rules:
    """One game's Decider and the metadata the service needs to host it.

    `moves` and `events` are the msgspec tagged Structs of the game (their tags are
    the wire `type`s); `options` is a Struct with `forbid_unknown_fields=True` whose
    defaults are the game's defaults.

    `describe(before, record)` is the sentence a replay shows for a stored move. It is
    built from `record` (a `domain.history.Recorded`: the move as logged and the events
    the engine derived and stored with it) and `before`, the state before the move, for
    names and values already on the table. It never decides the move again: the log
    is the truth. The sentence is data (`domain.wording`), worded in each language.
    """

    name: str
    min_players: int
    max_players: int
    options: type[msgspec.Struct]
    moves: tuple[type[msgspec.Struct], ...]
    events: tuple[type[msgspec.Struct], ...]
    initial_state: Callable[[Setup], Any]
    decide: Callable[[Any, Any], list[Any]]
    # Each event type's fold, `(state, event) -> state`: `evolve` by the event's type.
    folds: Mapping[type, Callable[[Any, Any], Any]]
    view: Callable[[Any], msgspec.Struct]
    outcome: Callable[[Any], tuple[str, ...] | None]
    simulate: Callable[[Setup], Iterator[Any]]
    describe: Callable[[Any, Any], Any] | None = None

    def evolve(self, state: Any, event: Any) -> Any:
        return self.folds[type(event)](state, event)
