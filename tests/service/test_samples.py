"""The sample games (`tablelog seed`), over HTTP on a real PostgreSQL: loaded into
their group, marked sample, on its ladder alone and in no player's record; seeded
twice, loaded once; removed (`tablelog seed --remove`), every read of them answers
as for a game that does not exist, until seeding brings them back; and a database
seeded before samples had a group finds its samples marked by the migration."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
import pytest

from domain.registry import BUILT_IN
from seeds.generate import SAMPLES
from service.application.exchange import import_game
from service.application.samples import SAMPLE_GROUP, sample_id
from service.bootstrap import shell_games
from service.http import stream
from service.settings import Settings
from service.storage import migrate as migrations
from service.storage.migrate import migrate, migration_files
from service.storage.pools import connection_pool
from service.storage.store import EventStore
from tests.support.hidden import filled, game_paths, normalised, read
from tests.support.processes import tablelog_on
from tests.support.ratings import Table
from tests.support.server import running_server
from tests.support.waiting import eventually

SEEDS = sorted((Path(__file__).parents[2] / "seeds").glob("*.ndjson"))
SAMPLE_IDS = [str(sample_id(path.name)) for path in SEEDS]
KINDS = sorted({sample.game for sample in SAMPLES})
SAMPLE_PLAYERS = {player for sample in SAMPLES for player in sample.players}
# A table's own game, played beside the samples: public, of no group.
REAL_PLAYERS = ["Ana", "Bia"]


def players_of(kind: str) -> set[str]:
    return {p for sample in SAMPLES if sample.game == kind for p in sample.players}


@dataclass(frozen=True, slots=True)
class Seeded:
    """A database seeded, a service on it, and a table's game beside the samples."""

    url: str
    client: httpx.Client
    real: dict


def board(client: httpx.Client, kind: str, group: str | None = None) -> set[str]:
    params = {} if group is None else {"group": group}
    answer = client.get(f"/leaderboards/{kind}", params=params)
    assert answer.status_code == 200, answer.text
    return {line["name"] for line in answer.json()["players"]}


def stored_rows(url: str) -> tuple[int, int]:
    with psycopg.connect(url) as conn:
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
    return games, events


def seeded_lines(done) -> list[str]:
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if ".ndjson" in line]


@contextmanager
def serving_seeded(url: str) -> Iterator[Seeded]:
    """`tablelog seed` on `url`, then a service on it with a table's game logged
    beside the samples, once the runner has rated them all."""
    assert len(seeded_lines(tablelog_on(url, "seed"))) == len(SEEDS)
    with (
        running_server(url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        real = Table(client).play(REAL_PLAYERS, seed=1)
        eventually(
            lambda: (
                all(board(client, k, SAMPLE_GROUP) for k in KINDS)
                and board(client, "dobro") == set(REAL_PLAYERS)
            ),
            seconds=30,
        )
        yield Seeded(url, client, real)


@pytest.fixture(scope="module")
def seeded(create_database) -> Iterator[Seeded]:
    url = create_database()
    migrate(url)
    with serving_seeded(url) as service:
        yield service


@pytest.fixture
def fresh_seeded(fresh_database_url) -> Iterator[Seeded]:
    with serving_seeded(fresh_database_url) as service:
        yield service


def test_the_samples_are_in_their_group_and_on_its_ladder_alone(seeded):
    client = seeded.client
    for game_id in SAMPLE_IDS:
        game = client.get(f"/games/{game_id}")
        assert game.status_code == 200, game.text
        assert (game.json()["group"], game.json()["visibility"]) == (
            SAMPLE_GROUP,
            "public",
        )
    listed = client.get("/games", params={"group": SAMPLE_GROUP, "limit": 100})
    assert {game["id"] for game in listed.json()["games"]} == set(SAMPLE_IDS)
    for kind in KINDS:
        assert board(client, kind, SAMPLE_GROUP) == players_of(kind)
        assert not board(client, kind) & SAMPLE_PLAYERS, kind
    assert board(client, "dobro") == set(REAL_PLAYERS)


def test_no_players_record_counts_a_sample(seeded):
    client = seeded.client
    for name in SAMPLE_PLAYERS:
        assert client.get(f"/players/{name}").status_code == 404, name
    assert client.get("/players/Priscila/versus/Dory").status_code == 404
    assert client.get("/players/Priscila/ratings/dobro").status_code == 404
    in_group = {"group": SAMPLE_GROUP}
    rated = client.get("/players/Priscila/ratings/dobro", params=in_group)
    assert rated.status_code == 200 and len(rated.json()["ratings"]) == 2
    record = client.get(f"/players/{REAL_PLAYERS[0]}").json()
    assert (record["played"], list(record["games"])) == (1, ["dobro"])


def test_seeding_twice_loads_each_sample_once(seeded):
    before = stored_rows(seeded.url)
    lines = seeded_lines(tablelog_on(seeded.url, "seed"))
    assert len(lines) == len(SEEDS)
    assert all(" already loaded as game " in line for line in lines), lines
    assert stored_rows(seeded.url) == before


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE sample_removals SET removed = NOT removed",
        "DELETE FROM sample_groups",
        "TRUNCATE ungrouped_samples",
    ],
)
def test_the_marks_are_never_changed_nor_taken_away(seeded, statement):
    with (
        psycopg.connect(seeded.url) as conn,
        pytest.raises(psycopg.errors.RaiseException, match="append-only"),
    ):
        conn.execute(statement)


