"""Games as NDJSON exports, the body `POST /games/import` takes: built from the
simulators' moves, and sent."""

from __future__ import annotations

import itertools
import json

import msgspec

from bench.workload import endless, setup_for
from domain.creation import GameCreated
from domain.game import Setup
from domain.registry import BUILT_IN

NDJSON = {"Content-Type": "application/x-ndjson"}


def players_for(rules) -> tuple[str, ...]:
    return ("Priscila", "Mauricio", "Karen", "Patricia")[: max(3, rules.min_players)]


def simulated_file(name: str, seed: int, undo_at: int | None = None, **options):
    """An export of a simulated game, built by hand; with an undo (and the move again)
    after move `undo_at`."""
    rules = BUILT_IN[name]
    players = players_for(rules)
    setup = Setup(players=players, first_player=players[1], seed=seed, options=options)
    created = {
        "type": "game_created",
        "game": name,
        "players": list(players),
        "first_player": players[1],
        "seed": seed,
        "options": options,
        "title": f"{name} #{seed}",
    }
    lines = [json.dumps(created).encode()]
    for number, move in enumerate(rules.simulate(setup), start=1):
        lines.append(msgspec.json.encode(move))
        if number == undo_at:
            lines += [b'{"type":"undo"}', msgspec.json.encode(move)]
    return b"\n".join(lines) + b"\n"


def import_file(client, body: bytes):
    return client.post("/games/import", content=body, headers=NDJSON)


def export_of(kind: str, seed: int, moves: int, table: str | None = None) -> bytes:
    """An export of the workload's first `moves` moves; with `table`, its players'
    names carry it, for a game no other test stores (a file whose moves are those
    of a stored game of its set-up, or their beginning, is that game)."""
    rules = BUILT_IN[kind]
    setup = setup_for(rules, seed)
    if table is not None:
        names = {name: f"{name} {table}" for name in setup.players}
        setup = msgspec.structs.replace(
            setup,
            players=tuple(names.values()),
            first_player=names[setup.first_player],
        )
    plan = [m for m, _, _ in itertools.islice(endless(rules, setup), moves)]
    lines = [GameCreated.of(kind, setup), *plan]
    return b"\n".join(msgspec.json.encode(line) for line in lines)
