"""Snapshots, a disposable read model: a game resumed from one answers exactly as the
game folded from its creation (state, version, view, score sheet, replay steps, undo
past the snapshot, abandon), and a stale, corrupt or deleted snapshot changes
nothing."""

from __future__ import annotations

import logging
import uuid

import msgspec
import pytest

from bench.workload import new_game
from domain.game import Setup
from domain.history import Abandon, Recorded, Undo
from domain.registry import GAMES
from projections import replay
from projections.scoresheet import score_sheet
from service.application.creating import move_type
from service.application.games import Games
from service.application.snapshots import SNAPSHOT_BEHIND, SNAPSHOT_DEPTH
from service.application.timeline import Timeline, Timelines
from tests.projections.simulated import NAMES
from tests.projections.simulated import timeline as simulated

pytestmark = pytest.mark.db

KINDS = sorted(GAMES)
# Small enough that every simulated game gets a snapshot on its first cold load.
SNAPSHOT_AFTER = 20
SETUP = Setup(players=NAMES[:3], first_player=NAMES[0], seed=5)


def _timelines(store, snapshot_after: int = SNAPSHOT_AFTER) -> Timelines:
    """A process's cache, empty: every game it loads is loaded cold."""
    return Timelines(store, GAMES, 100, 100_000, snapshot_after)


async def _imported(
    store, game: str, moves: int | None = None, seed: int = SETUP.seed
) -> tuple[uuid.UUID, list[Recorded]]:
    """A long simulated game (an undo every 7th move) stored as an import, or its
    first `moves` moves."""
    rules = GAMES[game]
    _, records = simulated(rules, len(SETUP.players), seed, undo_every=7)
    records = records[:moves]
    row, created = new_game(rules, msgspec.structs.replace(SETUP, seed=seed))
    await store.import_game(
        row,
        (created.type, created.data),
        [(move_type(r.move), msgspec.json.encode(r)) for r in records],
        read_back=lambda stored, events: None,
    )
    return row.id, records


async def _snapshotted(store, game: str) -> uuid.UUID:
    """A long game, and its snapshot written by a first cold load."""
    game_id, _ = await _imported(store, game)
    timelines = _timelines(store)
    await timelines.load(game_id)
    await timelines.snapshots_written()
    return game_id


def _answers(timeline: Timeline, steps: range) -> bytes:
    """What the game's reads answer: its version, status, view and score sheet, and
    the replay steps asked for."""
    latest = timeline.latest
    frames = [replay.step(*timeline.steps(), n) for n in steps]
    return msgspec.json.encode(
        [latest.version, latest.status, latest.view(), score_sheet(latest), frames]
    )


async def _snapshot(store, game_id: uuid.UUID) -> tuple[int, str, bytes] | None:
    _, found = await store.get_game_and_snapshot(game_id)
    return None if found is None else (found.version, found.engine, found.data)


@pytest.mark.parametrize("game", KINDS)
def test_a_game_resumed_from_its_snapshot_answers_as_folded_whole(store, run, game):
    async def check() -> None:
        game_id = await _snapshotted(store, game)
        resumed = await _timelines(store).load(game_id)
        whole = await _timelines(store).load(game_id, whole=True)
        assert resumed.truncated and not whole.truncated
        assert resumed.first == whole.latest.version - SNAPSHOT_BEHIND
        # The steps after the snapshot, but its first: in these games an undo
        # takes back the move just before it, which its sentence names.
        held = range(resumed.first + 1, resumed.moves + 1)
        assert _answers(resumed, held) == _answers(whole, held)

    run(check())


