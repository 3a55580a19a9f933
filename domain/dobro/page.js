// Dobro, both editions, as the page draws it: its moves (docs/api.md, "Dobro moves":
// play, skip, reverse, take, forgot refill), its public state, its options at the
// start of a game, how a tie was settled (D16) and its words in English and French.
// The options' bounds come from the service (`GET /games/kinds`). The service serves
// this module, a file of the game's package, as the page's `games/dobro.js`.
import { button, chips, field, h, select, uid } from "../dom.js";
import { wording } from "../i18n.js";
import { option } from "../kinds.js";
import { facts, playerTable } from "../tables.js";

// --- moves ----------------------------------------------------------------------------

function moves(game, submit) {
  const s = game.state;
  const player = s.next_player;
  const [low, high] = s.wild_range;
  const values = Array.from({ length: high - low + 1 }, (_, i) => low + i);
  // The cards the rules leave a play now (`choices`): the values still in the deck
  // that reach the value in play, and the wild while one is left. Offline the state
  // may be stale: every value a wild may stand for is offered, and the rules judge
  // the card on arrival.
  const playable = (!game.offline && s.choices?.play?.cards) || [...values, "wild"];
  let first = null;
  let second = "none";
  let wildAs = s.value_in_play ?? low;
  let announced = "";

  const wildBox = h("div");
  const secondBox = h("div");
  const playButton = button("", () => submit(playMove()), { class: "primary" });

  function cards() {
    if (first === null) return [];
    if (second === "same") return [first, first];
    if (second === "wild") return [first, "wild"];
    return [first];
  }

  function playMove() {
    const move = { type: "play", player, cards: cards() };
    if (move.cards.every((card) => card === "wild")) move.wild_as = Number(wildAs);
    if (announced.trim() !== "") move.announced = Number(announced);
    return move;
  }

  function update() {
    const played = cards();
    const pairWith = first === "wild"
      ? [["none", t("dobro.one_wild")], ["same", t("dobro.two_wilds")]]
      : [["none", t("dobro.one_card")], ["same", t("dobro.a_pair")],
        ...(playable.includes("wild") ? [["wild", t("dobro.with_wild")]] : [])];
    secondBox.replaceChildren(first === null ? "" :
      chips(t("dobro.how_many"), "second", pairWith, second, (value) => {
        second = value;
        update();
      }));
    wildBox.replaceChildren(played.length && played.every((c) => c === "wild")
      ? field(t("dobro.wild_counts_as"), select(values.map((v) => [v, v]), wildAs, {
        onchange: (event) => { wildAs = event.target.value; },
      })) : "");
    playButton.disabled = played.length === 0;
    playButton.textContent = played.length
      ? t("dobro.plays", { player, cards: played.map(cardName).join(" + ") })
      : t("dobro.choose_card");
  }

  const onValue = (value) => {
    first = value;
    if (first === "wild" && second === "wild") second = "none";
    update();
  };
  update();
  // The service says which kinds of move can be legal now (`allowed`): the page
  // offers those and no others, and never works the rules out itself.
  const may = new Set(s.allowed ?? ["play", "skip", "reverse", "take", "forgot_refill"]);
  return h("div", {},
    h("p", { class: "turn" }, t("dobro.turn", { player })),
    may.has("play") ? [
      chips(t("dobro.card_chips"), "card",
        playable.map((card) => [card, cardName(card)]), null, onValue),
      secondBox, wildBox, announceField(),
      h("div", { class: "row" }, playButton)] : h("p", {}, t("dobro.none_can_follow")),
    h("div", { class: "row" },
      may.has("skip")
        ? button(t("dobro.skips", { player }), () => submit({ type: "skip", player })) : null,
      may.has("reverse")
        ? button(t("dobro.reverses", { player }), () => submit({ type: "reverse", player }))
        : null,
      may.has("take")
        ? button(t("dobro.takes", { player }), () => submit({ type: "take", player })) : null),
    may.has("forgot_refill") ? forgotRefill(game, submit) : null);

  // D10: the value a player calls out, if the table logs it; a wrong call is refused.
  function announceField() {
    const input = h("input", {
      type: "number", inputmode: "numeric", min: "2", max: "999", name: "announced",
      oninput: (event) => { announced = event.target.value; },
    });
    return field(t("dobro.called_out"), input);
  }
}

