"""Notes on moves through the HTTP API against the real database: written with the
write token beside the moves (the game's state and version untouched), carried by the
replays, withdrawn by a later entry with their history kept, bounded, and exported and
imported with the game."""

from __future__ import annotations

import json
import uuid

import msgspec
import pytest

from service.application.notes import MAX_NOTE_ENTRIES, MAX_NOTES_A_STEP
from tests.support.http import create, move, play_simulated, simulated_moves


def new_game(client, moves: int = 6) -> dict:
    # Names of its own: a game of the same players, seed and moves would be this
    # one to an import of its export.
    tag = uuid.uuid4().hex[:6]
    players = [f"{name} {tag}" for name in ("Ana", "Bo", "Cy")]
    game = create(
        client, game="dobro", players=players, first_player=players[0], seed=5
    )
    play_simulated(client, game, limit=moves)
    return game


def write(client, game: dict, body: dict, token: str | None = None, **headers: str):
    auth = {"Authorization": f"Bearer {token or game['write_token']}"}
    return client.post(f"/games/{game['id']}/notes", json=body, headers=auth | headers)


def withdraw(client, game: dict, note: int, token: str | None = None):
    auth = {"Authorization": f"Bearer {token or game['write_token']}"}
    return client.post(f"/games/{game['id']}/notes/{note}/withdrawal", headers=auth)


def test_a_note_is_stored_beside_the_moves_and_changes_no_version(client):
    game = new_game(client)
    before = client.get(f"/games/{game['id']}").json()
    answer = write(client, game, {"step": 3, "text": "Bo should take", "mark": "?!"})
    assert answer.status_code == 201, answer.text
    note = answer.json()
    assert note["id"] == 1 and note["step"] == 3 and note["mark"] == "?!"
    assert note["text"] == "Bo should take" and note["withdrawn_at"] is None
    assert client.get(f"/games/{game['id']}").json() == before
    events = client.get(f"/games/{game['id']}/events").json()
    assert events["version"] == before["version"] == 7
    # A move decided on the version before the note is still in time.
    seventh = list(simulated_moves(game))[6]
    body = msgspec.to_builtins(seventh) | {"expected_version": 7}
    assert move(client, game, body).status_code == 201


def test_the_replays_carry_each_steps_notes_in_force(client):
    game = new_game(client)
    write(client, game, {"step": 0, "text": "Ana deals"})
    write(client, game, {"step": 2, "text": "A fine pair", "mark": "!!"})
    write(client, game, {"step": 2, "text": "Lucky"})
    steps = client.get(f"/games/{game['id']}/replay").json()["steps"]
    assert [[n["text"] for n in s["notes"]] for s in steps] == [
        [],
        ["A fine pair", "Lucky"],
        [],
        [],
        [],
        [],
    ]
    assert steps[1]["notes"][0]["mark"] == "!!" and steps[1]["notes"][0]["id"] == 2
    step = client.get(f"/games/{game['id']}/replay/2").json()
    assert [n["id"] for n in step["notes"]] == [2, 3]
    start = client.get(f"/games/{game['id']}/replay/0").json()
    assert [n["text"] for n in start["notes"]] == ["Ana deals"]


def test_a_withdrawn_note_leaves_the_replay_and_stays_in_the_history(client):
    game = new_game(client)
    write(client, game, {"step": 1, "text": "First thought"})
    write(client, game, {"step": 1, "text": "Second thought"})
    answer = withdraw(client, game, 1)
    assert answer.status_code == 200, answer.text
    assert answer.json()["id"] == 1 and answer.json()["withdrawn_at"] is not None
    step = client.get(f"/games/{game['id']}/replay/1").json()
    assert [n["text"] for n in step["notes"]] == ["Second thought"]
    notes = client.get(f"/games/{game['id']}/notes")
    history = notes.json()["notes"]
    assert [(n["id"], n["withdrawn_at"] is None) for n in history] == [
        (1, False),
        (2, True),
    ]
    # Withdrawn again: the same answer, and nothing more stored (the tag holds).
    again = withdraw(client, game, 1)
    assert again.status_code == 200 and again.json() == answer.json()
    tag = notes.headers["etag"]
    unchanged = client.get(f"/games/{game['id']}/notes", headers={"If-None-Match": tag})
    assert unchanged.status_code == 304
    assert withdraw(client, game, 9).status_code == 404
    # The number of a withdrawal is no note's.
    assert withdraw(client, game, 3).status_code == 404


