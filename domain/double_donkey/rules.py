"""Double Donkey's rules: every move checked (K2, K4-K7, K9) and every consequence
derived (K7-K12), never logged by the table (A3), and what the table may log now
(`phase`, `allowed`). The ids are docs/rules.md's."""

from __future__ import annotations

from collections import Counter
from functools import reduce
from typing import Literal, TypeVar

from domain.double_donkey import events as ev
from domain.double_donkey.components import COLORS, HAND_SIZE, Card, Color, color_said
from domain.double_donkey.evolve import evolve
from domain.double_donkey.moves import Choose, LastDie, Move, Reveal, Roll, RollOff
from domain.double_donkey.scoring import (
    card_value,
    contenders,
    flip,
    flipped_colors,
    highest_rollers,
    refills,
)
from domain.double_donkey.state import (
    Choosing,
    DecidingLastDie,
    Finished,
    Revealing,
    Rolling,
    RollingOff,
    State,
)
from domain.errors import RuleError
from domain.game import Offer
from domain.wording import Message, Names, message

MoveKind = Literal["roll", "choose", "last_die", "reveal", "roll_off"]
# What the table must log next (the dice: roll, choose, last_die; the cards:
# reveal, roll_off), or `finished`.
Phase = MoveKind | Literal["finished"]
# The kinds of move each phase may offer: the one it names.
PHASES: dict[str, tuple[MoveKind, ...]] = {
    "roll": ("roll",),
    "choose": ("choose",),
    "last_die": ("last_die",),
    "reveal": ("reveal",),
    "roll_off": ("roll_off",),
    "finished": (),
}


def decide(state: State, move: Move) -> list[ev.Event]:
    if isinstance(state.phase, Finished):
        raise RuleError("K12", "game.ended")
    match move:
        case Roll():
            return _roll(state, move)
        case Choose():
            return _choose(state, move)
        case LastDie():
            return _last_die(state, move)
        case Reveal():
            return _reveal(state, move)
        case RollOff():
            return _roll_off(state, move)
    raise TypeError(f"not a Double Donkey move: {move!r}")


def expected(state: State) -> Message:
    """What the table must log next, as a sentence's main clause."""
    match state.phase:
        case Rolling(player):
            return message("donkey.next.roll", player=player)
        case Choosing(player):
            return message("donkey.next.choose", player=player)
        case DecidingLastDie(player):
            return message("donkey.next.last_die", player=player)
        case Revealing():
            return message("donkey.next.reveal")
        case RollingOff(among):
            return message("donkey.next.roll_off", players=Names(among))
    return message("donkey.next.over")


# A phase a move is logged in, and one of the dice phases, where a player acts.
Step = TypeVar("Step", Rolling, Choosing, DecidingLastDie, Revealing, RollingOff)
Dice = TypeVar("Dice", Rolling, Choosing, DecidingLastDie)

# The ruling that says what the table must log next, cited when a move comes too early
# or too late: "Fran must keep or reroll the last die (K6)".
_PHASE_RULE = {
    Rolling: "K4",
    Choosing: "K4",
    DecidingLastDie: "K6",
    Revealing: "K7",
    RollingOff: "K9",
    Finished: "K12",
}


def _in_step(
    state: State, kind: type[Step], what: Message, rule: str | None = None
) -> Step:
    """The phase, when it is `kind`; otherwise the move is refused."""
    if not isinstance(state.phase, kind):
        rule = rule or _PHASE_RULE[type(state.phase)]
        raise RuleError(rule, "donkey.not_now", what=what, expected=expected(state))
    return state.phase


def _turn(state: State, rule: str, player: str, kind: type[Dice]) -> Dice:
    """A move of the dice phase is refused unless it is `player`'s turn for it."""
    phase = _in_step(state, kind, message("donkey.cannot.act", player=player))
    if phase.player != player:
        raise RuleError(rule, "donkey.turn", player=player, expected=expected(state))
    return phase


def _roll(state: State, move: Roll) -> list[ev.Event]:
    """K4: the player rolls every die not yet on the Hay card."""
    _turn(state, "K4", move.player, Rolling)
    on_hay = state.hay_dict()
    owed = [c for c in COLORS if c not in on_hay]
    if set(move.dice) != set(owed):
        dice = Names(color_said(c) for c in owed)
        raise RuleError("K4", "donkey.dice_owed", player=move.player, dice=dice)
    for color, pips in move.dice.items():
        if not 1 <= pips <= 6:
            raise RuleError("K4", "donkey.pips", color=color_said(color), pips=pips)
    return [ev.DiceRolled(move.player, {c: move.dice[c] for c in owed})]


def _choose(state: State, move: Choose) -> list[ev.Event]:
    """K4, K5: one rolled die onto the Hay card, with a value not there yet if any."""
    rolled = dict(_turn(state, "K4", move.player, Choosing).rolled)
    if move.color not in rolled:
        raise RuleError(
            "K4", "donkey.not_rolled", player=move.player, color=color_said(move.color)
        )
    pips = rolled[move.color]
    if move.color not in choosable(state):
        raise RuleError(
            "K5",
            "donkey.hay_repeat",
            player=move.player,
            color=color_said(move.color),
            pips=pips,
        )
    events: list[ev.Event] = [ev.DieChosen(move.player, move.color, pips)]
    left = [(c, p) for c, p in rolled.items() if c != move.color]
    nxt = state.after(move.player)
    if len(left) == 1:
        events.append(ev.LastDieOffered(nxt, *left[0]))
    else:
        events.append(ev.RollPassed(nxt))
    return events


