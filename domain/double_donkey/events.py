"""The facts `decide` derives from the moves; `evolve` folds them without any rule."""

from __future__ import annotations

import msgspec

from domain.double_donkey.components import Card, Color
from domain.maps import in_key_order


# gc=False on what a stored row holds: see domain.history.Codec.
class _Event(msgspec.Struct, frozen=True, gc=False):
    pass


class DiceRolled(_Event, frozen=True, tag="dice_rolled"):
    """K4: `player` rolled these dice and must now choose one."""

    player: str
    dice: dict[Color, int]

    def __post_init__(self) -> None:
        in_key_order(self, "dice")


class DieChosen(_Event, frozen=True, tag="die_chosen"):
    """K4, K5: the die went onto the Hay card showing `pips`."""

    player: str
    color: Color
    pips: int


class RollPassed(_Event, frozen=True, tag="roll_passed"):
    """K4: `player`, next clockwise, rolls the dice not yet on the Hay card."""

    player: str


class LastDieOffered(_Event, frozen=True, tag="last_die_offered"):
    """K6: one die is left, showing `pips`; `player` keeps or rerolls it."""

    player: str
    color: Color
    pips: int


class LastDiePlaced(_Event, frozen=True, tag="last_die_placed"):
    """K6: the sixth die is on the Hay card; the cards are played next (K7)."""

    player: str
    color: Color
    pips: int
    rerolled: bool


class CardsRevealed(_Event, frozen=True, tag="cards_revealed"):
    """K7: every player's revealed cards, now in play."""

    cards: dict[str, tuple[Card, ...]]

    def __post_init__(self) -> None:
        in_key_order(self, "cards")


class DiceFlipped(_Event, frozen=True, tag="dice_flipped"):
    """K7: the Angry Donkeys turned these dice over; `hay` is the Hay card after it."""

    colors: tuple[Color, ...]
    hay: dict[Color, int]

    def __post_init__(self) -> None:
        in_key_order(self, "hay")


class CardsValued(_Event, frozen=True, tag="cards_valued"):
    """K8: each revealed card's value, in the order revealed."""

    values: dict[str, tuple[int, ...]]

    def __post_init__(self) -> None:
        in_key_order(self, "values")


class GameWon(_Event, frozen=True, tag="game_won"):
    """K12: these players emptied hand and personal pile; the game is over."""

    winners: tuple[str, ...]


class RollOffCalled(_Event, frozen=True, tag="roll_off_called"):
    """K9: these players are tied for the Biggest Donkey and roll a die each."""

    among: tuple[str, ...]


class RollOffRolled(_Event, frozen=True, tag="roll_off_rolled"):
    """K9: the results of one roll-off."""

    rolls: dict[str, int]

    def __post_init__(self) -> None:
        in_key_order(self, "rolls")


class BiggestDonkeyTaken(_Event, frozen=True, tag="biggest_donkey_taken"):
    """K9: `player` played the single highest card and takes the Biggest Donkey."""

    player: str


class CardsDiscarded(_Event, frozen=True, tag="cards_discarded"):
    """K10: the cards played this round went onto the discard pile."""

    count: int


class HandsRefilled(_Event, frozen=True, tag="hands_refilled"):
    """K10: cards each player drew from their own personal pile."""

    cards: dict[str, int]

    def __post_init__(self) -> None:
        in_key_order(self, "cards")


class DiscardReshuffled(_Event, frozen=True, tag="discard_reshuffled"):
    """K10: the central pile was empty when a card had to be drawn: the discard pile
    (`count` cards) was shuffled into a new one."""

    count: int


class CardsDrawn(_Event, frozen=True, tag="cards_drawn"):
    """K10: the Biggest Donkey's holder drew `count` cards from the central pile."""

    player: str
    count: int


class RoundStarted(_Event, frozen=True, tag="round_started"):
    """K11: the Biggest Donkey's holder has the six dice and starts `round`."""

    round: int
    dice_holder: str


Event = (
    DiceRolled
    | DieChosen
    | RollPassed
    | LastDieOffered
    | LastDiePlaced
    | CardsRevealed
    | DiceFlipped
    | CardsValued
    | GameWon
    | RollOffCalled
    | RollOffRolled
    | BiggestDonkeyTaken
    | CardsDiscarded
    | HandsRefilled
    | DiscardReshuffled
    | CardsDrawn
    | RoundStarted
)
EVENTS: tuple[type[Event], ...] = (
    DiceRolled,
    DieChosen,
    RollPassed,
    LastDieOffered,
    LastDiePlaced,
    CardsRevealed,
    DiceFlipped,
    CardsValued,
    GameWon,
    RollOffCalled,
    RollOffRolled,
    BiggestDonkeyTaken,
    CardsDiscarded,
    HandsRefilled,
    DiscardReshuffled,
    CardsDrawn,
    RoundStarted,
)
