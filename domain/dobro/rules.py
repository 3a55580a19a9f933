"""Dobro's rules: `decide` checks a move against the rulings and answers with events;
`phase` and `allowed` say what the table may log now, by the same checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, ParamSpec

from domain.dobro.components import (
    REVERSE,
    SKIP,
    WILD,
    Card,
    Direction,
    card_name,
    cards_name,
)
from domain.dobro.events import (
    CardsPlayed,
    Event,
    GameEnded,
    PileTaken,
    RefillForgotten,
    ReversePlayed,
    RoundDealt,
    RoundScored,
    SkipPlayed,
)
from domain.dobro.moves import ForgotRefill, Move, Play, Reverse, Skip, Take
from domain.dobro.scoring import (
    forgetful_adjustment,
    next_starter,
    rank_points,
    step,
    winners,
)
from domain.dobro.state import State, deal_size
from domain.errors import RuleError
from domain.game import Offer
from domain.wording import Message, message

MoveKind = Literal["play", "skip", "reverse", "take", "forgot_refill"]
# The arguments of a check `allowed` makes as `decide` does.
Checked = ParamSpec("Checked")
# A player's turn in a climb, or the game is over.
Phase = Literal["turn", "finished"]
# The kinds of move each phase may offer.
PHASES: dict[str, tuple[MoveKind, ...]] = {
    "turn": ("play", "skip", "reverse", "take", "forgot_refill"),
    "finished": (),
}

_FLIPPED: dict[Direction, Direction] = {
    "clockwise": "counterclockwise",
    "counterclockwise": "clockwise",
}


def decide(state: State, move: Move) -> list[Event]:
    if state.winners is not None:  # D16: the last round is scored, the game is over
        raise RuleError("D16", "game.ended")
    match move:
        case ForgotRefill():
            _seat(state, move.player)  # anyone, any time in the round, no turn (D12)
            return [RefillForgotten(move.player)]
        case Play():
            return _play(state, _turn(state, move.player), move)
        case Take():
            return _take(state, _turn(state, move.player))
        case Skip():
            return _special(state, _turn(state, move.player), SKIP)
        case Reverse():
            return _special(state, _turn(state, move.player), REVERSE)
    raise TypeError(f"not a Dobro move: {move!r}")


def _seat(state: State, name: str) -> int:
    if name not in state.table.players:
        raise RuleError("D3", "player.absent", name=name)
    return state.table.players.index(name)


def _turn(state: State, name: str) -> int:
    seat = _seat(state, name)
    if seat != state.next_player:
        expected = state.table.players[state.next_player]
        raise RuleError("D8", "turn.other", expected=expected, name=name)
    return seat


# --- playing cards (D7-D11) ---------------------------------------------------------


def _play(state: State, seat: int, move: Play) -> list[Event]:
    _check_cards(state, seat, move.cards)
    total = _face_value(state, move) * len(move.cards)
    value = _climb(state, move, total)
    if move.announced is not None and move.announced != value:
        raise RuleError(
            "D10",
            "dobro.announced",
            player=move.player,
            announced=move.announced,
            value=value,
        )
    refill, next_seat = _after_turn(state, seat, len(move.cards), state.direction)
    played = CardsPlayed(
        move.player,
        move.cards,
        move.wild_as,
        value,
        refill,
        _name(state, next_seat),
    )
    return _with_round_end(state, played, seat, next_seat, state.direction)


def _check_cards(state: State, seat: int, cards: tuple[Card, ...]) -> None:
    if SKIP in cards or REVERSE in cards:
        raise RuleError("D9", "dobro.specials_in_play")
    _check_hand(state, seat, len(cards))
    for card in set(cards):
        _check_available(state, card, cards.count(card))


def _check_hand(state: State, seat: int, count: int) -> None:
    held = state.hand_sizes[seat]
    if count > held:
        name = state.table.players[seat]
        raise RuleError("D11", "dobro.hand", name=name, count=held, wanted=count)


def _check_available(state: State, card: Card, count: int) -> None:
    """D1: no more of a card than the deck holds; D5: none that left the game."""
    deck = state.table.deck
    if deck.removed_count(card):
        raise RuleError("D5", "dobro.out_of_game", cards=cards_name(card))
    in_deck = deck.count(card)
    if in_deck == 0:
        raise RuleError(
            "D1",
            "dobro.deck_lacks",
            edition=state.table.edition,
            cards=cards_name(card),
        )
    if state.played_of(card) + count > in_deck:
        raise RuleError("D1", "dobro.deck_spent", count=in_deck, cards=cards_name(card))


def _face_value(state: State, move: Play) -> int:
    """D9: the value each card of the play counts for."""
    numbered = [card for card in move.cards if isinstance(card, int)]
    if len(numbered) == len(move.cards):
        if move.wild_as is not None:
            raise RuleError("D9", "dobro.wild_as_without_wild")
        if len(numbered) == 2 and numbered[0] != numbered[1]:
            a, b = numbered
            raise RuleError("D9", "dobro.pair", a=a, b=b)
        return numbered[0]
    if numbered:
        value = numbered[0]
        if move.wild_as not in (None, value):
            raise RuleError(
                "D9", "dobro.wild_with_number", value=value, wild_as=move.wild_as
            )
        return value
    return _declared_wild(state, move.wild_as)


def _declared_wild(state: State, wild_as: int | None) -> int:
    low, high = state.table.deck.wild_low, state.table.deck.wild_high
    if wild_as is None:
        raise RuleError("D9", "dobro.wild_unsaid", low=low, high=high)
    if not low <= wild_as <= high:
        raise RuleError("D9", "dobro.wild_range", low=low, high=high, wild_as=wild_as)
    return wild_as


def _climb(state: State, move: Play, total: int) -> int:
    """D7: an opening sets the value; D8: otherwise at least c, and c doubles."""
    current = state.value_in_play
    if current is None:
        return total
    if total < current:
        if WILD in move.cards:
            raise RuleError(
                "D8",
                "dobro.wild_too_low",
                play=_wild_play(move, total),
                current=current,
            )
        shown = " + ".join(str(card) for card in move.cards)
        played = shown if len(move.cards) == 1 else f"{shown} ({total})"
        raise RuleError(
            "D8", "dobro.too_low", player=move.player, played=played, current=current
        )
    return 2 * current if total == current else total


def _wild_play(move: Play, total: int) -> Message:
    """A play with a wild as a player says it, with what the wild counts as (D9):
    "A wild declared as 3", "Two wilds declared as 3 (6)", "3 + a wild as 3 (6)"."""
    numbered = [card for card in move.cards if isinstance(card, int)]
    if numbered:
        declared = "declared" if move.wild_as is not None else "paired"
        return message(f"dobro.play.wild_{declared}", value=numbered[0], total=total)
    if len(move.cards) == 2:
        return message("dobro.play.two_wilds", value=move.wild_as, total=total)
    return message("dobro.play.wild", value=move.wild_as)


def _after_turn(
    state: State, seat: int, count: int, direction: Direction
) -> tuple[int, int | None]:
    """D11: the refill from the draw pile; the next seat, or None when the hand is
    empty with the draw pile empty (D13)."""
    hand = state.hand_sizes[seat] - count
    refill = min(state.table.hand_size - hand, state.draw_pile_size)
    if hand + refill == 0:
        return 0, None
    return refill, (seat + step(direction)) % len(state.table.players)


def _name(state: State, seat: int | None) -> str | None:
    return None if seat is None else state.table.players[seat]


# --- Skip, Reverse, take (D7, D8) ---------------------------------------------------


def _check_special(state: State, seat: int, card: Card) -> None:
    _check_hand(state, seat, 1)
    _check_available(state, card, 1)
    if state.value_in_play is None and state.draw_pile_size > 0:
        raise RuleError("D7", "dobro.special_opens", card=card_name(card))


def _special(state: State, seat: int, card: Card) -> list[Event]:
    _check_special(state, seat, card)
    player = state.table.players[seat]
    direction = _FLIPPED[state.direction] if card == REVERSE else state.direction
    refill, next_seat = _after_turn(state, seat, 1, direction)
    nxt = _name(state, next_seat)
    if card == REVERSE:
        event: Event = ReversePlayed(player, direction, refill, nxt)
    else:
        event = SkipPlayed(player, refill, nxt)
    return _with_round_end(state, event, seat, next_seat, direction)


def _take(state: State, seat: int) -> list[Event]:
    player = state.table.players[seat]
    if state.value_in_play is None:
        raise RuleError("D7", "dobro.nothing_to_take", player=player)
    return [PileTaken(player, len(state.cards_in_play))]


# --- what the table may log now, for a client to offer ----------------------------


def phase(state: State) -> Phase:
    return "finished" if state.winners is not None else "turn"


def allowed(state: State) -> tuple[Offer[MoveKind], ...]:
    """The moves some hand could make now, by the checks `decide` makes: the next
    player's, with the values of the cards they may play, and D12's
    `forgot_refill`, which anyone may log in the round. The service sees no hand,
    so a move is offered when the deck leaves it possible."""
    if state.winners is not None:
        return ()
    seat = state.next_player
    player = {"player": (state.table.players[seat],)}
    offers: list[Offer[MoveKind]] = []
    if playable := _playable(state, seat):
        offers.append(Offer(kind="play", choices={**player, "cards": playable}))
    specials: tuple[tuple[MoveKind, Card], ...] = (("skip", SKIP), ("reverse", REVERSE))
    for kind, card in specials:
        if _passes(_check_special, state, seat, card):
            offers.append(Offer(kind=kind, choices=player))
    if state.value_in_play is not None:  # D7: only a climb under way can be taken
        offers.append(Offer(kind="take", choices=player))
    anyone = {"player": state.table.players}
    return (*offers, Offer(kind="forgot_refill", choices=anyone))


def _playable(state: State, seat: int) -> tuple[Card, ...]:
    """The cards (numbered values, and the wild) of the plays still in the deck (D1,
    D5) that reach the value in play (D8): a single card, a pair, or a card with a
    wild, which counts at most the top of its range (D9)."""
    need = state.value_in_play or 0
    high = state.table.deck.wild_high
    faces = [card for card in state.table.deck.kinds if card not in (SKIP, REVERSE)]
    plays: list[tuple[tuple[Card, ...], int]] = []
    for card in faces:
        value = high if card == WILD else int(card)
        plays += [((card,), value), ((card, card), 2 * value)]
        if card != WILD:
            plays.append(((card, WILD), 2 * value))
    reaching = [
        cards
        for cards, total in plays
        if total >= need and _passes(_check_cards, state, seat, cards)
    ]
    return tuple(card for card in faces if any(card in cards for cards in reaching))


def _passes(
    check: Callable[Checked, None], *args: Checked.args, **kwargs: Checked.kwargs
) -> bool:
    """Whether `check` finds nothing the rules refuse."""
    try:
        check(*args, **kwargs)
    except RuleError:
        return False
    return True


# --- end of a round (D13-D17) -------------------------------------------------------


def _with_round_end(
    state: State,
    event: Event,
    seat: int,
    next_seat: int | None,
    direction: Direction,
) -> list[Event]:
    if next_seat is not None:
        return [event]
    return [event, *_round_end(state, seat, direction)]


def _round_end(state: State, emptied: int, direction: Direction) -> list[Event]:
    """D13: the round ends; D14/D15 score it; D17 or D16 follow."""
    table = state.table
    players = table.players
    ranks = rank_points(state.score_piles, table.scoring)
    adjustment = forgetful_adjustment(table.scoring)
    points = tuple(
        rank + (adjustment if seat == state.forgetful else 0)
        for seat, rank in enumerate(ranks)
    )
    totals = tuple(a + b for a, b in zip(state.totals, points, strict=True))
    scored = RoundScored(
        round=state.round,
        emptied_by=players[emptied],
        score_piles=dict(zip(players, state.score_piles, strict=True)),
        rank_points=dict(zip(players, ranks, strict=True)),
        forgetful=_name(state, state.forgetful),
        forgetful_adjustment=adjustment if state.forgetful is not None else 0,
        points=dict(zip(players, points, strict=True)),
        totals=dict(zip(players, totals, strict=True)),
    )
    if state.round == table.rounds:
        won = winners(totals, state.score_piles, table.scoring)
        return [scored, GameEnded(tuple(players[seat] for seat in won))]
    starter = next_starter(totals, table.scoring, emptied, direction)
    return [scored, RoundDealt(state.round + 1, players[starter], deal_size(table))]
