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

from PIL import GifImagePlugin, Image, ImageChops, ImageColor, ImageDraw, ImageFont

from domain.picture import Box, Label, Picture

FONT = Path(__file__).with_name("DejaVuSans.ttf")
# Pillow's anchors for a label's start, middle and end, on its baseline.
_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}
# How long a GIF shows each step.
FRAME_MS = 1200
# A GIF's palette index for what a frame leaves as the frame before showed it.
UNCHANGED = 255


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
    letters, smoothed between a text's colour and what lies under it. The last
    of the 256, `UNCHANGED`, is left out: it marks what a frame leaves as it was."""
    named: dict[str, None] = {}
    for picture in pictures:
        named[picture.background] = None
        for item in picture.items:
            colors = (
                (item.fill, item.stroke) if isinstance(item, Box) else (item.color,)
            )
            named.update(dict.fromkeys(c for c in colors if c is not None))
    exact = [ImageColor.getrgb(color)[:3] for color in named][
        : UNCHANGED - len(_SPREAD)
    ]
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
    times its drawing. A frame is written as soon as it is drawn, as the part that
    changed since the frame before: only those two frames are held at a time
    (Pillow's own writer of animations holds every frame until the end, some
    100 MB for 200 of them)."""
    shared = palette(pictures)
    out = io.BytesIO()
    previous: Image.Image | None = None
    for picture in pictures:
        frame = drawn(picture).quantize(palette=shared, dither=Image.Dither.NONE)
        if previous is None:
            header, _ = GifImagePlugin.getheader(frame, info={"loop": 0})
            out.write(b"".join(header))
            box: tuple[int, int, int, int] | None = (0, 0, *frame.size)
            changed = frame
        else:
            # Both frames hold indices into one palette: where they differ, the
            # picture changed. What did not is left transparent, over the frame
            # before, and compresses to next to nothing.
            delta = ImageChops.subtract_modulo(frame, previous)
            box = delta.getbbox()
            changed = frame.copy()
            changed.paste(UNCHANGED, mask=delta.point([255] + [0] * 255, "1"))
        box = box or (0, 0, 1, 1)
        for chunk in GifImagePlugin.getdata(
            changed.crop(box), box[:2], duration=FRAME_MS, transparency=UNCHANGED
        ):
            out.write(chunk)
        previous = frame
    out.write(b";")
    return out.getvalue()
