"""Snapshots, a disposable read model: a game resumed from one answers exactly as the
game folded from its creation (state, version, view, score sheet, replay steps, undo
past the snapshot, abandon), and a stale, corrupt or deleted snapshot changes
nothing. Whatever the serving role writes into one (a score changed, another game's,
another key's, none signed), the service serves what the log says, logs it and
counts it, and the next long fold writes the snapshot again."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import msgspec
import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from domain.history import Abandon, Undo
from domain.registry import BUILT_IN
from projections import replay
from projections.scoresheet import score_sheet
from service import bootstrap
from service.application.snapshots import (
    IGNORED,
    KEY_BYTES,
    SNAPSHOT_BEHIND,
    SNAPSHOT_DEPTH,
    engine_sources,
    key_from_file,
    process_key,
    signature,
)
from service.application.timeline import Timeline
from service.http.metrics import Metrics
from service.settings import Settings
from service.storage.pools import connection_pool
from service.storage.store import EventStore
from tests.projections.simulated import NAMES
from tests.support.server import running_server
from tests.support.snapshots import (
    SNAPSHOT_AFTER,
    cold_timelines,
    imported_game,
    snapshotted_game,
)

ROOT = Path(__file__).resolve().parents[2]

KINDS = sorted(BUILT_IN)
# Where the score sheets and dozito's states keep the players' scores.
SCORES = ("points", "totals", "round_scores")
IGNORED_TOTAL = "tablelog_snapshots_ignored_total"


@pytest.fixture
def fresh_store(fresh_database_url, run) -> Iterator[EventStore]:
    """An EventStore over a database of the test's own: a service started on it
    folds only the test's games."""
    settings = Settings(database_url=fresh_database_url, pool_min_size=1)
    pool = connection_pool(settings)
    run(pool.open(wait=True, timeout=10))
    try:
        yield EventStore(pool)
    finally:
        run(pool.close())


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


def _ignored(metrics: Metrics, reason: str) -> float | None:
    """How many snapshots `metrics` counted as ignored for `reason`."""
    return metrics.registry.get_sample_value(IGNORED_TOTAL, {"reason": reason})


@pytest.mark.parametrize("game", KINDS)
def test_a_game_resumed_from_its_snapshot_answers_as_folded_whole(store, run, game):
    async def check() -> None:
        game_id = await snapshotted_game(store, game)
        resumed = await cold_timelines(store).load(game_id)
        whole = await cold_timelines(store).load(game_id, whole=True)
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
        game_id, _ = await imported_game(store, game)
        snapshots = cold_timelines(store)
        await snapshots.load(game_id)
        await snapshots.snapshots_written()
        snapshot = (await _snapshot(store, game_id))[0]
        # Folded from the stored rows (as stored: jsonb orders an object's keys).
        expected = (await cold_timelines(store).load(game_id, whole=True)).latest
        lowest_held = expected.held(SNAPSHOT_DEPTH)[0].top.version
        undos = [Undo()] * (SNAPSHOT_DEPTH + 2)
        for move in [Undo(), Abandon(), Undo(), *undos, Abandon(), Undo(), Undo()]:
            history = await bootstrap.shell_games(store, BUILT_IN).submit(game_id, move)
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
        resumed = await cold_timelines(store).load(game_id)
        whole = await cold_timelines(store).load(game_id, whole=True)
        assert _answers(resumed, range(0)) == _answers(whole, range(0))

    run(check())


async def _older_engines(store, game_id: uuid.UUID) -> None:
    """The snapshot as an older release of the code would have written it: signed
    with the key, under another engine's name."""
    version, _, data = await _snapshot(store, game_id)
    signed = signature(process_key(), game_id, version, "older", data)
    await store.write_snapshot(game_id, version, "older", data, signed, replace=True)


async def _undecodable(store, game_id: uuid.UUID) -> None:
    """A snapshot of this engine, signed with the key, whose data it cannot decode
    (as a change the engine's hash missed would leave)."""
    version, engine, _ = await _snapshot(store, game_id)
    data = b"\x91\xc0"
    signed = signature(process_key(), game_id, version, engine, data)
    await store.write_snapshot(game_id, version, engine, data, signed, replace=True)