def choosable(state: State) -> tuple[Color, ...]:
    """K5: the rolled dice that may go on the Hay card, in the order rolled: those
    showing a value not on it yet, or every one when none does; `()` unless a die is
    being chosen."""
    if not isinstance(state.phase, Choosing):
        return ()
    on_hay = set(state.hay_dict().values())
    rolled = state.phase.rolled
    fresh = tuple(color for color, pips in rolled if pips not in on_hay)
    return fresh or tuple(color for color, _ in rolled)


def _last_die(state: State, move: LastDie) -> list[ev.Event]:
    """K6: the last die keeps its face or is rolled once more; any value goes."""
    phase = _turn(state, "K6", move.player, DecidingLastDie)
    if move.reroll is None:
        return [ev.LastDiePlaced(move.player, phase.color, phase.pips, rerolled=False)]
    if not 1 <= move.reroll <= 6:
        raise RuleError(
            "K6", "donkey.pips", color=color_said(phase.color), pips=move.reroll
        )
    return [ev.LastDiePlaced(move.player, phase.color, move.reroll, rerolled=True)]


def _reveal(state: State, move: Reveal) -> list[ev.Event]:
    """K7-K12: the reveal, its flips and values, then the game's end or the Biggest
    Donkey (with a roll-off first when K9 leaves a tie)."""
    _in_step(state, Revealing, message("donkey.cannot.reveal"))
    _check_reveal(state, move.cards)
    cards = {p: tuple(move.cards[p]) for p in state.players if p in move.cards}
    colors = flipped_colors(cards)
    hay = flip(state.hay_dict(), colors)
    events: list[ev.Event] = [ev.CardsRevealed(cards)]
    if colors:
        events.append(ev.DiceFlipped(colors, hay))
    values = {
        p: tuple(card_value(c, hay) for c in played) for p, played in cards.items()
    }
    events.append(ev.CardsValued(values))
    after = reduce(evolve, events, state)
    winners = tuple(
        p for p in state.players if after.hand(p) == 0 and after.personal_pile(p) == 0
    )
    if winners:
        return [*events, ev.GameWon(winners)]
    return events + _biggest_donkey(after, contenders(after, values))


def _check_reveal(state: State, cards: dict[str, tuple[Card, ...]]) -> None:
    """K7: every player holding cards reveals 1 to 3 of them, no more than they hold."""
    for player in cards:
        if player not in state.players:
            raise RuleError("K7", "player.absent", name=player)
    for player in state.players:
        count, held = len(cards.get(player, ())), state.hand(player)
        most = min(HAND_SIZE, held)
        if held and not 1 <= count <= most:
            raise RuleError(
                "K7", "donkey.reveal_count", player=player, most=most, count=count
            )
        if not held and count:
            raise RuleError("K7", "donkey.empty_hand", player=player)
    _check_cards([card for played in cards.values() for card in played])


def _check_cards(revealed: list[Card]) -> None:
    """K2: a Double Donkey's two donkeys differ, and each Angry Donkey exists once."""
    for card in revealed:
        if card.colors is not None and card.colors[0] == card.colors[1]:
            raise RuleError("K2", "donkey.no_such_card", card=card.said)
    angry = Counter(card.angry for card in revealed if card.angry is not None)
    for color, count in angry.items():
        if count > 1:
            raise RuleError(
                "K2",
                "donkey.one_angry",
                color=color_said(color),
                count=count,
            )


def _biggest_donkey(state: State, tied: tuple[str, ...]) -> list[ev.Event]:
    """K9: a single contender takes the Biggest Donkey; several roll off."""
    if len(tied) > 1:
        return [ev.RollOffCalled(tied)]
    holder = tied[0]
    events: list[ev.Event] = [ev.BiggestDonkeyTaken(holder)]
    events += refills(state, holder)
    events.append(ev.RoundStarted(state.round + 1, holder))  # K11
    return events


def _roll_off(state: State, move: RollOff) -> list[ev.Event]:
    """K9: exactly the tied players roll; the highest rollers roll again if tied."""
    phase = _in_step(state, RollingOff, message("donkey.cannot.roll_off"), rule="K9")
    if set(move.rolls) != set(phase.among):
        raise RuleError("K9", "donkey.roll_off_among", players=Names(phase.among))
    for player, pips in move.rolls.items():
        if not 1 <= pips <= 6:
            raise RuleError("K9", "donkey.roll_off_pips", player=player, pips=pips)
    rolls = {p: move.rolls[p] for p in phase.among}
    events: list[ev.Event] = [ev.RollOffRolled(rolls)]
    return events + _biggest_donkey(state, highest_rollers(phase.among, rolls))


# --- what the table may log now, for a client to offer ------------------------------


def phase(state: State) -> Phase:
    match state.phase:
        case Rolling():
            return "roll"
        case Choosing():
            return "choose"
        case DecidingLastDie():
            return "last_die"
        case Revealing():
            return "reveal"
        case RollingOff():
            return "roll_off"
    return "finished"


def allowed(state: State) -> tuple[Offer[MoveKind], ...]:
    """The one move the phase awaits, with what the rulings leave the table to
    choose: the dice a roll throws (K4), the dice a choice may take (K5), the
    players who reveal (K7) and who roll off (K9)."""
    match state.phase:
        case Rolling(player):
            owed = tuple(c for c in COLORS if c not in state.hay_dict())
            return (Offer(kind="roll", choices={"player": (player,), "dice": owed}),)
        case Choosing(player):
            colors = choosable(state)
            return (
                Offer(kind="choose", choices={"player": (player,), "color": colors}),
            )
        case DecidingLastDie(player):
            return (Offer(kind="last_die", choices={"player": (player,)}),)
        case Revealing():
            holders = tuple(p for p in state.players if state.hand(p))
            return (Offer(kind="reveal", choices={"cards": holders}),)
        case RollingOff(among):
            return (Offer(kind="roll_off", choices={"rolls": among}),)
    return ()
