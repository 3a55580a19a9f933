"""The engines' refusals and a replay's sentences (`said.*`) in French: one
template per key (`domain.wording`).

The words of the games are those of the French guide to Dobro: « enchère » for a
climb, « valeur en jeu », « joker », « passe mon tour » and « changement de sens »,
« pioche », « manche ». Sentences put a player's name where French needs no elision
(« à Ana », never « de Ana »).
"""

TEMPLATES: dict[str, str | dict[str, str]] = {
    # --- every game ---------------------------------------------------------------
    "game.over": "La partie est terminée : seule une annulation peut la rouvrir.",
    "game.abandoned": (
        "La partie a été abandonnée : seule une annulation peut la rouvrir."
    ),
    "game.ended": "La partie est terminée.",
    "undo.nothing": "Il ne reste aucun coup à annuler.",
    "turn.other": "C'est à {expected} de jouer, pas à {name}.",
    "player.absent": "{name} ne joue pas dans cette partie.",
    "name.missing": "Chaque joueur a besoin d'un nom.",
    "name.control": (
        "Un nom de joueur ne peut pas contenir de caractère de contrôle : {name}."
    ),
    "setup.players": "{game} se joue de {fewest} à {most} joueurs, pas à {count}.",
    "setup.name_twice": (
        "Chaque joueur a besoin d'un nom à lui : {name} est donné deux fois."
    ),
    "setup.name_same": (
        "Chaque joueur a besoin d'un nom à lui : {name} et {first} sont le même nom."
    ),
    "setup.first_player": "{name} ne fait pas partie des joueurs.",
    "setup.no_option": "{game} n'a pas d'option `{name}`.",
    "setup.option": "L'option `{name}` n'est pas valable : {error}.",
    "setup.options": "Les options ne sont pas valables : {error}.",
    # --- Dobro and Dobro Pixar --------------------------------------------------------
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
    # --- Dozito -----------------------------------------------------------------------
    "dozito.card.numbered": "{number} {color}",
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
    "dozito.jokers_seen": "Les {count} jokers {color} sont déjà tous visibles.",
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
    "dozito.colors": "Un paquet de Dozito a cinq noms de couleur différents.",
    # --- Double Donkey ----------------------------------------------------------------
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
    # --- the sentences of a replay: every game ---------------------------------------
    "said.clauses": "{said} : {clauses}",
    "said.event": "{name}",
    "said.round_ends": "fin de la manche {round}",
    "said.starts": "{starter} commence la manche {round}",
    "said.scores": "{name} marque {points}",
    "said.game_ends": {
        "one": "fin de la partie : {winners} gagne",
        "other": "fin de la partie : {winners} se partagent la victoire",
    },
    "said.undo": "Annulation : « {move} » est annulé",
    "said.abandoned": "La partie est abandonnée : elle s'arrête là, sans gagnant",
    # --- the sentences of a replay: Dobro -------------------------------------------
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
    # --- the sentences of a replay: Dozito ------------------------------------------
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
        "{winner} a douze cartes {color} face visible, {winner} gagne aussitôt"
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
    # --- the sentences of a replay: Double Donkey -----------------------------------
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
}