def test_a_rebuild_rates_the_samples_on_their_groups_ladders_alone(seeded):
    client = seeded.client
    ladders = [(kind, group) for kind in KINDS for group in (None, SAMPLE_GROUP)]

    def boards() -> dict:
        return {
            (kind, group): client.get(
                f"/leaderboards/{kind}", params={"group": group} if group else {}
            ).json()
            for kind, group in ladders
        }

    before = boards()
    rebuilt = tablelog_on(seeded.url, "projections", "rebuild")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert boards() == before
    assert not board(client, "dobro-pixar") & SAMPLE_PLAYERS


def fed(client: httpx.Client) -> set[str]:
    """The games of every event of the feed, read from its start to its end."""
    seen: set[str] = set()
    params: dict = {"limit": 1000}
    while events := (page := client.get("/feed", params=params).json())["events"]:
        seen |= {event["game_id"] for event in events}
        params["after"] = page["next"]
    return seen


def assert_missing(client: httpx.Client, game_id: str) -> None:
    """Every read and write of the game answers as for a game never created."""
    missing = str(uuid.uuid4())
    for path in game_paths():
        answer = read(client, filled(path, game_id), {})
        never = read(client, filled(path, missing), {})
        assert never.status_code == 404, path
        assert normalised(answer, game_id) == normalised(never, missing), path
    for path, body in (
        ("moves", {"type": "undo"}),
        ("notes", {"step": 1, "text": "x"}),
        ("variations", {"at": 1}),
    ):
        written = client.post(f"/games/{game_id}/{path}", json=body)
        never = client.post(f"/games/{missing}/{path}", json=body)
        assert never.status_code == 404, path
        assert normalised(written, game_id) == normalised(never, missing), path


def branched(client: httpx.Client, game_id: str) -> str:
    """A variation of the game from its first step, as anyone may branch one."""
    answer = client.post(f"/games/{game_id}/variations", json={"at": 1})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def test_removed_samples_answer_as_games_that_do_not_exist(fresh_seeded, monkeypatch):
    client, url = fresh_seeded.client, fresh_seeded.url
    variation = branched(client, SAMPLE_IDS[0])
    assert client.get(f"/games/{variation}").json()["group"] == SAMPLE_GROUP
    assert set(SAMPLE_IDS) < fed(client)
    monkeypatch.setattr(stream, "KEEP_ALIVE_SECONDS", 0.2)
    with client.stream("GET", f"/games/{SAMPLE_IDS[0]}/stream") as opened:
        assert opened.status_code == 200
        removed = tablelog_on(url, "seed", "--remove")
        # The stream open meanwhile ends, having sent keep-alives alone: its game
        # no longer exists.
        sent = list(opened.iter_lines())
        assert ": keep-alive" in sent and "event: move" not in sent
    assert removed.returncode == 0, removed.stderr
    assert "The sample games are removed" in removed.stdout
    again = tablelog_on(url, "seed", "--remove")
    assert "removed already" in again.stdout

    for game_id in [*SAMPLE_IDS, variation]:
        assert_missing(client, game_id)
    real = fresh_seeded.real["id"]
    listed = client.get("/games", params={"limit": 100}).json()["games"]
    assert [game["id"] for game in listed] == [real]
    in_group = client.get("/games", params={"group": SAMPLE_GROUP}).json()["games"]
    assert in_group == []
    assert fed(client) == {real}
    nobody = f"Nobody-{uuid.uuid4().hex[:6]}"
    for kind in KINDS:
        ladder = client.get(f"/leaderboards/{kind}", params={"group": SAMPLE_GROUP})
        none = client.get(f"/leaderboards/{kind}", params={"group": nobody})
        assert ladder.content.replace(SAMPLE_GROUP.encode(), b"G") == (
            none.content.replace(nobody.encode(), b"G")
        )
    assert board(client, "dobro") == set(REAL_PLAYERS)
    history = "/players/Priscila/ratings/dobro"
    assert client.get(history, params={"group": SAMPLE_GROUP}).status_code == 404
    # An import of a sample's file is a game of its own: no answer names the
    # sample removed.
    file = SEEDS[0].read_bytes()
    headers = {"Content-Type": "application/x-ndjson"}
    imported = client.post("/games/import", content=file, headers=headers)
    assert imported.status_code == 201, imported.text
    assert imported.json()["id"] not in SAMPLE_IDS

    lines = seeded_lines(tablelog_on(url, "seed"))
    assert all(" already loaded as game " in line for line in lines), lines
    for game_id in SAMPLE_IDS:
        assert client.get(f"/games/{game_id}").status_code == 200
    for kind in KINDS:
        assert board(client, kind, SAMPLE_GROUP) == players_of(kind)


