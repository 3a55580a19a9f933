"""The REST API (openapi/openapi.json), over real HTTP against a real PostgreSQL."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import msgspec
import pytest

from domain.dobro import DOBRO_PIXAR
from domain.game import Setup
from domain.history import Codec, History
from tests.support import http
from tests.support.http import move

PLAYERS = ["Priscila", "Mauricio", "Karen", "Patricia"]


def create(client, **overrides):
    body = {"game": "dobro-pixar", "players": PLAYERS, "first_player": "Priscila"}
    return http.create(client, **{**body, **overrides})


def stored_versions(client, game_id):
    return [
        e["version"] for e in client.get(f"/games/{game_id}/events").json()["events"]
    ]


def assert_problem(answer, status, rule=None):
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    problem = answer.json()
    assert problem["status"] == status
    assert problem["title"] and problem["detail"]
    if rule is not None:
        assert problem["rule"] == rule
    return problem


def test_health_answers_when_the_database_does(client):
    assert client.get("/health").json() == {"status": "ok"}


def test_a_created_game_reads_back_with_its_state(client):
    game = create(client, seed=7, title="Friday night")
    assert game["version"] == 1 and game["write_token"]
    summary = client.get(f"/games/{game['id']}").json()
    assert "write_token" not in summary
    assert summary["status"] == "in_progress" and summary["winners"] == []
    assert summary["players"] == PLAYERS and summary["title"] == "Friday night"
    state = summary["state"]
    assert state["next_player"] == "Priscila" and state["value_in_play"] is None
    assert state["hand_sizes"] == dict.fromkeys(PLAYERS, 6)
    assert state["draw_pile_size"] == 57 - 4 * 6


def test_a_new_game_answers_where_it_is(client):
    answer = client.post("/games", json={"game": "dobro", "players": PLAYERS})
    assert answer.status_code == 201
    assert answer.headers["location"] == f"/games/{answer.json()['id']}"
    assert client.get(answer.headers["location"]).json()["version"] == 1


def test_without_a_first_player_the_seed_draws_one_and_it_is_recorded(client):
    first = create(client, first_player=None, seed=11)["first_player"]
    assert first in PLAYERS
    assert create(client, first_player=None, seed=11)["first_player"] == first


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"options": {"colour": "red"}}, "colour"),
        ({"game": "chess"}, "chess"),
        ({"players": ["Ann", "Ann"]}, "different name"),
        ({"players": ["Ann"]}, "players"),
        ({"first_player": "Zoe"}, "Zoe"),
    ],
)
def test_a_bad_game_set_up_is_a_422_that_stores_nothing(client, overrides, fragment):
    body = {"game": "dobro-pixar", "players": PLAYERS, **overrides}
    problem = assert_problem(client.post("/games", json=body), 422)
    assert fragment in problem["detail"]


def test_seven_players_break_the_player_limit_D3(client):
    body = {"game": "dobro", "players": [f"P{i}" for i in range(7)]}
    assert_problem(client.post("/games", json=body), 422, rule="D3")


def test_writes_need_the_games_token(client):
    game = create(client)
    body = {"type": "play", "player": "Priscila", "cards": [4]}
    url = f"/games/{game['id']}/moves"
    assert_problem(client.post(url, json=body), 401)
    assert_problem(
        client.post(url, json=body, headers={"Authorization": "Bearer x"}), 403
    )
    assert stored_versions(client, game["id"]) == [1]


def test_the_token_is_checked_before_the_body_is_read(client):
    # A request without the right token learns nothing of what its body would do.
    game = create(client)
    url = f"/games/{game['id']}/moves"
    broken = {"content": b"{not json", "headers": {"Content-Type": "application/json"}}
    assert_problem(client.post(url, **broken), 401)
    broken["headers"]["Authorization"] = "Bearer x"
    assert_problem(client.post(url, **broken), 403)


def test_an_unknown_game_is_a_404(client):
    assert_problem(client.get(f"/games/{uuid.uuid4()}"), 404)
    body = {"type": "take", "player": "Ann"}
    answer = client.post(
        f"/games/{uuid.uuid4()}/moves", json=body, headers={"Authorization": "Bearer x"}
    )
    assert_problem(answer, 404)


def test_a_move_is_stored_and_answers_the_new_state(client):
    game = create(client)
    answer = move(client, game, {"type": "play", "player": "Priscila", "cards": [4]})
    assert answer.status_code == 201, answer.text
    assert answer.json()["version"] == 2
    assert answer.json()["state"]["value_in_play"] == 4
    assert answer.json()["state"]["next_player"] == "Mauricio"
    events = client.get(f"/games/{game['id']}/events").json()["events"]
    assert [e["type"] for e in events] == ["game_created", "play"]
    assert events[1]["data"]["move"] == {
        "type": "play",
        "player": "Priscila",
        "cards": [4],
        "wild_as": None,
        "announced": None,
    }


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        ({"type": "play", "player": "Karen", "cards": [4]}, "D8"),
        ({"type": "take", "player": "Priscila"}, "D7"),
        ({"type": "skip", "player": "Priscila"}, "D7"),
        ({"type": "play", "player": "Priscila", "cards": [11]}, "D1"),
        ({"type": "play", "player": "Priscila", "cards": [4, 5]}, "D9"),
        ({"type": "play", "player": "Priscila", "cards": [4], "announced": 5}, "D10"),
        ({"type": "undo"}, "A2"),
    ],
)
def test_a_move_the_rules_refuse_is_a_422_naming_the_rule_and_stores_nothing(
    client, body, rule
):
    game = create(client)
    problem = assert_problem(move(client, game, body), 422, rule=rule)
    assert f"({rule})" in problem["detail"]
    assert stored_versions(client, game["id"]) == [1]


@pytest.mark.parametrize(
    "body",
    [
        {"type": "dance", "player": "Priscila"},
        {"type": "play", "player": "Priscila", "cards": "four"},
        {"type": "play", "player": "Priscila", "cards": [4], "tempo": 3},
        {"type": "play", "player": "Priscila", "cards": [4], "expected_version": 0},
    ],
)
def test_a_malformed_move_is_a_422_and_stores_nothing(client, body):
    game = create(client)
    assert_problem(move(client, game, body), 422)
    assert stored_versions(client, game["id"]) == [1]


def test_expected_version_elsewhere_is_a_409(client):
    game = create(client)
    body = {"type": "play", "player": "Priscila", "cards": [4], "expected_version": 2}
    problem = assert_problem(move(client, game, body), 409)
    assert problem["version"] == 1
    assert stored_versions(client, game["id"]) == [1]


def test_two_clients_racing_on_one_version_get_one_201_and_one_409(client):
    for _ in range(5):
        game = create(client)
        body = {
            "type": "play",
            "player": "Priscila",
            "cards": [4],
            "expected_version": 1,
        }
        barrier = threading.Barrier(2)

        def race(body=body, game=game, barrier=barrier):
            barrier.wait()
            return move(client, game, body).status_code

        with ThreadPoolExecutor(2) as pool:
            codes = sorted(pool.map(lambda _: race(), range(2)))
        assert codes == [201, 409]
        assert stored_versions(client, game["id"]) == [1, 2]


def test_a_retry_with_the_same_idempotency_key_is_answered_again_and_stored_once(
    client,
):
    game = create(client)
    body = {"type": "play", "player": "Priscila", "cards": [4]}
    first = move(client, game, body, **{"Idempotency-Key": "k-1"})
    again = move(client, game, body, **{"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert stored_versions(client, game["id"]) == [1, 2]
    other = {"type": "play", "player": "Mauricio", "cards": [5]}
    assert_problem(move(client, game, other, **{"Idempotency-Key": "k-1"}), 422)
    assert stored_versions(client, game["id"]) == [1, 2]


def test_a_retried_move_whose_maps_come_in_another_key_order_is_the_same_move(
    client,
):
    game = create(
        client, game="double-donkey", players=["Olivia", "Fran"], first_player="Olivia"
    )
    dice = {"yellow": 3, "light_blue": 2, "purple": 6, "orange": 5, "green": 4}
    dice["dark_blue"] = 1
    rolled = {"type": "roll", "player": "Olivia", "dice": dice}
    again = rolled | {"dice": dict(reversed(dice.items()))}
    first = move(client, game, rolled, **{"Idempotency-Key": "dice-1"})
    retried = move(client, game, again, **{"Idempotency-Key": "dice-1"})
    assert first.status_code == retried.status_code == 201, retried.text
    assert first.content == retried.content
    assert stored_versions(client, game["id"]) == [1, 2]


def play_to_the_end(client, game, setup):
    for logged in DOBRO_PIXAR.simulate(setup):
        answer = move(client, game, msgspec.to_builtins(logged))
        assert answer.status_code == 201, answer.text


def test_a_four_player_dobro_pixar_game_plays_to_its_end_over_http(client):
    game = create(client, seed=2026)
    setup = Setup(players=tuple(PLAYERS), first_player="Priscila", seed=2026)
    play_to_the_end(client, game, setup)

    live = History.start(DOBRO_PIXAR, setup)
    for logged in DOBRO_PIXAR.simulate(setup):
        live = live.play(logged)[1]
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["status"] == "finished"
    assert summary["winners"] == list(live.winners)
    assert (
        summary["state"]["totals"]
        == msgspec.to_builtins(DOBRO_PIXAR.view(live.state))["totals"]
    )
    assert summary["version"] == live.version

    after = move(client, game, {"type": "take", "player": PLAYERS[0]})
    assert_problem(after, 409)

    codec = Codec(DOBRO_PIXAR)
    events = client.get(f"/games/{game['id']}/events").json()["events"]
    folded = History.start(DOBRO_PIXAR, setup)
    for event in events[1:]:
        folded = folded.apply(
            codec.record_from_json(msgspec.json.encode(event["data"]))
        )
    assert folded.state == live.state

    undone = move(client, game, {"type": "undo"})
    assert undone.status_code == 201
    reopened = client.get(f"/games/{game['id']}").json()
    assert reopened["status"] == "in_progress" and reopened["winners"] == []


def test_events_page_with_after_and_limit(client):
    game = create(client)
    for body in (
        {"type": "play", "player": "Priscila", "cards": [4]},
        {"type": "play", "player": "Mauricio", "cards": [4]},
        {"type": "take", "player": "Karen"},
    ):
        assert move(client, game, body).status_code == 201
    page = client.get(f"/games/{game['id']}/events", params={"after": 1, "limit": 2})
    assert [e["version"] for e in page.json()["events"]] == [2, 3]
    assert page.json()["version"] == 4
