"""Backups that restore: `tablelog backup` taken while moves are written, and
`tablelog restore` into a fresh cluster on another data directory, run as an
operator runs them. Everything read before comes back byte for byte, and every
follower of the log (the feed, the read models, the webhooks) goes on with the moves
made after the restore."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import msgspec
import psycopg
import pytest
from standardwebhooks import Webhook

from service.cli.exchange import SEEDS
from service.storage.embedded import embedded_postgres
from tests.support.groups import new_players
from tests.support.http import create, move, play_simulated
from tests.support.ports import free_port
from tests.support.waiting import eventually

GROUP = "Friday club"
# A Dobro game in which Ann holds a 4: played and undone again and again, it takes
# moves for as long as the writer runs and never ends.
# Ann and Bob join the roster of the group an app key creates it in.
WRITTEN = {
    "game": "dobro",
    "players": new_players("Ann", "Bob"),
    "first_player": "Ann",
    "seed": 3,
}
PLAY = {"type": "play", "player": "Ann", "cards": [4]}
UNDO = {"type": "undo"}
# A server that has run a while has handed out many more transaction ids than a
# new cluster: the restored log's ids are then far above the new cluster's own.
TRANSACTIONS_BEFORE = 5000


def tablelog(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`tablelog ARGS` on the embedded server, as an operator runs it."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("DATABASE_URL")}
    done = subprocess.run(
        [sys.executable, "-m", "service", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


def refusal(done: subprocess.CompletedProcess) -> str:
    """The last line a command wrote to stderr (its log lines come before)."""
    return done.stderr.strip().splitlines()[-1]


@contextmanager
def serving(data_dir: Path) -> Iterator[httpx.Client]:
    """`tablelog serve` on `data_dir`, webhooks allowed to loopback, until the
    block ends (Ctrl-C, which stops its embedded server too). Its log goes to a
    file beside `data_dir`: a pipe nobody reads while the test runs would fill up
    and stop the server at its next line."""
    port = free_port()
    log = data_dir.with_name(data_dir.name + ".log")
    env = {k: v for k, v in os.environ.items() if not k.endswith("DATABASE_URL")}
    command = [
        sys.executable, "-m", "service", "serve", "--data-dir", str(data_dir),
        "--port", str(port), "--webhooks-allow-private", "--webhook-retries", "0.2",
    ]  # fmt: skip
    with log.open("w") as output:
        process = subprocess.Popen(
            command, env=env, stdout=output, stderr=subprocess.STDOUT
        )
    base = f"http://127.0.0.1:{port}"
    try:
        eventually(lambda: _answers(base) or process.poll() is not None, seconds=90)
        assert process.poll() is None, log.read_text()
        with httpx.Client(base_url=base, timeout=30) as client:
            yield client
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
    assert process.returncode == 0, log.read_text()


def _answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/health").status_code == 200
    except httpx.TransportError:
        return False


@dataclass
class Receiver:
    """A webhook endpoint on loopback: every body it was sent, with its headers."""

    url: str = ""
    received: list[tuple[dict[str, str], bytes]] = field(default_factory=list)

    def told(self, secret: str) -> list[dict]:
        """Every message, each checked against its signature."""
        return [Webhook(secret).verify(body, head) for head, body in self.received]


@contextmanager
def receiver() -> Iterator[Receiver]:
    got = Receiver()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["content-length"]))
            got.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    got.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    try:
        yield got
    finally:
        server.shutdown()
        server.server_close()


class Writer(threading.Thread):
    """Logs moves in one game until stopped, on a connection of its own: each
    acknowledged version with the moment its answer came."""

    def __init__(self, base_url: httpx.URL, game: dict) -> None:
        super().__init__(daemon=True)
        self.base_url, self.game = base_url, game
        self.acknowledged: list[tuple[int, float]] = []
        self.refused: httpx.Response | None = None
        self.stopping = threading.Event()

    def run(self) -> None:
        version = 1
        with httpx.Client(base_url=self.base_url, timeout=30) as client:
            while not self.stopping.is_set():
                body = UNDO if version % 2 == 0 else PLAY
                answer = move(client, self.game, body)
                if answer.status_code != 201:
                    self.refused = answer
                    return
                version = answer.json()["version"]
                self.acknowledged.append((version, time.monotonic()))

    def written(self, after: float) -> bool:
        """Whether a move was acknowledged after the moment `after`; an assertion
        error if a move was refused."""
        assert self.refused is None, self.refused.text
        return bool(self.acknowledged) and self.acknowledged[-1][1] > after

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=30)
        assert self.refused is None, self.refused.text


def burn_transaction_ids(data_dir: Path, count: int) -> None:
    """Hand out `count` transaction ids on the embedded server running in
    `data_dir` (subtransactions that write, in one statement)."""
    with (
        embedded_postgres(data_dir / "postgres") as url,
        psycopg.connect(url, autocommit=True) as conn,
    ):
        conn.execute("CREATE TEMPORARY TABLE burnt (i integer)")
        conn.execute(
            f"DO $$ BEGIN FOR i IN 1..{int(count)} LOOP"
            " BEGIN INSERT INTO burnt VALUES (i); EXCEPTION WHEN others THEN NULL;"
            " END; END LOOP; END $$"
        )


def feed_end(client: httpx.Client, after: str | None = None) -> tuple[str, list]:
    """Read the feed to its end from `after`: its last cursor and the events."""
    events: list = []
    while True:
        params = {"limit": 1000} | ({"after": after} if after else {})
        page = client.get("/feed", params=params).json()
        events += page["events"]
        after = page["next"]
        if not page["events"]:
            return after, events


def listed(client: httpx.Client) -> dict[str, dict]:
    answer = client.get("/games", params={"limit": 100})
    assert answer.status_code == 200, answer.text
    return {game["id"]: game for game in answer.json()["games"]}


def read_models_caught_up(client: httpx.Client) -> bool:
    """Whether the game list shows every listed game at its stored version."""
    return all(
        client.get(f"/games/{id}").json()["version"] == game["version"]
        for id, game in listed(client).items()
    )


def reads(client: httpx.Client, ids: list[str]) -> dict[str, bytes]:
    """Every game's export and replay, and every leaderboard, as answered."""
    answers = {}
    for id in ids:
        for path in (f"/games/{id}/export", f"/games/{id}/replay"):
            answer = client.get(path)
            assert answer.status_code == 200, answer.text
            answers[path] = answer.content
    for game in ("dobro", "dobro-pixar", "dozito", "double-donkey"):
        for path in (f"/leaderboards/{game}", f"/leaderboards/{game}?group={GROUP}"):
            answer = client.get(path)
            assert answer.status_code == 200, answer.text
            answers[path] = answer.content
    return answers


