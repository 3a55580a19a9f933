"""A `domain.picture.Picture` as SVG text: the same boxes and labels the raster
renderer draws, written as XML by hand.

Every text and attribute comes from the game (players' names, Dozito's colour
names are the table's, so anyone's): it is escaped, and the characters XML 1.0
cannot hold at all are replaced, so the document always parses and never holds
markup of its own choosing.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

from domain.picture import Box, Label, Picture

# What XML 1.0 refuses even escaped: the control characters but tab and the line
# breaks, the surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# The renderers' font first, so that a viewer that has it shows what a PNG shows.
FONTS = "'DejaVu Sans', Verdana, Arial, sans-serif"


def text(value: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", value))


def attribute(value: str) -> str:
    return quoteattr(_NOT_XML.sub("\ufffd", value))


def svg(picture: Picture) -> bytes:
    width, height = picture.width, picture.height
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family={attribute(FONTS)} '
        'role="img">',
        f"<title>{text(picture.title)}</title>",
        f'<rect width="{width}" height="{height}" '
        f"fill={attribute(picture.background)}/>",
    ]
    for item in picture.items:
        lines.append(_box(item) if isinstance(item, Box) else _label(item))
    lines.append("</svg>")
    return "\n".join(lines).encode()


def _box(box: Box) -> str:
    stroke = "" if box.stroke is None else f" stroke={attribute(box.stroke)}"
    corner = f' rx="{box.radius}"' if box.radius else ""
    return (
        f'<rect x="{box.x}" y="{box.y}" width="{box.width}" height="{box.height}"'
        f"{corner} fill={attribute(box.fill)}{stroke}/>"
    )


def _label(label: Label) -> str:
    return (
        f'<text x="{label.x}" y="{label.y}" font-size="{label.size}" '
        f"fill={attribute(label.color)} text-anchor={attribute(label.anchor)} "
        f'xml:space="preserve">{text(label.text)}</text>'
    )
