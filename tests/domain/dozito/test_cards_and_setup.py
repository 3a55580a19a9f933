"""Z1-Z3: the cards the table states, the set-up, and the start of each round."""

import msgspec
import pytest

from domain.dozito import DOZITO
from domain.dozito.events import RoundStarted
from domain.errors import RuleError
from domain.game import Setup, StoredSetup
from domain.registry import BUILT_IN
from tests.domain.dozito.given import (
    ARTHUR,
    MAELLE,
    NOE,
    Discard,
    Place,
    StartRound,
    after,
    card,
    draws,
    game,
    joker,
    plain,
    refused,
    started,
    when,
    with_grid,
)
from tests.domain.specification import english


def test_a_colour_outside_the_five_is_refused_Z1():
    """Z1: given the default colours, when a pink card is drawn, then it is refused."""
    refused(started(), draws(ARTHUR, card("pink", 3)), "Z1")


def test_a_joker_has_no_number_and_a_numbered_card_needs_one_Z1():
    state = started()
    with_number = msgspec.structs.replace(joker("red"), number=4)
    refused(state, draws(ARTHUR, with_number), "Z1")
    refused(
        state,
        draws(ARTHUR, msgspec.convert({"color": "red"}, type(joker("red")))),
        "Z1",
    )


def test_a_number_outside_1_to_12_is_malformed_Z1():
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(
            {
                "type": "draw",
                "player": ARTHUR,
                "source": "deck",
                "card": {"color": "red", "number": 13},
            },
            DOZITO.moves[1],
        )


def test_a_stop_card_has_three_suns_when_they_are_left_out_Z2():
    state = started()
    [drawn] = when(state, draws(ARTHUR, card("red", 7, stop=True)))
    assert drawn.card.suns == 3


def test_a_stop_card_with_other_than_three_suns_is_refused_Z2():
    refused(started(), draws(ARTHUR, card("red", 7, stop=True, suns=2)), "Z2")


def test_suns_default_to_zero_Z2():
    [drawn] = when(started(), draws(ARTHUR, card("red", 7)))
    assert drawn.card.suns == 0


def test_a_joker_is_neither_stop_nor_replay_Z2():
    stop_joker = msgspec.structs.replace(joker("red"), stop=True)
    replay_joker = msgspec.structs.replace(joker("red"), replay=True)
    refused(started(), draws(ARTHUR, stop_joker), "Z2")
    refused(started(), draws(ARTHUR, replay_joker), "Z2")


def test_a_card_seen_again_must_show_the_same_suns_stop_and_replay_Z2():
    """Z2: the red 7 was drawn with 2 suns; later seen with 1 sun, it is refused."""
    state = after(
        started(), draws(ARTHUR, card("red", 7, suns=2)), Discard(ARTHUR, "left")
    )
    error = refused(state, draws(MAELLE, card("red", 7, suns=2, replay=True)), "Z2")
    assert "red 7" in english(error)


def test_sightings_last_the_whole_game_Z2():
    """Z2: a card seen in round 1 must agree when it opens a pile in round 2."""
    state = started(discards=(plain("red", 7, suns=2), plain("red", 8)))
    state = with_grid(state, ARTHUR, {n: plain("blue", n) for n in range(1, 12)})
    state = after(
        state,
        draws(ARTHUR, card("green", 12)),
        Place(ARTHUR, revealed=card("yellow", 12)),
        Discard(ARTHUR, "left"),
        draws(MAELLE, card("green", 1)),
        Discard(MAELLE, "left"),
    )
    assert type(state.phase).__name__ == "BetweenRounds"
    refused(state, StartRound((plain("red", 7), plain("blue", 1))), "Z2")
    after(state, StartRound((plain("red", 7, suns=2), plain("blue", 1))))


def test_a_card_in_a_grid_cannot_be_drawn_from_the_deck_Z2():
    state = with_grid(started(), MAELLE, {3: plain("red", 3)})
    error = refused(state, draws(ARTHUR, card("red", 3)), "Z2")
    assert MAELLE in english(error)


def test_a_card_in_a_discard_pile_cannot_be_drawn_or_revealed_Z2():
    state = started(discards=(plain("red", 3), plain("red", 4)))
    refused(state, draws(ARTHUR, card("red", 3)), "Z2")
    state = after(state, draws(ARTHUR, card("blue", 5)))
    refused(state, Place(ARTHUR, revealed=card("red", 4)), "Z2")


def test_the_held_card_cannot_be_revealed_Z2():
    state = after(started(), draws(ARTHUR, card("blue", 5)))
    refused(state, Place(ARTHUR, revealed=card("blue", 5)), "Z2")


def test_at_most_three_jokers_of_a_colour_are_in_view_Z2():
    state = started(discards=(joker("red"), joker("red")))
    state = with_grid(state, MAELLE, {1: joker("red")})
    refused(state, draws(ARTHUR, joker("red")), "Z2")
    after(state, draws(ARTHUR, joker("blue")))


