// Dozito as the page draws it: its moves (docs/api.md, "Dozito moves": start_round,
// draw, place, discard), its public state with each player's grid, and its colours at
// the start of a game (their default from the service, `GET /games/kinds`).
import { button, chips, field, h, select, titleCase, toggle } from "../dom.js";
import { has, t } from "../i18n.js";
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
    parts.push(h("div", { class: "row" }, ["left", "right"].map((pile) =>
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
  for (const side of ["left", "right"]) {
    const top = s.discard_tops[side];
    // Offline the piles' tops are not known: both piles are offered, unnamed.
    if (game.offline) sources.push([`discard_${side}`, t(`dozito.${side}_pile`)]);
    else if (top) {
      sources.push([`discard_${side}`, t(`dozito.${side}_top`, { card: cardName(top) })]);
    }
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
  // Z4: the spot of the held card's number; offline the card held is not known.
  let spot = game.offline ? null : s.held?.number ?? 1;
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

export default { moves, state, cardName, said, offline, optionFields };
