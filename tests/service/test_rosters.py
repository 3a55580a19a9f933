"""A group's roster over HTTP on a real PostgreSQL: members add and retire players,
each with an id; a game of the group seats them by id or by name as names are
compared; a name on nobody is refused with the roster's nearest names ("did you
mean Mauricio?") unless the request says the player is new; and the roster is shown
to the group's members only."""

from __future__ import annotations

import threading
import uuid

import httpx
import psycopg
import pytest

from service.application import rosters
from service.storage import migrate as migrations
from service.storage.migrate import migrate, migration_files
from tests.support.groups import ADDRESSES, make_group, new_players
from tests.support.http import client_from
from tests.support.keys import bearer
from tests.support.server import running_server

GAME = {"game": "dobro", "seed": 3}
NDJSON = {"Content-Type": "application/x-ndjson"}


@pytest.fixture(scope="module")
def base_url(database_url):
    with running_server(database_url) as url:
        yield url


@pytest.fixture
def client(base_url):
    with client_from(base_url, next(ADDRESSES)) as client:
        yield client


def add(client: httpx.Client, group: dict, name: str) -> httpx.Response:
    return client.post(
        f"/groups/{group['id']}/players",
        json={"name": name},
        headers=bearer(group["key"]),
    )


def added(client: httpx.Client, group: dict, name: str) -> dict:
    answer = add(client, group, name)
    assert answer.status_code == 201, answer.text
    return answer.json()


