"""A game's stored moves folded into its state, with undo (A2) and abandon (T2)
handled once for all.

Every stored move is a `Recorded`: the move as the table logged it and the events the
engine decided for it. An undo is recorded with one `MoveRetracted` event, an abandon
with one `GameAbandoned`. Folding keeps
a stack of the states after each move still in force, so an undo is a pop: the state
goes back to what it was before the retracted move, and nothing stored is ever changed.

The score sheet is folded here for every game too (`History.score_sheet`), from the
game's `sheet_start` through its `next_sheet` for each move in force.

A history may also resume from a snapshot (`History.resume`): the state in force at
some version, without the states beneath it. Such a history is truncated: an undo that
would reach below the snapshot raises `Truncated`, and whoever holds it folds the game
from its creation instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import reduce
from operator import or_
from types import GenericAlias
from typing import Any, overload

import msgspec

from domain.errors import GameFinished, RuleError
from domain.game import AnyRules, Recorded, Setup
from domain.sheet import ScoreSheet

__all__ = [
    "Abandon",
    "Codec",
    "GameAbandoned",
    "Histories",
    "History",
    "MoveRetracted",
    "Recorded",
    "Truncated",
    "Undo",
]


class Undo(msgspec.Struct, frozen=True, gc=False, tag="undo"):
    """The move that retracts the latest move still in force (A2)."""


class MoveRetracted(msgspec.Struct, frozen=True, gc=False, tag="move_retracted"):
    """The event of an undo: the move stored at `version` no longer counts."""

    version: int


class Abandon(msgspec.Struct, frozen=True, gc=False, tag="abandon"):
    """The move that ends a game where it stands, with no winners (T2); an undo
    reopens it."""


class GameAbandoned(msgspec.Struct, frozen=True, gc=False, tag="game_abandoned"):
    """The event of an abandon: the game ends here, and nobody wins."""


class Truncated(Exception):
    """The history below a snapshot is needed but not held: fold from the start."""


# The moves every game has beside its own.
TABLE_MOVES = (Undo, Abandon)
# A fold asks every stored move whether it is one of them: a look-up of its exact type
# costs a tenth of isinstance against the union (the table's moves have no subclasses).
_TABLE_MOVE_TYPES = frozenset(TABLE_MOVES)


# Cached timelines hold an entry per stored move; they form a chain, never a cycle, so
# the garbage collector need not traverse them.
class _Entry(msgspec.Struct, frozen=True, gc=False):
    version: int
    state: Any
    record: Recorded | None  # None for the game's creation
    below: _Entry | None
    abandoned: bool = False
    # A snapshot's entry: the entries below it are not held (`below` is None), and
    # `carried` is what a projection folded up to it (the score sheet).
    truncated: bool = False
    carried: Any = None


class Codec:
    """The msgspec decoders of one game's moves and stored records, built once.

    A stored row must stay readable by every later version, so the domain's moves,
    events and cards ignore fields they do not know (one the code has dropped since
    the row was written, or one a newer version running beside it added); a changed
    meaning is a new type instead, and a new field gets a default. Strictness belongs
    to the API: the service decodes request bodies through strict copies of the
    moves. The rows in `tests/domain/stored/` hold the promise: every later version
    must fold them into the same states.

    Every Struct a stored row decodes into (moves, events, cards) is `gc=False`: a
    long game is thousands of them, held by a cached timeline, and each one the
    garbage collector tracks is walked again by its every full pass (that made a
    cold load of a 5,000-move game take hundreds of milliseconds now and then). They
    are immutable and hold only names, numbers and tuples, so never a cycle. A
    record's events are a tuple for the same reason: a list would be one tracked
    object per stored move.
    """

    def __init__(self, rules: AnyRules) -> None:
        move = _union((*rules.moves, *TABLE_MOVES))
        event = _union((*rules.events, MoveRetracted, GameAbandoned))
        self.move_type = move
        self.record_type = msgspec.defstruct(
            "Recorded",
            [("move", move), ("events", GenericAlias(tuple, (event, ...)))],
            frozen=True,
            gc=False,
        )
        # Its records are of a Struct made here: typed as any game's `Recorded`.
        self.record_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(
            self.record_type
        )
        # A stored record from its JSON: the decoder's own method, with no call of
        # ours around it, since a fold makes one per stored move.
        self.record_from_json: Callable[[bytes | str], Recorded] = (
            self.record_decoder.decode
        )

    def move_from_builtins(self, data: Any) -> Any:
        """A move from builtins; msgspec.ValidationError when malformed (fields it
        does not know are ignored: a request body is checked strictly before)."""
        return msgspec.convert(data, self.move_type)


class History(msgspec.Struct, frozen=True, gc=False):
    """The state of one game after a number of stored moves (immutable).

    A Struct rather than a plain class because one is made per stored move when a
    game is folded: msgspec builds it in C. Like the entries, it is never part of a
    reference cycle, so the garbage collector need not track it.
    """

    rules: AnyRules
    setup: Setup
    version: int
    top: _Entry

    @classmethod
    def start(cls, rules: AnyRules, setup: Setup) -> History:
        """The game as created (version 1); RuleError for a set-up the rules refuse."""
        state = rules.initial_state(setup)
        return cls(rules, setup, 1, _Entry(1, state, None, None))

    @classmethod
    def resume(
        cls,
        rules: AnyRules,
        setup: Setup,
        version: int,
        held: Sequence[tuple[int, Any, Recorded | None, bool]],
        carried: Any,
    ) -> History:
        """The game at `version` from a snapshot: `held` are the (version, state,
        record, abandoned) of the top moves then in force, lowest first, and
        `carried` the score sheet at the lowest, whose record is not needed."""
        (version_0, state_0, _, abandoned_0), *above = held
        # The lowest is truncated unless it is the game's creation.
        entry = _Entry(
            version_0, state_0, None, None, abandoned_0, version_0 > 1, carried
        )
        for entry_version, state, record, abandoned in above:
            entry = _Entry(entry_version, state, record, entry, abandoned)
        return cls(rules, setup, version, entry)

    def held(self, depth: int) -> list[History]:
        """The game as it stood at each of the top `depth` moves in force (the
        latest and those an undo would go back to), lowest first; each keeps this
        history's `version`, as only its moves in force are asked of it."""
        found: list[History] = []
        entry: _Entry | None = self.top
        while entry is not None and len(found) < depth:
            found.append(History(self.rules, self.setup, self.version, entry))
            entry = entry.below
        return found[::-1]

    @property
    def state(self) -> Any:
        return self.top.state

    def base(self) -> _Entry:
        """The entry beneath every move in force: the game's creation, or the
        snapshot it resumed from (`truncated`)."""
        return _in_force(self.top)[0]

    @property
    def winners(self) -> tuple[str, ...] | None:
        """None while the game goes on (or once abandoned); the winners once it has
        ended."""
        if self.top.abandoned:
            return None
        return self.rules.outcome(self.state)

    @property
    def finished(self) -> bool:
        return self.winners is not None

    @property
    def status(self) -> str:
        """`in_progress`, `finished` or `abandoned`."""
        if self.top.abandoned:
            return "abandoned"
        return "in_progress" if self.winners is None else "finished"

    def view(self) -> msgspec.Struct:
        """The public state the table sees. Once the game was abandoned (T2) no
        move is allowed, whatever the rules would offer at that point."""
        view: msgspec.Struct = self.rules.view(self.state)
        if self.top.abandoned:
            view = msgspec.structs.replace(view, allowed=[], choices={})
        return view

    def records(self) -> list[tuple[int, Recorded]]:
        """The stored moves still in force (not retracted), oldest first, by version."""
        return [(entry.version, record) for entry, record in _in_force(self.top)[1]]

    def score_sheet(self) -> ScoreSheet:
        """The game's score sheet: its `sheet_start` at the creation (or the sheet
        a snapshot carried), then its `next_sheet` for each move in force. An
        abandon scores nothing: the game just ends."""
        base, moves = _in_force(self.top)
        rules = self.rules
        sheet: ScoreSheet = (
            base.carried if base.truncated else rules.sheet_start(base.state)
        )
        before = base.state
        for entry, record in moves:
            if not entry.abandoned:
                sheet = rules.next_sheet(sheet, before, record, entry.state)
            before = entry.state
        return sheet

    def decide(self, move: Any) -> Recorded:
        """Check `move`: the record to store, or RuleError / GameFinished."""
        if isinstance(move, Undo):
            if self.top.truncated:
                raise Truncated
            if self.top.below is None:
                raise RuleError("A2", "undo.nothing")
            return Recorded(move, (MoveRetracted(self.top.version),))
        if self.top.abandoned:
            raise GameFinished("T2", "game.abandoned")
        if self.finished:
            raise GameFinished("T2" if isinstance(move, Abandon) else "A2", "game.over")
        if isinstance(move, Abandon):
            return Recorded(move, (GameAbandoned(),))
        return Recorded(move, tuple(self.rules.decide(self.state, move)))

    def apply(self, record: Recorded) -> History:
        """The history after `record` is stored as the next version."""
        version = self.version + 1
        (top,) = _folded(self.rules.evolve, self.top, version, (record,))
        return History(self.rules, self.setup, version, top)

    def play(self, move: Any) -> tuple[Recorded, History]:
        """Decide and apply in one step (what a table, or the simulator, does)."""
        record = self.decide(move)
        return record, self.apply(record)