@pytest.mark.parametrize("game", KINDS)
def test_undo_past_a_snapshot_gives_the_state_without_snapshots_A2(store, run, game):
    """Each move logged on a process that holds no game (so resumed from the
    snapshot): undos of the moves it holds, then undos reaching below them, and
    abandons (T2) and their undos, as the same moves on the game folded whole."""

    async def check() -> None:
        game_id, _ = await _imported(store, game)
        snapshots = _timelines(store)
        await snapshots.load(game_id)
        await snapshots.snapshots_written()
        snapshot = (await _snapshot(store, game_id))[0]
        # Folded from the stored rows (as stored: jsonb orders an object's keys).
        expected = (await _timelines(store).load(game_id, whole=True)).latest
        lowest_held = expected.held(SNAPSHOT_DEPTH)[0].top.version
        undos = [Undo()] * (SNAPSHOT_DEPTH + 2)
        for move in [Undo(), Abandon(), Undo(), *undos, Abandon(), Undo(), Undo()]:
            history = await Games.without_read_side(store, GAMES).submit(game_id, move)
            expected = expected.apply(expected.decide(move))
            # As answered: a sheet's details are builtins once in a snapshot,
            # lists for tuples, which JSON does not tell apart.
            assert msgspec.json.encode(
                [history.version, history.status, history.view(), score_sheet(history)]
            ) == msgspec.json.encode(
                [
                    expected.version,
                    expected.status,
                    expected.view(),
                    score_sheet(expected),
                ]
            )
        assert expected.top.version < lowest_held <= snapshot  # undone below it
        resumed = await _timelines(store).load(game_id)
        whole = await _timelines(store).load(game_id, whole=True)
        assert _answers(resumed, range(0)) == _answers(whole, range(0))

    run(check())


@pytest.mark.parametrize(
    ("tampering", "logged"),
    [
        ("UPDATE game_snapshots SET engine = 'older' WHERE game_id = %s", "engine"),
        ("UPDATE game_snapshots SET data = '\\x91c0'::bytea WHERE game_id = %s", ""),
        ("DELETE FROM game_snapshots WHERE game_id = %s", None),
    ],
    ids=["stale", "corrupt", "deleted"],
)
@pytest.mark.parametrize("game", ["dobro", "dozito"])
def test_a_stale_corrupt_or_deleted_snapshot_changes_nothing(
    store, run, caplog, game, tampering, logged
):
    async def check() -> None:
        game_id = await _snapshotted(store, game)
        async with store._pool.connection() as conn:
            await conn.execute(tampering, (game_id,))
        caplog.clear()
        with caplog.at_level(logging.INFO, "service.application.snapshots"):
            # Written again at the same version only if the cold load writes it.
            loaded = await _timelines(store, snapshot_after=10**6).load(game_id)
        whole = await _timelines(store).load(game_id, whole=True)
        assert not loaded.truncated
        steps = range(1, whole.moves + 1)
        assert _answers(loaded, steps) == _answers(whole, steps)
        ignored = [r.getMessage() for r in caplog.records]
        if logged is None:
            assert ignored == []
        else:
            (message,) = ignored
            assert f"snapshot of game {game_id} ignored" in message
            assert logged in message

    run(check())


@pytest.mark.parametrize("game", ["dobro", "dozito"])
def test_a_snapshot_past_the_games_log_is_ignored(store, run, caplog, game):
    """A snapshot row the log does not bear out (here another game's, of more
    moves, as the serving role may insert one): the game is folded from its log,
    its next move is the version after its last, and its replay reads."""

    async def check() -> None:
        longer = await _snapshotted(store, game)
        game_id, records = await _imported(store, game, moves=SNAPSHOT_AFTER)
        async with store._pool.connection() as conn:
            await conn.execute(
                "INSERT INTO game_snapshots (game_id, version, engine, data)"
                " SELECT %s, version, engine, data FROM game_snapshots"
                " WHERE game_id = %s",
                (game_id, longer),
            )
        assert (await _snapshot(store, game_id))[0] > len(records) + 1
        with caplog.at_level(logging.INFO, "service.application.snapshots"):
            loaded = await _timelines(store).load(game_id)
        assert not loaded.truncated
        assert loaded.version == len(records) + 1
        whole = await _timelines(store).load(game_id, whole=True)
        steps = range(1, whole.moves + 1)
        assert _answers(loaded, steps) == _answers(whole, steps)
        (message,) = [r.getMessage() for r in caplog.records]
        assert f"snapshot of game {game_id} ignored" in message
        assert "past the game's log" in message
        history = await Games.without_read_side(store, GAMES).submit(game_id, Undo())
        assert history.version == len(records) + 2
        stored = [event.version for event in await store.read(game_id)]
        assert stored == list(range(1, len(records) + 3))

    run(check())


