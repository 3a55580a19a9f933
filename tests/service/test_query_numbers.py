"""Whole numbers in query parameters (and the Last-Event-ID header) are read
strictly: digits alone, as the API writes them. Anything else, though a looser
reader would take it for a number (`1e3`, `5.0`, `+5`), is a 422 that names the
parameter, on every endpoint that takes one."""

from __future__ import annotations

import httpx
import pytest

from tests.support.http import create, play_simulated

# Each endpoint with whole numbers among its query parameters: the parameters, and
# what else it needs to answer 200 (the game's path filled in by the test).
ENDPOINTS = [
    ("/games/{id}/events", ("after", "limit"), {}),
    ("/games", ("limit", "offset"), {}),
    ("/games/{id}/replay", ("after", "limit"), {}),
    ("/games/{id}/replay/0/image", ("from", "to"), {"format": "gif"}),
    ("/games/{id}/variations", ("limit", "offset"), {}),
    ("/feed", ("limit",), {}),
    ("/players/Ana/versus/Bo", ("limit", "offset"), {}),
    ("/players/Ana/ratings/dobro", ("limit", "offset"), {}),
    ("/leaderboards/dobro", ("limit", "offset"), {}),
]
LOOSE = ["1e3", "1E1", "5.0", "+5", " 5", "5 ", "05", "0x10", "-0", "1_0", "\u0665", ""]


@pytest.fixture(scope="module")
def game(client: httpx.Client) -> dict:
    game = create(
        client, game="dobro", players=["Ana", "Bo", "Cy"], first_player="Ana", seed=5
    )
    play_simulated(client, game, limit=12)
    return game


@pytest.mark.parametrize(("path", "names", "others"), ENDPOINTS)
def test_a_whole_number_in_digits_is_taken(client, game, path, names, others):
    answer = client.get(
        path.format(id=game["id"]), params=others | dict.fromkeys(names, "1")
    )
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("loose", LOOSE)
@pytest.mark.parametrize(("path", "names", "others"), ENDPOINTS)
def test_a_number_written_otherwise_is_a_422_naming_it(
    client, game, path, names, others, loose
):
    for name in names:
        answer = client.get(path.format(id=game["id"]), params=others | {name: loose})
        assert answer.status_code == 422, (name, loose, answer.text)
        assert answer.headers["content-type"] == "application/problem+json"
        detail = answer.json()["detail"]
        assert f"{name}: " in detail and "digits" in detail, detail


def _opened(client: httpx.Client, path: str, **options) -> httpx.Response:
    """The answer's head only: a live stream taken would never end."""
    with client.stream("GET", path, **options) as answer:
        if answer.status_code != 200:
            answer.read()
        return answer


@pytest.mark.parametrize("loose", ["1e3", "+5", "5.0"])
def test_the_stream_reads_its_position_as_strictly(client, game, loose):
    stream = f"/games/{game['id']}/stream"
    assert _opened(client, stream, params={"after": "3"}).status_code == 200
    assert _opened(client, stream, params={"after": loose}).status_code == 422
    answer = _opened(client, stream, headers={"Last-Event-ID": loose})
    assert answer.status_code == 422
    assert "Last-Event-ID: " in answer.json()["detail"]