class Histories(Sequence[History]):
    """A game's history at every version from `start`'s on, by index from it: what a
    replay steps through and an undo goes back along.

    Only each version's top entry is held, and a `History` is made when one is asked
    for: a cold load of a long game folds thousands of stored moves, and the state
    after every one is kept. An undo's version holds the top of the entry below the
    move it retracts, as `History.apply` gives it.
    """

    __slots__ = ("_first", "_rules", "_setup", "_tops")

    def __init__(self, start: History) -> None:
        self._rules = start.rules
        self._setup = start.setup
        self._first = start.version
        self._tops = [start.top]

    def __len__(self) -> int:
        return len(self._tops)

    @overload
    def __getitem__(self, index: int) -> History: ...

    @overload
    def __getitem__(self, index: slice) -> list[History]: ...

    def __getitem__(self, index: int | slice) -> History | list[History]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._tops)))]
        top = self._tops[index]
        if index < 0:
            index += len(self._tops)
        return History(self._rules, self._setup, self._first + index, top)

    def extend(self, records: Iterable[Recorded]) -> None:
        """`records` stored as the next versions in turn; `Truncated` (and nothing
        added) when an undo among them reaches below a snapshot."""
        tops = self._tops
        version = self._first + len(tops)
        tops.extend(_folded(self._rules.evolve, tops[-1], version, records))


