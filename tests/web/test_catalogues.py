"""The page's words: its own catalogues (web/i18n/en.js, fr.js), and each game
module's (`WORDS`, in both languages, said before the page's). Each words the same
sentences in English and in French with the same values; every sentence the page's
files ask for is in its catalogues, and every sentence a game's module asks for is
in its own words or the page's, in both languages; a game's module names each of
its kinds of move; a sentence one game alone asks for is in that game's module; and
every sentence worded is asked for. Read from the source, so no browser is needed.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from tablelog_toy import NIM

from domain.game import AnyRules
from domain.registry import BUILT_IN

WEB = Path(__file__).resolve().parents[2] / "service" / "http" / "web"
ENTRY = re.compile(r'^\s*"([\w.]+)": (.*)$', re.MULTILINE)
PLACEHOLDER = re.compile(r"\{(\w+)\}")
ASKED = re.compile(r"""\bt\(\s*(?:"([\w.]+)"|`([\w.]*)\$\{)""")
# A module's words: `const WORDS = { en: {...}, fr: {...} };`, one entry a line.
WORDS = re.compile(
    r"^const WORDS = \{\n  en: \{\n(.*?)^  \},\n  fr: \{\n(.*?)^  \},\n\};$",
    re.MULTILINE | re.DOTALL,
)
# The games whose modules the repository holds: the built-in ones and the toy game.
GAMES = {rules.family: rules for rules in [*BUILT_IN.families().values(), NIM]}
every_module = pytest.mark.parametrize("family", sorted(GAMES))


def words_of(text: str) -> dict[str, set[str]]:
    """Each key of a catalogue and the values its wording names."""
    return {key: set(PLACEHOLDER.findall(rest)) for key, rest in ENTRY.findall(text)}


@cache
def catalogue(code: str) -> dict[str, set[str]]:
    """The page's own catalogue in language `code`."""
    return words_of((WEB / "i18n" / f"{code}.js").read_text(encoding="utf-8"))


@cache
def module_words(family: str) -> dict[str, dict[str, set[str]]]:
    """A game module's words, by language."""
    found = WORDS.search(GAMES[family].page.read_text(encoding="utf-8"))
    assert found, f"the module of {family} has no WORDS in English and French"
    english, french = found.groups()
    return {"en": words_of(english), "fr": words_of(french)}


def asked(text: str) -> list[tuple[str, bool]]:
    """(key or key prefix, is a prefix) of every t(...) in a script."""
    return [(key or prefix, not key) for key, prefix in ASKED.findall(text)]


def shell_scripts() -> list[Path]:
    return sorted(
        script
        for script in WEB.rglob("*.js")
        if not {"vendor", "i18n"} & set(script.relative_to(WEB).parts)
    )


def worded(keys: set[str] | dict, key: str, prefix: bool) -> bool:
    return any(k.startswith(key) for k in keys) if prefix else key in keys


def module_asks(family: str) -> list[tuple[str, bool]]:
    return asked(GAMES[family].page.read_text(encoding="utf-8"))


def test_both_catalogues_of_the_page_word_the_same_keys_with_the_same_values():
    english, french = catalogue("en"), catalogue("fr")
    assert len(english) > 150
    assert english.keys() == french.keys()
    assert [k for k in english if english[k] != french[k]] == []


@every_module
def test_a_game_module_words_the_same_keys_in_both_languages_with_the_same_values(
    family,
):
    words = module_words(family)
    english, french = words["en"], words["fr"]
    assert english
    assert english.keys() == french.keys()
    assert [k for k in english if english[k] != french[k]] == []


@pytest.mark.parametrize("code", ["en", "fr"])
def test_every_sentence_the_pages_own_files_ask_for_is_worded(code):
    requests = [
        (script.name, key, prefix)
        for script in shell_scripts()
        for key, prefix in asked(script.read_text(encoding="utf-8"))
    ]
    assert len(requests) > 150
    missing = [
        (script, key)
        for script, key, prefix in requests
        if not worded(catalogue(code), key, prefix)
    ]
    assert missing == []


@every_module
@pytest.mark.parametrize("code", ["en", "fr"])
def test_every_sentence_a_game_module_asks_for_is_worded(family, code):
    keys = module_words(family)[code].keys() | catalogue(code).keys()
    requests = module_asks(family)
    assert requests
    assert [key for key, prefix in requests if not worded(keys, key, prefix)] == []


def kinds_of(rules: AnyRules) -> list[str]:
    return [move.__struct_config__.tag for move in rules.moves]


@every_module
def test_a_game_module_names_each_kind_of_move_of_its_game(family):
    """The page offers each kind by its name (`kind.<type>`) and names a move not
    said yet by its type (`move.<type>`), both asked of the game's module."""
    words = module_words(family)
    for code in ("en", "fr"):
        missing = [
            f"{what}.{kind}"
            for kind in kinds_of(GAMES[family])
            for what in ("kind", "move")
            if f"{what}.{kind}" not in words[code]
        ]
        assert missing == [], code


@every_module
def test_a_game_module_does_not_reword_the_pages_own_sentences(family):
    assert module_words(family)["en"].keys() & catalogue("en").keys() == set()


def test_a_sentence_one_game_alone_asks_for_is_in_its_module():
    """The page's catalogues hold the words of its own files, and the words of the
    table that several games say (a round, the next player, the draw pile)."""
    shell = [
        request
        for script in shell_scripts()
        for request in asked(script.read_text(encoding="utf-8"))
    ]
    only_one = []
    for key in catalogue("en"):
        askers = [
            family
            for family in BUILT_IN.families()
            if any(worded({key}, k, prefix) for k, prefix in module_asks(family))
        ]
        if len(askers) == 1 and not any(worded({key}, k, p) for k, p in shell):
            only_one.append((key, askers[0]))
    assert only_one == []


def test_every_worded_sentence_is_asked_for():
    sources = [WEB / "index.html", *shell_scripts()]
    sources += [rules.page for rules in GAMES.values()]
    text = "\n".join(s.read_text(encoding="utf-8") for s in sources)
    prefixes = [key for key, prefix in asked(text) if prefix]
    named = {"kind.", "move."}  # each kind of move, asked by the page (`say`)
    keys = [*catalogue("en"), *(k for f in GAMES for k in module_words(f)["en"])]
    unused = [
        key
        for key in keys
        if f'"{key}"' not in text
        and not any(key.startswith(p) for p in [*prefixes, *named])
    ]
    assert unused == []


def texts_of(text: str) -> dict[str, str]:
    return dict(ENTRY.findall(text))


# Sentences French words as English does, each on purpose: the brand, names printed
# on the cards (kept as the service's French sentences keep them), symbols and
# templates with no word of their own, and words that are French as well.
SAME_IN_FRENCH = {
    "page": {
        "page.title",
        "home.range",
        "state.points",
        "sheet.player_points",
        "sheet.total",
        "move.abandon",
    },
    "dobro": set(),
    "dozito": {
        "dozito.marked",
        "dozito.replay",
        "dozito.sun_count",
        "dozito.toggle_joker",
        "dozito.toggle_stop",
        "dozito.toggle_replay",
        "move.place",
    },
    "double-donkey": {
        "state.biggest",
        "donkey.angry",
        "donkey.die_shows",
        "donkey.card_value",
        "color.orange",
        "queued.donkey.rolled",
    },
    "nim": None,
}


@pytest.mark.parametrize("family", ["page", *sorted(GAMES)])
def test_no_french_sentence_is_the_english_one_left_untranslated(family):
    """A key whose French is its English, copied to fill the catalogue, fails:
    only the sentences listed above are the same in both languages."""
    if family == "page":
        english, french = (
            texts_of((WEB / "i18n" / f"{code}.js").read_text(encoding="utf-8"))
            for code in ("en", "fr")
        )
    else:
        found = WORDS.search(GAMES[family].page.read_text(encoding="utf-8"))
        english, french = (texts_of(block) for block in found.groups())
    same = {key for key in english if english[key] == french.get(key)}
    if SAME_IN_FRENCH.get(family) is None:
        return  # a game outside the repository's own, its words its own
    assert same == SAME_IN_FRENCH[family]
