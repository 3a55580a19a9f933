"""Export, import and BG Stats results, over HTTP on a real PostgreSQL."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import uuid
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import msgspec
import psycopg
import pytest

from domain.game import Setup
from domain.registry import BUILT_IN
from seeds.generate import SAMPLES, export
from service.application.notes import MAX_NOTE_ENTRIES
from service.application.submitting import MAX_MOVES
from tests.support.exports import NDJSON, import_file, simulated_file
from tests.support.http import create, move, play_simulated, simulated_moves
from tests.support.problems import assert_problem
from tests.support.server import running_server
from tests.support.waiting import eventually


def imported(client, body: bytes) -> dict:
    answer = import_file(client, body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def comparable(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("id", "created_at")}


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_every_game_round_trips_through_export_and_import_unchanged(client, name):
    body = simulated_file(name, seed=7, undo_at=3)
    first = imported(client, body)
    assert first["status"] == "finished" and first["winners"]
    assert first["write_token"] and first["version"] == body.count(b"\n")

    exported = client.get(f"/games/{first['id']}/export")
    assert exported.status_code == 200
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    lines = exported.content.splitlines()
    assert len(lines) == first["version"]
    assert json.loads(lines[0])["type"] == "game_created"
    assert json.loads(lines[4]) == {"type": "undo"}

    # The export is the game imported: the same game, not a second one.
    again = assert_problem(import_file(client, exported.content), 409)
    assert again["game_id"] == first["id"]
    # Under another title it is still that game: a title is not the play.
    created, *moves = lines
    retitled = b"\n".join(
        [json.dumps({**json.loads(created), "title": "Again"}).encode(), *moves]
    )
    assert assert_problem(import_file(client, retitled), 409)["game_id"] == first["id"]
    # At another table (a player named otherwise) it is another game, which exports
    # back unchanged.
    elsewhere = exported.content.replace(b'"Priscila"', b'"Prisca"')
    second = imported(client, elsewhere)
    assert second["id"] != first["id"]
    assert second["write_token"] != first["write_token"]
    assert client.get(f"/games/{second['id']}/export").content == elsewhere
    a = client.get(f"/games/{first['id']}").json()
    b = client.get(f"/games/{second['id']}").json()
    assert comparable(a) == comparable(renamed(b, "Prisca", "Priscila"))
    sheets = [client.get(f"/games/{g['id']}/scoresheet") for g in (first, second)]
    assert sheets[0].json() == renamed(sheets[1].json(), "Prisca", "Priscila")


def renamed(answer: dict, name: str, to: str) -> dict:
    """An answer with every value or key that is the name `name` made `to`."""
    text = json.dumps(answer).replace(json.dumps(name), json.dumps(to))
    return json.loads(text)


def test_a_game_logged_over_http_exports_what_was_logged_and_is_that_game_again(
    client, stored_rows
):
    players = table_of("Ann", "Bob")
    created = client.post(
        "/games", json={"game": "dobro-pixar", "players": players, "seed": 5}
    ).json()
    auth = {"Authorization": f"Bearer {created['write_token']}"}
    setup = Setup(players=tuple(players), first_player=created["first_player"], seed=5)
    moves = [msgspec.to_builtins(m) for m in BUILT_IN["dobro-pixar"].simulate(setup)][
        :6
    ]
    for body in [*moves[:3], {"type": "undo"}, *moves[2:]]:
        answer = client.post(f"/games/{created['id']}/moves", json=body, headers=auth)
        assert answer.status_code == 201, answer.text

    exported = client.get(f"/games/{created['id']}/export").content
    lines = [json.loads(line) for line in exported.splitlines()]
    assert lines[0]["players"] == players and lines[0]["seed"] == 5
    # Each line carries the time it was logged, beside the move as it was logged.
    assert all("logged_at" in line for line in lines)
    assert {**lines[4], "logged_at": None} == {"type": "undo", "logged_at": None}
    # Imported, it is the game it was exported from: nothing more is stored, and
    # the answer says where that game is.
    before = stored_rows()
    answer = import_file(client, exported)
    assert assert_problem(answer, 409)["game_id"] == created["id"]
    assert answer.headers["location"] == f"/games/{created['id']}"
    assert stored_rows() == before
    # At another table (a player named otherwise) it is a game of its own, which
    # stands where the game stands.
    other = f"{players[1]}o"
    elsewhere = exported.replace(json_name(players[1]), json_name(other))
    answer = import_file(client, elsewhere)
    assert answer.status_code == 201, answer.text
    again = answer.json()
    assert answer.headers["location"] == f"/games/{again['id']}"
    a = client.get(f"/games/{created['id']}").json()
    b = client.get(answer.headers["location"]).json()
    assert a["state"] == renamed(b, other, players[1])["state"]
    assert a["version"] == b["version"] and b["status"] == "in_progress"


def table_of(*names: str) -> list[str]:
    """Players of the test's own: no other test stores a game at their table."""
    tag = uuid.uuid4().hex[:6]
    return [f"{name} {tag}" for name in names]


