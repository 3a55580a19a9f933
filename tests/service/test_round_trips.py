"""What one move costs the primary: a move of a game the process holds, under a new
idempotency key or none, is one statement, its append. The key is looked up only
when the append finds it taken or the rules refuse the move (a retry owed its first
answer)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from bench.workload import create_game, endless, setup_for
from domain.registry import BUILT_IN
from service.application.idempotency import Idempotency
from service.bootstrap import shell_games

RULES = BUILT_IN["dobro"]


@pytest.fixture
def statements(monkeypatch) -> Iterator[list[str]]:
    """The first word of every statement a connection sends, from here on."""
    sent: list[str] = []
    execute = psycopg.AsyncConnection.execute

    async def counted(self, query, *args: Any, **kwargs: Any):
        sent.append(str(query).split()[0].upper())
        return await execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.AsyncConnection, "execute", counted)
    yield sent


def _moves(count: int) -> list[Any]:
    setup = setup_for(RULES)
    return [move for move, _, _ in itertools.islice(endless(RULES, setup), count)]


def test_a_move_under_a_new_key_is_one_statement(store, run, statements):
    games = shell_games(store, {RULES.name: RULES})
    game_id = run(create_game(store, RULES, setup_for(RULES)))
    first, *moves = _moves(6)
    run(games.submit(game_id, first, idempotency=Idempotency.of("k-0", first)))
    statements.clear()

    for index, move in enumerate(moves, start=1):
        key = Idempotency.of(f"k-{index}", move)
        run(games.submit(game_id, move, idempotency=key))

    assert statements == ["INSERT"] * len(moves)


def test_a_retry_refused_by_the_rules_is_answered_from_its_key(store, run):
    games = shell_games(store, {RULES.name: RULES})
    game_id = run(create_game(store, RULES, setup_for(RULES)))
    first, second = _moves(2)
    key = Idempotency.of("first", first)
    answered = run(games.submit(game_id, first, 1, idempotency=key))
    run(games.submit(game_id, second, 2))

    again = run(games.submit(game_id, first, 1, idempotency=key))

    assert again.version == answered.version == 2
    assert again.state == answered.state
    assert [event.version for event in run(store.read(game_id))] == [1, 2, 3]
