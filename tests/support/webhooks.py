"""Webhook endpoints for the tests that register one and read what it was told."""

from __future__ import annotations

import httpx
from standardwebhooks import Webhook

from tests.support.keys import bearer
from tests.support.receivers import Receiver


def register(client: httpx.Client, key: str, url: str, **asked) -> dict:
    """A new endpoint of the app whose key is `key` (its `secret` shown once)."""
    asked.setdefault("kinds", ["move.stored", "game.finished", "game.reopened"])
    answer = client.post("/webhooks", json={"url": url, **asked}, headers=bearer(key))
    assert answer.status_code == 201, answer.text
    return answer.json()


def play(client: httpx.Client, game: dict, *bodies: dict) -> None:
    """Each move logged with the game's write token."""
    for body in bodies:
        answer = client.post(
            f"/games/{game['id']}/moves",
            json=body,
            headers=bearer(game["write_token"]),
        )
        assert answer.status_code == 201, answer.text


def verified(got: Receiver, secret: str) -> list[dict]:
    """Every message received, each checked against its signature."""
    return [Webhook(secret).verify(body, headers) for headers, body in got.received]
