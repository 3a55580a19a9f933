"""Stored rows stay readable by every later version: the test every version must pass.

`tests/domain/stored/` holds games as the service stored them (one file of rows per
game, version 1 its `game_created`) and the public state after every version. Each row
is decoded with the game's Codec and folded exactly as the service does, and must
give the same state as when it was written. Between them the files hold every move
and event type of every game, undo included.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest

from domain.history import (
    TABLE_MOVES,
    Codec,
    GameAbandoned,
    History,
    MoveRetracted,
    Recorded,
    Undo,
)
from domain.registry import BUILT_IN
from tests.domain.stored.corpus import (
    Row,
    UnreadableRow,
    View,
    created,
    fingerprint,
    fold,
    name_of,
    public,
    read_rows,
    read_states,
    rows_files,
    states_file,
)

NEVER_REWRITE = (
    "The corpus rows are what old databases hold: never regenerate or edit them to "
    "make a change pass. Keep the old shape readable instead (a new field gets a "
    "default; a changed meaning is a new move or event type). Only the expected "
    "states may be rewritten (`python -m tests.domain.stored.generate --states`), "
    "when a deliberate rules change alters what a state shows; the commit says so."
)

# Each rows file, pinned (`fingerprint`): a changed rows file is a rewritten history.
PINNED = {
    "dobro-pixar-three-players": "5a9b3d3321ad39df",
    "dobro-pixar-two-players-in-progress": "7d8ead30964b95a4",
    "dobro-three-players": "d3fed1ac26cd0ce6",
    "dobro-two-players-house-deck": "348d20a037c1fc3b",
    "double-donkey-five-players": "7a7287cb78181029",
    "double-donkey-two-players": "bd05d96738658a90",
    "dozito-five-players-in-progress": "94a3f6ee4aefd591",
    "dozito-two-players-tied": "0604935e32102948",
    "dobro-abandoned": "736d0c0ed0454a38",
    "dobro-pixar-abandoned": "cf59594e85db1b56",
    "dozito-abandoned": "41304ffe9f571865",
    "double-donkey-abandoned": "92d7316a5ffa416e",
}

FILES = rows_files()


def _tag(struct: Any) -> str:
    """A move's or an event's wire `type`."""
    return type(struct).__struct_config__.tag


@cache
def _folded(path: Path) -> list[tuple[Row, Recorded | None, History]]:
    return list(fold(read_rows(path)))


@cache
def _files_of(game: str) -> list[Path]:
    return [path for path in FILES if created(read_rows(path)[0])[0].name == game]


# ------------------------------------------------------------------- the guarantee


@pytest.mark.parametrize("path", FILES, ids=name_of)
def test_every_stored_row_folds_into_the_state_it_had_when_written(path):
    folded = _fold_or_fail(path, read_rows(path))
    _assert_states(path, [public(history) for _, _, history in folded])
    for row, record, _ in folded[1:]:
        assert row.type == _tag(record.move), f"{path.name}: version {row.version}"


def _fold_or_fail(
    path: Path, rows: list[Row]
) -> list[tuple[Row, Recorded | None, History]]:
    try:
        return list(fold(rows))
    except UnreadableRow as error:
        pytest.fail(
            f"{path.name}: a stored row no longer folds, {error}.\n{NEVER_REWRITE}"
        )


def _assert_states(path: Path, views: list[View]) -> None:
    expected = read_states(states_file(path))
    assert len(expected) == len(views), f"{path.name}: one expected state per row"
    for version, (want, got) in enumerate(zip(expected, views, strict=True), start=1):
        if want != got:
            pytest.fail(
                f"{path.name}: at version {version} the state differs from the one "
                f"stored:\n{_diff(want, got)}\n{NEVER_REWRITE}"
            )


def _diff(want: View, got: View) -> str:
    lines = []
    for name in [*want, *(name for name in got if name not in want)]:
        old, new = want.get(name, "(no field)"), got.get(name, "(no field)")
        if old == new:
            continue
        if isinstance(old, dict) and isinstance(new, dict):
            for key in [*old, *(key for key in new if key not in old)]:
                if old.get(key) != new.get(key):
                    lines.append(f"  {name}[{key!r}]: {_short(old, key, new)}")
        else:
            lines.append(f"  {name}: expected {_brief(old)}, got {_brief(new)}")
    return "\n".join(lines[:12])


def _short(old: dict, key: str, new: dict) -> str:
    return f"expected {_brief(old.get(key))}, got {_brief(new.get(key))}"


def _brief(value: Any) -> str:
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 100 else text[:97] + "..."


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_the_corpus_holds_every_move_and_event_type_of_every_game(name):
    rules = BUILT_IN[name]
    kinds = (*rules.moves, *TABLE_MOVES, *rules.events, MoveRetracted, GameAbandoned)
    wanted = {kind.__struct_config__.tag for kind in kinds}
    seen = set()
    for path in _files_of(name):
        for row in read_rows(path)[1:]:
            data = msgspec.json.decode(row.data)
            seen |= {data["move"]["type"], *(event["type"] for event in data["events"])}
    missing = ", ".join(sorted(wanted - seen))
    assert not missing, (
        f"No stored {name} row holds {missing}. Extend the corpus: add a sample whose "
        "game has it to tests/domain/stored/generate.py, run `python -m "
        "tests.domain.stored.generate` (it writes the new sample's files only) and "
        f"pin the new rows file in PINNED. {NEVER_REWRITE}"
    )


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_the_corpus_undoes_after_a_move_twice_in_a_row_and_after_the_end_A2(name):
    found = set()
    for path in _files_of(name):
        reopened = False
        for (_, previous, before), (_, record, _) in pairwise(_folded(path)):
            if not isinstance(record.move, Undo):
                if reopened:
                    found.add("a move after a reopened game")
                continue
            if previous is not None and isinstance(previous.move, Undo):
                found.add("two undos in a row")
            else:
                found.add("an undo right after a move")
            if before.finished:
                found.add("an undo reopening a finished game")
                reopened = True
    assert found == {
        "an undo right after a move",
        "two undos in a row",
        "an undo reopening a finished game",
        "a move after a reopened game",
    }


def test_no_stored_row_was_rewritten():
    found = {name_of(path): fingerprint(path) for path in FILES}
    gone = sorted(PINNED.keys() - found.keys())
    assert not gone, f"Stored rows were removed: {gone}. {NEVER_REWRITE}"
    changed = sorted(name for name in PINNED if found[name] != PINNED[name])
    assert not changed, f"Stored rows were rewritten: {changed}. {NEVER_REWRITE}"
    new = {name: digest for name, digest in found.items() if name not in PINNED}
    assert not new, f"Pin the new rows files in PINNED: {new}"


# -------------------------------------------------------- what a later version wrote

# A field no version of the code knows, as a later version (or an earlier one, since
# removed) might have stored it.
UNKNOWN = "stored_by_another_version"


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_nothing_a_stored_row_holds_refuses_an_unknown_field(name):
    strict = sorted(
        info.cls.__qualname__
        for info in _structs(mi.type_info(Codec(BUILT_IN[name]).record_type))
        if info.forbid_unknown_fields
    )
    assert not strict, (
        f"{strict} refuse unknown fields, so a row another version stored with one "
        "more field could not be read: stored shapes stay lenient (domain.history)."
    )


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_rows_with_unknown_fields_in_every_move_event_and_card_fold_the_same(name):
    info = mi.type_info(Codec(BUILT_IN[name]).record_type)
    touched: set[type] = set()
    for path in _files_of(name):
        rows = read_rows(path)
        rows[1:] = [_with_unknown_fields(row, info, touched) for row in rows[1:]]
        folded = _fold_or_fail(path, rows)
        _assert_states(path, [public(history) for _, _, history in folded])
    untouched = sorted(
        struct.cls.__qualname__
        for struct in _structs(info)
        if struct.cls not in touched
    )
    assert not untouched, f"No stored {name} row holds a {', '.join(untouched)}"


def test_a_move_a_card_and_an_event_with_fields_from_a_later_version_decode_the_same():
    """Given a stored Dozito draw from the deck, when another version added a field
    to the move, to the card in it and to the event, then it decodes the same."""
    rows = [row for path in _files_of("dozito") for row in read_rows(path)]
    draws = [msgspec.json.decode(row.data) for row in rows if row.type == "draw"]
    stored = next(data for data in draws if data["move"]["source"] == "deck")
    later = msgspec.json.decode(msgspec.json.encode(stored))
    later["move"]["seen_by"] = ["Arthur"]
    later["move"]["card"]["artwork"] = "2031 edition"
    later["events"][0]["drawn_at"] = "2031-01-01T20:00:00+00:00"
    codec = Codec(BUILT_IN["dozito"])
    decoded = codec.record_from_json(msgspec.json.encode(later))
    assert decoded == codec.record_from_json(msgspec.json.encode(stored))


def _structs(info: mi.Type, seen: set[type] | None = None) -> list[mi.StructType]:
    """Every Struct type reachable from `info`, once each."""
    seen = set() if seen is None else seen
    if isinstance(info, mi.StructType):
        if info.cls in seen:
            return []
        seen.add(info.cls)
        found = [info]
        for field in info.fields:
            found += _structs(field.type, seen)
        return found
    found = []
    for inner in _inner_types(info):
        found += _structs(inner, seen)
    return found


def _inner_types(info: mi.Type) -> tuple[mi.Type, ...]:
    if isinstance(info, mi.UnionType):
        return info.types
    if isinstance(info, mi.TupleType):
        return info.item_types
    if isinstance(info, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        return (info.item_type,)
    if isinstance(info, mi.DictType):
        return (info.key_type, info.value_type)
    if isinstance(info, mi.Metadata):
        return (info.type,)
    return ()


def _with_unknown_fields(row: Row, info: mi.Type, touched: set[type]) -> Row:
    data = _sprinkled(msgspec.json.decode(row.data), info, touched)
    return Row(row.version, row.type, msgspec.Raw(msgspec.json.encode(data)))


def _sprinkled(value: Any, info: mi.Type, touched: set[type]) -> Any:
    """`value` with the UNKNOWN field added to every Struct in it."""
    if isinstance(info, mi.Metadata):
        return _sprinkled(value, info.type, touched)
    if isinstance(info, mi.UnionType):
        return _sprinkled(value, _member(value, info), touched)
    if isinstance(info, mi.StructType):
        touched.add(info.cls)
        types = {field.encode_name: field.type for field in info.fields}
        fields = {
            key: _sprinkled(item, types[key], touched) if key in types else item
            for key, item in value.items()
        }
        return {**fields, UNKNOWN: {"any": ["json", 1, None]}}
    if isinstance(info, mi.TupleType):
        return [
            _sprinkled(item, kind, touched)
            for item, kind in zip(value, info.item_types, strict=True)
        ]
    if isinstance(info, mi.ListType | mi.VarTupleType):
        return [_sprinkled(item, info.item_type, touched) for item in value]
    if isinstance(info, mi.DictType):
        return {
            key: _sprinkled(item, info.value_type, touched)
            for key, item in value.items()
        }
    return value


def _member(value: Any, union: mi.UnionType) -> mi.Type:
    """The type of the union that `value` decodes as (AnyType: left as it is)."""
    for kind in union.types:
        inner = kind.type if isinstance(kind, mi.Metadata) else kind
        if (
            isinstance(value, dict)
            and isinstance(inner, mi.StructType)
            and (inner.tag_field is None or value.get(inner.tag_field) == inner.tag)
        ):
            return inner
        if isinstance(value, dict) and isinstance(inner, mi.DictType):
            return inner
        if isinstance(value, list) and isinstance(
            inner, mi.ListType | mi.VarTupleType | mi.TupleType
        ):
            return inner
    return mi.AnyType()
