"""Maps kept in one order: a move's or an event's map (dice by colour, points by
player) holds its keys sorted, however it was made.

A map's order carries no meaning in the rules, yet it shows in every answer that
holds the move or what was folded from it. The same move arrives in the order a
table's app sent it, is stored as PostgreSQL's jsonb normalises it, and comes back
in that other order: without one order, a game held in memory and the same game
read from the log again would answer in different bytes.
"""

from __future__ import annotations

import msgspec


def in_key_order(struct: msgspec.Struct, *fields: str) -> None:
    """Sort the maps of `struct`'s `fields` by their keys, in place (from its
    `__post_init__`, which msgspec runs when the struct is made or decoded)."""
    for name in fields:
        found = getattr(struct, name)
        if len(found) > 1:
            msgspec.structs.force_setattr(struct, name, dict(sorted(found.items())))