def roster(client: httpx.Client, group: dict, **params) -> list[dict]:
    answer = client.get(
        f"/groups/{group['id']}/players", params=params, headers=bearer(group["key"])
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["players"]


def create(client: httpx.Client, group: dict | None, players: list, **body):
    headers = bearer(group["key"]) if group else {}
    return client.post(
        "/games", json={**GAME, "players": players, **body}, headers=headers
    )


def test_members_add_players_each_with_an_id_listed_by_name(client):
    group = make_group(client)
    zoe = added(client, group, "  Zoé ")
    bob = added(client, group, "bob")

    assert zoe["name"] == "Zoé"
    assert [(p["id"], p["name"], p["retired"]) for p in roster(client, group)] == [
        (bob["id"], "bob", False),
        (zoe["id"], "Zoé", False),
    ]
    one = client.get(
        f"/groups/{group['id']}/players/{zoe['id']}", headers=bearer(group["key"])
    )
    assert one.json() == zoe


def test_a_name_another_player_has_as_names_are_compared_is_a_409_naming_them(
    client,
):
    group = make_group(client)
    ana = added(client, group, "Ana")

    again = add(client, group, "ANA")

    assert again.status_code == 409
    assert again.json()["player_id"] == ana["id"]
    assert "Ana is on the roster already" in again.json()["detail"]
    assert len(roster(client, group)) == 1


def test_two_phones_adding_one_name_at_once_make_one_player(base_url):
    with client_from(base_url, next(ADDRESSES)) as client:
        group = make_group(client)
    answers: list[int] = []

    def adding() -> None:
        with client_from(base_url, next(ADDRESSES)) as client:
            answers.append(add(client, group, "Mauricio").status_code)

    threads = [threading.Thread(target=adding) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == [201, 409, 409, 409]
    with client_from(base_url, next(ADDRESSES)) as client:
        assert [p["name"] for p in roster(client, group)] == ["Mauricio"]


def test_a_retired_player_is_listed_only_when_asked_for_and_comes_back(client):
    group = make_group(client)
    guest = added(client, group, "Guest")
    address = f"/groups/{group['id']}/players/{guest['id']}"

    retired = client.patch(
        address, json={"retired": True}, headers=bearer(group["key"])
    )

    assert retired.status_code == 200 and retired.json()["retired"] is True
    assert roster(client, group) == []
    assert [p["id"] for p in roster(client, group, retired="true")] == [guest["id"]]
    back = client.patch(address, json={"retired": False}, headers=bearer(group["key"]))
    assert back.json()["retired"] is False
    assert [p["id"] for p in roster(client, group)] == [guest["id"]]


def test_a_roster_is_its_groups_members_only_as_a_group_that_does_not_exist(client):
    group, other = make_group(client), make_group(client)
    ana = added(client, group, "Ana")
    address = f"/groups/{group['id']}/players"

    stranger = client.get(address)
    another_group = client.get(address, headers=bearer(other["key"]))
    nowhere = client.get(
        f"/groups/{uuid.uuid4()}/players", headers=bearer(group["key"])
    )

    assert stranger.status_code == another_group.status_code == 404
    assert stranger.json()["detail"] == f"There is no group {group['id']}."
    assert nowhere.status_code == 404
    assert client.post(address, json={"name": "Eve"}).status_code == 404
    other_player = client.get(
        f"/groups/{other['id']}/players/{ana['id']}", headers=bearer(other["key"])
    )
    assert other_player.status_code == 404
    assert other_player.json()["detail"] == f"The group has no player {ana['id']}."


def test_a_groups_game_seats_its_players_by_id_or_by_name_as_the_roster_spells_them(
    client,
):
    group = make_group(client)
    mauricio = added(client, group, "Mauricio")
    added(client, group, "Zoé")

    game = create(client, group, [{"id": mauricio["id"]}, "zoé"], first_player="ZOÉ")

    assert game.status_code == 201, game.text
    assert game.json()["players"] == ["Mauricio", "Zoé"]
    assert game.json()["first_player"] == "Zoé"
    by_id = create(
        client, group, ["Zoé", {"id": mauricio["id"]}], first_player=mauricio["id"]
    )
    assert by_id.json()["first_player"] == "Mauricio"


def test_a_name_on_nobody_is_refused_with_the_nearest_names_and_stores_nothing(
    client,
):
    group = make_group(client)
    mauricio = added(client, group, "Mauricio")
    added(client, group, "Zoé")
    before = client.get(
        "/games", params={"group": group["name"]}, headers=bearer(group["key"])
    )

    typo = create(client, group, ["Mauricoi", "Zoe", "Quentin"])

    assert typo.status_code == 422
    problem = typo.json()
    assert problem["detail"] == (
        f"Nobody called Mauricoi plays in {group['name']}: did you mean Mauricio?"
    )
    assert problem["players"] == [
        {
            "seat": 0,
            "name": "Mauricoi",
            "nearest": [{"id": mauricio["id"], "name": "Mauricio"}],
        },
        {
            "seat": 1,
            "name": "Zoe",
            "nearest": [
                {"id": problem["players"][1]["nearest"][0]["id"], "name": "Zoé"}
            ],
        },
        {"seat": 2, "name": "Quentin", "nearest": []},
    ]
    after = client.get(
        "/games", params={"group": group["name"]}, headers=bearer(group["key"])
    )
    assert after.json() == before.json()
    assert len(roster(client, group)) == 2


def test_the_refusal_of_a_name_on_nobody_speaks_the_callers_language(client):
    group = make_group(client)
    added(client, group, "Léa")

    typo = client.post(
        "/games",
        json={**GAME, "players": ["Lea", "Nina"]},
        headers={**bearer(group["key"]), "Accept-Language": "fr"},
    )

    assert typo.status_code == 422
    assert typo.json()["detail"] == (
        f"Personne ne s'appelle Lea dans {group['name']} : vouliez-vous dire Léa ?"
    )


def test_a_new_player_said_new_joins_the_roster_with_the_game(client):
    group = make_group(client)
    added(client, group, "Ana")

    game = create(client, group, ["ana", {"name": "Nina", "new": True}])

    assert game.status_code == 201, game.text
    assert game.json()["players"] == ["Ana", "Nina"]
    assert [p["name"] for p in roster(client, group)] == ["Ana", "Nina"]
    again = create(client, group, ["Ana", {"name": "NINA", "new": True}])
    assert again.json()["players"] == ["Ana", "Nina"]
    assert len(roster(client, group)) == 2


def test_an_id_the_roster_lacks_is_a_404_and_seating_one_person_twice_a_422(client):
    group, other = make_group(client), make_group(client)
    ana = added(client, group, "Ana")
    stranger = added(client, other, "Eve")

    unknown = create(client, group, [{"id": str(uuid.uuid4())}, "Ana"])
    of_another_group = create(client, group, [{"id": stranger["id"]}, "Ana"])
    twice = create(client, group, [{"id": ana["id"]}, "ana"])

    assert unknown.status_code == of_another_group.status_code == 404
    assert of_another_group.json()["detail"] == (
        f"The group has no player {stranger['id']}."
    )
    assert twice.status_code == 422
    assert "Ana is given twice" in twice.json()["detail"]


def test_a_game_of_no_group_seats_names_and_has_no_roster(client):
    by_name = create(client, None, [{"name": "Ann"}, "Bob"])
    by_id = create(client, None, [{"id": str(uuid.uuid4())}, "Bob"])
    neither = create(client, None, [{"name": "Ann", "id": str(uuid.uuid4())}, "Bob"])

    assert by_name.status_code == 201, by_name.text
    assert by_name.json()["players"] == ["Ann", "Bob"]
    assert by_id.status_code == 422
    assert "only a game created in a group" in by_id.json()["detail"]
    assert neither.status_code == 422


def test_a_game_imported_into_a_group_brings_its_players_to_the_roster(client):
    group = make_group(client)
    added(client, group, "ann")
    # Unlisted, and a seed of its own: a game the group lists with the same
    # set-up would be found, and the file not stored.
    created = create(
        client,
        None,
        ["Ann", "Bob"],
        first_player="Ann",
        seed=uuid.uuid4().int >> 65,
        visibility="unlisted",
    )
    exported = client.get(f"/games/{created.json()['id']}/export")

    imported = client.post(
        "/games/import",
        content=exported.content,
        headers={**NDJSON, **bearer(group["key"])},
    )

    assert imported.status_code == 201, imported.text
    assert [p["name"] for p in roster(client, group)] == ["ann", "Bob"]


def test_the_groups_held_before_rosters_get_one_player_per_name_as_compared(
    create_database, monkeypatch
):
    older = create_database()
    before = [f for f in migration_files() if f.name < "0025"]
    with monkeypatch.context() as patched:
        patched.setattr(migrations, "migration_files", lambda: before)
        migrate(older)
    with psycopg.connect(older) as conn:
        group_id = uuid.uuid4()
        conn.execute(
            "INSERT INTO groups (id, name) VALUES (%s, 'Friday Club')", (group_id,)
        )
        for players, spelt, at in (
            ("{Ann,Bob}", "Friday Club", "2026-01-01"),
            ("{ANN,Cy}", "friday club", "2026-02-01"),
            ("{Dee,Eve}", None, "2026-03-01"),
        ):
            conn.execute(
                "INSERT INTO games (id, game, players, first_player, seed, token_hash,"
                " group_name, created_at) VALUES"
                " (%s, 'dobro', %s, 'Ann', 3, '\\x00', %s, %s)",
                (uuid.uuid4(), players, spelt, at),
            )
    migrate(older)

    with psycopg.connect(older) as conn:
        names = conn.execute(
            "SELECT n.name, c.change FROM roster_names n"
            " JOIN roster_changes c USING (player_id)"
            " WHERE n.group_id = %s ORDER BY n.name",
            (group_id,),
        ).fetchall()
    assert names == [("Ann", "added"), ("Bob", "added"), ("Cy", "added")]


def test_an_import_refused_as_a_game_already_here_brings_no_one_to_the_roster(client):
    group = make_group(client)
    public = create(client, None, ["Ines", "Joao"], seed=uuid.uuid4().int >> 65)
    exported = client.get(f"/games/{public.json()['id']}/export")

    again = client.post(
        "/games/import",
        content=exported.content,
        headers={**NDJSON, **bearer(group["key"])},
    )

    assert again.status_code == 409, again.text
    assert roster(client, group) == []


def test_a_game_that_would_overfill_the_roster_stores_neither_game_nor_player(
    client, monkeypatch
):
    monkeypatch.setattr(rosters, "MOST_PLAYERS", 3)
    group = make_group(client)
    added(client, group, "Ana")
    added(client, group, "Bob")
    games = {"group": group["name"]}

    full = create(client, group, ["Ana", *new_players("Cy", "Dee")])

    assert full.status_code == 422
    assert full.json()["detail"] == "A group holds at most 3 players."
    assert [p["name"] for p in roster(client, group)] == ["Ana", "Bob"]
    listed = client.get("/games", params=games, headers=bearer(group["key"]))
    assert listed.json()["games"] == []
