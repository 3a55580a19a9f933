"""Notes on moves: what the table thought at a step of a game ("a blunder: the 9 was
safe"), with an optional mark (`!`, `?`, `!!`, `??`, `!?`, `?!`).

Holders of the game's write token attach a note to a replay step (0 is the game before
any move). Notes are stored beside the moves, never among them: they change neither
the game's state nor its version, so a move's `expected_version` never accounts for
one. A note is withdrawn by a later entry and stays in the history (`GET
/games/{id}/notes` gives every note, a withdrawn one with the time it was withdrawn);
replays give each step the notes in force. Each note is numbered in its game (its
`id`), as the export numbers it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from domain.names import shows_nothing
from domain.wording import message
from service.application.creating import LOGGED_AT
from service.application.errors import Invalid, NotFound
from service.application.submitting import MAX_MOVES
from service.application.timeline import Timelines
from service.storage.notes import (
    NewEntry,
    NoteEntry,
    add_entry,
    count_entries,
    read_entries,
)

# A game's notes and withdrawals together, and the notes in force on one step: a
# game's notes are read whole by every replay page, and an export carries them all.
MAX_NOTE_ENTRIES = 500
MAX_NOTES_A_STEP = 20
NOTE_LENGTH = 2000

Mark = Literal["!", "?", "!!", "??", "!?", "?!"]
NoteText = Annotated[str, Meta(min_length=1, max_length=NOTE_LENGTH)]


class NewNote(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `POST /games/{id}/notes`: the replay step the note is about, its
    text and its mark."""

    step: Annotated[int, Meta(ge=0, le=MAX_MOVES)]
    text: NoteText
    mark: Mark | None = None

    def __post_init__(self) -> None:
        # A ValueError here is msgspec's ValidationError: the 422's sentence.
        check_text(self.text)


def check_text(text: str) -> None:
    """ValueError for a note that shows nothing (read as a player's name is: spaces,
    invisible characters and marks alone show nothing) or holds a NUL character."""
    if "\x00" in text:
        raise ValueError("text must not contain a NUL character (\\u0000)")
    if shows_nothing(text):
        raise ValueError(
            "text must show something, not only spaces, invisible characters or marks"
        )


class StepNote(msgspec.Struct, kw_only=True):
    """A note in force, as a replay step shows it."""

    id: int
    text: str
    mark: Mark | None
    recorded_at: datetime


class Note(StepNote, kw_only=True):
    """A note as `GET /games/{id}/notes` gives it: with its step, and the time it
    was withdrawn (null while in force)."""

    step: int
    withdrawn_at: datetime | None


class NoteList(msgspec.Struct, kw_only=True):
    """`GET /games/{id}/notes`: every note of the game, in the order they were
    written, withdrawn ones included."""

    notes: list[Note]


def folded(entries: Sequence[NoteEntry]) -> list[Note]:
    """The notes of a game's entries, each with the time it was withdrawn, if it was."""
    withdrawn = {e.withdraws: e.recorded_at for e in entries if e.withdraws}
    return [
        Note(
            id=e.entry,
            step=e.step,
            text=e.text,
            mark=e.mark,
            recorded_at=e.recorded_at,
            withdrawn_at=withdrawn.get(e.entry),
        )
        for e in entries
        if e.withdraws is None
    ]


def by_step(notes: Sequence[Note]) -> dict[int, list[StepNote]]:
    """The notes in force, by step, in the order they were written."""
    steps: dict[int, list[StepNote]] = {}
    for note in notes:
        if note.withdrawn_at is None:
            shown = StepNote(
                id=note.id, text=note.text, mark=note.mark, recorded_at=note.recorded_at
            )
            steps.setdefault(note.step, []).append(shown)
    return steps


def check_room(entries: Sequence[NoteEntry], step: int | None) -> None:
    """Invalid when the game holds MAX_NOTE_ENTRIES entries, or (a new note on
    `step`) the step MAX_NOTES_A_STEP notes in force."""
    if len(entries) >= MAX_NOTE_ENTRIES:
        raise Invalid(message("note.game_full", most=MAX_NOTE_ENTRIES))
    if step is None:
        return
    in_force = by_step(folded(entries)).get(step, [])
    if len(in_force) >= MAX_NOTES_A_STEP:
        raise Invalid(message("note.step_full", most=MAX_NOTES_A_STEP, step=step))


class NoteLine(msgspec.Struct, tag="note", forbid_unknown_fields=True, kw_only=True):
    """A note as an export writes it, after the game's moves: the step it is about,
    its text and its mark. Its number is its place among the file's note lines
    (withdrawals included), 1 for the first, as the API numbers it."""

    step: Annotated[int, Meta(ge=0, le=MAX_MOVES)]
    text: NoteText
    mark: Mark | None = None

    def __post_init__(self) -> None:
        check_text(self.text)