def _union(types: tuple[type, ...]) -> Any:
    """The union of `types`, which msgspec decodes by their tags."""
    return reduce(or_, types)


def _in_force(top: _Entry) -> tuple[_Entry, list[tuple[_Entry, Recorded]]]:
    """The entry beneath the moves in force (the game's creation, or a snapshot's),
    and the entries of those moves with their records, oldest first."""
    moves = []
    entry = top
    while entry.record is not None and entry.below is not None:
        moves.append((entry, entry.record))
        entry = entry.below
    return entry, moves[::-1]


def _folded(
    evolve: Callable[[Any, Any], Any],
    top: _Entry,
    first: int,
    records: Iterable[Recorded],
) -> list[_Entry]:
    """The top entry after each of `records`, the first stored as version `first`:
    one loop for a whole game's moves, with nothing made per move but its entry."""
    tops: list[_Entry] = []
    version = first
    for record in records:
        move = record.move
        # One check for both table moves: every other move is the game's own.
        if type(move) in _TABLE_MOVE_TYPES:
            if type(move) is Undo:  # its one event is a MoveRetracted
                if top.truncated:
                    raise Truncated
                if top.below is None:  # A2 refuses it: no stored game holds one
                    raise ValueError(f"version {version}: an undo with nothing to undo")
                top = top.below
            else:  # an abandon: the state stays, the game is over
                top = _Entry(version, top.state, record, top, abandoned=True)
        else:
            # The game's evolve, looked up once for all the moves: one call an event.
            state = top.state
            for event in record.events:
                state = evolve(state, event)
            top = _Entry(version, state, record, top)
        tops.append(top)
        version += 1
    return tops
