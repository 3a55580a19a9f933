"""What a client sends is read strictly; what is stored is read leniently.

The domain's Structs are the stored shapes and ignore fields they do not know, so a
row written by another version of the code stays readable. The API's strictness
comes from the service's own copies of the moves: an unknown field anywhere in a body
or an import line (a card's too), or a string where a number belongs, is refused and
stores nothing. And what the API publishes of a stored row is that row as today's
code reads it, not the stored text passed through.
"""

from __future__ import annotations

import json

import psycopg
import pytest

from tests.support.exports import import_file, simulated_file
from tests.support.http import create, move
from tests.support.problems import assert_problem

RED_3 = {"color": "red", "number": 3}


def dozito_game(client) -> dict:
    return create(client, game="dozito", players=["Ann", "Bob"], first_player="Ann")


def start_round(client, game: dict) -> None:
    discards = [{"color": "blue", "number": 7}, {"color": "green", "number": 9}]
    answer = move(client, game, {"type": "start_round", "discards": discards})
    assert answer.status_code == 201, answer.text


@pytest.mark.parametrize(
    ("card", "fragment"),
    [
        ({**RED_3, "colour": "red"}, "unknown field `colour`"),
        ({**RED_3, "number": "3"}, "Expected `int | null`, got `str`"),
    ],
    ids=["unknown field in a card", "a string for a number"],
)
def test_a_card_in_a_body_is_read_strictly_and_a_refusal_stores_nothing(
    client, stored_rows, card, fragment
):
    game = dozito_game(client)
    start_round(client, game)
    before = stored_rows()

    body = {"type": "draw", "player": "Ann", "source": "deck", "card": card}
    problem = assert_problem(move(client, game, body), 422)

    assert fragment in problem["detail"] and "$.card" in problem["detail"]
    assert stored_rows() == before


def test_a_body_that_is_not_json_is_a_400(client):
    game = dozito_game(client)
    answer = client.post(
        f"/games/{game['id']}/moves",
        content=b'{"type": "undo"',
        headers={
            "Authorization": f"Bearer {game['write_token']}",
            "Content-Type": "application/json",
        },
    )
    assert_problem(answer, 400)


def test_a_write_without_its_token_is_refused_before_its_body_is_read(client):
    game = dozito_game(client)
    answer = client.post(
        f"/games/{game['id']}/moves",
        content=b"not json at all",
        headers={"Content-Type": "application/json"},
    )
    assert_problem(answer, 401)


def test_a_creation_body_is_read_strictly(client):
    body = {"game": "dobro", "players": ["Ann", "Bob"], "seed": "1"}
    problem = assert_problem(client.post("/games", json=body), 422)
    assert "$.seed" in problem["detail"]


def test_an_import_line_with_an_unknown_field_in_a_card_names_its_line(client):
    lines = simulated_file("dozito", seed=3).splitlines()
    for number, line in enumerate(lines[1:], start=2):
        row = json.loads(line)
        if isinstance(row.get("card"), dict):
            row["card"]["colour"] = "red"
            lines[number - 1] = json.dumps(row).encode()
            break
    problem = assert_problem(import_file(client, b"\n".join(lines)), 422, line=number)
    assert "unknown field `colour`" in problem["detail"]


@pytest.mark.parametrize(
    ("game", "options", "rule"),
    [
        ("dozito", {"rounds": 0}, "Z15"),
        ("dozito", {"colors": ["red", "red", "blue", "green", "pink"]}, "Z2"),
        ("double-donkey", {"rounds": 2}, "A1"),
    ],
)
def test_an_import_with_a_bad_option_names_line_1_and_the_ruling(
    client, game, options, rule
):
    body = simulated_file(game, seed=1)
    first, rest = body.split(b"\n", 1)
    created = json.loads(first) | {"options": options}
    answer = import_file(client, json.dumps(created).encode() + b"\n" + rest)
    assert_problem(answer, 422, rule=rule, line=1)


def test_a_stored_row_with_unknown_fields_folds_and_is_published_without_them(
    client, database_url
):
    logged = dozito_game(client)
    start_round(client, logged)
    # The same game again, its move stored by "another version" of the service
    # that wrote one more field into the move, its cards and its events.
    written = create(client, game="dozito", players=["Ann", "Bob"], first_player="Ann")
    with psycopg.connect(database_url, autocommit=True) as conn:
        (data,) = conn.execute(
            "SELECT data FROM events WHERE game_id = %s AND version = 2",
            (logged["id"],),
        ).fetchone()
        _add_field(data, "later_field")
        conn.execute(
            "INSERT INTO events (game_id, version, type, data)"
            " VALUES (%s, 2, 'start_round', %s::jsonb)",
            (written["id"], json.dumps(data)),
        )

    assert (
        client.get(f"/games/{written['id']}").json()["state"]
        == client.get(f"/games/{logged['id']}").json()["state"]
    )
    published = client.get(f"/games/{written['id']}/events").json()["events"]
    assert "later_field" not in json.dumps(published)
    assert (
        published[1]["data"]
        == client.get(f"/games/{logged['id']}/events").json()["events"][1]["data"]
    )


def _add_field(value, name: str) -> None:
    """Add `name` to every object in a JSON value, however deep."""
    if isinstance(value, dict):
        for inner in value.values():
            _add_field(inner, name)
        value[name] = True
    elif isinstance(value, list):
        for inner in value:
            _add_field(inner, name)
