"""One sentence per stored Double Donkey move for a replay: what the table logged, with
the facts the rulings derive from it (K5's exception, the last die, K6; the flips and
values, K7, K8; who takes the Biggest Donkey and how, and the roll-offs, K9; the
refills and reshuffles, K10; the next dice holder, K11; the winners, K12).

Given a state, when a move is stored with the events the engine decides for it, then
its sentence."""

from __future__ import annotations

from msgspec.structs import replace

from domain.double_donkey import DOUBLE_DONKEY
from domain.double_donkey.components import COLORS
from domain.double_donkey.describe import describe as worded
from domain.double_donkey.moves import Choose, LastDie, Reveal, Roll, RollOff
from domain.double_donkey.state import DecidingLastDie
from domain.game import Setup
from domain.history import History
from tests.domain import sentences
from tests.domain.double_donkey.given import (
    EXAMPLE_HAY,
    after,
    angry,
    at_reveal,
    dd,
    new_game,
)

# With EXAMPLE_HAY, Jan's purple Angry Donkey turns the purple 1 into a 6.
MARGARET_HIGHEST = {
    "Olivia": (dd("orange", "dark_blue"), dd("green", "yellow")),  # 8, 4
    "Fran": (dd("light_blue", "yellow"),),  # 4
    "Jan": (angry("purple"),),  # 6
    "Margaret": (dd("purple", "orange"),),  # 6 + 5
}
MARGARET_HIGHEST_TOLD = (
    "Olivia reveals the orange/dark blue Double Donkey and the green/yellow Double "
    "Donkey; Fran reveals the light blue/yellow Double Donkey; Jan reveals the purple "
    "Angry Donkey; Margaret reveals the purple/orange Double Donkey: the purple die "
    "flips from 1 to 6; values: Olivia 8 and 4, Fran 4, Jan 6, Margaret 11; "
)
FOUR = dd("light_blue", "yellow")  # with EXAMPLE_HAY: 2 + 2
SEVEN = dd("orange", "green")  # 5 + 2
OLIVIA_AND_JAN_AT_SEVEN = {
    "Olivia": (SEVEN,),
    "Fran": (FOUR,),
    "Jan": (SEVEN,),
    "Margaret": (FOUR,),
}
OLIVIA_AND_JAN_AT_SEVEN_TOLD = (
    "Olivia reveals the orange/green Double Donkey; Fran reveals the light "
    "blue/yellow Double Donkey; Jan reveals the orange/green Double Donkey; Margaret "
    "reveals the light blue/yellow Double Donkey: values: Olivia 7, Fran 4, Jan 7, "
    "Margaret 4; "
)

describe = sentences.english(worded)


def said(state: object, move: object) -> str:
    return sentences.said(DOUBLE_DONKEY, state, move)


def told(state: object, *moves: object) -> list[str]:
    return sentences.told(DOUBLE_DONKEY, state, *moves)


def test_the_registry_describes_with_this_module() -> None:
    assert DOUBLE_DONKEY.describe is worded


def test_the_rulebooks_example_round_of_choosing_dice_K4_K5_K6() -> None:
    """ "1. Choosing dice", "Example round in a 4-player game": "Olivia [...] rolls and
    chooses the light blue 2. Fran rolls and chooses the orange 5 [...] Margaret rolls
    and may choose any die, because she only rolled numbers that are already on the
    Hay card. She chooses the green 2. Olivia rolls and must choose the dark blue 3.
    Fran chooses not to reroll the final die and places the yellow 2 on the Hay
    card." """
    assert told(
        new_game(),
        Roll("Olivia", {**dict.fromkeys(COLORS, 1), "light_blue": 2}),
        Choose("Olivia", "light_blue"),
        Roll(
            "Fran", {"orange": 5, "dark_blue": 4, "purple": 2, "yellow": 3, "green": 2}
        ),
        Choose("Fran", "orange"),
        Roll("Jan", {"dark_blue": 5, "purple": 1, "yellow": 4, "green": 6}),
        Choose("Jan", "purple"),
        Roll("Margaret", {"dark_blue": 2, "yellow": 1, "green": 2}),
        Choose("Margaret", "green"),
        Roll("Olivia", {"dark_blue": 3, "yellow": 2}),
        Choose("Olivia", "dark_blue"),
        LastDie("Fran", None),
    ) == [
        "Olivia rolls light blue 2, orange 1, dark blue 1, purple 1, yellow 1, green 1",
        "Olivia puts the light blue 2 on the Hay card",
        "Fran rolls orange 5, dark blue 4, purple 2, yellow 3, green 2",
        "Fran puts the orange 5 on the Hay card",
        "Jan rolls dark blue 5, purple 1, yellow 4, green 6",
        "Jan puts the purple 1 on the Hay card",
        "Margaret rolls dark blue 2, yellow 1, green 2",
        "Margaret puts the green 2 on the Hay card, as every die rolled shows a value "
        "already there",
        "Olivia rolls dark blue 3, yellow 2",
        "Olivia puts the dark blue 3 on the Hay card: the yellow 2 is left for Fran",
        "Fran keeps the last die, the yellow 2: the Hay card shows light blue 2, "
        "orange 5, purple 1, green 2, dark blue 3, yellow 2",
    ]