async def _deleted(store, game_id: uuid.UUID) -> None:
    async with store.pool.connection() as conn:
        await conn.execute("DELETE FROM game_snapshots WHERE game_id = %s", (game_id,))


@pytest.mark.parametrize(
    ("tampering", "reason", "level"),
    [
        (_older_engines, "other_engine", logging.INFO),
        (_undecodable, "undecodable", logging.WARNING),
        (_deleted, None, None),
    ],
    ids=["stale", "corrupt", "deleted"],
)
@pytest.mark.parametrize("game", ["dobro", "dozito"])
def test_a_stale_corrupt_or_deleted_snapshot_changes_nothing(
    store, run, caplog, game, tampering, reason, level
):
    async def check() -> None:
        game_id = await snapshotted_game(store, game)
        await tampering(store, game_id)
        caplog.clear()
        metrics = Metrics()
        with caplog.at_level(logging.INFO, "service.application.snapshots"):
            # Written again at the same version only if the cold load writes it.
            loaded = await cold_timelines(store, 10**6, metrics).load(game_id)
        whole = await cold_timelines(store).load(game_id, whole=True)
        assert not loaded.truncated
        steps = range(1, whole.moves + 1)
        assert _answers(loaded, steps) == _answers(whole, steps)
        ignored = [(r.levelno, r.getMessage()) for r in caplog.records]
        if reason is None:
            assert ignored == []
            assert metrics.registry.get_sample_value(IGNORED_TOTAL) is None
        else:
            assert ignored == [
                (level, f"snapshot of game {game_id} ignored: {IGNORED[reason]}")
            ]
            assert _ignored(metrics, reason) == 1

    run(check())


@pytest.mark.parametrize("game", ["dobro", "dozito"])
def test_a_snapshot_past_the_games_log_is_ignored(store, run, caplog, game):
    """A snapshot row the log does not bear out (here another game's, of more
    moves, as the serving role may insert one): the game is folded from its log,
    its next move is the version after its last, and its replay reads."""

    async def check() -> None:
        longer = await snapshotted_game(store, game)
        game_id, records = await imported_game(store, game, moves=SNAPSHOT_AFTER)
        await _as_serving_role(
            store,
            "INSERT INTO game_snapshots (game_id, version, engine, data, signature)"
            " SELECT %s, version, engine, data, signature FROM game_snapshots"
            " WHERE game_id = %s",
            (game_id, longer),
        )
        assert (await _snapshot(store, game_id))[0] > len(records) + 1
        metrics = Metrics()
        with caplog.at_level(logging.INFO, "service.application.snapshots"):
            loaded = await cold_timelines(store, metrics=metrics).load(game_id)
        assert _ignored(metrics, "past_log") == 1
        assert not loaded.truncated
        assert loaded.version == len(records) + 1
        whole = await cold_timelines(store).load(game_id, whole=True)
        steps = range(1, whole.moves + 1)
        assert _answers(loaded, steps) == _answers(whole, steps)
        (message,) = [r.getMessage() for r in caplog.records]
        assert f"snapshot of game {game_id} ignored" in message
        assert "past the game's log" in message
        history = await bootstrap.shell_games(store, BUILT_IN).submit(game_id, Undo())
        assert history.version == len(records) + 2
        stored = [event.version for event in await store.read(game_id)]
        assert stored == list(range(1, len(records) + 3))

    run(check())


async def _scored_999(store, game_id: uuid.UUID) -> None:
    """The 999 attack: its data decoded, a score changed, encoded again; the
    signature kept."""
    _, _, data = await _snapshot(store, game_id)
    await _as_serving_role(
        store,
        "UPDATE game_snapshots SET data = %s WHERE game_id = %s",
        (_with_a_score_of_999(data), game_id),
    )


async def _another_games(store, game_id: uuid.UUID) -> None:
    """Another game's snapshot, data and signature, of a version this game's log
    holds (the other game is shorter)."""
    other, _ = await imported_game(store, "dozito", moves=4 * SNAPSHOT_AFTER, seed=9)
    timelines = cold_timelines(store)
    await timelines.load(other)
    await timelines.snapshots_written()
    await _as_serving_role(
        store,
        "UPDATE game_snapshots AS s SET (version, engine, data, signature) ="
        " (SELECT version, engine, data, signature FROM game_snapshots"
        "  WHERE game_id = %s) WHERE s.game_id = %s",
        (other, game_id),
    )


