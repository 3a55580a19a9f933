"""The shape every game shares: a Decider plus what the service needs around it.

A game is `Rules`: `initial_state(setup)`, `decide(state, move) -> list[event]` (raising
`RuleError`), and `evolve(state, event) -> state`, which is total and holds no rules: a
game gives it as `folds`, one function per event type.
`view` gives the public state a table sees, `outcome` the winners once the game is over,
`score_sheet` and `next_sheet` its score sheet, and `simulate` a seeded virtual table
that plays whole legal games and yields only the moves a real table would log.

Each game's package builds its `Rules` and `domain.registry` lists them: everything
else (the service, the projections, the page through `GET /games/kinds`) asks the
registry, never names a game.
"""

from __future__ import annotations

import random
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.wording import Template, add_sentences


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """What the table settles before the first move (stored at creation)."""

    players: tuple[str, ...]
    first_player: str
    seed: int
    options: dict[str, Any] = {}


class StoredSetup(Setup, frozen=True, kw_only=True):
    """A set-up as a stored game holds it, which the rules took when the game was
    created: folding the game again does not judge its players' names again
    (`domain.setup.seated`). Later versions read names more finely (`domain.names`),
    and a game stored before must stay readable even if its names would now be one
    player's."""


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
    # The game's name as players read it, by language code ("en", "fr").
    labels: Mapping[str, str]
    # The game this is an edition of (`dobro` for `dobro-pixar`); its own name if none.
    family: str
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
    # The score sheet of a `domain.history.History`, and `(sheet before, state before,
    # the stored move, state after) -> sheet after` for one more move (`domain.sheet`).
    score_sheet: Callable[[Any], Any]
    next_sheet: Callable[[Any, Any, Any, Any], Any]
    simulate: Callable[[Setup], Iterator[Any]]
    # The game's own refusals and sentences, by language code: `domain.wording` adds
    # them to each language's catalogue when the game is built.
    sentences: Mapping[str, Mapping[str, Template]]
    describe: Callable[[Any, Any], Any] | None = None

    def __post_init__(self) -> None:
        add_sentences(self.sentences)

    def evolve(self, state: Any, event: Any) -> Any:
        return self.folds[type(event)](state, event)

    @property
    def sheet_type(self) -> type[msgspec.Struct]:
        """The Struct of the game's score sheet: what `score_sheet` returns."""
        return typing.get_type_hints(self.score_sheet)["return"]
