"""What a picture of a Dozito replay step shows (`domain.picture`): each player's
grid of twelve spots (a face-down card as its back), their points, the draw pile,
the tops of the two discard piles and the card a player holds. Only the public
view: a card face down is never named."""

from __future__ import annotations

from domain.dozito.components import Card
from domain.dozito.view import DozitoView
from domain.picture import (
    BOTTOM,
    INK,
    LEFT,
    LINE,
    MUTED,
    TOP,
    TURN,
    Box,
    Item,
    Label,
    Scene,
    card,
    face_down,
    fit,
    pile,
)
from domain.wording import Language, Names, message

# The colours of the table's cards by the names a table gives them (Z2), in English
# and in French; a name of the table's own is drawn in grey, and written on the card.
FILLS = {
    "red": "#c8423b",
    "rouge": "#c8423b",
    "blue": "#3465c0",
    "bleu": "#3465c0",
    "green": "#3a8f48",
    "vert": "#3a8f48",
    "purple": "#7d4aa8",
    "violet": "#7d4aa8",
    "yellow": "#e3bd24",
    "jaune": "#e3bd24",
}
UNKNOWN = "#8c8c8c"
# A grid's spot, and the room for one player's grid.
SPOT_W, SPOT_H, GAP = 36, 46, 4
SEAT = 182


def picture(view: DozitoView, language: Language) -> Scene:
    status = [
        language.say(message("picture.round", round=view.round, rounds=view.rounds))
    ]
    items: list[Item] = []
    for seat, (name, grid) in enumerate(view.grids.items()):
        turn = name == view.next_player
        items += _grid(
            LEFT + SEAT * seat, name, grid, view.totals[name], turn, language
        )
    items += _piles(view, language)
    if view.winners:
        said = message(
            "picture.winners", winners=Names(view.winners), count=len(view.winners)
        )
        items.append(Label(LEFT + 560, BOTTOM - 12, fit(language.say(said), 36), 20))
    return Scene(tuple(status), view.next_player, tuple(items))


def _grid(
    x: int,
    name: str,
    grid: tuple[Card | None, ...],
    points: int,
    turn: bool,
    language: Language,
) -> list[Item]:
    """A player's name and points over their 3 x 4 grid."""
    width = 4 * (SPOT_W + GAP) + 4
    items: list[Item] = [Box(x - 4, TOP, width, 198, TURN, radius=6)] if turn else []
    said = language.say(message("picture.dozito.points", count=points))
    items.append(Label(x, TOP + 22, fit(name, 9), 16))
    items.append(Label(x + width - 10, TOP + 22, said, 13, MUTED, "end"))
    for spot, placed in enumerate(grid):
        row, column = divmod(spot, 4)
        left = x + column * (SPOT_W + GAP)
        top = TOP + 34 + row * (SPOT_H + GAP)
        if placed is None:
            items += face_down(left, top, width=SPOT_W, height=SPOT_H)
        else:
            items += _card(left, top, placed, SPOT_W, SPOT_H)
    return items


def _card(x: int, y: int, shown: Card, width: int, height: int) -> list[Item]:
    """A card face up: its number (a star for a joker) on its colour, its suns or
    STOP under it, and its colour's name when the table named it otherwise."""
    fill = FILLS.get(shown.color.lower(), UNKNOWN)
    ink = INK if fill in (FILLS["yellow"], UNKNOWN) else "#ffffff"
    face = "★" if shown.joker else str(shown.number)
    items = card(x, y, face, width=width, height=height, fill=fill, ink=ink, size=18)
    mark = "STOP" if shown.stop else "☀" * (shown.suns or 0)
    if fill == UNKNOWN:
        mark = fit(shown.color, 6)
    if mark:
        items.append(Label(x + width // 2, y + height - 5, mark, 9, ink, "middle"))
    return items


def _piles(view: DozitoView, language: Language) -> list[Item]:
    """The draw pile, the discard piles' tops and sizes, and the card held."""
    y = TOP + 226
    draw_pile = language.say(message("picture.draw_pile"))
    items = pile(LEFT, y, draw_pile, view.draw_pile_size, language)
    for n, (top, side) in enumerate(
        ((view.discard_tops.left, "left"), (view.discard_tops.right, "right"))
    ):
        x = LEFT + 100 + 90 * n
        if top is None:
            items.append(Box(x, y, 52, 72, "#e8e3d8", LINE, radius=6))
        else:
            items += _card(x, y, top, 52, 72)
        count = view.discard_sizes[side]
        said = message("picture.dozito.discard", count=count)
        items.append(Label(x + 26, y + 92, language.say(said), 14, MUTED, "middle"))
    if view.held is not None and view.next_player is not None:
        x = LEFT + 320
        items += _card(x, y, view.held, 52, 72)
        said = message("picture.dozito.held", name=view.next_player)
        items.append(Label(x + 70, y + 42, fit(language.say(said), 40), 18))
    return items