def json_name(name: str) -> bytes:
    """A name as an export's lines give it."""
    return msgspec.json.encode(name)


def test_an_imported_game_takes_moves_with_its_new_token_only(client):
    body = simulated_file("dobro", seed=3).splitlines()
    game = imported(client, b"\n".join(body[:3]))
    url = f"/games/{game['id']}/moves"
    undo = {"type": "undo"}
    assert client.post(url, json=undo).status_code == 401
    ok = client.post(url, json=undo, headers={"Authorization": "Bearer nope"})
    assert ok.status_code == 403
    ok = client.post(
        url, json=undo, headers={"Authorization": f"Bearer {game['write_token']}"}
    )
    assert ok.status_code == 201


def replace_line(body: bytes, number: int, line: bytes) -> bytes:
    lines = body.splitlines()
    lines[number - 1] = line
    return b"\n".join(lines)


@pytest.mark.parametrize(
    ("broken", "line", "rule"),
    [
        (
            lambda b: replace_line(b, 4, b'{"type": "take", "player": "Nobody"}'),
            4,
            None,
        ),
        (lambda b: replace_line(b, 3, b"{not json"), 3, None),
        (lambda b: replace_line(b, 3, b'{"type": "dance"}'), 3, None),
        (lambda b: replace_line(b, 3, b""), 3, None),
        (lambda b: replace_line(b, 2, b'{"type": "undo"}'), 2, "A2"),
        (lambda b: replace_line(b, 1, b'{"type": "game_created"}'), 1, None),
        (lambda b: replace_line(b, 1, b"[]"), 1, None),
        (lambda b: b + b'{"type": "take", "player": "Karen"}\n', None, "A2"),
    ],
    ids=[
        "a move by a player not at the table",
        "a line that is not JSON",
        "an unknown move",
        "an empty line",
        "an undo with nothing left to undo",
        "a creation without a game",
        "a first line that is no creation",
        "a move after the end",
    ],
)
def test_a_bad_file_is_refused_whole_naming_the_line_and_stores_nothing(
    client, stored_rows, broken, line, rule
):
    body = simulated_file("dobro-pixar", seed=11)
    before = stored_rows()
    problem = assert_problem(import_file(client, broken(body)), 422, rule=rule)
    if line is not None:
        assert problem["line"] == line
    else:
        assert problem["line"] == body.count(b"\n") + 1
    assert stored_rows() == before


def test_a_move_the_rules_refuse_names_the_ruling_D8(client, stored_rows):
    body = simulated_file("dobro-pixar", seed=11).splitlines()
    first = json.loads(body[1])
    other = next(p for p in json.loads(body[0])["players"] if p != first["player"])
    wrong = msgspec.json.encode({**first, "player": other})
    before = stored_rows()
    answer = import_file(client, b"\n".join([body[0], wrong]))
    problem = assert_problem(answer, 422, rule="D8", line=2)
    assert "(D8)" in problem["detail"]
    assert stored_rows() == before


def test_a_set_up_the_rules_refuse_names_line_1_and_the_ruling_D3(client):
    created = {
        "type": "game_created",
        "game": "dobro",
        "players": [f"P{i}" for i in range(7)],
        "first_player": "P0",
        "seed": 1,
        "options": {},
    }
    answer = import_file(client, json.dumps(created).encode())
    assert_problem(answer, 422, rule="D3", line=1)


def test_unknown_options_and_unknown_games_are_refused_on_line_1(client):
    for change in ({"options": {"colour": "red"}}, {"game": "chess"}, {"tempo": 1}):
        first = json.loads(simulated_file("dobro", seed=1).splitlines()[0])
        answer = import_file(client, json.dumps({**first, **change}).encode())
        assert_problem(answer, 422, line=1)


def test_an_empty_file_is_refused(client):
    assert_problem(import_file(client, b"\n"), 422, line=1)


