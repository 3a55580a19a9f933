"""Who sees what, over HTTP on a real PostgreSQL: every read of one game that the
OpenAPI document lists, for a public, an unlisted and a members-only game, asked by
an outsider, a member of another group, a member, an app key made for the group and
the game's write-token holder. A game hidden from the caller answers exactly as a
game never created does (status, body but for the id, the headers that matter)."""

from __future__ import annotations

import json
import uuid

import httpx
import msgspec
import psycopg
import pytest

from domain.game import Setup
from domain.registry import BUILT_IN
from service.http import caching
from service.http.app import create_app
from service.http.guards import holds_write_token, may_change_variation, may_read
from service.settings import Settings
from tests.support.groups import (
    ADDRESSES,
    make_group,
    make_group_app_key,
    new_players,
)
from tests.support.hidden import filled, game_paths, normalised, read
from tests.support.http import client_from, play_simulated
from tests.support.keys import KEYED, bearer, make_key
from tests.support.problems import assert_problem
from tests.support.ratings import Table
from tests.support.receivers import receiver
from tests.support.server import running_server
from tests.support.waiting import eventually
from tests.support.webhooks import register, verified

BODY = {"game": "dobro", "first_player": "Ann", "seed": 3}
NDJSON = {"Content-Type": "application/x-ndjson"}


@pytest.fixture(scope="module")
def base_url(database_url):
    with running_server(database_url) as url:
        yield url


@pytest.fixture
def client(base_url):
    with client_from(base_url, next(ADDRESSES)) as client:
        yield client


def new_game(client: httpx.Client, key: str | None, **body) -> dict:
    players = body.pop("players", [f"Ann {uuid.uuid4().hex[:4]}", "Bob"])
    seats = new_players(*players)
    body = {**BODY, "first_player": players[0], "players": seats, **body}
    answer = client.post("/games", json=body, headers=bearer(key) if key else {})
    assert answer.status_code == 201, answer.text
    return answer.json()


@pytest.fixture(scope="module")
def table(base_url, database_url):
    """Two groups, an app key made for the first, and a game of each visibility in
    it, played to its end (a note on its first step)."""
    with client_from(base_url, "127.0.9.1") as client:
        ours = make_group(client, visibility="public")
        theirs = make_group(client)
        app = make_group_app_key(database_url, ours["id"])
        games = {}
        for visibility in ("public", "unlisted", "members"):
            game = new_game(client, ours["key"], visibility=visibility)
            assert game["visibility"] == visibility and game["group"] == ours["name"]
            play_simulated(client, game)
            noted = client.post(
                f"/games/{game['id']}/notes",
                json={"step": 1, "text": "well played"},
                headers=bearer(game["write_token"]),
            )
            assert noted.status_code == 201, noted.text
            games[visibility] = game
        return {"ours": ours, "theirs": theirs, "app": app, "games": games}


CALLERS = ("outsider", "other member", "member", "group app", "token holder")


def credential(table: dict, caller: str, game: dict) -> dict:
    return {
        "outsider": {},
        "other member": bearer(table["theirs"]["key"]),
        "member": bearer(table["ours"]["key"]),
        "group app": bearer(table["app"]),
        "token holder": bearer(game["write_token"]),
    }[caller]


def sees(visibility: str, caller: str) -> bool:
    return visibility != "members" or caller in ("member", "group app", "token holder")


@pytest.mark.parametrize("path", game_paths())
@pytest.mark.parametrize("visibility", ["public", "unlisted", "members"])
def test_every_read_of_a_game_follows_its_visibility(client, table, path, visibility):
    game = table["games"][visibility]
    missing = str(uuid.uuid4())
    for caller in CALLERS:
        headers = credential(table, caller, game)
        answer = read(client, filled(path, game["id"]), headers)
        if sees(visibility, caller):
            assert answer.status_code == 200, (caller, answer.text)
            private = "private" in answer.headers.get("cache-control", "")
            assert private == (visibility == "members"), (caller, answer.headers)
            if "cache-control" in answer.headers and path != "/games/{game_id}/stream":
                assert "Authorization" in answer.headers["vary"]
        else:
            never = read(client, filled(path, missing), headers)
            assert never.status_code == 404
            assert normalised(answer, game["id"]) == normalised(never, missing)


