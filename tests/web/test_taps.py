"""Taps per move, counted in Chromium: a seeded game of each kind, three players,
logged through the page as a player taps it. Every pointer press counts (a chip
already chosen is not tapped again; a drop-down list changed counts two). The
counts are printed per kind of move (`pytest -s`), and Double Donkey's reveal is
held to one tap a card, one choice of hand a player and the Reveal button."""

from __future__ import annotations

import re
from collections import defaultdict
from itertools import islice
from statistics import mean

from playwright.sync_api import Locator, Page, expect

from tests.support.http import create, simulated_moves
from tests.support.pages import open_game
from tests.support.taps import as_json, log_dozito_move, tap_die, tap_donkey_card, title

PLAYERS = ["Ann", "Bob", "Cleo"]
COUNT = """document.addEventListener("pointerdown", () => {
  window.taps = (window.taps ?? 0) + 1; }, true);"""


def pick(select: Locator, value: str) -> None:
    """A choice in a drop-down list: two taps (the list, then the option) when it
    changes."""
    if select.input_value() != value:
        select.select_option(value)
        select.page.evaluate("window.taps += 2")


def log_dobro_move(page: Page, m: dict) -> None:
    player = m["player"]
    if m["type"] != "play":
        if m["type"] == "forgot_refill":
            pick(page.get_by_label("Who forgot to refill"), player)
            page.get_by_role("button", name="Forgot to refill").click()
            return
        name = {"skip": "skips", "reverse": "reverses", "take": "takes the cards"}
        page.get_by_role("button", name=f"{player} {name[m['type']]}").click()
        return
    first, *second = m["cards"]
    page.get_by_role("group", name="Card").get_by_role(
        "radio", name="Wild" if first == "wild" else str(first), exact=True
    ).check()
    if second:
        pair = "Two wilds" if first == "wild" else "A pair"
        if second[0] == "wild" and first != "wild":
            pair = "With a wild"
        page.get_by_role("radio", name=pair).check()
    if m.get("wild_as") is not None:
        pick(page.get_by_label("The wild counts as"), str(m["wild_as"]))
    page.get_by_role("button", name=re.compile(f"^{player} plays")).click()


def log_donkey_move(page: Page, m: dict) -> None:
    if m["type"] == "roll":
        for color, pips in m["dice"].items():
            tap_die(page, color, pips)
        page.get_by_role("button", name=f"{m['player']} rolls").click()
    elif m["type"] == "choose":
        page.get_by_role(
            "button", name=re.compile(f"^Put the {title(m['color'])} ")
        ).click()
    elif m["type"] == "last_die":
        if m["reroll"] is None:
            page.get_by_role("button", name="Keep the last die as it is").click()
        else:
            page.get_by_role("group", name="Rolled again: the die shows").get_by_role(
                "radio", name=str(m["reroll"])
            ).check()
            page.get_by_role("button", name="Roll it once more").click()
    elif m["type"] == "reveal":
        for player, played in m["cards"].items():
            for card in played:
                tap_donkey_card(page, player, card)
        page.get_by_role("button", name="Reveal", exact=True).click()
    else:
        for player, pips in m["rolls"].items():
            page.get_by_role("group", name=f"{player} rolled").get_by_role(
                "radio", name=str(pips)
            ).check()
        page.get_by_role("button", name="Log the roll-off").click()


LOGGERS = {
    "dobro": log_dobro_move,
    "dozito": log_dozito_move,
    "double-donkey": log_donkey_move,
}


def taps_per_move(new_page, client, kind: str, moves: int) -> dict[str, list[int]]:
    game = create(client, game=kind, players=PLAYERS, first_player="Ann", seed=5)
    scripted = as_json(list(islice(simulated_moves(game), moves)))
    page = new_page()
    page.add_init_script(COUNT)
    open_game(page, game)
    taps: dict[str, list[int]] = defaultdict(list)
    for number, m in enumerate(scripted, start=1):
        before = page.evaluate("window.taps ?? 0")
        LOGGERS[kind](page, m)
        expect(page.get_by_role("status")).to_contain_text(f"Logged: move {number}, ")
        tapped = page.evaluate("window.taps ?? 0") - before
        taps[m["type"]].append(tapped)
        if m["type"] == "reveal":
            cards = sum(len(played) for played in m["cards"].values())
            assert tapped <= cards + len(m["cards"]) + 1, (tapped, m)
    assert page.errors == []
    return taps


def report(kind: str, taps: dict[str, list[int]]) -> str:
    every = [n for counts in taps.values() for n in counts]
    parts = ", ".join(
        f"{move} {mean(counts):.1f} ({min(counts)}-{max(counts)}, n={len(counts)})"
        for move, counts in taps.items()
    )
    return f"{kind}: {mean(every):.2f} taps a move over {len(every)} moves; {parts}"


def test_taps_per_move_of_each_game(new_page, client):
    lines = [
        report(kind, taps_per_move(new_page, client, kind, moves))
        for kind, moves in (("dobro", 40), ("dozito", 40), ("double-donkey", 40))
    ]
    print("\n".join(["", *lines]))
