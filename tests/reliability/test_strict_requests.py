"""Bodies and names are read strictly: a creation as strictly as a move, no object
with a key given twice, no body of another media type than the one the endpoint
reads (a cross-site form cannot create a game), and every player's name read one
way wherever it is given, with a player's records found whatever its spelling."""

from __future__ import annotations

import time
import unicodedata
import uuid
from typing import Any

import msgspec
import psycopg
import pytest

from domain.creation import GameCreated
from domain.names import _DEFAULT_IGNORABLE, name_key
from domain.registry import BUILT_IN
from service.application.tokens import token_hash
from tests.support.http import create, setup_of

JSON = {"Content-Type": "application/json"}
NDJSON = {"Content-Type": "application/x-ndjson"}
CREATION = b'{"game": "dobro", "players": ["Ann", "Bob"]'


def assert_problem(answer, status: int) -> dict:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    return answer.json()


@pytest.fixture
def game(client) -> dict:
    return create(client, game="dobro", players=["Ann", "Bob"], first_player="Ann")


def post_move(client, game: dict, content: bytes, headers: dict[str, str] = JSON):
    auth = {"Authorization": f"Bearer {game['write_token']}"}
    return client.post(
        f"/games/{game['id']}/moves", content=content, headers=auth | headers
    )


# ------------------------------------------------------------------ strict bodies


def test_a_creation_with_a_string_for_a_number_is_refused(client, stored_rows):
    before = stored_rows()
    problem = assert_problem(
        client.post("/games", content=CREATION + b', "seed": "1"}', headers=JSON), 422
    )
    assert "$.seed" in problem["detail"]
    line = b'{"type": "game_created", "game": "dobro", "players": ["A", "B"]'
    answer = client.post(
        "/games/import", content=line + b', "seed": "1"}', headers=NDJSON
    )
    assert assert_problem(answer, 422)["line"] == 1
    assert stored_rows() == before


DUPLICATES = {
    "creation": b'{"game": "dozito", "game": "dobro", "players": ["Ann", "Bob"]}',
    "creation, nested": CREATION + b', "options": {"rounds": 1, "rounds": 2}}',
    "creation, escaped": CREATION + b', "g\\u0061me": "dozito"}',
}


@pytest.mark.parametrize("body", DUPLICATES.values(), ids=DUPLICATES.keys())
def test_a_creation_that_gives_a_key_twice_is_refused(client, stored_rows, body):
    before = stored_rows()
    problem = assert_problem(client.post("/games", content=body, headers=JSON), 422)
    assert "is given twice" in problem["detail"]
    assert stored_rows() == before


def test_a_move_that_gives_a_key_twice_is_refused(client, game, stored_rows):
    before = stored_rows()
    body = b'{"type": "take", "player": "Bob", "player": "Ann"}'
    problem = assert_problem(post_move(client, game, body), 422)
    assert 'the key "player" is given twice' in problem["detail"]
    assert stored_rows() == before


def test_an_import_line_that_gives_a_key_twice_is_refused(client, stored_rows):
    before = stored_rows()
    created = b'{"type": "game_created", "game": "dobro", "players": ["A", "B"]'
    twice = created + b', "first_player": "A", "first_player": "B"}'
    problem = assert_problem(
        client.post("/games/import", content=twice, headers=NDJSON), 422
    )
    assert problem["line"] == 1 and "is given twice" in problem["detail"]
    first = created + b', "first_player": "A", "seed": 1}'
    move = b'{"type": "take", "player": "B", "player": "A"}'
    body = first + b"\n" + move
    problem = assert_problem(
        client.post("/games/import", content=body, headers=NDJSON), 422
    )
    assert problem["line"] == 2 and "is given twice" in problem["detail"]
    assert stored_rows() == before


# What a page on another site can send without asking: an HTML form's three
# encodings, and a body with no Content-Type at all.
FOREIGN = {
    "text/plain form": "text/plain",
    "urlencoded form": "application/x-www-form-urlencoded",
    "multipart form": "multipart/form-data; boundary=x",
    "no content type": None,
    "json-like": "application/jsonp",
}


