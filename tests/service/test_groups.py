"""Groups over HTTP on a real PostgreSQL: an owner makes a group and invites phones,
which join with member keys; only the group's keys put games in it and on its ladder;
a key revoked is refused at once by every process; invites and keys are refused in
words that say why; a group is shown to its members only; and a group named before
groups were owned is claimed from the shell."""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import uuid

import httpx
import msgspec
import psycopg
import pytest

from domain.game import Setup
from domain.registry import BUILT_IN
from service.application.keys import Keys
from service.settings import Settings
from service.storage import migrate as migrations
from service.storage.migrate import migrate, migration_files
from service.storage.pools import connection_pool
from tests.support.groups import ADDRESSES, new_players
from tests.support.http import client_from
from tests.support.processes import tablelog_on
from tests.support.server import running_server

# Ann and Bob join the roster of each group that seats them.
BODY = {
    "game": "dobro",
    "players": new_players("Ann", "Bob"),
    "first_player": "Ann",
    "seed": 3,
}
PLAY = {"type": "play", "player": "Ann", "cards": [4]}
NDJSON = {"Content-Type": "application/x-ndjson"}


@pytest.fixture(scope="module")
def base_url(database_url):
    with running_server(database_url) as url:
        yield url


@pytest.fixture
def client(base_url):
    with client_from(base_url, next(ADDRESSES)) as client:
        yield client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def unique(name: str) -> str:
    return f"{name} {uuid.uuid4().hex[:6]}"


