// Dozito as the page draws it: its moves (docs/api.md, "Dozito moves": start_round,
// draw, place, discard), its public state with each player's grid, its colours at the
// start of a game (their default from the service, `GET /games/kinds`), how a tie was
// settled (Z15) and its words in English and French. The service serves this module,
// a file of the game's package, as the page's `games/dozito.js`.
import { button, chips, field, h, select, titleCase, toggle } from "../dom.js";
import { wording } from "../i18n.js";
import { kindOf, option } from "../kinds.js";
import { facts, playerTable } from "../tables.js";

const defaultColors = (name) => option(kindOf(name), "colors").default;

// --- moves ----------------------------------------------------------------------------

/** One card as the table states it, in taps: a colour chip, a number from the pad
 * (or Joker), its suns, STOP and Replay. Nothing is chosen for the player: `.card()`
 * reads it once its colour and number (or Joker) are tapped, `.wanting()` says what
 * is still to tap (empty once nothing is). */
function cardPicker(legend, colors) {
  const card = { color: null, number: null, suns: 0, joker: false, stop: false,
    replay: false };
  const pad = chips(t("dozito.number"), "number",
    [...Array(12).keys()].map((i) => [i + 1, i + 1]), null, (n) => { card.number = n; },
    { class: "chips pad" });
  const box = h("fieldset", { class: "picker" }, h("legend", {}, legend),
    chips(t("dozito.colour"), "color",
      colors.map((c) => [c, titleCase(colorName(c)), `dz dz-${c}`]), null,
      (c) => { card.color = c; }),
    pad,
    chips(t("dozito.suns"), "suns",
      [0, 1, 2, 3].map((n) => [n, n ? t("dozito.sun_count", { count: n }) : "0"]), 0,
      (n) => { card.suns = n; }),
    h("div", { class: "chips toggles", role: "group", "aria-label": t("dozito.marks") },
      toggle(t("dozito.toggle_joker"), (on) => { card.joker = on; pad.hidden = on; }),
      toggle(t("dozito.toggle_stop"), (on) => { card.stop = on; }),
      toggle(t("dozito.toggle_replay"), (on) => { card.replay = on; })));
  box.wanting = () => {
    const numbered = card.joker || card.number !== null;
    if (card.color === null) {
      return t(numbered ? "dozito.tap_colour" : "dozito.tap_colour_number", { card: legend });
    }
    return numbered ? "" : t("dozito.tap_number", { card: legend });
  };
  box.card = () => {
    if (box.wanting()) return null;
    const stated = { color: card.color };
    if (card.joker) stated.joker = true;
    else stated.number = Number(card.number);
    // Z2: a STOP card's suns may be left out (it has 3); 0 is left out too.
    if (card.suns) stated.suns = Number(card.suns);
    if (card.stop) stated.stop = true;
    if (card.replay) stated.replay = true;
    return stated;
  };
  return box;
}

/** A move's button and, above it, the line that says which card is still to tap:
 * the move is sent only once every card shown is stated. */
function sentOnceTapped(label, pickers, move, submit) {
  const missing = h("p", { class: "muted", "aria-live": "polite" });
  return [missing, button(label, () => {
    missing.textContent = pickers.filter((p) => !p.hidden).map((p) => p.wanting())
      .filter(Boolean).join(" ");
    if (!missing.textContent) submit(move());
  }, { class: "primary" })];
}

function moves(game, submit) {
  const s = game.state;
  const colors = game.options.colors || defaultColors(game.game);
  const player = s.next_player;
  // Offline the table says which move it logs (`allowed` holds it), and any player's.
  const phase = game.offline ? s.allowed[0] : s.phase;
  if (phase === "start_round") return startRound(s, colors, submit, game);
  if (phase === "draw") return draw(s, player, colors, submit, game);
  const parts = game.offline ? [h("p", { class: "turn" }, t("dozito.turn", { player }))]
    : [h("p", { class: "turn" }, t("dozito.holds", { player, card: cardName(s.held) }))];
  // The moves the state allows (`allowed`): the page does not work the phases out.
  const may = new Set(s.allowed ?? ["place", "discard"]);
  if (may.has("place")) parts.push(place(s, player, colors, submit, game));
  if (may.has("discard")) {
    // Z6: the piles the rules leave a discard now (`choices`); offline, either.
    const piles = (!game.offline && s.choices?.discard?.pile) || ["left", "right"];
    parts.push(h("div", { class: "row" }, piles.map((pile) =>
      button(t(`dozito.discard_${pile}`),
        () => submit({ type: "discard", player, pile })))));
  }
  return h("div", {}, parts);
}

