"""A Python client generated from the committed OpenAPI document alone plays a whole
game, and makes a group a phone joins, against the real service: the document is
enough to integrate.

`openapi-python-client` is what an app developer would run. It knows no NDJSON: the
document offers the export and takes the import as bytes too
(`application/octet-stream`), which it generates without being told. A step's
pictures are media types it does not know either: the tool's own
`content_type_overrides` setting reads them as bytes, as its documentation advises.
"""

from __future__ import annotations

import importlib
import io
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path

import httpx
import msgspec
import pytest

from domain.game import Setup
from domain.registry import BUILT_IN
from service.application.moves import move_bodies

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
CONFIG = "content_type_overrides:\n" + "".join(
    f"  {media_type}: application/octet-stream\n"
    for media_type in ("image/svg+xml", "image/png", "image/gif")
)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The generated package, `tablelog_client`, imported from where it was written."""
    out = tmp_path_factory.mktemp("python-client")
    (out / "config.yaml").write_text(CONFIG)
    done = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate",
         "--path", DOCUMENT, "--config", out / "config.yaml", "--meta", "none"],
        cwd=out, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("tablelog_client")
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m.split(".")[0] == "tablelog_client"]:
            del sys.modules[name]


def model_of(generated, move) -> object:
    """The generated model of a domain move: the class named as its wire copy."""
    body = msgspec.json.encode(move)
    name = type(move_bodies(BUILT_IN).decode(body)).__name__
    models = importlib.import_module("tablelog_client.models")
    return getattr(models, name).from_dict(msgspec.json.decode(body))


@contextmanager
def writer_of(client: httpx.Client, token: str) -> Iterator[object]:
    """The generated client that writes with `token`, on an httpx client this test
    opens and closes itself."""
    from tablelog_client import AuthenticatedClient

    with httpx.Client(base_url=client.base_url, timeout=30) as transport:
        writer = AuthenticatedClient(str(client.base_url), token=token)
        transport.headers["Authorization"] = f"Bearer {token}"
        yield writer.set_httpx_client(transport)


@pytest.mark.parametrize("game", sorted(BUILT_IN))
def test_a_generated_python_client_plays_a_whole_game(generated, client, game):
    from tablelog_client import Client, models
    from tablelog_client.api.games import create_game, get_game, post_move

    # Each game's body is its own class, `game` a constant or its editions' enum.
    body_of = {
        "dobro": lambda **fields: models.NewDobroGame(
            game=models.NewDobroGameGame.DOBRO, **fields
        ),
        "dobro-pixar": lambda **fields: models.NewDobroGame(
            game=models.NewDobroGameGame.DOBRO_PIXAR, **fields
        ),
        "dozito": lambda **fields: models.NewDozitoGame(game="dozito", **fields),
        "double-donkey": lambda **fields: models.NewDoubleDonkeyGame(
            game="double-donkey", **fields
        ),
    }
    players = ["Ana", "Bia", "Caio"]
    reader = Client(str(client.base_url)).set_httpx_client(client)
    created = create_game.sync(
        client=reader,
        body=body_of[game](players=players, first_player="Ana", seed=11),
    )
    assert created.version == 1 and created.write_token
    setup = Setup(players=tuple(players), first_player="Ana", seed=11)
    with writer_of(client, created.write_token) as writer:
        for logged, move in enumerate(BUILT_IN[game].simulate(setup), start=2):
            body = model_of(generated, move)
            answer = post_move.sync(created.id, client=writer, body=body)
            assert answer.version == logged, answer
    summary = get_game.sync(created.id, client=reader)
    assert summary.status == "finished" and summary.winners


def test_a_generated_client_reads_a_refusal_and_moves_a_game_in_and_out(
    generated, client
):
    from tablelog_client import Client
    from tablelog_client.api.exchange import export_game, import_game
    from tablelog_client.api.games import create_game, get_game, post_move
    from tablelog_client.models import (
        DobroPlay,
        ImportedGame,
        NewDobroGame,
        NewDobroGameGame,
        ProblemDetails,
    )
    from tablelog_client.types import File

    reader = Client(str(client.base_url)).set_httpx_client(client)
    created = create_game.sync(
        client=reader,
        body=NewDobroGame(
            game=NewDobroGameGame.DOBRO, players=["Ana", "Bia"], first_player="Ana"
        ),
    )
    setup = Setup(players=("Ana", "Bia"), first_player="Ana", seed=created.seed)
    with writer_of(client, created.write_token) as writer:
        out_of_turn = DobroPlay(type_="play", player="Bia", cards=[4])
        refused = post_move.sync(created.id, client=writer, body=out_of_turn)
        for move in islice(BUILT_IN["dobro"].simulate(setup), 5):
            post_move.sync(created.id, client=writer, body=model_of(generated, move))
    assert isinstance(refused, ProblemDetails) and refused.rule == "D8"

    exported = export_game.sync(created.id, client=reader)
    assert isinstance(exported, File), exported
    content = exported.payload.read()
    assert len(content.splitlines()) == 6
    # The game's own export is that game: the import's problem names it.
    itself = import_game.sync(client=reader, body=File(payload=io.BytesIO(content)))
    assert isinstance(itself, ProblemDetails) and itself.game_id == created.id
    # At another table (Bia named otherwise), a game of its own.
    elsewhere = content.replace(b'"Bia"', b'"Bea"')
    imported = import_game.sync(client=reader, body=File(payload=io.BytesIO(elsewhere)))
    assert isinstance(imported, ImportedGame), imported
    assert imported.version == 6 and imported.id != created.id
    copy = get_game.sync(imported.id, client=reader)
    original = get_game.sync(created.id, client=reader)
    assert copy.version == original.version
    state = json.dumps(copy.state.to_dict()).replace('"Bea"', '"Bia"')
    assert json.loads(state) == original.state.to_dict()


def test_a_generated_client_makes_a_group_invites_a_phone_and_plays_in_it(
    generated, client
):
    from tablelog_client import Client
    from tablelog_client.api.games import create_game
    from tablelog_client.api.groups import (
        add_roster_player,
        create_group,
        create_invite,
        get_group,
        join_group,
        list_members,
        revoke_member,
    )
    from tablelog_client.models import (
        CreatedGroup,
        CreatedInvite,
        GroupKeys,
        JoinedGroup,
        Joining,
        NewDobroGame,
        NewDobroGameGame,
        NewGroup,
        NewInvite,
        NewPlayer,
        Player,
        ProblemDetails,
        Seat,
    )

    anyone = Client(str(client.base_url)).set_httpx_client(client)
    name = f"Club {uuid.uuid4().hex[:6]}"
    made = create_group.sync(client=anyone, body=NewGroup(name=name, device="A"))
    assert isinstance(made, CreatedGroup), made
    assert made.role == "owner" and made.key.startswith("tlg_")
    with writer_of(client, made.key) as owner:
        invite = create_invite.sync(made.id, client=owner, body=NewInvite(uses=1))
        assert isinstance(invite, CreatedInvite), invite
        joining = Joining(invite=invite.code, device="B")
        joined = join_group.sync(client=anyone, body=joining)
        assert isinstance(joined, JoinedGroup), joined
        assert joined.group.id == made.id and joined.role == "member"
        # The invite had one use: a third phone is refused, saying so.
        third = Joining(invite=invite.code, device="C")
        again = join_group.sync(client=anyone, body=third)
        assert isinstance(again, ProblemDetails) and again.status == 401

        with writer_of(client, joined.key) as member:
            # The group's roster: Ana is added, a typo of her name is refused
            # with her as the nearest, and Bia is seated as a new player.
            ana = add_roster_player.sync(made.id, client=member, body=NewPlayer("Ana"))
            assert isinstance(ana, Player), ana
            dobro = NewDobroGameGame.DOBRO
            typo = NewDobroGame(game=dobro, players=["Anna", "Bia"])
            refused = create_game.sync(client=member, body=typo)
            assert isinstance(refused, ProblemDetails) and refused.status == 422
            assert [near.name for near in refused.players[0].nearest] == ["Ana"]
            seats = [Seat(id=ana.id), Seat(name="Bia", new=True)]
            body = NewDobroGame(game=dobro, players=seats, first_player="Ana")
            game = create_game.sync(client=member, body=body)
            assert game.players == ["Ana", "Bia"], game
            assert game.group == name
            assert get_group.sync(made.id, client=member).role == "member"

        members = list_members.sync(made.id, client=owner)
        assert isinstance(members, GroupKeys)
        assert sorted(key.device for key in members.members) == ["A", "B"]
        revoke_member.sync_detailed(made.id, joined.key_id, client=owner)

    with writer_of(client, joined.key) as revoked:
        refused = get_group.sync(made.id, client=revoked)
        assert isinstance(refused, ProblemDetails) and refused.status == 401
    # To anyone without a key of it, the group is not there.
    hidden = get_group.sync(made.id, client=anyone)
    assert isinstance(hidden, ProblemDetails) and hidden.status == 404
