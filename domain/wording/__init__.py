"""Sentences built from data, in each language the service speaks.

A refusal carries a `Message`: a key and the values it names (a player, a card, a
count). Each language has one catalogue, `en.py` and `fr.py`, holding the wording of
every key, so a sentence's words in a language live in one place and one language is
never made by looking up the other's strings. A value may itself be a `Message` (a
card, a die's colour) or `Names` (players, read "Ana, Bo and Cy").
"""

from __future__ import annotations

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


@dataclass(frozen=True)
class Language:
    """A language's templates and how it says numbers, plurals and lists."""

    code: str
    templates: Mapping[str, Template]
    plural: Callable[[int], str]
    thousands: str
    conjunction: str

    def with_templates(self, more: Mapping[str, Template]) -> Language:
        """This language with more keys (the service's own refusals)."""
        clash = self.templates.keys() & more.keys()
        assert not clash, f"keys worded twice: {sorted(clash)}"
        return Language(
            self.code,
            {**self.templates, **more},
            self.plural,
            self.thousands,
            self.conjunction,
        )

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
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}".replace(",", self.thousands)
        return str(value)

    def _listed(self, names: Names) -> str:
        said = [self._value(name) for name in names]
        if len(said) <= 1:
            return "".join(said)
        return f"{', '.join(said[:-1])} {self.conjunction} {said[-1]}"


ENGLISH = Language(
    "en", en.TEMPLATES, lambda n: "one" if n == 1 else "other", ",", "and"
)
# French: 0 and 1 are singular; thousands are set apart by a narrow no-break space.
FRENCH = Language(
    "fr", fr.TEMPLATES, lambda n: "one" if n in (0, 1) else "other", "\u202f", "et"
)
LANGUAGES = {language.code: language for language in (ENGLISH, FRENCH)}