def test_a_new_note_changes_the_replays_tags_and_not_the_games(client):
    game = new_game(client)
    reads = [f"/games/{game['id']}/{path}" for path in ("replay", "replay/2", "export")]
    tags = {path: client.get(path).headers["etag"] for path in reads}
    summary_tag = client.get(f"/games/{game['id']}").headers["etag"]
    write(client, game, {"step": 2, "text": "Noted"})
    for path in reads:
        answer = client.get(path, headers={"If-None-Match": tags[path]})
        assert answer.status_code == 200, path
        assert answer.headers["etag"] != tags[path]
        again = client.get(path, headers={"If-None-Match": answer.headers["etag"]})
        assert again.status_code == 304, path
    kept = client.get(f"/games/{game['id']}", headers={"If-None-Match": summary_tag})
    assert kept.status_code == 304


def test_only_the_write_token_writes_or_withdraws_a_note(client):
    game = new_game(client)
    body = {"step": 1, "text": "Mine"}
    url = f"/games/{game['id']}/notes"
    assert client.post(url, json=body).status_code == 401
    assert write(client, game, body, token="not-the-token").status_code == 403
    assert write(client, game, body).status_code == 201
    assert withdraw(client, game, 1, token="not-the-token").status_code == 403
    assert client.get(url).json()["notes"][0]["withdrawn_at"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"step": 1, "text": ""},
        {"step": 1, "text": "   "},
        {"step": 1, "text": "x" * 2001},
        {"step": 1, "text": "nul \u0000"},
        {"step": 1, "text": "ok", "mark": "?!?"},
        {"step": -1, "text": "ok"},
        {"step": 1, "text": "ok", "player": "Ana"},
        {"text": "ok"},
    ],
)
def test_a_note_the_api_cannot_take_is_a_422_and_stores_nothing(client, body):
    game = new_game(client, moves=2)
    answer = write(client, game, body)
    assert answer.status_code == 422, answer.text
    assert client.get(f"/games/{game['id']}/notes").json()["notes"] == []


def test_a_note_on_a_step_the_game_does_not_have_is_a_404(client):
    game = new_game(client, moves=2)
    answer = write(
        client, game, {"step": 3, "text": "Later"}, **{"Accept-Language": "fr"}
    )
    assert answer.status_code == 404
    assert answer.json()["detail"] == "La partie a les étapes 0 à 2, pas 3."
    assert write(client, game, {"step": 2, "text": "x" * 2000}).status_code == 201


def test_a_step_holds_so_many_notes_and_a_game_so_many_entries(client):
    game = new_game(client, moves=30)
    for n in range(MAX_NOTES_A_STEP):
        assert write(client, game, {"step": 4, "text": f"note {n}"}).status_code == 201
    full = write(client, game, {"step": 4, "text": "one more"})
    assert full.status_code == 422
    assert full.json()["detail"] == (
        f"Step 4 holds {MAX_NOTES_A_STEP} notes, the most a step may hold."
    )
    # A withdrawal makes room on the step; it counts among the game's entries.
    assert withdraw(client, game, 1).status_code == 200
    assert write(client, game, {"step": 4, "text": "one more"}).status_code == 201
    written = MAX_NOTES_A_STEP + 2
    for n in range(written, MAX_NOTE_ENTRIES):
        step = 5 + n % 25  # step 4 is full
        body = {"step": step, "text": f"note {n}"}
        assert write(client, game, body).status_code == 201, n
    refused = write(client, game, {"step": 29, "text": "past the most"})
    assert refused.status_code == 422
    assert f"{MAX_NOTE_ENTRIES} notes and withdrawals" in refused.json()["detail"]
    assert withdraw(client, game, 2).status_code == 422


