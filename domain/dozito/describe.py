"""One sentence per logged move, for people reading a replay."""

from __future__ import annotations

from domain.dozito.moves import Discard, Draw, Place, StartRound
from domain.dozito.state import BetweenRounds, Holding, State
from domain.history import Recorded


def describe(before: State, record: Recorded) -> str:
    """The sentence for a stored move; `before` is the state before it."""
    state, move = before, record.move
    held = state.phase.card if isinstance(state.phase, Holding) else None
    match move:
        case StartRound(discards, starter):
            number = (
                state.phase.round if isinstance(state.phase, BetweenRounds) else "?"
            )
            first = starter or getattr(state.phase, "starter", None) or "?"
            left, right = discards
            return (
                f"Round {number} starts with {first}; the discard piles show "
                f"the {left} and the {right}"
            )
        case Draw(player, "deck", card):
            return f"{player} draws the {card} from the deck"
        case Draw(player, source):
            pile = state.piles[source == "discard_right"]
            side = source.removeprefix("discard_")
            top = f"the {pile[-1]}" if pile else "a card"
            return f"{player} takes {top} from the {side} discard pile"
        case Place(player, spot, revealed):
            where = spot or (held.number if held else "?")
            said = f"{player} places the {held} on spot {where}"
            return f"{said}, revealing the {revealed}" if revealed else said
        case Discard(player, pile):
            return f"{player} discards the {held} on the {pile} pile"
    return type(move).__name__
