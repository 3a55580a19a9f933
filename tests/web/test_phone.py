"""The page on a phone: fast entry by taps (Dozito's cards, Double Donkey's dice, every
creation option), nothing wider than the screen, dates, and the list's filter and
pages."""

from __future__ import annotations

import re
from itertools import islice
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.http import create, move, play_simulated, simulated_moves
from tests.support.pages import open_game
from tests.support.taps import (
    as_json,
    log_dozito_move,
    tap_die,
    tap_donkey_card,
    title,
    up_to_the_reveal,
)

SEEDS = sorted((Path(__file__).parents[2] / "seeds").glob("*.ndjson"))
WIDE = {"width": 412, "height": 915}


def same_as_logged_by_api(client, game: dict, moves: int) -> None:
    """The page's game stands where a twin game given the same moves by API does."""
    twin = create(
        client,
        **{key: game[key] for key in ("game", "players", "first_player", "seed")},
    )
    play_simulated(client, twin, limit=moves)
    mine, theirs = (client.get(f"/games/{g['id']}").json() for g in (game, twin))
    assert (mine["version"], mine["state"]) == (theirs["version"], theirs["state"])


def test_dozito_cards_are_logged_by_chips_and_pads(new_page, client):
    game = create(
        client, game="dozito", players=["Ann", "Bob"], first_player="Ann", seed=3
    )
    moves = as_json([m for _, m in zip(range(8), simulated_moves(game), strict=False)])
    page = new_page()
    open_game(page, game)
    for number, m in enumerate(moves, start=1):
        log_dozito_move(page, m)
        expect(page.get_by_role("status")).to_contain_text(f"Logged: move {number}, ")
    same_as_logged_by_api(client, game, len(moves))
    assert page.errors == []


def test_double_donkey_dice_are_logged_by_tapping_their_faces(new_page, client):
    game = create(
        client, game="double-donkey", players=["Ann", "Bob"], first_player="Ann", seed=3
    )
    moves = as_json([m for _, m in zip(range(6), simulated_moves(game), strict=False)])
    page = new_page()
    open_game(page, game)
    for number, m in enumerate(moves, start=1):
        if m["type"] == "roll":
            *first, last = m["dice"].items()
            for color, pips in first:
                tap_die(page, color, pips)
            rolls = page.get_by_role("button", name=f"{m['player']} rolls")
            if number == 1:  # a die left untapped is named, and nothing is logged
                rolls.click()
                expect(
                    page.get_by_text(f"Tap what the {title(last[0])} die shows.")
                ).to_be_visible()
                assert client.get(f"/games/{game['id']}").json()["version"] == 1
            tap_die(page, *last)
            rolls.click()
        else:
            assert m["type"] == "choose"
            page.get_by_role(
                "button", name=re.compile(f"^Put the {title(m['color'])} ")
            ).click()
        expect(page.get_by_role("status")).to_contain_text(f"Logged: move {number}, ")
    same_as_logged_by_api(client, game, len(moves))
    assert page.errors == []


