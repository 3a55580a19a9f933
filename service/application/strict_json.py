"""JSON read strictly: an object that gives one key twice is refused.

RFC 8259 leaves such an object's meaning to the reader, and readers disagree:
msgspec, like most, keeps the last value, so `{"player": "Ann", "player": "Bob"}`
would be Bob's move to us and perhaps Ann's to a proxy or a log that reads the first.
msgspec has no option to refuse them (a request for one is open upstream) and no
well-kept parser on PyPI offers one, so every body msgspec has accepted is read once
more by the standard library's C parser, only to see each object's pairs. That costs
about 12 µs for a move and 8 ms for the worst 128 KB body (18,000 one-key objects,
which only a creation's free-form options can hold).
"""

from __future__ import annotations

import json
from typing import Any

import msgspec


def decode(decoder: msgspec.json.Decoder, data: bytes) -> Any:
    """`data` decoded by `decoder`, then checked for duplicate keys; a
    msgspec.ValidationError names the first key given twice."""
    value = decoder.decode(data)
    refuse_duplicate_keys(data)
    return value


def refuse_duplicate_keys(data: bytes) -> None:
    """msgspec.ValidationError if an object in the JSON `data` has a key twice.

    Only for JSON that msgspec already accepted: it says nothing else about it."""
    try:
        json.loads(data, object_pairs_hook=_unique)
    except _Duplicate as duplicate:
        raise msgspec.ValidationError(f"the key {duplicate} is given twice") from None
    except ValueError as error:  # e.g. an integer of more than 4,300 digits
        raise msgspec.ValidationError(str(error)) from None


class _Duplicate(Exception):
    pass


def _unique(pairs: list[tuple[str, Any]]) -> None:
    """Each object's pairs; None stands for the object, whose value is not needed."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _Duplicate(json.dumps(key))
        seen.add(key)
