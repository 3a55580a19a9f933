"""Values the database cannot keep: each is refused before anything is written, with
a 422 that says what is wrong, through `POST /games`, `POST /games/import` and the
query parameters; and a value that slipped past the checks is rolled back by the
read-back inside the write's transaction, never committed."""

from __future__ import annotations

import json

import pytest

from service.application import creating
from tests.support.games import creation

NDJSON = {"Content-Type": "application/x-ndjson"}
BETWEEN = "played_at must be between 1900-01-01 and 9999-12-31"

VALUES = {
    "past year 9999 in UTC": ({"played_at": "9999-12-31T23:59:59-23:00"}, BETWEEN),
    "before year 1 in UTC": ({"played_at": "0001-01-01T00:00:00+01:00"}, BETWEEN),
    "before 1900": ({"played_at": "1899-12-31T23:59:59Z"}, BETWEEN),
    "a seed past bigint": ({"seed": 2**63}, "seed"),
    "a negative seed": ({"seed": -1}, "seed"),
    "a NUL in the title": ({"title": "a\u0000b"}, "title must not contain a NUL"),
    "a NUL in the location": ({"location": "\u0000"}, "location must not contain"),
    "a NUL in the notes": ({"notes": "x\u0000"}, "notes must not contain a NUL"),
    "a NUL in a name": ({"players": ["Ann\u0000", "Bob"]}, "players[0] must not"),
    "a NUL in the first player": ({"first_player": "\u0000"}, "first_player must"),
    "a long title": ({"title": "t" * 201}, "title"),
    "a long first player": ({"first_player": "f" * 41}, "first_player"),
    "a long game": ({"game": "g" * 41}, "game"),
}


def _new_game(overrides: dict) -> dict:
    return {**creation("dobro", 7), "seed": 7, **overrides}


def _assert_says(answer, status: int, words: str) -> dict:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert words in problem["detail"], problem["detail"]
    assert "e.g. NUL" not in problem["detail"]
    return problem


def _lists_every_game(client) -> None:
    """The stored games still read back: the list and a fresh game answer 200."""
    game = client.post("/games", json=_new_game({})).json()
    assert client.get(f"/games/{game['id']}").status_code == 200
    assert client.get("/games").status_code == 200


@pytest.mark.parametrize("overrides, words", VALUES.values(), ids=VALUES.keys())
def test_a_new_game_the_database_cannot_keep_is_refused_saying_why(
    client, stored_rows, overrides, words
):
    before = stored_rows()

    _assert_says(client.post("/games", json=_new_game(overrides)), 422, words)

    assert stored_rows() == before
    _lists_every_game(client)


@pytest.mark.parametrize("overrides, words", VALUES.values(), ids=VALUES.keys())
def test_an_import_the_database_cannot_keep_is_refused_saying_why(
    client, stored_rows, overrides, words
):
    before = stored_rows()
    line = json.dumps({"type": "game_created", **_new_game(overrides)})

    answer = client.post("/games/import", content=line.encode(), headers=NDJSON)

    assert _assert_says(answer, 422, words)["line"] == 1
    assert stored_rows() == before
    _lists_every_game(client)


def test_dates_at_the_edges_of_the_range_are_kept(client):
    for played_at in ("1900-01-01T00:00:00Z", "9999-12-31T23:59:59+00:00"):
        answer = client.post("/games", json=_new_game({"played_at": played_at}))
        assert answer.status_code == 201, answer.text
        game = client.get(f"/games/{answer.json()['id']}").json()
        assert game["played_at"][:4] == played_at[:4]


PARAMETERS = {
    "a huge offset": ("/games", {"offset": "99999999999999999999"}, "offset"),
    "an offset past int": ("/games", {"offset": str(2**31)}, "offset"),
    "a huge limit": ("/games", {"limit": str(2**64)}, "limit"),
    "a huge after": ("/games/{id}/events", {"after": str(2**63)}, "after"),
    "an after past int": ("/games/{id}/events", {"after": str(2**31)}, "after"),
    "a huge stream after": ("/games/{id}/stream", {"after": str(2**70)}, "after"),
}


@pytest.mark.parametrize("path, params, name", PARAMETERS.values(), ids=PARAMETERS)
def test_a_query_parameter_out_of_range_is_a_422_that_names_it(
    client, path, params, name
):
    game = client.post("/games", json=_new_game({})).json()

    answer = client.get(path.format(id=game["id"]), params=params)

    problem = _assert_says(answer, 422, name)
    assert "NUL" not in problem["detail"]


# The guard behind the checks: a value that gets past them (here the date check is
# taken away) is written, read back inside the same transaction, and rolled back.
@pytest.mark.parametrize(
    "played_at", ["9999-12-31T23:59:59-23:00", "0001-01-01T00:00:00+01:00"]
)
def test_a_game_that_would_not_read_back_is_rolled_back(
    client, stored_rows, monkeypatch, played_at
):
    monkeypatch.setattr(creating, "check_moment", lambda name, moment: None)
    before = stored_rows()

    answer = client.post("/games", json=_new_game({"played_at": played_at}))

    _assert_says(answer, 422, "would not read back")
    assert "Nothing was stored" in answer.json()["detail"]
    assert stored_rows() == before
    _lists_every_game(client)
