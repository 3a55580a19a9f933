"""One sentence per logged Double Donkey move, for people reading a replay.

The derived facts (the last die offered, the Angry Donkeys' flips, the cards' values,
who takes the Biggest Donkey and how, the roll-offs, the refills and reshuffles, the
next round's dice holder, the winners) come from the events the engine stored with
the move; the state before it gives only what was already on the table (the Hay card,
the personal piles a K9 tie compares). Players are named in seat order, colours in
the dice's order, whatever order a stored dict comes back in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.double_donkey import events as ev
from domain.double_donkey.components import COLORS, Card, Color, color_said
from domain.double_donkey.state import State
from domain.history import Recorded
from domain.wording import Clauses, Commas, Message, Names, message

# Each player's revealed cards' values (K8), in the order revealed.
Values = Mapping[str, tuple[int, ...]]
# A part of the sentence: a clause, or a list of them.
Said = Message | Clauses | Commas


def describe(before: State, record: Recorded) -> Said:
    """The sentence for a stored move; `before` is the state before it."""
    first, *rest = record.events
    said = _act(before, first)
    derived = _derived(before, first, rest)
    return (
        message("said.clauses", said=said, clauses=Clauses(derived))
        if derived
        else said
    )


def _face(color: str, pips: int) -> Message:
    """A die as the sentence names it: "the orange 5"."""
    return message("said.donkey.face", color=color_said(color), pips=pips)


def _faces(dice: Iterable[tuple[Color, int]]) -> Commas:
    """Dice as a list: "light blue 3, orange 2"."""
    return Commas(
        message("said.donkey.die", color=color_said(color), pips=pips)
        for color, pips in dice
    )


def _act(before: State, event: object) -> Said:
    """What the table logged (K4-K7, K9)."""
    match event:
        case ev.DiceRolled(player, dice):
            rolled = _faces((c, dice[c]) for c in COLORS if c in dice)
            return message("said.donkey.rolls", player=player, dice=rolled)
        case ev.DieChosen(player, color, pips):
            # K5's exception: every die rolled shows a value already there.
            again = "_again" if pips in dict(before.hay).values() else ""
            return message(
                f"said.donkey.chooses{again}", player=player, face=_face(color, pips)
            )
        case ev.LastDiePlaced(player, color, pips, rerolled=False):
            return message("said.donkey.keeps", player=player, face=_face(color, pips))
        case ev.LastDiePlaced(player, color, pips):
            return message(
                "said.donkey.rerolls", player=player, face=_face(color, pips)
            )
        case ev.CardsRevealed(cards):
            seated = _seated(before, cards)
            return Clauses(_revealed(player, cards[player]) for player in seated)
        case ev.RollOffRolled(rolls):
            rolled = Commas(
                message("said.donkey.roll", player=player, pips=rolls[player])
                for player in _seated(before, rolls)
            )
            return message("said.donkey.roll_off", rolls=rolled)
    return message("said.event", name=type(event).__name__)


def _seated(before: State, per_player: Mapping[str, object]) -> list[str]:
    return [player for player in before.players if player in per_player]


def _revealed(player: str, cards: tuple[Card, ...]) -> Message:
    """ "Fran reveals the purple Angry Donkey"; "Fran reveals nothing"."""
    if not cards:
        return message("said.donkey.reveals_nothing", player=player)
    shown = Names(card.said for card in cards)
    return message("said.donkey.reveals", player=player, cards=shown)


def _derived(before: State, first: object, rest: list[object]) -> list[Said]:
    """What the rules derive once the move is made (K6-K12), clause by clause."""
    said: list[Said] = []
    values: Values = {}
    for event in rest:
        match event:
            case ev.LastDieOffered(player, color, pips):
                face = _face(color, pips)
                said.append(message("said.donkey.left_for", face=face, player=player))
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
                said.append(message("said.donkey.reshuffled", count=count))
            case ev.CardsDrawn(player, count):
                said.append(message("said.donkey.draws", player=player, count=count))
            case ev.RoundStarted(number, holder):
                said.append(message("said.starts", starter=holder, round=number))
    if isinstance(first, ev.LastDiePlaced):
        said.append(message("said.donkey.hay", hay=_hay(before, first)))
    return said


def _ran_out(before: State, refills: Mapping[str, int]) -> list[Said]:
    """K10: a refill that takes a personal pile's last cards."""
    return [
        message("said.donkey.pile_out", player=player)
        for player in _seated(before, refills)
        if refills[player] == before.personal_pile(player)
    ]


def _hay(before: State, last: ev.LastDiePlaced) -> Commas:
    """K6: the six dice in the order they were placed."""
    return _faces((*before.hay, (last.color, last.pips)))


def _flips(
    before: State, colors: tuple[Color, ...], hay: Mapping[Color, int]
) -> Commas:
    """K7: each Angry Donkey turns its colour's die to the opposite face."""
    was = dict(before.hay)
    return Commas(
        message(
            "said.donkey.flips", color=color_said(color), was=was[color], now=hay[color]
        )
        for color in colors
    )


def _values(values: Values) -> Message:
    """K8: each revealed card's value, after the flips."""
    each = Commas(
        message(
            "said.donkey.values_of",
            player=player,
            values=Names(str(value) for value in played),
        )
        for player, played in values.items()
    )
    return message("said.donkey.values", values=each)


def _won(winners: tuple[str, ...]) -> Message:
    """K12: hand and personal pile both empty right after the reveal."""
    return message("said.donkey.won", winners=Names(winners), count=len(winners))


def _contest(before: State, values: Values) -> tuple[int, tuple[str, ...], int]:
    """K9: the highest card, the players who played it, and the fewest cards in a
    personal pile among them."""
    best = {player: max(played) for player, played in values.items()}
    top = max(best.values())
    tied = tuple(player for player in best if best[player] == top)
    return top, tied, min(before.personal_pile(player) for player in tied)


def _taken(before: State, first: object, values: Values, player: str) -> Message:
    """K9: by the single highest card, the fewest personal-pile cards, or a roll."""
    if isinstance(first, ev.RollOffRolled):
        roll = first.rolls[player]
        return message("said.donkey.taken_by_roll", player=player, roll=roll)
    top, tied, fewest = _contest(before, values)
    if len(tied) == 1:
        return message("said.donkey.taken_by_card", player=player, top=top)
    return message(
        "said.donkey.taken_by_pile",
        tied=Names(tied),
        top=top,
        player=player,
        fewest=fewest,
    )


def _roll_off(
    before: State,
    first: object,
    values: Values,
    among: tuple[str, ...],
) -> Message:
    """K9: the players still tied roll a die each (again, after a tied roll)."""
    if isinstance(first, ev.RollOffRolled):
        pips = first.rolls[among[0]]
        return message("said.donkey.roll_again", among=Names(among), pips=pips)
    top, tied, fewest = _contest(before, values)
    if tuple(among) == tied:
        return message(
            "said.donkey.roll_off_all", tied=Names(tied), top=top, fewest=fewest
        )
    return message(
        "said.donkey.roll_off_some",
        tied=Names(tied),
        top=top,
        among=Names(among),
        fewest=fewest,
    )
