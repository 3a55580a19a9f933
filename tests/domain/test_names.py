"""Players' names are read one way everywhere: trimmed of what does not show, in
Unicode's composed form, and compared without regard to case, invisible characters
or compatibility forms."""

from __future__ import annotations

import pytest

from domain.names import name_fault, name_key, normal_name
from domain.wording import ENGLISH


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
    ],
)
def test_two_spellings_of_one_name_share_their_key(one, other):
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize("one, other", [("Ana", "Anna"), ("Ana Lu", "AnaLu")])
def test_different_names_have_different_keys(one, other):
    assert name_key(one) != name_key(other)


@pytest.mark.parametrize("name", ["", " ", "\u200b", "\u2800", "\u0301\u0302"])
def test_a_name_that_shows_nothing_is_no_name(name):
    assert ENGLISH.render(name_fault(name)) == "Every player needs a name."


@pytest.mark.parametrize("name", ["A\tB", "A\rB", "A\x7f", "A\x85", "A\u2029B"])
def test_a_name_with_a_control_character_is_refused(name):
    assert "control characters" in ENGLISH.render(name_fault(name))


@pytest.mark.parametrize("name", ["Karen", "李雷", "O'Brien", "👍", "Zé-1"])
def test_ordinary_names_are_fine(name):
    assert name_fault(name) is None
