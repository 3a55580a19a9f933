"""The note that a move was logged: it goes by itself once there was time to read it
(not while it is being read), and on a screen wide enough it stands beside the
page's column, over none of its content."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.http import create
from tests.support.pages import open_game

PHONE = {"width": 412, "height": 915}
LAPTOP = {"width": 1280, "height": 800}


def log_a_move(page, client, locale_button: str = "Ana plays 6") -> None:
    page.get_by_role("radio", name="6", exact=True).check()
    page.get_by_role("button", name=locale_button).click()


def new_game(client) -> dict:
    return create(client, game="dobro", players=["Ana", "Bo", "Cy"], first_player="Ana")


def test_the_note_of_a_logged_move_goes_by_itself(new_page, client):
    page = new_page(locale="fr-FR")
    page.set_viewport_size(PHONE)
    page.clock.install()
    open_game(page, new_game(client), heading="Sur la table")
    log_a_move(page, client, "Ana joue 6")
    status = page.get_by_role("status")
    expect(status).to_contain_text("Noté : coup 1")
    page.clock.run_for(3_000)
    expect(status).to_be_visible()
    page.clock.run_for(15_000)
    expect(status).to_be_hidden()
    assert page.errors == []


def test_the_note_stays_while_it_is_read_and_goes_once_left(new_page, client):
    page = new_page()
    page.set_viewport_size(PHONE)
    page.clock.install()
    open_game(page, new_game(client))
    log_a_move(page, client)
    status = page.get_by_role("status")
    expect(status).to_be_visible()
    status.focus()
    page.clock.run_for(20_000)
    expect(status).to_be_visible()
    page.mouse.move(5, 5)  # nowhere near the note
    page.get_by_role("heading", name="Log a move").focus()
    page.clock.run_for(1_500)
    expect(status).to_be_hidden()


def test_on_a_wide_screen_the_note_covers_none_of_the_page(new_page, client):
    page = new_page()
    page.set_viewport_size(LAPTOP)
    open_game(page, new_game(client))
    log_a_move(page, client)
    status = page.get_by_role("status")
    expect(status).to_be_visible()
    note = status.bounding_box()
    column = page.locator("main").bounding_box()
    assert note["x"] >= column["x"] + column["width"], (note, column)
    assert note["x"] + note["width"] <= LAPTOP["width"]
    assert page.errors == []
