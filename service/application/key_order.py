"""A record's maps in the order the store gives them back.

PostgreSQL's jsonb keeps no key order of its own choosing: it gives an object's
keys back shortest first, then bytewise (by their UTF-8). A move arrives with its
maps (dice by colour, cards by player) in the order a table's app sent them, and
an engine makes its events' maps in the order it walks the seats; held in memory
so, the same game folded again from the log would answer in other bytes. So a
record is put in the store's order once, as it is stored: every read of the log
then decodes it as it comes, with nothing more to do per stored move.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from domain.game import Recorded


def stored_order(record: Recorded) -> Recorded:
    """`record` with every map of its move and its events in the store's order."""
    move = _in_order(record.move)
    events = tuple(_in_order(event) for event in record.events)
    if move is record.move and all(
        new is old for new, old in zip(events, record.events, strict=True)
    ):
        return record
    return msgspec.structs.replace(record, move=move, events=events)


def _in_order(struct: Any) -> Any:
    changed = {}
    for name in _maps(type(struct)):
        found = getattr(struct, name)
        if found is not None and len(found) > 1:
            ordered = dict(sorted(found.items(), key=_stored_key))
            if list(ordered) != list(found):
                changed[name] = ordered
    return msgspec.structs.replace(struct, **changed) if changed else struct


def _stored_key(item: tuple[str, Any]) -> tuple[int, bytes]:
    key = item[0].encode()
    return len(key), key


@cache
def _maps(kind: type) -> tuple[str, ...]:
    """The fields of a Struct type that hold a map (or nothing)."""
    info = msgspec.inspect.type_info(kind)
    if not isinstance(info, msgspec.inspect.StructType):
        return ()
    return tuple(field.name for field in info.fields if _is_map(field.type))


def _is_map(kind: msgspec.inspect.Type) -> bool:
    if isinstance(kind, msgspec.inspect.UnionType):
        return any(_is_map(member) for member in kind.types)
    return isinstance(kind, msgspec.inspect.DictType)
