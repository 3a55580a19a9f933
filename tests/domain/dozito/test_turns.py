"""Z4-Z10: a turn (draw, place or discard), STOP and Replay cards, reshuffles."""

from msgspec.structs import replace

from domain.dozito.events import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    DeckReshuffled,
    TurnBegan,
)
from domain.dozito.view import view
from tests.domain.dozito.given import (
    ARTHUR,
    MAELLE,
    NOE,
    Discard,
    Draw,
    Place,
    after,
    card,
    draws,
    joker,
    plain,
    refused,
    started,
    when,
    with_grid,
)


def test_drawing_from_the_deck_states_the_card_and_holds_it_Z4():
    state = started()
    [drawn] = when(state, draws(ARTHUR, card("red", 3)))
    assert drawn == CardDrawn(ARTHUR, "deck", plain("red", 3), "place_or_discard", 48)
    shown = view(after(state, draws(ARTHUR, card("red", 3))))
    assert shown.held == plain("red", 3) and shown.draw_pile_size == 48


def test_a_draw_from_the_deck_must_state_the_card_Z2_Z4():
    refused(started(), Draw(ARTHUR, "deck"), "Z2")


def test_a_discard_pile_top_is_not_stated_again_Z4():
    refused(started(), Draw(ARTHUR, "discard_left", plain("yellow", 9)), "Z4")


def test_a_move_by_someone_whose_turn_it_is_not_is_refused_Z4():
    state = started()
    refused(state, draws(MAELLE, card("red", 3)), "Z4")
    state = after(state, draws(ARTHUR, card("red", 3)))
    refused(state, Discard(MAELLE, "left"), "Z4")
    refused(state, Place(MAELLE, revealed=card("red", 4)), "Z4")


def test_one_draw_per_turn_Z4():
    state = after(started(), draws(ARTHUR, card("red", 3)))
    refused(state, draws(ARTHUR, card("red", 4)), "Z4")


def test_place_or_discard_needs_a_held_card_Z4():
    refused(started(), Discard(ARTHUR, "left"), "Z4")


def test_a_numbered_card_goes_on_the_spot_of_its_number_Z4():
    state = after(started(), draws(ARTHUR, card("red", 3)))
    refused(state, Place(ARTHUR, 4, card("blue", 1)), "Z4")


def test_placing_on_a_face_down_card_reveals_it_into_the_hand_Z4():
    """Z4: given Arthur holds the red 3, when he places it on face-down spot 3
    revealing the green 11, then the green 11 is held and may be placed or discarded."""
    state = after(started(), draws(ARTHUR, card("red", 3)))
    [placed] = when(state, Place(ARTHUR, revealed=card("green", 11)))
    assert placed == CardPlaced(
        ARTHUR, 3, plain("red", 3), plain("green", 11), True, "place_or_discard"
    )
    public = view(after(state, Place(ARTHUR, revealed=card("green", 11))))
    assert public.grids[ARTHUR][2] == plain("red", 3)
    assert public.held == plain("green", 11) and public.next_player == ARTHUR


def test_a_face_down_spot_needs_the_revealed_card_Z4():
    state = after(started(), draws(ARTHUR, card("red", 3)))
    refused(state, Place(ARTHUR), "Z4")


def test_a_face_up_spot_reveals_nothing_and_its_card_must_be_discarded_Z4():
    state = with_grid(started(), ARTHUR, {3: plain("blue", 3)})
    state = after(state, draws(ARTHUR, card("red", 3)))
    refused(state, Place(ARTHUR, revealed=card("green", 11)), "Z4")
    state = after(state, Place(ARTHUR))
    assert view(state).held == plain("blue", 3) and view(state).phase == "discard"
    refused(state, Place(ARTHUR), "Z4")
    state = after(state, Discard(ARTHUR, "right"))
    assert view(state).discard_tops.right == plain("blue", 3)
    assert view(state).next_player == MAELLE


def test_discarding_ends_the_turn_and_the_left_neighbour_plays_Z4():
    state = started((ARTHUR, MAELLE, NOE))
    state = after(state, draws(ARTHUR, card("red", 3)))
    assert when(state, Discard(ARTHUR, "left")) == [
        CardDiscarded(ARTHUR, "left", plain("red", 3)),
        TurnBegan(MAELLE, None),
    ]


def test_a_card_taken_from_a_discard_pile_cannot_be_discarded_Z5():
    state = after(started(), Draw(ARTHUR, "discard_left"))
    assert view(state).held == plain("yellow", 9) and view(state).phase == "place"
    refused(state, Discard(ARTHUR, "right"), "Z5")
    state = after(state, Place(ARTHUR, revealed=card("red", 1)))
    assert view(state).grids[ARTHUR][8] == plain("yellow", 9)


def test_a_discard_goes_onto_the_empty_pile_Z6():
    state = after(started(), Draw(ARTHUR, "discard_left"))
    state = after(state, Place(ARTHUR, revealed=card("red", 1)))
    assert view(state).choices["discard"] == {"player": [ARTHUR], "pile": ["left"]}
    refused(state, Discard(ARTHUR, "right"), "Z6")
    state = after(state, Discard(ARTHUR, "left"))
    assert view(state).discard_tops.left == plain("red", 1)


def test_a_discard_is_offered_on_either_pile_while_both_hold_cards_Z6():
    state = after(started(), draws(ARTHUR, card("red", 2)))
    assert view(state).choices["discard"]["pile"] == ["left", "right"]