function startRound(s, colors, submit, game) {
  const left = cardPicker(t("dozito.left_shows"), colors);
  const right = cardPicker(t("dozito.right_shows"), colors);
  // Offline the round and a tie for its start are not known: any player may be named.
  const choices = game.offline ? [["", t("dozito.as_the_rules_say")],
    ...game.players.map((p) => [p, p])] : s.starter_choices.map((p) => [p, p]);
  const starter = choices.length ? select(choices, choices[0][0]) : null;
  const [deal, start] = game.offline ? [t("dozito.deal_next"), t("dozito.start_next")]
    : [t("dozito.deal", { round: s.round + 1 }), t("dozito.start_round", { round: s.round + 1 })];
  return h("div", {},
    h("p", { class: "turn" }, deal),
    left, right, starter ? field(t("dozito.who_starts"), starter) : null,
    sentOnceTapped(start, [left, right], () => {
      const move = { type: "start_round", discards: [left.card(), right.card()] };
      if (starter?.value) move.starter = starter.value;
      return move;
    }, submit));
}

function draw(s, player, colors, submit, game) {
  let source = "deck";
  const picker = cardPicker(t("dozito.card_drawn"), colors);
  const sources = [["deck", t("dozito.the_deck")]];
  // The sources the rules leave a draw now (`choices`, Z4, Z10); offline the piles'
  // tops are not known: both piles are offered, unnamed.
  const may = game.offline ? null : s.choices?.draw?.source;
  for (const side of ["left", "right"]) {
    const top = s.discard_tops[side];
    if (game.offline) sources.push([`discard_${side}`, t(`dozito.${side}_pile`)]);
    else if (top && (!may || may.includes(`discard_${side}`))) {
      sources.push([`discard_${side}`, t(`dozito.${side}_top`, { card: cardName(top) })]);
    }
  }
  if (may && !may.includes("deck")) {
    sources.shift();
    source = sources[0]?.[0] ?? null;
    picker.hidden = true;
  }
  return h("div", {},
    h("p", { class: "turn" }, t("dozito.turn", { player })),
    chips(t("dozito.draw_from"), "source", sources, source, (value) => {
      source = value;
      picker.hidden = value !== "deck";
    }),
    picker,
    sentOnceTapped(t("dozito.draws", { player }), [picker], () => {
      const move = { type: "draw", player, source };
      if (source === "deck") move.card = picker.card();
      return move;
    }, submit));
}

function place(s, player, colors, submit, game) {
  const grid = s.grids[player];
  // Z4: the spot of the held card's number, of the spots the rules leave it
  // (`choices`; the others are shown, as the grid is, and cannot be chosen).
  // Offline the card held is not known.
  let spot = game.offline ? null : s.held?.number ?? 1;
  const open = game.offline ? null : s.choices?.place?.spot ?? null;
  if (open && !open.includes(spot)) spot = open[0] ?? null;
  const spotWanted = { wanting: () => (spot === null ? t("dozito.tap_spot") : "") };
  const revealed = cardPicker(t("dozito.uncovers"), colors);
  // `revealed` is stated exactly when the displaced card was face down (Z4). Offline
  // the grid may have changed since it was read: the table says so, the grid as
  // last read proposing it.
  let faceDown = null;
  const showReveal = () => {
    revealed.hidden = faceDown ? !faceDown.querySelector("input").checked
      : grid[spot - 1] !== null;
  };
  if (game.offline) faceDown = toggle(t("dozito.face_down_spot"), showReveal);
  const spots = chips(t("dozito.place_on", { player }), "spot", grid.map((card, i) => [
    i + 1, h("span", {}, h("span", { class: "sr" },
      t("dozito.spot", { n: i + 1, card: cardName(card) })),
      h("span", { "aria-hidden": "true" }, card ? (card.joker ? "J" : String(card.number))
        : `${i + 1}·`)),
    card ? `dz dz-${card.color}` : "dz down"]), spot,
  (n) => {
    spot = n;
    if (faceDown) faceDown.querySelector("input").checked = grid[spot - 1] === null;
    showReveal();
  }, { class: "chips spots" });
  for (const input of spots.querySelectorAll("input")) {
    input.disabled = open !== null && !open.includes(Number(input.value));
  }
  if (faceDown) faceDown.querySelector("input").checked = grid[spot - 1] === null;
  showReveal();
  return h("div", {},
    spots, faceDown, revealed,
    sentOnceTapped(t("dozito.place"), [spotWanted, revealed], () => {
      const move = { type: "place", player, spot };
      if (!revealed.hidden) move.revealed = revealed.card();
      return move;
    }, submit));
}

