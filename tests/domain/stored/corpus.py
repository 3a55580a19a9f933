"""Reading the stored-rows corpus, and the format of its expected states.

`<name>.rows.ndjson`: one stored row a line, `{"version": N, "type": ..., "data": ...}`,
version 1 the game's `game_created` row; `data` is the row's JSON as the database
gives it back. `<name>.states.ndjson`: the public state (`rules.view`) after every
version, one line each: version 1 in full (`view`), then what changed since the
version before: `entries`, for a field that maps each player to a value, the players
whose value changed, and `fields`, any other field with its new value.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgspec

from domain.game import Rules, StoredSetup
from domain.history import Codec, History, Recorded
from domain.registry import BUILT_IN

CORPUS = Path(__file__).resolve().parent

View = dict[str, Any]


class Row(msgspec.Struct, frozen=True):
    """One row of the events table; `data` kept as the exact stored JSON."""

    version: int
    type: str
    data: msgspec.Raw


def rows_files() -> list[Path]:
    return sorted(CORPUS.glob("*.rows.ndjson"))


def states_file(rows: Path) -> Path:
    return rows.with_name(rows.name.replace(".rows.", ".states."))


def name_of(rows: Path) -> str:
    return rows.name.removesuffix(".rows.ndjson")


def fingerprint(path: Path) -> str:
    """What the test pins of a rows file: its SHA-256's first 16 hex digits (enough
    to see a rewrite), line ends normalised."""
    digest = hashlib.sha256(path.read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()[:16]


def read_rows(path: Path) -> list[Row]:
    decoder = msgspec.json.Decoder(Row)
    return [decoder.decode(line) for line in path.read_bytes().splitlines()]


def created(row: Row) -> tuple[Rules, StoredSetup]:
    """The game and its set-up, from its `game_created` row (version 1)."""
    fields = msgspec.json.decode(row.data)
    if row.version != 1 or row.type != "game_created" or fields["type"] != row.type:
        raise ValueError("a game's first row is its game_created at version 1")
    setup = StoredSetup(
        players=tuple(fields["players"]),
        first_player=fields["first_player"],
        seed=fields["seed"],
        options=fields["options"],
    )
    return BUILT_IN[fields["game"]], setup


class UnreadableRow(Exception):
    """A stored row the current code cannot decode or fold."""

    def __init__(self, version: int, error: Exception) -> None:
        super().__init__(f"version {version}: {type(error).__name__}: {error}")
        self.version = version


def fold(rows: list[Row]) -> Iterator[tuple[Row, Recorded | None, History]]:
    """Each row with its decoded record (None for the creation) and the game after
    it, decoded and folded as the service does; UnreadableRow at the first row that
    cannot be."""
    try:
        rules, setup = created(rows[0])
        history = History.start(rules, setup)
    except Exception as error:
        raise UnreadableRow(1, error) from error
    codec = Codec(rules)
    yield rows[0], None, history
    for row in rows[1:]:
        if row.version != history.version + 1:
            raise ValueError(f"version {row.version} follows {history.version}")
        try:
            record = codec.record_from_json(bytes(row.data))
            history = history.apply(record)
        except Exception as error:  # whatever breaks, name the row it broke on
            raise UnreadableRow(row.version, error) from error
        yield row, record, history


def public(history: History) -> View:
    """The game's public state as builtins, as a client reads it in JSON."""
    return msgspec.json.decode(msgspec.json.encode(history.rules.view(history.state)))


# ------------------------------------------------------------------ expected states


def state_lines(views: list[View], players: tuple[str, ...]) -> list[bytes]:
    """The states file's lines for the views after versions 1, 2, ..."""
    lines = [{"version": 1, "view": views[0]}]
    for version, (before, after) in enumerate(pairwise(views), start=2):
        line: dict[str, Any] = {"version": version}
        fields, entries = _changes(before, after, set(players))
        if fields:
            line["fields"] = fields
        if entries:
            line["entries"] = entries
        lines.append(line)
    return [msgspec.json.encode(line) for line in lines]


def _changes(
    before: View, after: View, players: set[str]
) -> tuple[View, dict[str, View]]:
    if before.keys() - after.keys():
        raise ValueError("a view lost a field between two versions")
    fields, entries = {}, {}
    for name, value in after.items():
        old = before.get(name)
        if name in before and old == value:
            continue
        if _by_player(old, players) and _by_player(value, players):
            entries[name] = {k: v for k, v in value.items() if old[k] != v}
        else:
            fields[name] = value
    return fields, entries


def _by_player(value: Any, players: set[str]) -> bool:
    return isinstance(value, dict) and value.keys() == players


def read_states(path: Path) -> list[View]:
    """The expected view after each version, oldest first."""
    views: list[View] = []
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        state = msgspec.json.decode(line)
        if state["version"] != number:
            raise ValueError(f"{path.name}: line {number} is not version {number}")
        if number == 1:
            views.append(state["view"])
            continue
        view = {**views[-1], **state.get("fields", {})}
        for name, changed in state.get("entries", {}).items():
            view[name] = {**view[name], **changed}
        views.append(view)
    return views
