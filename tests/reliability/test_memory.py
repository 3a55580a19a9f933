"""Memory is bounded by the moves held, not by the games: the timeline cache keeps at
most its bound of stored moves however many games clients read, a game longer than
the whole bound is still served, and no game grows past the one limit on a game's
length, logged move by move or imported."""

from __future__ import annotations

import gc
import itertools

import httpx
import msgspec
import pytest

from bench.workload import endless, setup_for
from domain.creation import GameCreated
from domain.history import Codec, History
from domain.registry import BUILT_IN
from service import bootstrap
from service.application.creating import NewGame
from service.application.submitting import MAX_MOVES
from service.application.timeline import Timelines
from service.settings import Settings
from tests.support.games import creation
from tests.support.server import running_server

BOUND = 300


def _new_game(rules_name: str, seed: int) -> NewGame:
    return msgspec.convert(creation(rules_name, seed), NewGame)


def _plan(kind: str, seed: int, moves: int) -> list:
    """The first `moves` legal moves of the game `creation(kind, seed)` sets up."""
    rules = BUILT_IN[kind]
    return [
        m for m, _, _ in itertools.islice(endless(rules, setup_for(rules, seed)), moves)
    ]


@pytest.fixture
def games(store):
    return bootstrap.shell_games(
        store, BUILT_IN, cached_games=10_000, cached_moves=BOUND
    )


@pytest.fixture
def stored_game(games, run):
    def store(kind: str, seed: int, moves: int):
        """A game of `moves` legal moves stored in one go, as an import stores it."""
        request = _new_game(kind, seed)
        history = start = games.creating.start(request)
        records = []
        for move in _plan(kind, seed, moves):
            record, history = history.play(move)
            records.append(record)
        row, _ = run(games.creating.store_new(request, start, records))
        return row.id

    return store


def _held_by_cached(timelines: Timelines, ids) -> int:
    return sum(
        len(timeline.histories)
        for timeline in map(timelines.cached, ids)
        if timeline is not None
    )


def test_the_cache_holds_at_most_its_bound_of_moves(games, stored_game, run):
    ids = []
    for seed in range(12):
        ids.append(stored_game("dobro", seed, 40 + 7 * seed))
        for game_id in ids:  # every game read again: each is the newest in turn
            timeline = run(games.timeline(game_id))
            assert len(timeline.histories) == 41 + 7 * ids.index(game_id)
            assert games.timelines.moves_held <= BOUND
    assert games.timelines.moves_held == _held_by_cached(games.timelines, ids)
    # Far fewer games are kept than were read: the bound is on moves, not games.
    kept = [i for i in ids if games.timelines.cached(i) is not None]
    assert 1 <= len(kept) < len(ids)
    assert kept == ids[len(ids) - len(kept) :]  # the least recently used went first


def test_moves_appended_to_a_cached_game_count_against_the_bound(
    games, stored_game, run
):
    kind = "dozito"
    first = stored_game(kind, 1, 100)
    second = stored_game(kind, 2, 150)
    for game_id in (first, second):
        run(games.timeline(game_id))
    assert games.timelines.moves_held == 101 + 151
    for move in _plan(kind, 1, 160)[
        100:
    ]:  # the first game grows by 60 moves, from the cache
        run(games.submit(first, move))
        assert games.timelines.moves_held <= BOUND
    assert games.timelines.moves_held == _held_by_cached(
        games.timelines, [first, second]
    )
    assert games.timelines.cached(second) is None  # it was the least recently used


def test_a_game_longer_than_the_bound_is_served_and_not_kept(games, stored_game, run):
    small = stored_game("double-donkey", 3, 20)
    run(games.timeline(small))
    long = stored_game("dobro-pixar", 4, BOUND + 200)

    timeline = run(games.timeline(long))

    assert len(timeline.records) == BOUND + 200
    assert games.timelines.cached(long) is None
    assert games.timelines.moves_held <= BOUND
    # And it can still be played on: each move is decided on the store's game.
    move = _plan("dobro-pixar", 4, BOUND + 201)[-1]
    assert run(games.submit(long, move)).version == BOUND + 202
    # Kept only if resumed from the snapshot the first fold wrote: then it holds
    # the moves after it alone.
    held = games.timelines.cached(long)
    assert held is None or held.truncated
    assert games.timelines.moves_held <= BOUND


def test_by_default_every_table_a_busy_machine_serves_stays_cached(store, run):
    # More tables than the 256 games the cache once held: past that, every other
    # move was a fold from the store.
    defaults = Settings(database_url="")
    games = bootstrap.shell_games(
        store,
        BUILT_IN,
        cached_games=defaults.cached_games,
        cached_moves=defaults.cached_moves,
    )
    tables = 600
    ids = []
    for seed in range(tables):
        request = _new_game("dobro", seed)
        row, _ = run(
            games.creating.store_new(request, games.creating.start(request), [])
        )
        ids.append(row.id)
    for game_id in ids:
        run(games.timeline(game_id))

    assert games.timelines.games_held() == tables
    assert all(games.timelines.cached(game_id) is not None for game_id in ids)