async def _another_keys(store, game_id: uuid.UUID) -> None:
    """The snapshot a host with another key writes over ours (which it ignores),
    good to that host."""
    other_host = cold_timelines(store, key=b"another host's key".ljust(KEY_BYTES))
    await other_host.load(game_id)
    await other_host.snapshots_written()


async def _unsigned(store, game_id: uuid.UUID) -> None:
    await _as_serving_role(
        store,
        "UPDATE game_snapshots SET signature = NULL WHERE game_id = %s",
        (game_id,),
    )


@pytest.mark.parametrize(
    ("tampering", "reason"),
    [
        (_scored_999, "bad_signature"),
        (_another_games, "bad_signature"),
        (_another_keys, "bad_signature"),
        (_unsigned, "unsigned"),
    ],
    ids=["score-changed", "another-games", "another-keys", "unsigned"],
)
def test_a_snapshot_the_serving_role_rewrote_is_ignored_logged_and_counted(
    store, run, caplog, tampering, reason
):
    """As the serving role, a long game's snapshot rewritten at a version of its
    log: a cold load serves the log's state and score sheet, logs a warning naming
    the game (not the data) and counts it; a long fold then writes the game's own
    snapshot over it, which the next cold load uses."""

    async def check() -> None:
        game_id = await snapshotted_game(store, "dozito")
        await tampering(store, game_id)
        whole = await cold_timelines(store, 10**6).load(game_id, whole=True)
        assert 1 < (await _snapshot(store, game_id))[0] < whole.version
        metrics = Metrics()
        rewriting = cold_timelines(store, metrics=metrics)
        caplog.clear()
        with caplog.at_level(logging.INFO, "service.application.snapshots"):
            # Writes no snapshot: the next cold load meets the same row.
            loaded = await cold_timelines(store, 10**6, metrics).load(game_id)
            again = await rewriting.load(game_id)
        assert not loaded.truncated and not again.truncated
        steps = range(1, whole.moves + 1)
        assert _answers(loaded, steps) == _answers(whole, steps)
        assert _answers(again, steps) == _answers(whole, steps)
        message = f"snapshot of game {game_id} ignored: {IGNORED[reason]}"
        assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
            (logging.WARNING, message)
        ] * 2
        assert _ignored(metrics, reason) == 2

        await rewriting.snapshots_written()
        resumed = await cold_timelines(store, metrics=metrics).load(game_id)
        assert resumed.first == whole.version - SNAPSHOT_BEHIND
        held = range(resumed.first + 1, resumed.moves + 1)
        assert _answers(resumed, held) == _answers(whole, held)
        assert _ignored(metrics, reason) == 2

    run(check())


def test_a_snapshot_is_rewritten_only_when_newer_but_by_a_whole_fold(store, run):
    async def check() -> None:
        game_id = await snapshotted_game(store, "dozito")
        version, engine, _ = await _snapshot(store, game_id)
        older = version - 5
        await store.write_snapshot(game_id, older, engine, b"", b"signed")
        assert (await _snapshot(store, game_id))[0] == version
        await store.write_snapshot(game_id, older, "another engine", b"x", b"signed")
        assert await _snapshot(store, game_id) == (older, "another engine", b"x")
        # A writer that folded the game whole replaces any, as one it ignored.
        await store.write_snapshot(
            game_id, older - 1, "another engine", b"y", b"signed", replace=True
        )
        assert await _snapshot(store, game_id) == (older - 1, "another engine", b"y")

    run(check())


def test_the_service_answers_a_snapshotted_game_as_one_without(store, run, client):
    """Two games of the same moves, one with a snapshot: the service holds neither,
    and answers every read of both alike, the latest step (from the snapshot) first,
    then reads that need the moves before it."""

    async def imported() -> tuple[uuid.UUID, uuid.UUID, int]:
        snapshotted = await snapshotted_game(store, "dozito")
        plain, records = await imported_game(store, "dozito")
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


