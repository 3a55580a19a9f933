"""A group's home on its owner's phone: who sees the games started from now on,
changed with one choice, and the group's ladders, which the phone reads with the
group's key while its games are the members' alone."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.support.http import play_simulated
from tests.support.pages import make_group, serious
from tests.support.waiting import eventually


def test_the_owner_chooses_who_sees_new_games_and_reads_the_groups_ladder(
    new_page, client
):
    club = f"Chess club {uuid.uuid4().hex[:6]}"
    page = new_page()
    make_group(page, club, "Ana's phone")
    key = page.evaluate(
        "Object.values(JSON.parse(localStorage.getItem('tablelog:groups')))[0].key"
    )
    seen = page.get_by_label("New games are seen by")
    expect(seen).to_have_value("members")

    # A finished game of the group, its members' alone, is on the group's ladder.
    body = {
        "game": "dobro",
        "players": [{"name": "Ana", "new": True}, {"name": "Bo", "new": True}],
        "seed": 7,
        "options": {"rounds": 1},
    }
    made = client.post("/games", json=body, headers={"Authorization": f"Bearer {key}"})
    assert made.status_code == 201, made.text
    play_simulated(client, made.json())
    ladder = f"/leaderboards/dobro?group={club}"
    eventually(
        lambda: client.get(ladder, headers={"Authorization": f"Bearer {key}"}).json()[
            "players"
        ]
    )
    # Without the group's key, the ladder of its members' games shows no one.
    assert client.get(ladder).json()["players"] == []
    page.get_by_role("navigation", name="Ladders").get_by_role(
        "link", name="Dobro", exact=True
    ).click()
    expect(page).to_have_url(re.compile(r"#/leaderboards/dobro\?group="))
    board = page.locator("table.board")
    expect(board.get_by_role("link", name="Ana")).to_be_visible()
    expect(board.get_by_role("link", name="Bo")).to_be_visible()
    page.go_back()

    page.get_by_label("New games are seen by").select_option("public")
    expect(page.locator("#status")).to_contain_text("New games: Everyone")
    later = client.post(
        "/games",
        json={**body, "players": ["Ana", "Bo"]},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert later.json()["visibility"] == "public"
    assert page.errors == []


def test_the_groups_games_are_found_by_game_status_and_player(new_page, client):
    club = f"Card club {uuid.uuid4().hex[:6]}"
    page = new_page()
    make_group(page, club, "Ana's phone")
    key = page.evaluate(
        "Object.values(JSON.parse(localStorage.getItem('tablelog:groups')))[0].key"
    )
    owner = {"Authorization": f"Bearer {key}"}
    seats = [{"name": name, "new": True} for name in ("Ana", "Bo", "Cy")]
    finished = client.post(
        "/games",
        json={
            "game": "dobro",
            "players": seats[:2],
            "seed": 7,
            "options": {"rounds": 1},
        },
        headers=owner,
    ).json()
    play_simulated(client, finished)
    client.post("/games", json={"game": "dozito", "players": seats[1:]}, headers=owner)
    page.reload()

    games = page.get_by_role("region", name="The group's games")
    expect(games.get_by_role("listitem")).to_have_count(2)
    games.get_by_label("Status").select_option("finished")
    expect(games.get_by_role("listitem")).to_have_count(1)
    expect(games.get_by_role("listitem")).to_contain_text("Ana, Bo")
    games.get_by_label("Status").select_option("")
    games.get_by_label("With the player").fill("cy")
    games.get_by_role("button", name="Find").click()
    expect(games.get_by_role("listitem")).to_have_count(1)
    expect(games.get_by_role("listitem")).to_contain_text("Bo, Cy")
    games.get_by_label("Of the game").select_option("dobro")
    expect(games.get_by_text("No game matches.")).to_be_visible()
    assert page.errors == []


def test_a_players_page_in_the_group_counts_its_games_alone_and_compares_two(
    new_page, client, axe_source
):
    """Ana plays in the club and elsewhere: the club's page of her counts the club's
    games, rated on its ladder, and compares her with Bo, one of its players."""
    club = f"Chess club {uuid.uuid4().hex[:6]}"
    page = new_page()
    page.set_viewport_size({"width": 412, "height": 915})
    make_group(page, club, "Ana's phone")
    key = page.evaluate(
        "Object.values(JSON.parse(localStorage.getItem('tablelog:groups')))[0].key"
    )
    owner = {"Authorization": f"Bearer {key}"}
    seats = [{"name": "Ana", "new": True}, {"name": "Bo", "new": True}]
    for number, seed in enumerate((7, 8)):
        made = client.post(
            "/games",
            json={
                "game": "dobro",
                "players": seats if number == 0 else ["Ana", "Bo"],
                "seed": seed,
                "options": {"rounds": 1},
            },
            headers=owner,
        )
        assert made.status_code == 201, made.text
        play_simulated(client, made.json())
    elsewhere = client.post(
        "/games",
        json={
            "game": "dobro",
            "players": ["Ana", "Cy"],
            "seed": 9,
            "options": {"rounds": 1},
        },
    )
    play_simulated(client, elsewhere.json())
    ratings = f"/leaderboards/dobro?group={club}"
    eventually(
        lambda: (
            sum(
                p["games_rated"]
                for p in client.get(ratings, headers=owner).json()["players"]
            )
            == 4
        )
    )

    page.reload()
    page.get_by_role("region", name="Players").get_by_role("link", name="Ana").click()
    expect(page.get_by_role("heading", name=f"Ana in {club}", level=1)).to_be_visible()
    expect(page.get_by_text("2 games played, 2 finished")).to_be_visible()
    expect(
        page.get_by_role("img", name="Dobro rating after each of 2 games")
    ).to_be_visible()
    page.get_by_label("Against").select_option(label="Bo")
    page.get_by_role("button", name="Compare").click()
    expect(page.get_by_text("2 finished games together")).to_be_visible()
    assert "Cy" not in page.locator("main").inner_text()
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    assert serious(page, axe_source) == []
    page.get_by_role("link", name=f"Back to {club}").click()
    expect(page.get_by_role("heading", name=club, level=1)).to_be_visible()
    assert page.errors == []


def test_the_groups_ladder_and_games_lead_to_its_players_pages(new_page, client):
    club = f"Card club {uuid.uuid4().hex[:6]}"
    page = new_page()
    make_group(page, club, "Ana's phone")
    held = page.evaluate(
        "Object.values(JSON.parse(localStorage.getItem('tablelog:groups')))[0]"
    )
    owner = {"Authorization": f"Bearer {held['key']}"}
    seats = [{"name": "Ana", "new": True}, {"name": "Bo", "new": True}]
    made = client.post(
        "/games",
        json={"game": "dobro", "players": seats, "seed": 7, "options": {"rounds": 1}},
        headers=owner,
    ).json()
    play_simulated(client, made)
    ladder = f"/leaderboards/dobro?group={club}"
    eventually(lambda: client.get(ladder, headers=owner).json()["players"])
    roster = client.get(f"/groups/{held['id']}/players", headers=owner)
    ids = {player["name"]: player["id"] for player in roster.json()["players"]}

    page.goto(f"/app/#/leaderboards/dobro?group={club}")
    page.locator("table.board").get_by_role("link", name="Bo").click()
    expect(page.get_by_role("heading", name=f"Bo in {club}", level=1)).to_be_visible()
    assert page.url.endswith(f"/players/{ids['Bo']}")
    page.goto(f"/app/#/groups/{held['id']}")
    page.get_by_role("region", name="The group's games").get_by_role(
        "link"
    ).first.click()
    page.get_by_role("link", name="Ana", exact=True).first.click()
    expect(page.get_by_role("heading", name=f"Ana in {club}", level=1)).to_be_visible()
    assert page.errors == []