def export(client, game_id: str) -> bytes:
    answer = client.get(f"/games/{game_id}/export")
    assert answer.status_code == 200
    return answer.content


def import_(client, body: bytes):
    return client.post(
        "/games/import", content=body, headers={"Content-Type": "application/x-ndjson"}
    )


def test_an_exported_game_imports_with_the_same_notes(client):
    game = new_game(client)
    write(client, game, {"step": 0, "text": "Before it all"})
    write(client, game, {"step": 3, "text": "Withdrawn", "mark": "??"})
    write(client, game, {"step": 3, "text": "Kept", "mark": "!"})
    withdraw(client, game, 2)
    exported = export(client, game["id"])
    lines = [json.loads(line) for line in exported.splitlines()]
    assert [line["type"] for line in lines[-4:]] == [
        "note",
        "note",
        "note",
        "note_withdrawn",
    ]
    assert lines[-1]["note"] == 2 and "logged_at" in lines[-1]

    # The export is the game itself, notes and all: nothing more is stored.
    itself = import_(client, exported)
    assert itself.status_code == 409 and itself.json()["game_id"] == game["id"]
    # At another table, it is a game of its own, with the same notes.
    exported = at_another_table(exported, game)
    imported = import_(client, exported)
    assert imported.status_code == 201, imported.text
    copy = imported.json()["id"]
    strip = ("recorded_at", "withdrawn_at")

    def notes(game_id):
        found = client.get(f"/games/{game_id}/notes").json()["notes"]
        return [{k: v for k, v in n.items() if k not in strip} for n in found]

    assert notes(copy) == notes(game["id"])
    originals = client.get(f"/games/{game['id']}/notes").json()["notes"]
    copies = client.get(f"/games/{copy}/notes").json()["notes"]
    assert [n["recorded_at"] for n in copies] == [n["recorded_at"] for n in originals]
    assert export(client, copy) == exported

    # The same file again is the game imported already; and so it is with another
    # note, or without its notes: notes on the moves are not the play.
    another = b'{"type":"note","step":3,"text":"Another"}\n'  # logged at the import
    moves_only = b"".join(
        line for line in exported.splitlines(True) if b'"type":"note' not in line
    )
    for again in (exported, exported + another, moves_only):
        answer = import_(client, again)
        assert answer.status_code == 409 and answer.json()["game_id"] == copy


def at_another_table(exported: bytes, game: dict) -> bytes:
    """The game's export with a player named otherwise, a name no other game has:
    another game's, since the game's own export is that game."""
    name = game["players"][-1]
    other = f"{name} at another table"
    return exported.replace(msgspec.json.encode(name), msgspec.json.encode(other))


def test_note_lines_are_read_as_the_api_reads_notes(client):
    game = new_game(client, moves=2)
    exported = export(client, game["id"])
    note = b'{"type":"note","step":1,"text":"ok"}\n'
    refused = [
        b'{"type":"note","step":3,"text":"late"}\n',
        b'{"type":"note","step":1,"text":""}\n',
        b'{"type":"note","step":1,"text":"ok","extra":1}\n',
        b'{"type":"note","step":1,"text":"ok","mark":"!!!"}\n',
        b'{"type":"note_withdrawn","note":1}\n',
        note + b'{"type":"note_withdrawn","note":1}\n' * 2,
    ]
    for lines in refused:
        answer = import_(client, exported + lines)
        assert answer.status_code == 422, (lines, answer.text)
        assert answer.json()["line"] >= 4, lines
    moved_after = exported + note + exported.splitlines(True)[1]
    answer = import_(client, moved_after)
    assert answer.status_code == 422 and answer.json()["line"] == 5
    too_many = exported + note * (MAX_NOTE_ENTRIES + 1)
    assert import_(client, too_many).status_code == 413