def _tracked_while_held(build, *args, **kwargs) -> int:
    """Objects the garbage collector tracks that `build(...)`'s result keeps alive."""
    gc.collect()
    before = len(gc.get_objects())
    held = build(*args, **kwargs)
    # A tuple of untracked items is untracked by a pass, not at birth, and a tuple
    # of such tuples by the pass after.
    gc.collect()
    gc.collect()
    tracked = len(gc.get_objects()) - before
    del held
    return tracked


@pytest.mark.parametrize("kind", sorted(BUILT_IN))
def test_a_cached_games_moves_cost_the_garbage_collector_nothing(kind):
    # Each full collection walks every tracked object: a tracked object per stored
    # move made its pauses grow with the moves cached (some 80 ms at 1,250 games).
    # The count is the whole process's, which the test servers' threads move by some
    # tens of objects either way (once by 80, failing a test of one game): over 20
    # games of 300 moves that noise is under 0.02 a move, while a list of events per
    # move measured 0.2 to 0.6.
    rules = BUILT_IN[kind]
    codec = Codec(rules)
    games, moves = 20, 300

    def one(moves: int, seed: int, decoded: bool) -> History:
        # The last version holds every earlier one, as a cached timeline does.
        history = History.start(rules, setup_for(rules, seed))
        for _, record, _ in itertools.islice(endless(rules, history.setup), moves):
            if decoded:  # as a cold load folds it, from the stored row
                record = codec.record_from_json(msgspec.json.encode(record))
            history = history.apply(record)
        return history

    def timelines(moves: int, *, decoded: bool) -> list[History]:
        return [one(moves, seed, decoded) for seed in range(games)]

    for decoded in (False, True):
        empty = _tracked_while_held(timelines, 0, decoded=decoded)
        long = _tracked_while_held(timelines, moves, decoded=decoded)
        per_move = (long - empty) / (games * moves)
        assert per_move < 0.1, (decoded, empty, long)


@pytest.fixture(scope="module")
def small_cache_client(database_url):
    with (
        running_server(database_url, cached_moves=BOUND) as url,
        httpx.Client(base_url=url, timeout=60) as client,
    ):
        yield client


def _export(kind: str, seed: int, moves: int) -> bytes:
    created = GameCreated.of(kind, setup_for(BUILT_IN[kind], seed))
    lines = [created, *_plan(kind, seed, moves)]
    return b"\n".join(msgspec.json.encode(line) for line in lines)


def _import(client, body: bytes):
    return client.post(
        "/games/import",
        content=body,
        headers={"Content-Type": "application/x-ndjson"},
    )


def test_a_long_game_beyond_the_cache_still_answers_over_http(small_cache_client):
    answer = _import(small_cache_client, _export("dobro", 5, BOUND * 2))
    assert answer.status_code == 201, answer.text
    game = answer.json()

    for path in ("", "/scoresheet", f"/replay/{BOUND * 2}", "/events?after=500"):
        reply = small_cache_client.get(f"/games/{game['id']}{path}")
        assert reply.status_code == 200, (path, reply.text)
    assert small_cache_client.get(f"/games/{game['id']}").json()["version"] == (
        BOUND * 2 + 1
    )


def test_no_game_grows_past_the_limit_one_move_at_a_time(small_cache_client):
    kind = "dobro-pixar"
    answer = _import(small_cache_client, _export(kind, 6, MAX_MOVES))
    assert answer.status_code == 201, answer.text
    game = answer.json()
    following = _plan(kind, 6, MAX_MOVES + 1)[-1]

    refused = small_cache_client.post(
        f"/games/{game['id']}/moves",
        json=msgspec.to_builtins(following),
        headers={"Authorization": f"Bearer {game['write_token']}"},
    )

    assert refused.status_code == 422, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    assert f"{MAX_MOVES:,} moves" in refused.json()["detail"]
    assert small_cache_client.get(f"/games/{game['id']}").json()["version"] == (
        MAX_MOVES + 1
    )
    undo = small_cache_client.post(
        f"/games/{game['id']}/moves",
        json={"type": "undo"},
        headers={"Authorization": f"Bearer {game['write_token']}"},
    )
    assert undo.status_code == 422, undo.text  # an undo is a stored move too
    too_long = _import(small_cache_client, _export(kind, 6, MAX_MOVES + 1))
    assert too_long.status_code == 413, too_long.text
    assert f"{MAX_MOVES:,} moves" in too_long.json()["detail"]
