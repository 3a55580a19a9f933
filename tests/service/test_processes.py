"""Two service processes on one database: each decides moves on its cached state and
must notice what the other stored (the (game, version) key tells it)."""

from __future__ import annotations

import httpx
import msgspec

from tests.support.http import create, move, simulated_moves
from tests.support.server import running_server


def test_two_processes_log_one_game_in_turns_without_losing_a_move(database_url):
    with (
        running_server(database_url) as first_url,
        running_server(database_url) as second_url,
        httpx.Client(base_url=first_url, timeout=30) as first,
        httpx.Client(base_url=second_url, timeout=30) as second,
    ):
        game = create(first, game="dobro", players=["Ann", "Bob"], seed=12)
        moves = list(simulated_moves(game))
        for i, body in enumerate(moves):
            client = (first, second)[i % 2]
            answer = move(client, game, msgspec.to_builtins(body))
            assert answer.status_code == 201, answer.text
            assert answer.json()["version"] == i + 2
        assert first.get(f"/games/{game['id']}").json()["status"] == "finished"

        # The second process undoes the end; the first, whose cache still says the
        # game is over, must accept the last move again rather than answer 409.
        assert move(second, game, {"type": "undo"}).status_code == 201
        again = move(first, game, msgspec.to_builtins(moves[-1]))
        assert again.status_code == 201, again.text
        views = [c.get(f"/games/{game['id']}").json() for c in (first, second)]
        assert views[0] == views[1] and views[0]["status"] == "finished"