def test_a_rerolled_last_die_is_told_with_its_new_face_K6() -> None:
    five = tuple(zip(COLORS[:5], (1, 2, 3, 4, 5), strict=True))
    state = replace(new_game(), hay=five, phase=DecidingLastDie("Olivia", "green", 2))
    assert (
        said(state, LastDie("Olivia", 6))
        == "Olivia rerolls the last die: the green 6: the Hay card shows "
        "light blue 1, orange 2, dark blue 3, purple 4, yellow 5, green 6"
    )


def test_a_reveal_tells_the_flips_the_values_and_the_highest_card_K7_K8_K9() -> None:
    assert said(at_reveal(EXAMPLE_HAY), Reveal(MARGARET_HIGHEST)) == (
        "Olivia reveals the orange/dark blue Double Donkey and the green/yellow "
        "Double Donkey; Fran reveals the light blue/yellow Double Donkey; Jan reveals "
        "the purple Angry Donkey; Margaret reveals the purple/orange Double Donkey: "
        "the purple die flips from 1 to 6; values: Olivia 8 and 4, Fran 4, Jan 6, "
        "Margaret 11; Margaret takes the Biggest Donkey with the highest card (11); "
        "Margaret draws 1 card from the draw pile; Margaret starts round 2"
    )


def test_a_player_with_no_card_reveals_nothing_K7_K12() -> None:
    """Olivia, who found nothing to draw, reveals no card; Fran her last one."""
    state = at_reveal(EXAMPLE_HAY, hands=(0, 1, 3, 3), personal_piles=(7, 0, 7, 7))
    cards = {**MARGARET_HIGHEST, "Olivia": ()}
    assert said(state, Reveal(cards)) == (
        "Olivia reveals nothing; Fran reveals the light blue/yellow Double Donkey; "
        "Jan reveals the purple Angry Donkey; Margaret reveals the purple/orange "
        "Double Donkey: the purple die flips from 1 to 6; values: Fran 4, Jan 6, "
        "Margaret 11; the game ends: Fran has no card left and wins"
    )


def test_a_tie_goes_to_the_fewest_cards_in_a_personal_pile_K9() -> None:
    state = at_reveal(EXAMPLE_HAY, personal_piles=(7, 7, 5, 7))
    assert said(state, Reveal(OLIVIA_AND_JAN_AT_SEVEN)) == (
        f"{OLIVIA_AND_JAN_AT_SEVEN_TOLD}Olivia and Jan tie at 7, Jan takes the Biggest "
        "Donkey with the fewest cards in a personal pile (5); Jan draws 1 card from "
        "the draw pile; Jan starts round 2"
    )


def test_a_tie_on_the_personal_piles_too_calls_a_roll_off_K9() -> None:
    assert said(at_reveal(EXAMPLE_HAY), Reveal(OLIVIA_AND_JAN_AT_SEVEN)) == (
        f"{OLIVIA_AND_JAN_AT_SEVEN_TOLD}Olivia and Jan tie at 7 with 7 cards in their "
        "personal piles: they roll off for the Biggest Donkey"
    )


