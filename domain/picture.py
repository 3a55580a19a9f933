"""A replay step as a picture, described rather than drawn: boxes and labels laid
out on a canvas of fixed size, from the public state alone.

The service turns one `Picture` into SVG and into pixels (PNG, a GIF's frame), so
both show the same thing. Every game lays out the middle of the table from its view
(its `Rules.picture`, a `Scene`, drawn with the shapes and helpers here); the frame
around it is shared (`domain.frame`).

Text is cut to a number of characters, not measured: the description knows no font.
The limits below leave room for the widest letters of the fonts the renderers use.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import msgspec

from domain.wording import Language, message

WIDTH, HEIGHT = 960, 540
# The band of the canvas a game fills (`Rules.picture`), under the status line and
# above the sentence.
TOP, BOTTOM = 96, 472
LEFT, RIGHT = 24, WIDTH - 24

PAPER = "#f4f1ea"
INK = "#1d1d1b"
MUTED = "#6b6760"
HEADER = "#23403a"
ON_HEADER = "#ffffff"
TURN = "#ffe08a"
CARD = "#ffffff"
CARD_BACK = "#4a6fa5"
LINE = "#c9c3b8"

Anchor = Literal["start", "middle", "end"]


class Box(msgspec.Struct, frozen=True, tag="box"):
    """A rectangle, its corners rounded by `radius`."""

    x: int
    y: int
    width: int
    height: int
    fill: str
    stroke: str | None = None
    radius: int = 0


class Label(msgspec.Struct, frozen=True, tag="label"):
    """One line of text; `y` is its baseline, `x` its start, middle or end."""

    x: int
    y: int
    text: str
    size: int = 16
    color: str = INK
    anchor: Anchor = "start"


Item = Box | Label


class Picture(msgspec.Struct, frozen=True):
    """What to draw, in order (a later item covers an earlier one). `title` says in
    words what it shows (an SVG's title, an image's alternative text)."""

    width: int
    height: int
    background: str
    title: str
    items: tuple[Item, ...]


class Scene(msgspec.Struct, frozen=True):
    """A game's part of the picture: its status (the round, what is awaited), whose
    turn it is, and what lies on the table, laid out between `TOP` and `BOTTOM`."""

    status: tuple[str, ...]
    turn: str | None
    items: tuple[Item, ...]


def fit(text: str, chars: int) -> str:
    """`text` cut to at most `chars` characters, an ellipsis marking the cut."""
    return text if len(text) <= chars else text[: chars - 1].rstrip() + "…"


# --- what the games draw with --------------------------------------------------------


def players(
    x: int,
    y: int,
    width: int,
    columns: Sequence[str],
    rows: Iterable[tuple[str, Sequence[Any]]],
    turn: str | None,
    language: Language,
) -> list[Item]:
    """A table of the players, one row each: the name, then a value per column; the
    row of the player whose turn it is stands out."""
    cell = 96
    name_width = width - cell * len(columns)
    chars = max(4, name_width // 11)
    said = language.say(message("picture.player"))
    items: list[Item] = [Label(x + 8, y + 18, said, 14, MUTED)]
    for n, column in enumerate(columns):
        right = x + name_width + cell * (n + 1) - 8
        items.append(Label(right, y + 18, fit(column, 11), 14, MUTED, "end"))
    for n, (name, values) in enumerate(rows):
        top = y + 28 + 36 * n
        if name == turn:
            items.append(Box(x, top, width, 34, TURN, radius=6))
        items.append(Label(x + 8, top + 23, fit(name, chars), 18))
        for m, value in enumerate(values):
            right = x + name_width + cell * (m + 1) - 8
            shown = language.say(value) if isinstance(value, int) else str(value)
            items.append(Label(right, top + 23, shown, 18, anchor="end"))
    return items


def card(
    x: int,
    y: int,
    face: str,
    *,
    width: int = 52,
    height: int = 72,
    fill: str = CARD,
    ink: str = INK,
    size: int = 24,
) -> list[Item]:
    """A card face up, `face` in its middle."""
    return [
        Box(x, y, width, height, fill, LINE, radius=6),
        Label(x + width // 2, y + height // 2 + size // 3, face, size, ink, "middle"),
    ]


def face_down(x: int, y: int, *, width: int = 52, height: int = 72) -> list[Item]:
    return [
        Box(x, y, width, height, CARD_BACK, LINE, radius=6),
        Box(x + 6, y + 6, width - 12, height - 12, CARD_BACK, "#d7e0ee", radius=4),
    ]


def pile(x: int, y: int, name: str, count: int, language: Language) -> list[Item]:
    """A face-down pile with the number of its cards, named under it."""
    return [
        *face_down(x, y),
        Label(x + 26, y + 44, language.say(count), 18, ON_HEADER, "middle"),
        Label(x + 26, y + 92, fit(name, 14), 14, MUTED, "middle"),
    ]


def fact(x: int, y: int, name: str, value: str, size: int = 18) -> list[Item]:
    """A named value on one line: "Draw pile: 40"."""
    return [
        Label(x, y, fit(name, 24), 14, MUTED),
        Label(x, y + size + 6, fit(value, 40), size),
    ]
