"""Moves logged through the app's page as a player taps them: a card stated with the
picker's chips, a die by its face, a Double Donkey card by its colours."""

from __future__ import annotations

import json
import re

import msgspec
from playwright.sync_api import Locator, Page

from tests.support.http import play_simulated, simulated_moves


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


def as_json(moves: list) -> list[dict]:
    return json.loads(msgspec.json.encode(moves))


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
