"""Imports keep what happened: each line's original time survives an import (the
BG Stats result says how long the game really lasted), and a game imported twice,
even at once and under other titles, is one game, not two."""

from __future__ import annotations

import itertools
import json
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta, timezone

import httpx
import msgspec
import psycopg

from bench.workload import endless
from domain.game import Setup
from domain.registry import BUILT_IN
from service import bootstrap
from service.application.creating import NAME_LENGTH, NewGame
from service.application.games import Games
from service.application.notes import MAX_NOTE_ENTRIES, NOTE_LENGTH
from service.application.submitting import MAX_MOVES
from service.storage.notes import NewEntry
from tests.support.http import create, play_simulated
from tests.support.server import running_server

NDJSON = {"Content-Type": "application/x-ndjson"}
STARTED = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
PLAYERS = ["Priscila", "Mauricio", "Karen"]


def _time(minutes: float) -> str:
    return (STARTED + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")


def exported_file(seed: int, minutes: float | None = 95.0, title: str = "") -> bytes:
    """A finished Dobro Pixar game as an export gives it, its lines logged evenly
    over `minutes` from STARTED (None: lines without times, as older exports)."""
    setup = Setup(players=tuple(PLAYERS), first_player=PLAYERS[0], seed=seed)
    moves = [msgspec.to_builtins(m) for m in BUILT_IN["dobro-pixar"].simulate(setup)]
    created = {
        "type": "game_created",
        "game": "dobro-pixar",
        "players": PLAYERS,
        "first_player": PLAYERS[0],
        "seed": seed,
        "options": {},
        "title": title or f"Imported #{seed}",
        "played_at": None,
        "location": None,
        "notes": None,
    }
    lines = [created, *moves]
    if minutes is not None:
        step = minutes / (len(lines) - 1)
        lines = [{**line, "logged_at": _time(i * step)} for i, line in enumerate(lines)]
    return b"".join(
        json.dumps(line, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
        for line in lines
    )


def _import(client, body: bytes):
    return client.post("/games/import", content=body, headers=NDJSON)


def _imported(client, body: bytes) -> dict:
    answer = _import(client, body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_an_imported_game_lasts_as_long_as_the_game_it_was_exported_from(client):
    game = _imported(client, exported_file(seed=31, minutes=95))
    assert game["status"] == "finished"

    play = client.get(f"/games/{game['id']}/bgstats")

    assert play.status_code == 200, play.text
    assert play.json()["durationMin"] == 95


def test_the_original_times_are_data_the_rows_own_time_is_the_databases(
    client, database_url
):
    before = datetime.now(UTC) - timedelta(seconds=5)
    body = exported_file(seed=32, minutes=40)
    game = _imported(client, body)

    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT recorded_at, data->>'logged_at' FROM events"
            " WHERE game_id = %s ORDER BY version",
            (game["id"],),
        ).fetchall()

    sent = [json.loads(line)["logged_at"] for line in body.splitlines()]
    assert all(recorded_at >= before for recorded_at, _ in rows)
    kept = [datetime.fromisoformat(logged) for _, logged in rows]
    assert kept == [datetime.fromisoformat(at) for at in sent]
    # The export gives them back as it received them: the file comes out unchanged.
    assert client.get(f"/games/{game['id']}/export").content == body


def test_a_file_without_times_imports_and_exports_without_inventing_them(client):
    body = exported_file(seed=33, minutes=None)
    game = _imported(client, body)

    assert client.get(f"/games/{game['id']}/export").content == body
    assert client.get(f"/games/{game['id']}/bgstats").json()["durationMin"] == 0


def test_a_game_logged_here_exports_the_times_its_moves_were_logged(client):
    created = client.post(
        "/games", json={"game": "dobro-pixar", "players": PLAYERS, "seed": 34}
    ).json()
    events = client.get(f"/games/{created['id']}/events").json()["events"]

    exported = client.get(f"/games/{created['id']}/export").content

    (line,) = [json.loads(line) for line in exported.splitlines()]
    assert datetime.fromisoformat(line["logged_at"]) == datetime.fromisoformat(
        events[0]["recorded_at"]
    )


def test_times_on_some_lines_only_are_refused_naming_the_first_without(
    client, stored_rows
):
    lines = exported_file(seed=35).splitlines()
    third = json.loads(lines[2])
    del third["logged_at"]
    lines[2] = json.dumps(third).encode()
    before = stored_rows()

    answer = _import(client, b"\n".join(lines))

    assert answer.status_code == 422, answer.text
    assert answer.json()["line"] == 3 and "logged_at" in answer.json()["detail"]
    assert stored_rows() == before


def test_a_time_out_of_range_or_without_offset_is_refused_naming_the_line(
    client, stored_rows
):
    lines = exported_file(seed=36).splitlines()
    before = stored_rows()
    for bad in ("9999-12-31T23:59:59-23:00", "2026-11-27T20:00:00", "soon"):
        second = {**json.loads(lines[1]), "logged_at": bad}
        body = b"\n".join([lines[0], json.dumps(second).encode(), *lines[2:]])

        answer = _import(client, body)

        assert answer.status_code == 422, answer.text
        assert answer.json()["line"] == 2, answer.text
    assert stored_rows() == before


def test_a_file_imported_twice_is_a_409_naming_the_game_and_stores_nothing(
    client, stored_rows
):
    body = exported_file(seed=37)
    first = _imported(client, body)
    before = stored_rows()
    # The same content, spaced and ordered otherwise, with Windows line ends.
    respaced = b"\r\n".join(
        json.dumps(dict(reversed(json.loads(line).items())), indent=None).encode()
        for line in body.splitlines()
    )

    exported = client.get(f"/games/{first['id']}/export").content
    # A title of its own does not make another game: a game is its play.
    retitled = exported_file(seed=37, title="Rematch")
    for again in (body, respaced, exported, retitled):
        answer = _import(client, again)

        assert answer.status_code == 409, answer.text
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.json()["game_id"] == first["id"]
        assert answer.headers["location"] == f"/games/{first['id']}"
        assert first["id"] in answer.json()["detail"]
    assert stored_rows() == before


def test_imports_of_one_game_at_once_from_two_processes_make_one_game(
    client, database_url, stored_rows
):
    """The same file, and the same game under titles of their own (which no key on
    the file's content tells apart), imported at once through two services, each
    with its own pool of connections as two processes have: one game."""
    files = [exported_file(seed=38), exported_file(seed=38)]
    files += [exported_file(seed=38, title=f"Table {n}") for n in range(2)]
    before = stored_rows()

    with (
        running_server(database_url) as url,
        httpx.Client(base_url=url, timeout=30) as other,
        ThreadPoolExecutor(len(files)) as pool,
    ):
        clients = itertools.cycle([client, other])
        sent = zip(clients, files, strict=False)
        answers = list(pool.map(lambda args: _import(*args), sent))

    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [201, 409, 409, 409], [a.text for a in answers]
    created = next(a.json() for a in answers if a.status_code == 201)
    assert all(
        a.json()["game_id"] == created["id"] for a in answers if a.status_code == 409
    )
    games, _ = stored_rows()
    assert games == before[0] + 1


def _lines_of(body: bytes) -> list[dict]:
    return [json.loads(line) for line in body.splitlines()]


def _file_of(lines: list[dict]) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def test_a_file_changed_only_in_form_is_the_same_import_409(client, stored_rows):
    """What the import reads the same is the same content: a key given as null or
    left out, an `expected_version` the import ignores, names with spaces around
    them, times in another offset, options at their defaults."""
    seed = 43
    created, *moves = _lines_of(exported_file(seed=seed))
    del created["title"]
    body = _file_of([created, *moves])
    first = _imported(client, body)
    played = client.get("/players/Priscila").json()["played"]
    before = stored_rows()
    spaced = [f" {name}" for name in PLAYERS]

    def shifted(line: dict) -> dict:
        at = datetime.fromisoformat(line["logged_at"])
        offset = at.astimezone(timezone(timedelta(hours=5, minutes=30)))
        return {**line, "logged_at": offset.isoformat()}

    variants = {
        "title null": [{**created, "title": None}, *moves],
        "nulls left out": [
            {k: v for k, v in created.items() if v is not None},
            *moves,
        ],
        "expected_version": [
            created,
            *({**m, "expected_version": n} for n, m in enumerate(moves, start=1)),
        ],
        "leading spaces": [
            {**created, "players": spaced, "first_player": f" {PLAYERS[0]}"},
            *moves,
        ],
        "another offset": [shifted(line) for line in [created, *moves]],
    }
    for name, lines in variants.items():
        answer = _import(client, _file_of(lines))

        assert answer.status_code == 409, (name, answer.text)
        assert answer.json()["game_id"] == first["id"], name
    assert stored_rows() == before
    assert client.get("/players/Priscila").json()["played"] == played


def test_times_going_backwards_are_refused_naming_the_line(client, stored_rows):
    before = stored_rows()
    created, *moves = _lines_of(exported_file(seed=44))
    reversed_times = [line["logged_at"] for line in [created, *moves]][::-1]
    lines = [
        {**line, "logged_at": at}
        for line, at in zip([created, *moves], reversed_times, strict=True)
    ]
    answer = _import(client, _file_of(lines))

    assert answer.status_code == 422, answer.text
    assert answer.json()["line"] == 2
    assert "backwards" in answer.json()["detail"]
    # One line out of order, late in the game.
    lines = [created, *moves]
    lines[5] = {**lines[5], "logged_at": lines[2]["logged_at"]}
    answer = _import(client, _file_of(lines))

    assert answer.status_code == 422, answer.text
    assert answer.json()["line"] == 6
    assert stored_rows() == before


def test_a_time_after_the_import_is_refused_naming_the_line(client, stored_rows):
    """A game set up in 1900 whose last move says 9999: in order, but no table
    logged it, and its BG Stats duration would be some 4 billion minutes."""
    before = stored_rows()
    created, *moves = _lines_of(exported_file(seed=45))
    lines = [{**created, "logged_at": "1900-01-01T00:00:00Z"}, *moves]
    lines[-1] = {**lines[-1], "logged_at": "9999-01-01T00:00:00Z"}

    answer = _import(client, _file_of(lines))

    assert answer.status_code == 422, answer.text
    assert answer.json()["line"] == len(lines)
    assert "after now" in answer.json()["detail"]
    assert stored_rows() == before


def test_the_export_of_an_import_without_a_seed_is_that_import_409(client, stored_rows):
    """A file that leaves the seed to be drawn, and the export of the game it
    became (which gives the seed drawn): one game's content, imported once,
    counted once."""
    created, *moves = _lines_of(exported_file(seed=47, title="Drawn at import"))
    del created["seed"]
    first = _imported(client, _file_of([created, *moves]))
    played = client.get("/players/Priscila").json()["played"]
    before = stored_rows()
    again = _import(client, _file_of([created, *moves]))
    assert again.status_code == 409, again.text
    exported = client.get(f"/games/{first['id']}/export").content

    answer = _import(client, exported)

    assert answer.status_code == 409, answer.text
    assert answer.json()["game_id"] == first["id"]
    assert stored_rows() == before
    assert client.get("/players/Priscila").json()["played"] == played


def test_a_file_from_a_release_that_named_the_time_recorded_at_imports_the_same(
    client,
):
    """Exports written before the time was named `logged_at` gave it as
    `recorded_at`: such a file imports, its times kept."""
    game = create(client, game="dozito", players=["Ann", "Bob"], first_player="Ann")
    play_simulated(client, game, limit=4)
    exported = client.get(f"/games/{game['id']}/export").content
    renamed = exported.replace(b'"logged_at"', b'"recorded_at"')
    copy = renamed.replace(b'"Ann"', b'"Ana"')
    imported = client.post("/games/import", content=copy, headers=NDJSON)
    assert imported.status_code == 201, imported.text
    again = client.get(f"/games/{imported.json()['id']}/export").content
    times = [json.loads(line)["logged_at"] for line in again.splitlines()]
    assert times == [json.loads(line)["logged_at"] for line in exported.splitlines()]


# Names at their longest, in characters of four bytes each: the longest lines.
LONG_NAMES = tuple(chr(0x20000 + 64 * n) * NAME_LENGTH for n in range(5))
# Another as long, which sorts where the first does: an export sorts the keys of the
# moves' objects, some of which are names.
OTHER_LONG_NAME = chr(0x20000 + 1) * NAME_LENGTH


def _longest_game(games: Games, run) -> uuid.UUID:
    """A game at every limit, stored as the table would have logged it (not
    imported): the simulator's 5,000 moves of Double Donkey between five players
    of the longest names, each with its time, then 500 notes of 2,000 characters
    written the longest way an export can (escaped control characters)."""
    rules = BUILT_IN["double-donkey"]
    request = msgspec.convert(
        {"game": rules.name, "players": list(LONG_NAMES), "seed": 3}, NewGame
    )
    start = games.creating.start(request)
    played = endless(rules, start.setup)
    records = [record for _, record, _ in itertools.islice(played, MAX_MOVES)]
    times = [STARTED + timedelta(seconds=n) for n in range(MAX_MOVES + 1)]
    text = "x" + "\x01" * (NOTE_LENGTH - 1)
    notes = [
        NewEntry(step=n, text=text, mark="?!", recorded_at=times[-1])
        for n in range(MAX_NOTE_ENTRIES)
    ]
    row, _ = run(
        games.creating.store_new(request, start, records, logged_at=times, notes=notes)
    )
    return row.id


def test_the_longest_game_the_limits_allow_imports_over_http(client, store, run):
    games = bootstrap.shell_games(store, BUILT_IN)
    original = _longest_game(games, run)
    exported = client.get(f"/games/{original}/export").content
    assert len(exported) > 9_000_000  # moves and notes at their longest

    # At another table, one player named otherwise (as long): the export of the
    # game itself is that game, which an import never stores again.
    named, other = (msgspec.json.encode(n) for n in (LONG_NAMES[0], OTHER_LONG_NAME))
    elsewhere = exported.replace(named, other)

    answer = _import(client, elsewhere)

    assert answer.status_code == 201, answer.text[:500]
    copy = answer.json()["id"]
    assert answer.json()["version"] == MAX_MOVES + 1
    # The same play: every move and note with its time, and the same replay (its
    # last page: each page is built from the whole game before it).
    assert client.get(f"/games/{copy}/export").content == elsewhere
    last = {"after": MAX_MOVES - 100}
    replays = [client.get(f"/games/{g}/replay", params=last) for g in (original, copy)]
    assert replays[0].text == replays[1].text.replace(OTHER_LONG_NAME, LONG_NAMES[0])
    assert len(replays[1].json()["steps"]) == 100
