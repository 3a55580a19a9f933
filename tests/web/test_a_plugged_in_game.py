"""A game the repository does not ship is played in the page with no file of the
page changed: on a service hosting the built-in games and the toy game, a table
starts a game of Nim from the start page (the list of games and the matches' bounds
from `GET /games/kinds`), and logs a move with the controls of Nim's own module,
worded in its own words, in English and in French."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from tablelog_toy import NIM

from domain.registry import BUILT_IN, Registry
from tests.support.server import running_server


@pytest.fixture(scope="module")
def base_url(create_database):
    """The page of a service hosting the built-in games and the toy game, on a
    database of its own."""
    with running_server(
        create_database(), games=Registry([*BUILT_IN.values(), NIM])
    ) as url:
        yield url


def fact(page: Page, term: str):
    term_line = page.locator("dt", has_text=term)
    return page.locator(".facts div", has=term_line).locator("dd")


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "en-GB",
            {"player": "Player {n}", "fewer": "Remove the last player",
             "first": "First player",
             "start": "Start the game", "matches": "Matches at the start",
             "turn": "Ann's turn", "take": "Ann takes 2 matches",
             "left": "Matches left", "next": "Next"},
        ),
        (
            "fr-FR",
            {"player": "Joueur {n}", "fewer": "Retirer le dernier joueur",
             "first": "Premier joueur",
             "start": "Commencer la partie", "matches": "Allumettes au début",
             "turn": "Au tour de Ann", "take": "Ann prend 2 allumettes",
             "left": "Allumettes restantes", "next": "À jouer"},
        ),
    ],
)  # fmt: skip
def test_a_table_starts_a_game_of_nim_and_takes_matches(new_page, locale, words):
    page = new_page(locale=locale)
    page.goto("/app/")
    # The start form's list of games, from the kinds (the list of games played has
    # one of its own, of the same name in French).
    page.locator("select[name=game]").select_option("nim")
    while page.get_by_label(words["player"].format(n=3), exact=True).count():
        page.get_by_role("button", name=words["fewer"]).click()
    for number, name in enumerate(["Ann", "Bob"], start=1):
        page.get_by_label(words["player"].format(n=number), exact=True).fill(name)
    page.get_by_label(words["first"]).select_option("Ann")
    matches = page.get_by_label(words["matches"])
    expect(matches).to_have_attribute("max", "50")
    matches.fill("7")
    page.get_by_role("button", name=words["start"]).click()

    expect(page.get_by_role("heading", name="Nim")).to_be_visible()
    expect(page.get_by_text(words["turn"])).to_be_visible()
    expect(fact(page, words["left"])).to_have_text("7")
    page.get_by_role("button", name=words["take"]).click()

    expect(fact(page, words["left"])).to_have_text("5")
    expect(fact(page, words["next"])).to_have_text("Bob")
    # The service's sentence for the move, in the page's language.
    expect(page.locator(".history")).to_contain_text(words["take"])
    assert page.errors == []
