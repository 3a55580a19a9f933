"""Every game's set-up is checked once, when the game is created, and a set-up the
rules refuse is a RuleError citing the game's ruling: the players and their names (D3,
Z3, K3), the first player (D4, Z3, K3), each option (its own ruling; A1 for an option
the game does not have)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from domain.dobro import setup as dobro_setup
from domain.dobro.components import Options as DobroOptions
from domain.double_donkey import setup as double_donkey_setup
from domain.double_donkey.state import Options as DoubleDonkeyOptions
from domain.dozito import setup as dozito_setup
from domain.dozito.state import Options as DozitoOptions
from domain.errors import RuleError
from domain.game import Rules, Setup, StoredSetup
from domain.history import History
from domain.registry import BUILT_IN
from tests.domain.specification import english

NAMES = ("Ana", "Bia", "Caio", "Davi", "Eva", "Fábio", "Gil")

# The ruling that seats the players and the one that names the first player.
SEATING = {
    "dobro": ("D3", "D4"),
    "dobro-pixar": ("D3", "D4"),
    "dozito": ("Z3", "Z3"),
    "double-donkey": ("K3", "K3"),
}

every_game = pytest.mark.parametrize(
    "rules", list(BUILT_IN.values()), ids=list(BUILT_IN)
)


def created(
    rules: Rules,
    players: tuple[str, ...] = NAMES[:3],
    first: str | None = None,
    **options: Any,
) -> object:
    """When the game is created as the service creates it."""
    setup = Setup(
        players=players, first_player=first or players[0], seed=1, options=options
    )
    return History.start(rules, setup).state


def refused(rules: Rules, rule: str, *args: Any, **kwargs: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        created(rules, *args, **kwargs)
    assert caught.value.rule == rule, str(caught.value)
    return caught.value


def test_the_seating_rulings_cover_every_game() -> None:
    assert set(SEATING) == set(BUILT_IN)


@every_game
def test_too_few_or_too_many_players_are_refused_D3_Z3_K3(rules: Rules) -> None:
    seating, _ = SEATING[rules.name]
    fewest, most = rules.min_players, rules.max_players
    for count in (fewest - 1, most + 1):
        error = refused(rules, seating, NAMES[:count])
        assert f"{fewest} to {most} players, not {count}." in english(error)
    for count in (fewest, most):
        assert created(rules, NAMES[:count]) is not None


@every_game
def test_two_players_of_one_name_are_refused_D3_Z3_K3(rules: Rules) -> None:
    seating, _ = SEATING[rules.name]
    error = refused(rules, seating, ("Ana", "Bia", "Ana"))
    assert english(error) == "Every player needs a different name: Ana is given twice."


@every_game
@pytest.mark.parametrize("blank", ["", "  "])
def test_a_player_without_a_name_is_refused_D3_Z3_K3(rules: Rules, blank: str) -> None:
    seating, _ = SEATING[rules.name]
    error = refused(rules, seating, ("Ana", blank), first="Ana")
    assert english(error) == "Every player needs a name."


@every_game
@pytest.mark.parametrize(
    "invisible",
    ["\u200b", "\u200b\u200d\ufeff", "\u00a0\u2003", "\u3164", "\u0301"],
    ids=["zero-width space", "zero-width run", "wide spaces", "filler", "lone mark"],
)
def test_a_name_that_shows_nothing_is_refused_D3_Z3_K3(
    rules: Rules, invisible: str
) -> None:
    seating, _ = SEATING[rules.name]
    error = refused(rules, seating, ("Ana", invisible), first="Ana")
    assert english(error) == "Every player needs a name."


@every_game
@pytest.mark.parametrize("name", ["Ana\tBia", "Ana\nBia", "Ana\x00", "Ana\u2028"])
def test_a_name_with_a_control_character_is_refused_D3_Z3_K3(
    rules: Rules, name: str
) -> None:
    seating, _ = SEATING[rules.name]
    error = refused(rules, seating, ("Bia", name), first="Bia")
    assert "cannot hold control characters" in english(error)


@every_game
@pytest.mark.parametrize(
    "again",
    ["Ana\u0301", "Ana\u200b\u0301", "ANÁ", "\uff21n\u00e1"],
    ids=["decomposed", "with a zero-width space", "in capitals", "full-width"],
)
def test_two_spellings_of_one_name_are_refused_D3_Z3_K3(
    rules: Rules, again: str
) -> None:
    seating, _ = SEATING[rules.name]
    error = refused(rules, seating, ("An\u00e1", "Bia", again), first="Bia")
    assert english(error) == (
        f"Every player needs a different name: {again} is the same name as An\u00e1."
    )


@every_game
@pytest.mark.parametrize(
    "again", ["Karen\ufe0f", "Kar\u034fen"], ids=["variation selector", "joiner"]
)
def test_a_stored_game_is_folded_though_its_names_are_now_one_players_D3_Z3_K3(
    rules: Rules, again: str
) -> None:
    """A game stored when these names were two players' (their key kept the
    variation selector and the grapheme joiner) stays readable: its set-up is not
    judged again, and its moves go on. A new game with them is refused."""
    seating, _ = SEATING[rules.name]
    players = ("Karen", "Bia", again)
    refused(rules, seating, players, first="Bia")
    stored = StoredSetup(players=players, first_player="Bia", seed=1)
    history = History.start(rules, stored)
    for move in itertools.islice(rules.simulate(stored), 30):
        _, history = history.play(move)
    assert history.version == 31


@every_game
def test_names_with_accents_case_spaces_and_emoji_are_seated_D3_Z3_K3(
    rules: Rules,
) -> None:
    assert created(rules, ("Ana Lú", "bia", "👩\u200d💻"), first="bia") is not None


@every_game
def test_a_first_player_who_is_not_seated_is_refused_D4_Z3_K3(rules: Rules) -> None:
    _, first = SEATING[rules.name]
    error = refused(rules, first, ("Ana", "Bia"), first="Zé")
    assert english(error) == "Zé is not one of the players."


@every_game
def test_an_option_the_game_does_not_have_is_refused_A1(rules: Rules) -> None:
    error = refused(rules, "A1", colour="red")
    assert english(error).endswith("has no option `colour`.")


def test_double_donkey_has_no_rounds_option_A1() -> None:
    error = refused(BUILT_IN["double-donkey"], "A1", rounds=3)
    assert english(error) == "Double Donkey has no option `rounds`."


@pytest.mark.parametrize(
    ("game", "options", "rule"),
    [
        *(
            (game, options, rule)
            for game in ("dobro", "dobro-pixar")
            for options, rule in [
                ({"rounds": 0}, "D6"),
                ({"rounds": "three"}, "D6"),
                ({"scoring": "most-last"}, "D14"),
                ({"two_player_remove_skips": "yes"}, "D5"),
                ({"deck": {"numbered": {"13": 4}}}, "D1"),
                ({"deck": {"numbered": {"5": 40}, "jokers": 2}}, "D1"),
            ]
        ),
        ("dozito", {"rounds": 0}, "Z15"),
        ("dozito", {"rounds": 21}, "Z15"),
        ("dozito", {"rounds": "three"}, "Z15"),
        ("dozito", {"colors": "red"}, "Z2"),
        ("dozito", {"colors": [1, 2, 3, 4, 5]}, "Z2"),
        ("dozito", {"colors": ["red", "blue", "green", "purple"]}, "Z2"),
        ("dozito", {"colors": ["red", "red", "green", "purple", "yellow"]}, "Z2"),
    ],
)
def test_a_malformed_option_is_refused_with_its_ruling_D1_D5_D6_D14_Z2_Z15(
    game: str, options: dict[str, Any], rule: str
) -> None:
    """The error names the option, and the ruling that governs it."""
    error = refused(BUILT_IN[game], rule, **options)
    (name,) = options
    assert f"`{name}`" in english(error) or "colour names" in english(error)


@pytest.mark.parametrize(
    ("module", "options"),
    [
        (dobro_setup, DobroOptions),
        (dozito_setup, DozitoOptions),
        (double_donkey_setup, DoubleDonkeyOptions),
    ],
    ids=["dobro", "dozito", "double-donkey"],
)
def test_every_option_of_every_game_names_the_ruling_that_governs_it(
    module: Any, options: type
) -> None:
    assert set(module.OPTION_RULINGS) == set(options.__struct_encode_fields__)


def test_dobro_seats_2_to_6_dozito_and_double_donkey_2_to_5_D3_Z3_K3() -> None:
    limits = {name: (r.min_players, r.max_players) for name, r in BUILT_IN.items()}
    assert limits == {
        "dobro": (2, 6),
        "dobro-pixar": (2, 6),
        "dozito": (2, 5),
        "double-donkey": (2, 5),
    }