def make_group(client: httpx.Client, name: str | None = None) -> dict:
    answer = client.post(
        "/groups", json={"name": name or unique("Club"), "device": "Ana's phone"}
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def invite(client: httpx.Client, group: dict, **body) -> dict:
    answer = client.post(
        f"/groups/{group['id']}/invites", json=body, headers=bearer(group["key"])
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def join(client: httpx.Client, code: str, device: str = "Bo's phone"):
    return client.post("/groups/join", json={"invite": code, "device": device})


def joined(client: httpx.Client, group: dict, device: str = "Bo's phone") -> dict:
    answer = join(client, invite(client, group)["code"], device)
    assert answer.status_code == 201, answer.text
    return answer.json()


def assert_problem(answer: httpx.Response, status: int, *words: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    for word in words:
        assert word in answer.json()["detail"], answer.json()


def finished_game(game: str, players: tuple[str, ...], seed: int) -> bytes:
    """An export of a game played to its end, as an earlier release wrote it:
    naming a group."""
    rules = BUILT_IN[game]
    setup = Setup(players=players, first_player=players[0], seed=seed)
    created = {
        "type": "game_created",
        "game": game,
        "players": list(players),
        "first_player": players[0],
        "seed": seed,
        "options": {},
        "group": "Whatever the file says",
    }
    moves = [msgspec.json.encode(m) for m in rules.simulate(setup)]
    return b"\n".join([json.dumps(created).encode(), *moves]) + b"\n"


def board(
    client: httpx.Client, game: str, group: str, key: str | None = None
) -> list[str]:
    """The group's ladder as its members (with `key`) or anyone else see it."""
    headers = bearer(key) if key else {}
    answer = client.get(
        f"/leaderboards/{game}", params={"group": group}, headers=headers
    )
    assert answer.status_code == 200, answer.text
    return sorted(line["name"] for line in answer.json()["players"])


def eventually(check, seconds: float = 20):
    import time

    deadline = time.monotonic() + seconds
    while not (result := check()):
        assert time.monotonic() < deadline, "the read side did not catch up in time"
        time.sleep(0.05)
    return result


# ------------------------------------------------------------ a group's life


def test_an_owner_invites_two_phones_whose_games_are_the_groups_and_on_its_ladder(
    client,
):
    group = make_group(client)
    assert group["role"] == "owner" and group["key"].startswith("tlg_")
    code = invite(client, group, uses=2)
    assert code["code"].startswith("tli_") and code["uses"] == 2
    assert code["link"] == f"/app/#/join/{code['code']}"
    bo = join(client, code["code"], "Bo's phone").json()
    cy = join(client, code["code"], "Cy's phone").json()
    assert bo["role"] == cy["role"] == "member"
    assert bo["group"] == {"id": group["id"], "name": group["name"]}

    # Bo's phone creates a game; Cy's writes a move of it, as the token would.
    game = client.post("/games", json=BODY, headers=bearer(bo["key"]))
    assert game.status_code == 201, game.text
    assert game.json()["group"] == group["name"]
    moved = client.post(
        f"/games/{game.json()['id']}/moves", json=PLAY, headers=bearer(cy["key"])
    )
    assert moved.status_code == 201, moved.text

    # Cy's phone imports a finished game: the group's, whatever the file says.
    players = (unique("Ann"), unique("Bob"))
    imported = client.post(
        "/games/import",
        content=finished_game("dozito", players, 4),
        headers=NDJSON | bearer(cy["key"]),
    )
    assert imported.status_code == 201, imported.text
    summary = client.get(f"/games/{imported.json()['id']}", headers=bearer(bo["key"]))
    assert summary.json()["group"] == group["name"]
    eventually(
        lambda: board(client, "dozito", group["name"], cy["key"]) == sorted(players)
    )
    # Its games are the members': anyone else sees no ladder of the group.
    assert board(client, "dozito", group["name"]) == []

    seen = client.get(f"/groups/{group['id']}", headers=bearer(cy["key"])).json()
    assert seen["role"] == "member" and seen["name"] == group["name"]
    devices = sorted(member["device"] for member in seen["members"])
    assert devices == ["Ana's phone", "Bo's phone", "Cy's phone"]


def test_a_stranger_cannot_put_a_game_in_a_group_nor_on_its_ladder(client, stored_rows):
    group = make_group(client)
    before = stored_rows()
    refused = client.post("/games", json=BODY | {"group": group["name"]})
    assert_problem(refused, 422, "one of the group's keys", "tlg_")
    assert stored_rows() == before

    # An import naming the group is no game of it: the file's group is ignored.
    players = (unique("Eve"), unique("Fay"))
    file = finished_game("dozito", players, 5).replace(
        b"Whatever the file says", group["name"].encode()
    )
    imported = client.post("/games/import", content=file, headers=NDJSON)
    assert imported.status_code == 201, imported.text
    assert client.get(f"/games/{imported.json()['id']}").json()["group"] is None
    rated = f"/players/{players[0]}/ratings/dozito"
    eventually(lambda: client.get(rated).status_code == 200)
    assert board(client, "dozito", group["name"]) == []

    # Another group's key writes none of this group's games: a public one refuses
    # it, a members-only one is no game to it.
    other = make_group(client)
    for visibility, status, words in (
        ("public", 403, "not one of the group"),
        ("members", 404, "There is no game"),
    ):
        body = BODY | {"visibility": visibility}
        game = client.post("/games", json=body, headers=bearer(group["key"])).json()
        moved = client.post(
            f"/games/{game['id']}/moves", json=PLAY, headers=bearer(other["key"])
        )
        assert_problem(moved, status, words)


def test_a_name_taken_as_names_are_compared_is_a_409(client):
    group = make_group(client)
    again = client.post(
        "/groups", json={"name": f"  {group['name'].upper()} ", "device": "x"}
    )
    assert_problem(again, 409, "already")


# ------------------------------------------------------------ keys and refusals


def test_a_revoked_member_key_is_refused_at_once_by_every_process(database_url):
    with (
        running_server(database_url) as first_url,
        running_server(database_url) as second_url,
        client_from(first_url, next(ADDRESSES)) as first,
        httpx.Client(base_url=second_url, timeout=30) as second,
    ):
        group = make_group(first)
        bo = joined(first, group)
        game = second.post("/games", json=BODY, headers=bearer(bo["key"])).json()

        revoked = first.delete(
            f"/groups/{group['id']}/members/{bo['key_id']}",
            headers=bearer(group["key"]),
        )
        assert revoked.status_code == 200, revoked.text
        assert revoked.json()["role"] == "revoked" and revoked.json()["revoked_at"]

        for client in (first, second):
            answer = client.post(
                f"/games/{game['id']}/moves", json=PLAY, headers=bearer(bo["key"])
            )
            assert_problem(answer, 401, "revoked", "Bo's phone")
            answer = client.post("/games", json=BODY, headers=bearer(bo["key"]))
            assert_problem(answer, 401, "revoked")
        unknown = first.post("/games", json=BODY, headers=bearer("tlg_" + "x" * 43))
        assert_problem(unknown, 401, "unknown")


def test_a_member_may_revoke_its_own_key_but_not_anothers_nor_the_owners(client):
    group = make_group(client)
    bo, cy = joined(client, group), joined(client, group, "Cy's phone")
    path = f"/groups/{group['id']}/members"
    answer = client.delete(f"{path}/{cy['key_id']}", headers=bearer(bo["key"]))
    assert_problem(answer, 403, "Only the owner")
    answer = client.delete(f"{path}/{group['key_id']}", headers=bearer(group["key"]))
    assert_problem(answer, 422, "hand ownership on")
    answer = client.delete(f"{path}/{bo['key_id']}", headers=bearer(bo["key"]))
    assert answer.status_code == 200, answer.text
    listed = client.get(path, headers=bearer(group["key"])).json()["members"]
    assert {m["id"]: m["role"] for m in listed} == {
        group["key_id"]: "owner",
        bo["key_id"]: "revoked",
        cy["key_id"]: "member",
    }


def test_an_invite_unknown_used_up_expired_or_revoked_is_refused_in_its_own_words(
    client, database_url
):
    group = make_group(client)
    once = invite(client, group)
    assert join(client, once["code"]).status_code == 201
    assert_problem(join(client, once["code"]), 401, "used up")

    revoked = invite(client, group, uses=5)
    answer = client.delete(
        f"/groups/{group['id']}/invites/{revoked['id']}", headers=bearer(group["key"])
    )
    assert answer.status_code == 200 and answer.json()["revoked_at"], answer.text
    assert_problem(join(client, revoked["code"]), 401, "was revoked")

    expired = "tli_expired-" + uuid.uuid4().hex
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "INSERT INTO group_invites (id, group_id, code_hash, uses, expires_at)"
            " VALUES (%s, %s, %s, 1, now() - interval '1 minute')",
            (uuid.uuid4(), group["id"], hashlib.sha256(expired.encode()).digest()),
        )
    assert_problem(join(client, expired), 401, "expired")
    assert_problem(join(client, "tli_nothing-like-it"), 401, "unknown")

    listed = client.get(f"/groups/{group['id']}/invites", headers=bearer(group["key"]))
    invites = listed.json()["invites"]
    assert [i["used"] for i in invites] == [1, 0, 0]
    assert all("code" not in i for i in invites)


def test_another_groups_key_is_answered_as_a_group_that_does_not_exist(client):
    group, other = make_group(client), make_group(client)
    path = f"/groups/{group['id']}"
    for route in ("", "/members", "/invites"):
        with_other = client.get(path + route, headers=bearer(other["key"]))
        without = client.get(path + route)
        assert_problem(with_other, 404, "There is no group")
        assert with_other.json() == without.json()
    missing = uuid.uuid4()
    nowhere = client.get(f"/groups/{missing}", headers=bearer(other["key"]))
    assert nowhere.json() == with_other.json() | {
        "detail": f"There is no group {missing}."
    }


def test_a_member_key_on_an_owners_route_is_a_403(client):
    group = make_group(client)
    bo = joined(client, group)
    for answer in (
        client.post(
            f"/groups/{group['id']}/invites", json={}, headers=bearer(bo["key"])
        ),
        client.get(f"/groups/{group['id']}/members", headers=bearer(bo["key"])),
    ):
        assert_problem(answer, 403, "Only the owner")


def test_ownership_is_handed_on_to_a_member_key(client):
    group = make_group(client)
    bo = joined(client, group)
    handed = client.post(
        f"/groups/{group['id']}/owner",
        json={"member": bo["key_id"]},
        headers=bearer(group["key"]),
    )
    assert handed.status_code == 200, handed.text
    roles = {m["id"]: m["role"] for m in handed.json()["members"]}
    assert roles == {group["key_id"]: "member", bo["key_id"]: "owner"}
    answer = client.post(
        f"/groups/{group['id']}/invites", json={}, headers=bearer(group["key"])
    )
    assert_problem(answer, 403, "Only the owner")
    assert invite(client, group | {"key": bo["key"]})["uses"] == 1


def test_two_racing_redemptions_of_a_one_use_invite_make_one_member(client):
    group = make_group(client)
    code = invite(client, group)["code"]
    answers: list[int] = []
    start = threading.Barrier(4)

    def redeem(n: int) -> None:
        with httpx.Client(base_url=str(client.base_url), timeout=30) as own:
            start.wait()
            answers.append(join(own, code, f"phone {n}").status_code)

    threads = [threading.Thread(target=redeem, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201, 401, 401, 401]
    members = client.get(
        f"/groups/{group['id']}/members", headers=bearer(group["key"])
    ).json()["members"]
    assert [m["role"] for m in members] == ["owner", "member"]


def test_a_group_holds_ten_live_invites_and_an_address_makes_ten_groups_an_hour(
    client,
):
    group = make_group(client)
    for _ in range(10):
        invite(client, group, uses=3)
    answer = client.post(
        f"/groups/{group['id']}/invites", json={}, headers=bearer(group["key"])
    )
    assert_problem(answer, 422, "10 live invites")
    for _ in range(9):
        make_group(client)
    answer = client.post("/groups", json={"name": unique("One more"), "device": "x"})
    assert_problem(answer, 429, "Too many groups made from your address")
    assert 3500 < int(answer.headers["Retry-After"]) <= 3600


# ------------------------------------------------------------ app keys and claims


def _make_app_key(database_url: str, group_id: str) -> str:
    async def work():
        settings = Settings(database_url=database_url, pool_min_size=1)
        async with connection_pool(settings) as pool:
            scopes = ["games:create", "moves:write", "read"]
            return await Keys(pool).create("club app", scopes, None, group_id)

    return asyncio.run(work())[1]


def test_an_app_key_made_for_a_group_creates_and_writes_the_groups_games(
    client, database_url
):
    group = make_group(client)
    key = _make_app_key(database_url, group["id"])
    game = client.post("/games", json=BODY, headers=bearer(key))
    assert game.status_code == 201, game.text
    assert game.json()["group"] == group["name"]
    # A game a member made is the app's to write too.
    other = client.post("/games", json=BODY, headers=bearer(group["key"])).json()
    moved = client.post(f"/games/{other['id']}/moves", json=PLAY, headers=bearer(key))
    assert moved.status_code == 201, moved.text


def test_a_group_named_before_groups_were_owned_is_claimed_from_the_shell(
    create_database, monkeypatch
):
    older = create_database()
    files = migration_files()
    before = [f for f in files if f.name < "0021"]
    with monkeypatch.context() as patched:
        patched.setattr(migrations, "migration_files", lambda: before)
        migrate(older)
    with psycopg.connect(older) as conn:
        for spelt, at in (("Friday Club", "2026-01-01"), ("friday club", "2026-02-01")):
            conn.execute(
                "INSERT INTO games (id, game, players, first_player, seed, token_hash,"
                " group_name, created_at) VALUES"
                " (%s, 'dobro', '{Ann,Bob}', 'Ann', 3, '\\x00', %s, %s)",
                (uuid.uuid4(), spelt, at),
            )
    migrate(older)

    listed = tablelog_on(older, "groups", "list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.count("\n") == 1 and "\tFriday Club\t" in listed.stdout
    claimed = tablelog_on(older, "groups", "claim", "FRIDAY CLUB", "--device", "Ana")
    assert claimed.returncode == 0, claimed.stderr
    key = next(
        line.removeprefix("key: ")
        for line in claimed.stdout.splitlines()
        if line.startswith("key: ")
    )
    with (
        running_server(older) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        game = client.post("/games", json=BODY, headers=bearer(key))
        assert game.status_code == 201, game.text
        assert game.json()["group"] == "Friday Club"
        group_id = next(
            line.removeprefix("group: ")
            for line in claimed.stdout.splitlines()
            if line.startswith("group: ")
        )
        seen = client.get(f"/groups/{group_id}", headers=bearer(key)).json()
        assert seen["role"] == "owner"

        # Claimed again (a lost key): the key before is revoked.
        again = tablelog_on(older, "groups", "claim", "Friday Club")
        assert again.returncode == 0, again.stderr
        answer = client.get(f"/groups/{group_id}", headers=bearer(key))
        assert_problem(answer, 401, "revoked")
