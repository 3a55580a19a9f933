// The public state of each game (docs/api.md, "Public state"), as the table reads it.
import { h, titleCase } from "./dom.js";
import { nameCell } from "./sheet.js";

export function renderState(kind, state, players) {
  if (kind === "dozito") return dozitoState(state, players);
  if (kind === "double-donkey") return donkeyState(state, players);
  return dobroState(state, players);
}

function facts(pairs) {
  return h("dl", { class: "facts" }, pairs.filter(Boolean).map(([term, value]) =>
    h("div", {}, h("dt", {}, term), h("dd", {}, value))));
}

function playerTable(caption, players, columns) {
  return h("div", { class: "scroll" }, h("table", {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "name" }, "Player"),
      columns.map(([title]) => h("th", { scope: "col" }, title)))),
    h("tbody", {}, players.map((player) => h("tr", {},
      nameCell(player),
      columns.map(([, value]) => {
        const shown = value(player);
        return h("td", { class: typeof shown === "number" ? null : "text" }, shown);
      }))))));
}

export function dobroCard(card) {
  return typeof card === "number" ? String(card) : titleCase(card);
}

function dobroState(s, players) {
  return h("div", {},
    facts([
      ["Round", `${s.round} of ${s.rounds}`],
      ["Next", s.next_player ?? "nobody: the game is over"],
      ["Direction", s.direction],
      ["Value in play", s.value_in_play ?? "none: the next player opens a climb"],
      ["Cards in play", s.cards_in_play.map(dobroCard).join(", ") || "none"],
      ["Draw pile", `${s.draw_pile_size} cards`],
      ["Forgetful card", s.forgetful ?? "in the centre"],
    ]),
    playerTable("Players", players, [
      ["Hand", (p) => s.hand_sizes[p]],
      ["Score pile", (p) => s.score_piles[p]],
      ["Points", (p) => s.totals[p]],
    ]));
}

export function dozitoCard(card) {
  if (!card) return "face down";
  const name = card.joker ? `${card.color} joker` : `${card.color} ${card.number}`;
  const marks = [card.suns ? `${card.suns}☀` : "", card.stop ? "STOP" : "",
    card.replay ? "replay" : ""].filter(Boolean);
  return marks.length ? `${name} (${marks.join(", ")})` : name;
}

function dozitoGrid(player, grid) {
  const cells = grid.map((card, i) => h("td", {
    class: card ? `dz dz-${card.color}` : "dz down",
  }, card ? (card.joker ? "J" : String(card.number)) : "·",
  h("span", { class: "sr" }, ` spot ${i + 1}: ${dozitoCard(card)}`)));
  const rows = [0, 1, 2].map((r) => h("tr", {}, cells.slice(r * 4, r * 4 + 4)));
  return h("table", { class: "grid" }, h("caption", {}, player), h("tbody", {}, rows));
}

function dozitoState(s, players) {
  return h("div", {},
    facts([
      ["Round", `${s.round} of ${s.rounds}`],
      ["Waiting for", s.phase.replaceAll("_", " ")],
      ["Next", s.next_player ?? "nobody"],
      ["Held card", s.held ? dozitoCard(s.held) : "none"],
      ["Left pile", s.discard_tops.left ? dozitoCard(s.discard_tops.left) : "empty"],
      ["Right pile", s.discard_tops.right ? dozitoCard(s.discard_tops.right) : "empty"],
      ["Draw pile", `${s.draw_pile_size} cards`],
      s.final_turns && ["Final turns for", s.final_turns.join(", ")],
    ]),
    h("div", { class: "grids" }, players.map((p) => dozitoGrid(p, s.grids[p]))),
    playerTable("Totals", players, [["Points", (p) => s.totals[p]]]));
}

export function donkeyCard(card) {
  return card.angry ? `Angry ${titleCase(card.angry)}`
    : `${card.colors.map(titleCase).join("/")} Double`;
}

function donkeyState(s, players) {
  const dice = (faces) => Object.entries(faces)
    .map(([color, pips]) => `${titleCase(color)} ${pips}`).join(", ") || "none";
  return h("div", {},
    facts([
      ["Round", s.round],
      ["Waiting for", s.expecting.replaceAll("_", " ")],
      ["Next", s.next_player ?? (s.expecting === "roll_off" ? "the tied players roll"
        : s.expecting === "reveal" ? "everyone reveals" : "nobody")],
      ["Dice holder", s.dice_holder],
      ["Hay card", dice(s.hay)],
      Object.keys(s.rolled).length && ["Just rolled", dice(s.rolled)],
      s.roll_off && ["Roll-off among", s.roll_off.join(", ")],
      ["Biggest Donkey", s.biggest_donkey ?? "nobody yet"],
      ["Draw pile", `${s.draw_pile_size} cards`],
    ]),
    playerTable("Players", players, [
      ["Hand", (p) => s.hand_sizes[p]],
      ["Pile", (p) => s.personal_piles[p]],
      ["Revealed", (p) => (s.revealed[p] || [])
        .map((card, i) => `${donkeyCard(card)} (${s.values[p]?.[i] ?? "?"})`).join(", ")],
    ]));
}