function forgotRefill(game, submit) {
  const who = select(game.players.map((p) => [p, p]), game.state.next_player);
  return h("div", { class: "row aside" }, field(t("dobro.who_forgot"), who),
    button(t("dobro.forgot"), () => submit({ type: "forgot_refill", player: who.value })));
}

// --- offline: any player's move, and a move waiting to be sent ----------------------

/** The moves a table may log offline, whoever plays: `moves` draws each alone. */
const offline = { kinds: ["play", "skip", "reverse", "take", "forgot_refill"], playerless: [] };

/** The cards of a play as the service's sentences name them: "5 + 5", "a Wild as 7". */
function played({ cards, wild_as: as }) {
  if (cards.length === 1 && cards[0] === "wild") {
    return as == null ? t("queued.dobro.a_wild") : t("queued.dobro.a_wild_as", { value: as });
  }
  const shown = cards.map(cardName).join(" + ");
  return cards.every((card) => card === "wild") && as != null
    ? t("queued.dobro.wilds_as", { cards: shown, value: as }) : shown;
}

/** A move not yet sent, worded as the service words what a player did. */
function said(body) {
  if (body.type === "play") {
    return t("queued.dobro.play", { player: body.player, cards: played(body) });
  }
  return t(`queued.dobro.${body.type}`, { player: body.player });
}

// --- state ----------------------------------------------------------------------------

function cardName(card) {
  return typeof card === "number" ? String(card) : t(`dobro.${card}`);
}

function state(s, players) {
  return h("div", {},
    facts([
      [t("state.round"), t("state.round_of", { round: s.round, rounds: s.rounds })],
      [t("state.next"), s.next_player ?? t("state.nobody_over")],
      [t("state.direction"), t(`state.${s.direction}`)],
      [t("state.value_in_play"), s.value_in_play ?? t("state.no_value")],
      [t("state.cards_in_play"), s.cards_in_play.map(cardName).join(", ") || t("state.none")],
      [t("state.draw_pile"), t("state.cards", { count: s.draw_pile_size })],
      [t("state.forgetful"), s.forgetful ?? t("state.in_the_centre")],
    ]),
    playerTable(t("state.players"), players, [
      [t("state.hand"), (p) => s.hand_sizes[p]],
      [t("state.score_pile"), (p) => s.score_piles[p]],
      [t("state.points"), (p) => s.totals[p]],
    ]));
}

// --- options at the start of a game ---------------------------------------------------

const SCALES = () => [["official", t("start.scale_official")],
  ["fewest-first", t("start.scale_fewest")]];

/** A house deck (D1, T1): counts per value 2–12, wilds, Skips, Reverses, each within
 * the bounds the service gives. */
function houseDeck(kind) {
  const manifest = kind.options.$defs.DeckManifest.properties;
  const bounds = (schema) => ({ min: String(schema.minimum), max: String(schema.maximum) });
  const counts = new Map();
  const number = (label, name, schema) => {
    const input = h("input", {
      type: "number", inputmode: "numeric", ...bounds(schema), value: "0", name,
    });
    counts.set(name, input);
    return field(label, input);
  };
  const use = h("input", { type: "checkbox", id: uid("house") });
  const grid = h("div", { class: "deck", hidden: true },
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) =>
      number(t("start.count_of", { value: n }), String(n),
        manifest.numbered.additionalProperties)),
    number(t("start.wilds"), "wilds", manifest.wilds),
    number(t("start.skips"), "skips", manifest.skips),
    number(t("start.reverses"), "reverses", manifest.reverses));
  use.addEventListener("change", () => { grid.hidden = !use.checked; });
  const box = h("fieldset", {}, h("legend", {}, t("start.deck")),
    h("label", { class: "check", for: use.id }, use, t("start.house_deck")),
    grid);
  box.deck = () => {
    if (!use.checked) return null;
    const numbered = {};
    for (let n = 2; n <= 12; n += 1) {
      const count = Number(counts.get(String(n)).value);
      if (count) numbered[String(n)] = count;
    }
    return { numbered, wilds: Number(counts.get("wilds").value),
      skips: Number(counts.get("skips").value),
      reverses: Number(counts.get("reverses").value) };
  };
  return box;
}

