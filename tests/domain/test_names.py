"""Players' names are read one way everywhere: trimmed of what does not show, in
Unicode's composed form, and compared without regard to case, invisible characters
or compatibility forms; a name that is nobody's finds the names it may mean."""

from __future__ import annotations

import itertools
import random

import pytest

from domain.names import name_fault, name_key, nearest, normal_name
from domain.registry import BUILT_IN


@pytest.mark.parametrize(
    "typed, kept",
    [
        ("  Karen ", "Karen"),
        ("\u200bKaren\ufeff", "Karen"),
        ("\u00a0Karen\u3000", "Karen"),
        ("Ana\u0301", "An\u00e1"),
        ("Maria Lú", "Maria Lú"),
        ("karen", "karen"),
        ("👩\u200d💻", "👩\u200d💻"),
    ],
)
def test_a_name_is_kept_trimmed_and_composed_in_the_case_typed(typed, kept):
    assert normal_name(typed) == kept


@pytest.mark.parametrize(
    "one, other",
    [
        ("An\u00e1", "Ana\u0301"),
        ("Aná", "ANÁ"),
        ("Karen", "Ka\u200dren"),
        ("Karen", "\uff2baren"),
        ("Strauß", "STRAUSS"),
        (" Karen", "Karen\u200b"),
        ("Karen", "Karen\ufe0f"),
        ("Karen", "Kar\u034fen"),
        ("Karen", "\u180fKaren\U000e0100"),
        ("Karen", "Ka\u17b4ren\u2065"),
    ],
)
def test_two_spellings_of_one_name_share_their_key(one, other):
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize("one, other", [("Ana", "Anna"), ("Ana Lu", "AnaLu")])
def test_different_names_have_different_keys(one, other):
    assert name_key(one) != name_key(other)


@pytest.mark.parametrize("name", ["", " ", "\u200b", "\u2800", "\u0301\u0302"])
def test_a_name_that_shows_nothing_is_no_name(name):
    assert (
        BUILT_IN.languages["en"].render(name_fault(name))
        == "Every player needs a name."
    )


@pytest.mark.parametrize("name", ["A\tB", "A\rB", "A\x7f", "A\x85", "A\u2029B"])
def test_a_name_with_a_control_character_is_refused(name):
    assert "control characters" in BUILT_IN.languages["en"].render(name_fault(name))


@pytest.mark.parametrize("name", ["Karen", "李雷", "O'Brien", "👍", "Zé-1"])
def test_ordinary_names_are_fine(name):
    assert name_fault(name) is None


def _ascii_names() -> list[str]:
    """Every ASCII string of up to two characters, and seeded longer ones mixing
    letters with spaces and control characters."""
    every = [chr(code) for code in range(128)]
    short = ["", *every, *map("".join, itertools.product(every, repeat=2))]
    rng = random.Random(5)
    alphabet = [*"aZ9'- ", "\t", "\n", "\x1f", "\x7f", "\x00", "\x0b"]
    longer = ["".join(rng.choices(alphabet, k=rng.randint(3, 8))) for _ in range(3000)]
    return short + longer


def test_an_ascii_name_is_read_as_the_unicode_path_reads_it():
    # A zero-width space is trimmed and dropped, and is neither visible nor a control
    # character: the name with one is read by the Unicode path to the same answer.
    for name in _ascii_names():
        unicode = name + "\u200b"
        assert normal_name(name) == normal_name(unicode), repr(name)
        assert name_key(name) == name_key(unicode), repr(name)
        fault, unicode_fault = name_fault(name), name_fault(unicode)
        assert (fault and fault.key) == (unicode_fault and unicode_fault.key), name


ROSTER = ["Mauricio", "Zoé", "Karen", "Ana", "Léa", "Bob", "Anna"]


@pytest.mark.parametrize(
    "typed, meant",
    [
        ("Mauricoi", ["Mauricio"]),  # two letters swapped
        ("Mauricios", ["Mauricio"]),  # one added
        ("Maurizia", []),  # two letters changed
        ("Maurcio", ["Mauricio"]),  # one dropped
        ("Karin", ["Karen"]),  # one changed
        ("ZOE", ["Zoé"]),  # case and accent
        ("Lea", ["Léa"]),  # accent alone
        ("Naa", ["Ana"]),  # the same letters in another order
        ("Ann", ["Ana", "Anna"]),  # one letter away from both, in roster order
        ("Quentin", []),
    ],
)
def test_a_name_that_is_nobodys_finds_the_names_it_may_mean(typed, meant):
    assert nearest(typed, ROSTER) == meant


def test_the_nearest_names_come_closest_first_and_at_most_so_many():
    names = ["Nina", "Anni", "Enna", "Anné", "Ane"]
    # "Anne" differs from "Anné" by an accent, from "Anni" and "Ane" by a letter,
    # from "Enna" by its order; "Nina" is none of those.
    assert nearest("Anne", names, most=4) == ["Anné", "Anni", "Ane", "Enna"]
    assert nearest("Anne", names) == ["Anné", "Anni", "Ane"]
    assert nearest("Anne", names, most=1) == ["Anné"]