def app_key(data_dir: Path, name: str, *group: str) -> tuple[str, str]:
    """A new key's id and the key, as `tablelog keys create` prints them; made for
    the group named `group`, when one is given."""
    printed = tablelog(
        "keys", "create", "--name", name, "--data-dir", str(data_dir),
        "--scopes", "games:create,moves:write,read,webhooks",
        *(("--group", *group) if group else ()),
    ).stdout  # fmt: skip
    fields = dict(line.split(": ", 1) for line in printed.splitlines())
    return fields["id"], fields["key"]


def bearer(credential: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {credential}"}


def grouped_game(client: httpx.Client, key: str) -> dict:
    """A Double Donkey game of the group, created with the group's app key."""
    body = {"game": "double-donkey", "players": new_players("Olivia", "Fran")}
    answer = client.post("/games", json=body, headers=bearer(key))
    assert answer.status_code == 201, answer.text
    return answer.json()


@dataclass
class Source:
    """What the drill made on the first server and read from it."""

    key: str
    revoked_key: str
    secret: str
    cursor: str
    compared: list[str]
    reads: dict[str, bytes]
    written: dict
    acknowledged_before: int
    acknowledged_after: int


@pytest.fixture
def directory() -> Iterator[Path]:
    """A directory of the test's own, for data directories: under /tmp, as root
    runs the embedded server as another user (see tests/conftest.py)."""
    made = Path(tempfile.mkdtemp(prefix="tablelog-test-backup-"))
    yield made
    shutil.rmtree(made, ignore_errors=True)


@pytest.mark.db
def test_a_backup_taken_while_moves_are_written_restores_into_a_new_cluster(
    directory,
):
    backup = directory / "tablelog.backup"
    with receiver() as hook:
        source = serve_and_back_up(directory / "source", backup, hook)
        group_board = source.reads[f"/leaderboards/dozito?group={GROUP}"]
        assert json.loads(group_board)["players"], "the group's games were rated"
        restored = directory / "restored"
        done = tablelog("restore", str(backup), "--data-dir", str(restored))
        assert "restored" in done.stdout, done.stdout
        with serving(restored) as client:
            assert_the_new_clusters_ids_are_below_the_restored_ones(restored)
            again = tablelog(
                "restore", str(backup), "--data-dir", str(restored), check=False
            )
            assert again.returncode == 1
            games = len(source.compared) + 1  # and the game written during the backup
            assert refusal(again) == (
                f"tablelog: the database already holds {games} games: a restore goes "
                "only into an empty database (a new --data-dir, or a new database)"
            )
            assert_restored_as_it_was(client, source)
            assert_the_followers_go_on(client, source, hook)


def serve_and_back_up(data_dir: Path, backup: Path, hook: Receiver) -> Source:
    with serving(data_dir) as client:
        burn_transaction_ids(data_dir, TRANSACTIONS_BEFORE)
        tablelog("seed", "--data-dir", str(data_dir))
        # A public group: the drill reads its games and ladder as anyone does.
        body = {"name": GROUP, "device": "the drill", "visibility": "public"}
        made = client.post("/groups", json=body)
        assert made.status_code == 201, made.text
        _, key = app_key(data_dir, "drill", GROUP)
        revoked_id, revoked_key = app_key(data_dir, "revoked")
        tablelog("keys", "revoke", revoked_id, "--data-dir", str(data_dir))
        endpoint = client.post(
            "/webhooks",
            json={"url": hook.url, "kinds": ["move.stored", "game.finished"]},
            headers=bearer(key),
        )
        assert endpoint.status_code == 201, endpoint.text
        made = every_kind_of_entry(client, key)
        eventually(lambda: read_models_caught_up(client), seconds=20)
        cursor, _ = feed_end(client)
        written = create(client, **WRITTEN)
        writer = Writer(client.base_url, written)
        writer.start()
        eventually(
            lambda: writer.written(after=0) and len(writer.acknowledged) >= 5,
            seconds=20,
        )
        started = time.monotonic()
        done = tablelog("backup", str(backup), "--data-dir", str(data_dir))
        ended = time.monotonic()
        # Well after: a move answered then was stored after the backup's snapshot.
        later = ended + 1.0
        eventually(lambda: writer.written(after=later), seconds=20)
        writer.stop()
        assert "backed up" in done.stdout, done.stdout
        assert any(started < at < ended for _, at in writer.acknowledged)
        compared = [id for id in listed(client) if id != written["id"]] + made
        eventually(lambda: read_models_caught_up(client), seconds=20)
    # Read as a server just started reads them, as the restored one will: a move's
    # data as the database keeps it, where the process that stored it would answer
    # from its memory the JSON it was sent (the same, keys in another order).
    with serving(data_dir) as client:
        return Source(
            key=key,
            revoked_key=revoked_key,
            secret=endpoint.json()["secret"],
            cursor=cursor,
            compared=compared,
            reads=reads(client, compared),
            written=written,
            acknowledged_before=max(v for v, at in writer.acknowledged if at < started),
            acknowledged_after=min(v for v, at in writer.acknowledged if at > later),
        )


def every_kind_of_entry(client: httpx.Client, key: str) -> list[str]:
    """Games of the group played to their end, imported with its app key; a game
    with undos and notes, one withdrawn; a variation. The ids of those not listed."""
    for sample in ("dozito-three-players", "double-donkey-two-players"):
        imported = client.post(
            "/games/import",
            content=in_the_group(SEEDS / f"{sample}.ndjson"),
            headers=bearer(key) | {"Content-Type": "application/x-ndjson"},
        )
        assert imported.status_code == 201, imported.text
        assert imported.json()["status"] == "finished"
    undone = create(client, game="double-donkey", players=["Ann", "Bob"])
    play_simulated(client, undone, limit=4)
    for _ in range(2):
        assert move(client, undone, UNDO).status_code == 201
    token = bearer(undone["write_token"])
    for step, text in ((1, "a fine start"), (2, "too hasty")):
        note = client.post(
            f"/games/{undone['id']}/notes",
            json={"step": step, "text": text, "mark": "?!"},
            headers=token,
        )
        assert note.status_code == 201, note.text
    withdrawn = client.post(
        f"/games/{undone['id']}/notes/{note.json()['id']}/withdrawal", headers=token
    )
    assert withdrawn.status_code == 200, withdrawn.text
    variation = client.post(f"/games/{undone['id']}/variations", json={"at": 1})
    assert variation.status_code == 201, variation.text
    return [variation.json()["id"]]


def in_the_group(sample: Path) -> bytes:
    """A sample game's export, titled for the group, at another table (its last
    player named otherwise): the samples are loaded already, and a title does not
    make another game, a player does."""
    created, *moves = sample.read_bytes().splitlines()
    named = json.loads(created) | {"title": GROUP}
    last = msgspec.json.encode(named["players"][-1])
    other = msgspec.json.encode(f"{named['players'][-1]} of {GROUP}")
    lines = [msgspec.json.encode(named), *moves]
    return b"\n".join(line.replace(last, other) for line in lines)


def assert_the_new_clusters_ids_are_below_the_restored_ones(data_dir: Path) -> None:
    """The case a restore must handle: the new cluster hands out transaction ids
    below every restored event's."""
    with (
        embedded_postgres(data_dir / "postgres") as url,
        psycopg.connect(url, autocommit=True) as conn,
    ):
        (below,) = conn.execute(
            "SELECT pg_current_xact_id() < min(transaction_id) FROM events"
        ).fetchone()
    assert below


def assert_restored_as_it_was(client: httpx.Client, source: Source) -> None:
    ready = client.get("/health/ready")
    assert (ready.status_code, ready.json()) == (200, {"status": "ok"})
    assert reads(client, source.compared) == source.reads
    # The moves written while the backup ran: all those answered before it started,
    # none answered well after it ended; and the game folds.
    written = client.get(f"/games/{source.written['id']}")
    assert written.status_code == 200, written.text
    version = written.json()["version"]
    assert source.acknowledged_before <= version < source.acknowledged_after
    # The app keys: the live one writes, the revoked one stays refused.
    assert client.post("/games", json=WRITTEN, headers=bearer(source.key)).is_success
    refused = client.post("/games", json=WRITTEN, headers=bearer(source.revoked_key))
    assert refused.status_code == 401, refused.text


def assert_the_followers_go_on(
    client: httpx.Client, source: Source, hook: Receiver
) -> None:
    """A game finished after the restore reaches the feed after the cursor a client
    held, the game list, the group's ladder and the webhook endpoint."""
    game = grouped_game(client, source.key)
    played = play_simulated(client, game)

    def in_the_feed() -> bool:
        _, events = feed_end(client, source.cursor)
        return any(e["game_id"] == game["id"] for e in events)

    eventually(in_the_feed, seconds=20)
    eventually(
        lambda: listed(client).get(game["id"], {}).get("version") == played + 1,
        seconds=20,
    )
    assert listed(client)[game["id"]]["status"] == "finished"

    def rated() -> bool:
        history = client.get(
            "/players/Olivia/ratings/double-donkey", params={"group": GROUP}
        )
        return game["id"] in [line["game_id"] for line in history.json()["ratings"]]

    eventually(rated, seconds=20)

    def told() -> bool:
        messages = hook.told(source.secret)
        return any(
            m["type"] == "game.finished" and m["data"]["game_id"] == game["id"]
            for m in messages
        )

    eventually(told, seconds=20)


def test_a_file_that_is_not_a_backup_is_refused(tmp_path):
    file = tmp_path / "notes.txt"
    file.write_text("not a backup\n")
    done = tablelog("restore", str(file), "--data-dir", str(tmp_path), check=False)
    assert done.returncode == 1
    assert refusal(done).startswith("tablelog: "), done.stderr
    assert "valid archive" in refusal(done), done.stderr
    assert not (tmp_path / "postgres").exists()  # refused before any server started


def test_a_missing_file_is_refused(tmp_path):
    done = tablelog(
        "restore", str(tmp_path / "none"), "--data-dir", str(tmp_path), check=False
    )
    assert done.returncode == 1
    assert refusal(done) == f"tablelog: {tmp_path / 'none'} is not a file"


def test_a_backup_into_a_folder_that_does_not_exist_is_refused(database_url, tmp_path):
    file = tmp_path / "missing" / "tablelog.backup"
    env = {k: v for k, v in os.environ.items() if not k.endswith("DATABASE_URL")}
    done = subprocess.run(
        [sys.executable, "-m", "service", "backup", str(file)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env | {"DATABASE_URL": database_url},
    )
    assert done.returncode == 1
    assert refusal(done) == (
        f"tablelog: cannot write {file}.partial: No such file or directory"
    )
