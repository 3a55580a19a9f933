"""A player's page and the leaderboards in the browser: reached from a finished
game's players and from the start page, in English and French, at 412 px, and
free of serious accessibility violations."""

from __future__ import annotations

import time
import uuid

from playwright.sync_api import expect

from tests.support.pages import serious
from tests.support.ratings import Table

WIDE = {"width": 412, "height": 915}


def rated_table(client) -> tuple[list[str], str, dict]:
    """Five finished Dozito games of three players in a group, rated."""
    tag = uuid.uuid4().hex[:6]
    names = [f"Ana-{tag}", f"Bia-{tag}", f"Caio-{tag}"]
    group = f"Club-{tag}"
    table = Table(client, game="dozito")
    games = [table.play(names, seed=seed, group=group) for seed in range(5)]
    deadline = time.monotonic() + 20
    while True:
        answer = client.get(f"/players/{names[0]}/ratings/dozito")
        if answer.status_code == 200 and len(answer.json()["ratings"]) == 5:
            break
        assert time.monotonic() < deadline, "the ratings did not catch up"
        time.sleep(0.05)
    return names, group, games[-1]


def fits(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def test_a_finished_games_players_lead_to_their_ratings_and_rivals(new_page, client):
    names, _, game = rated_table(client)
    page = new_page()
    page.set_viewport_size(WIDE)
    page.goto(f"/app/#/games/{game['id']}")
    page.get_by_role("link", name=names[0], exact=True).click()
    expect(page.get_by_role("heading", name=names[0], exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="Dozito")).to_be_visible()
    rating = client.get(f"/players/{names[0]}").json()["games"]["dozito"]["rating"]
    expect(page.get_by_text(f"Rating {rating['ordinal']:.1f}")).to_be_visible()
    expect(
        page.get_by_role("img", name="Dozito rating after each of 5 games")
    ).to_be_visible()
    expect(page.get_by_role("heading", name="Rivals")).to_be_visible()
    expect(page.get_by_role("heading", name="Recent games")).to_be_visible()
    assert fits(page)
    assert page.errors == []


def test_the_start_page_leads_to_a_groups_leaderboard_in_french(new_page, client):
    names, group, _ = rated_table(client)
    page = new_page("fr-FR")
    page.set_viewport_size(WIDE)
    page.goto("/app/")
    boards = page.get_by_role("navigation", name="Classements")
    boards.get_by_role("link", name="Dozito").click()
    expect(page.get_by_role("heading", name="Classement de Dozito")).to_be_visible()
    page.get_by_label("Groupe (facultatif)").fill(group)
    page.get_by_role("button", name="Afficher").click()
    expect(
        page.get_by_role("heading", name=f"Classement de Dozito : {group}")
    ).to_be_visible()
    board = client.get("/leaderboards/dozito", params={"group": group}).json()
    rows = page.locator("table.board tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first.get_by_role("link")).to_have_text(board["players"][0]["name"])
    assert sorted(board["players"][i]["name"] for i in range(3)) == sorted(names)
    assert fits(page)
    assert page.errors == []


def test_a_players_page_and_a_leaderboard_have_no_serious_violation(
    new_page,
    client,
    axe_source,
):
    names, group, _ = rated_table(client)
    page = new_page()
    page.goto(f"/app/#/players/{names[1]}")
    expect(page.get_by_role("heading", name="Rivals")).to_be_visible()
    assert serious(page, axe_source) == []
    page.goto(f"/app/#/leaderboards/dozito?group={group}")
    expect(page.locator("table.board tbody tr")).to_have_count(3)
    assert serious(page, axe_source) == []