// --- state ----------------------------------------------------------------------------

/** The box's five colours in the page's language; a colour the table named itself
 * (Z2) as it was named. */
function colorName(color) {
  return has(`dozito.color.${color}`) ? t(`dozito.color.${color}`) : color;
}

function cardName(card) {
  if (!card) return t("dozito.face_down");
  const color = colorName(card.color);
  const name = card.joker ? t("dozito.joker", { color })
    : t("dozito.card", { color, number: card.number });
  const marks = [card.suns ? `${card.suns}☀` : "", card.stop ? "STOP" : "",
    card.replay ? t("dozito.replay") : ""].filter(Boolean);
  return marks.length ? t("dozito.marked", { card: name, marks: marks.join(", ") }) : name;
}

function grid(player, cards) {
  const cells = cards.map((card, i) => h("td", {
    class: card ? `dz dz-${card.color}` : "dz down",
  }, card ? (card.joker ? "J" : String(card.number)) : "·",
  h("span", { class: "sr" }, t("state.spot", { n: i + 1, card: cardName(card) }))));
  const rows = [0, 1, 2].map((r) => h("tr", {}, cells.slice(r * 4, r * 4 + 4)));
  return h("table", { class: "grid" }, h("caption", {}, player), h("tbody", {}, rows));
}

function state(s, players) {
  return h("div", {},
    facts([
      [t("state.round"), t("state.round_of", { round: s.round, rounds: s.rounds })],
      [t("state.waiting_for"), t(`phase.${s.phase}`)],
      [t("state.next"), s.next_player ?? t("state.nobody")],
      [t("state.held_card"), s.held ? cardName(s.held) : t("state.none")],
      [t("state.left_pile"), s.discard_tops.left ? cardName(s.discard_tops.left)
        : t("state.empty")],
      [t("state.right_pile"), s.discard_tops.right ? cardName(s.discard_tops.right)
        : t("state.empty")],
      [t("state.draw_pile"), t("state.cards", { count: s.draw_pile_size })],
      s.final_turns && [t("state.final_turns"), s.final_turns.join(", ")],
    ]),
    h("div", { class: "grids" }, players.map((p) => grid(p, s.grids[p]))),
    playerTable(t("state.totals"), players, [[t("state.points"), (p) => s.totals[p]]]));
}

// --- offline: any player's move, and a move waiting to be sent ----------------------

/** The moves a table may log offline: a round's start names no player. */
const offline = { kinds: ["start_round", "draw", "place", "discard"], playerless: ["start_round"] };

const theCard = (card) => t("queued.dozito.the_card", { card: cardName(card) });

/** A move not yet sent, worded as the service words what a player did. */
function said(body) {
  const { player } = body;
  switch (body.type) {
    case "start_round":
      return t("queued.dozito.start_round",
        { left: theCard(body.discards[0]), right: theCard(body.discards[1]) });
    case "draw":
      return body.source === "deck"
        ? t("queued.dozito.draws", { player, card: theCard(body.card) })
        : t(`queued.dozito.takes_${body.source.replace("discard_", "")}`, { player });
    case "place":
      return body.revealed
        ? t("queued.dozito.places_revealing", { player, spot: body.spot,
          held: theCard(body.revealed) })
        : t("queued.dozito.places", { player, spot: body.spot });
    default:
      return t(`queued.dozito.discards_${body.pile}`, { player });
  }
}

// --- options at the start of a game ---------------------------------------------------

/** The five colours' names (Z2): `chosen()` sends them only when they differ from the
 * default. */
function optionFields(kind) {
  const standard = option(kind, "colors").default;
  // The box's colours are shown in the page's language, and sent as the service
  // names them unless the table renames them.
  const colors = standard.map((color, i) => h("input", {
    type: "text", value: colorName(color), maxlength: "40",
    "aria-label": t("start.colour_n", { n: i + 1 }),
  }));
  return {
    element: h("fieldset", {}, h("legend", {}, t("start.five_colours")),
      h("div", { class: "row colors" }, colors)),
    update() {},
    chosen() {
      const named = colors.map((c, i) => {
        const value = c.value.trim();
        return value === colorName(standard[i]) ? standard[i] : value;
      });
      return named.join() === standard.join() ? {} : { colors: named };
    },
  };
}

// --- the score sheet ------------------------------------------------------------------

/** How a shared most points was settled (Z15), from the last line of the sheet:
 * `each` words each player's best single round. */
