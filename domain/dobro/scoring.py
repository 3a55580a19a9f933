"""Round scores (D14, D15), the next round's starter (D17) and the winners (D16)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.dobro.components import Direction, Scoring


def rank_points(piles: Sequence[int], scoring: Scoring) -> tuple[int, ...]:
    """Position points: 1 for the first place, tied players share a position and the
    following positions are skipped (18, 12, 12, 8 cards: 1, 2, 2, 4 officially)."""
    if scoring == "official":  # most cards first (D14)
        return tuple(1 + sum(q > p for q in piles) for p in piles)
    return tuple(1 + sum(q < p for q in piles) for p in piles)  # fewest first (D15)


def forgetful_adjustment(scoring: Scoring) -> int:
    """The Forgetful card's holder loses a point (D14) or gains one (D15)."""
    return -1 if scoring == "official" else 1


def step(direction: Direction) -> int:
    return 1 if direction == "clockwise" else -1


def next_starter(
    totals: Sequence[int], scoring: Scoring, emptied_by: int, direction: Direction
) -> int:
    """D17: last place starts; among the tied, the first met going in `direction`
    from the player who emptied their hand, that player counting last."""
    last = min(totals) if scoring == "official" else max(totals)
    n = len(totals)
    for i in range(1, n + 1):
        seat = (emptied_by + i * step(direction)) % n
        if totals[seat] == last:
            return seat
    raise AssertionError("some player holds the last place")


def winners(
    totals: Sequence[int], last_piles: Sequence[int], scoring: Scoring
) -> tuple[int, ...]:
    """D16: best total; among the tied, fewest cards in the last round; else shared."""
    best = max(totals) if scoring == "official" else min(totals)
    tied = [seat for seat, total in enumerate(totals) if total == best]
    fewest = min(last_piles[seat] for seat in tied)
    return tuple(seat for seat in tied if last_piles[seat] == fewest)
