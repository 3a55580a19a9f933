"""Games with a plan of legal moves, for the tests that load the service (reliability,
failover): created over HTTP, each with its plan (the move for version v + 1 is
`plan[v - 1]`), and the checks on what was stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from bench.workload import setup_for, wire_moves
from domain.history import Codec, History
from domain.registry import BUILT_IN

PLAN_LENGTH = 4000


@dataclass
class Game:
    id: str
    kind: str
    token: str
    plan: list[dict[str, Any]]
    # Versions the service answered 201 for, with the move sent.
    acknowledged: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def move_at(self, version: int) -> dict[str, Any]:
        """The move that makes the game go from `version` to `version + 1`."""
        return self.plan[version - 1]


_PLANS: dict[tuple[str, int], list[dict[str, Any]]] = {}


def plan(kind: str, seed: int) -> list[dict[str, Any]]:
    if (kind, seed) not in _PLANS:
        rules = BUILT_IN[kind]
        moves = wire_moves(rules, setup_for(rules, seed), PLAN_LENGTH)
        _PLANS[kind, seed] = msgspec.json.decode(msgspec.json.encode(moves))
    return _PLANS[kind, seed]


def creation(kind: str, seed: int) -> dict[str, Any]:
    setup = setup_for(BUILT_IN[kind], seed)
    return {
        "game": kind,
        "players": list(setup.players),
        "first_player": setup.first_player,
        "seed": seed,
    }


def create(client: httpx.Client, kind: str, seed: int = 7) -> Game:
    answer = client.post("/games", json=creation(kind, seed))
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return Game(body["id"], kind, body["write_token"], plan(kind, seed))


def stored(client: httpx.Client, game: Game) -> list[dict[str, Any]]:
    """Every stored event of the game, in order."""
    events: list[dict[str, Any]] = []
    while True:
        page = client.get(f"/games/{game.id}/events", params={"after": len(events)})
        assert page.status_code == 200, page.text
        found = page.json()["events"]
        if not found:
            return events
        events.extend(found)


def assert_log_sound(client: httpx.Client, game: Game, seed: int = 7) -> int:
    """The log is versions 1..n without a gap, each move the one the plan has for it,
    every acknowledged move in it once, and it folds; n."""
    events = stored(client, game)
    versions = [e["version"] for e in events]
    assert versions == list(range(1, len(events) + 1)), versions
    assert events[0]["type"] == "game_created"
    rules = BUILT_IN[game.kind]
    codec = Codec(rules)
    history = History.start(rules, setup_for(rules, seed))
    for event in events[1:]:
        record = codec.record_from_json(msgspec.json.encode(event["data"]))
        move = msgspec.json.decode(msgspec.json.encode(record.move))
        assert move == game.move_at(event["version"] - 1)
        history = history.apply(record)
    for version, move in game.acknowledged.items():
        assert version <= len(events), f"acknowledged version {version} is missing"
        assert events[version - 1]["type"] == move["type"]
    assert history.version == len(events)
    return len(events)