def test_a_hidden_game_is_missing_whatever_if_none_match_says(client, table):
    game = table["games"]["members"]
    path = f"/games/{game['id']}"
    seen = client.get(path, headers=bearer(table["ours"]["key"]))
    tag = {"If-None-Match": seen.headers["etag"]}
    assert (
        client.get(path, headers=tag | bearer(table["ours"]["key"])).status_code == 304
    )
    assert client.get(path, headers=tag).status_code == 404
    assert client.get(path, headers=tag | {"If-None-Match": "*"}).status_code == 404


def test_writes_to_a_hidden_game_answer_as_a_missing_game(client, table):
    game = table["games"]["members"]
    play = {"type": "play", "player": game["players"][0], "cards": [4]}
    for headers in ({}, bearer("not-its-token"), bearer(table["theirs"]["key"])):
        for path, body in (
            ("moves", play),
            ("notes", {"step": 1, "text": "x"}),
            ("variations", {"at": 1}),
            ("rematch", None),
        ):
            hidden = client.post(
                f"/games/{game['id']}/{path}", json=body, headers=headers
            )
            missing = str(uuid.uuid4())
            never = client.post(f"/games/{missing}/{path}", json=body, headers=headers)
            assert never.status_code == 404, (path, headers, never.text)
            assert normalised(hidden, game["id"]) == normalised(never, missing)
        # Naming or hiding one of its variations: whatever the variation's id.
        variation = f"variations/{uuid.uuid4()}"
        hidden = client.patch(
            f"/games/{game['id']}/{variation}", json={"hidden": True}, headers=headers
        )
        missing = str(uuid.uuid4())
        never = client.patch(
            f"/games/{missing}/{variation}", json={"hidden": True}, headers=headers
        )
        assert never.status_code == 404, (headers, never.text)
        assert normalised(hidden, game["id"]) == normalised(never, missing)


def test_a_members_game_needs_a_group(client):
    answer = client.post(
        "/games", json={**BODY, "players": ["Ann", "Bob"], "visibility": "members"}
    )
    assert_problem(answer, 422, "members-only game needs a group")


def test_a_game_of_no_group_is_public_unless_it_asks(client):
    assert new_game(client, None)["visibility"] == "public"
    assert new_game(client, None, visibility="unlisted")["visibility"] == "unlisted"


