"""One sentence per logged move, for people reading a replay."""

from __future__ import annotations

from domain.double_donkey.components import label
from domain.double_donkey.moves import Choose, LastDie, Reveal, Roll, RollOff
from domain.double_donkey.state import State
from domain.history import Recorded


def _dice(dice: dict) -> str:
    return ", ".join(f"{label(color)} {pips}" for color, pips in dice.items())


def describe(before: State, record: Recorded) -> str:
    """The sentence for a stored move; `before` is the state before it."""
    state, move = before, record.move
    match move:
        case Roll(player, dice):
            return f"{player} rolls {_dice(dice)}"
        case Choose(player, color):
            pips = dict(getattr(state.step, "rolled", ())).get(color, "?")
            return f"{player} puts the {label(color)} {pips} on the Hay card"
        case LastDie(player, None):
            return f"{player} keeps the last die as it is"
        case LastDie(player, pips):
            return f"{player} rerolls the last die: {pips}"
        case Reveal(cards):
            shown = "; ".join(
                f"{p}: {', '.join(str(c) for c in played)}"
                for p, played in cards.items()
            )
            return f"Cards revealed: {shown}"
        case RollOff(rolls):
            return "Roll-off: " + ", ".join(f"{p} {pips}" for p, pips in rolls.items())
    return type(move).__name__