@pytest.mark.parametrize("media_type", FOREIGN.values(), ids=FOREIGN.keys())
def test_a_body_of_another_media_type_is_a_415(client, game, stored_rows, media_type):
    before = stored_rows()
    headers = {} if media_type is None else {"Content-Type": media_type}
    body = CREATION + b"}"
    problem = assert_problem(client.post("/games", content=body, headers=headers), 415)
    assert "application/json" in problem["detail"]
    move = b'{"type": "take", "player": "Ann"}'
    assert_problem(post_move(client, game, move, headers), 415)
    line = b'{"type": "game_created", "game": "dobro", "players": ["A", "B"]}'
    answer = client.post("/games/import", content=line, headers=headers)
    assert "application/x-ndjson" in assert_problem(answer, 415)["detail"]
    assert stored_rows() == before


def test_the_media_type_may_carry_parameters_and_any_case(client, stored_rows):
    answer = client.post(
        "/games",
        content=CREATION + b"}",
        headers={"Content-Type": "Application/JSON; charset=utf-8"},
    )
    assert answer.status_code == 201, answer.text
    answer = client.post("/games/import", content=CREATION + b"}", headers=JSON)
    assert_problem(answer, 415)  # an import is NDJSON, not one JSON document


# ------------------------------------------------------------------ names


def other_spelling(name: str) -> str:
    """The same name as another phone may send it: decomposed, padded with spaces
    and a zero-width space."""
    return " " + unicodedata.normalize("NFD", name) + "\u200b "


