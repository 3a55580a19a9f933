"""Z13: a grid's round score (groups of one colour joined orthogonally, plus suns)."""

from __future__ import annotations

from domain.dozito.components import NEIGHBOURS, Card

# Group size -> points (Z13). Twelve of one colour win at once (Z12): never scored.
CHART = (0, 0, 2, 5, 10, 16, 25, 35, 45, 55, 65, 75)


def groups(grid: tuple[Card | None, ...]) -> tuple[tuple[str, int], ...]:
    """Each group of face-up cards of one colour, as (colour, size), in spot order."""
    seen: set[int] = set()
    found = []
    for start, card in enumerate(grid):
        if card is None or start in seen:
            continue
        seen.add(start)
        todo, size = [start], 0
        while todo:
            spot = todo.pop()
            size += 1
            for near in NEIGHBOURS[spot]:
                other = grid[near]
                if near not in seen and other is not None and other.color == card.color:
                    seen.add(near)
                    todo.append(near)
        found.append((card.color, size))
    return tuple(found)


def suns(grid: tuple[Card | None, ...]) -> int:
    """Suns on every face-up card, in a group or not; face-down cards count nothing."""
    return sum(card.suns or 0 for card in grid if card is not None)


def points(grid: tuple[Card | None, ...]) -> int:
    return sum(CHART[size] for _, size in groups(grid)) + suns(grid)
