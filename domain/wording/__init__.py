"""Sentences built from data, in each language the service speaks.

A refusal, and a replay's sentence for a move, is a `Message`: a key and the values
it names (a player, a card, a count). Each language has one catalogue: `en.py` and
`fr.py` hold the keys every game shares, and each game's package its own
(`wording.py`, added to the catalogue when the game's `Rules` is built), so a
sentence's words in a language live in one place and one language is never made by
looking up the other's strings. A
value may itself be a `Message` (a card, a die's colour) or a list: `Names` (players,
read "Ana, Bo and Cy"), `Clauses` (a sentence's parts, "a; b"), `Commas` ("a, b")
or `Sum` ("5 + 5"), each set apart as the language does ("a ; b" in French).
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.wording import en, fr

# A template, or templates by plural category of the message's `count`.
Template = str | Mapping[str, str]


@dataclass(frozen=True)
class Message:
    """What to say, as data: `key` names the sentence, `params` its values."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


def message(key: str, **params: Any) -> Message:
    return Message(key, params)


class Names(tuple):
    """Names read as a list in the sentence's language: "Ana, Bo and Cy"."""


class Clauses(tuple):
    """A sentence's clauses: "round 1 ends; Ana opens round 2"."""


class Commas(tuple):
    """Items set apart by commas: "Ana scores 1, Bo scores 2"."""


class Sum(tuple):
    """Cards played together: "5 + 5"."""


@dataclass(frozen=True)
class Language:
    """A language's templates and how it says numbers, plurals and lists."""

    code: str
    templates: Mapping[str, Template]
    plural: Callable[[int], str]
    thousands: str
    conjunction: str
    semicolon: str

    def with_templates(self, more: Mapping[str, Template]) -> Language:
        """This language with more keys (the service's own refusals)."""
        clash = self.templates.keys() & more.keys()
        assert not clash, f"keys worded twice: {sorted(clash)}"
        shared = self.templates.maps if isinstance(self.templates, ChainMap) else []
        return Language(
            self.code,
            ChainMap(dict(more), *shared),
            self.plural,
            self.thousands,
            self.conjunction,
            self.semicolon,
        )

    def say(self, said: Any) -> str:
        """A sentence or a list of them (`Clauses`, ...) in this language."""
        return self._value(said)

    def render(self, said: Message) -> str:
        template = self.templates[said.key]
        if not isinstance(template, str):
            template = template[self.plural(said.params["count"])]
        values = {name: self._value(value) for name, value in said.params.items()}
        return template.format_map(values)

    def _value(self, value: Any) -> str:
        if isinstance(value, Message):
            return self.render(value)
        if isinstance(value, Names):
            return self._listed(value)
        if isinstance(value, Clauses | Commas | Sum):
            apart = {Clauses: self.semicolon, Commas: ", ", Sum: " + "}[type(value)]
            return apart.join(self._value(item) for item in value)
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}".replace(",", self.thousands)
        return str(value)

    def _listed(self, names: Names) -> str:
        said = [self._value(name) for name in names]
        if len(said) <= 1:
            return "".join(said)
        return f"{', '.join(said[:-1])} {self.conjunction} {said[-1]}"


# Each game's own keys, by language: the games add them (`add_sentences`), and every
# language made from these below or by `with_templates` sees them.
_GAMES_SENTENCES: dict[str, dict[str, Template]] = {"en": {}, "fr": {}}


def add_sentences(by_language: Mapping[str, Mapping[str, Template]]) -> None:
    """Add a game's keys to each language's catalogue (the same keys again, as the
    editions of one game add them, change nothing)."""
    assert by_language.keys() == _GAMES_SENTENCES.keys(), "worded in every language"
    for code, templates in by_language.items():
        catalogue = _GAMES_SENTENCES[code]
        shared = en.TEMPLATES if code == "en" else fr.TEMPLATES
        clash = {
            key
            for key, template in templates.items()
            if key in shared or catalogue.get(key, template) != template
        }
        assert not clash, f"keys worded twice: {sorted(clash)}"
        catalogue.update(templates)


ENGLISH = Language(
    "en",
    ChainMap(en.TEMPLATES, _GAMES_SENTENCES["en"]),
    lambda n: "one" if n == 1 else "other",
    ",",
    "and",
    "; ",
)
# French: 0 and 1 are singular; thousands are set apart by a narrow no-break space,
# and a semicolon has a space before it too.
FRENCH = Language(
    "fr",
    ChainMap(fr.TEMPLATES, _GAMES_SENTENCES["fr"]),
    lambda n: "one" if n in (0, 1) else "other",
    "\u202f",
    "et",
    " ; ",
)
LANGUAGES = {language.code: language for language in (ENGLISH, FRENCH)}