class NoteWithdrawnLine(
    msgspec.Struct, tag="note_withdrawn", forbid_unknown_fields=True, kw_only=True
):
    """The withdrawal of note number `note`, as an export writes it."""

    note: Annotated[int, Meta(ge=1, le=MAX_NOTE_ENTRIES)]


def line_of(entry: NoteEntry) -> NoteLine | NoteWithdrawnLine:
    """A stored entry as its export line (without its time)."""
    if entry.withdraws is not None:
        return NoteWithdrawnLine(note=entry.withdraws)
    return NoteLine(step=entry.step, text=entry.text, mark=entry.mark)


def entry_of(
    line: NoteLine | NoteWithdrawnLine,
    before: Sequence[NoteEntry],
    steps: Sequence[datetime | None],
    at: datetime,
) -> NoteEntry:
    """An export line, written at `at`, as the entry that follows `before` in a game
    whose steps were logged at `steps` (0 its creation; None where the file does not
    say); Invalid or NotFound when the API would refuse it there, or when its time
    runs backwards (`check_written_after`)."""
    number = len(before) + 1
    if isinstance(line, NoteWithdrawnLine):
        note = _note(folded(before), line.note)
        if note.withdrawn_at is not None:
            raise Invalid(f"note {line.note} is withdrawn already.")
        check_room(before, None)
        check_written_after(at, before, None)
        return NoteEntry(withdraws=line.note, recorded_at=at, entry=number)
    moves = len(steps) - 1
    if line.step > moves:
        raise NotFound(message("game.no_step", last=moves, step=line.step))
    check_room(before, line.step)
    check_written_after(at, before, (line.step, steps[line.step]))
    return NoteEntry(
        step=line.step, text=line.text, mark=line.mark, recorded_at=at, entry=number
    )


def check_written_after(
    at: datetime,
    before: Sequence[NoteEntry],
    step: tuple[int, datetime | None] | None,
) -> None:
    """Invalid for an entry written at `at` that runs backwards: before the entry
    above it (a game's notes are written one at a time, in order), or for a note,
    before its step was logged (`step`: the step and its time, when known), since
    the API takes a note only on a step the game has played."""
    if before and at < before[-1].recorded_at:
        raise Invalid(
            f"its {LOGGED_AT} ({_iso(at)}) is before the note line above it "
            f"({_iso(before[-1].recorded_at)}): a game's notes are written one after "
            "another, and their times never go backwards."
        )
    if step is not None and step[1] is not None and at < step[1]:
        number, logged = step
        raise Invalid(
            f"its {LOGGED_AT} ({_iso(at)}) is before step {number} was logged "
            f"({_iso(logged)}): a note on a step is written once the step is played."
        )


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


class Notes:
    """The notes of the games over `timelines`' store."""

    def __init__(self, timelines: Timelines) -> None:
        self.timelines = timelines
        self.pool = timelines.store.pool

    async def add(self, game_id: uuid.UUID, new: NewNote) -> Note:
        """Store a note on a step the game has; NotFound for another step."""
        timeline = await self.timelines.load(game_id)
        if new.step > timeline.moves:
            raise NotFound(message("game.no_step", last=timeline.moves, step=new.step))
        entry = NewEntry(step=new.step, text=new.text, mark=new.mark)
        stored = await add_entry(
            self.pool, game_id, entry, lambda entries: check_room(entries, new.step)
        )
        assert stored is not None  # check_room never declines, it refuses
        return folded([stored])[0]

    async def withdraw(self, game_id: uuid.UUID, note_id: int) -> Note:
        """Withdraw a note (a later entry; the note stays in the history): the note
        as it stands then. A note withdrawn already is left as it is."""

        def check(entries: list[NoteEntry]) -> bool:
            note = _note(folded(entries), note_id)
            if note.withdrawn_at is not None:
                return False
            check_room(entries, None)
            return True

        await add_entry(self.pool, game_id, NewEntry(withdraws=note_id), check)
        return _note(await self.all(game_id), note_id)

    async def all(self, game_id: uuid.UUID) -> list[Note]:
        """Every note of the game, withdrawn ones included."""
        return folded(await read_entries(self.pool, game_id))

    async def in_force(self, game_id: uuid.UUID) -> dict[int, list[StepNote]]:
        """The notes in force on the game's steps, by step."""
        return by_step(await self.all(game_id))

    async def entries(self, game_id: uuid.UUID) -> list[NoteEntry]:
        """The game's entries as stored: its notes and their withdrawals."""
        return await read_entries(self.pool, game_id)

    async def head(self, game_id: uuid.UUID) -> int:
        """How many entries the game has: they only grow, so this names the notes
        as they stand."""
        return await count_entries(self.pool, game_id)


def _note(notes: list[Note], note_id: int) -> Note:
    found = next((note for note in notes if note.id == note_id), None)
    if found is None:
        raise NotFound(message("note.unknown", note=note_id))
    return found