def test_a_group_of_that_name_that_is_no_samples_is_left_alone(fresh_database_url):
    with psycopg.connect(fresh_database_url) as conn:
        conn.execute(
            "INSERT INTO groups (id, name) VALUES (%s, %s)",
            (uuid.uuid4(), SAMPLE_GROUP.upper()),
        )
    refused = tablelog_on(fresh_database_url, "seed")
    assert refused.returncode == 1
    assert "the samples are not loaded" in refused.stderr, refused.stderr
    assert stored_rows(fresh_database_url) == (0, 0)


# ------------------------------------------------------- seeded before 0026


def loaded_as_before(url: str) -> None:
    """Each sample loaded as `tablelog seed` loaded it before samples had a group:
    an ordinary game of no group, under its id."""

    async def load() -> None:
        pool = connection_pool(Settings(database_url=url, pool_max_size=2))
        await pool.open(wait=True, timeout=10)
        try:
            games = shell_games(EventStore(pool), BUILT_IN)
            for path in SEEDS:
                await import_game(games, path.read_bytes(), sample_id(path.name))
        finally:
            await pool.close()

    asyncio.run(load())


def copied(source: str, target: str, table: str) -> None:
    """The rows of `table` copied from the database `source` to `target`, every
    column but those the database fills."""
    with psycopg.connect(source) as conn:
        listed = ", ".join(
            name
            for (name,) in conn.execute(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_name = %s AND is_generated = 'NEVER'"
                " AND is_identity = 'NO' AND column_name <> 'transaction_id'"
                " ORDER BY ordinal_position",
                (table,),
            )
        )
    with (
        psycopg.connect(source) as reading,
        psycopg.connect(target) as writing,
        reading.cursor().copy(f"COPY {table} ({listed}) TO STDOUT") as rows,
        writing.cursor().copy(f"COPY {table} ({listed}) FROM STDIN") as into,
    ):
        for data in rows:
            into.write(data)


def test_the_samples_seeded_before_are_marked_by_the_migration(
    create_database, fresh_database_url, monkeypatch
):
    older = create_database()
    before = [f for f in migration_files() if f.name < "0026"]
    with monkeypatch.context() as patched:
        patched.setattr(migrations, "migration_files", lambda: before)
        migrate(older)
    # Loaded and rated as then, on their games' own ladders: the ratings of a
    # database whose runner had folded its whole log.
    loaded_as_before(fresh_database_url)
    with (
        running_server(fresh_database_url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        eventually(lambda: "Priscila" in board(client, "dobro"), seconds=30)
        branched_before = branched(client, SAMPLE_IDS[0])
    for table in ("games", "events", "imports", "ratings"):
        copied(fresh_database_url, older, table)
    with psycopg.connect(older) as conn:
        conn.execute(
            "UPDATE projection_checkpoints"
            " SET transaction = log_horizon()::text::bigint, position = 0"
        )
    migrate(older)

    with psycopg.connect(older) as conn:
        marked = conn.execute("SELECT game_id::text FROM ungrouped_samples").fetchall()
    assert sorted(game_id for (game_id,) in marked) == sorted(
        [*SAMPLE_IDS, branched_before]
    )
    with (
        running_server(older) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        Table(client).play(REAL_PLAYERS, seed=1)
        eventually(lambda: board(client, "dobro") == set(REAL_PLAYERS), seconds=30)
        for kind in KINDS:
            assert not board(client, kind) & SAMPLE_PLAYERS, kind
        assert client.get("/players/Priscila").status_code == 404
        for game_id in SAMPLE_IDS:
            game = client.get(f"/games/{game_id}")
            assert (game.status_code, game.json()["group"]) == (200, None)

        branched_after = branched(client, SAMPLE_IDS[1])

        lines = seeded_lines(tablelog_on(older, "seed"))
        assert all(" already loaded as game " in line for line in lines), lines
        removed = tablelog_on(older, "seed", "--remove")
        assert removed.returncode == 0, removed.stderr
        for game_id in [*SAMPLE_IDS, branched_before, branched_after]:
            assert_missing(client, game_id)
