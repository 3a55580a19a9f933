"""A cached timeline extended from stored (version, data) rows: the same histories as
one move at a time, and versions it already holds skipped (another request added
them)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import msgspec

from domain.history import Codec, History, Undo
from domain.registry import BUILT_IN
from service.application.timeline import Timeline, setup_of
from service.storage.store import GameRow

RULES = BUILT_IN["dobro"]
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _game() -> tuple[GameRow, list[tuple[int, str]]]:
    """A game row and its stored moves (versions 2 on), an undo among them."""
    row = GameRow(
        id=uuid.uuid4(),
        game=RULES.name,
        players=("Ann", "Bob"),
        first_player="Ann",
        seed=4,
        options={},
        token_hash=b"",
        created_at=NOW,
    )
    history = History.start(RULES, setup_of(row))
    moves = [*list(RULES.simulate(setup_of(row)))[:6], Undo()]
    events = []
    for move in moves:
        record, history = history.play(move)
        events.append((history.version, msgspec.json.encode(record).decode()))
    return row, events


def _states(timeline: Timeline) -> list[tuple[int, object]]:
    return [(h.version, h.state) for h in timeline.histories]


def test_extending_gives_what_adding_each_stored_move_gives():
    row, events = _game()
    codec = Codec(RULES)
    one_by_one = Timeline(row, History.start(RULES, setup_of(row)))
    for version, data in events:
        one_by_one.add(version, codec.record_from_json(data))
    at_once = Timeline(row, History.start(RULES, setup_of(row)))
    at_once.extend(events, codec.record_from_json)
    assert _states(at_once) == _states(one_by_one)
    assert at_once.records == one_by_one.records
    assert [h.version for h in at_once.histories] == list(range(1, len(events) + 2))
    assert at_once.latest.state == at_once.at(len(events) - 1).state  # the undo


def test_versions_already_held_are_skipped_and_not_decoded():
    row, events = _game()
    codec = Codec(RULES)
    timeline = Timeline(row, History.start(RULES, setup_of(row)))
    timeline.extend(events[:3], codec.record_from_json)
    decoded = []

    def decode(data: str):
        decoded.append(data)
        return codec.record_from_json(data)

    timeline.extend(events[1:], decode)
    assert decoded == [data for _, data in events[3:]]
    whole = Timeline(row, History.start(RULES, setup_of(row)))
    whole.extend(events, codec.record_from_json)
    assert _states(timeline) == _states(whole)