def test_only_the_tied_with_the_fewest_personal_pile_cards_roll_off_K9() -> None:
    state = at_reveal(EXAMPLE_HAY, personal_piles=(5, 7, 6, 5))
    cards = {**OLIVIA_AND_JAN_AT_SEVEN, "Margaret": (SEVEN,)}
    assert said(state, Reveal(cards)) == (
        "Olivia reveals the orange/green Double Donkey; Fran reveals the light "
        "blue/yellow Double Donkey; Jan reveals the orange/green Double Donkey; "
        "Margaret reveals the orange/green Double Donkey: values: Olivia 7, Fran 4, "
        "Jan 7, Margaret 7; Olivia, Jan and Margaret tie at 7, Olivia and Margaret "
        "have the fewest cards in a personal pile (5): they roll off for the Biggest "
        "Donkey"
    )


def test_a_roll_off_is_rolled_again_until_one_roll_is_highest_K9() -> None:
    state = after(at_reveal(EXAMPLE_HAY), Reveal(OLIVIA_AND_JAN_AT_SEVEN))
    assert told(
        state, RollOff({"Olivia": 4, "Jan": 4}), RollOff({"Jan": 6, "Olivia": 2})
    ) == [
        "Roll-off: Olivia 4, Jan 4: Olivia and Jan tie at 4 and roll again",
        "Roll-off: Olivia 2, Jan 6: Jan takes the Biggest Donkey with the highest "
        "roll (6); Jan draws 1 card from the draw pile; Jan starts round 2",
    ]


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_K10() -> None:
    state = at_reveal(EXAMPLE_HAY, draw_pile=1, discard_pile=10)
    cards = {**MARGARET_HIGHEST, "Margaret": (dd("purple", "orange"), FOUR)}
    assert said(state, Reveal(cards)) == (
        "Olivia reveals the orange/dark blue Double Donkey and the green/yellow "
        "Double Donkey; Fran reveals the light blue/yellow Double Donkey; Jan reveals "
        "the purple Angry Donkey; Margaret reveals the purple/orange Double Donkey "
        "and the light blue/yellow Double Donkey: the purple die flips from 1 to 6; "
        "values: Olivia 8 and 4, Fran 4, Jan 6, Margaret 11 and 4; Margaret takes "
        "the Biggest Donkey with the highest card (11); Margaret draws 1 card from "
        "the draw pile; the discard pile's 16 cards are shuffled into a new draw "
        "pile; Margaret draws 1 card from the draw pile; Margaret starts round 2"
    )


def test_a_refill_that_empties_a_personal_pile_is_told_K10() -> None:
    state = at_reveal(EXAMPLE_HAY, personal_piles=(1, 7, 7, 7))
    assert said(state, Reveal(MARGARET_HIGHEST)) == (
        f"{MARGARET_HIGHEST_TOLD}Margaret takes the Biggest Donkey with the highest "
        "card (11); Olivia's personal pile runs out; Margaret draws 1 card from the "
        "draw pile; Margaret starts round 2"
    )


def test_emptying_hand_and_personal_pile_wins_at_once_K12() -> None:
    state = at_reveal(EXAMPLE_HAY, hands=(3, 1, 3, 3), personal_piles=(7, 0, 7, 7))
    assert said(state, Reveal(MARGARET_HIGHEST)) == (
        f"{MARGARET_HIGHEST_TOLD}the game ends: Fran has no card left and wins"
    )


def test_players_emptying_everything_together_share_the_victory_K12() -> None:
    state = at_reveal(EXAMPLE_HAY, hands=(3, 1, 1, 3), personal_piles=(7, 0, 0, 7))
    assert said(state, Reveal(MARGARET_HIGHEST)) == (
        f"{MARGARET_HIGHEST_TOLD}the game ends: Fran and Jan have no card left and "
        "share the victory"
    )


def test_simulated_sentences_leave_no_clause_empty() -> None:
    """Seeded games: no clause is left empty ("Fran: " with no card after it), nothing
    is unknown, and a reveal names every player who revealed."""
    names = ("Olivia", "Fran", "Jan", "Margaret", "Karen")
    for seed in range(40):
        setup = Setup(players=names[: 2 + seed % 4], first_player="Olivia", seed=seed)
        history = History.start(DOUBLE_DONKEY, setup)
        for move in DOUBLE_DONKEY.simulate(setup):
            record, after = history.play(move)
            sentence = describe(history.state, record)
            assert not sentence.endswith((":", ": ")), sentence
            assert ": ;" not in sentence and ", ;" not in sentence, sentence
            assert "None" not in sentence and "?" not in sentence, sentence
            if isinstance(move, Reveal):
                for player in move.cards:
                    assert f"{player} reveals " in sentence, sentence
            history = after
