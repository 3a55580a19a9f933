// Double Donkey as the page draws it: its moves (docs/api.md: roll, choose, last die,
// reveal, roll-off), its public state, its score sheet, which scores no rounds but
// each round's highest card, how a tie was settled (K9) and its words in English and
// French. It has no options at the start of a game. The service serves this module,
// a file of the game's package, as the page's `games/double-donkey.js`.
import { button, chips, h } from "../dom.js";
import { language, wording } from "../i18n.js";
import { facts, playerTable } from "../tables.js";

const colorName = (color) => t(`color.${color}`);

const COLORS = ["light_blue", "orange", "dark_blue", "purple", "yellow", "green"];
const FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

/** A die's six faces as chips, one tap to say what it shows; `.pips()` reads it. */
function die(legend, look) {
  let pips = null;
  const box = chips(legend, "die", FACES.map((face, i) => [i + 1,
    h("span", {}, h("span", { class: "face", "aria-hidden": "true" }, face),
      h("span", { class: "sr" }, String(i + 1))),
  ]), null, (n) => { pips = n; }, { class: `chips die ${look ?? ""}` });
  box.pips = () => pips;
  return box;
}

function unset(dice) {
  return dice.filter(([, d]) => d.pips() === null).map(([name]) => name);
}

/** A move's button and, above it, the line that says what is still to tap: `wanting()`
 * names it (empty once everything is tapped), `move()` is the move then logged. */
function logOnceTapped(label, wanting, move, submit) {
  const missing = h("p", { class: "muted", "aria-live": "polite" });
  return [missing, button(label, () => {
    missing.textContent = wanting();
    if (!missing.textContent) submit(move());
  }, { class: "primary" })];
}

function moves(game, submit) {
  const s = game.state;
  const player = s.next_player;
  const turn = player ? h("p", { class: "turn" }, t("donkey.turn", { player })) : null;
  const moves = { roll, choose, last_die: lastDie, reveal, roll_off: rollOff };
  // The move the state allows (`allowed`: none once over or abandoned).
  const make = moves[s.allowed[0]];
  return h("div", {}, turn, make ? make(game, s, player, submit) : null);
}

function roll(game, s, player, submit) {
  // Offline the Hay card may hold more dice than when it was read: every die is
  // offered, and the dice tapped are the dice rolled.
  const free = game.offline ? COLORS : COLORS.filter((c) => !(c in s.hay));
  const dice = free.map((color) =>
    [color, die(t("donkey.die", { color: colorName(color) }), `dd-${color}`)]);
  const rolled = () => (game.offline ? dice.filter(([, d]) => d.pips() !== null) : dice);
  return h("div", {}, game.offline ? h("p", { class: "muted" }, t("donkey.tap_rolled_dice"))
    : null, dice.map(([, d]) => d),
  logOnceTapped(t("donkey.rolls", { player }), () => {
    if (game.offline) return rolled().length ? "" : t("donkey.tap_a_die");
    const left = unset(dice);
    return left.length
      ? t("donkey.tap_dice", { colors: left.map(colorName), count: left.length }) : "";
  }, () => ({ type: "roll", player,
    dice: Object.fromEntries(rolled().map(([color, d]) => [color, d.pips()])) }), submit));
}

function choose(game, s, player, submit) {
  if (game.offline) { // the dice rolled are not known: any colour
    return h("div", { class: "row" }, COLORS.map((color) =>
      button(t("donkey.put_die_on_hay", { color: colorName(color) }),
        () => submit({ type: "choose", player, color }))));
  }
  // The dice the rules let the player choose (K5), as the state lists them.
  return h("div", { class: "row" }, (s.choosable ?? []).map((color) =>
    button(t("donkey.put_on_hay", { color: colorName(color), pips: s.rolled[color] }),
      () => submit({ type: "choose", player, color }))));
}

function lastDie(game, s, player, submit) {
  const again = die(t("donkey.rolled_again"));
  return h("div", {},
    button(t("donkey.keep_last"),
      () => submit({ type: "last_die", player, reroll: null }), { class: "primary" }),
    again,
    button(t("donkey.roll_again"), () => {
      if (again.pips() !== null) submit({ type: "last_die", player, reroll: again.pips() });
    }));
}

/** Every card a hand may reveal (K2), each one tap: the Double Donkeys, two
 * colours in the dice's order, then the Angry Donkeys. */
const CARDS = [
  ...COLORS.flatMap((first, i) => COLORS.slice(i + 1).map((second) => ({ colors: [first, second] }))),
  ...COLORS.map((color) => ({ angry: color })),
];

