"""The shape every game shares: a Decider, and what a table needs around it.

A game is a `Rules`: a typed protocol, generic over the game's own State, Move, Event,
public View and score Sheet, which each game's package implements as a class and the
type checker holds it to (`mypy --strict domain`, a test). Its core is Chassaing's
Decider:

- `initial_state(setup)`: the first deal, from the table's set-up (a `RuleError` for
  one the rules refuse);
- `decide(state, move) -> events`: every rule lives here; a refused move raises a
  `RuleError` naming its ruling;
- `evolve(state, event) -> state`: total, and no rule of its own;
- `is_terminal(state)`: the game is over (its winners are known).

Around it, what a table needs: the `phase` the game is in (what the table logs next),
the moves it may log now (`allowed`: each kind of move, with the choices the rules
leave it, `Offer`), the public `view` and the `outcome`, and who opens the game
played again after it (`rematch_first_player`); the score sheet as one fold
(`sheet_start`, then `next_sheet` for each stored move: `domain.history` folds it for
every game); a sentence for each stored move (`describe`) and a picture of the table
(`picture`); a seeded virtual table that plays whole legal games (`simulate`), and
moves to try against the rules (`examples`). Its metadata say what the service names
and hosts: its name, family, labels, players, options, moves, events, phases and
words, and its module for the web page (`page`, a file of its package).

`domain.registry` lists the games: everything else (the service, the projections,
the page through `GET /games/kinds`) asks it, never names a game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib.resources.abc import Traversable
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from domain.picture import Scene
from domain.sheet import ScoreSheet
from domain.wording import Language, Said, Words

State = TypeVar("State")
Move = TypeVar("Move")
Event = TypeVar("Event")
View = TypeVar("View", bound=msgspec.Struct)
Sheet = TypeVar("Sheet", bound=ScoreSheet)
# A game's kinds of move, its moves' tags (a `Literal` of them).
Kind = TypeVar("Kind", bound=str, covariant=True)
Kinds = TypeVar("Kinds", bound=str)


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """What the table settles before the first move (stored at creation)."""

    players: tuple[str, ...]
    first_player: str
    seed: int
    options: dict[str, Any] = {}


class StoredSetup(Setup, frozen=True, kw_only=True):
    """A set-up as a stored game holds it, which the rules took when the game was
    created: folding the game again does not judge its players' names again
    (`domain.setup.seated`). Later versions read names more finely (`domain.names`),
    and a game stored before must stay readable even if its names would now be one
    player's."""


def draw_first_player(players: Sequence[str], seed: int) -> str:
    """D4 (and Z3, K3): without a named first player, the game's seed picks one."""
    return random.Random(seed).choice(list(players))


class Recorded(msgspec.Struct, frozen=True, gc=False):
    """One stored move: what was logged and what the engine derived from it."""

    move: Any
    # A tuple, not a list: a tuple of untracked Structs is untracked too, so the
    # moves a cached timeline holds cost the garbage collector nothing to walk.
    events: tuple[Any, ...]


class Offer(msgspec.Struct, Generic[Kind], frozen=True, kw_only=True):
    """A kind of move the table may log now: its wire `type` (`kind`), and for each
    field of the move whose values the rules restrict now, the values they allow
    (the player whose turn it is, the card values still in the deck, the piles a
    card may go to). For a field holding several values (a play's cards, a roll's
    dice by colour) the choices are those its items or keys may take. A field left
    out is free, or stated by the table (a card drawn, a die rolled); one the rules
    fill when the move leaves it out (the starter they name) may be left out too."""

    kind: Kind
    choices: dict[str, tuple[Any, ...]] = {}


def kinds(offers: Iterable[Offer[Kinds]]) -> list[Kinds]:
    """The kinds of move offered, as a view's `allowed` lists them."""
    return [offer.kind for offer in offers]


def choices(offers: Iterable[Offer[Kinds]]) -> dict[Kinds, dict[str, list[Any]]]:
    """The choices of each kind of move offered, as a view's `choices` shows them
    (kinds the rules leave free are left out)."""
    return {
        offer.kind: {name: list(values) for name, values in offer.choices.items()}
        for offer in offers
        if offer.choices
    }


