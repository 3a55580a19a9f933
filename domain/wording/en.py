"""The engines' refusals and a replay's sentences (`said.*`) in English: one
template per key (`domain.wording`).

A template names its values in braces; one keyed by "one" and "other" is chosen by
the plural of its `count`.
"""

TEMPLATES: dict[str, str | dict[str, str]] = {
    # --- every game ---------------------------------------------------------------
    "game.over": "The game is over: only an undo can reopen it.",
    "game.abandoned": "The game was abandoned: only an undo can reopen it.",
    "game.ended": "The game is over.",
    "undo.nothing": "There is no move left to undo.",
    "turn.other": "It is {expected}'s turn, not {name}'s.",
    "player.absent": "{name} is not playing in this game.",
    "name.missing": "Every player needs a name.",
    "name.control": "A player's name cannot hold control characters: {name}.",
    "setup.players": "{game} is for {fewest} to {most} players, not {count}.",
    "setup.name_twice": "Every player needs a different name: {name} is given twice.",
    "setup.name_same": (
        "Every player needs a different name: {name} is the same name as {first}."
    ),
    "setup.first_player": "{name} is not one of the players.",
    "setup.no_option": "{game} has no option `{name}`.",
    "setup.option": "The option `{name}` is not valid: {error}.",
    "setup.options": "The options are not valid: {error}.",
    # --- Dobro and Dobro Pixar --------------------------------------------------------
    "dobro.card": "A {value}",
    "dobro.card.wild": "A wild",
    "dobro.card.skip": "A Skip",
    "dobro.card.reverse": "A Reverse",
    "dobro.cards": "{value}s",
    "dobro.cards.wild": "wilds",
    "dobro.cards.skip": "Skip cards",
    "dobro.cards.reverse": "Reverse cards",
    "dobro.play.wild_declared": "{value} + a wild declared as {value} ({total})",
    "dobro.play.wild_paired": "{value} + a wild as {value} ({total})",
    "dobro.play.two_wilds": "Two wilds declared as {value} ({total})",
    "dobro.play.wild": "A wild declared as {value}",
    "dobro.announced": "{player} announced {announced}, but the play makes {value}.",
    "dobro.specials_in_play": (
        "Skip and Reverse are played on their own, not in a play."
    ),
    "dobro.hand": {
        "one": "{name} holds only {count} card, not {wanted}.",
        "other": "{name} holds only {count} cards, not {wanted}.",
    },
    "dobro.out_of_game": "With two players the {cards} are out of the game.",
    "dobro.deck_lacks": "The {edition} deck has no {cards}.",
    "dobro.deck_spent": (
        "The deck holds {count} {cards}: no more can be played this round."
    ),
    "dobro.wild_as_without_wild": "`wild_as` is for a wild, and this play has none.",
    "dobro.pair": "A pair is two equal values, not {a} and {b}.",
    "dobro.wild_with_number": (
        "A wild played with a {value} is a {value}, not {wild_as}."
    ),
    "dobro.wild_unsaid": "Say which value the wild takes ({low} to {high}).",
    "dobro.wild_range": "A wild takes a value from {low} to {high}, not {wild_as}.",
    "dobro.wild_too_low": (
        "{play} cannot follow {current}: a play must make {current} or more."
    ),
    "dobro.too_low": "{player} cannot play {played}: the value in play is {current}.",
    "dobro.special_opens": "{card} cannot open a climb while the draw pile has cards.",
    "dobro.nothing_to_take": "There is nothing to take: {player} opens the climb.",
    "dobro.deck_unnumbered": "The deck needs at least one numbered card.",
    "dobro.deck_small": (
        "The deck has {size} cards: {count} players need {needed} to deal."
    ),
    "dobro.deck_specials": (
        "The deck has {specials} Skip and Reverse cards: a hand of {hand} could hold "
        "nothing else, and they cannot open a climb. A house deck needs fewer than "
        "{hand} of them."
    ),
    # --- Dozito -----------------------------------------------------------------------
    "dozito.card.numbered": "{color} {number}",
    "dozito.card.joker": "{color} joker",
    "dozito.side.left": "left",
    "dozito.side.right": "right",
    "dozito.look.plain": {"one": "{count} sun", "other": "{count} suns"},
    "dozito.look.stop": {"one": "{count} sun, STOP", "other": "{count} suns, STOP"},
    "dozito.look.replay": {
        "one": "{count} sun, Replay",
        "other": "{count} suns, Replay",
    },
    "dozito.color": "There is no {color} card: colours are {colors}.",
    "dozito.joker_or_number": "A card is either a joker or has a number from 1 to 12.",
    "dozito.joker_special": "The {card} cannot be a STOP or Replay card.",
    "dozito.stop_and_replay": "The {card} cannot be both a STOP and a Replay card.",
    "dozito.stop_suns": "The STOP card {card} shows 3 suns, not {suns}.",
    "dozito.seen": "The {card} was seen with {before}, not {now}.",
    "dozito.in_grid": "The {card} is face up in {player}'s grid.",
    "dozito.in_hand": "The {card} is in {player}'s hand.",
    "dozito.in_pile": "The {card} is in a discard pile.",
    "dozito.jokers_seen": "All {count} {color} jokers are already in view.",
    "dozito.round_on": "Round {round} is still being played.",
    "dozito.one_card_two_piles": "There is only one {card}: it cannot open both piles.",
    "dozito.starter_first": (
        "Round {round} starts with {starter} (the first player), not {named}."
    ),
    "dozito.starter_fewest": (
        "Round {round} starts with {starter} (the fewest points), not {named}."
    ),
    "dozito.tie_unsettled": "{tied} share the fewest points: say which of them starts.",
    "dozito.tie_outsider": "{named} cannot start: {tied} share the fewest points.",
    "dozito.round_not_started": "Round {round} has not started yet.",
    "dozito.holding": "{player} holds the {card}: place it or discard it.",
    "dozito.drawn_unsaid": "Say which card {player} drew from the deck.",
    "dozito.deck_empty": "The draw pile is empty: take a discard pile's top.",
    "dozito.top_known": "A discard pile's top card is already known: leave `card` out.",
    "dozito.pile_empty": "The {side} discard pile is empty.",
    "dozito.draw_first": "{player} must draw a card first.",
    "dozito.spot_unsaid": "Say on which spot the {card} goes.",
    "dozito.spot": "The {card} goes on spot {number}, not {spot}.",
    "dozito.displaced_face_up": (
        "The {card} was displaced face up: it must be discarded."
    ),
    "dozito.displaced_by_stop": (
        "The {card} was displaced by a STOP card: it is discarded."
    ),
    "dozito.nothing_to_reveal": (
        "Spot {spot} already shows the {card}: there is nothing to reveal."
    ),
    "dozito.reveal_unsaid": (
        "The spot holds a face-down card: say which card it reveals."
    ),
    "dozito.must_place": "The {card} came from a discard pile: it must be placed.",
    "dozito.discard_there": "The {side} discard pile is empty: discard onto it.",
    "dozito.colors": "A Dozito deck has five different colour names.",
    # --- Double Donkey ----------------------------------------------------------------
    "donkey.color.light_blue": "light blue",
    "donkey.color.orange": "orange",
    "donkey.color.dark_blue": "dark blue",
    "donkey.color.purple": "purple",
    "donkey.color.yellow": "yellow",
    "donkey.color.green": "green",
    "donkey.angry": "the {color} Angry Donkey",
    "donkey.double": "the {first}/{second} Double Donkey",
    "donkey.next.roll": "{player} must roll the dice",
    "donkey.next.choose": "{player} must choose a die",
    "donkey.next.last_die": "{player} must keep or reroll the last die",
    "donkey.next.reveal": "all players must reveal their cards",
    "donkey.next.roll_off": "{players} must roll off for the Biggest Donkey",
    "donkey.next.over": "the game is over",
    "donkey.cannot.act": "{player} cannot do that",
    "donkey.cannot.reveal": "Cards cannot be revealed",
    "donkey.cannot.roll_off": "There is no roll-off",
    "donkey.not_now": "{what} now: {expected}.",
    "donkey.turn": "It is not {player}'s turn: {expected}.",
    "donkey.dice_owed": "{player} must roll exactly these dice: {dice}.",
    "donkey.pips": "The {color} die cannot show {pips}.",
    "donkey.not_rolled": "{player} did not roll the {color} die.",
    "donkey.hay_repeat": (
        "{player} cannot choose the {color} {pips}: a {pips} is already on the Hay "
        "card and another rolled die shows a new value."
    ),
    "donkey.reveal_count": "{player} must reveal 1 to {most} cards, not {count}.",
    "donkey.empty_hand": "{player} has no cards in hand to reveal.",
    "donkey.no_such_card": "There is no such card as {card}: its colours must differ.",
    "donkey.one_angry": "There is only one {color} Angry Donkey, not {count}.",
    "donkey.roll_off_among": "The roll-off is for exactly {players}.",
    "donkey.roll_off_pips": "{player}'s die cannot show {pips}.",
    # --- the sentences of a replay: every game ---------------------------------------
    "said.clauses": "{said}: {clauses}",
    "said.event": "{name}",
    "said.round_ends": "round {round} ends",
    "said.starts": "{starter} starts round {round}",
    "said.scores": "{name} scores {points}",
    "said.game_ends": {
        "one": "the game ends: {winners} wins",
        "other": "the game ends: {winners} share the victory",
    },
    "said.undo": "Undo: “{move}” is taken back",
    "said.abandoned": "The game is abandoned: it ends here, and nobody wins",
    # --- the sentences of a replay: Dobro -------------------------------------------
    "said.dobro.plays": "{player} plays {cards}: {value}",
    "said.dobro.skip": "{player} plays a Skip",
    "said.dobro.reverse": "{player} plays a Reverse: play goes {direction}",
    "said.dobro.direction.clockwise": "clockwise",
    "said.dobro.direction.counterclockwise": "counterclockwise",
    "said.dobro.takes": {
        "one": "{player} takes {count} card",
        "other": "{player} takes {count} cards",
    },
    "said.dobro.a_wild": "a Wild",
    "said.dobro.a_wild_as": "a Wild as {value}",
    "said.dobro.wild": "Wild",
    "said.dobro.wilds_as": "{cards} as {value}",
    "said.dobro.cards": "{cards}",
    "said.dobro.doubles": "equal to the value, it doubles to {value}",
    "said.dobro.value": "the value is {value}",
    "said.dobro.hand_empty": "{said}; {player}'s hand is empty",
    "said.dobro.pile_empty": "{said}; the draw pile is empty",
    "said.dobro.forgot_again": (
        "{player} forgot to refill again and keeps the Forgetful card"
    ),
    "said.dobro.forgot": "{player} forgot to refill and takes the Forgetful card",
    "said.dobro.forgot_from": (
        "{player} forgot to refill and takes the Forgetful card from {holder}"
    ),
    "said.dobro.opens": "{starter} opens round {round}",
    "said.dobro.scores_forgetful": (
        "{name} scores {points} (Forgetful card: {adjustment})"
    ),
    # --- the sentences of a replay: Dozito ------------------------------------------
    "said.dozito.card.plain": "the {card}",
    "said.dozito.card.stop": "the {card} (STOP)",
    "said.dozito.card.replay": "the {card} (Replay)",
    "said.dozito.round_starts": (
        "Round {round} starts with {starter}; the discard piles show {left} and {right}"
    ),
    "said.dozito.draws": "{player} draws {card} from the deck",
    "said.dozito.takes": "{player} takes {card} from the {side} discard pile",
    "said.dozito.discards": "{player} discards {card} on the {side} pile",
    "said.dozito.places": "{player} places {card} on spot {spot}",
    "said.dozito.places_revealing": (
        "{player} places {card} on spot {spot}, revealing {held}"
    ),
    "said.dozito.places_revealing_discarded": (
        "{player} places {card} on spot {spot}, revealing {held}, which must be "
        "discarded"
    ),
    "said.dozito.stop_placed": "the turn ends once it is placed",
    "said.dozito.stop_placed_or_discarded": (
        "the turn ends once it is placed or discarded"
    ),
    "said.dozito.plays_again": "{player} plays again",
    "said.dozito.reshuffled": (
        "the draw pile is empty, so the discard piles but their top cards are shuffled "
        "into a new draw pile of {count} cards"
    ),
    "said.dozito.final_turns": {
        "one": "{player}'s grid is all face up, {final} plays a final turn",
        "other": "{player}'s grid is all face up, {final} play a final turn",
    },
    "said.dozito.instant_win": (
        "{winner}'s twelve cards are all {color}, {winner} wins at once"
    ),
    "said.dozito.tied": (
        "{tied} share the fewest points: the table names which of them starts round "
        "{round}"
    ),
    "said.dozito.tie_best_round": (
        "the game ends: {tied} tie on {most} points, {winner} wins with the best "
        "single "
        "round ({best})"
    ),
    "said.dozito.tie_shared": (
        "the game ends: {tied} tie on {most} points and on their best round ({best}): "
        "they share the victory"
    ),
    "said.dozito.tie_some_share": (
        "the game ends: {tied} tie on {most} points, {winners} share the victory with "
        "the best round ({best})"
    ),
    # --- the sentences of a replay: Double Donkey -----------------------------------
    "said.donkey.face": "the {color} {pips}",
    "said.donkey.die": "{color} {pips}",
    "said.donkey.rolls": "{player} rolls {dice}",
    "said.donkey.chooses": "{player} puts {face} on the Hay card",
    "said.donkey.chooses_again": (
        "{player} puts {face} on the Hay card, as every die rolled shows a value "
        "already there"
    ),
    "said.donkey.keeps": "{player} keeps the last die, {face}",
    "said.donkey.rerolls": "{player} rerolls the last die: {face}",
    "said.donkey.roll": "{player} {pips}",
    "said.donkey.roll_off": "Roll-off: {rolls}",
    "said.donkey.reveals_nothing": "{player} reveals nothing",
    "said.donkey.reveals": "{player} reveals {cards}",
    "said.donkey.left_for": "{face} is left for {player}",
    "said.donkey.reshuffled": (
        "the discard pile's {count} cards are shuffled into a new draw pile"
    ),
    "said.donkey.draws": {
        "one": "{player} draws {count} card from the draw pile",
        "other": "{player} draws {count} cards from the draw pile",
    },
    "said.donkey.hay": "the Hay card shows {hay}",
    "said.donkey.pile_out": "{player}'s personal pile runs out",
    "said.donkey.flips": "the {color} die flips from {was} to {now}",
    "said.donkey.values": "values: {values}",
    "said.donkey.values_of": "{player} {values}",
    "said.donkey.won": {
        "one": "the game ends: {winners} has no card left and wins",
        "other": "the game ends: {winners} have no card left and share the victory",
    },
    "said.donkey.taken_by_roll": (
        "{player} takes the Biggest Donkey with the highest roll ({roll})"
    ),
    "said.donkey.taken_by_card": (
        "{player} takes the Biggest Donkey with the highest card ({top})"
    ),
    "said.donkey.taken_by_pile": (
        "{tied} tie at {top}, {player} takes the Biggest Donkey with the fewest cards "
        "in a personal pile ({fewest})"
    ),
    "said.donkey.roll_again": "{among} tie at {pips} and roll again",
    "said.donkey.roll_off_all": (
        "{tied} tie at {top} with {fewest} cards in their personal piles: they roll "
        "off for the Biggest Donkey"
    ),
    "said.donkey.roll_off_some": (
        "{tied} tie at {top}, {among} have the fewest cards in a personal pile "
        "({fewest}): they roll off for the Biggest Donkey"
    ),
}
