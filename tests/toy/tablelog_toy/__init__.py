"""Nim, as a game's plug-in defines it: a pile of matches, each player in turn
takes 1 to 3 of them, and whoever takes the last one wins.

Everything a game gives the registry is here, in one module because the game is
small: options, moves, events, state, the Decider, what the table may log now, the
public view, the score sheet, the sentences in both languages, a picture of the
table and a seeded virtual table, gathered by the class `Nim` (`domain.game.Rules`),
with the page's module beside it (`page.js`). `NIM` is what the distribution's
entry point names (`tablelog.games`: `nim = "tablelog_toy:NIM"`); its rulings are
N1 (the set-up) and N2 (a pick).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from importlib.resources import files
from typing import Annotated, Literal

import msgspec

from domain.errors import RuleError
from domain.game import Offer, Recorded, Rules, Setup, choices, kinds
from domain.picture import TOP, Label, Scene
from domain.rematch import next_seat
from domain.setup import decoded_options, first_player, seated
from domain.sheet import RoundLine, ScoreSheet
from domain.wording import Language, Message, Words, message


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    matches: Annotated[int, msgspec.Meta(ge=5, le=50)] = 15


class Pick(msgspec.Struct, frozen=True, tag="pick"):
    player: str
    count: int


class Picked(msgspec.Struct, frozen=True, tag="picked"):
    player: str
    count: int


class Won(msgspec.Struct, frozen=True, tag="won"):
    player: str


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    next: int
    matches: int
    winner: str | None = None


Kind = Literal["pick"]
Phase = Literal["pick", "finished"]


class NimView(msgspec.Struct, frozen=True, kw_only=True):
    game: Literal["nim"] = "nim"
    phase: Phase
    matches: int
    next_player: str | None
    winners: list[str]
    allowed: list[Kind] = []
    choices: dict[Kind, dict[str, list[int | str]]] = {}


def initial_state(setup: Setup) -> State:
    players = seated(setup, "Nim", 2, 3, "N1")
    first = first_player(setup, players, "N1")
    options = decoded_options(setup, Options, {"matches": "N1"}, "Nim")
    return State(players, players.index(first), options.matches)


def decide(state: State, move: Pick) -> list[Picked | Won]:
    if move.player != state.players[state.next]:
        expected = state.players[state.next]
        raise RuleError("N2", "turn.other", expected=expected, name=move.player)
    if not 1 <= move.count <= min(3, state.matches):
        raise RuleError("N2", "nim.count", most=min(3, state.matches))
    picked = Picked(move.player, move.count)
    return [picked, Won(move.player)] if move.count == state.matches else [picked]


def evolve(state: State, event: Picked | Won) -> State:
    if isinstance(event, Won):
        return msgspec.structs.replace(state, winner=event.player)
    following = (state.next + 1) % len(state.players)
    return msgspec.structs.replace(
        state, next=following, matches=state.matches - event.count
    )


def is_terminal(state: State) -> bool:
    return state.winner is not None


def phase(state: State) -> Phase:
    return "pick" if state.winner is None else "finished"


def allowed(state: State) -> tuple[Offer[Kind], ...]:
    if state.winner is not None:
        return ()
    counts = tuple(range(1, min(3, state.matches) + 1))
    player = state.players[state.next]
    return (Offer(kind="pick", choices={"player": (player,), "count": counts}),)


def examples(state: State, offer: Offer[str]) -> Iterator[Pick]:
    for player in offer.choices.get("player") or state.players:
        for count in offer.choices.get("count") or (1, 2, 3):
            yield Pick(player, count)


def view(state: State) -> NimView:
    over = state.winner is not None
    offers = allowed(state)
    return NimView(
        phase=phase(state),
        matches=state.matches,
        next_player=None if over else state.players[state.next],
        winners=[state.winner] if state.winner is not None else [],
        allowed=kinds(offers),
        choices=choices(offers),
    )


def outcome(state: State) -> tuple[str, ...] | None:
    return None if state.winner is None else (state.winner,)


def sheet_start(state: State) -> ScoreSheet:
    return _sheet(state)


def next_sheet(
    sheet: ScoreSheet, before: State, record: Recorded, after: State
) -> ScoreSheet:
    return _sheet(after) if after.winner != before.winner else sheet


def _sheet(state: State) -> ScoreSheet:
    points = {name: int(name == state.winner) for name in state.players}
    over = state.winner is not None
    return ScoreSheet(
        game="nim",
        players=list(state.players),
        rounds=[RoundLine(round=1, points=points)] if over else [],
        totals=points,
        winners=[state.winner] if state.winner is not None else [],
        finished=over,
    )


def describe(before: State, record: Recorded) -> Message:
    picked = record.events[0]
    return message("said.nim.picks", player=picked.player, count=picked.count)


def picture(view: NimView, language: Language) -> Scene:
    left = language.say(message("picture.nim.left", count=view.matches))
    return Scene((), view.next_player, (Label(24, TOP + 40, left, 24),))


def simulate(setup: Setup) -> Iterator[Pick]:
    rng = random.Random(setup.seed)
    state = initial_state(setup)
    while state.winner is None:
        move = Pick(state.players[state.next], rng.randint(1, min(3, state.matches)))
        yield move
        for event in decide(state, move):
            state = evolve(state, event)


LABELS = {"en": "Nim", "fr": "Nim"}
WORDS: Words = {
    "en": {
        "nim.count": "Take from 1 to {most} matches.",
        "said.nim.picks": {
            "one": "{player} takes {count} match",
            "other": "{player} takes {count} matches",
        },
        "picture.nim.left": {
            "one": "{count} match left",
            "other": "{count} matches left",
        },
    },
    "fr": {
        "nim.count": "Prenez de 1 à {most} allumettes.",
        "said.nim.picks": {
            "one": "{player} prend {count} allumette",
            "other": "{player} prend {count} allumettes",
        },
        "picture.nim.left": {
            "one": "{count} allumette restante",
            "other": "{count} allumettes restantes",
        },
    },
}
PHASES: dict[str, tuple[Kind, ...]] = {"pick": ("pick",), "finished": ()}


class Nim:
    """Nim's rules: each part of `domain.game.Rules`."""

    name = "nim"
    labels = LABELS
    family = "nim"
    min_players, max_players = 2, 3
    options = Options
    moves = (Pick,)
    events: tuple[type[Picked | Won], ...] = (Picked, Won)
    phases = PHASES
    words = WORDS
    sheet_type = ScoreSheet
    page = files(__name__) / "page.js"

    initial_state = staticmethod(initial_state)
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)
    is_terminal = staticmethod(is_terminal)
    phase = staticmethod(phase)
    allowed = staticmethod(allowed)
    view = staticmethod(view)
    outcome = staticmethod(outcome)
    # Nim's rules say nothing of who opens the next game (T4).
    rematch_first_player = staticmethod(next_seat)
    sheet_start = staticmethod(sheet_start)
    next_sheet = staticmethod(next_sheet)
    describe = staticmethod(describe)
    picture = staticmethod(picture)
    simulate = staticmethod(simulate)
    examples = staticmethod(examples)


NIM: Rules[State, Pick, Picked | Won, NimView, ScoreSheet] = Nim()
