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

from PIL import Image, ImageDraw, ImageFont

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


def png(picture: Picture) -> bytes:
    out = io.BytesIO()
    drawn(picture).save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def gif(pictures: Sequence[Picture]) -> bytes:
    """An animated GIF, one frame a picture, played in a loop."""
    frames = [drawn(picture).quantize(colors=64) for picture in pictures]
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
