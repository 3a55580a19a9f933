"""Legal games of any length, made from the seeded simulators.

A simulated game is played to its end; after that it goes on for ever as pairs of
(undo, the last move again), which the rules accept (A2) and the fold handles like any
other stored move. Every log the bench writes therefore folds without error.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.creation import GameCreated
from domain.game import Rules, Setup
from domain.history import History, Recorded, Undo
from domain.registry import BUILT_IN
from service.application.creating import move_type
from service.application.tokens import token_hash
from service.storage.store import EventStore, NewGameRow

PLAYERS = ("Ann", "Bob", "Cid", "Dee")
TOKEN = "bench-token"


def setup_for(rules: Rules, seed: int = 7) -> Setup:
    players = PLAYERS[: min(len(PLAYERS), rules.max_players)]
    return Setup(players=players, first_player=players[0], seed=seed, options={})


def endless(rules: Rules, setup: Setup) -> Iterator[tuple[Any, Recorded, History]]:
    """(move, record, history after it) for ever, every move legal."""
    history = History.start(rules, setup)
    last = None
    for last in rules.simulate(setup):
        record, history = history.play(last)
        yield last, record, history
    while True:
        for move in (Undo(), last):
            record, history = history.play(move)
            yield move, record, history


@dataclass(frozen=True, slots=True)
class Stored:
    """One stored move as the store takes it: its type and its record's JSON."""

    type: str
    data: bytes


def stored_moves(rules: Rules, setup: Setup, count: int) -> list[Stored]:
    return [
        Stored(move_type(move), msgspec.json.encode(record))
        for move, record, _ in itertools.islice(endless(rules, setup), count)
    ]


def wire_moves(rules: Rules, setup: Setup, count: int) -> list[dict[str, Any]]:
    """The same moves as request bodies of `POST /games/{id}/moves`."""
    return [
        msgspec.to_builtins(move)
        for move, _, _ in itertools.islice(endless(rules, setup), count)
    ]


def new_game(rules: Rules, setup: Setup) -> tuple[NewGameRow, Stored]:
    """A game row (write token TOKEN) and its creation event, as Games makes them."""
    row = NewGameRow(
        id=uuid.uuid4(),
        game=rules.name,
        players=setup.players,
        first_player=setup.first_player,
        seed=setup.seed,
        options=setup.options,
        token_hash=token_hash(TOKEN),
    )
    created = GameCreated.of(rules.name, setup)
    return row, Stored("game_created", msgspec.json.encode(created))


async def create_game(store: EventStore, rules: Rules, setup: Setup) -> uuid.UUID:
    row, created = new_game(rules, setup)
    await store.create_game(row, created.type, created.data)
    return row.id


async def import_game(
    store: EventStore, rules: Rules, setup: Setup, moves: list[Stored]
) -> uuid.UUID:
    """A game and all its moves in one transaction (what an import does)."""
    row, created = new_game(rules, setup)
    # The bench's moves are legal by construction: nothing to check on read-back.
    await store.import_game(
        row,
        (created.type, created.data),
        [(m.type, m.data) for m in moves],
        # The rows are the harness's own, folded already: nothing to check.
        read_back=lambda stored, events: None,
    )
    return row.id


DEFAULT_GAME = "dobro-pixar"


def default_rules() -> Rules:
    return BUILT_IN[DEFAULT_GAME]


def creation_body(**fields: Any) -> dict[str, Any]:
    """`POST /games`'s body of a game of the default rules and set-up, with
    `fields` besides."""
    rules = default_rules()
    setup = setup_for(rules)
    return {
        "game": rules.name,
        "players": list(setup.players),
        "first_player": setup.first_player,
        "seed": setup.seed,
        **fields,
    }