def test_too_many_lines_answer_413(client, stored_rows):
    first = simulated_file("dobro", seed=1).splitlines()[0]
    before = stored_rows()
    many = b"\n".join([first] + [b"{}"] * (MAX_MOVES + 1))
    assert_problem(import_file(client, many), 413)
    lines = b"\n".join([first] + [b"{}"] * (MAX_MOVES + MAX_NOTE_ENTRIES + 1))
    answer = import_file(client, lines)
    assert_problem(answer, 413)
    assert f"{MAX_MOVES:,} moves and {MAX_NOTE_ENTRIES:,} notes" in answer.text
    assert stored_rows() == before


def test_an_import_past_its_own_bound_is_a_413_naming_it(database_url, stored_rows):
    """An import has a bound of its own (`max_import_bytes`), refused before its
    body is read when its Content-Length says it is past, and as soon as it passes
    when it does not say; a move keeps its own."""
    body = simulated_file("dobro", seed=2)
    most = len(body) - 1
    before = stored_rows()
    with (
        running_server(database_url, max_import_bytes=most) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        answer = import_file(client, body)
        assert_problem(answer, 413)
        assert f"at most {most:,} bytes (max_import_bytes)" in answer.json()["detail"]
        sent = client.post(  # a generator: sent in chunks, without Content-Length
            "/games/import", content=iter([body[:100], body[100:]]), headers=NDJSON
        )
        assert_problem(sent, 413)
        assert stored_rows() == before
        assert imported(client, body[: body.rindex(b"\n", 0, -1) + 1])["version"] > 1


def test_export_of_an_unknown_game_is_a_404(client):
    assert_problem(client.get(f"/games/{uuid.uuid4()}/export"), 404)
    assert_problem(client.get(f"/games/{uuid.uuid4()}/bgstats"), 404)


def test_a_finished_game_exports_its_result_for_bg_stats(client):
    game = imported(client, simulated_file("dobro-pixar", seed=21))
    play = client.get(f"/games/{game['id']}/bgstats")
    assert play.status_code == 200, play.text
    play = play.json()
    summary = client.get(f"/games/{game['id']}").json()
    assert play["sourceName"] == "tablelog" and play["sourcePlayId"] == game["id"]
    assert play["game"] == {
        "name": "Dobro Pixar",
        "sourceGameId": "dobro-pixar",
        "highestWins": True,
        "noPoints": False,
    }
    assert [p["name"] for p in play["players"]] == summary["players"]
    assert [p["name"] for p in play["players"] if p["winner"]] == summary["winners"]
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Mauricio"]
    assert {p["name"]: p["score"] for p in play["players"]} == (
        summary["state"]["totals"]
    )
    assert all(p["rank"] == 1 for p in play["players"] if p["winner"])
    assert all(p["rank"] > 1 for p in play["players"] if not p["winner"])
    assert len(play["playDate"]) == len("2026-11-27 20:00:00")


def test_bg_stats_knows_the_french_scale_and_games_without_points(client):
    french = simulated_file("dobro", seed=4, scoring="fewest-first")
    game = imported(client, french)
    assert client.get(f"/games/{game['id']}/bgstats").json()["game"]["highestWins"] is (
        False
    )
    donkey = imported(client, simulated_file("double-donkey", seed=4))
    play = client.get(f"/games/{donkey['id']}/bgstats").json()
    assert play["game"]["noPoints"] is True
    assert all(p["score"] is None for p in play["players"])
    assert [p["winner"] for p in play["players"]].count(True) >= 1


@pytest.mark.parametrize(
    ("name", "seed", "options"),
    [
        ("double-donkey", 0, {}),
        ("dobro", 14, {"scoring": "fewest-first"}),
        ("dobro-pixar", 23, {}),
        ("dozito", 3, {}),
    ],
)
def test_bg_stats_ranks_are_the_standings_of_the_score_sheet_T3(
    client, name, seed, options
):
    game = imported(client, simulated_file(name, seed=seed, **options))
    play = client.get(f"/games/{game['id']}/bgstats").json()
    sheet = client.get(f"/games/{game['id']}/scoresheet").json()
    ranks = {p["name"]: p["rank"] for p in play["players"]}
    assert ranks == sheet["standings"]
    if name == "double-donkey":  # the fewest cards held ranks first after the winner
        assert sorted(ranks.values()) == [1, 2, 3]


def test_an_unfinished_game_has_no_bg_stats_result_yet_409(client):
    lines = simulated_file("dozito", seed=2).splitlines()
    game = imported(client, b"\n".join(lines[:4]))
    assert_problem(client.get(f"/games/{game['id']}/bgstats"), 409)


# ------------------------------------------------------------------ the same game


def played_here(client, moves: int | None = None) -> dict:
    """A Dobro game created over the API at a table of the test's own and played
    through the simulator, to its end or for `moves` moves."""
    players = table_of("Ana", "Bia", "Caio")
    game = create(
        client, game="dobro", players=players, first_player=players[0], seed=9
    )
    play_simulated(client, game, limit=moves)
    return game


def exported_lines(client, game_id: str) -> list[dict]:
    answer = client.get(f"/games/{game_id}/export")
    assert answer.status_code == 200, answer.text
    return [json.loads(line) for line in answer.content.splitlines()]


def file_of(lines: list[dict]) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def assert_is(client, body: bytes, game_id: str) -> None:
    """The import of `body` answers that it is the game `game_id`, there already."""
    answer = import_file(client, body)
    problem = assert_problem(answer, 409)
    assert problem["game_id"] == game_id
    assert answer.headers["location"] == f"/games/{game_id}"
    assert f"This file is game {game_id}" in problem["detail"]


def test_a_game_played_here_exported_and_imported_is_that_game_rated_once(
    client, stored_rows
):
    game = played_here(client)
    ana = game["players"][0]
    ladder = f"/players/{ana}/ratings/dobro"
    rated = eventually(
        lambda: (r := client.get(ladder)).status_code == 200 and r.json()["ratings"]
    )
    assert len(rated) == 1
    record = client.get(f"/players/{ana}").json()
    before = stored_rows()

    assert_is(client, client.get(f"/games/{game['id']}/export").content, game["id"])

    assert stored_rows() == before
    assert client.get(ladder).json()["ratings"] == rated
    assert client.get(f"/players/{ana}").json() == record


def test_an_export_with_another_title_place_date_times_or_notes_is_that_game(
    client, stored_rows
):
    game = played_here(client, moves=8)
    created, *moves = exported_lines(client, game["id"])
    before = stored_rows()

    def earlier(line: dict) -> dict:
        at = datetime.fromisoformat(line["logged_at"]) - timedelta(hours=3)
        return {**line, "logged_at": at.isoformat()}

    described = created | {
        "title": "Another evening",
        "location": "Lisbon",
        "notes": "The rematch",
        "played_at": "2026-01-02T20:00:00+01:00",
        "group": table_of("Club")[0],
    }
    notes = [
        {"type": "note", "step": 2, "text": "Bold", "mark": "!"},
        {"type": "note", "step": 5, "text": "Hasty", "mark": "?!"},
        {"type": "note_withdrawn", "note": 1},
    ]
    files = {
        "title, place, notes, date, group": [described, *moves],
        "times three hours earlier": [earlier(line) for line in [created, *moves]],
        "notes on the moves": [created, *moves, *notes],
        "all of them": [earlier(described), *map(earlier, moves), *notes],
    }
    for lines in files.values():
        assert_is(client, file_of(lines), game["id"])
    assert stored_rows() == before


def test_an_older_export_of_a_game_played_on_since_is_that_game(client, stored_rows):
    game = played_here(client, moves=6)
    older = client.get(f"/games/{game['id']}/export").content
    for body in itertools.islice(simulated_moves(game), 6, 10):
        assert move(client, game, msgspec.to_builtins(body)).status_code == 201
    before = stored_rows()

    assert_is(client, older, game["id"])
    assert_is(client, b"".join(older.splitlines(True)[:3]), game["id"])
    assert stored_rows() == before


def test_an_export_with_a_move_changed_or_one_more_is_a_new_game(client, stored_rows):
    game = played_here(client, moves=6)
    created, *moves = exported_lines(client, game["id"])
    at = moves[-1]["logged_at"]
    following = msgspec.to_builtins(next(itertools.islice(simulated_moves(game), 6, 7)))
    changed = [created, *moves[:-1], {"type": "undo", "logged_at": at}]
    longer = [created, *moves, {**following, "logged_at": at}]
    games_before, _ = stored_rows()

    made = [imported(client, file_of(lines))["id"] for lines in (changed, longer)]

    assert game["id"] not in made and len(set(made)) == 2
    assert stored_rows()[0] == games_before + 2
    # Each is a game of its own from then on, which its file is again.
    for lines, game_id in zip((changed, longer), made, strict=True):
        assert_is(client, file_of(lines), game_id)


def test_a_variations_export_is_that_variation_and_the_games_the_game(
    client, stored_rows
):
    game = played_here(client, moves=8)
    branched = client.post(f"/games/{game['id']}/variations", json={"at": 4})
    assert branched.status_code == 201, branched.text
    variation = branched.json()
    exports = {
        g: client.get(f"/games/{g}/export").content
        for g in (game["id"], variation["id"])
    }
    before = stored_rows()

    for game_id, exported in exports.items():
        assert_is(client, exported, game_id)
    # The first two moves begin both games, neither is just those: the older, the
    # game the variation was branched from, is the one answered.
    first_two = b"".join(exports[variation["id"]].splitlines(True)[:3])
    assert_is(client, first_two, game["id"])
    assert stored_rows() == before


# ------------------------------------------------------------------ seeds and the shell

SEEDS_DIR = Path(__file__).parents[2] / "seeds"
SEEDS = sorted(SEEDS_DIR.glob("*.ndjson"))


def test_the_committed_seeds_are_what_the_generator_writes():
    written = {sample.file: export(sample) for sample in SAMPLES}
    assert sorted(written) == [path.name for path in SEEDS]
    for path in SEEDS:
        assert path.read_bytes() == written[path.name], (
            f"{path.name} is stale: run `python -m seeds.generate`"
        )


@pytest.mark.parametrize("path", SEEDS, ids=lambda path: path.name)
def test_every_seed_loads_finished_and_exports_back_unchanged(client, path):
    game = imported(client, path.read_bytes())
    assert game["status"] == "finished" and game["winners"]
    assert client.get(f"/games/{game['id']}/export").content == path.read_bytes()
    replay = client.get(f"/games/{game['id']}/replay")
    assert replay.status_code == 200, replay.text
    assert len(replay.json()["steps"]) == game["version"] - 1


def tablelog(*args: str, database_url: str, stdin: bytes | None = None):
    return subprocess.run(
        [sys.executable, "-m", "service", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        env={**os.environ, "DATABASE_URL": database_url},
    )


def test_seed_import_and_export_from_the_shell(fresh_database_url):
    database_url = fresh_database_url
    seeded = tablelog("seed", database_url=database_url)
    assert seeded.returncode == 0, seeded.stderr
    out = seeded.stdout.decode()
    assert f"{len(SEEDS)} sample games from" in out
    friday = next(line for line in out.splitlines() if "friday-night" in line)
    game_id = friday.split(" game ")[1].split(",")[0]

    exported = tablelog("export", game_id, database_url=database_url)
    assert exported.returncode == 0, exported.stderr
    # The sample's file, its creation naming the group it was loaded into.
    file = (SEEDS_DIR / "dobro-pixar-friday-night.ndjson").read_bytes()
    created, rest = file.split(b"\n", 1)
    grouped = created[:-1] + b',"group":"Sample games"}'
    assert exported.stdout.split(b"\n", 1) == [grouped, rest]

    def stored_rows() -> tuple[int, int]:
        with psycopg.connect(database_url) as conn:
            games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
            events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        return games, events

    # The export is the sample itself, already loaded: nothing more stored; and so
    # is the export under another title.
    before = stored_rows()
    retitled = exported.stdout.replace(b'"Friday night"', b'"Friday night again"', 1)
    for same in (exported.stdout, retitled):
        twice = tablelog("import", "-", database_url=database_url, stdin=same)
        assert twice.returncode == 1
        assert f"This file is game {game_id}".encode() in twice.stderr, twice.stderr
    assert stored_rows() == before

    elsewhere = exported.stdout.replace(b'"Patricia"', b'"Paty"')
    again = tablelog("import", "-", database_url=database_url, stdin=elsewhere)
    assert again.returncode == 0, again.stderr
    assert "id: " in again.stdout.decode() and "write_token: " in again.stdout.decode()

    broken = exported.stdout.replace(b'"Mauricio"', b'"Nobody"', 1)
    refused = tablelog("import", "-", database_url=database_url, stdin=broken)
    assert refused.returncode == 1 and b"Line 3:" in refused.stderr
    # Said in English, its ruling cited: "Line 3: It is Mauricio's turn, ... (D8)".
    assert re.search(rb"Line 3: [A-Z][^\n]* \([ADKZT]\d+\)", refused.stderr), (
        refused.stderr
    )