def test_an_empty_pile_cannot_be_drawn_from_Z4_Z6():
    state = started()
    assert view(state).choices["draw"] == {
        "player": [ARTHUR],
        "source": ["deck", "discard_left", "discard_right"],
    }
    state = replace(state, piles=((), state.piles[1]))
    assert view(state).choices["draw"]["source"] == ["deck", "discard_right"]
    refused(state, Draw(ARTHUR, "discard_left"), "Z4")


def test_a_held_card_is_offered_the_spot_of_its_number_a_joker_any_Z4():
    state = after(started(), draws(ARTHUR, card("red", 2)))
    assert view(state).choices["place"] == {"player": [ARTHUR], "spot": [2]}
    state = after(started(), draws(ARTHUR, joker("red")))
    assert view(state).choices["place"]["spot"] == list(range(1, 13))


def test_a_displaced_face_up_joker_is_discarded_not_moved_Z7():
    state = with_grid(started(), ARTHUR, {3: joker("purple")})
    state = after(state, draws(ARTHUR, card("blue", 3)), Place(ARTHUR))
    refused(state, Place(ARTHUR, 5, card("red", 5)), "Z7")
    after(state, Discard(ARTHUR, "left"))


def test_a_joker_goes_on_any_spot_named_Z4_Z7():
    state = after(started(), draws(ARTHUR, joker("green")))
    refused(state, Place(ARTHUR, revealed=card("red", 1)), "Z4")
    state = after(state, Place(ARTHUR, 7, card("red", 1)))
    assert view(state).grids[ARTHUR][6] == joker("green")


def test_a_stop_card_placed_on_a_face_down_card_ends_the_turn_Z8():
    """Z8: the card a STOP displaces is revealed and must be discarded, no chaining."""
    state = after(started(), draws(ARTHUR, card("red", 4, stop=True)))
    state = after(state, Place(ARTHUR, revealed=card("blue", 9)))
    assert view(state).held == plain("blue", 9) and view(state).phase == "discard"
    refused(state, Place(ARTHUR), "Z8")
    state = after(state, Discard(ARTHUR, "left"))
    assert view(state).next_player == MAELLE


def test_a_stop_card_discarded_ends_the_turn_Z8():
    state = after(started(), draws(ARTHUR, card("red", 4, stop=True)))
    assert when(state, Discard(ARTHUR, "right"))[-1] == TurnBegan(MAELLE, None)


def test_a_revealed_stop_card_placed_ends_the_turn_Z8():
    state = after(
        started(),
        draws(ARTHUR, card("red", 1)),
        Place(ARTHUR, revealed=card("green", 6, stop=True)),
        Place(ARTHUR, revealed=card("blue", 2)),
    )
    assert view(state).phase == "discard"
    refused(state, Place(ARTHUR), "Z8")


def test_a_stop_card_taken_from_a_discard_pile_must_still_be_placed_Z5_Z8():
    stop = card("red", 4, stop=True, suns=3)
    state = started(discards=(stop, plain("red", 5)))
    state = after(state, Draw(ARTHUR, "discard_left"))
    refused(state, Discard(ARTHUR, "left"), "Z5")
    state = after(state, Place(ARTHUR, revealed=card("blue", 9)))
    refused(state, Place(ARTHUR), "Z8")


def test_discarding_a_replay_card_gives_another_turn_Z9():
    state = after(started(), draws(ARTHUR, card("red", 4, replay=True)))
    assert when(state, Discard(ARTHUR, "left"))[-1] == TurnBegan(
        ARTHUR, None, replay=True
    )


def test_a_replay_card_displaced_by_a_stop_card_gives_another_turn_Z9():
    state = with_grid(started(), ARTHUR, {4: plain("blue", 4, suns=0)})
    state = after(
        state,
        draws(ARTHUR, card("red", 1)),
        Place(ARTHUR, revealed=card("red", 4, stop=True)),
        Place(ARTHUR),
    )
    assert view(state).held == plain("blue", 4)
    state = after(started(), draws(ARTHUR, card("red", 4, stop=True)))
    state = after(state, Place(ARTHUR, revealed=card("green", 2, replay=True)))
    assert when(state, Discard(ARTHUR, "left"))[-1].replay


def test_a_replay_card_placed_gives_nothing_Z9():
    state = after(started(), draws(ARTHUR, card("red", 4, replay=True)))
    state = after(state, Place(ARTHUR, revealed=card("blue", 8)))
    assert when(state, Discard(ARTHUR, "left"))[-1] == TurnBegan(MAELLE, None)


def test_an_empty_draw_pile_is_refilled_from_the_discards_but_their_tops_Z2_Z10():
    """Z10: given the last deck card is drawn and discarded, the next turn starts with
    every discard but the two tops back in the draw pile, and those cards drawable."""
    state = started(discards=(plain("red", 1), plain("red", 2)))
    state = after(state, draws(ARTHUR, card("blue", 1)), Discard(ARTHUR, "left"))
    state = after(state, draws(MAELLE, card("blue", 2)), Discard(MAELLE, "right"))
    state = replace(state, draw_pile_size=1)
    state = after(state, draws(ARTHUR, card("blue", 3)))
    refused(state, Place(ARTHUR, revealed=card("red", 1)), "Z2")
    assert when(state, Discard(ARTHUR, "left"))[1:] == [
        TurnBegan(MAELLE, None),
        DeckReshuffled(3),
    ]
    state = after(state, Discard(ARTHUR, "left"))
    assert view(state).draw_pile_size == 3
    assert view(state).discard_tops.left == plain("blue", 3)
    assert view(state).discard_tops.right == plain("blue", 2)
    after(state, draws(MAELLE, card("red", 1)))
    refused(state, draws(MAELLE, card("blue", 2)), "Z2")