def test_double_donkey_cards_are_revealed_by_tapping_their_colours(new_page, client):
    game = create(
        client, game="double-donkey", players=["Ann", "Bob"], first_player="Ann", seed=3
    )
    logged, reveal = up_to_the_reveal(client, game)
    page = new_page()
    open_game(page, game)
    hands = {p: page.get_by_role("group", name=f"{p} reveals") for p in reveal["cards"]}
    ann = hands["Ann"].get_by_role("list", name="The cards Ann reveals")
    # Cards tapped by mistake, no more than the 3 in hand, then taken back.
    wrong = [
        {"angry": "green"},
        {"colors": ["orange", "purple"]},
        {"colors": ["light_blue", "yellow"]},
    ]
    for card in [*wrong, wrong[1]]:
        tap_donkey_card(page, "Ann", card)
    expect(hands["Ann"]).to_contain_text("Ann reveals at most 3 cards")
    expect(ann.get_by_role("listitem")).to_have_text(
        ["Angry Green✕", "Orange/Purple Double✕", "Light Blue/Yellow Double✕"]
    )
    for said in ("Angry Green", "Orange/Purple Double", "Light Blue/Yellow Double"):
        ann.get_by_role("button", name=f"Remove the {said}").click()
    expect(ann.get_by_role("listitem")).to_have_text(["No card tapped yet."])
    for player, played in reveal["cards"].items():
        for card in played:
            tap_donkey_card(page, player, card)
        listed = hands[player].get_by_role("list").get_by_role("listitem")
        expect(listed).to_have_count(len(played))
    page.get_by_role("button", name="Reveal", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text(f"Logged: move {logged + 1}, ")
    same_as_logged_by_api(client, game, logged + 1)
    assert page.errors == []


def test_the_page_offers_only_the_dice_the_state_lets_be_chosen_K5(new_page, client):
    game = create(
        client, game="double-donkey", players=["Ann", "Bob"], first_player="Ann", seed=3
    )
    page = new_page()
    open_game(page, game)
    offered_some_not_all = False
    for m in as_json(list(islice(simulated_moves(game), 12))):
        state = client.get(f"/games/{game['id']}").json()["state"]
        if m["type"] == "choose":
            open_game(page, game)
            offers = page.get_by_role("button", name=re.compile("^Put the "))
            expect(offers).to_have_count(len(state["choosable"]))
            names = [
                f"Put the {title(c)} {state['rolled'][c]} on the Hay"
                for c in state["choosable"]
            ]
            expect(offers).to_have_text(names)
            offered_some_not_all |= len(names) < len(state["rolled"])
        assert move(client, game, m).status_code == 201
    assert offered_some_not_all, "no choice in these moves left a die out (K5)"


def test_the_start_form_takes_every_creation_option(new_page, client):
    page = new_page()
    page.goto("/app/")
    page.get_by_label("Game", exact=True).select_option("dobro")
    page.get_by_role("button", name="Remove the last player").click()
    for number, name in enumerate(["Ana", "Bo"], start=1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    page.get_by_label("Rounds").fill("2")
    page.get_by_label("Scoring").select_option("fewest-first")
    page.get_by_label("With two players, the Skip cards (D5)").select_option("true")
    page.get_by_label("A house deck").check()
    for value, count in (("2s", 8), ("3s", 8), ("4s", 8), ("5s", 8)):
        page.get_by_label(value, exact=True).fill(str(count))
    page.get_by_label("Wilds").fill("2")
    page.get_by_label("Title (optional)").fill("Two at the café")
    page.get_by_text("Place, date, notes and seed").click()
    page.get_by_label("Where (optional)").fill("Lisbon")
    page.get_by_label("When it was played (optional)").fill("2026-11-27T20:00")
    page.get_by_label("Notes (optional)").fill("A short one.")
    page.get_by_label("Seed (optional: repeats a random draw)").fill("42")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Two at the café")).to_be_visible()
    game_id = re.search(r"#/games/([0-9a-f-]{36})", page.url)[1]
    summary = client.get(f"/games/{game_id}").json()
    assert summary["options"] == {
        "rounds": 2,
        "scoring": "fewest-first",
        "two_player_remove_skips": True,
        "deck": {
            "numbered": {"2": 8, "3": 8, "4": 8, "5": 8},
            "wilds": 2,
            "skips": 0,
            "reverses": 0,
        },
    }
    assert (summary["location"], summary["notes"], summary["seed"]) == (
        "Lisbon",
        "A short one.",
        42,
    )
    assert summary["played_at"].startswith("2026-11-2")  # the phone's time zone
    expect(page.locator("main time").first).to_be_visible()
    assert page.errors == []


def no_overflow(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDE["width"], f"{page.url} is {width} px wide"


@pytest.fixture(scope="module")
def samples(client) -> list[dict]:
    games = []
    for path in SEEDS:
        answer = client.post(
            "/games/import",
            content=path.read_bytes(),
            headers={"Content-Type": "application/x-ndjson"},
        )
        # The session's database may hold the sample already: the import names it.
        if answer.status_code == 409:
            games.append({"id": answer.json()["game_id"]})
            continue
        assert answer.status_code == 201, answer.text
        games.append(answer.json())
    long_names = [
        "Patricia Montenegro-Albuquerque",
        "Maximiliano Bartholomew",
        "Anastasiyaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "Karen",
    ]
    games.append(create(client, game="dobro-pixar", players=long_names, seed=1))
    return games


def test_no_sample_games_page_is_wider_than_a_phone(browser, base_url, samples):
    context = browser.new_context(viewport=WIDE, base_url=base_url)
    page = context.new_page()
    try:
        for game in samples:
            for view in ("", "/replay"):
                page.goto(f"/app/#/games/{game['id']}{view}")
                expect(page.get_by_role("heading", name="Score sheet")).to_be_visible()
                no_overflow(page)
        page.goto("/app/")
        expect(page.get_by_role("heading", name="Games")).to_be_visible()
        no_overflow(page)
    finally:
        context.close()


def test_the_list_has_dates_a_filter_and_pages(new_page, client):
    player = "Zeferino"
    made = [
        create(
            client, game="dobro", players=[player, f"Guest {n}"], title="Friday night"
        )
        for n in range(12)
    ]
    page = new_page()
    page.goto("/app/")
    page.get_by_label("With the player").fill(player)
    page.get_by_role("button", name="Find").click()
    items = page.locator(".games li")
    # The read model follows the writes a moment later: wait for all twelve.
    for _ in range(50):
        page.get_by_role("button", name="Find").click()
        expect(items.first).to_be_visible()
        if page.get_by_role("button", name="Older games").is_enabled():
            break
    expect(items).to_have_count(10)
    expect(items.first.locator("time")).to_be_visible()
    expect(items.first).to_contain_text(f"{player}, Guest 11")
    page.get_by_role("button", name="Older games").click()
    expect(items).to_have_count(2)
    expect(items.last).to_contain_text(f"{player}, Guest 0")
    assert len(made) == 12 and page.errors == []
