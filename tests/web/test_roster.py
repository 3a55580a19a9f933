"""A family's roster on a phone: the first game of a new group seats its players as
new ones, and the next game's typo ("Mauricoi") is caught with "It is Mauricio",
one tap, and the game starts with the person the roster knows; the roster is
offered as each name is typed."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.support.pages import make_group


def start_in_group(page, *players: str) -> None:
    page.get_by_text("Start a game in this group").click()
    page.get_by_label("Game", exact=True).select_option("dobro")
    for number, name in enumerate(players, start=1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").click()


def test_a_typo_is_caught_and_one_tap_seats_the_person_the_roster_knows(new_page):
    family = f"The Lopes {uuid.uuid4().hex[:6]}"
    page = new_page()
    make_group(page, family, "Kitchen tablet")
    group_page = page.url

    start_in_group(page, "Mauricio", "Zoé", "Karen")
    expect(page.get_by_role("alert")).to_contain_text("Nobody called Mauricio")
    page.get_by_role("button", name="All of them are new players").click()
    expect(page.get_by_text("'s turn")).to_be_visible()

    page.goto(group_page)
    start_in_group(page, "Mauricoi", "zoé", "Karen")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(
        f"Nobody called Mauricoi plays in {family}: did you mean Mauricio?"
    )
    assert page.get_by_role("button", name="Add Mauricoi as a new player").is_visible()
    page.get_by_role("button", name="It is Mauricio").click()
    expect(page.get_by_text("'s turn")).to_be_visible()
    body = page.locator("body").inner_text()
    assert "Mauricoi" not in body and "Mauricio" in body
    assert "zoé" not in body and "Zoé" in body

    page.goto(group_page)
    page.get_by_text("Start a game in this group").click()
    offered = page.locator("datalist#roster option")
    expect(offered).to_have_count(3)
    assert sorted(offered.evaluate_all("os => os.map(o => o.value)")) == [
        "Karen",
        "Mauricio",
        "Zoé",
    ]
    assert page.errors == []


def test_the_groups_home_lists_its_players_adds_one_and_retires_one(new_page):
    family = f"The Silvas {uuid.uuid4().hex[:6]}"
    page = new_page()
    make_group(page, family, "Kitchen tablet")
    players = page.get_by_role("region", name="Players")
    expect(players).to_contain_text("No player yet")

    for name in ("Karen", "Priscila"):
        players.get_by_label("A new player's name").fill(name)
        players.get_by_role("button", name="Add the player").click()
        expect(players.get_by_role("listitem").filter(has_text=name)).to_be_visible()
    players.get_by_label("A new player's name").fill("karen")
    players.get_by_role("button", name="Add the player").click()
    expect(players.get_by_role("alert")).to_contain_text("Karen is on the roster")

    players.get_by_role("button", name="Retire Karen").click()
    expect(players.get_by_text("1 retired player")).to_be_visible()
    page.get_by_text("Start a game in this group").click()
    page.get_by_label("Player 1", exact=True).focus()
    expect(page.locator("datalist#roster option")).to_have_count(1)
    players.get_by_text("1 retired player").click()
    players.get_by_role("button", name="Bring Karen back").click()
    expect(players.get_by_role("button", name="Retire Karen")).to_be_visible()
    assert page.errors == []