@pytest.mark.parametrize("game", ["dobro", "dozito"])
def test_another_games_snapshot_is_ignored_though_the_log_holds_its_version(
    store, run, caplog, game
):
    """Another game's snapshot copied to this one (as the serving role may write
    one), of a version this game's longer log holds: the game is folded from its
    log, not from the other game's state."""

    async def check() -> None:
        other, _ = await _imported(store, game, moves=4 * SNAPSHOT_AFTER)
        timelines = _timelines(store)
        await timelines.load(other)
        await timelines.snapshots_written()
        game_id, _ = await _imported(store, game, seed=SETUP.seed + 1)
        async with store._pool.connection() as conn:
            await conn.execute(
                "INSERT INTO game_snapshots (game_id, version, engine, data)"
                " SELECT %s, version, engine, data FROM game_snapshots"
                " WHERE game_id = %s",
                (game_id, other),
            )
        # Folded whole by a process that writes no snapshot of its own.
        whole = await _timelines(store, 10**6).load(game_id, whole=True)
        assert 1 < (await _snapshot(store, game_id))[0] < whole.latest.version
        caplog.clear()
        with caplog.at_level(logging.INFO, "service.application.snapshots"):
            loaded = await _timelines(store, snapshot_after=10**6).load(game_id)
        (message,) = [r.getMessage() for r in caplog.records]
        assert message == f"snapshot of game {game_id} ignored: it is game {other}'s"
        assert not loaded.truncated
        steps = range(1, whole.moves + 1)
        assert _answers(loaded, steps) == _answers(whole, steps)

    run(check())


def test_a_snapshot_is_rewritten_only_when_newer(store, run):
    async def check() -> None:
        game_id = await _snapshotted(store, "dozito")
        version, engine, _ = await _snapshot(store, game_id)
        timeline = await _timelines(store).load(game_id, whole=True)
        older = timeline.at(version - 5)
        await store.write_snapshot(game_id, older.version, engine, b"")
        assert await _snapshot(store, game_id) != (older.version, engine, b"")
        await store.write_snapshot(game_id, older.version, "another engine", b"x")
        assert await _snapshot(store, game_id) == (
            older.version,
            "another engine",
            b"x",
        )

    run(check())


def test_the_service_answers_a_snapshotted_game_as_one_without(store, run, client):
    """Two games of the same moves, one with a snapshot: the service holds neither,
    and answers every read of both alike, the latest step (from the snapshot) first,
    then reads that need the moves before it."""

    async def imported() -> tuple[uuid.UUID, uuid.UUID, int]:
        snapshotted = await _snapshotted(store, "dozito")
        plain, records = await _imported(store, "dozito")
        return snapshotted, plain, len(records)

    snapshotted, plain, moves = run(imported())
    paths = [
        f"/replay/{moves}",
        "",
        "/scoresheet",
        f"/replay/{moves - 1}",
        "/replay/1",
        "/replay/0",
        "/replay?after=0&limit=50",
        f"/replay/{moves}",
    ]
    for path in paths:
        ours = client.get(f"/games/{snapshotted}{path}")
        theirs = client.get(f"/games/{plain}{path}")
        assert ours.status_code == theirs.status_code == 200, path
        assert _without_ids(ours.json()) == _without_ids(theirs.json()), path


def _without_ids(answer: object) -> object:
    """An answer without what differs between two games of the same moves."""
    if isinstance(answer, dict):
        return {
            k: _without_ids(v)
            for k, v in answer.items()
            if k not in ("id", "links") and not k.endswith("_at")
        }
    if isinstance(answer, list):
        return [_without_ids(v) for v in answer]
    return answer
