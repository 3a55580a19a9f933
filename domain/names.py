"""Players' names, read the same way wherever a name is given: at a game's creation
(the players and the first player) and in every move that names a player.

A name is kept as the table typed it, case included, only trimmed of the spaces and
invisible characters around it and put in Unicode's composed form (NFC): "Aná" typed
with a composed "á" on one phone and with "a" and a combining accent on another is
one name. Two names that differ only by case, invisible characters (zero-width,
direction marks, variation selectors: every default-ignorable code point) or
compatibility forms (a full-width "A", U+FF21) are the same player: `name_key` is what
they share, so they cannot sit at one table, and a player's records gather both. The
database keeps the same key (`player_key`, migrations/0007 and 0013).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Annotated

from domain.wording import Message, message


class _PlayerNameMarker:
    def __repr__(self) -> str:
        return "PLAYER_NAME"


# Marks a move's field, or a dict's keys, as a player's name (`player: PlayerName`,
# `rolls: dict[PlayerName, Pips]`): the service reads every name so marked with
# `normal_name` before the rules see it. msgspec ignores the marker.
PLAYER_NAME = _PlayerNameMarker()
PlayerName = Annotated[str, PLAYER_NAME]

# Letters that render as nothing (Hangul fillers, the blank Braille pattern).
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Characters that break a name across lines or are not text at all.
_CONTROL = frozenset(("Cc", "Cs", "Zl", "Zp"))


# Unicode's Default_Ignorable_Code_Point: what a renderer shows as nothing unless it
# supports it (variation selectors, the combining grapheme joiner, Hangul fillers,
# tags, ...). From DerivedCoreProperties.txt of Unicode 16.0.0; the ranges are the same
# since 14.0.0, the version of Python 3.11's unicodedata, which has no accessor for the
# property. A table rather than a package (`regex` has the property): the domain
# keeps to the standard library, and migrations/0013 lists the same ranges in SQL.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _default_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _DEFAULT_IGNORABLE)


def _zero_width(char: str) -> bool:
    return unicodedata.category(char) == "Cf" or char in _BLANK


def _invisible(char: str) -> bool:
    return char.isspace() or _zero_width(char)


def _visible(char: str) -> bool:
    """A letter, digit, punctuation or symbol that shows (marks and spaces do not)."""
    return unicodedata.category(char)[0] in "LNPS" and char not in _BLANK


# Most names are ASCII, and a game's set-up reads every player's name again each time
# the game is folded: for ASCII the str methods give what the Unicode path below
# gives (no composed or compatibility forms, no zero-width characters, and the only
# invisible ones are what `str.strip` trims), at a fraction of the cost.


def normal_name(name: str) -> str:
    """The name as it is kept: trimmed of invisible characters at both ends, NFC."""
    if name.isascii():
        return name.strip()
    start, end = 0, len(name)
    while start < end and _invisible(name[start]):
        start += 1
    while end > start and _invisible(name[end - 1]):
        end -= 1
    return unicodedata.normalize("NFC", name[start:end])


def name_key(name: str) -> str:
    """What two spellings of one player's name share: without invisible characters
    (format characters, blank letters, every default-ignorable code point), in
    compatibility form (NFKC), case folded."""
    if name.isascii():
        return name.strip().lower()
    shown = "".join(
        c for c in normal_name(name) if not (_zero_width(c) or _default_ignorable(c))
    )
    folded = unicodedata.normalize("NFKC", shown).casefold()
    return unicodedata.normalize("NFKC", folded)


def shows_nothing(text: str) -> bool:
    """Whether `text` shows nothing: no letter, digit, punctuation or symbol, only
    spaces, invisible characters and marks (a combining accent alone)."""
    return not any(_visible(c) for c in text)


def name_fault(name: str) -> Message | None:
    """Why `name` cannot be a player's name, or None: it shows nothing, or it holds
    a control character (a tab, a line break, ...)."""
    if name.isascii() and name.isprintable() and name.strip():
        return None  # something shows, and nothing is a control character
    if shows_nothing(name):
        return message("name.missing")
    if any(unicodedata.category(c) in _CONTROL for c in name):
        return message("name.control", name=repr(name))
    return None


def _plain(name: str) -> str:
    """The name as `name_key` reads it, without accents: "Zoé" and "zoe" read
    "zoe"."""
    decomposed = unicodedata.normalize("NFKD", name_key(name))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _one_edit_apart(a: str, b: str) -> bool:
    """Whether one letter added, dropped, changed, or two neighbours swapped, makes
    `a` into `b` (they differ)."""
    if abs(len(a) - len(b)) > 1:
        return False
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    if len(a) == len(b):
        if a[1:] == b[1:]:
            return True  # one letter changed
        return len(a) >= 2 and a[0] == b[1] and a[1] == b[0] and a[2:] == b[2:]
    shorter, longer = (a, b) if len(a) < len(b) else (b, a)
    return shorter == longer[1:]  # one letter added or dropped


def nearest(typed: str, names: Iterable[str], most: int = 3) -> list[str]:
    """The `names` a player may have meant by `typed`, which is none of them as
    names are compared (`name_key`): those that differ from it only by accents, are
    its letters in another order, or are one letter added, dropped, changed or two
    swapped away from it. The closest first (accents, then one letter, then the
    letters reordered), then in the order of `names`; at most `most`."""
    plain = _plain(typed)
    letters = sorted(plain)
    found: list[tuple[int, int, str]] = []
    for order, name in enumerate(names):
        other = _plain(name)
        if other == plain:
            closeness = 0
        elif _one_edit_apart(plain, other):
            closeness = 1
        elif sorted(other) == letters:
            closeness = 2
        else:
            continue
        found.append((closeness, order, name))
    return [name for _, _, name in sorted(found)[:most]]