def test_a_groups_games_take_its_default_which_its_owner_changes(client):
    group = make_group(client)
    assert group["visibility"] == "members"
    assert new_game(client, group["key"])["visibility"] == "members"
    answer = client.post(
        f"/groups/{group['id']}/visibility",
        json={"visibility": "unlisted"},
        headers=bearer(group["key"]),
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["visibility"] == "unlisted"
    assert new_game(client, group["key"])["visibility"] == "unlisted"
    asked = new_game(client, group["key"], visibility="public")
    assert asked["visibility"] == "public"
    seen = client.get(f"/groups/{group['id']}", headers=bearer(group["key"]))
    assert seen.json()["visibility"] == "unlisted"


def test_only_the_owner_changes_a_groups_default(client):
    group = make_group(client)
    stranger = make_group(client)
    path = f"/groups/{group['id']}/visibility"
    body = {"visibility": "public"}
    assert client.post(path, json=body).status_code == 404
    assert (
        client.post(path, json=body, headers=bearer(stranger["key"])).status_code == 404
    )


def test_a_variation_keeps_its_games_group_and_visibility(client, table):
    game = table["games"]["members"]
    answer = client.post(
        f"/games/{game['id']}/variations",
        json={"at": 1},
        headers=bearer(game["write_token"]),
    )
    assert answer.status_code == 201, answer.text
    variation = answer.json()
    assert variation["visibility"] == "members"
    assert variation["group"] == table["ours"]["name"]
    assert client.get(f"/games/{variation['id']}").status_code == 404
    seen = client.get(f"/games/{variation['id']}", headers=bearer(table["ours"]["key"]))
    assert seen.status_code == 200


def exported_file(players: tuple[str, str], seed: int) -> bytes:
    """A finished game's export, as a file to import."""
    rules = BUILT_IN["dozito"]
    setup = Setup(players=players, first_player=players[0], seed=seed)
    created = {
        "type": "game_created",
        "game": "dozito",
        "players": list(players),
        "first_player": players[0],
        "seed": seed,
        "options": {},
    }
    moves = [msgspec.json.encode(m) for m in rules.simulate(setup)]
    return b"\n".join([json.dumps(created).encode(), *moves]) + b"\n"


def test_an_import_is_never_a_game_hidden_from_the_importer(client):
    group = make_group(client)
    file = exported_file((f"Ann {uuid.uuid4().hex[:4]}", "Bob"), 11)
    first = client.post(
        "/games/import", content=file, headers=NDJSON | bearer(group["key"])
    )
    assert first.status_code == 201, first.text
    # To an outsider the members' game does not exist: the file is a game of its
    # own, and no answer names the hidden one.
    outside = client.post("/games/import", content=file, headers=NDJSON)
    assert outside.status_code == 201, outside.text
    assert outside.json()["id"] != first.json()["id"]
    assert first.json()["id"] not in outside.text
    # To a member it is the game already there.
    again = client.post(
        "/games/import", content=file, headers=NDJSON | bearer(group["key"])
    )
    assert_problem(again, 409)
    assert again.json()["game_id"] == first.json()["id"]


def test_an_import_asks_for_its_visibility(client):
    file = exported_file((f"Ann {uuid.uuid4().hex[:4]}", "Bob"), 12)
    answer = client.post(
        "/games/import", params={"visibility": "unlisted"}, content=file, headers=NDJSON
    )
    assert answer.status_code == 201, answer.text
    game = client.get(f"/games/{answer.json()['id']}").json()
    assert game["visibility"] == "unlisted"
    refused = client.post(
        "/games/import", params={"visibility": "members"}, content=file, headers=NDJSON
    )
    assert_problem(refused, 422, "members-only game needs a group")


def test_every_route_of_one_game_asks_first_whether_the_caller_sees_it():
    app = create_app(Settings(database_url="postgresql://offline/tablelog"), BUILT_IN)
    asks = {may_read, holds_write_token, may_change_variation, caching._not_modified}
    routes = [
        handler
        for route in app.routes
        if "{game_id" in route.path
        for handler in getattr(route, "route_handlers", ())
        if handler.http_methods != {"OPTIONS"}
    ]
    assert len(routes) >= 15
    for handler in routes:
        assert handler.resolve_before_request() in asks, handler.paths


# ------------------------------------------------------------------ listings


def listed(client: httpx.Client, player: str, headers: dict) -> set[str]:
    answer = client.get("/games", params={"player": player}, headers=headers)
    assert answer.status_code == 200, answer.text
    assert "Authorization" in answer.headers["vary"]
    return {game["id"] for game in answer.json()["games"]}


def feed_end(database_url: str) -> str:
    """A cursor at the end of the feed as it stands now (as `/feed/stream` starts
    from): the feed of a shared database is read from there."""
    with psycopg.connect(database_url) as conn:
        (horizon,) = conn.execute("SELECT log_horizon()::text::bigint").fetchone()
    return f"{horizon - 1}.{2**63 - 1}"


def fed(client: httpx.Client, headers: dict, after: str) -> set[str]:
    """The games of every event of the feed after the cursor, read to its end."""
    seen = set()
    while True:
        params = {"limit": 1000, "after": after}
        page = client.get("/feed", params=params, headers=headers)
        assert page.status_code == 200, page.text
        events = page.json()["events"]
        seen |= {event["game_id"] for event in events}
        if not events:
            return seen
        after = page.json()["next"]


def test_listings_show_the_public_games_and_the_callers_own_groups(client, table):
    games = table["games"]
    ids = {visibility: game["id"] for visibility, game in games.items()}
    public = {ids["public"]}
    every = set(ids.values())
    expected = {
        "outsider": public,
        "other member": public,
        "member": every,
        "group app": every,
        # A write token reads its game; it lists nothing more than anyone's.
        "token holder": public,
    }
    member = bearer(table["ours"]["key"])
    players = [game["players"][0] for game in games.values()]

    def all_listed() -> bool:
        return set().union(*(listed(client, p, member) for p in players)) == every

    eventually(all_listed, seconds=20)
    for caller, wanted in expected.items():
        headers = credential(table, caller, games["members"])
        found = set().union(*(listed(client, p, headers) for p in players))
        assert found == wanted, caller
    answer = client.get("/games", headers=member)
    assert "private" in answer.headers["cache-control"]
    assert "private" not in client.get("/games").headers["cache-control"]


def test_a_groups_games_are_listed_by_its_name_as_their_readers_may_see_them(
    client, table
):
    games, ours = table["games"], table["ours"]
    ids = {visibility: game["id"] for visibility, game in games.items()}
    member = bearer(ours["key"])

    def of_group(headers: dict, name: str) -> list[dict]:
        answer = client.get("/games", params={"group": name}, headers=headers)
        assert answer.status_code == 200, answer.text
        return answer.json()["games"]

    eventually(lambda: len(of_group(member, ours["name"])) == 3, seconds=20)
    # Its name as names are compared; each item names its group.
    listed = of_group(member, ours["name"].upper())
    assert {game["id"] for game in listed} == set(ids.values())
    assert {game["group"] for game in listed} == {ours["name"]}
    # Anyone else, the group's public games alone; another group's, none of these.
    for caller in ("outsider", "other member", "token holder"):
        headers = credential(table, caller, games["members"])
        found = {game["id"] for game in of_group(headers, ours["name"])}
        assert found == {ids["public"]}, caller
    assert of_group(member, table["theirs"]["name"]) == []
    too_long = client.get("/games", params={"group": "x" * 41})
    assert too_long.status_code == 422, too_long.text


def test_the_feed_carries_the_public_games_and_the_callers_own_groups(
    client, table, database_url
):
    after = feed_end(database_url)
    games = {
        visibility: new_game(client, table["ours"]["key"], visibility=visibility)
        for visibility in ("public", "unlisted", "members")
    }
    for game in games.values():
        play_simulated(client, game, limit=1)
    every = {game["id"] for game in games.values()}
    public = {games["public"]["id"]}
    member = bearer(table["ours"]["key"])
    eventually(lambda: fed(client, member, after) & every == every, seconds=20)
    for caller, wanted in {
        "outsider": public,
        "other member": public,
        "member": every,
        "group app": every,
        "token holder": public,
    }.items():
        headers = credential(table, caller, games["members"])
        assert fed(client, headers, after) & every == wanted, caller


def test_a_webhook_is_told_of_public_games_and_its_own_groups_only(
    fresh_database_url,
):
    settings = {"webhooks_allow_private": True, "webhook_retries": (0.2, 0.2, 0.2)}
    with (
        receiver() as outside,
        receiver() as inside,
        running_server(fresh_database_url, **settings) as url,
        httpx.Client(base_url=url) as client,
    ):
        group = make_group(client)
        outsiders = register(client, make_key(fresh_database_url, KEYED), outside.url)
        app = make_group_app_key(fresh_database_url, group["id"])
        insiders = register(client, app, inside.url)
        hidden = new_game(client, group["key"])
        assert hidden["visibility"] == "members"
        shown = new_game(client, None)
        play_simulated(client, hidden, limit=2)
        play_simulated(client, shown, limit=2)
        eventually(lambda: len(inside.received) >= 4, seconds=20)
        eventually(lambda: len(outside.received) >= 2, seconds=20)
        told = {m["data"]["game_id"] for m in verified(inside, insiders["secret"])}
        assert told == {hidden["id"], shown["id"]}
        told = {m["data"]["game_id"] for m in verified(outside, outsiders["secret"])}
        assert told == {shown["id"]}


# ------------------------------------------------------------------ ladders


def named(count: int) -> list[str]:
    tag = uuid.uuid4().hex[:6]
    return [f"{name}-{tag}" for name in ("Ana", "Bia", "Caio", "Davi")[:count]]


def rated_as_folded(table: Table, players, group=None, **view) -> None:
    """Each player's ratings as served equal openskill's fold of the games the
    ladder shown rates."""
    public_only = view.get("as_member") is False
    expected = table.expected(group, public_only=public_only)
    eventually(
        lambda: all(
            table.served(p, group, **view) == expected.get(p, []) for p in players
        ),
        seconds=20,
    )


def test_ladders_rate_only_what_their_readers_may_see_and_undos_refold_them(client):
    table = Table(client, group_visibility="members")
    ana, bia, caio, davi = players = named(4)
    club = f"Club-{uuid.uuid4().hex[:6]}"
    hidden = table.play([ana, bia, caio], seed=1, group=club)
    shown = table.play([ana, bia, davi], seed=2, group=club, visibility="public")
    table.play([bia, caio, davi], seed=3, group=club)
    table.play([ana, caio, davi], seed=4, group=club, visibility="public")
    table.play([ana, bia, caio, davi], seed=5)  # public, of no group
    for _ in range(2):
        rated_as_folded(table, players)  # the game's own: public games only
        rated_as_folded(table, players, club)  # the members': every game
        rated_as_folded(table, players, club, as_member=False)  # its public part
        global_games = {
            rated["game_id"]
            for p in players
            for rated in client.get(f"/players/{p}/ratings/dobro").json()["ratings"]
        }
        assert hidden["id"] not in global_games
        # An undo reopens a game: withdrawn, every ladder it was on refolds.
        table.undo(shown if shown["id"] in table.finished else hidden)
    table.finish(hidden)
    rated_as_folded(table, players, club)
    rated_as_folded(table, players, club, as_member=False)


def test_a_group_with_no_public_rated_games_is_as_a_group_that_does_not_exist(
    client,
):
    table = Table(client, game="dozito", group_visibility="members")
    club = f"Club-{uuid.uuid4().hex[:6]}"
    players = named(3)
    table.play(players, seed=1, group=club)
    rated_as_folded(table, players, club)
    nobody = f"Nobody-{uuid.uuid4().hex[:6]}"
    shown = client.get("/leaderboards/dozito", params={"group": club})
    missing = client.get("/leaderboards/dozito", params={"group": nobody})
    assert shown.status_code == missing.status_code == 200
    assert shown.content.replace(club.encode(), b"G") == missing.content.replace(
        nobody.encode(), b"G"
    )
    member = bearer(table.key_of(club))
    board = client.get("/leaderboards/dozito", params={"group": club}, headers=member)
    assert {line["name"] for line in board.json()["players"]} == set(players)
    assert "private" in board.headers["cache-control"]


def test_a_players_record_counts_the_games_the_caller_may_see_listed(client):
    table = Table(client, group_visibility="members")
    ana, bia = named(2)
    club = f"Club-{uuid.uuid4().hex[:6]}"
    table.play([ana, bia], seed=1, group=club)
    table.play([ana, bia], seed=2)
    member = bearer(table.key_of(club))

    def played(headers: dict) -> int:
        answer = client.get(f"/players/{ana}", headers=headers)
        return answer.json()["played"] if answer.status_code == 200 else 0

    def together(headers: dict) -> int:
        path = f"/players/{ana}/versus/{bia}"
        return client.get(path, headers=headers).json()["played"]

    # The list is written ahead of the runner, the ratings by it: both caught up.
    eventually(lambda: played(member) == 2 and together(member) == 2, seconds=20)
    assert played({}) == 1 and together({}) == 1


def test_with_rated_needs_key_a_keyless_game_is_on_no_games_own_ladder(
    fresh_database_url,
):
    with (
        running_server(fresh_database_url, rated_needs_key=True) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        table = Table(client, group_visibility="public")
        ana, bia, caio = players = named(3)
        keyless = table.play([ana, bia, caio], seed=1)
        table.play([ana, bia, caio], seed=2, group=f"Club-{uuid.uuid4().hex[:6]}")
        eventually(lambda: len(table.served(ana)) == 1, seconds=20)
        served = client.get(f"/players/{ana}/ratings/dobro").json()["ratings"]
        assert keyless["id"] not in {rated["game_id"] for rated in served}
        assert all(len(table.served(p)) == 1 for p in players)
