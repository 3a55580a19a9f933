"""What a folded game holds stays out of the garbage collector's passes.

A cached timeline holds every stored move's record and the state after it, tens of
thousands of objects for a few long games. Every one the collector tracks is walked
again by each full collection, which then costs a cold load of a long game hundreds of
milliseconds. The moves, events, cards and states are immutable and never refer back,
so their Structs are declared `gc=False`; a new one that is not would show here.
"""

from __future__ import annotations

import gc
from typing import Any

import msgspec
import pytest

from domain.game import Setup
from domain.history import Abandon, Codec, History, Undo
from domain.registry import BUILT_IN

# One for the whole game, shared by all its states: Dobro's Table.
SHARED = {"Table"}


def _stored_and_folded(name: str) -> History:
    """A simulated game with an abandon and undos, its records through JSON."""
    rules = BUILT_IN[name]
    setup = Setup(players=("Ann", "Bob", "Cid"), first_player="Ann", seed=3)
    codec = Codec(rules)
    live = folded = History.start(rules, setup)
    moves = [*rules.simulate(setup), Undo(), Abandon(), Undo()]
    for move in moves:
        record, live = live.play(move)
        folded = folded.apply(codec.record_from_json(msgspec.json.encode(record)))
    return folded


def _tracked_structs(value: Any, seen: set[int]) -> set[str]:
    """The names of the Struct types reachable from `value` that the GC tracks."""
    if id(value) in seen or type(value).__qualname__ in SHARED:
        return set()
    seen.add(id(value))
    found = set()
    if isinstance(value, msgspec.Struct):
        if gc.is_tracked(value):
            found.add(type(value).__qualname__)
        inner = [getattr(value, f) for f in value.__struct_fields__]
    elif isinstance(value, list | tuple):
        inner = list(value)
    elif isinstance(value, dict):
        inner = [*value.keys(), *value.values()]
    else:
        inner = []
    for item in inner:
        found |= _tracked_structs(item, seen)
    return found


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_no_record_state_or_entry_of_a_folded_game_is_tracked(name):
    history = _stored_and_folded(name)
    entries = []
    entry = history.top
    while entry is not None:
        entries.append(entry)
        entry = entry.below
    assert len(entries) > 10
    assert _tracked_structs(entries, set()) == set()
