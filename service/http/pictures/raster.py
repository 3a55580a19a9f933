"""A `domain.picture.Picture` in pixels with Pillow: a PNG, or the frames of an
animated GIF.

The text is set in DejaVu Sans, shipped beside this module: the scalable font
Pillow carries (`ImageFont.load_default(size=...)`) holds only ASCII, and would draw
"Zoë" and every French accent as empty boxes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw, ImageFont

from domain.picture import Box, Label, Picture

FONT = Path(__file__).with_name("DejaVuSans.ttf")
# Pillow's anchors for a label's start, middle and end, on its baseline.
_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}
# How long a GIF shows each step.
FRAME_MS = 1200


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT, size)


def drawn(picture: Picture) -> Image.Image:
    image = Image.new("RGB", (picture.width, picture.height), picture.background)
    draw = ImageDraw.Draw(image)
    for item in picture.items:
        if isinstance(item, Box):
            _box(draw, item)
        else:
            _label(draw, item)
    return image


def _box(draw: ImageDraw.ImageDraw, box: Box) -> None:
    corners = (box.x, box.y, box.x + box.width - 1, box.y + box.height - 1)
    draw.rounded_rectangle(
        corners, radius=box.radius, fill=box.fill, outline=box.stroke
    )


def _label(draw: ImageDraw.ImageDraw, label: Label) -> None:
    draw.text(
        (label.x, label.y),
        label.text,
        fill=label.color,
        font=_font(label.size),
        anchor=_ANCHORS[label.anchor],
    )


def palette(pictures: Sequence[Picture]) -> Image.Image:
    """The 256 colours of a GIF: every colour the pictures name, then an even
    spread of the others (6 levels of red, green and blue) for the edges of the
    letters, smoothed between a text's colour and what lies under it."""
    named: dict[str, None] = {}
    for picture in pictures:
        named[picture.background] = None
        for item in picture.items:
            colors = (
                (item.fill, item.stroke) if isinstance(item, Box) else (item.color,)
            )
            named.update(dict.fromkeys(c for c in colors if c is not None))
    exact = [ImageColor.getrgb(color)[:3] for color in named][: 256 - len(_SPREAD)]
    colors = [*exact, *_SPREAD]
    image = Image.new("P", (1, 1))
    image.putpalette([level for color in colors for level in color])
    return image


_LEVELS = (0, 51, 102, 153, 204, 255)
_SPREAD = [(r, g, b) for r in _LEVELS for g in _LEVELS for b in _LEVELS]


def png(picture: Picture) -> bytes:
    out = io.BytesIO()
    drawn(picture).save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def gif(pictures: Sequence[Picture]) -> bytes:
    """An animated GIF, one frame a picture, played in a loop.

    Every frame is mapped onto one palette made in advance (`palette`), never
    quantized on its own: choosing each frame's colours would cost some fifty
    times its drawing, and frames that share a palette leave the encoder only
    what changed from one to the next to store."""
    shared = palette(pictures)
    frames = [
        drawn(picture).quantize(palette=shared, dither=Image.Dither.NONE)
        for picture in pictures
    ]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=FRAME_MS,
        loop=0,
    )
    return out.getvalue()