# Notes that show nothing: zero-width characters, a soft hyphen, combining marks
# with nothing to combine with, a Hangul filler, invisible among spaces.
SHOWING_NOTHING = [
    "\u200b\u2060\ufeff",
    "\u00ad",
    "\u0301\u0308",
    "\u3164",
    " \u200b\n\u2060 ",
]


@pytest.mark.parametrize("text", SHOWING_NOTHING)
def test_a_note_that_shows_nothing_is_refused_as_a_blank_one(client, text):
    game = new_game(client, moves=2)
    answer = write(client, game, {"step": 1, "text": text})
    assert answer.status_code == 422, answer.text
    assert "text must show something" in answer.json()["detail"]
    assert client.get(f"/games/{game['id']}/notes").json()["notes"] == []
    line = json.dumps({"type": "note", "step": 1, "text": text}).encode() + b"\n"
    imported = import_(client, export(client, game["id"]) + line)
    assert imported.status_code == 422, imported.text
    assert imported.json()["line"] == 4
    assert "text must show something" in imported.json()["detail"]


def test_a_note_with_something_to_show_among_invisible_characters_is_kept(client):
    game = new_game(client, moves=2)
    for text in ("\u200bok\u200b", "e\u0301", "👍"):
        answer = write(client, game, {"step": 1, "text": text})
        assert answer.status_code == 201, answer.text
        assert answer.json()["text"] == text


def _timed(client, game: dict) -> list[dict]:
    """The game's export at another table, its lines logged a minute apart from
    10:00."""
    exported = at_another_table(export(client, game["id"]), game)
    lines = [json.loads(line) for line in exported.splitlines()]
    for minute, line in enumerate(lines):
        line["logged_at"] = f"2026-05-01T10:{minute:02}:00Z"
    return lines


def _file(lines: list[dict]) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def _note(step: int, minute: int, **line) -> dict:
    at = f"2026-05-01T10:{minute:02}:00Z"
    return {"type": "note", "step": step, "text": "ok", "logged_at": at} | line


def test_note_lines_keep_their_times_in_order_after_their_steps(client):
    game = new_game(client, moves=6)  # lines 1 to 7, logged at 10:00 to 10:06
    lines = _timed(client, game)
    # A note on step 2 written at 10:03, while the game went on to 10:06; a later
    # note at the same minute; its withdrawal after.
    kept = [
        _note(2, 3),
        _note(6, 10),
        _note(0, 10),
        {"type": "note_withdrawn", "note": 1, "logged_at": "2026-05-01T10:11:00Z"},
    ]
    answer = import_(client, _file(lines + kept))
    assert answer.status_code == 201, answer.text
    refused = {
        # Before the note line above it.
        "before the note line above it": [_note(2, 5), _note(3, 4)],
        # A withdrawal before the note line above it (the note it withdraws).
        "before the note line above it (2026-05-01T10:08:00Z)": [
            _note(2, 8),
            {"type": "note_withdrawn", "note": 1, "logged_at": "2026-05-01T10:07:00Z"},
        ],
        # Before its step's move was logged (step 4: line 5, at 10:04).
        "before step 4 was logged (2026-05-01T10:04:00Z)": [_note(4, 3)],
        # Step 0 is the game's creation, line 1, at 10:00.
        "before step 0 was logged": [
            _note(0, 0, logged_at="2026-05-01T09:59:00+00:00")
        ],
    }
    for reason, notes in refused.items():
        answer = import_(client, _file(lines + notes))
        assert answer.status_code == 422, (notes, answer.text)
        assert answer.json()["line"] == 7 + len(notes), notes
        assert reason in answer.json()["detail"], answer.json()["detail"]
