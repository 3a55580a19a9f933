"""Double Donkey's score sheet (K7-K12): the rulebook's example round played through
`History`, the Biggest Donkey taken each way K9 allows, and seeded simulated games
agreeing with the engine."""

from __future__ import annotations

import pytest
from msgspec import UNSET, to_builtins

from domain.double_donkey import DOUBLE_DONKEY
from domain.double_donkey.components import COLORS
from domain.double_donkey.moves import Choose, LastDie, Reveal, Roll, RollOff
from domain.double_donkey.sheet import POINTS_NOTE
from domain.history import History
from projections.scoresheet import score_sheet
from tests.domain.double_donkey.given import EXAMPLE_HAY, PLAYERS, angry, dd, setup
from tests.projections.simulated import histories


def logged(history: History, *moves: object) -> History:
    for move in moves:
        _, history = history.play(move)
    return history


def example_round() -> History:
    """Rulebook, "Example round in a 4-player game": Olivia chooses the light blue 2,
    Fran the orange 5, Jan the purple 1, Margaret (who only rolled values already on
    the Hay card) the green 2, Olivia must choose the dark blue 3, and Fran keeps the
    yellow 2 without rerolling."""
    return logged(
        History.start(DOUBLE_DONKEY, setup()),
        Roll("Olivia", {**dict.fromkeys(COLORS, 1), "light_blue": 2}),
        Choose("Olivia", "light_blue"),
        Roll(
            "Fran",
            {"orange": 5, "dark_blue": 4, "purple": 2, "yellow": 3, "green": 2},
        ),
        Choose("Fran", "orange"),
        Roll("Jan", {"dark_blue": 5, "purple": 1, "yellow": 4, "green": 6}),
        Choose("Jan", "purple"),
        Roll("Margaret", {"dark_blue": 2, "yellow": 1, "green": 2}),
        Choose("Margaret", "green"),
        Roll("Olivia", {"dark_blue": 3, "yellow": 2}),
        Choose("Olivia", "dark_blue"),
        LastDie("Fran", None),
    )


def dice_phase(history: History, hay: dict[str, int]) -> History:
    """Every die rolled shows the value of the one chosen, so K5 allows each choice."""
    for color in list(hay)[:5]:
        player = DOUBLE_DONKEY.view(history.state).next_player
        owed = [c for c in COLORS if c not in dict(history.state.hay)]
        history = logged(
            history,
            Roll(player, dict.fromkeys(owed, hay[color])),
            Choose(player, color),
        )
    last = history.state.phase
    reroll = None if last.pips == hay[last.color] else hay[last.color]
    return logged(history, LastDie(last.player, reroll))


# With the example's Hay card, Jan's purple Angry Donkey turns the purple 1 into a 6.
MARGARET_HIGHEST = {
    "Olivia": (dd("orange", "dark_blue"), dd("green", "yellow")),  # 8, 4
    "Fran": (dd("light_blue", "yellow"),),  # 4
    "Jan": (angry("purple"),),  # 6
    "Margaret": (dd("purple", "orange"),),  # 6 + 5
}


def test_a_rounds_values_after_the_flip_and_the_biggest_donkey_K7_K8_K9() -> None:
    sheet = score_sheet(logged(example_round(), Reveal(MARGARET_HIGHEST)))
    [line] = sheet.rounds
    assert line.round == 1
    assert line.points == {"Olivia": 8, "Fran": 4, "Jan": 6, "Margaret": 11}
    detail = line.detail
    assert detail.note == POINTS_NOTE
    assert detail.hay == EXAMPLE_HAY
    assert detail.flipped == ["purple"]
    assert detail.hay_after_flips == {**EXAMPLE_HAY, "purple": 6}
    assert detail.cards == {p: list(c) for p, c in MARGARET_HIGHEST.items()}
    assert detail.values == {
        "Olivia": [8, 4],
        "Fran": [4],
        "Jan": [6],
        "Margaret": [11],
    }
    assert (detail.biggest_donkey, detail.biggest_donkey_by) == (
        "Margaret",
        "highest_card",
    )
    # Margaret drew from the central pile (K10); the others from their own.
    assert sheet.totals == {"Olivia": 8, "Fran": 9, "Jan": 9, "Margaret": 10}
    assert sheet.winners == [] and not sheet.finished


def test_a_tie_goes_to_the_fewest_personal_pile_cards_K9() -> None:
    history = logged(example_round(), Reveal(MARGARET_HIGHEST))
    history = dice_phase(history, EXAMPLE_HAY)  # Margaret starts round 2 (K11)
    tie = {**dict.fromkeys(PLAYERS, (dd("light_blue", "green"),))}  # 4 each
    tie["Olivia"] = tie["Margaret"] = (dd("orange", "dark_blue"),)  # 8 each
    line = score_sheet(logged(history, Reveal(tie))).rounds[-1]
    assert line.round == 2
    assert line.points == {"Olivia": 8, "Fran": 4, "Jan": 4, "Margaret": 8}
    assert line.detail.personal_piles["Olivia"] == 5
    assert line.detail.personal_piles["Margaret"] == 7
    assert line.detail.tied == ["Olivia", "Margaret"]
    assert (line.detail.biggest_donkey, line.detail.biggest_donkey_by) == (
        "Olivia",
        "fewest_personal_pile_cards",
    )


