"""Dobro's own refusals and a replay's sentences (`said.*`), in English
and in French: one template per key, as `domain.wording` reads them.

The French words are those of the French guide to Dobro: « enchère » for a climb,
« valeur en jeu », « joker », « passe mon tour » and « changement de sens »,
« pioche », « manche ».
"""

from domain.wording import Template, Words

ENGLISH: dict[str, Template] = {
    # --- refusals and names -----------------------------------------------------------
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
    # --- a replay's sentences ---------------------------------------------------------
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
    # --- a replay step's picture ------------------------------------------------------
    "picture.dobro.pile": "Pile",
    "picture.dobro.value": "Value in play",
    "picture.dobro.forgetful": "Forgetful card",
    "picture.dobro.card.wild": "Wild",
    "picture.dobro.card.skip": "Skip",
    "picture.dobro.card.reverse": "Reverse",
}

FRENCH: dict[str, Template] = {
    # --- refusals and names -----------------------------------------------------------
    "dobro.card": "Un {value}",
    "dobro.card.wild": "Un joker",
    "dobro.card.skip": "Une carte passe mon tour",
    "dobro.card.reverse": "Une carte changement de sens",
    "dobro.cards": "cartes {value}",
    "dobro.cards.wild": "jokers",
    "dobro.cards.skip": "cartes passe mon tour",
    "dobro.cards.reverse": "cartes changement de sens",
    "dobro.play.wild_declared": "{value} + un joker annoncé à {value} ({total})",
    "dobro.play.wild_paired": "{value} + un joker valant {value} ({total})",
    "dobro.play.two_wilds": "Deux jokers annoncés à {value} ({total})",
    "dobro.play.wild": "Un joker annoncé à {value}",
    "dobro.announced": "{player} a annoncé {announced}, mais le coup fait {value}.",
    "dobro.specials_in_play": (
        "Les cartes passe mon tour et changement de sens se jouent seules, "
        "pas avec d'autres cartes."
    ),
    "dobro.hand": {
        "one": "{name} n'a que {count} carte en main, pas {wanted}.",
        "other": "{name} n'a que {count} cartes en main, pas {wanted}.",
    },
    "dobro.out_of_game": "À deux joueurs, les {cards} sont retirées du jeu.",
    "dobro.deck_lacks": "Le paquet {edition} n'a pas de {cards}.",
    "dobro.deck_spent": (
        "Le paquet contient {count} {cards} : aucune autre ne peut être jouée "
        "dans cette manche."
    ),
    "dobro.wild_as_without_wild": (
        "`wild_as` donne la valeur d'un joker, et ce coup n'en a pas."
    ),
    "dobro.pair": "Une paire, ce sont deux valeurs égales, pas {a} et {b}.",
    "dobro.wild_with_number": (
        "Un joker joué avec un {value} vaut {value}, pas {wild_as}."
    ),
    "dobro.wild_unsaid": "Dites quelle valeur prend le joker (de {low} à {high}).",
    "dobro.wild_range": "Un joker vaut de {low} à {high}, pas {wild_as}.",
    "dobro.wild_too_low": (
        "{play} ne peut pas suivre {current} : un coup doit faire {current} ou plus."
    ),
    "dobro.too_low": (
        "{player} ne peut pas jouer {played} : la valeur en jeu est {current}."
    ),
    "dobro.special_opens": (
        "{card} ne peut pas ouvrir une enchère tant que la pioche a des cartes."
    ),
    "dobro.nothing_to_take": "Il n'y a rien à ramasser : {player} ouvre l'enchère.",
    "dobro.deck_unnumbered": "Le paquet a besoin d'au moins une carte numérotée.",
    "dobro.deck_small": (
        "Le paquet a {size} cartes : {count} joueurs en demandent {needed} "
        "pour la distribution."
    ),
    "dobro.deck_specials": (
        "Le paquet a {specials} cartes passe mon tour et changement de sens : une main "
        "de {hand} cartes pourrait ne contenir qu'elles, et elles ne peuvent pas "
        "ouvrir une enchère. Un paquet maison doit en avoir moins de {hand}."
    ),
    # --- a replay's sentences ---------------------------------------------------------
    "said.dobro.plays": "{player} joue {cards} : {value}",
    "said.dobro.skip": "{player} joue une carte passe mon tour",
    "said.dobro.reverse": (
        "{player} joue une carte changement de sens : le jeu tourne dans le {direction}"
    ),
    "said.dobro.direction.clockwise": "sens horaire",
    "said.dobro.direction.counterclockwise": "sens antihoraire",
    "said.dobro.takes": {
        "one": "{player} ramasse {count} carte",
        "other": "{player} ramasse {count} cartes",
    },
    "said.dobro.a_wild": "un joker",
    "said.dobro.a_wild_as": "un joker valant {value}",
    "said.dobro.wild": "Joker",
    "said.dobro.wilds_as": "{cards} valant {value}",
    "said.dobro.cards": "{cards}",
    "said.dobro.doubles": "égal à la valeur en jeu, il la double à {value}",
    "said.dobro.value": "la valeur en jeu est {value}",
    "said.dobro.hand_empty": "{said} ; {player} n'a plus de cartes en main",
    "said.dobro.pile_empty": "{said} ; la pioche est vide",
    "said.dobro.forgot_again": (
        "{player} a encore oublié de repiocher et garde la carte oubli"
    ),
    "said.dobro.forgot": "{player} a oublié de repiocher et prend la carte oubli",
    "said.dobro.forgot_from": (
        "{player} a oublié de repiocher et prend la carte oubli à {holder}"
    ),
    "said.dobro.opens": "{starter} ouvre la manche {round}",
    "said.dobro.scores_forgetful": (
        "{name} marque {points} (carte oubli : {adjustment})"
    ),
    # --- a replay step's picture ------------------------------------------------------
    "picture.dobro.pile": "Tas",
    "picture.dobro.value": "Valeur en jeu",
    "picture.dobro.forgetful": "Carte oubli",
    "picture.dobro.card.wild": "Joker",
    "picture.dobro.card.skip": "Passe",
    "picture.dobro.card.reverse": "Sens",
}

WORDS: Words = {"en": ENGLISH, "fr": FRENCH}
