"""Double Donkey's own refusals and a replay's sentences (`said.*`), in English
and in French: one template per key, as `domain.wording` reads them.
"""

from domain.wording import Template, Words

ENGLISH: dict[str, Template] = {
    # --- refusals and names -----------------------------------------------------------
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
    # --- a replay's sentences ---------------------------------------------------------
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
    # --- a replay step's picture ------------------------------------------------------
    "picture.donkey.round": "Round {round}",
    "picture.donkey.reveal": "Everyone reveals",
    "picture.donkey.roll_off": "Roll-off: {players}",
    "picture.donkey.pile": "Pile",
    "picture.donkey.hay": "Hay card",
    "picture.donkey.rolled": "Rolled",
    "picture.donkey.discard": "Discard pile",
    "picture.donkey.biggest": "Biggest Donkey",
    "picture.donkey.revealed": "Revealed",
}

FRENCH: dict[str, Template] = {
    # --- refusals and names -----------------------------------------------------------
    "donkey.color.light_blue": "bleu clair",
    "donkey.color.orange": "orange",
    "donkey.color.dark_blue": "bleu foncé",
    "donkey.color.purple": "violet",
    "donkey.color.yellow": "jaune",
    "donkey.color.green": "vert",
    "donkey.angry": "l'Angry Donkey {color}",
    "donkey.double": "le Double Donkey {first}/{second}",
    "donkey.next.roll": "{player} doit lancer les dés",
    "donkey.next.choose": "{player} doit choisir un dé",
    "donkey.next.last_die": "{player} doit garder ou relancer le dernier dé",
    "donkey.next.reveal": "tous les joueurs doivent révéler leurs cartes",
    "donkey.next.roll_off": (
        "{players} doivent se départager aux dés pour le Biggest Donkey"
    ),
    "donkey.next.over": "la partie est terminée",
    "donkey.cannot.act": "{player} ne peut pas faire cela",
    "donkey.cannot.reveal": "Les cartes ne peuvent pas être révélées",
    "donkey.cannot.roll_off": "Il n'y a pas de départage",
    "donkey.not_now": "{what} maintenant : {expected}.",
    "donkey.turn": "Ce n'est pas à {player} de jouer : {expected}.",
    "donkey.dice_owed": "{player} doit lancer exactement ces dés : {dice}.",
    "donkey.pips": "Le dé {color} ne peut pas montrer {pips}.",
    "donkey.not_rolled": "{player} n'a pas lancé le dé {color}.",
    "donkey.hay_repeat": (
        "{player} ne peut pas choisir le {pips} {color} : un {pips} est déjà sur la "
        "carte Hay et un autre dé lancé montre une nouvelle valeur."
    ),
    "donkey.reveal_count": "{player} doit révéler de 1 à {most} cartes, pas {count}.",
    "donkey.empty_hand": "{player} n'a aucune carte en main à révéler.",
    "donkey.no_such_card": (
        "La carte {card} n'existe pas : ses deux couleurs doivent être différentes."
    ),
    "donkey.one_angry": "Il n'y a qu'un Angry Donkey {color}, pas {count}.",
    "donkey.roll_off_among": "Le départage se joue exactement entre {players}.",
    "donkey.roll_off_pips": "Le dé lancé par {player} ne peut pas montrer {pips}.",
    # --- a replay's sentences ---------------------------------------------------------
    "said.donkey.face": "le {pips} {color}",
    "said.donkey.die": "{color} {pips}",
    "said.donkey.rolls": "{player} lance les dés : {dice}",
    "said.donkey.chooses": "{player} met {face} sur la carte Hay",
    "said.donkey.chooses_again": (
        "{player} met {face} sur la carte Hay, car chaque dé lancé montre une valeur "
        "déjà posée"
    ),
    "said.donkey.keeps": "{player} garde le dernier dé, {face}",
    "said.donkey.rerolls": "{player} relance le dernier dé : {face}",
    "said.donkey.roll": "{player} {pips}",
    "said.donkey.roll_off": "Départage : {rolls}",
    "said.donkey.reveals_nothing": "{player} ne révèle rien",
    "said.donkey.reveals": "{player} révèle {cards}",
    "said.donkey.left_for": "{face} reste pour {player}",
    "said.donkey.reshuffled": (
        "les {count} cartes de la défausse sont mélangées en une nouvelle pioche"
    ),
    "said.donkey.draws": {
        "one": "{player} pioche {count} carte",
        "other": "{player} pioche {count} cartes",
    },
    "said.donkey.hay": "la carte Hay montre {hay}",
    "said.donkey.pile_out": "{player} épuise sa pile personnelle",
    "said.donkey.flips": "le dé {color} passe de {was} à {now}",
    "said.donkey.values": "valeurs : {values}",
    "said.donkey.values_of": "{player} {values}",
    "said.donkey.won": {
        "one": "fin de la partie : {winners} n'a plus de cartes et gagne",
        "other": (
            "fin de la partie : {winners} n'ont plus de cartes et se partagent la "
            "victoire"
        ),
    },
    "said.donkey.taken_by_roll": (
        "{player} prend le Biggest Donkey avec le plus haut dé ({roll})"
    ),
    "said.donkey.taken_by_card": (
        "{player} prend le Biggest Donkey avec la plus forte carte ({top})"
    ),
    "said.donkey.taken_by_pile": (
        "{tied} sont à égalité à {top}, {player} prend le Biggest Donkey avec le moins "
        "de cartes dans sa pile personnelle ({fewest})"
    ),
    "said.donkey.roll_again": "{among} sont à égalité à {pips} et relancent",
    "said.donkey.roll_off_all": (
        "{tied} sont à égalité à {top} avec {fewest} cartes dans leur pile "
        "personnelle : ils se départagent aux dés pour le Biggest Donkey"
    ),
    "said.donkey.roll_off_some": (
        "{tied} sont à égalité à {top}, {among} ont le moins de cartes dans leur pile "
        "personnelle ({fewest}) : ils se départagent aux dés pour le Biggest Donkey"
    ),
    # --- a replay step's picture ------------------------------------------------------
    "picture.donkey.round": "Manche {round}",
    "picture.donkey.reveal": "Tout le monde révèle",
    "picture.donkey.roll_off": "Départage : {players}",
    "picture.donkey.pile": "Pile",
    "picture.donkey.hay": "Carte Hay",
    "picture.donkey.rolled": "Lancés",
    "picture.donkey.discard": "Défausse",
    "picture.donkey.biggest": "Biggest Donkey",
    "picture.donkey.revealed": "Révélées",
}

WORDS: Words = {"en": ENGLISH, "fr": FRENCH}
# The game's name as players read it, by language.
LABELS = {"en": "Double Donkey", "fr": "Double Donkey"}
