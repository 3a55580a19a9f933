"""The page's two catalogues (web/i18n/en.js, fr.js) word the same sentences with the
same values, and every sentence the page's scripts ask for is in both. Read from the
source, so no browser is needed."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "service" / "http" / "web"
ENTRY = re.compile(r'^\s*"([\w.]+)": (.*)$', re.MULTILINE)
PLACEHOLDER = re.compile(r"\{(\w+)\}")
ASKED = re.compile(r"""\bt\(\s*(?:"([\w.]+)"|`([\w.]*)\$\{)""")


@cache
def catalogue(code: str) -> dict[str, set[str]]:
    """Each key of a catalogue and the values its wording names."""
    text = (WEB / "i18n" / f"{code}.js").read_text(encoding="utf-8")
    return {key: set(PLACEHOLDER.findall(rest)) for key, rest in ENTRY.findall(text)}


def asked() -> list[tuple[str, str, bool]]:
    """(script, key or key prefix, is a prefix) of every t(...) in the scripts."""
    found = []
    for script in sorted(WEB.rglob("*.js")):
        if "vendor" in script.parts or "i18n" in script.parts:
            continue
        for key, prefix in ASKED.findall(script.read_text(encoding="utf-8")):
            found.append((script.name, key or prefix, not key))
    return found


def test_both_catalogues_word_the_same_keys_with_the_same_values():
    english, french = catalogue("en"), catalogue("fr")
    assert len(english) > 200
    assert english.keys() == french.keys()
    assert [k for k in english if english[k] != french[k]] == []


@pytest.mark.parametrize("code", ["en", "fr"])
def test_every_sentence_the_page_asks_for_is_worded(code):
    keys = catalogue(code)
    requests = asked()
    assert len(requests) > 150
    missing = [
        (script, key)
        for script, key, prefix in requests
        if not (any(k.startswith(key) for k in keys) if prefix else key in keys)
    ]
    assert missing == []


def test_every_worded_sentence_is_used_by_the_page():
    sources = [WEB / "index.html"] + [
        s for s in WEB.rglob("*.js") if not {"vendor", "i18n"} & set(s.parts)
    ]
    text = "\n".join(s.read_text(encoding="utf-8") for s in sources)
    prefixes = [key for _, key, prefix in asked() if prefix]
    unused = [
        key
        for key in catalogue("en")
        if f'"{key}"' not in text and not any(key.startswith(p) for p in prefixes)
    ]
    assert unused == []
