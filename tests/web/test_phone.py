"""The page on a phone: fast entry by taps (Dozito's cards, Double Donkey's dice, every
creation option), nothing wider than the screen, dates, and the list's filter and
pages."""

from __future__ import annotations

import json
import re
from itertools import islice
from pathlib import Path

import msgspec
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.service.http import create, move, play_simulated, simulated_moves
from tests.web.test_page import open_game

SEEDS = sorted((Path(__file__).parents[2] / "seeds").glob("*.ndjson"))
WIDE = {"width": 412, "height": 915}


def title(name: str) -> str:
    return " ".join(part.capitalize() for part in name.split("_"))


def tap_dozito_card(box: Locator, card: dict) -> None:
    """State a Dozito card with the picker's chips, as a player taps it."""
    box.get_by_role("group", name="Colour").get_by_role(
        "radio", name=title(card["color"]), exact=True
    ).check()
    if card["joker"]:
        box.get_by_role("checkbox", name="Joker").check()
    else:
        box.get_by_role("group", name="Number").get_by_role(
            "radio", name=str(card["number"]), exact=True
        ).check()
    suns = "0" if not card["suns"] else f"{card['suns']} ☀"
    box.get_by_role("group", name="Suns").get_by_role(
        "radio", name=suns, exact=True
    ).check()
    for mark in ("stop", "replay"):
        if card[mark]:
            box.get_by_role(
                "checkbox", name=mark.upper() if mark == "stop" else "Replay"
            ).check()


def log_dozito_move(page: Page, m: dict) -> None:
    if m["type"] == "start_round":
        for side, card in zip(("Left", "Right"), m["discards"], strict=True):
            tap_dozito_card(
                page.get_by_role("group", name=f"{side} discard pile shows"), card
            )
        page.get_by_role("button", name=re.compile("^Start round")).click()
    elif m["type"] == "draw":
        source = {
            "deck": "The deck",
            "discard_left": "Left pile",
            "discard_right": "Right pile",
        }
        page.get_by_role("radio", name=re.compile(f"^{source[m['source']]}")).check()
        if m["card"]:
            tap_dozito_card(page.get_by_role("group", name="The card drawn"), m["card"])
        page.get_by_role("button", name=f"{m['player']} draws").click()
    elif m["type"] == "place":
        if m["spot"] is not None:  # else the spot of the held card's number
            page.get_by_role("radio", name=re.compile(f"^Spot {m['spot']}:")).check()
        if m["revealed"]:
            box = page.get_by_role("group", name="The face-down card it uncovers")
            tap_dozito_card(box, m["revealed"])
        page.get_by_role("button", name="Place the card").click()
    else:
        page.get_by_role("button", name=f"Discard on the {m['pile']} pile").click()


def same_as_logged_by_api(client, game: dict, moves: int) -> None:
    """The page's game stands where a twin game given the same moves by API does."""
    twin = create(
        client,
        **{key: game[key] for key in ("game", "players", "first_player", "seed")},
    )
    play_simulated(client, twin, limit=moves)
    mine, theirs = (client.get(f"/games/{g['id']}").json() for g in (game, twin))
    assert (mine["version"], mine["state"]) == (theirs["version"], theirs["state"])


def as_json(moves: list) -> list[dict]:
    return json.loads(msgspec.json.encode(moves))


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


def tap_die(page: Page, color: str, pips: int) -> None:
    page.get_by_role("group", name=f"{title(color)} die").get_by_role(
        "radio", name=str(pips)
    ).check()


def donkey_card_name(card: dict) -> str:
    """A Double Donkey card as the page names it: "Orange/Purple Double"."""
    if card.get("angry"):
        return f"Angry {title(card['angry'])}"
    first, second = (title(color) for color in card["colors"])
    return f"{first}/{second} Double"


def tap_donkey_card(page: Page, holder: str, card: dict) -> None:
    """A Double Donkey card as a player taps it: the hand it goes to, when another
    is being filled, then the card, one tap."""
    page.get_by_role("group", name="Whose cards").get_by_role(
        "radio", name=holder, exact=True
    ).check()
    page.get_by_role("group", name="The cards").get_by_role(
        "button", name=donkey_card_name(card), exact=True
    ).click()


def up_to_the_reveal(client, game: dict) -> dict:
    """Log the virtual table's dice phase by API; the reveal it makes next."""
    moves = as_json(list(simulated_moves(game)))
    first = next(i for i, m in enumerate(moves) if m["type"] == "reveal")
    play_simulated(client, game, limit=first)
    return first, moves[first]


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