def respelled(value: Any, names: set[str]) -> Any:
    """`value` with every player's name in it (a value or a key) respelled."""
    if isinstance(value, str):
        return other_spelling(value) if value in names else value
    if isinstance(value, dict):
        return {respelled(k, names): respelled(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [respelled(item, names) for item in value]
    return value


PLAYERS = ["Aná", "Zoë", "Inês", "Chloé"]


@pytest.mark.parametrize("kind", list(BUILT_IN))
def test_every_name_in_a_move_is_read_as_at_the_creation(client, kind):
    rules = BUILT_IN[kind]
    players = PLAYERS[: rules.max_players]
    body = {
        "game": kind,
        "players": [other_spelling(p) for p in players],
        "first_player": other_spelling(players[1]),
        "seed": 3,
    }
    game = create(client, **body)
    assert game["players"] == players and game["first_player"] == players[1]
    auth = {"Authorization": f"Bearer {game['write_token']}"}
    # The whole simulated game, every name respelled: the player of each move,
    # Dozito's starter, the keys of Double Donkey's reveals and roll-offs.
    for logged, move in enumerate(rules.simulate(setup_of(game)), start=1):
        wire = respelled(msgspec.to_builtins(move), set(players))
        answer = client.post(f"/games/{game['id']}/moves", json=wire, headers=auth)
        assert answer.status_code == 201, (logged, wire, answer.text)
    final = client.get(f"/games/{game['id']}").json()
    assert final["status"] == "finished" and set(final["winners"]) <= set(players)


SAME_NAME = {
    "decomposed": ["An\u00e1", "Ana\u0301"],
    "zero-width space": ["Ann", "An\u200bn"],
    "case": ["Ann", "ANN"],
    "full-width": ["Ann", "\uff21nn"],
    "variation selector": ["Karen", "Karen\ufe0f"],
    "grapheme joiner": ["Karen", "Kar\u034fen"],
    "tag": ["Karen", "Karen\U000e0100"],
}


@pytest.mark.parametrize("players", SAME_NAME.values(), ids=SAME_NAME.keys())
def test_two_spellings_of_one_name_cannot_sit_at_one_table(
    client, stored_rows, players
):
    before = stored_rows()
    answer = client.post("/games", json={"game": "dozito", "players": players})
    problem = assert_problem(answer, 422)
    assert problem["rule"] == "Z3"
    assert "Every player needs a different name" in problem["detail"]
    assert stored_rows() == before


NO_NAME = {
    "zero-width": ["Ann", "\u200b\u200d"],
    "blank filler": ["Ann", "\u3164"],
    "a tab": ["Ann", "Bo\tb"],
    "a line break": ["Ann", "Bob\nSmith"],
}


@pytest.mark.parametrize("players", NO_NAME.values(), ids=NO_NAME.keys())
def test_invisible_names_and_control_characters_are_refused(
    client, stored_rows, players
):
    before = stored_rows()
    answer = client.post("/games", json={"game": "dobro", "players": players})
    assert assert_problem(answer, 422)["rule"] == "D3"
    assert stored_rows() == before


def _record(client, name: str, wanted: int) -> dict:
    """The player's record once the projection runner has folded `wanted` games."""
    deadline = time.monotonic() + 10
    while True:
        record = client.get(f"/players/{name}").json()
        if record["played"] >= wanted or time.monotonic() > deadline:
            return record
        time.sleep(0.05)


def test_a_players_records_are_found_whatever_the_case_or_form(client):
    name = "Zélia Ñandú"  # a name no other test seats
    spellings = [name, name.upper(), unicodedata.normalize("NFD", name.lower())]
    for spelling in spellings:
        create(client, game="dobro", players=[spelling, "Bob"])
    asked = [
        *spellings,
        " " + name.lower() + "\u200b",
        "\uff3a\u00e9lia \u00d1and\u00fa",
    ]
    for spelling in asked:
        record = _record(client, spelling, 3)
        assert record["played"] == 3, (spelling, record)
        assert record["games"]["dobro"]["played"] == 3
    listed = client.get("/games", params={"player": name.lower()}).json()["games"]
    assert len(listed) == 3
    assert {game["players"][0] for game in listed} == {
        unicodedata.normalize("NFC", s) for s in spellings
    }  # each kept as it was typed


def test_a_name_too_long_once_composed_is_refused(client, stored_rows):
    """U+0958 is one code point typed and two in Unicode's composed form (NFC),
    the form a name is kept in: 40 of them are 80 characters kept."""
    before = stored_rows()
    long = "\u0958" * 40
    for players, first in [([long, "Bob"], None), (["Ann", "Bob"], long)]:
        body = {"game": "dobro", "players": players, "first_player": first}
        problem = assert_problem(client.post("/games", json=body), 422)
        assert "at most 40 characters" in problem["detail"], problem
    assert stored_rows() == before
    kept = create(client, game="dobro", players=["\u0958" * 20, "Bob"])
    assert len(kept["players"][0]) == 40


def test_the_databases_key_of_a_name_is_the_domains(client, database_url):
    """The read side finds a player's records by the database's key
    (`player_key`), the table refuses a second seat by the domain's (`name_key`):
    one name, one key, for every invisible character Unicode lists."""
    ignorable = [chr(c) for low, high in _DEFAULT_IGNORABLE for c in {low, high}]
    names = [f"Ka{c}ren{c}" for c in ignorable]
    names += ["\u200bAn\u00e1 ", "ANA\u0301", "\uff2baren"]
    with psycopg.connect(database_url) as conn:
        keys = [
            conn.execute("SELECT player_key(%s)", (n,)).fetchone()[0] for n in names
        ]
    assert keys == [name_key(name) for name in names]


def test_a_game_stored_with_names_now_read_as_one_is_still_served(client, database_url):
    """Rows as a version whose key kept variation selectors stored them: "Karen"
    and "Karen" + U+FE0F at one table. The game reads, exports and takes moves;
    only a new game (or an import of it) is refused."""
    players = ["Karen", "Bia", "Karen\ufe0f"]
    game_id = uuid.uuid4()
    created = GameCreated(
        game="dozito", players=players, first_player="Bia", seed=3, options={}
    )
    token = "stored-before"
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "INSERT INTO games (id, game, players, first_player, seed, token_hash)"
            " VALUES (%s, 'dozito', %s, 'Bia', 3, %s)",
            (game_id, players, token_hash(token)),
        )
        conn.execute(
            "INSERT INTO events (game_id, version, type, data)"
            " VALUES (%s, 1, 'game_created', %s)",
            (game_id, msgspec.json.encode(created).decode()),
        )
    answer = client.get(f"/games/{game_id}")
    assert answer.status_code == 200, answer.text
    assert answer.json()["players"] == players
    assert client.get(f"/games/{game_id}/export").status_code == 200
    moves = BUILT_IN["dozito"].simulate(created.setup())
    move = msgspec.to_builtins(next(moves)) | {"expected_version": 1}
    auth = {"Authorization": f"Bearer {token}"}
    posted = client.post(f"/games/{game_id}/moves", json=move, headers=auth)
    assert posted.status_code == 201, posted.text
    again = client.post("/games", json={"game": "dozito", "players": players})
    assert assert_problem(again, 422)["rule"] == "Z3"