/** Scoring, the Skips with two players (D5) and a house deck: `chosen(players)` is
 * what differs from the defaults. */
function optionFields(kind) {
  const scoring = select(SCALES(), option(kind, "scoring").default, { name: "scoring" });
  const removeSkips = select([["", t("start.as_edition")], ["true", t("start.take_out")],
    ["false", t("start.keep")]], "", { name: "two_player_remove_skips" });
  const skipsField = field(t("start.two_player_skips"), removeSkips);
  const deck = houseDeck(kind);
  return {
    element: h("div", {}, field(t("start.scoring"), scoring), skipsField, deck),
    update(players) { skipsField.hidden = players !== 2; },
    chosen(players) {
      const chosen = {};
      if (scoring.value !== option(kind, "scoring").default) chosen.scoring = scoring.value;
      if (players === 2 && removeSkips.value) {
        chosen.two_player_remove_skips = removeSkips.value === "true";
      }
      const house = deck.deck();
      if (house) chosen.deck = house;
      return chosen;
    },
  };
}

// --- the score sheet ------------------------------------------------------------------

/** How a shared best total was settled (D16), from the last line of the sheet:
 * `each` words each player's cards in the last round's score pile. */
function tieBreak(detail, each) {
  const tie = detail.tie_break;
  if (!tie) return null;
  return t("sheet.tie_D16", { tied: tie.tied, values: each(tie.last_round_piles ?? {}) });
}

// --- words ----------------------------------------------------------------------------