function tieBreak(detail, each) {
  const tie = detail.tie_break;
  if (!tie) return null;
  return t("sheet.tie_Z15", { tied: tie.tied, values: each(tie.best_round ?? {}) });
}

// --- words ----------------------------------------------------------------------------

// The module's words in each language the page speaks, said before the page's own
// (`wording`).
const WORDS = {
  en: {
    "start.colour_n": "Colour {n}",
    "start.five_colours": "The five colours",
    "state.totals": "Totals",
    "state.held_card": "Held card",
    "state.left_pile": "Left pile",
    "state.right_pile": "Right pile",
    "state.empty": "empty",
    "state.final_turns": "Final turns for",
    "state.spot": " spot {n}: {card}",
    "phase.start_round": "start round",
    "phase.draw": "draw",
    "phase.place_or_discard": "place or discard",
    "phase.place": "place",
    "phase.discard": "discard",
    "phase.finished": "finished",
    "dozito.face_down": "face down",
    "dozito.joker": "{color} joker",
    "dozito.card": "{color} {number}",
    "dozito.marked": "{card} ({marks})",
    "dozito.replay": "replay",
    "sheet.tie_Z15": "{tied} shared the most points. Z15: the best single round wins ({values}).",
    "dozito.number": "Number",
    "dozito.colour": "Colour",
    "dozito.suns": "Suns",
    "dozito.sun_count": "{count} ☀",
    "dozito.marks": "Marks",
    "dozito.toggle_joker": "Joker",
    "dozito.toggle_stop": "STOP",
    "dozito.toggle_replay": "Replay",
    "dozito.holds": "{player} holds the {card}",
    "dozito.discard_left": "Discard on the left pile",
    "dozito.discard_right": "Discard on the right pile",
    "dozito.left_shows": "Left discard pile shows",
    "dozito.right_shows": "Right discard pile shows",
    "dozito.deal": "Deal round {round}, then state the two discards.",
    "dozito.who_starts": "Who starts (tied players)",
    "dozito.start_round": "Start round {round}",
    "dozito.card_drawn": "The card drawn",
    "dozito.the_deck": "The deck",
    "dozito.left_top": "Left pile: {card}",
    "dozito.right_top": "Right pile: {card}",
    "dozito.turn": "{player}'s turn",
    "dozito.draw_from": "Draw from",
    "dozito.draws": "{player} draws",
    "dozito.uncovers": "The face-down card it uncovers",
    "dozito.place_on": "Place on ({player}'s grid)",
    "dozito.spot": "Spot {n}: {card}",
    "dozito.place": "Place the card",
    "dozito.tap_colour_number": "{card}: tap its colour and its number (or Joker).",
    "dozito.tap_colour": "{card}: tap its colour.",
    "dozito.tap_number": "{card}: tap its number (or Joker).",
    "queued.dozito.the_card": "the {card}",
    "queued.dozito.start_round": "A round starts; the discard piles show {left} and {right}",
    "queued.dozito.draws": "{player} draws {card} from the deck",
    "queued.dozito.takes_left": "{player} takes the top of the left discard pile",
    "queued.dozito.takes_right": "{player} takes the top of the right discard pile",
    "queued.dozito.places": "{player} places the card on spot {spot}",
    "queued.dozito.places_revealing": "{player} places the card on spot {spot}, revealing {held}",
    "queued.dozito.discards_left": "{player} discards the card on the left pile",
    "queued.dozito.discards_right": "{player} discards the card on the right pile",
    "dozito.as_the_rules_say": "As the rules say",
    "dozito.deal_next": "Deal the next round, then state the two discards.",
    "dozito.start_next": "Start the next round",
    "dozito.left_pile": "Left pile",
    "dozito.right_pile": "Right pile",
    "dozito.face_down_spot": "The spot held a face-down card",
    "dozito.tap_spot": "Tap the spot.",
    "dozito.color.red": "red",
    "dozito.color.blue": "blue",
    "dozito.color.green": "green",
    "dozito.color.purple": "purple",
    "dozito.color.yellow": "yellow",
    "kind.start_round": "Start a round",
    "kind.draw": "Draw",
    "kind.place": "Place",
    "kind.discard": "Discard",
    "move.start_round": "start round",
    "move.draw": "draw",
    "move.place": "place",
    "move.discard": "discard",
  },
  fr: {
    "start.colour_n": "Couleur {n}",
    "start.five_colours": "Les cinq couleurs",
    "state.totals": "Totaux",
    "state.held_card": "Carte en main",
    "state.left_pile": "Défausse de gauche",
    "state.right_pile": "Défausse de droite",
    "state.empty": "vide",
    "state.final_turns": "Derniers tours pour",
    "state.spot": " case {n} : {card}",
    "phase.start_round": "début de manche",
    "phase.draw": "pioche",
    "phase.place_or_discard": "placer ou défausser",
    "phase.place": "placer",
    "phase.discard": "défausser",
    "phase.finished": "terminée",
    "dozito.face_down": "face cachée",
    "dozito.joker": "joker {color}",
    "dozito.card": "{number} {color}",
    "dozito.marked": "{card} ({marks})",
    "dozito.replay": "replay",
    "sheet.tie_Z15": "{tied} ont le plus de points à égalité. Z15 : la meilleure manche l'emporte ({values}).",
    "dozito.number": "Numéro",
    "dozito.colour": "Couleur",
    "dozito.suns": "Soleils",
    "dozito.sun_count": "{count} ☀",
    "dozito.marks": "Marques",
    "dozito.toggle_joker": "Joker",
    "dozito.toggle_stop": "STOP",
    "dozito.toggle_replay": "Replay",
    "dozito.holds": "{player} tient la carte {card}",
    "dozito.discard_left": "Défausser sur la défausse de gauche",
    "dozito.discard_right": "Défausser sur la défausse de droite",
    "dozito.left_shows": "La défausse de gauche montre",
    "dozito.right_shows": "La défausse de droite montre",
    "dozito.deal": "Distribuez la manche {round}, puis dites les deux défausses.",
    "dozito.who_starts": "Qui commence (joueurs à égalité)",
    "dozito.start_round": "Commencer la manche {round}",
    "dozito.card_drawn": "La carte piochée",
    "dozito.the_deck": "La pioche",
    "dozito.left_top": "Défausse de gauche : {card}",
    "dozito.right_top": "Défausse de droite : {card}",
    "dozito.turn": "À {player} de jouer",
    "dozito.draw_from": "Piocher dans",
    "dozito.draws": "{player} pioche",
    "dozito.uncovers": "La carte face cachée qu'elle découvre",
    "dozito.place_on": "Placer sur (grille : {player})",
    "dozito.spot": "Case {n} : {card}",
    "dozito.place": "Placer la carte",
    "dozito.tap_colour_number": "{card} : touchez sa couleur et son numéro (ou Joker).",
    "dozito.tap_colour": "{card} : touchez sa couleur.",
    "dozito.tap_number": "{card} : touchez son numéro (ou Joker).",
    "queued.dozito.the_card": "le {card}",
    "queued.dozito.start_round": "Une manche commence ; les défausses montrent {left} et {right}",
    "queued.dozito.draws": "{player} pioche {card}",
    "queued.dozito.takes_left": "{player} prend le dessus de la défausse de gauche",
    "queued.dozito.takes_right": "{player} prend le dessus de la défausse de droite",
    "queued.dozito.places": "{player} place la carte sur la case {spot}",
    "queued.dozito.places_revealing": "{player} place la carte sur la case {spot} et révèle {held}",
    "queued.dozito.discards_left": "{player} défausse la carte sur la défausse de gauche",
    "queued.dozito.discards_right": "{player} défausse la carte sur la défausse de droite",
    "dozito.as_the_rules_say": "Comme le disent les règles",
    "dozito.deal_next": "Distribuez la manche suivante, puis dites les deux défausses.",
    "dozito.start_next": "Commencer la manche suivante",
    "dozito.left_pile": "Défausse de gauche",
    "dozito.right_pile": "Défausse de droite",
    "dozito.face_down_spot": "La case portait une carte face cachée",
    "dozito.tap_spot": "Touchez la case.",
    "dozito.color.red": "rouge",
    "dozito.color.blue": "bleu",
    "dozito.color.green": "vert",
    "dozito.color.purple": "violet",
    "dozito.color.yellow": "jaune",
    "kind.start_round": "Début de manche",
    "kind.draw": "Piocher",
    "kind.place": "Placer",
    "kind.discard": "Défausser",
    "move.start_round": "début de manche",
    "move.draw": "pioche",
    "move.place": "place",
    "move.discard": "défausse",
  },
};
const { t, has } = wording(WORDS);

/** The round a move was played in (a replay heads its moves by round): the round
 * after it, since each round opens with a move of its own (`start_round`), and
 * the game is at round 0 before the first. */
function roundOf(before, after) {
  return after.round;
}

export default {
  moves, state, cardName, said, offline,
  optionFields, tieBreak, roundOf, say: t,
};