/** One holder's revealed cards: each card tapped is listed with a control to remove
 * it, up to the `most` the hand holds. `.cards()` reads them. */
function handList(holder, most, onRemove) {
  const cards = [];
  const note = h("p", { class: "muted", "aria-live": "polite" });
  const list = h("ul", { class: "revealed", "aria-label": t("donkey.cards_of", { player: holder }) });
  function draw() {
    note.textContent = "";
    list.replaceChildren(...(cards.length ? cards.map((card, i) => h("li", {},
      h("span", {}, cardName(card)),
      button("✕", () => { cards.splice(i, 1); draw(); onRemove(holder); },
        { class: "remove", "aria-label": t("donkey.remove_card", { card: cardName(card) }) })))
      : [h("li", { class: "muted" }, t("donkey.no_card_yet"))]));
  }
  draw();
  const box = h("fieldset", { class: "hand" },
    h("legend", {}, t("donkey.reveals", { player: holder })),
    h("p", { class: "muted" }, t("donkey.tap_cards", { count: most })), note, list);
  box.cards = () => [...cards];
  box.full = () => cards.length >= most;
  /** Add a card, or say the hand is full. */
  box.add = (card) => {
    if (box.full()) {
      note.textContent = t("donkey.hand_full", { player: holder, count: most });
      return false;
    }
    cards.push(card);
    draw();
    return true;
  };
  return box;
}

/** The reveal in one tap a card: the hand being filled is chosen by a chip, and the
 * next hand is chosen once one is full. */
function reveal(game, s, player, submit) {
  // Offline the hands may have been refilled since they were read: every player,
  // up to the largest hand read.
  const largest = Math.max(1, ...Object.values(s.hand_sizes));
  const most = (p) => (game.offline ? largest : s.hand_sizes[p]);
  const holders = game.players.filter((p) => most(p) > 0);
  let filling = holders[0];
  const choose = (holder) => {
    filling = holder;
    for (const input of whose.querySelectorAll("input")) input.checked = input.value === holder;
  };
  const hands = new Map(holders.map((holder) => [holder,
    handList(holder, most(holder), (p) => choose(p))]));
  const whose = chips(t("donkey.whose_cards"), "whose", holders.map((p) => [p, p]), filling,
    (p) => { filling = p; }, { class: "chips whose" });
  const palette = h("div", { class: "palette", role: "group",
    "aria-label": t("donkey.the_cards") }, CARDS.map((card) => button([
    h("span", { class: "look", "aria-hidden": "true" }, (card.colors ?? [card.angry, card.angry])
      .map((c) => h("span", { class: `half dd-fill-${c}` }))),
    h("span", { class: "name" }, cardName(card))], () => {
    const hand = hands.get(filling);
    if (!hand.add(card) || !hand.full()) return;
    const next = holders.find((p) => !hands.get(p).full());
    if (next) choose(next);
  }, { class: card.angry ? "card-button angry" : "card-button" })));
  return h("div", {}, h("p", {}, t("donkey.how_to_tap")), whose, palette,
    [...hands.values()],
    logOnceTapped(t("donkey.reveal"), () => "", () => ({ type: "reveal",
      cards: Object.fromEntries(holders.map((holder) => [holder, hands.get(holder).cards()])) }),
    submit));
}

function rollOff(game, s, player, submit) {
  // Offline who is tied is not known: every player, the dice tapped are the rolls.
  const among = game.offline ? game.players : s.roll_off;
  const rolls = among.map((p) => [p, die(t("donkey.rolled", { player: p }))]);
  const rolled = () => (game.offline ? rolls.filter(([, d]) => d.pips() !== null) : rolls);
  return h("div", {},
    h("p", {}, game.offline ? t("donkey.tap_roll_off")
      : t("donkey.roll_off_for", { players: s.roll_off.join(", ") })),
    rolls.map(([, d]) => d),
    logOnceTapped(t("donkey.log_roll_off"), () => {
      if (game.offline) return rolled().length ? "" : t("donkey.tap_a_die");
      const left = unset(rolls);
      return left.length ? t("donkey.tap_rolled", { players: left }) : "";
    }, () => ({ type: "roll_off",
      rolls: Object.fromEntries(rolled().map(([p, d]) => [p, d.pips()])) }), submit));
}

// --- offline: any player's move, and a move waiting to be sent ----------------------

/** The moves a table may log offline: a reveal and a roll-off name no one player. */
const offline = { kinds: ["roll", "choose", "last_die", "reveal", "roll_off"],
  playerless: ["reveal", "roll_off"] };

