"""Write the stored-rows corpus: `python -m tests.domain.stored.generate`.

Each sample is a seeded game played by its game's simulator, with undos logged in the
main game of each (right after a move, two in a row, and at the end one that reopens
the finished game, then moves again). `<name>.rows.ndjson` holds it as the service
stores it: one row a line, version 1 the `game_created` row, then one row per move,
its `type` the move's and its `data` the record (`domain.history.Recorded`) as
PostgreSQL's jsonb gives it back. `<name>.states.ndjson` holds the public state after
every version (the format is `tests.domain.stored.corpus`'s).

NEVER REGENERATE AN EXISTING ROWS FILE. The rows are what old databases hold: every
later version of the code must read them and fold them into the same states, and
`tests/domain/test_stored_rows.py` checks it and pins each file (a prefix of its
SHA-256). So this script writes the rows of a sample only when its file does not exist
yet. When a change makes a stored row unreadable or fold into another state, the change
is what must give: keep the old shape readable (a new field gets a default; a changed
meaning is a new move or event type). A sample stays listed once written, as the
record of where its rows came from: that a later simulator would play it otherwise
changes nothing.

- A new move or event type: add a sample whose game logs or derives it, run this
  script (it writes the new files only), and pin the new rows file in the test.
- A deliberate rules change that alters what a state shows: `python -m
  tests.domain.stored.generate --states` rewrites every states file by folding the
  stored rows with the current code. Say so in the commit, and why the states moved.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

import msgspec

from domain.game import Setup
from domain.history import Abandon, History, Undo
from domain.registry import BUILT_IN
from tests.domain.stored.corpus import (
    CORPUS,
    Row,
    fingerprint,
    fold,
    name_of,
    public,
    read_rows,
    rows_files,
    state_lines,
    states_file,
)

# A house deck (D1) for the options of a stored game: numbered cards 2 to 9 only.
HOUSE_DECK = {
    "numbered": {"2": 4, "3": 5, "4": 5, "5": 5, "6": 5, "7": 4, "8": 3, "9": 3},
    "wilds": 2,
    "skips": 2,
    "reverses": 2,
}


@dataclass(frozen=True)
class Sample:
    name: str
    game: str
    players: tuple[str, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    # Only the first `moves` simulated moves: a game still in progress.
    moves: int | None = None
    undos: bool = False
    # Abandoned after its moves, reopened by an undo, then abandoned again (T2).
    abandoned: bool = False
    # The creation's title, played_at, location and notes.
    about: dict[str, str] = field(default_factory=dict)


# The seeds were picked so that each game's samples log every move type and derive
# every event type (the rare ones: Dobro's refill_forgotten and reverse_played, which
# needs three players; Dozito's deck_reshuffled, which needs five, and a tie for the
# next round's starter; Double Donkey's roll-off and discard_reshuffled).
SAMPLES = (
    Sample(
        "dobro-three-players",
        "dobro",
        ("Priscila", "Mauricio", "Karen"),
        seed=37,
        options={"rounds": 2},
        undos=True,
        about={
            "title": "Three players, two rounds",
            "played_at": "2026-11-27T20:00:00+00:00",
            "location": "São Paulo",
            "notes": 'Karen\'s "house" rules: none.\nSecond line.',
        },
    ),
    Sample(
        "dobro-two-players-house-deck",
        "dobro",
        ("Priscila", "Dory"),
        seed=3,
        options={
            "rounds": 1,
            "scoring": "fewest-first",
            "two_player_remove_skips": False,
            "deck": HOUSE_DECK,
        },
    ),
    Sample(
        "dobro-pixar-three-players",
        "dobro-pixar",
        ("Woody", "Jessie", "Buzz"),
        seed=37,
        options={"rounds": 2},
        undos=True,
        about={"title": "Friday night"},
    ),
    # Created without options, so a changed default would show; still in round 1.
    Sample(
        "dobro-pixar-two-players-in-progress",
        "dobro-pixar",
        ("Woody", "Jessie"),
        seed=1,
        moves=40,
    ),
    Sample(
        "dozito-two-players-tied",
        "dozito",
        ("Arthur", "Maëlle"),
        seed=74,
        options={"rounds": 2, "colors": ["rouge", "bleu", "vert", "violet", "jaune"]},
        undos=True,
        about={"title": "Dozito, en français"},
    ),
    Sample(
        "dozito-five-players-in-progress",
        "dozito",
        ("Arthur", "Maëlle", "Karen", "Olivia", "Fran"),
        seed=32,
        moves=82,
    ),
    Sample(
        "double-donkey-five-players",
        "double-donkey",
        ("Olivia", "Fran", "Karen", "Mauricio", "Arthur"),
        seed=28,
        undos=True,
    ),
    Sample("double-donkey-two-players", "double-donkey", ("Olivia", "Fran"), seed=35),
    *(
        Sample(
            f"{game}-abandoned", game, ("Ana", "Bia"), seed=4, moves=9, abandoned=True
        )
        for game in ("dobro", "dobro-pixar", "dozito", "double-donkey")
    ),
)


def logged(sample: Sample, moves: list[Any]) -> list[Any]:
    """The moves the table logs: the simulated ones, with the sample's undos."""
    if sample.abandoned:
        return [*moves, Abandon(), Undo(), Abandon()]
    if not sample.undos:
        return moves
    return [
        *moves[:3],
        *(Undo(), moves[2]),  # an undo right after a move, and the move again
        *moves[3:8],
        *(Undo(), Undo(), *moves[6:8]),  # two undos in a row, both moves again
        *moves[8:],
        # The first undo reopens the finished game, the second goes one move further.
        *(Undo(), Undo(), *moves[-2:]),
    ]


