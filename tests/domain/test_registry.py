"""A registry takes whole games only: each game it refuses is named with what keeps
it out, in words its author acts on, and its languages are built from its games'
words alone."""

from __future__ import annotations

from importlib.resources import files

import msgspec
import pytest
from tablelog_toy import NIM, Nim

from domain.dobro import DOBRO, DOBRO_PIXAR
from domain.dozito import DOZITO
from domain.registry import BUILT_IN, GameRefused, Registry, faults


class Renamed(Nim):
    """The toy game under other names, to be changed one part at a time."""

    name = family = "renamed"


class Move(msgspec.Struct, frozen=True, tag="pick"):
    player: str


def test_the_built_in_registry_holds_the_four_games_in_order():
    assert list(BUILT_IN) == ["dobro", "dobro-pixar", "dozito", "double-donkey"]
    assert BUILT_IN["dozito"] is DOZITO


def test_a_registry_is_one_object_and_never_equals_another_of_the_same_games():
    assert Registry([DOBRO]) != Registry([DOBRO])
    assert len({BUILT_IN, Registry([DOBRO])}) == 2


def test_a_registrys_languages_word_its_games_and_no_other():
    alone = Registry([NIM])
    assert alone.languages["fr"].templates["nim.count"].startswith("Prenez")
    assert "nim.count" not in BUILT_IN.languages["en"].templates
    assert "dobro.card.wild" in BUILT_IN.languages["en"].templates
    assert "dobro.card.wild" not in alone.languages["en"].templates
    assert "turn.other" in alone.languages["en"].templates  # the shared words


def test_the_editions_of_a_game_share_its_moves():
    assert faults(DOBRO_PIXAR, [DOBRO]) == []


def test_a_second_game_of_one_name_is_refused():
    with pytest.raises(GameRefused) as refused:
        Registry([NIM, NIM])
    assert refused.value.game == "nim"
    assert refused.value.faults == ["another game is named 'nim' already"]


def test_a_game_whose_move_has_another_games_type_is_refused():
    class Picking(Renamed):
        moves = (Move,)

    assert faults(Picking(), [NIM]) == ["another game's moves have the type pick"]
    assert faults(NIM, [DOBRO, DOZITO]) == []


def test_a_game_lacking_a_part_of_the_rules_is_refused_naming_each():
    class Half:
        name = "half"

    (fault,) = faults(Half())
    assert fault.startswith("it lacks labels, family, min_players, max_players")
    assert fault.endswith("simulate, examples of domain.game.Rules")
    assert " name," not in fault


@pytest.mark.parametrize(
    ("part", "value", "fault"),
    [
        ("name", "Nim Game", "its name 'Nim Game' is not lower-case words"),
        ("family", "../x", "its family '../x' is not lower-case words"),
        ("labels", {"en": "Nim"}, "its labels do not name it in each of en, fr"),
        ("min_players", 0, "its players (0 to 3) are not a range from 1 up"),
        ("options", dict, "its options are not a msgspec Struct"),
        ("moves", (), "its moves are not Structs tagged by `type`"),
        ("phases", {"pick": ("pick",)}, "its phases have no `finished`"),
        ("words", {"en": {}}, "its words are not worded in each of en, fr"),
        (
            "words",
            {"en": {"nim.count": "Take"}, "fr": {}},
            "its words do not word the same keys in every language",
        ),
        (
            "words",
            {"en": {"turn.other": "Wait."}, "fr": {"turn.other": "Attendez."}},
            "its words say otherwise what others word: turn.other",
        ),
        ("page", "page.js", "its page module is not a .js file of its package"),
        (
            "page",
            files("tablelog_toy") / "__init__.py",
            "its page module is not a .js file of its package",
        ),
    ],
)
def test_a_game_failing_a_basic_check_is_refused_saying_which(part, value, fault):
    broken = type("Broken", (Renamed,), {part: value})()
    found = faults(broken, BUILT_IN.values())
    assert any(said.startswith(fault) for said in found), found


def test_the_editions_of_a_family_share_its_page_module():
    class Edition(Renamed):
        name, family = "big-nim", "nim"

    class Other(Edition):
        page = files("domain.dobro") / "page.js"

    assert faults(Edition(), [NIM]) == []
    assert faults(Other(), [NIM]) == [
        f"its family 'nim' has another page module, {NIM.page}"
    ]


def test_a_game_whose_first_deal_fails_is_refused_with_its_error():
    def initial_state(setup):
        raise KeyError("matches")

    broken = type("Broken", (Renamed,), {"initial_state": staticmethod(initial_state)})
    assert faults(broken()) == ["its first deal fails: KeyError: 'matches'"]


def test_a_view_that_names_no_struct_is_refused():
    def view(state):  # unannotated: the OpenAPI document could not show it
        return NIM.view(state)

    broken = type("Broken", (Renamed,), {"view": staticmethod(view)})
    assert faults(broken()) == ["its view does not name the Struct it answers"]