/** A move not yet sent, worded as the service words what a player did. */
function said(body) {
  const { player } = body;
  // Within a sentence a colour is a word, as the service writes it: "light blue 3".
  const inSentence = (color) => colorName(color).toLocaleLowerCase(language());
  const dice = (faces) => Object.entries(faces)
    .map(([color, pips]) => t("donkey.die_shows", { color: inSentence(color), pips }))
    .join(", ");
  switch (body.type) {
    case "roll": return t("queued.donkey.roll", { player, dice: dice(body.dice) });
    case "choose": return t("queued.donkey.choose", { player, color: inSentence(body.color) });
    case "last_die":
      return body.reroll == null ? t("queued.donkey.keep", { player })
        : t("queued.donkey.reroll", { player, pips: body.reroll });
    case "reveal":
      return Object.entries(body.cards).map(([holder, cards]) => t("queued.donkey.reveals",
        { player: holder, cards: cards.map(cardName) })).join(t("queued.apart"));
    default:
      return t("queued.donkey.roll_off", { rolls: Object.entries(body.rolls)
        .map(([p, pips]) => t("queued.donkey.rolled", { player: p, pips })).join(", ") });
  }
}

// --- state ----------------------------------------------------------------------------

function cardName(card) {
  return card.angry ? t("donkey.angry", { color: t(`color.${card.angry}`) })
    : t("donkey.double", { first: t(`color.${card.colors[0]}`),
      second: t(`color.${card.colors[1]}`) });
}

function state(s, players) {
  const dice = (faces) => Object.entries(faces)
    .map(([color, pips]) => t("donkey.die_shows", { color: t(`color.${color}`), pips }))
    .join(", ") || t("state.none");
  return h("div", {},
    facts([
      [t("state.round"), s.round],
      [t("state.waiting_for"), t(`phase.${s.phase}`)],
      [t("state.next"), s.next_player ?? (s.phase === "roll_off" ? t("state.tied_roll")
        : s.phase === "reveal" ? t("state.everyone_reveals") : t("state.nobody"))],
      [t("state.dice_holder"), s.dice_holder],
      [t("state.hay"), dice(s.hay)],
      Object.keys(s.rolled).length && [t("state.just_rolled"), dice(s.rolled)],
      s.roll_off && [t("state.roll_off_among"), s.roll_off.join(", ")],
      [t("state.biggest"), s.biggest_donkey ?? t("state.nobody_yet")],
      [t("state.draw_pile"), t("state.cards", { count: s.draw_pile_size })],
    ]),
    playerTable(t("state.players"), players, [
      [t("state.hand"), (p) => s.hand_sizes[p]],
      [t("state.pile"), (p) => s.personal_piles[p]],
      [t("state.revealed"), (p) => (s.revealed[p] || [])
        .map((card, i) => t("donkey.card_value", { card: cardName(card),
          value: s.values[p]?.[i] ?? "?" })).join(", ")],
    ]));
}

// --- the score sheet ------------------------------------------------------------------

// The score sheet's column and chart: each round's highest card, not running totals.
const sheet = {
  running: false,
  total: () => t("sheet.cards_held"),
  chart: (values) => t("sheet.chart_highest", values),
  caption: () => t("sheet.caption_highest"),
};

/** How a shared highest card was settled (K9), from a round's line of the sheet: the
 * fewest cards in the personal pile, or a roll-off (`each` words the last throw). */
function tieBreak(detail, each) {
  if (!detail.tied || !detail.biggest_donkey) return null;
  const narrowed = detail.fewest_personal_pile;
  const values = { tied: detail.tied, winner: detail.biggest_donkey };
  if (detail.roll_offs?.length) {
    return t("sheet.tie_K9_roll_off", {
      ...values, kept: narrowed?.players ?? detail.tied, rolls: each(detail.roll_offs.at(-1)) });
  }
  return t("sheet.tie_K9_fewest", {
    ...values, cards: narrowed?.cards ?? detail.personal_piles?.[detail.biggest_donkey] });
}

// --- words ----------------------------------------------------------------------------