def creation(sample: Sample) -> dict[str, Any]:
    """The `game_created` row's data: the service's GameCreated event's fields."""
    return {
        "type": "game_created",
        "game": sample.game,
        "players": list(sample.players),
        "first_player": sample.players[0],
        "seed": sample.seed,
        "options": sample.options,
        "title": None,
        "played_at": None,
        "location": None,
        "notes": None,
        **sample.about,
    }


def rows(sample: Sample) -> list[bytes]:
    """The sample's rows file: the game played through its engine, move by move."""
    rules = BUILT_IN[sample.game]
    setup = Setup(
        players=sample.players,
        first_player=sample.players[0],
        seed=sample.seed,
        options=sample.options,
    )
    moves = list(islice(rules.simulate(setup), sample.moves))
    history = History.start(rules, setup)
    lines = [_row(1, "game_created", json.dumps(creation(sample)).encode())]
    for move in logged(sample, moves):
        record, history = history.play(move)
        kind = type(move).__struct_config__.tag
        lines.append(_row(history.version, kind, msgspec.json.encode(record)))
    if sample.moves is None and not history.finished:
        raise AssertionError(f"{sample.name}: the simulated game did not end")
    *_, (_, _, folded) = fold([msgspec.json.decode(line, type=Row) for line in lines])
    if folded.state != history.state:
        raise AssertionError(f"{sample.name}: the stored rows fold to another state")
    return lines


def _row(version: int, kind: str, data: bytes) -> bytes:
    """A row as the store reads it back: its data in jsonb's text form."""
    stored = json.dumps(
        _jsonb_order(json.loads(data)), ensure_ascii=False, separators=(", ", ": ")
    )
    head = f'{{"version": {version}, "type": {json.dumps(kind)}, "data": '
    return f"{head}{stored}}}".encode()


def _jsonb_order(value: Any) -> Any:
    """jsonb keeps no key order: it gives keys back shortest first, then bytewise."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: (len(key.encode()), key.encode()))
        return {key: _jsonb_order(value[key]) for key in keys}
    if isinstance(value, list):
        return [_jsonb_order(item) for item in value]
    return value


def write_states(path: Path) -> None:
    """The states file of a rows file: its rows folded with the current code."""
    histories = [history for _, _, history in fold(read_rows(path))]
    lines = state_lines([public(h) for h in histories], histories[0].setup.players)
    states_file(path).write_bytes(b"".join(line + b"\n" for line in lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--states",
        action="store_true",
        help="rewrite the expected states of every rows file (the rows stay)",
    )
    if parser.parse_args().states:
        for path in rows_files():
            write_states(path)
            print(f"rewrote {states_file(path).name}")
        return
    for sample in SAMPLES:
        path = CORPUS / f"{sample.name}.rows.ndjson"
        if path.exists():
            continue  # stored rows are never regenerated
        path.write_bytes(b"".join(line + b"\n" for line in rows(sample)))
        write_states(path)
        print(f"wrote {path.name} and its states; pin it in the test:")
        print(f'    "{name_of(path)}": "{fingerprint(path)}",')


if __name__ == "__main__":
    main()
