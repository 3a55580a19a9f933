"""The feed: every game's events in commit order, paged by cursor and as Server-Sent
Events, for apps that mirror games. Never a write token in it."""

from __future__ import annotations

import json

import pytest

from tests.support.http import create, play_simulated
from tests.support.problems import assert_problem
from tests.support.streams import open_stream, take


def read_feed(client, after=None, **params) -> tuple[list[dict], str | None]:
    """Every page from `after` on (from the start without it); the events and the
    last `next`."""
    events: list[dict] = []
    while True:
        cursor = {"after": after} if after else {}
        page = client.get("/feed", params={**cursor, **params}).json()
        events += page["events"]
        if not page["events"]:
            return events, page["next"]
        after = page["next"]


def test_the_feed_pages_every_games_events_in_order_without_tokens(client):
    _, start = read_feed(client, limit=1000)
    dobro = create(client, game="dobro", players=["Ann", "Bob"], seed=2)
    donkey = create(client, game="double-donkey", players=["Ann", "Bob"], seed=2)
    play_simulated(client, dobro, limit=7)
    play_simulated(client, donkey, limit=5)

    events, _ = read_feed(client, start, limit=3)

    ours = {dobro["id"]: "dobro", donkey["id"]: "double-donkey"}
    mine = [e for e in events if e["game_id"] in ours]
    for game_id, kind in ours.items():
        versions = [e["version"] for e in mine if e["game_id"] == game_id]
        assert versions == list(range(1, len(versions) + 1)) and len(versions) > 5
        assert {e["game"] for e in mine if e["game_id"] == game_id} == {kind}
    assert mine[0]["type"] == "game_created"
    assert len({e["cursor"] for e in events}) == len(events)
    body = json.dumps(events)
    assert dobro["write_token"] not in body and donkey["write_token"] not in body
    stored = client.get(f"/games/{dobro['id']}/events").json()["events"]
    assert [e["data"] for e in mine if e["game_id"] == dobro["id"]] == [
        e["data"] for e in stored
    ]


def test_the_feed_filters_by_game_kind(client):
    _, start = read_feed(client, limit=1000)
    create(client, game="dobro", players=["Ann", "Bob"])
    dozito = create(client, game="dozito", players=["Ann", "Bob"])
    events, _ = read_feed(client, start, game="dozito")
    assert {e["game"] for e in events} == {"dozito"}
    assert dozito["id"] in {e["game_id"] for e in events}


@pytest.mark.parametrize("cursor", ["nonsense", "1.2.3", "99999999999999999999.1"])
def test_a_cursor_the_feed_never_gave_is_refused(client, cursor):
    assert_problem(client.get("/feed", params={"after": cursor}), 422)


def test_the_feed_stream_sends_new_events_and_resumes_from_a_cursor(client):
    received = open_stream(client, "/feed/stream")
    game = create(client, game="dobro", players=["Ann", "Bob"], seed=5)
    play_simulated(client, game, limit=3)
    messages = [m for m in take(received, 4)]
    assert {json.loads(data)["game_id"] for _, _, data in messages} == {game["id"]}
    assert [json.loads(data)["version"] for _, _, data in messages] == [1, 2, 3, 4]
    assert {event for _, event, _ in messages} == {"event"}

    resumed = open_stream(client, "/feed/stream", **{"Last-Event-ID": messages[1][0]})
    again = [json.loads(data) for _, _, data in take(resumed, 2)]
    assert [e["version"] for e in again] == [3, 4]
