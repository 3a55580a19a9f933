"""Sentences built from data, in each language the service speaks.

A refusal, and a replay's sentence for a move, is a `Message`: a key and the values
it names (a player, a card, a count). `en.py` and `fr.py` hold the words every game
shares; each game's package holds its own (`wording.py`, its `Rules.words`), so a
sentence's words in a language live in one place and one language is never made by
looking up the other's strings. A language's catalogue is the shared words and those
of the games it serves: `languages(...)`, which `domain.registry` calls for the
games it lists. A
value may itself be a `Message` (a card, a die's colour) or a list: `Names` (players,
read "Ana, Bo and Cy"), `Clauses` (a sentence's parts, "a; b"), `Commas` ("a, b")
or `Sum` ("5 + 5"), each set apart as the language does ("a ; b" in French).
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from domain.wording import en, fr

# A template, or templates by plural category of the message's `count`.
Template = str | Mapping[str, str]
# Templates by key, by language code: the words of a game, or those all share.
Words = Mapping[str, Mapping[str, Template]]


@dataclass(frozen=True)
class Message:
    """What to say, as data: `key` names the sentence, `params` its values."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


def message(key: str, **params: Any) -> Message:
    return Message(key, params)


class Names(tuple[Any, ...]):
    """Names read as a list in the sentence's language: "Ana, Bo and Cy"."""


class Either(tuple[Any, ...]):
    """Names read as a choice in the sentence's language: "Ana, Bo or Cy"."""


class Clauses(tuple[Any, ...]):
    """A sentence's clauses: "round 1 ends; Ana opens round 2"."""


class Commas(tuple[Any, ...]):
    """Items set apart by commas: "Ana scores 1, Bo scores 2"."""


class Sum(tuple[Any, ...]):
    """Cards played together: "5 + 5"."""


# What a language says: a sentence, or a list of them.
Said = Message | Names | Either | Clauses | Commas | Sum


@dataclass(frozen=True)
class Language:
    """A language's templates and how it says numbers, plurals and lists."""

    code: str
    templates: Mapping[str, Template]
    plural: Callable[[int], str]
    thousands: str
    conjunction: str
    semicolon: str
    # The word before a choice's last item: "Ana or Bo".
    disjunction: str

    def with_templates(self, more: Mapping[str, Template]) -> Language:
        """This language with more keys (the service's own refusals)."""
        clash = self.templates.keys() & more.keys()
        assert not clash, f"keys worded twice: {sorted(clash)}"
        return replace(self, templates=ChainMap(dict(more), dict(self.templates)))

    def say(self, said: Said | int | str) -> str:
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
            return self._listed(value, self.conjunction)
        if isinstance(value, Either):
            return self._listed(value, self.disjunction)
        if isinstance(value, Clauses | Commas | Sum):
            apart = {Clauses: self.semicolon, Commas: ", ", Sum: " + "}[type(value)]
            return apart.join(self._value(item) for item in value)
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}".replace(",", self.thousands)
        return str(value)

    def _listed(self, names: tuple[Any, ...], joined_by: str) -> str:
        said = [self._value(name) for name in names]
        if len(said) <= 1:
            return "".join(said)
        return f"{', '.join(said[:-1])} {joined_by} {said[-1]}"


# The words every game shares, by language code.
SHARED: Words = {"en": en.TEMPLATES, "fr": fr.TEMPLATES}

# How each language says numbers, plurals and lists; `languages` gives it its words.
_GRAMMARS = {
    "en": Language(
        "en", {}, lambda n: "one" if n == 1 else "other", ",", "and", "; ", "or"
    ),
    # French: 0 and 1 are singular; thousands are set apart by a narrow no-break
    # space, and a semicolon has a space before it too.
    "fr": Language(
        "fr",
        {},
        lambda n: "one" if n in (0, 1) else "other",
        "\u202f",
        "et",
        " ; ",
        "ou",
    ),
}


def languages(*words: Words) -> dict[str, Language]:
    """Each language with its catalogue: the shared words and each of `words` (a
    game's own), every key worded once. The same words again, as the editions of one
    game bring them, change nothing; other words for a key already worded are a
    fault."""
    found = {}
    for code, grammar in _GRAMMARS.items():
        templates = dict(SHARED[code])
        for more in words:
            assert more.keys() == _GRAMMARS.keys(), "worded in every language"
            clash = {
                key
                for key, template in more[code].items()
                if templates.get(key, template) != template
            }
            assert not clash, f"keys worded twice: {sorted(clash)}"
            templates.update(more[code])
        found[code] = replace(grammar, templates=templates)
    return found
