"""Games in and out of the service: NDJSON export and import, and BG Stats results.

The export format (docs/api.md) is one JSON object per line: the game's creation as
stored (version 1: game, players, first player, seed, options, title, ...), then every
stored move in order, exactly as it was logged (an undo is `{"type": "undo"}`), each
line ending with the time it was logged (`logged_at`). An import plays every move
through the engine, like a table logging them one by one, and is refused whole, naming
the line and the ruling, at the first one the rules refuse; an accepted file becomes a
new game (new id, new write token) stored in one transaction, each row keeping the
time its line gave. After the moves come the notes on them (`note` and
`note_withdrawn` lines, as the API writes and withdraws them), imported with the game
and checked as the API checks them.

A game is what its play is: its set-up (the game, its players as `domain.names` reads
them, its first player, its seed, its options as the game reads them) and its moves.
A file whose set-up is a stored game's and whose moves are that game's, or the first
of them (an export taken before the game went on), is that game, whoever stored it
and however (created over the API, a variation, an import): it is refused (Duplicate,
naming the game) and stores nothing, so no game is counted, or rated, twice. What
the play does not hold does not make another game: the title, date, place, notes and
group, the times lines were logged, the notes on the moves.

The BG Stats answer follows the app's "push plays" format, documented at
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/
(players with name, score, winner, startPlayer and rank; the game with highestWins and
noPoints; playDate as "YYYY-MM-DD HH:MM:SS").
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, TypeVar

import msgspec
from msgspec import Meta

from domain.creation import GAME_CREATED, GameCreated
from domain.errors import GameFinished, RuleError
from domain.game import Rules
from domain.history import History, Recorded
from domain.names import normal_name
from domain.registry import Registry
from projections.scoresheet import score_sheet
from service.application import strict_json
from service.application.creating import (
    LOGGED_AT,
    InGroup,
    NewGame,
    check_moment,
    logged_at,
)
from service.application.errors import Conflict, Invalid, Refused, TooLarge
from service.application.games import Games
from service.application.moves import MoveBodies
from service.application.notes import (
    MAX_NOTE_ENTRIES,
    NoteLine,
    NoteWithdrawnLine,
    entry_of,
    line_of,
)
from service.application.submitting import MAX_MOVES
from service.application.visibility import ANYONE, Viewer, Visibility, removed
from service.application.wording import in_english
from service.storage.notes import NoteEntry
from service.storage.store import GameRow, SameGame, StoredEvent

T = TypeVar("T")

# Each export line's time: when it was logged at the table, with its offset, under
# the name the stored rows give it. Files written by earlier releases name it
# `recorded_at`, which an import reads the same.
EARLIER_NAME = "recorded_at"
LoggedTime = Annotated[datetime, Meta(tz=True)]

# How far past the import's own time a line may say it was logged: the clock of the
# device that logged it may have been ahead. A time later than that is no move's.
CLOCK_SLACK = timedelta(days=1)


@functools.cache
def import_lines_of(games: Registry) -> MoveBodies:
    """An import's move lines for `games`: a move body with its time beside it,
    built once a registry."""
    return MoveBodies(
        games,
        extra=(
            (LOGGED_AT, LoggedTime | None, None),
            (EARLIER_NAME, LoggedTime | None, None),
        ),
    )


@dataclass(frozen=True, slots=True)
class Imported:
    """A game an import stored: its row, its history and its write token."""

    row: GameRow
    history: History
    write_token: str


class BgStatsGame(msgspec.Struct, kw_only=True, rename="camel"):
    name: str
    source_game_id: str
    highest_wins: bool
    no_points: bool


class BgStatsPlayer(msgspec.Struct, kw_only=True, rename="camel"):
    name: str
    source_player_id: str
    score: int | None
    winner: bool
    start_player: bool
    rank: int


class BgStatsPlay(msgspec.Struct, kw_only=True, rename="camel"):
    """A finished game as one BG Stats play (the app's push-plays format)."""

    source_name: str
    source_play_id: str
    play_date: str
    duration_min: int
    game: BgStatsGame
    players: list[BgStatsPlayer]


# ---------------------------------------------------------------------------- export


async def export_game(games: Games, game_id: uuid.UUID) -> bytes:
    """The game as NDJSON: its creation line, then one line per stored move, each
    with the time it was logged (`logged_at`) when that is known, then one line per
    note or withdrawal of one, in the order they were written, with its time."""
    entries = await games.notes.entries(game_id)
    row, events = await _stored(games, game_id)
    codec = games.timelines.codec(row.game)
    moves = [codec.record_from_json(event.data).move for event in events[1:]]
    # Re-encoded rather than copied: PostgreSQL's jsonb reorders keys, and an export
    # should read (and diff) the same however often it goes in and out.
    created = msgspec.json.decode(events[0].data, type=GameCreated)
    lines = [
        _encode(line, logged_at(event))
        for line, event in zip([created, *moves], events, strict=True)
    ]
    lines += [_encode(line_of(entry), entry.recorded_at) for entry in entries]
    return b"".join(line + b"\n" for line in lines)


def _encode(line: msgspec.Struct, logged: datetime | None) -> bytes:
    """One export line; dict keys sorted, since jsonb does not keep their order.
    The time comes last, in UTC, and only when known: a game imported from a file
    without times exports without them, as it came."""
    data = msgspec.json.encode(line, order="deterministic")
    if logged is None:
        return data
    at = msgspec.json.encode(logged.astimezone(UTC))
    return data[:-1] + b',"' + LOGGED_AT.encode() + b'":' + at + b"}"


async def _stored(
    games: Games, game_id: uuid.UUID
) -> tuple[GameRow, list[StoredEvent]]:
    row = await games.timelines.row(game_id)
    return row, await games.store.read(game_id, 0)


# ---------------------------------------------------------------------------- import


async def import_game(
    games: Games,
    body: bytes,
    game_id: uuid.UUID | None = None,
    app_key: uuid.UUID | None = None,
    group: InGroup | None = None,
    *,
    as_sample: bool = False,
) -> Imported:
    """`import_lines` of a whole file."""
    lines = ImportLines()
    lines.add(body)
    return await import_lines(
        games, lines, game_id, app_key, group, as_sample=as_sample
    )


async def import_lines(
    games: Games,
    read: ImportLines,
    game_id: uuid.UUID | None = None,
    app_key: uuid.UUID | None = None,
    group: InGroup | None = None,
    *,
    visibility: Visibility | None = None,
    viewer: Viewer = ANYONE,
    as_sample: bool = False,
) -> Imported:
    """Check every line of a file read whole with the engine and store the game
    whole, or raise Invalid naming the first line that is refused (nothing is stored
    then); Duplicate, naming the game, for a file that is a game already stored
    (`_same_game`) that `viewer`, the importer, lists: a game hidden from it is
    never named, and the file is stored as a game of its own. `app_key`: the key
    of the app importing it, which may then write it; `group`: the group whose key
    imports it, which then holds it (the file's own `group` is ignored);
    `visibility`: who sees it, as for a creation. `as_sample`: the file is a
    sample loaded into its sample group (`group`), which counts nowhere, so it is
    never a game already stored, and leaves no record of its content."""
    lines = read.done()
    request, created_at = _creation(lines[0])
    if request.seed is None:
        request = msgspec.structs.replace(request, seed=_drawn_seed(games, request))
    hosted, bodies = games.rules, import_lines_of(games.rules)
    start = history = _line(hosted, 1, games.creating.start, request)
    records, times = [], [created_at]
    moves, notes = _moves_then_notes(lines)
    if len(moves) > MAX_MOVES:
        raise TooLarge(
            f"A game of more than {MAX_MOVES:,} moves is refused: "
            f"this file has {len(moves):,}."
        )
    for number, line in enumerate(moves, start=2):
        move, at = _line(hosted, number, _move, bodies, line)
        _line(hosted, number, games.submitting.check_game, history.rules.name, move)
        record, history = _line(hosted, number, history.play, move)
        records.append(record)
        times.append(at)
    _check_times(times)
    entries = _notes(hosted, notes, len(moves) + 2, times)
    digest, same = None, None
    if not as_sample:
        digest = _digest(request, start, records, times, entries)
        samples_removed = await games.store.samples_removed()
        same = _same_game(games, start, records, viewer, samples_removed)
    row, token = await games.creating.store_new(
        request,
        start,
        records,
        game_id,
        logged_at=times,
        digest=digest,
        same=same,
        notes=entries,
        app_key=app_key,
        group=group,
        visibility=visibility,
    )
    return Imported(row, history, token)


def _same_game(
    games: Games,
    start: History,
    records: list[Recorded],
    viewer: Viewer,
    samples_removed: bool,
) -> SameGame:
    """How the import finds the stored game it already is, among those `viewer`
    lists (the samples left out when `samples_removed`): one of its set-up (the
    store compares the game, players, first player and seed; the options are
    compared here, as the game reads them, since a game stores them as given) whose
    moves are the file's, or begin with them. The one whose moves are exactly the
    file's, else the oldest: a variation branched at step 3 shares its set-up with
    the game it came from, and the export of its 3 moves is the variation, though
    the game's moves begin with them too."""
    setup, rules = start.setup, start.rules
    options = _options(rules, setup.options)
    moves = [msgspec.to_builtins(record.move) for record in records]
    codec = games.timelines.codec(rules.name)

    def pick(found: list[tuple[GameRow, list[StoredEvent]]]) -> uuid.UUID | None:
        longer = None
        for row, events in found:  # oldest first
            if _options(rules, row.options) != options:
                continue
            stored = [
                msgspec.to_builtins(codec.record_from_json(event.data).move)
                for event in events[1:]
            ]
            if stored[: len(moves)] != moves:
                continue
            if len(stored) == len(moves):
                return row.id
            longer = longer or row.id
        return longer

    # Each stored game is read no further than the file's moves and one more: that
    # one tells a game played on since the file from the file's own.
    return SameGame(
        game=rules.name,
        seed=setup.seed,
        players=tuple(setup.players),
        first_player=setup.first_player,
        versions=len(records) + 2,
        pick=pick,
        shown=lambda row: viewer.lists(row, removed=removed(row, samples_removed)),
    )


def _moves_then_notes(lines: list[bytes]) -> tuple[list[bytes], list[bytes]]:
    """The lines after the creation: the moves, then from the first note line on
    the notes, which come after every move."""
    after = lines[1:]
    first = next(
        (n for n, line in enumerate(after) if _kind(line) in _NOTE_KINDS), len(after)
    )
    for number, line in enumerate(after[first:], start=first + 2):
        if _kind(line) not in _NOTE_KINDS:
            raise _bad_line(number, "a move after a note: notes follow every move.")
    return after[:first], after[first:]


class _Kind(msgspec.Struct):
    type: Any = None


_KIND = msgspec.json.Decoder(_Kind)
_NOTE_KINDS = ("note", "note_withdrawn")


class _ImportedNote(NoteLine, tag="note", forbid_unknown_fields=True, kw_only=True):
    logged_at: LoggedTime | None = None


class _ImportedWithdrawal(
    NoteWithdrawnLine, tag="note_withdrawn", forbid_unknown_fields=True, kw_only=True
):
    logged_at: LoggedTime | None = None


_NOTE_LINE = msgspec.json.Decoder(_ImportedNote | _ImportedWithdrawal)


def _kind(line: bytes) -> Any:
    """A line's `type`, or None for a line that is not a JSON object with one."""
    try:
        return _KIND.decode(line).type
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


def _notes(
    games: Registry, lines: list[bytes], first: int, steps: list[datetime | None]
) -> list[NoteEntry]:
    """The note lines (the first is line number `first`) as the entries to store,
    each checked as the API checks a note written on a game whose steps were logged
    at `steps`, and after the line above it."""
    if len(lines) > MAX_NOTE_ENTRIES:
        raise TooLarge(
            f"A game of more than {MAX_NOTE_ENTRIES:,} notes and withdrawals is "
            f"refused: this file has {len(lines):,}."
        )
    now = datetime.now(UTC)
    entries: list[NoteEntry] = []
    for number, line in enumerate(lines, start=first):
        note, at = _line(games, number, _note_line, line, now)
        entries.append(_line(games, number, entry_of, note, entries, steps, at))
    return entries


def _note_line(line: bytes, now: datetime) -> tuple[Any, datetime]:
    """A note line read strictly, and its time (`now` when it gives none)."""
    try:
        body = strict_json.decode(_NOTE_LINE, line)
        check_moment(LOGGED_AT, body.logged_at)
    except (msgspec.DecodeError, RecursionError, ValueError) as error:
        raise Invalid(f"it is not a note: {error}.") from None
    at = body.logged_at
    if at is not None and at > now + CLOCK_SLACK:
        raise Invalid(f"its {LOGGED_AT} ({_iso(at)}) is after now ({_iso(now)}).")
    fields = msgspec.structs.asdict(body)
    del fields[LOGGED_AT]
    kind = NoteLine if isinstance(body, _ImportedNote) else NoteWithdrawnLine
    return kind(**fields), at or now


def _move(bodies: MoveBodies, line: bytes) -> tuple[Any, datetime | None]:
    """An export line read strictly, as a move body is (an `expected_version` in it
    is ignored: an export never writes one), and the time it gives."""
    try:
        body = bodies.decode(line)
        at = _logged(body.logged_at, body.recorded_at)
    except (msgspec.DecodeError, RecursionError, ValueError) as error:
        raise Invalid(f"it is not a move: {error}.") from None
    move, _ = bodies.to_domain(body)
    return move, at


def _logged(at: datetime | None, earlier: datetime | None) -> datetime | None:
    """A line's time, under either of its names; ValueError for both at once or for
    a time out of range."""
    if at is not None and earlier is not None:
        raise ValueError(f"give the time once, as {LOGGED_AT}")
    at = earlier if at is None else at
    check_moment(LOGGED_AT, at)
    return at


def _check_times(times: list[datetime | None]) -> None:
    """Every line gives its time, or none does, no line's is before the line above
    it, and none is after the import (CLOCK_SLACK): a game's length is measured from
    its first line's to its last's, and a table logs its moves in the order they were
    played."""
    given = [at is not None for at in times]
    if any(given) and not all(given):
        number = given.index(False) + 1
        raise _bad_line(
            number,
            f"it has no {LOGGED_AT}: give every line the time it was logged, or none.",
        )
    for number, (before, at) in enumerate(itertools.pairwise(times), start=2):
        if before is not None and at is not None and at < before:
            raise _bad_line(
                number,
                f"its {LOGGED_AT} ({_iso(at)}) is before line {number - 1}'s "
                f"({_iso(before)}): times never go backwards within a game.",
            )
    now = datetime.now(UTC)
    for number, at in enumerate(times, start=1):
        if at is not None and at > now + CLOCK_SLACK:
            raise _bad_line(
                number,
                f"its {LOGGED_AT} ({_iso(at)}) is after now ({_iso(now)}): a move "
                "is imported after it was logged.",
            )


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _drawn_seed(games: Games, request: NewGame) -> int:
    """The seed of an import that gives none, drawn from its creation line as the
    import reads it: the same file always makes the same game, whose export (which
    gives the seed, and the first player drawn from it) is then the same content."""
    created = _created(games.rules.get(request.game), request, request.first_player)
    del created["seed"]
    digest = hashlib.sha256(msgspec.json.encode(created, order="sorted")).digest()
    return int.from_bytes(digest[:8]) >> 1  # within 0..2**63-1, as a seed is


def _digest(
    request: NewGame,
    start: History,
    records: list[Recorded],
    times: list[datetime | None],
    notes: list[NoteEntry],
) -> bytes:
    """The file's content as the import reads it, kept as the record of the
    import (`imports`): what changes nothing stored does not change it (spacing,
    key order, line endings, a key given as null or left out, a name's spaces and
    forms as `domain.names` reads it, an `expected_version`, which is ignored, a
    time's offset, options at their defaults, a first player left to the seed's
    draw). Its key also refuses a second import of the same content racing the
    first from a process of an earlier release, which looks for no game by its
    play. The notes count when there are any (a file without is read as before
    notes existed)."""
    setup = start.setup
    created = _created(start.rules, request, setup.first_player)
    created["players"] = list(setup.players)
    content = [
        [created, *(msgspec.to_builtins(record.move) for record in records)],
        [_utc(at) for at in times],
    ]
    if notes:
        content.append(
            [[msgspec.to_builtins(line_of(e)), _utc(e.recorded_at)] for e in notes]
        )
    return hashlib.sha256(msgspec.json.encode(content, order="sorted")).digest()


def _created(
    rules: Rules | None, request: NewGame, first_player: str | None
) -> dict[str, Any]:
    """The creation line as the import reads it: names as `domain.names` keeps
    them, options with the game's defaults, the date in UTC."""
    return {
        "game": request.game,
        "players": [normal_name(name) for name in request.players],
        "first_player": None if first_player is None else normal_name(first_player),
        "seed": request.seed,
        "options": _options(rules, request.options),
        "title": request.title,
        "played_at": _utc(request.played_at),
        "location": request.location,
        "notes": request.notes,
    }


def _options(rules: Rules | None, options: dict[str, Any]) -> Any:
    """The options as the game reads them, with its defaults filled in."""
    if rules is None:
        return options
    try:
        return msgspec.to_builtins(msgspec.convert(options, rules.options))
    except (msgspec.ValidationError, TypeError):
        return options


def _utc(moment: datetime | None) -> datetime | None:
    """`moment` in UTC (naive: taken as UTC, as `check_moment` does)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _line(games: Registry, number: int, step: Callable[..., T], *args: Any) -> T:
    """`step(*args)`, its refusal said as the refusal of import line `number` (in
    the words of `games`, whose rules may refuse it)."""
    try:
        return step(*args)
    except (RuleError, GameFinished) as error:
        said = in_english(error, games)
        raise Invalid(f"Line {number}: {said}", rule=error.rule, line=number) from None
    except Refused as error:
        raise Invalid(
            f"Line {number}: {error.detail}", line=number, **error.extra
        ) from None


# The most lines a file may have: a game's moves and notes, and its creation line.
_MOST_LINES = MAX_MOVES + MAX_NOTE_ENTRIES + 1


class ImportLines:
    """A file's lines, split as its bytes arrive (LF or CRLF endings, empty lines at
    its end left out), so that an import keeps its lines and not the file's bytes
    beside them. Refused as soon as it cannot be a game's: an empty line with lines
    after it (Invalid), or more lines than a game holds (TooLarge), which bounds the
    work as for a game logged move by move; the bytes are bounded by whoever reads
    them (`max_import_bytes` over HTTP)."""

    def __init__(self) -> None:
        self._lines: list[bytes] = []
        # The pieces of the line under way, and the empty lines read since the
        # last line that was not: the file's end, unless a line follows them.
        self._under_way: list[bytes] = []
        self._empty = 0

    def add(self, chunk: bytes) -> None:
        *ended, rest = chunk.split(b"\n")
        if ended:
            ended[0] = b"".join([*self._under_way, ended[0]])
            self._under_way = []
            for line in ended:
                self._take(line.rstrip(b"\r"))
        if rest:
            self._under_way.append(rest)

    def done(self) -> list[bytes]:
        """The lines; Invalid for a file without any."""
        self._take(b"".join(self._under_way).rstrip(b"\r"))
        self._under_way = []
        if not self._lines:
            raise _bad_line(1, "the file is empty: it needs the game's creation line.")
        return self._lines

    def _take(self, line: bytes) -> None:
        if not line:
            self._empty += 1
            return
        number = len(self._lines) + 1
        if self._empty or not line.strip():
            raise _bad_line(number, "the line is empty.")
        if number > _MOST_LINES:
            raise TooLarge(
                f"A game of more than {MAX_MOVES:,} moves and {MAX_NOTE_ENTRIES:,} "
                f"notes is refused: this file has more than {_MOST_LINES - 1:,} lines "
                "after its first."
            )
        self._lines.append(line)


def _creation(line: bytes) -> tuple[NewGame, datetime | None]:
    try:
        fields = strict_json.decode(_ANY_JSON, line)
        if not isinstance(fields, dict) or fields.pop("type", None) != GAME_CREATED:
            raise _bad_line(1, f'the first line must be the game\'s "{GAME_CREATED}".')
        at, earlier = (
            msgspec.convert(fields.pop(name, None), LoggedTime | None)
            for name in (LOGGED_AT, EARLIER_NAME)
        )
        at = _logged(at, earlier)
        # Exports of earlier releases name the game's group: a game joins a group
        # by the key that imports it, never by what a file says.
        fields.pop("group", None)
        # Nor does a file say who sees the game: the import asks, as a creation
        # does (`visibility` beside the file), or its group's default holds.
        fields.pop("visibility", None)
        request = msgspec.convert(fields, NewGame)
        if not all(isinstance(seat, str) for seat in request.players):
            raise _bad_line(1, "its players are names, each a string.")
        return request, at
    except (msgspec.DecodeError, RecursionError, ValueError) as error:
        raise _bad_line(1, f"it is not a game's creation: {error}.") from None


_ANY_JSON = msgspec.json.Decoder()


def _bad_line(number: int, reason: str) -> Invalid:
    return Invalid(f"Line {number}: {reason}", line=number)


# ---------------------------------------------------------------------------- BG Stats


async def bgstats_play(games: Games, game_id: uuid.UUID) -> BgStatsPlay:
    """A finished game's result as BG Stats reads it; 409 while it goes on."""
    row, history = await games.current(game_id)
    (first,) = await games.store.read(game_id, 0, limit=1)
    (last,) = await games.store.read(game_id, history.version - 1)
    winners = history.winners
    if winners is None:
        raise Conflict("The game is not finished: it has no result to export yet.")
    view = msgspec.to_builtins(history.view())
    totals = view.get("totals") if isinstance(view, dict) else None
    highest_wins = view.get("scoring") != "fewest-first"
    played = row.played_at or row.created_at
    return BgStatsPlay(
        source_name="tablelog",
        source_play_id=str(row.id),
        play_date=played.strftime("%Y-%m-%d %H:%M:%S"),
        duration_min=_minutes(first, last),
        game=BgStatsGame(
            name=games.rules[row.game].labels["en"],
            source_game_id=row.game,
            highest_wins=highest_wins,
            no_points=totals is None,
        ),
        players=_bgstats_players(row, winners, totals, score_sheet(history).standings),
    )


def _bgstats_players(
    row: GameRow,
    winners: tuple[str, ...],
    totals: dict[str, int] | None,
    ranks: dict[str, int],
) -> list[BgStatsPlayer]:
    """Each player's rank is their place in the game's standings (T3)."""
    return [
        BgStatsPlayer(
            name=name,
            source_player_id=name,
            score=None if totals is None else totals.get(name),
            winner=name in winners,
            start_player=name == row.first_player,
            rank=ranks[name],
        )
        for name in row.players
    ]


def _minutes(first: StoredEvent, last: StoredEvent) -> int:
    """From the game's creation to its last move, as they were logged at the table
    (an imported game's, as its export gave them)."""
    start, end = logged_at(first), logged_at(last)
    if start is None or end is None:
        start, end = first.recorded_at, last.recorded_at
    return max(0, round((end - start).total_seconds() / 60))