class Rules(Protocol[State, Move, Event, View, Sheet]):
    """One game's Decider and what the service needs to host it.

    `moves` and `events` are the game's msgspec tagged Structs (their tags are the
    wire `type`s); `options` a Struct with `forbid_unknown_fields=True` whose
    defaults are the game's defaults; `phases` each phase the game can be in (the
    last is `finished`) and the kinds of move it may offer; `words` the game's own
    refusals and sentences in every language (`domain.wording`: the catalogue of a
    language is the shared words and those of the games registered).
    """

    # --- what the service names and hosts -----------------------------------------

    @property
    def name(self) -> str: ...

    # The game's name as players read it, by language code ("en", "fr").
    @property
    def labels(self) -> Mapping[str, str]: ...

    # The game this is an edition of (`dobro` for `dobro-pixar`); its own name if none.
    @property
    def family(self) -> str: ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def options(self) -> type[msgspec.Struct]: ...

    @property
    def moves(self) -> tuple[type[Move], ...]: ...

    @property
    def events(self) -> tuple[type[Event], ...]: ...

    @property
    def phases(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def words(self) -> Words: ...

    # The Struct of the game's score sheet, for the OpenAPI document and snapshots.
    @property
    def sheet_type(self) -> type[Sheet]: ...

    # The game's module for the web page, a file of its package (`page.js`): a
    # JavaScript module that draws its state, enters its moves and holds its words in
    # every language (service/http/web/games.js says what it gives). The editions of
    # a game share theirs; the service serves it as `/app/games/<family>.js`.
    @property
    def page(self) -> Traversable: ...

    # --- the Decider ----------------------------------------------------------------

    def initial_state(self, setup: Setup) -> State: ...

    def decide(self, state: State, move: Move) -> Sequence[Event]: ...

    def evolve(self, state: State, event: Event) -> State: ...

    def is_terminal(self, state: State) -> bool: ...

    # --- what a table sees ----------------------------------------------------------

    def phase(self, state: State) -> str:
        """What the table logs next, or `finished`: the view's `phase`."""
        ...

    def allowed(self, state: State) -> tuple[Offer[str], ...]:
        """The moves the table may log now, as concretely as the rules say them;
        none once the game is over. `undo` and `abandon` are every game's."""
        ...

    def view(self, state: State) -> View: ...

    def outcome(self, state: State) -> tuple[str, ...] | None:
        """The winners once the game is over; None before."""
        ...

    def rematch_first_player(self, setup: Setup, state: State) -> str | None:
        """Who opens the game played again after the game set up so, which ended
        in `state` (`domain.rematch`, T4): one of its players, or None where the
        rulebook draws the first player of each game (then the new game's seed
        draws them, D4). A rulebook that says nothing of it gets
        `domain.rematch.next_seat`."""
        ...

    # --- the score sheet, folded one stored move at a time --------------------------

    def sheet_start(self, state: State) -> Sheet:
        """The sheet of the game as created."""
        ...

    def next_sheet(
        self, sheet: Sheet, before: State, record: Recorded, after: State
    ) -> Sheet:
        """The sheet once the game's own move `record` is stored, `before` and
        `after` the states around it: `sheet` itself when it scored nothing."""
        ...

    # --- for people -----------------------------------------------------------------

    def describe(self, before: State, record: Recorded) -> Said:
        """The sentence a replay shows for a stored move, built from `record` (the
        move as logged and the events stored with it) and `before`, the state
        before it, for what was already on the table. It never decides the move
        again: the log is the truth."""
        ...

    def picture(self, view: View, language: Language) -> Scene:
        """What a picture of a replay step shows of the table, from the public
        view alone; the frame around it is shared (`domain.frame`)."""
        ...

    # --- for tests ------------------------------------------------------------------

    def simulate(self, setup: Setup) -> Iterator[Move]:
        """A seeded virtual table's whole legal game: only the moves a real table
        would log."""
        ...

    def examples(self, state: State, offer: Offer[str]) -> Iterator[Move]:
        """Moves of `offer`'s kind to try against the rules: some for each of its
        choices, with what the table states (a card drawn, a die rolled) one the
        service could not tell false. Without choices, the kind's moves wherever
        the rules could allow them. The contract suite decides them: a kind offered
        none of whose moves the rules accept, or one left out that they accept, is
        a fault of `allowed`."""
        ...


# A game of any types, as the registry and the service hold them.
AnyRules = Rules[Any, Any, Any, Any, Any]
