"""Addresses the page cannot show as asked say so, in the reader's language: a
replay's step the game does not have, a step that is not a number, a game that is
not there, a page that does not exist. And the lists' bullets stand clear of their
text."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.http import create, move

PHONE = {"width": 412, "height": 915}
UNKNOWN = "00000000-0000-4000-8000-000000000000"
NO_SUCH_GAME = {"en-GB": "No such game", "fr-FR": "Partie introuvable"}
NO_SUCH_STEP = {"en-GB": "no step 999", "fr-FR": "pas d'étape 999"}


def game_of_one_move(client) -> dict:
    game = create(client, game="dobro", players=["Ana", "Bo"], first_player="Ana")
    assert move(
        client, game, {"type": "play", "player": "Ana", "cards": [6]}
    ).is_success
    return game


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_step_the_game_does_not_have_is_said_and_the_address_is_the_step_shown(
    new_page, client, locale
):
    game = game_of_one_move(client)
    page = new_page(locale=locale)
    page.set_viewport_size(PHONE)
    page.goto(f"/app/#/games/{game['id']}/replay/999")
    said = page.get_by_role("alert").filter(has_text=NO_SUCH_STEP[locale])
    expect(said).to_be_visible()
    expect(page.get_by_role("slider")).to_have_value("1")
    assert page.url.endswith("/replay/1"), page.url
    assert page.errors == []


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("tail", ["/replay/abc", "/moves", ""])
def test_an_address_of_no_game_says_so(new_page, client, locale, tail):
    game = game_of_one_move(client)
    page = new_page(locale=locale)
    page.set_viewport_size(PHONE)
    known = f"/app/#/games/{game['id']}{tail}"
    unknown = f"/app/#/games/{UNKNOWN}{tail}"
    for address in [known, unknown] if tail != "" else [unknown]:
        page.goto("/app/")
        page.goto(address)
        expect(page.get_by_role("heading", level=1)).to_have_text(NO_SUCH_GAME[locale])
        assert page.url.endswith(address.removeprefix("/app/")), page.url
    assert page.errors == []


def test_the_leaderboards_bullets_stand_clear_of_their_text(new_page):
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto("/app/")
    boards = page.get_by_role("navigation", name="Leaderboards")
    expect(boards.get_by_role("link").first).to_be_visible()
    crowded = boards.evaluate(CROWDED_BULLETS)
    assert crowded == [], crowded


# Each item of a list shown with a bullet outside it whose bullet has less than 1em
# of room on its left: before the item's own line there is the list's padding, or
# the item before on the same line.
CROWDED_BULLETS = """(root) => {
  const crowded = [];
  for (const item of root.querySelectorAll("li")) {
    const look = getComputedStyle(item);
    if (look.display !== "list-item" || look.listStyleType === "none") continue;
    if (look.listStylePosition !== "outside") continue;
    const box = item.getBoundingClientRect();
    const list = item.parentElement.getBoundingClientRect();
    const before = item.previousElementSibling?.getBoundingClientRect();
    const sameLine = before && Math.abs(before.top - box.top) < 2;
    const room = box.left - (sameLine ? before.right : list.left);
    if (room < parseFloat(look.fontSize)) crowded.push(item.textContent);
  }
  return crowded;
}"""
