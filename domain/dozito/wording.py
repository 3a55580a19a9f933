"""Dozito's own refusals and a replay's sentences (`said.*`), in English
and in French: one template per key, as `domain.wording` reads them.
"""

from domain.wording import Template, Words

ENGLISH: dict[str, Template] = {
    # --- refusals and names -----------------------------------------------------------
    "dozito.card.numbered": "{color} {number}",
    "dozito.color.red": "red",
    "dozito.color.blue": "blue",
    "dozito.color.green": "green",
    "dozito.color.purple": "purple",
    "dozito.color.yellow": "yellow",
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
    "dozito.colors": (
        "A Dozito deck has five different colour names, of 1 to {most} characters."
    ),
    # --- a replay's sentences ---------------------------------------------------------
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
    # --- a replay step's picture ------------------------------------------------------
    "picture.dozito.points": {"one": "{count} pt", "other": "{count} pts"},
    "picture.dozito.discard": {"one": "{count} card", "other": "{count} cards"},
    "picture.dozito.held": "Held by {name}",
}

FRENCH: dict[str, Template] = {
    # --- refusals and names -----------------------------------------------------------
    "dozito.card.numbered": "{number} {color}",
    # The box's colours with a card's number or a joker: "le 5 rouge", "le joker bleu".
    "dozito.color.red": "rouge",
    "dozito.color.blue": "bleu",
    "dozito.color.green": "vert",
    "dozito.color.purple": "violet",
    "dozito.color.yellow": "jaune",
    "dozito.card.joker": "joker {color}",
    "dozito.side.left": "gauche",
    "dozito.side.right": "droite",
    "dozito.look.plain": {"one": "{count} soleil", "other": "{count} soleils"},
    "dozito.look.stop": {
        "one": "{count} soleil, STOP",
        "other": "{count} soleils, STOP",
    },
    "dozito.look.replay": {
        "one": "{count} soleil, Replay",
        "other": "{count} soleils, Replay",
    },
    "dozito.color": "Il n'y a pas de carte {color} : les couleurs sont {colors}.",
    "dozito.joker_or_number": (
        "Une carte est soit un joker, soit une carte numérotée de 1 à 12."
    ),
    "dozito.joker_special": (
        "La carte {card} ne peut pas être une carte STOP ou Replay."
    ),
    "dozito.stop_and_replay": (
        "La carte {card} ne peut pas être à la fois une carte STOP et une carte Replay."
    ),
    "dozito.stop_suns": "La carte STOP {card} montre 3 soleils, pas {suns}.",
    "dozito.seen": "La carte {card} a été vue avec {before}, pas {now}.",
    "dozito.in_grid": "{player} a la carte {card} face visible dans sa grille.",
    "dozito.in_hand": "{player} a la carte {card} en main.",
    "dozito.in_pile": "La carte {card} est dans une défausse.",
    "dozito.jokers_seen": (
        "Les {count} jokers de cette couleur ({color}) sont déjà tous visibles."
    ),
    "dozito.round_on": "La manche {round} est encore en cours.",
    "dozito.one_card_two_piles": (
        "Il n'y a qu'une carte {card} : elle ne peut pas ouvrir les deux défausses."
    ),
    "dozito.starter_first": (
        "La manche {round} commence avec {starter} (le premier joueur), pas avec "
        "{named}."
    ),
    "dozito.starter_fewest": (
        "La manche {round} commence avec {starter} (le moins de points), "
        "pas avec {named}."
    ),
    "dozito.tie_unsettled": (
        "{tied} sont à égalité avec le moins de points : dites qui commence."
    ),
    "dozito.tie_outsider": (
        "{named} ne peut pas commencer : {tied} sont à égalité avec le moins de points."
    ),
    "dozito.round_not_started": "La manche {round} n'a pas encore commencé.",
    "dozito.holding": (
        "{player} tient la carte {card} : il faut la placer ou la défausser."
    ),
    "dozito.drawn_unsaid": "Dites quelle carte {player} a piochée.",
    "dozito.deck_empty": "La pioche est vide : prenez le dessus d'une défausse.",
    "dozito.top_known": (
        "La carte du dessus d'une défausse est déjà connue : ne donnez pas `card`."
    ),
    "dozito.pile_empty": "La défausse de {side} est vide.",
    "dozito.draw_first": "{player} doit d'abord piocher une carte.",
    "dozito.spot_unsaid": "Dites sur quelle case va la carte {card}.",
    "dozito.spot": "La carte {card} va sur la case {number}, pas sur la case {spot}.",
    "dozito.displaced_face_up": (
        "La carte {card} a été déplacée face visible : elle doit être défaussée."
    ),
    "dozito.displaced_by_stop": (
        "La carte {card} a été déplacée par une carte STOP : elle est défaussée."
    ),
    "dozito.nothing_to_reveal": (
        "La case {spot} montre déjà la carte {card} : il n'y a rien à révéler."
    ),
    "dozito.reveal_unsaid": (
        "La case porte une carte face cachée : dites quelle carte elle révèle."
    ),
    "dozito.must_place": (
        "La carte {card} vient d'une défausse : elle doit être placée."
    ),
    "dozito.discard_there": "La défausse de {side} est vide : défaussez dessus.",
    "dozito.colors": (
        "Un paquet de Dozito a cinq noms de couleur différents, de 1 à {most} "
        "caractères."
    ),
    # --- a replay's sentences ---------------------------------------------------------
    "said.dozito.card.plain": "le {card}",
    "said.dozito.card.stop": "le {card} (STOP)",
    "said.dozito.card.replay": "le {card} (Replay)",
    "said.dozito.round_starts": (
        "La manche {round} commence avec {starter} ; les défausses montrent {left} et "
        "{right}"
    ),
    "said.dozito.draws": "{player} pioche {card}",
    "said.dozito.takes": "{player} prend {card} sur la défausse de {side}",
    "said.dozito.discards": "{player} défausse {card} sur la défausse de {side}",
    "said.dozito.places": "{player} place {card} sur la case {spot}",
    "said.dozito.places_revealing": (
        "{player} place {card} sur la case {spot} et révèle {held}"
    ),
    "said.dozito.places_revealing_discarded": (
        "{player} place {card} sur la case {spot} et révèle {held}, qui doit être "
        "défaussé"
    ),
    "said.dozito.stop_placed": "le tour s'arrête une fois la carte placée",
    "said.dozito.stop_placed_or_discarded": (
        "le tour s'arrête une fois la carte placée ou défaussée"
    ),
    "said.dozito.plays_again": "{player} rejoue",
    "said.dozito.reshuffled": (
        "la pioche est vide : les défausses, sauf leur carte du dessus, sont mélangées "
        "en une nouvelle pioche de {count} cartes"
    ),
    "said.dozito.final_turns": {
        "one": "{player} a toute sa grille face visible, {final} joue un dernier tour",
        "other": (
            "{player} a toute sa grille face visible, {final} jouent un dernier tour"
        ),
    },
    "said.dozito.instant_win": (
        "{winner} a ses douze cartes face visible, toutes de la même couleur "
        "({color}) : {winner} gagne aussitôt"
    ),
    "said.dozito.tied": (
        "{tied} sont à égalité avec le moins de points : la table désigne qui commence "
        "la manche {round}"
    ),
    "said.dozito.tie_best_round": (
        "fin de la partie : {tied} sont à égalité à {most} points, {winner} gagne avec "
        "la meilleure manche ({best})"
    ),
    "said.dozito.tie_shared": (
        "fin de la partie : {tied} sont à égalité à {most} points et sur leur "
        "meilleure "
        "manche ({best}) : ils se partagent la victoire"
    ),
    "said.dozito.tie_some_share": (
        "fin de la partie : {tied} sont à égalité à {most} points, {winners} se "
        "partagent la victoire avec la meilleure manche ({best})"
    ),
    # --- a replay step's picture ------------------------------------------------------
    "picture.dozito.points": {"one": "{count} pt", "other": "{count} pts"},
    "picture.dozito.discard": {"one": "{count} carte", "other": "{count} cartes"},
    "picture.dozito.held": "Tenue par {name}",
}

WORDS: Words = {"en": ENGLISH, "fr": FRENCH}
# The game's name as players read it, by language.
LABELS = {"en": "Dozito", "fr": "Dozito"}