// The module's words in each language the page speaks, said before the page's own
// (`wording`). The French are those of the French guide: enchère, valeur en jeu, joker,
// passe mon tour, changement de sens, pioche, carte oubli, manche.
const WORDS = {
  en: {
    "start.scale_official": "Most points wins (official)",
    "start.scale_fewest": "Fewest points wins (the French guide's scale)",
    "start.count_of": "{value}s",
    "start.wilds": "Wilds",
    "start.skips": "Skips",
    "start.reverses": "Reverses",
    "start.deck": "Deck",
    "start.house_deck": " A house deck (else the edition's)",
    "start.as_edition": "As the edition says",
    "start.take_out": "Take them out",
    "start.keep": "Keep them",
    "start.two_player_skips": "With two players, the Skip cards (D5)",
    "start.scoring": "Scoring",
    "state.nobody_over": "nobody: the game is over",
    "state.direction": "Direction",
    "state.clockwise": "clockwise",
    "state.counterclockwise": "counterclockwise",
    "state.value_in_play": "Value in play",
    "state.no_value": "none: the next player opens a climb",
    "state.cards_in_play": "Cards in play",
    "state.forgetful": "Forgetful card",
    "state.in_the_centre": "in the centre",
    "state.score_pile": "Score pile",
    "dobro.wild": "Wild",
    "dobro.skip": "Skip",
    "dobro.reverse": "Reverse",
    "sheet.tie_D16": "{tied} shared the best total. D16: the fewest cards in the last round's score pile wins ({values}).",
    "dobro.one_wild": "One wild",
    "dobro.two_wilds": "Two wilds",
    "dobro.one_card": "One card",
    "dobro.a_pair": "A pair",
    "dobro.with_wild": "With a wild",
    "dobro.how_many": "How many",
    "dobro.wild_counts_as": "The wild counts as",
    "dobro.plays": "{player} plays {cards}",
    "dobro.choose_card": "Choose a card to play",
    "dobro.turn": "{player}'s turn",
    "dobro.card_chips": "Card",
    "dobro.none_can_follow": "No card left can follow: take the cards.",
    "dobro.skips": "{player} skips",
    "dobro.reverses": "{player} reverses",
    "dobro.takes": "{player} takes the cards",
    "dobro.called_out": "Value called out (optional)",
    "dobro.who_forgot": "Who forgot to refill",
    "dobro.forgot": "Forgot to refill",
    "queued.dobro.play": "{player} plays {cards}",
    "queued.dobro.a_wild": "a Wild",
    "queued.dobro.a_wild_as": "a Wild as {value}",
    "queued.dobro.wilds_as": "{cards} as {value}",
    "queued.dobro.skip": "{player} plays a Skip",
    "queued.dobro.reverse": "{player} plays a Reverse",
    "queued.dobro.take": "{player} takes the cards",
    "queued.dobro.forgot_refill": "{player} forgot to refill",
    "kind.play": "Play",
    "kind.skip": "Skip",
    "kind.reverse": "Reverse",
    "kind.take": "Take",
    "kind.forgot_refill": "Forgot to refill",
    "move.play": "play",
    "move.skip": "skip",
    "move.reverse": "reverse",
    "move.take": "take",
    "move.forgot_refill": "forgot refill",
  },
  fr: {
    "start.scale_official": "Le plus de points gagne (règle officielle)",
    "start.scale_fewest": "Le moins de points gagne (barème du guide français)",
    "start.count_of": "Cartes {value}",
    "start.wilds": "Jokers",
    "start.skips": "Passe mon tour",
    "start.reverses": "Changement de sens",
    "start.deck": "Paquet",
    "start.house_deck": " Un paquet maison (sinon celui de l'édition)",
    "start.as_edition": "Comme le dit l'édition",
    "start.take_out": "Les retirer",
    "start.keep": "Les garder",
    "start.two_player_skips": "À deux joueurs, les cartes passe mon tour (D5)",
    "start.scoring": "Décompte",
    "state.nobody_over": "personne : la partie est terminée",
    "state.direction": "Sens de jeu",
    "state.clockwise": "horaire",
    "state.counterclockwise": "antihoraire",
    "state.value_in_play": "Valeur en jeu",
    "state.no_value": "aucune : le joueur suivant ouvre une enchère",
    "state.cards_in_play": "Cartes en jeu",
    "state.forgetful": "Carte oubli",
    "state.in_the_centre": "au centre",
    "state.score_pile": "Tas ramassé",
    "dobro.wild": "Joker",
    "dobro.skip": "Passe mon tour",
    "dobro.reverse": "Changement de sens",
    "sheet.tie_D16": "{tied} ont le meilleur total à égalité. D16 : le moins de cartes dans la pile de score de la dernière manche l'emporte ({values}).",
    "dobro.one_wild": "Un joker",
    "dobro.two_wilds": "Deux jokers",
    "dobro.one_card": "Une carte",
    "dobro.a_pair": "Une paire",
    "dobro.with_wild": "Avec un joker",
    "dobro.how_many": "Combien",
    "dobro.wild_counts_as": "Le joker vaut",
    "dobro.plays": "{player} joue {cards}",
    "dobro.choose_card": "Choisissez une carte à jouer",
    "dobro.turn": "À {player} de jouer",
    "dobro.card_chips": "Carte",
    "dobro.none_can_follow": "Plus aucune carte ne peut suivre : ramassez les cartes.",
    "dobro.skips": "{player} passe son tour",
    "dobro.reverses": "{player} change de sens",
    "dobro.takes": "{player} ramasse les cartes",
    "dobro.called_out": "Valeur annoncée (facultatif)",
    "dobro.who_forgot": "Qui a oublié de repiocher",
    "dobro.forgot": "Oubli de repioche",
    "queued.dobro.play": "{player} joue {cards}",
    "queued.dobro.a_wild": "un joker",
    "queued.dobro.a_wild_as": "un joker valant {value}",
    "queued.dobro.wilds_as": "{cards} valant {value}",
    "queued.dobro.skip": "{player} joue une carte passe mon tour",
    "queued.dobro.reverse": "{player} joue une carte changement de sens",
    "queued.dobro.take": "{player} ramasse les cartes",
    "queued.dobro.forgot_refill": "{player} a oublié de repiocher",
    "kind.play": "Jouer",
    "kind.skip": "Passer",
    "kind.reverse": "Changer de sens",
    "kind.take": "Ramasser",
    "kind.forgot_refill": "Oubli de repioche",
    "move.play": "joue",
    "move.skip": "passe son tour",
    "move.reverse": "change de sens",
    "move.take": "ramasse",
    "move.forgot_refill": "oubli de repioche",
  },
};
const { t } = wording(WORDS);

/** The round a move was played in (a replay heads its moves by round): the round
 * before it, since the play that scores a round deals the next one too (D13). */
function roundOf(before) {
  return before.round;
}

export default {
  moves, state, cardName, said, offline,
  optionFields, tieBreak, roundOf, say: t,
};
