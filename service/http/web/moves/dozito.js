// Dozito's moves (docs/api.md, "Dozito moves"): start_round, draw, place, discard.
import { button, chips, field, h, select, titleCase, toggle } from "../dom.js";
import { t } from "../i18n.js";
import { dozitoCard } from "../state.js";

const DEFAULT_COLORS = ["red", "blue", "green", "purple", "yellow"];

/** One card as the table states it, in taps: a colour chip, a number from the pad
 * (or Joker), its suns, STOP and Replay; `.card()` reads it. */
function cardPicker(legend, colors) {
  const card = { color: colors[0], number: 1, suns: 0, joker: false, stop: false,
    replay: false };
  const pad = chips(t("dozito.number"), "number",
    [...Array(12).keys()].map((i) => [i + 1, i + 1]), 1, (n) => { card.number = n; },
    { class: "chips pad" });
  const box = h("fieldset", { class: "picker" }, h("legend", {}, legend),
    chips(t("dozito.colour"), "color", colors.map((c) => [c, titleCase(c), `dz dz-${c}`]), colors[0],
      (c) => { card.color = c; }),
    pad,
    chips(t("dozito.suns"), "suns",
      [0, 1, 2, 3].map((n) => [n, n ? t("dozito.sun_count", { count: n }) : "0"]), 0,
      (n) => { card.suns = n; }),
    h("div", { class: "chips toggles", role: "group", "aria-label": t("dozito.marks") },
      toggle(t("dozito.toggle_joker"), (on) => { card.joker = on; pad.hidden = on; }),
      toggle(t("dozito.toggle_stop"), (on) => { card.stop = on; }),
      toggle(t("dozito.toggle_replay"), (on) => { card.replay = on; })));
  box.card = () => {
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

export function dozitoMoves(game, submit) {
  const s = game.state;
  const colors = game.options.colors || DEFAULT_COLORS;
  const player = s.next_player;
  if (s.phase === "start_round") return startRound(s, colors, submit);
  if (s.phase === "draw") return draw(s, player, colors, submit);
  const parts = [h("p", { class: "turn" },
    t("dozito.holds", { player, card: dozitoCard(s.held) }))];
  // The moves the state allows (`allowed`): the page does not work the phases out.
  const may = new Set(s.allowed ?? ["place", "discard"]);
  if (may.has("place")) parts.push(place(s, player, colors, submit));
  if (may.has("discard")) {
    parts.push(h("div", { class: "row" }, ["left", "right"].map((pile) =>
      button(t(`dozito.discard_${pile}`),
        () => submit({ type: "discard", player, pile })))));
  }
  return h("div", {}, parts);
}

function startRound(s, colors, submit) {
  const left = cardPicker(t("dozito.left_shows"), colors);
  const right = cardPicker(t("dozito.right_shows"), colors);
  const starter = s.starter_choices.length
    ? select(s.starter_choices.map((p) => [p, p]), s.starter_choices[0]) : null;
  return h("div", {},
    h("p", { class: "turn" }, t("dozito.deal", { round: s.round + 1 })),
    left, right, starter ? field(t("dozito.who_starts"), starter) : null,
    button(t("dozito.start_round", { round: s.round + 1 }), () => {
      const move = { type: "start_round", discards: [left.card(), right.card()] };
      if (starter) move.starter = starter.value;
      submit(move);
    }, { class: "primary" }));
}

function draw(s, player, colors, submit) {
  let source = "deck";
  const picker = cardPicker(t("dozito.card_drawn"), colors);
  const sources = [["deck", t("dozito.the_deck")]];
  for (const side of ["left", "right"]) {
    const top = s.discard_tops[side];
    if (top) sources.push([`discard_${side}`, t(`dozito.${side}_top`, { card: dozitoCard(top) })]);
  }
  return h("div", {},
    h("p", { class: "turn" }, t("dozito.turn", { player })),
    chips(t("dozito.draw_from"), "source", sources, source, (value) => {
      source = value;
      picker.hidden = value !== "deck";
    }),
    picker,
    button(t("dozito.draws", { player }), () => {
      const move = { type: "draw", player, source };
      if (source === "deck") move.card = picker.card();
      submit(move);
    }, { class: "primary" }));
}

function place(s, player, colors, submit) {
  const grid = s.grids[player];
  let spot = s.held?.number ?? 1;
  const revealed = cardPicker(t("dozito.uncovers"), colors);
  // `revealed` is stated exactly when the displaced card was face down (Z4).
  const showReveal = () => { revealed.hidden = grid[spot - 1] !== null; };
  const spots = chips(t("dozito.place_on", { player }), "spot", grid.map((card, i) => [
    i + 1, h("span", {}, h("span", { class: "sr" },
      t("dozito.spot", { n: i + 1, card: dozitoCard(card) })),
      h("span", { "aria-hidden": "true" }, card ? (card.joker ? "J" : String(card.number))
        : `${i + 1}·`)),
    card ? `dz dz-${card.color}` : "dz down"]), spot,
  (n) => { spot = n; showReveal(); }, { class: "chips spots" });
  showReveal();
  return h("div", {},
    spots, revealed,
    button(t("dozito.place"), () => {
      const move = { type: "place", player, spot };
      if (!revealed.hidden) move.revealed = revealed.card();
      submit(move);
    }, { class: "primary" }));
}
