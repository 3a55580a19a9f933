"""The table's web page in a real browser, at phone width: start a Dobro game, log a
move, see a refusal in words with its ruling, watch from a second page, replay."""

from __future__ import annotations

import re

import httpx
import msgspec
from playwright.sync_api import Page, expect

from tests.support.http import create, move, play_simulated, simulated_moves
from tests.support.pages import fact, open_game


def new_dobro_game(client: httpx.Client) -> dict:
    return create(client, game="dobro", players=["Ana", "Bo", "Cy"], first_player="Ana")


def test_a_table_starts_a_dobro_game_and_logs_a_move(new_page):
    page = new_page()
    page.goto("/")
    expect(page.get_by_role("heading", name="Start a game")).to_be_visible()
    page.get_by_label("Game", exact=True).select_option("dobro")
    for number, name in enumerate(["Ana", "Bo", "Cy"], start=1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    page.get_by_label("First player").select_option("Ana")
    page.get_by_role("button", name="Start the game").click()

    expect(page.get_by_role("heading", name="Dobro")).to_be_visible()
    expect(page.get_by_text("Ana's turn")).to_be_visible()
    game_id = re.search(r"#/games/([0-9a-f-]{36})", page.url)[1]
    token = page.evaluate(f"localStorage.getItem('tablelog:token:{game_id}')")
    assert token, "the write token is kept on this device"

    # By keyboard: the card chips are radio buttons, the move a button.
    page.get_by_role("radio", name="5", exact=True).focus()
    page.keyboard.press("Space")
    page.get_by_role("radio", name="A pair").check()
    page.get_by_role("button", name="Ana plays 5 + 5").press("Enter")

    expect(fact(page, "Value in play")).to_have_text("10")
    expect(fact(page, "Next")).to_have_text("Bo")
    expect(page.get_by_role("status")).to_have_text(
        "Logged: move 1, Ana plays 5 + 5: the value is 10."
    )
    # Nothing to take opens a climb (D7); once a value is in play, Bo may take.
    expect(page.get_by_role("button", name="Bo takes the cards")).to_be_visible()
    assert page.errors == []


def test_a_refused_move_shows_beside_the_tapped_control_until_the_next_tap(
    new_page, client
):
    game = new_dobro_game(client)
    opened = move(client, game, {"type": "play", "player": "Ana", "cards": [10]})
    assert opened.status_code == 201
    page = new_page()
    open_game(page, game)

    # A 5 is offered (a pair of them reaches 10), alone it falls short (D8).
    page.get_by_role("radio", name="5", exact=True).check()
    play = page.get_by_role("button", name="Bo plays 5")
    play.scroll_into_view_if_needed()
    play.click()

    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Refused — rule D8")
    refused = move(client, game, {"type": "play", "player": "Bo", "cards": [5]})
    assert refused.status_code == 422
    expect(alert).to_contain_text(refused.json()["detail"])
    expect(alert).to_have_attribute("aria-live", "assertive")
    # Where the player is looking: in the viewport, right under the button tapped.
    expect(alert).to_be_in_viewport()
    below, button = alert.bounding_box(), play.bounding_box()
    assert 0 <= below["y"] - (button["y"] + button["height"]) < 40
    # Nothing was stored: the value in play is still Ana's 10.
    expect(fact(page, "Value in play")).to_have_text("10")
    assert client.get(f"/games/{game['id']}").json()["version"] == 2
    # The next tap clears it.
    page.get_by_role("radio", name="10", exact=True).check()
    expect(alert).to_have_count(0)
    assert page.errors == []


def test_the_moves_so_far_read_as_sentences_newest_first_and_undo_names_its_move(
    new_page, client
):
    game = new_dobro_game(client)
    for body in (
        {"type": "play", "player": "Ana", "cards": [3]},
        {"type": "play", "player": "Bo", "cards": [5]},
    ):
        assert move(client, game, body).status_code == 201
    page = new_page()
    open_game(page, game)
    steps = client.get(f"/games/{game['id']}/replay").json()["steps"]
    history = page.get_by_role("region", name="Moves so far").get_by_role("listitem")
    expect(history).to_have_count(2)
    expect(history.nth(0)).to_contain_text(steps[1]["description"])
    expect(history.nth(1)).to_contain_text(steps[0]["description"])
    recorded = client.get(f"/games/{game['id']}/events").json()["events"]
    times = history.locator("time")
    expect(times.nth(0)).to_have_attribute("datetime", recorded[2]["recorded_at"])

    undo = page.get_by_role("button", name=f"Undo move 2: “{steps[1]['description']}”")
    undo.click()
    expect(history).to_have_count(3)
    expect(history.nth(0)).to_contain_text(f"Undo: “{steps[1]['description']}”")
    expect(history.nth(1)).to_contain_text("(taken back)")
    # The next undo would take back the move before.
    expect(
        page.get_by_role("button", name=f"Undo move 1: “{steps[0]['description']}”")
    ).to_be_visible()
    expect(fact(page, "Value in play")).to_have_text("3")
    assert page.errors == []


def test_the_moves_so_far_of_a_short_game_end_with_its_last_move(new_page, client):
    """Eight moves or fewer fit without "Show earlier moves": nothing follows the
    list, not even a stray word."""
    game = new_dobro_game(client)
    body = {"type": "play", "player": "Ana", "cards": [3]}
    assert move(client, game, body).status_code == 201
    page = new_page()
    open_game(page, game)
    region = page.get_by_role("region", name="Moves so far")
    expect(region.get_by_role("listitem")).to_have_count(1)
    expect(region.get_by_role("button")).to_have_count(0)
    said = client.get(f"/games/{game['id']}/replay/1").json()["description"]
    heading = region.locator("h2").inner_text()
    listed = region.locator("ol").inner_text()
    assert region.inner_text().split() == (heading + " " + listed).split()
    assert said in listed


def test_a_second_page_sees_a_move_live(new_page, client):
    game = new_dobro_game(client)
    table, watcher = new_page(), new_page()
    open_game(table, game)
    open_game(watcher, game, with_token=False)
    expect(watcher.get_by_text("This device is watching.")).to_be_visible()
    expect(fact(watcher, "Next")).to_have_text("Ana")

    table.get_by_role("radio", name="7", exact=True).check()
    table.get_by_role("button", name="Ana plays 7").click()

    expect(fact(watcher, "Value in play")).to_have_text("7")
    expect(fact(watcher, "Next")).to_have_text("Bo")
    expect(fact(watcher, "Cards in play")).to_have_text("7")
    assert table.errors == watcher.errors == []


def test_a_finished_game_replays_step_by_step_with_a_slider(new_page, client):
    game = create(
        client,
        game="dobro",
        players=["Ana", "Bo"],
        seed=7,
        options={"rounds": 1},
    )
    logged = play_simulated(client, game)
    steps = client.get(f"/games/{game['id']}/replay").json()["steps"]
    assert len(steps) == logged
    assert client.get(f"/games/{game['id']}").json()["status"] == "finished"

    page = new_page()
    page.goto(f"/app/#/games/{game['id']}/replay")
    slider = page.get_by_role("slider", name="Step")
    expect(slider).to_have_value("0")
    expect(page.locator(".sentence")).to_have_text("Before the first move.")

    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("output")).to_have_text(f"Step 1 of {logged}")
    expect(page.locator(".sentence")).to_have_text(steps[0]["description"])

    slider.fill(str(logged // 2))
    expect(page.locator(".sentence")).to_have_text(
        steps[logged // 2 - 1]["description"]
    )
    page.keyboard.press("End")
    expect(page.locator(".sentence")).to_have_text(steps[-1]["description"])
    page.get_by_role("button", name="Previous step").click()
    expect(page.locator("output")).to_have_text(f"Step {logged - 1} of {logged}")

    # The score sheet as it stood then: its one round is scored, and the game over,
    # at its last step only.
    expect(page.get_by_text("Winners:")).to_have_count(0)
    page.get_by_role("button", name="Next step").click()
    expect(page.get_by_role("img", name=re.compile("running totals"))).to_be_visible()
    expect(page.get_by_text("Winners:")).to_be_visible()
    assert page.errors == []


def log_dobro_move(page: Page, move: dict) -> None:
    """Log one of the virtual table's moves with the page's controls, as one taps."""
    kind, player = move["type"], move["player"]
    if kind == "forgot_refill":
        page.get_by_label("Who forgot to refill").select_option(player)
        page.get_by_role("button", name="Forgot to refill").click()
        return
    if kind != "play":
        names = {"skip": "skips", "reverse": "reverses", "take": "takes the cards"}
        page.get_by_role("button", name=f"{player} {names[kind]}").click()
        return
    first, *second = move["cards"]
    card = "Wild" if first == "wild" else str(first)
    page.get_by_role("radio", name=card, exact=True).check()
    if second == ["wild"] and first != "wild":
        page.get_by_role("radio", name="With a wild").check()
    elif second:
        both = "Two wilds" if first == "wild" else "A pair"
        page.get_by_role("radio", name=both).check()
    if move["wild_as"] is not None:
        page.get_by_label("The wild counts as").select_option(str(move["wild_as"]))
    page.get_by_role("button", name=re.compile(f"^{player} plays ")).click()


def test_a_whole_dobro_game_is_played_to_its_end_on_a_phone(new_page, client):
    """A table logs a whole game with taps, sees who won,
    and can still undo its last move (A2 reopens a finished game)."""
    game = create(
        client,
        game="dobro",
        players=["Ana", "Bo"],
        first_player="Ana",
        seed=7,
        options={"rounds": 1},
    )
    page = new_page()
    open_game(page, game)

    moves = [msgspec.to_builtins(m) for m in simulated_moves(game)]
    for number, simulated in enumerate(moves, start=1):
        log_dobro_move(page, simulated)
        expect(page.get_by_role("status")).to_contain_text(f"Logged: move {number}, ")

    summary = client.get(f"/games/{game['id']}").json()
    assert summary["status"] == "finished"
    winners = " and ".join(summary["winners"])
    expect(page.get_by_text(f"Game over: {winners}")).to_be_visible()
    expect(page.get_by_role("img", name=re.compile("running totals"))).to_be_visible()
    last = client.get(f"/games/{game['id']}/replay").json()["steps"][-1]
    undo = f"Undo move {len(moves)}: “{last['description']}”"
    page.get_by_role("button", name=undo).click()
    expect(page.get_by_text("Game over")).to_have_count(0)
    assert page.errors == []


def test_two_phones_share_a_game_through_its_link_one_logs_the_other_watches(
    new_page, client
):
    game = new_dobro_game(client)
    first = new_page()
    open_game(first, game)
    first.get_by_role("button", name="Share").click()
    qr = first.get_by_role("img", name="QR code: Log from another phone")
    expect(qr).to_be_visible()
    link = first.get_by_label("Log from another phone: the link").input_value()
    assert link.endswith(f"/app/#/games/{game['id']}?token={game['write_token']}")
    watch = first.get_by_label("Watch from another phone: the link").input_value()
    assert watch.endswith(f"/app/#/games/{game['id']}")

    second = new_page()
    sent: list[str] = []
    second.on("request", lambda request: sent.append(request.url))
    second.goto(link)
    expect(second.get_by_text("Ana's turn")).to_be_visible()
    # The token is kept on the second phone and leaves its address bar; the fragment
    # that carried it never reached the service.
    stored = second.evaluate(f"localStorage.getItem('tablelog:token:{game['id']}')")
    assert stored == game["write_token"]
    assert "token" not in second.url
    assert not [url for url in sent if game["write_token"] in url]

    second.get_by_role("radio", name="6", exact=True).check()
    second.get_by_role("button", name="Ana plays 6").click()
    expect(fact(first, "Value in play")).to_have_text("6")
    expect(fact(first, "Next")).to_have_text("Bo")

    # The watch-only link logs nothing: it asks for a token instead.
    third = new_page()
    third.goto(watch)
    expect(third.get_by_text("This device is watching.")).to_be_visible()
    expect(fact(third, "Value in play")).to_have_text("6")
    assert first.errors == second.errors == third.errors == []


def test_two_player_pixar_offers_no_skip_or_reverse_D5(new_page, client):
    pixar = create(
        client, game="dobro-pixar", players=["Ana", "Bo"], first_player="Ana"
    )
    dobro = create(client, game="dobro", players=["Ana", "Bo"], first_player="Ana")
    for game in (pixar, dobro):
        opened = move(client, game, {"type": "play", "player": "Ana", "cards": [4]})
        assert opened.status_code == 201
    page = new_page()
    open_game(page, pixar)
    expect(page.get_by_role("button", name="Bo takes the cards")).to_be_visible()
    expect(page.get_by_role("button", name="Bo skips")).to_have_count(0)
    expect(page.get_by_role("button", name="Bo reverses")).to_have_count(0)
    # Plain Dobro keeps its Skips with two players, never the Reverses (D5).
    open_game(page, dobro)
    expect(page.get_by_role("button", name="Bo skips")).to_be_visible()
    expect(page.get_by_role("button", name="Bo reverses")).to_have_count(0)


def test_a_wrong_called_value_is_refused_D10(new_page, client):
    game = new_dobro_game(client)
    page = new_page()
    open_game(page, game)
    page.get_by_role("radio", name="3", exact=True).check()
    page.get_by_role("radio", name="A pair").check()
    page.get_by_label("Value called out (optional)").fill("7")
    page.get_by_role("button", name="Ana plays 3 + 3").click()
    expect(page.get_by_role("alert")).to_contain_text("Refused — rule D10")
    page.get_by_label("Value called out (optional)").fill("6")
    page.get_by_role("button", name="Ana plays 3 + 3").click()
    expect(fact(page, "Value in play")).to_have_text("6")
    played = client.get(f"/games/{game['id']}/events").json()["events"][-1]
    assert played["data"]["move"]["announced"] == 6


def test_a_link_with_another_token_never_replaces_the_phones_without_asking(
    new_page, client
):
    """A crafted share link (`?token=BOGUS`) cannot destroy the write token the phone
    holds: the page asks which to keep, and keeping it leaves the phone logging."""
    game = new_dobro_game(client)
    page = new_page()
    open_game(page, game)
    held = f"localStorage.getItem('tablelog:token:{game['id']}')"

    page.goto(f"/app/#/games/{game['id']}?token=BOGUS")
    choice = page.get_by_role("group", name=re.compile("different write token"))
    expect(choice).to_be_visible()
    assert page.evaluate(held) == game["write_token"]
    assert "token" not in page.url
    page.get_by_role("button", name="Keep this phone's token").click()
    expect(choice).to_have_count(0)
    assert page.evaluate(held) == game["write_token"]
    page.get_by_role("radio", name="6", exact=True).check()
    page.get_by_role("button", name="Ana plays 6").click()
    expect(fact(page, "Value in play")).to_have_text("6")

    # Taking the link's token is the player's choice, and then it is the one used.
    page.goto(f"/app/#/games/{game['id']}?token=BOGUS")
    page.get_by_role("button", name="Use the link's token").click()
    assert page.evaluate(held) == "BOGUS"
    assert page.errors == []


def test_no_other_site_may_frame_the_pages_and_the_page_runs_only_its_own_code(
    client,
):
    for path in ("/", "/app/", "/app/main.js", "/schema"):
        answer = client.get(path)
        policy = answer.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy, path
        assert answer.headers["x-frame-options"] == "DENY", path
    page_policy = client.get("/app/").headers["content-security-policy"]
    assert "script-src 'self'" in page_policy and "style-src 'self'" in page_policy
    assert "unsafe-inline" not in page_policy


def test_the_page_works_under_its_content_security_policy(new_page, client):
    """Every view of the page, a finished game's chart and share panel included,
    drawn with nothing the policy refuses."""
    game = create(client, game="dozito", players=["Ana", "Bo"], first_player="Ana")
    play_simulated(client, game)
    page = new_page()
    page.add_init_script(
        "window.violations = [];"
        "document.addEventListener('securitypolicyviolation',"
        " (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    page.goto("/")
    expect(page.get_by_role("heading", name="Start a game")).to_be_visible()
    open_game(page, game)
    expect(page.locator(".legend .swatch").first).to_be_visible()
    page.get_by_role("button", name="Share").click()
    expect(
        page.get_by_role("img", name="QR code: Log from another phone")
    ).to_be_visible()
    page.goto(f"/app/#/games/{game['id']}/replay")
    expect(page.get_by_role("heading", name=re.compile("Replay"))).to_be_visible()
    assert page.evaluate("window.violations") == []
    assert page.errors == []
