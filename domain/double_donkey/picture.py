"""What a picture of a Double Donkey replay step shows (`domain.picture`): each
player's hand and personal pile (counts: the service never sees a hand), the dice
on the Hay card and those just rolled, the piles, who holds the Biggest Donkey and
the cards of the latest reveal with their values."""

from __future__ import annotations

from domain.double_donkey.components import Card, Color
from domain.double_donkey.view import DoubleDonkeyView
from domain.picture import (
    BOTTOM,
    INK,
    LEFT,
    LINE,
    MUTED,
    TOP,
    Box,
    Item,
    Label,
    Scene,
    fact,
    fit,
    pile,
    players,
)
from domain.wording import Language, Message, Names, message

FILLS: dict[str, str] = {
    "light_blue": "#7cc4e4",
    "orange": "#ee8a2a",
    "dark_blue": "#27489a",
    "purple": "#7d4aa8",
    "yellow": "#f0cf2c",
    "green": "#3a8f48",
}
LIGHT = ("light_blue", "yellow", "orange")
CENTRE = 520
DIE = 38


def picture(view: DoubleDonkeyView, language: Language) -> Scene:
    status = [language.say(message("picture.donkey.round", round=view.round))]
    if view.phase == "reveal":
        status.append(language.say(message("picture.donkey.reveal")))
    if view.roll_off:
        said = message("picture.donkey.roll_off", players=Names(view.roll_off))
        status.append(language.say(said))
    columns = [
        language.say(message("picture.hand")),
        language.say(message("picture.donkey.pile")),
    ]
    rows = [
        (name, [view.hand_sizes[name], view.personal_piles[name]])
        for name in view.hand_sizes
    ]
    items = players(LEFT, TOP, 400, columns, rows, view.next_player, language)
    items += _revealed(view, language)
    hay, rolled = message("picture.donkey.hay"), message("picture.donkey.rolled")
    items += _dice(CENTRE, TOP + 4, hay, view.hay, language)
    if view.rolled:
        items += _dice(CENTRE, TOP + 84, rolled, view.rolled, language)
    y = TOP + 170
    items += pile(
        CENTRE,
        y,
        language.say(message("picture.draw_pile")),
        view.draw_pile_size,
        language,
    )
    discard = language.say(message("picture.donkey.discard"))
    items += fact(CENTRE + 90, y + 16, discard, language.say(view.discard_pile_size))
    biggest = language.say(message("picture.donkey.biggest"))
    items += fact(CENTRE + 90, y + 76, biggest, view.biggest_donkey or "-")
    if view.winners:
        said = message(
            "picture.winners", winners=Names(view.winners), count=len(view.winners)
        )
        items.append(Label(CENTRE, BOTTOM - 12, fit(language.say(said), 40), 20))
    return Scene(tuple(status), view.next_player, tuple(items))


def _dice(
    x: int, y: int, name: Message, dice: dict[Color, int], language: Language
) -> list[Item]:
    """A row of dice, each its colour showing its pips, named above."""
    items: list[Item] = [Label(x, y + 16, language.say(name), 14, MUTED)]
    for n, (color, pips) in enumerate(dice.items()):
        left = x + n * (DIE + 8)
        ink = INK if color in LIGHT else "#ffffff"
        items.append(Box(left, y + 26, DIE, DIE, FILLS[color], LINE, radius=6))
        items.append(Label(left + DIE // 2, y + 26 + 27, str(pips), 20, ink, "middle"))
    return items


def _revealed(view: DoubleDonkeyView, language: Language) -> list[Item]:
    """The latest reveal: each player's cards, as their colours, and their values."""
    if not view.revealed:
        return []
    top = TOP + 36 + 36 * len(view.hand_sizes) + 12
    said = language.say(message("picture.donkey.revealed"))
    items: list[Item] = [Label(LEFT + 8, top, said, 14, MUTED)]
    for n, (name, cards) in enumerate(view.revealed.items()):
        y = top + 10 + 30 * n
        if y + 30 > BOTTOM:
            break
        items.append(Label(LEFT + 8, y + 19, fit(name, 14), 16))
        for m, shown in enumerate(cards):
            items += _card(LEFT + 150 + 40 * m, y, shown)
        values = ", ".join(str(v) for v in view.values.get(name, ()))
        items.append(Label(LEFT + 150 + 40 * 3 + 8, y + 19, values, 16))
    return items


def _card(x: int, y: int, shown: Card) -> list[Item]:
    """A Double Donkey as its two colours, an Angry Donkey as one, framed in red."""
    if shown.angry is not None:
        return [
            Box(x, y, 32, 26, "#c8423b", radius=4),
            Box(x + 3, y + 3, 26, 20, FILLS[shown.angry], radius=3),
        ]
    first, second = shown.colors or ("yellow", "yellow")
    return [
        Box(x, y, 32, 26, FILLS[first], LINE, radius=4),
        Box(x + 16, y + 1, 15, 24, FILLS[second]),
    ]
