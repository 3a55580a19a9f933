"""HTTP caching: every read of one game carries a version-based ETag and answers
`If-None-Match` with 304 until the game moves; HEAD works wherever GET does."""

from __future__ import annotations

import pytest

from tests.support.http import create, move

GAME_READS = (
    "",
    "/events",
    "/replay",
    "/replay/0",
    "/scoresheet",
    "/export",
)


@pytest.fixture
def game(client) -> dict:
    game = create(client, game="dobro", players=["Ann", "Bob"], first_player="Ann")
    assert move(
        client, game, {"type": "play", "player": "Ann", "cards": [4]}
    ).is_success
    return game


@pytest.mark.parametrize("read", GAME_READS)
def test_a_game_read_is_tagged_and_unchanged_answers_304_until_a_move(
    client, game, read
):
    url = f"/games/{game['id']}{read}"
    first = client.get(url)
    assert first.status_code == 200, first.text
    tag = first.headers["etag"]
    assert "no-cache" in first.headers["cache-control"]

    again = client.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == tag
    assert client.get(url, headers={"If-None-Match": f'"x", {tag}'}).status_code == 304

    assert move(client, game, {"type": "take", "player": "Bob"}).is_success
    moved = client.get(url, headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["etag"] != tag


@pytest.mark.parametrize("read", [*GAME_READS, "LIST", "PLAYER", "HEALTH", "FEED"])
def test_head_answers_wherever_get_does_with_no_body(client, game, read):
    url = {
        "LIST": "/games",
        "PLAYER": "/players/Ann",
        "HEALTH": "/health",
        "FEED": "/feed",
    }.get(read, f"/games/{game['id']}{read}")
    got = client.get(url)
    head = client.head(url)
    assert head.status_code == got.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
