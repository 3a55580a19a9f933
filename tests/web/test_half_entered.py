"""A move half entered on this phone survives what the other phones log, as long as
it is still the same turn; and a tap made just after a move was stored is not
undone by the game drawn again when the stream brings that same move."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.http import create, move
from tests.support.pages import fact, open_game

PHONE = {"width": 412, "height": 915}
# The page's reads of a score sheet answered 400 ms late once `slowSheets` is set.
SLOW_SHEETS = """
const send = window.fetch;
window.fetch = async (url, ...rest) => {
  if (window.slowSheets && String(url).endsWith("/scoresheet")) {
    await new Promise((done) => setTimeout(done, 400));
  }
  return send(url, ...rest);
};
"""


def new_game(client) -> dict:
    return create(client, game="dobro", players=["Ana", "Bo", "Cy"], first_player="Ana")


def test_another_phones_move_keeps_the_move_half_entered_here(new_page, client):
    game = new_game(client)
    page = new_page()
    page.set_viewport_size(PHONE)
    open_game(page, game)
    page.get_by_role("radio", name="7", exact=True).check()
    page.get_by_role("radio", name="A pair").check()
    page.get_by_label("Value called out (optional)").fill("14")
    page.get_by_label("Value called out (optional)").focus()

    # Another phone logs that Cy forgot to refill: still Ana's turn.
    forgot = {"type": "forgot_refill", "player": "Cy"}
    assert move(client, game, forgot).is_success
    expect(fact(page, "Forgetful card")).to_have_text("Cy")

    expect(page.get_by_role("radio", name="7", exact=True)).to_be_checked()
    expect(page.get_by_role("radio", name="A pair")).to_be_checked()
    expect(page.get_by_label("Value called out (optional)")).to_have_value("14")
    expect(page.get_by_label("Value called out (optional)")).to_be_focused()
    page.get_by_role("button", name="Ana plays 7 + 7").click()
    expect(fact(page, "Value in play")).to_have_text("14")
    assert page.errors == []


def test_a_move_half_entered_for_a_turn_another_phone_logged_is_dropped_saying_so(
    new_page, client
):
    game = new_game(client)
    page = new_page(locale="fr-FR")
    page.set_viewport_size(PHONE)
    open_game(page, game, heading="Sur la table")
    page.get_by_role("radio", name="7", exact=True).check()

    assert move(
        client, game, {"type": "play", "player": "Ana", "cards": [7]}
    ).is_success
    expect(page.get_by_text("À Bo de jouer")).to_be_visible()
    expect(page.get_by_role("radio", name="7", exact=True)).not_to_be_checked()
    expect(page.get_by_role("status")).to_contain_text("autre téléphone")
    assert page.errors == []


def test_a_tap_just_after_a_move_was_stored_is_kept(new_page, client):
    """The reads that follow a stored move take their time (a phone on a slow
    network): the next player's move is offered from the move's own answer, and a
    chip tapped 150 ms after it is still chosen once those reads are in."""
    game = new_game(client)
    page = new_page(service_workers="block")
    page.set_viewport_size(PHONE)
    page.add_init_script(SLOW_SHEETS)
    open_game(page, game)
    page.evaluate("window.slowSheets = true")
    page.get_by_role("radio", name="5", exact=True).check()
    with page.expect_response(is_a_move):
        page.get_by_role("button", name="Ana plays 5").click()
    page.wait_for_timeout(150)
    page.get_by_role("radio", name="9", exact=True).check()
    expect(fact(page, "Value in play")).to_have_text("5")
    page.wait_for_timeout(1_000)  # every read the move called for is in
    expect(page.get_by_role("radio", name="9", exact=True)).to_be_checked()
    expect(page.get_by_role("button", name="Bo plays 9")).to_be_enabled()
    assert page.errors == []


def is_a_move(response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/moves")


def test_a_write_token_typed_in_draws_the_controls_at_once(new_page, client):
    """The controls are drawn again for a phone that may now log, though the game
    itself did not change."""
    game = new_game(client)
    page = new_page()
    page.set_viewport_size(PHONE)
    open_game(page, game, with_token=False)
    expect(page.get_by_text("This device is watching.")).to_be_visible()
    page.get_by_label("Write token").fill(game["write_token"])
    page.get_by_role("button", name="Use this token").click()
    expect(page.get_by_text("Ana's turn")).to_be_visible()
    assert page.errors == []
