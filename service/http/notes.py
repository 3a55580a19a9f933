"""Notes on a game's moves over HTTP (docs/api.md, "Notes on moves"): written and
withdrawn with the game's write token, read by anyone."""

from __future__ import annotations

from uuid import UUID

from litestar import Controller, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from service.application.games import Games
from service.application.notes import (
    MAX_NOTE_ENTRIES,
    MAX_NOTES_A_STEP,
    NewNote,
    Note,
    NoteList,
)
from service.http.bodies import MAX_JSON_BODY_BYTES, strict_body
from service.http.caching import game_read
from service.http.callers import (
    APP_KEY_SCHEME,
    GROUP_KEY_SCHEME,
    MOVES_WRITE,
    SCOPE,
    TAKES_WRITE_TOKEN,
)
from service.http.guards import holds_write_token
from service.http.headers import declared
from service.http.problems import problems


class NoteController(Controller):
    path = "/games/{game_id:uuid}/notes"
    tags = ("notes",)

    @post(
        "/",
        status_code=201,
        summary="Write a note on a step of the game",
        description="Needs the game's write token, or the app key that created the "
        "game (scope `moves:write`). The note changes neither the game's "
        f"state nor its version. A game holds at most {MAX_NOTE_ENTRIES} notes and "
        f"withdrawals together, a step at most {MAX_NOTES_A_STEP} notes in force "
        "(422 past them).",
        before_request=holds_write_token,
        opt={SCOPE: MOVES_WRITE, TAKES_WRITE_TOKEN: True},
        dto=strict_body(NewNote),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        security=[{"writeToken": []}, {APP_KEY_SCHEME: []}, {GROUP_KEY_SCHEME: []}],
        responses=problems(401, 403, 404, 413, 415, 422, 503),
        operation_class=declared(worded=True),
    )
    async def post_note(
        self,
        game_id: FromPath[UUID],
        data: JSONBody[NewNote],
        games: NamedDependency[Games],
    ) -> Note:
        return await games.notes.add(game_id, data)

    @post(
        "/{note:int}/withdrawal",
        status_code=200,
        summary="Withdraw a note (it stays in the game's history of notes)",
        description="Needs the game's write token, or the app key that created the "
        "game (scope `moves:write`). Stores a withdrawal naming the "
        "note and answers the note with `withdrawn_at`; a note withdrawn already is "
        "answered as it is, and nothing more is stored.",
        before_request=holds_write_token,
        opt={"body_media_type": None, SCOPE: MOVES_WRITE, TAKES_WRITE_TOKEN: True},
        security=[{"writeToken": []}, {APP_KEY_SCHEME: []}, {GROUP_KEY_SCHEME: []}],
        responses=problems(401, 403, 404, 422, 503),
        operation_class=declared(worded=True),
    )
    async def withdraw_note(
        self,
        game_id: FromPath[UUID],
        note: FromPath[int],
        games: NamedDependency[Games],
    ) -> Note:
        return await games.notes.withdraw(game_id, note)

    @game_read(
        "/",
        noted=True,
        summary="Every note of the game, withdrawn ones included",
        responses=problems(404, 503),
    )
    async def get_notes(
        self, game_id: FromPath[UUID], games: NamedDependency[Games]
    ) -> NoteList:
        return NoteList(notes=await games.notes.all(game_id))
