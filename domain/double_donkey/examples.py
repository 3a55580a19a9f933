"""Double Donkey moves to try against the rules (`Rules.examples`): each kind of move
by the players an offer names (by every player when it names none), for each choice
it gives, with dice and cards the table could state (any pips; each player
revealing one Double Donkey).

Nothing here decides: the shared contract suite hands these moves to `decide` to
hold `allowed` to it (an offered choice some move of which the rules accept, and a
kind left out none of whose moves they accept).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from domain.double_donkey.components import COLORS, Card
from domain.double_donkey.moves import Choose, LastDie, Move, Reveal, Roll, RollOff
from domain.double_donkey.state import RollingOff, State
from domain.game import Offer


def examples(state: State, offer: Offer[str]) -> Iterator[Move]:
    players = offer.choices.get("player") or state.players
    match offer.kind:
        case "roll":
            owed = [c for c in COLORS if c not in state.hay_dict()] or COLORS
            dice = offer.choices.get("dice") or owed
            for player in players:
                yield Roll(player, {color: 1 + n for n, color in enumerate(dice)})
        case "choose":
            for player, color in product(players, offer.choices.get("color") or COLORS):
                yield Choose(player, color)
        case "last_die":
            for player in players:
                yield LastDie(player)
                yield LastDie(player, 6)
        case "reveal":
            holders = offer.choices.get("cards") or state.players
            yield Reveal({p: (_double_donkey(n),) for n, p in enumerate(holders)})
        case "roll_off":
            current = state.phase
            among = current.among if isinstance(current, RollingOff) else state.players
            rolling = offer.choices.get("rolls") or among
            yield RollOff({p: 1 + n % 6 for n, p in enumerate(rolling)})


def _double_donkey(n: int) -> Card:
    """A Double Donkey of two colours (K2), another for each `n`."""
    return Card(colors=(COLORS[n % 6], COLORS[(n + 1) % 6]))