def test_the_game_may_name_its_own_colours_Z1_Z2():
    state = started(
        discards=(plain("rouge", 1), plain("bleu", 1)),
        colors=["rouge", "bleu", "vert", "violet", "jaune"],
    )
    after(state, draws(ARTHUR, card("vert", 4)))
    refused(state, draws(ARTHUR, card("red", 4)), "Z1")


def test_colours_must_be_five_different_names_Z2():
    with pytest.raises(RuleError) as caught:
        game(colors=["red", "red", "green", "purple", "yellow"])
    assert caught.value.rule == "Z2"


def test_a_colour_name_is_at_most_forty_characters_Z2():
    long = "x" * 41
    with pytest.raises(RuleError) as caught:
        game(colors=["red", "blue", "green", "purple", long])
    assert caught.value.rule == "Z2"
    assert caught.value.said.params == {"most": 40}
    game(colors=["red", "blue", "green", "purple", "x" * 40])


def test_a_game_stored_with_a_longer_colour_name_stays_readable_Z2():
    colors = ["red", "blue", "green", "purple", "x" * 41]
    stored = StoredSetup(
        players=(ARTHUR, MAELLE),
        first_player=ARTHUR,
        seed=1,
        options={"colors": colors},
    )
    assert DOZITO.initial_state(stored).colors == tuple(colors)


def test_two_to_five_players_Z3():
    for players in (("Solo",), ("A", "B", "C", "D", "E", "F")):
        with pytest.raises(RuleError) as caught:
            DOZITO.initial_state(Setup(players=players, first_player="A", seed=1))
        assert caught.value.rule == "Z3"
    assert DOZITO.min_players == 2 and DOZITO.max_players == 5


def test_start_round_deals_and_opens_both_piles_Z3():
    """Z3: with 3 players the draw pile holds 75 - 36 - 2 = 37 cards."""
    state = game((ARTHUR, MAELLE, NOE))
    [started_event] = when(state, StartRound((plain("red", 1), plain("red", 2))))
    assert started_event == RoundStarted(
        1, ARTHUR, (plain("red", 1), plain("red", 2)), 37
    )
    view = DOZITO.view(after(state, StartRound((plain("red", 1), plain("red", 2)))))
    assert view.grids[NOE] == (None,) * 12
    assert view.discard_tops.left == plain("red", 1)
    assert view.next_player == ARTHUR and view.phase == "draw"


def test_no_move_before_the_round_starts_Z3():
    refused(game(), draws(ARTHUR, card("red", 1)), "Z3")


def test_the_first_round_starter_is_the_first_player_Z3():
    state = game()
    refused(state, StartRound((plain("red", 1), plain("red", 2)), MAELLE), "Z3")
    state = after(state, StartRound((plain("red", 1), plain("red", 2)), ARTHUR))
    assert state.phase.player == ARTHUR


def test_the_same_card_cannot_open_both_piles_Z2_Z3():
    refused(game(), StartRound((plain("red", 1), plain("red", 1))), "Z2")
    after(game(), StartRound((joker("red"), joker("red"))))


def test_a_round_cannot_start_twice_Z11():
    refused(started(), StartRound((plain("red", 1), plain("red", 2))), "Z11")


def test_the_api_examples_decode_as_moves():
    """The API's Dozito moves: the wire shapes decode into the engine's moves."""
    from domain.history import Codec

    codec = Codec(DOZITO)
    red = {"color": "red", "number": 3, "suns": 1, "stop": False, "replay": False}
    purple = {"color": "purple", "joker": True, "suns": 0}
    moves = [
        {"type": "start_round", "discards": [red, purple], "starter": "Arthur"},
        {"type": "draw", "player": "Arthur", "source": "deck", "card": red},
        {"type": "place", "player": "Arthur", "spot": 3, "revealed": purple},
        {"type": "discard", "player": "Arthur", "pile": "left"},
    ]
    decoded = [codec.move_from_builtins(move) for move in moves]
    assert [type(move).__name__ for move in decoded] == [
        "StartRound",
        "Draw",
        "Place",
        "Discard",
    ]
    with pytest.raises(msgspec.ValidationError):
        codec.move_from_builtins({**moves[3], "pile": "middle"})


def test_a_refusal_names_the_boxs_colours_in_french_Z1_Z2():
    colour = refused(started(), draws(ARTHUR, card("pink", 3)), "Z1")
    assert BUILT_IN.languages["fr"].render(colour.said) == (
        "Il n'y a pas de carte pink : les couleurs sont rouge, bleu, vert, violet "
        "et jaune."
    )
    state = started(discards=(joker("red"), joker("red")))
    state = with_grid(state, MAELLE, {1: joker("red")})
    jokers = refused(state, draws(ARTHUR, joker("red")), "Z2")
    assert BUILT_IN.languages["fr"].render(jokers.said) == (
        "Les 3 jokers de cette couleur (rouge) sont déjà tous visibles."
    )
