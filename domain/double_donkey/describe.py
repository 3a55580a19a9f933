"""One sentence per logged Double Donkey move, for people reading a replay.

The derived facts (the last die offered, the Angry Donkeys' flips, the cards' values,
who takes the Biggest Donkey and how, the roll-offs, the refills and reshuffles, the
next round's dice holder, the winners) come from the events the engine stored with
the move; the state before it gives only what was already on the table (the Hay card,
the personal piles a K9 tie compares). Players are named in seat order, colours in
the dice's order, whatever order a stored dict comes back in.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.double_donkey import events as ev
from domain.double_donkey.components import COLORS, Card, label
from domain.double_donkey.state import State
from domain.history import Recorded

# Each player's revealed cards' values (K8), in the order revealed.
Values = Mapping[str, tuple[int, ...]]


def describe(before: State, record: Recorded) -> str:
    """The sentence for a stored move; `before` is the state before it."""
    first, *rest = record.events
    said = _act(before, first)
    derived = _derived(before, first, rest)
    return f"{said}: {'; '.join(derived)}" if derived else said


def _act(before: State, event: object) -> str:
    """What the table logged (K4-K7, K9)."""
    match event:
        case ev.DiceRolled(player, dice):
            return f"{player} rolls {_dice(dice)}"
        case ev.DieChosen(player, color, pips):
            said = f"{player} puts the {label(color)} {pips} on the Hay card"
            if pips in dict(before.hay).values():  # K5's exception
                said += ", as every die rolled shows a value already there"
            return said
        case ev.LastDiePlaced(player, color, pips, rerolled=False):
            return f"{player} keeps the last die, the {label(color)} {pips}"
        case ev.LastDiePlaced(player, color, pips):
            return f"{player} rerolls the last die: the {label(color)} {pips}"
        case ev.CardsRevealed(cards):
            seated = _seated(before, cards)
            return "; ".join(_revealed(player, cards[player]) for player in seated)
        case ev.RollOffRolled(rolls):
            return "Roll-off: " + ", ".join(
                f"{player} {rolls[player]}" for player in _seated(before, rolls)
            )
    return type(event).__name__


def _dice(dice: Mapping[str, int]) -> str:
    return ", ".join(f"{label(c)} {dice[c]}" for c in COLORS if c in dice)


def _seated(before: State, per_player: Mapping[str, object]) -> list[str]:
    return [player for player in before.players if player in per_player]


def _revealed(player: str, cards: tuple[Card, ...]) -> str:
    """ "Fran reveals the purple Angry Donkey"; "Fran reveals nothing"."""
    if not cards:
        return f"{player} reveals nothing"
    return f"{player} reveals {_names(tuple(str(card) for card in cards))}"


def _derived(before: State, first: object, rest: list[object]) -> list[str]:
    """What the rules derive once the move is made (K6-K12), clause by clause."""
    said: list[str] = []
    values: Values = {}
    for event in rest:
        match event:
            case ev.LastDieOffered(player, color, pips):
                said.append(f"the {label(color)} {pips} is left for {player}")
            case ev.DiceFlipped(colors, hay):
                said.append(_flips(before, colors, hay))
            case ev.CardsValued(valued):
                values = {p: valued[p] for p in _seated(before, valued) if valued[p]}
                said.append(_values(values))
            case ev.GameWon(winners):
                said.append(_won(winners))
            case ev.RollOffCalled(among):
                said.append(_roll_off(before, first, values, among))
            case ev.BiggestDonkeyTaken(player):
                said.append(_taken(before, first, values, player))
            case ev.HandsRefilled(cards):
                said += _ran_out(before, cards)
            case ev.DiscardReshuffled(count):
                said.append(
                    f"the discard pile's {count} cards are shuffled into a new "
                    "draw pile"
                )
            case ev.CardsDrawn(player, count):
                cards = "card" if count == 1 else "cards"
                said.append(f"{player} draws {count} {cards} from the draw pile")
            case ev.RoundStarted(number, holder):
                said.append(f"{holder} starts round {number}")
    if isinstance(first, ev.LastDiePlaced):
        said.append(f"the Hay card shows {_hay(before, first)}")
    return said


def _ran_out(before: State, refills: Mapping[str, int]) -> list[str]:
    """K10: a refill that takes a personal pile's last cards."""
    return [
        f"{player}'s personal pile runs out"
        for player in _seated(before, refills)
        if refills[player] == before.personal_pile(player)
    ]


def _hay(before: State, last: ev.LastDiePlaced) -> str:
    """K6: the six dice in the order they were placed."""
    placed = (*before.hay, (last.color, last.pips))
    return ", ".join(f"{label(color)} {pips}" for color, pips in placed)


def _flips(before: State, colors: tuple[str, ...], hay: Mapping[str, int]) -> str:
    """K7: each Angry Donkey turns its colour's die to the opposite face."""
    was = dict(before.hay)
    return ", ".join(
        f"the {label(color)} die flips from {was[color]} to {hay[color]}"
        for color in colors
    )


def _values(values: Values) -> str:
    """K8: each revealed card's value, after the flips."""
    return "values: " + ", ".join(
        f"{player} {_names(tuple(str(value) for value in played))}"
        for player, played in values.items()
    )


def _won(winners: tuple[str, ...]) -> str:
    """K12: hand and personal pile both empty right after the reveal."""
    if len(winners) == 1:
        return f"the game ends: {winners[0]} has no card left and wins"
    return f"the game ends: {_names(winners)} have no card left and share the victory"


def _contest(before: State, values: Values) -> tuple[int, tuple[str, ...], int]:
    """K9: the highest card, the players who played it, and the fewest cards in a
    personal pile among them."""
    best = {player: max(played) for player, played in values.items()}
    top = max(best.values())
    tied = tuple(player for player in best if best[player] == top)
    return top, tied, min(before.personal_pile(player) for player in tied)


def _taken(before: State, first: object, values: Values, player: str) -> str:
    """K9: by the single highest card, the fewest personal-pile cards, or a roll."""
    said = f"{player} takes the Biggest Donkey"
    if isinstance(first, ev.RollOffRolled):
        return f"{said} with the highest roll ({first.rolls[player]})"
    top, tied, fewest = _contest(before, values)
    if len(tied) == 1:
        return f"{said} with the highest card ({top})"
    return (
        f"{_names(tied)} tie at {top}, {said} with the fewest cards in a personal "
        f"pile ({fewest})"
    )


def _roll_off(
    before: State,
    first: object,
    values: Values,
    among: tuple[str, ...],
) -> str:
    """K9: the players still tied roll a die each (again, after a tied roll)."""
    if isinstance(first, ev.RollOffRolled):
        return f"{_names(among)} tie at {first.rolls[among[0]]} and roll again"
    top, tied, fewest = _contest(before, values)
    rolling = "they roll off for the Biggest Donkey"
    if tuple(among) == tied:
        return (
            f"{_names(tied)} tie at {top} with {fewest} cards in their personal "
            f"piles: {rolling}"
        )
    return (
        f"{_names(tied)} tie at {top}, {_names(among)} have the fewest cards in a "
        f"personal pile ({fewest}): {rolling}"
    )


def _names(names: tuple[str, ...]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