def test_a_tie_left_by_the_personal_piles_goes_to_a_roll_off_K9() -> None:
    tie = {**MARGARET_HIGHEST, "Fran": (dd("purple", "orange"),)}  # 11 and 11
    history = logged(example_round(), Reveal(tie))
    line = score_sheet(history).rounds[0]
    assert line.detail.tied == ["Fran", "Margaret"]
    assert line.detail.biggest_donkey is None  # the roll-off is pending
    history = logged(
        history,
        RollOff({"Fran": 4, "Margaret": 4}),
        RollOff({"Fran": 2, "Margaret": 5}),
    )
    line = score_sheet(history).rounds[0]
    assert line.detail.roll_offs == [
        {"Fran": 4, "Margaret": 4},
        {"Fran": 2, "Margaret": 5},
    ]
    assert (line.detail.biggest_donkey, line.detail.biggest_donkey_by) == (
        "Margaret",
        "roll_off",
    )


EIGHT = dd("orange", "dark_blue")  # 5 + 3 with the example's Hay card


def round_two_tied(**revealed: tuple) -> History:
    """The example round, then round 2's dice as in round 1: Olivia has 5 cards left
    in her personal pile, Fran and Jan 6, Margaret 7; the players named reveal an
    8, the others a 4."""
    history = logged(example_round(), Reveal(MARGARET_HIGHEST))
    history = dice_phase(history, EXAMPLE_HAY)
    cards = {
        player: revealed.get(player, (dd("light_blue", "green"),)) for player in PLAYERS
    }
    return logged(history, Reveal(cards))


def test_the_tie_note_keeps_everyone_tied_through_the_roll_offs_K9() -> None:
    """Fran, Jan and Margaret share the highest card; the personal piles keep Fran
    and Jan, who roll off twice."""
    history = round_two_tied(Fran=(EIGHT,), Jan=(EIGHT,), Margaret=(EIGHT,))
    history = logged(
        history, RollOff({"Fran": 3, "Jan": 3}), RollOff({"Fran": 2, "Jan": 5})
    )
    detail = score_sheet(history).rounds[-1].detail
    assert detail.tied == ["Fran", "Jan", "Margaret"]
    assert to_builtins(detail.fewest_personal_pile) == {
        "rule": "K9",
        "cards": 6,
        "players": ["Fran", "Jan"],
    }
    assert detail.roll_offs == [{"Fran": 3, "Jan": 3}, {"Fran": 2, "Jan": 5}]
    assert (detail.biggest_donkey, detail.biggest_donkey_by) == (
        "Jan",
        "roll_off",
    )


def test_the_tie_note_names_the_personal_pile_step_that_settled_it_K9() -> None:
    history = round_two_tied(Olivia=(EIGHT,), Fran=(EIGHT,), Jan=(EIGHT,))
    detail = score_sheet(history).rounds[-1].detail
    assert detail.tied == ["Olivia", "Fran", "Jan"]
    assert to_builtins(detail.fewest_personal_pile) == {
        "rule": "K9",
        "cards": 5,
        "players": ["Olivia"],
    }
    assert detail.roll_offs == []
    assert (detail.biggest_donkey, detail.biggest_donkey_by) == (
        "Olivia",
        "fewest_personal_pile_cards",
    )


def test_no_personal_pile_step_when_the_piles_keep_all_the_tied_K9() -> None:
    tie = {**MARGARET_HIGHEST, "Fran": (dd("purple", "orange"),)}  # 11 and 11
    detail = score_sheet(logged(example_round(), Reveal(tie))).rounds[0].detail
    assert detail.tied == ["Fran", "Margaret"]
    assert detail.fewest_personal_pile is UNSET


@pytest.mark.parametrize("players", range(2, 6))
def test_simulated_sheets_agree_with_the_engine(players: int) -> None:
    """Seeded games: totals are the cards still held, the winners the engine's; a
    line's points are its highest values; its Biggest Donkey starts the next round."""
    for seed in range(20):
        for history in histories(DOUBLE_DONKEY, players, seed):
            sheet = score_sheet(history)
            view = DOUBLE_DONKEY.view(history.state)
            assert sheet.totals == {
                p: view.hand_sizes[p] + view.personal_piles[p] for p in sheet.players
            }
            for line, after in zip(sheet.rounds, sheet.rounds[1:], strict=False):
                values = line.detail.values
                assert line.points == {p: max(v) for p, v in values.items() if v}
                assert line.detail.biggest_donkey is not None
                assert (line.detail.biggest_donkey_by == "roll_off") == bool(
                    line.detail.roll_offs
                )
                assert after.round == line.round + 1
            if sheet.rounds and view.round == sheet.rounds[-1].round + 1:
                assert view.dice_holder == sheet.rounds[-1].detail.biggest_donkey
            assert sheet.finished == history.finished
            assert sheet.winners == list(history.winners or ())
            if history.finished:
                assert sheet.rounds[-1].detail.game_won_by == sheet.winners