// The module's words in each language the page speaks, said before the page's own
// (`wording`).
const WORDS = {
  en: {
    "state.dice_holder": "Dice holder",
    "state.hay": "Hay card",
    "state.just_rolled": "Just rolled",
    "state.roll_off_among": "Roll-off among",
    "state.biggest": "Biggest Donkey",
    "state.nobody_yet": "nobody yet",
    "state.tied_roll": "the tied players roll",
    "state.everyone_reveals": "everyone reveals",
    "state.pile": "Pile",
    "state.revealed": "Revealed",
    "phase.finished": "finished",
    "phase.roll": "roll",
    "phase.choose": "choose",
    "phase.last_die": "last die",
    "phase.reveal": "reveal",
    "phase.roll_off": "roll off",
    "donkey.angry": "Angry {color}",
    "donkey.double": "{first}/{second} Double",
    "donkey.die_shows": "{color} {pips}",
    "donkey.card_value": "{card} ({value})",
    "color.light_blue": "Light Blue",
    "color.orange": "Orange",
    "color.dark_blue": "Dark Blue",
    "color.purple": "Purple",
    "color.yellow": "Yellow",
    "color.green": "Green",
    "sheet.chart_highest": { one: "Chart of highest card each round over {count} round: {summary}.", other: "Chart of highest card each round over {count} rounds: {summary}." },
    "sheet.caption_highest": "Each round's highest card per player",
    "sheet.cards_held": "Cards held",
    "sheet.tie_K9_fewest": "{tied} shared the highest card. K9: {winner} took the Biggest Donkey with the fewest cards in their personal pile ({cards}).",
    "sheet.tie_K9_roll_off": "{tied} shared the highest card. K9: {kept} rolled off (last throw: {rolls}) and {winner} took the Biggest Donkey.",
    "donkey.turn": "{player}'s turn",
    "donkey.die": "{color} die",
    "donkey.rolls": "{player} rolls",
    "donkey.tap_dice": { one: "Tap what the {colors} die shows.", other: "Tap what the {colors} dice show." },
    "donkey.put_on_hay": "Put the {color} {pips} on the Hay",
    "donkey.rolled_again": "Rolled again: the die shows",
    "donkey.keep_last": "Keep the last die as it is",
    "donkey.roll_again": "Roll it once more",
    "donkey.reveals": "{player} reveals",
    "donkey.tap_cards": { one: "Up to {count} card.", other: "Up to {count} cards." },
    "donkey.how_to_tap": "Tap each card revealed, one tap a card, for the hand chosen above the cards: once a hand is full the next one is chosen.",
    "donkey.whose_cards": "Whose cards",
    "donkey.the_cards": "The cards",
    "donkey.cards_of": "The cards {player} reveals",
    "donkey.hand_full": { one: "{player} holds {count} card: remove it to change it.", other: "{player} reveals at most {count} cards: remove one to change it." },
    "donkey.remove_card": "Remove the {card}",
    "donkey.no_card_yet": "No card tapped yet.",
    "donkey.reveal": "Reveal",
    "donkey.rolled": "{player} rolled",
    "donkey.roll_off_for": "Roll-off for the Biggest Donkey: {players}",
    "donkey.log_roll_off": "Log the roll-off",
    "donkey.tap_rolled": "Tap what {players} rolled.",
    "queued.apart": "; ",
    "queued.donkey.roll": "{player} rolls {dice}",
    "queued.donkey.choose": "{player} puts the {color} die on the Hay card",
    "queued.donkey.keep": "{player} keeps the last die",
    "queued.donkey.reroll": "{player} rerolls the last die: {pips}",
    "queued.donkey.reveals": "{player} reveals {cards}",
    "queued.donkey.roll_off": "Roll-off: {rolls}",
    "queued.donkey.rolled": "{player} {pips}",
    "donkey.tap_rolled_dice": "Tap the dice rolled: the dice left untapped are on the Hay card.",
    "donkey.tap_a_die": "Tap what each die rolled shows.",
    "donkey.put_die_on_hay": "Put the {color} die on the Hay",
    "donkey.tap_roll_off": "Roll-off: tap what each tied player rolled.",
    "kind.roll": "Roll",
    "kind.choose": "Choose a die",
    "kind.last_die": "Last die",
    "kind.reveal": "Reveal",
    "kind.roll_off": "Roll-off",
    "move.roll": "roll",
    "move.choose": "choose",
    "move.last_die": "last die",
    "move.reveal": "reveal",
    "move.roll_off": "roll off",
  },
  fr: {
    "state.dice_holder": "Qui a les dés",
    "state.hay": "Carte Hay",
    "state.just_rolled": "Dés lancés",
    "state.roll_off_among": "Départage entre",
    "state.biggest": "Biggest Donkey",
    "state.nobody_yet": "personne pour l'instant",
    "state.tied_roll": "les joueurs à égalité lancent",
    "state.everyone_reveals": "tout le monde révèle",
    "state.pile": "Tas",
    "state.revealed": "Révélées",
    "phase.finished": "terminée",
    "phase.roll": "lancer",
    "phase.choose": "choisir",
    "phase.last_die": "dernier dé",
    "phase.reveal": "révéler",
    "phase.roll_off": "départage",
    "donkey.angry": "Angry {color}",
    "donkey.double": "Double {first}/{second}",
    "donkey.die_shows": "{color} {pips}",
    "donkey.card_value": "{card} ({value})",
    "color.light_blue": "Bleu clair",
    "color.orange": "Orange",
    "color.dark_blue": "Bleu foncé",
    "color.purple": "Violet",
    "color.yellow": "Jaune",
    "color.green": "Vert",
    "sheet.chart_highest": { one: "Graphique de la plus forte carte de chaque manche, sur {count} manche : {summary}.", other: "Graphique de la plus forte carte de chaque manche, sur {count} manches : {summary}." },
    "sheet.caption_highest": "La plus forte carte de chaque manche, par joueur",
    "sheet.cards_held": "Cartes gardées",
    "sheet.tie_K9_fewest": "{tied} ont la plus forte carte à égalité. K9 : {winner} prend le Biggest Donkey, avec le moins de cartes dans sa pile personnelle ({cards}).",
    "sheet.tie_K9_roll_off": "{tied} ont la plus forte carte à égalité. K9 : {kept} se départagent aux dés (dernier jet : {rolls}) et {winner} prend le Biggest Donkey.",
    "donkey.turn": "À {player} de jouer",
    "donkey.die": "Dé {color}",
    "donkey.rolls": "{player} lance",
    "donkey.tap_dice": { one: "Touchez ce que montre le dé {colors}.", other: "Touchez ce que montrent les dés {colors}." },
    "donkey.put_on_hay": "Mettre le {pips} {color} sur la carte Hay",
    "donkey.rolled_again": "Relancé : le dé montre",
    "donkey.keep_last": "Garder le dernier dé tel quel",
    "donkey.roll_again": "Le relancer une fois",
    "donkey.reveals": "{player} révèle",
    "donkey.tap_cards": { one: "{count} carte au plus.", other: "{count} cartes au plus." },
    "donkey.how_to_tap": "Touchez chaque carte révélée, une touche par carte, pour la main choisie au-dessus des cartes : une main pleine, la suivante est choisie.",
    "donkey.whose_cards": "Les cartes de",
    "donkey.the_cards": "Les cartes",
    "donkey.cards_of": "Les cartes que révèle {player}",
    "donkey.hand_full": { one: "{player} a {count} carte en main : retirez-la pour la changer.", other: "{player} révèle au plus {count} cartes : retirez-en une pour changer." },
    "donkey.remove_card": "Retirer : {card}",
    "donkey.no_card_yet": "Aucune carte touchée.",
    "donkey.reveal": "Révéler",
    "donkey.rolled": "Dé lancé par {player}",
    "donkey.roll_off_for": "Départage pour le Biggest Donkey : {players}",
    "donkey.log_roll_off": "Noter le départage",
    "donkey.tap_rolled": "Touchez le résultat du dé pour : {players}.",
    "queued.apart": " ; ",
    "queued.donkey.roll": "{player} lance les dés : {dice}",
    "queued.donkey.choose": "{player} met le dé {color} sur la carte Hay",
    "queued.donkey.keep": "{player} garde le dernier dé",
    "queued.donkey.reroll": "{player} relance le dernier dé : {pips}",
    "queued.donkey.reveals": "{player} révèle {cards}",
    "queued.donkey.roll_off": "Départage : {rolls}",
    "queued.donkey.rolled": "{player} {pips}",
    "donkey.tap_rolled_dice": "Touchez les dés lancés : les dés non touchés sont sur la carte Hay.",
    "donkey.tap_a_die": "Touchez ce que montre chaque dé lancé.",
    "donkey.put_die_on_hay": "Mettre le dé {color} sur la carte Hay",
    "donkey.tap_roll_off": "Départage : touchez le résultat de chaque joueur à égalité.",
    "kind.roll": "Lancer",
    "kind.choose": "Choisir un dé",
    "kind.last_die": "Dernier dé",
    "kind.reveal": "Révéler",
    "kind.roll_off": "Départage",
    "move.roll": "lance",
    "move.choose": "choisit",
    "move.last_die": "dernier dé",
    "move.reveal": "révèle",
    "move.roll_off": "départage",
  },
};
const { t } = wording(WORDS);

/** The round a move was played in (a replay heads its moves by round): the round
 * before it, since the reveal that settles a round starts the next one too. */
function roundOf(before) {
  return before.round;
}

export default {
  moves, state, cardName, said, offline,
  sheet, tieBreak, roundOf, say: t,
};
