"""Every sentence the service can refuse with is worded in every language it speaks.

The engines and the service name their sentences by key (`RuleError("D8",
"turn.other", expected=..., name=...)`, `message("token.wrong")`). These tests read
each such call in the source, so that no refusal kind is missed: each key is in every
catalogue, each catalogue's wording names exactly the values the call gives, and every
catalogue key is said somewhere. Then every template is rendered in every language.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from string import Formatter

import pytest

from domain.registry import BUILT_IN
from domain.wording import Message, Names, Template, message
from service.application.wording import catalogues

# Every language of the service, with the built-in games' words and its own.
LANGUAGES = catalogues(BUILT_IN)
ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    path
    for part in ("domain", "projections", "service")
    for path in (ROOT / part).rglob("*.py")
]
# The calls that name a sentence, and the position of its key among their arguments.
KEYED = {"RuleError": 1, "message": 0, "GameFinished": 1, "GameInProgress": 1}


def placeholders(template: Template) -> set[str]:
    """The values a template names; one with plural forms chooses by `count`."""
    if isinstance(template, str):
        return {name for _, name, _, _ in Formatter().parse(template) if name}
    return {"count"}.union(*(placeholders(text) for text in template.values()))


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _key(node: ast.expr) -> tuple[str, bool] | None:
    """A literal key, or the literal start of an f-string key ("dobro.card.")."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, False
    if isinstance(node, ast.JoinedStr) and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value), True
    return None


@cache
def keyed_calls() -> tuple[tuple[str, str, bool, frozenset[str] | None], ...]:
    """(where, key, is_prefix, values given) of every call naming a sentence; the
    values are None when the call passes them on from another message."""
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or _called(node) not in KEYED:
                continue
            position = KEYED[_called(node)]
            if len(node.args) <= position or (key := _key(node.args[position])) is None:
                continue
            given = {k.arg for k in node.keywords}
            values = None if None in given else frozenset(given)
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            found.append((where, *key, values))
    return tuple(found)


def _worded(language, key: str, is_prefix: bool) -> list[str]:
    if is_prefix:
        return [k for k in language.templates if k.startswith(key)]
    return [key] if key in language.templates else []


def test_the_source_names_sentences_by_key():
    assert len(keyed_calls()) > 100


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_sentence_named_in_the_source_is_worded_with_its_values(code):
    language = LANGUAGES[code]
    faults = []
    for where, key, is_prefix, values in keyed_calls():
        keys = _worded(language, key, is_prefix)
        if not keys:
            faults.append(f"{where}: {key!r} has no wording")
        for worded in keys if values is not None else ():
            named = placeholders(language.templates[worded])
            if named != values:
                faults.append(f"{where}: {worded!r} names {named}, given {values}")
    assert not faults, "\n".join(faults)


def test_every_worded_sentence_is_named_in_the_source():
    named = keyed_calls()
    unused = [
        key
        for key in LANGUAGES["en"].templates
        if not any(
            key.startswith(k) if prefix else key == k for _, k, prefix, _ in named
        )
    ]
    assert not unused


def test_the_languages_word_the_same_sentences_with_the_same_values():
    english, french = LANGUAGES["en"].templates, LANGUAGES["fr"].templates
    assert english.keys() == french.keys()
    differ = [k for k in english if placeholders(english[k]) != placeholders(french[k])]
    assert not differ


def _sample(value_name: str) -> object:
    if value_name == "count":
        return 2
    return message("donkey.color.dark_blue") if value_name == "color" else "Ana"


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_template_renders_with_no_placeholder_left(code):
    language = LANGUAGES[code]
    for key, template in language.templates.items():
        params = {name: _sample(name) for name in placeholders(template)}
        for count in (0, 1, 2) if "count" in params else (2,):
            said = language.render(Message(key, {**params, "count": count}))
            assert "{" not in said and "}" not in said and said.strip(), key


def test_a_refusal_reads_in_french_with_french_lists_and_numbers():
    french = LANGUAGES["fr"]
    tied = message("dozito.tie_unsettled", tied=Names(("Arthur", "Maëlle", "Lou")))
    assert french.render(tied) == (
        "Arthur, Maëlle et Lou sont à égalité avec le moins de points : "
        "dites qui commence."
    )
    full = french.render(message("game.full", most=5000))
    assert full.startswith("La partie compte 5\u202f000 coups")


def test_plurals_follow_each_language():
    english, french = LANGUAGES["en"], LANGUAGES["fr"]
    hand = message("dobro.hand", name="Ana", count=0, wanted=1)
    assert english.render(hand) == "Ana holds only 0 cards, not 1."
    assert french.render(hand) == "Ana n'a que 0 carte en main, pas 1."