def test_a_snapshot_rewritten_to_serve_a_score_of_999_is_not_served(
    fresh_store, run, fresh_database_url
):
    """The serving role rewrites a game's snapshot at a version of its own log: a
    player's score made 999 in its sheet and in every state it holds, the signature
    kept. A service that holds no game serves the log's state and score sheet, as
    for a game of the same moves without a snapshot, logs why and counts it."""

    async def tampered() -> tuple[uuid.UUID, uuid.UUID]:
        snapshotted = await snapshotted_game(fresh_store, "dozito")
        plain, _ = await imported_game(fresh_store, "dozito")
        await _scored_999(fresh_store, snapshotted)
        return snapshotted, plain

    snapshotted, plain = run(tampered())
    with (
        _warnings_of("service.application.snapshots") as warnings,
        running_server(fresh_database_url, metrics=True) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        # The projection runner loads each game cold first; then reads find it held.
        _listed(client, {snapshotted, plain})
        for path in ["/scoresheet", ""]:
            ours = client.get(f"/games/{snapshotted}{path}").json()
            theirs = client.get(f"/games/{plain}{path}").json()
            assert _without_ids(ours) == _without_ids(theirs), path
        sheet = client.get(f"/games/{snapshotted}/scoresheet").json()
        scores = [p for line in sheet["rounds"] for p in line["points"].values()]
        assert 999 not in [*scores, *sheet["totals"].values()]
        counted = _samples(client.get("/metrics").text)
    assert warnings == [
        f"snapshot of game {snapshotted} ignored: {IGNORED['bad_signature']}"
    ]
    assert counted[(IGNORED_TOTAL, "bad_signature")] == 1


def _listed(client: httpx.Client, games: set[uuid.UUID], seconds: float = 30) -> None:
    """Wait until the game list (the projection runner's) lists every game."""
    deadline = time.monotonic() + seconds
    while True:
        answer = client.get("/games", params={"player": NAMES[0], "limit": 50})
        if games <= {uuid.UUID(game["id"]) for game in answer.json()["games"]}:
            return
        assert time.monotonic() < deadline, "the game list did not catch up in time"
        time.sleep(0.05)


def _with_a_score_of_999(data: bytes) -> bytes:
    """The snapshot's data with its first player's score made 999 wherever a score
    is kept (each round's points and the totals, in the score sheet and in each
    state held), encoded again."""

    def changed(tree: object, key: object = None) -> object:
        if key in SCORES and isinstance(tree, dict):
            first, *_ = tree
            return {**tree, first: 999}
        if key in SCORES and isinstance(tree, list):
            return [999 if isinstance(v, int) else changed(v, key) for v in tree]
        if isinstance(tree, dict):
            return {k: changed(v, k) for k, v in tree.items()}
        if isinstance(tree, list):
            return [changed(v) for v in tree]
        return tree

    forged = msgspec.msgpack.encode(changed(msgspec.msgpack.decode(data)))
    assert forged != data
    return forged


async def _as_serving_role(store, statement: str, params: tuple) -> None:
    """Run `statement` as the serving role (tablelog_app), which the service logs
    in as, on the store's database."""
    async with await psycopg.AsyncConnection.connect(
        store.pool.conninfo, autocommit=True
    ) as conn:
        await conn.execute("SET ROLE tablelog_app")
        await conn.execute(statement, params)


@contextmanager
def _warnings_of(name: str) -> Iterator[list[str]]:
    """The warnings logged by `name` meanwhile. Kept on that logger: a served app's
    logging set-up replaces the root's handlers, pytest's among them."""
    kept: list[str] = []

    class Kept(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            kept.append(record.getMessage())

    handler = Kept(logging.WARNING)
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    try:
        yield kept
    finally:
        logger.removeHandler(handler)


def _samples(text: str) -> dict[tuple[str, str | None], float]:
    """The metrics' text read back: each sample by its name and its reason."""
    return {
        (sample.name, sample.labels.get("reason")): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


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


def test_the_key_file_is_made_once_for_all_who_start_at_once(tmp_path: Path):
    """Processes starting at once (here threads) each find the file missing, make a
    key and link it: all end with the one key linked first, readable by its owner
    alone, and no half-made file is left beside it."""
    path = tmp_path / "data" / "snapshot.key"
    starting = threading.Barrier(8)

    def start() -> bytes:
        starting.wait()
        return key_from_file(path)

    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _: start(), range(8)))
    assert keys == {path.read_bytes()}
    assert len(path.read_bytes()) == KEY_BYTES
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert list(path.parent.iterdir()) == [path]
    assert key_from_file(path) == path.read_bytes()


def test_a_key_file_an_operator_wrote_is_used_unless_too_short(tmp_path: Path):
    path = tmp_path / "snapshot.key"
    path.write_bytes(b"0123456789abcdef" * 4)
    assert key_from_file(path) == b"0123456789abcdef" * 4
    path.write_bytes(b"too short")
    with pytest.raises(ValueError, match="holds 9 bytes, fewer than the 32 of a key"):
        key_from_file(path)


def test_hosts_sharing_a_key_file_sign_alike_and_another_keys_host_rewrites(
    fresh_store, run, fresh_database_url, tmp_path: Path
):
    """A service signs with the key in its file: what one host wrote another with
    the same file could use; a host with another file ignores it (logged, counted)
    and writes its own."""
    shared, other = tmp_path / "shared.key", tmp_path / "other.key"
    game_id, _ = run(imported_game(fresh_store, "dozito"))

    def serving(key_file: Path):
        return running_server(
            fresh_database_url, metrics=True, snapshot_key_file=str(key_file)
        )

    with serving(shared) as base_url, httpx.Client(base_url=base_url) as client:
        # The projection runner's cold load writes the snapshot (in the background).
        _listed(client, {game_id})
        _signed_with(fresh_store, run, game_id, shared)
    with (
        _warnings_of("service.application.snapshots") as warnings,
        serving(other) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        assert client.get(f"/games/{game_id}").status_code == 200
        counted = _samples(client.get("/metrics").text)
        _signed_with(fresh_store, run, game_id, other)
    assert warnings == [
        f"snapshot of game {game_id} ignored: {IGNORED['bad_signature']}"
    ]
    assert counted[(IGNORED_TOTAL, "bad_signature")] == 1
    for key_file in (shared, other):
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def _signed_with(
    store, run, game_id: uuid.UUID, key_file: Path, seconds: float = 30
) -> None:
    """Wait until the game's snapshot is signed with the key in `key_file`."""
    key = key_from_file(key_file)
    deadline = time.monotonic() + seconds
    while True:
        _, found = run(store.get_game_and_snapshot(game_id))
        if found is not None and found.signature == signature(
            key, game_id, found.version, found.engine, found.data
        ):
            return
        assert time.monotonic() < deadline, "the snapshot was not written in time"
        time.sleep(0.05)


def test_the_commands_keep_the_key_in_the_data_dir_or_the_file_named(
    fresh_database_url, tmp_path: Path
):
    """`tablelog export` (as every command that reads games) signs with the key in
    --data-dir's snapshot.key, made on first use, or in --snapshot-key-file."""
    env = {**os.environ, "DATABASE_URL": fresh_database_url}
    env.pop("TABLELOG_SNAPSHOT_KEY_FILE", None)
    no_game = str(uuid.uuid4())

    def export(*options: str) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "service", "export", no_game, *options],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1 and no_game in done.stderr, done.stderr

    export("--data-dir", str(tmp_path / "data"))
    assert len((tmp_path / "data" / "snapshot.key").read_bytes()) == KEY_BYTES
    chosen = tmp_path / "keys" / "tablelog.key"
    export("--data-dir", str(tmp_path / "data"), "--snapshot-key-file", str(chosen))
    assert stat.S_IMODE(chosen.stat().st_mode) == 0o600
    assert chosen.read_bytes() != (tmp_path / "data" / "snapshot.key").read_bytes()


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_a_snapshot_depends_on_the_code_that_folds_and_scores_its_game(name):
    rules = BUILT_IN[name]
    sources = {path.relative_to(ROOT).as_posix() for path in engine_sources(rules)}
    package = Path(sys.modules[rules.decide.__module__].__file__).parent
    assert {
        "domain/history.py",
        "domain/sheet.py",
        "domain/game.py",
        "projections/scoresheet.py",
        "service/application/snapshots.py",
        (package / "evolve.py").relative_to(ROOT).as_posix(),
    } <= sources
    # The other read models' folds hold nothing a snapshot keeps: changing them
    # costs no long game a fold.
    assert not sources & {"projections/ratings.py", "projections/records.py"}
