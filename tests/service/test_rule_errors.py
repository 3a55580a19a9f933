"""Every game refuses an illegal move over HTTP with its ruling's id, and stores
nothing (A1); a few moves per game stand for the rulings the engines' own tests cover
one by one."""

from __future__ import annotations

import pytest

from tests.support.http import create, move
from tests.support.moves import DOZITO_START, RED_3

SIX_DICE = {"light_blue": 1, "orange": 2, "dark_blue": 3, "purple": 4, "yellow": 2}

CASES = {
    "dozito": (
        ["Arthur", "Maëlle", "Lou"],
        [DOZITO_START],
        [
            ({"type": "draw", "player": "Lou", "source": "deck", "card": RED_3}, "Z4"),
            (
                {
                    "type": "draw",
                    "player": "Arthur",
                    "source": "deck",
                    "card": {"color": "blue", "number": 5},
                },
                "Z2",
            ),
            (
                {
                    "type": "draw",
                    "player": "Arthur",
                    "source": "deck",
                    "card": {**RED_3, "stop": True},
                },
                "Z2",
            ),
            ({"type": "start_round", "discards": [RED_3, RED_3]}, "Z11"),
        ],
    ),
    "double-donkey": (
        ["Olivia", "Fran", "Jan", "Margaret"],
        [{"type": "roll", "player": "Olivia", "dice": {**SIX_DICE, "green": 6}}],
        [
            ({"type": "choose", "player": "Fran", "color": "orange"}, "K4"),
            ({"type": "roll", "player": "Fran", "dice": SIX_DICE}, "K4"),
            ({"type": "reveal", "cards": {"Olivia": [{"angry": "purple"}]}}, "K4"),
        ],
    ),
}


@pytest.mark.parametrize(
    ("name", "case"),
    [(name, i) for name, (_, _, refused) in CASES.items() for i in range(len(refused))],
)
def test_an_illegal_move_is_a_422_with_its_ruling_and_stores_nothing(
    client, name, case
):
    players, legal, refused = CASES[name]
    game = create(client, game=name, players=players, first_player=players[0])
    for body in legal:
        assert move(client, game, body).status_code == 201
    body, rule = refused[case]
    answer = move(client, game, body)
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["rule"] == rule
    assert f"({rule})" in answer.json()["detail"]
    after = client.get(f"/games/{game['id']}").json()
    assert after["version"] == 1 + len(legal)
