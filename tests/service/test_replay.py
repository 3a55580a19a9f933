"""Replays: one step per stored move with a sentence, and the state at step N
equal to the live state the game had after its Nth move."""

from __future__ import annotations

import httpx
import msgspec
import pytest

from projections.scoresheet import score_sheet
from tests.support.http import (
    create,
    live_histories,
    move,
    play_simulated,
    simulated_moves,
    view,
)
from tests.support.server import running_server

PLAYERS = {
    "dobro": ["Ana", "Bia", "Caio"],
    "dobro-pixar": ["Priscila", "Mauricio", "Karen", "Patricia"],
    "dozito": ["Arthur", "Maëlle", "Lou"],
    "double-donkey": ["Olivia", "Fran", "Jan", "Margaret"],
}


@pytest.fixture(scope="module", params=sorted(PLAYERS))
def finished(request, client):
    game = create(client, game=request.param, players=PLAYERS[request.param], seed=3)
    play_simulated(client, game)
    return game


def test_every_replay_step_equals_the_live_game_after_that_move(client, finished):
    histories = live_histories(finished)
    steps = client.get(f"/games/{finished['id']}/replay").json()["steps"]
    assert [s["step"] for s in steps] == list(range(1, len(histories)))
    sheet = None
    for step in steps:
        assert step["state"] == view(histories[step["step"]])
        # A step's sheet is given where it changed; else the latest one given holds.
        sheet = step["scoresheet"] or sheet
        assert sheet == as_json(score_sheet(histories[step["step"]]))
    for n in (0, 1, len(histories) // 2, len(histories) - 1):
        frame = client.get(f"/games/{finished['id']}/replay/{n}").json()
        assert frame["step"] == n and frame["state"] == view(histories[n])
        assert frame["scoresheet"] == as_json(score_sheet(histories[n]))


def test_a_replay_gives_a_sheet_only_where_a_step_changed_it(client, finished):
    steps = client.get(f"/games/{finished['id']}/replay").json()["steps"]
    given = [step["step"] for step in steps if step["scoresheet"] is not None]
    assert given[0] == 1
    assert 1 < len(given) < len(steps) / 2


def as_json(value):
    return msgspec.json.decode(msgspec.json.encode(value))


def test_a_step_past_the_last_is_a_404(client, finished):
    last = len(client.get(f"/games/{finished['id']}/replay").json()["steps"])
    assert client.get(f"/games/{finished['id']}/replay/{last}").status_code == 200
    answer = client.get(f"/games/{finished['id']}/replay/{last + 1}")
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_dobro_steps_read_as_sentences_and_undo_says_what_it_took_back(client):
    game = create(
        client,
        game="dobro-pixar",
        players=["Priscila", "Mauricio", "Karen", "Patricia"],
        first_player="Priscila",
    )
    for body in (
        {"type": "play", "player": "Priscila", "cards": [4]},
        {"type": "play", "player": "Mauricio", "cards": [4]},
        {"type": "play", "player": "Karen", "cards": [5, 5]},
        {"type": "undo"},
    ):
        assert move(client, game, body).status_code == 201
    steps = client.get(f"/games/{game['id']}/replay").json()["steps"]
    sentences = [s["description"] for s in steps]
    assert sentences[2] == "Karen plays 5 + 5: the value is 10"
    assert sentences[3] == "Undo: “Karen plays 5 + 5: the value is 10” is taken back"
    assert steps[3]["state"] == steps[1]["state"]
    assert steps[3]["move"] == {"type": "undo"}


def test_the_score_sheet_agrees_with_the_finished_game(client, finished):
    summary = client.get(f"/games/{finished['id']}").json()
    sheet = client.get(f"/games/{finished['id']}/scoresheet").json()
    assert sheet["finished"] is True
    assert sheet["players"] == summary["players"]
    assert sheet["winners"] == summary["winners"]
    expected = score_sheet(live_histories(finished)[-1])
    assert sheet == msgspec.json.decode(msgspec.json.encode(expected))


def reversed_maps(value):
    """`value` with every map's keys in reverse order: a table's app may send them
    in any order."""
    if isinstance(value, dict):
        return {key: reversed_maps(value[key]) for key in reversed(value)}
    if isinstance(value, list):
        return [reversed_maps(item) for item in value]
    return value


def test_a_game_held_in_memory_and_read_again_from_its_log_answers_the_same_bytes(
    fresh_database_url,
):
    # A table's app sends a map (dice by colour, cards by player) in whatever order
    # it likes, an engine makes its events' maps in seat order, and the store gives
    # them back in an order of its own: a process holding a game and one reading it
    # from the log answer alike, for every game played to its end.
    reads = ("", "/replay", "/replay/1", "/replay/7", "/scoresheet", "/export")

    def answers(client, games):
        return {
            (game["id"], path): client.get(f"/games/{game['id']}{path}").content
            for game in games
            for path in reads
        }

    with (
        running_server(fresh_database_url) as url,
        httpx.Client(base_url=url) as client,
    ):
        games = [create(client, game=name, players=PLAYERS[name]) for name in PLAYERS]
        for game in games:
            for simulated in simulated_moves(game):
                sent = reversed_maps(msgspec.to_builtins(simulated))
                assert move(client, game, sent).status_code == 201
        held = answers(client, games)
    with (
        running_server(fresh_database_url) as url,
        httpx.Client(base_url=url) as client,
    ):
        assert answers(client, games) == held
