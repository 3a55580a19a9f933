"""Helpers for tests that talk to the service over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import msgspec

from domain.game import Setup
from domain.history import History
from domain.registry import BUILT_IN


def create(client: httpx.Client, **body: Any) -> dict:
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def move(
    client: httpx.Client,
    game: dict,
    body: Any,
    *,
    extensions: dict[str, Any] | None = None,
    **headers: str,
) -> httpx.Response:
    """`body` posted as a move of `game`; `extensions` are httpx's (its trace)."""
    auth = {"Authorization": f"Bearer {game['write_token']}"}
    return client.post(
        f"/games/{game['id']}/moves",
        json=body,
        headers=auth | headers,
        extensions=extensions,
    )


def setup_of(game: dict) -> Setup:
    return Setup(
        players=tuple(game["players"]),
        first_player=game["first_player"],
        seed=game["seed"],
        options=game["options"],
    )


def simulated_moves(game: dict) -> Iterator[Any]:
    """The moves of the seeded virtual table for this game's set-up."""
    return BUILT_IN[game["game"]].simulate(setup_of(game))


def play_simulated(client: httpx.Client, game: dict, limit: int | None = None) -> int:
    """Log the simulator's moves (at most `limit`); how many were logged."""
    logged = 0
    for logged, simulated in enumerate(simulated_moves(game), start=1):
        answer = move(client, game, msgspec.to_builtins(simulated))
        assert answer.status_code == 201, answer.text
        if logged == limit:
            break
    return logged


def live_histories(game: dict, limit: int | None = None) -> list[History]:
    """The game folded in memory, after each of the simulator's moves."""
    history = History.start(BUILT_IN[game["game"]], setup_of(game))
    histories = [history]
    for simulated in simulated_moves(game):
        history = history.play(simulated)[1]
        histories.append(history)
        if len(histories) - 1 == limit:
            break
    return histories


def view(history: History) -> Any:
    """The public state as JSON gives it back."""
    return msgspec.json.decode(msgspec.json.encode(history.rules.view(history.state)))


def client_from(base_url: str, address: str) -> httpx.Client:
    """A client whose connections come from `address` (any of 127.0.0.0/8 is this
    machine): to the server, a different client."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=base_url, transport=transport, timeout=30)
