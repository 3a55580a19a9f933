// Dozito's moves (docs/api.md, "Dozito moves"): start_round, draw, place, discard.
import { button, chips, field, h, select, titleCase } from "../dom.js";
import { dozitoCard } from "../state.js";

const DEFAULT_COLORS = ["red", "blue", "green", "purple", "yellow"];

/** Fields for one card as the table states it; `.card()` reads it. */
function cardPicker(legend, colors) {
  const color = select(colors.map((c) => [c, titleCase(c)]), colors[0]);
  const number = select([...Array(12).keys()].map((i) => [i + 1, i + 1]), 1);
  const joker = h("input", { type: "checkbox" });
  const suns = select([["", "0, or 3 on a STOP"], [1, 1], [2, 2], [3, 3]], "");
  const stop = h("input", { type: "checkbox" });
  const replay = h("input", { type: "checkbox" });
  const numberField = field("Number", number);
  joker.addEventListener("change", () => { numberField.hidden = joker.checked; });
  const box = h("fieldset", { class: "picker" }, h("legend", {}, legend),
    h("div", { class: "row" }, field("Colour", color), numberField, field("Suns", suns)),
    h("div", { class: "row" },
      h("label", { class: "check" }, joker, " Joker"),
      h("label", { class: "check" }, stop, " STOP"),
      h("label", { class: "check" }, replay, " Replay")));
  box.card = () => {
    const card = { color: color.value };
    if (joker.checked) card.joker = true;
    else card.number = Number(number.value);
    if (suns.value !== "") card.suns = Number(suns.value);
    if (stop.checked) card.stop = true;
    if (replay.checked) card.replay = true;
    return card;
  };
  return box;
}

export function dozitoMoves(game, submit) {
  const s = game.state;
  const colors = game.options.colors || DEFAULT_COLORS;
  const player = s.next_player;
  if (s.phase === "start_round") return startRound(s, colors, submit);
  if (s.phase === "draw") return draw(s, player, colors, submit);
  const parts = [h("p", { class: "turn" }, `${player} holds the ${dozitoCard(s.held)}`)];
  if (s.phase !== "discard") parts.push(place(s, player, colors, submit));
  if (s.phase !== "place") {
    parts.push(h("div", { class: "row" }, ["left", "right"].map((pile) =>
      button(`Discard on the ${pile} pile`,
        () => submit({ type: "discard", player, pile })))));
  }
  return h("div", {}, parts);
}

function startRound(s, colors, submit) {
  const left = cardPicker("Left discard pile shows", colors);
  const right = cardPicker("Right discard pile shows", colors);
  const starter = s.starter_choices.length
    ? select(s.starter_choices.map((p) => [p, p]), s.starter_choices[0]) : null;
  return h("div", {},
    h("p", { class: "turn" }, `Deal round ${s.round + 1}, then state the two discards.`),
    left, right, starter ? field("Who starts (tied players)", starter) : null,
    button(`Start round ${s.round + 1}`, () => {
      const move = { type: "start_round", discards: [left.card(), right.card()] };
      if (starter) move.starter = starter.value;
      submit(move);
    }, { class: "primary" }));
}

function draw(s, player, colors, submit) {
  let source = "deck";
  const picker = cardPicker("The card drawn", colors);
  const sources = [["deck", "The deck"]];
  for (const side of ["left", "right"]) {
    const top = s.discard_tops[side];
    if (top) sources.push([`discard_${side}`, `${titleCase(side)} pile: ${dozitoCard(top)}`]);
  }
  return h("div", {},
    h("p", { class: "turn" }, `${player}'s turn`),
    chips("Draw from", "source", sources, source, (value) => {
      source = value;
      picker.hidden = value !== "deck";
    }),
    picker,
    button(`${player} draws`, () => {
      const move = { type: "draw", player, source };
      if (source === "deck") move.card = picker.card();
      submit(move);
    }, { class: "primary" }));
}

function place(s, player, colors, submit) {
  const grid = s.grids[player];
  const spot = select([...Array(12).keys()].map((i) => [i + 1, `Spot ${i + 1}`]),
    s.held?.number ?? 1);
  const revealed = cardPicker("The face-down card it uncovers", colors);
  // `revealed` is stated exactly when the displaced card was face down (Z4).
  const showReveal = () => { revealed.hidden = grid[Number(spot.value) - 1] !== null; };
  spot.addEventListener("change", showReveal);
  showReveal();
  return h("div", {},
    field("Place on", spot), revealed,
    button("Place the card", () => {
      const move = { type: "place", player, spot: Number(spot.value) };
      if (!revealed.hidden) move.revealed = revealed.card();
      submit(move);
    }, { class: "primary" }));
}
