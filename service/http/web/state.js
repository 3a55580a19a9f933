// The public state of each game (docs/api.md, "Public state"), as the table reads it.
import { h } from "./dom.js";
import { t } from "./i18n.js";
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
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "name" }, t("state.player")),
      columns.map(([title]) => h("th", { scope: "col" }, title)))),
    h("tbody", {}, players.map((player) => h("tr", {},
      nameCell(player),
      columns.map(([, value]) => {
        const shown = value(player);
        return h("td", { class: typeof shown === "number" ? null : "text" }, shown);
      }))))));
}

export function dobroCard(card) {
  return typeof card === "number" ? String(card) : t(`dobro.${card}`);
}

function dobroState(s, players) {
  return h("div", {},
    facts([
      [t("state.round"), t("state.round_of", { round: s.round, rounds: s.rounds })],
      [t("state.next"), s.next_player ?? t("state.nobody_over")],
      [t("state.direction"), t(`state.${s.direction}`)],
      [t("state.value_in_play"), s.value_in_play ?? t("state.no_value")],
      [t("state.cards_in_play"), s.cards_in_play.map(dobroCard).join(", ") || t("state.none")],
      [t("state.draw_pile"), t("state.cards", { count: s.draw_pile_size })],
      [t("state.forgetful"), s.forgetful ?? t("state.in_the_centre")],
    ]),
    playerTable(t("state.players"), players, [
      [t("state.hand"), (p) => s.hand_sizes[p]],
      [t("state.score_pile"), (p) => s.score_piles[p]],
      [t("state.points"), (p) => s.totals[p]],
    ]));
}

export function dozitoCard(card) {
  if (!card) return t("dozito.face_down");
  const name = card.joker ? t("dozito.joker", { color: card.color })
    : t("dozito.card", { color: card.color, number: card.number });
  const marks = [card.suns ? `${card.suns}☀` : "", card.stop ? "STOP" : "",
    card.replay ? t("dozito.replay") : ""].filter(Boolean);
  return marks.length ? t("dozito.marked", { card: name, marks: marks.join(", ") }) : name;
}

function dozitoGrid(player, grid) {
  const cells = grid.map((card, i) => h("td", {
    class: card ? `dz dz-${card.color}` : "dz down",
  }, card ? (card.joker ? "J" : String(card.number)) : "·",
  h("span", { class: "sr" }, t("state.spot", { n: i + 1, card: dozitoCard(card) }))));
  const rows = [0, 1, 2].map((r) => h("tr", {}, cells.slice(r * 4, r * 4 + 4)));
  return h("table", { class: "grid" }, h("caption", {}, player), h("tbody", {}, rows));
}

function dozitoState(s, players) {
  return h("div", {},
    facts([
      [t("state.round"), t("state.round_of", { round: s.round, rounds: s.rounds })],
      [t("state.waiting_for"), t(`phase.${s.phase}`)],
      [t("state.next"), s.next_player ?? t("state.nobody")],
      [t("state.held_card"), s.held ? dozitoCard(s.held) : t("state.none")],
      [t("state.left_pile"), s.discard_tops.left ? dozitoCard(s.discard_tops.left)
        : t("state.empty")],
      [t("state.right_pile"), s.discard_tops.right ? dozitoCard(s.discard_tops.right)
        : t("state.empty")],
      [t("state.draw_pile"), t("state.cards", { count: s.draw_pile_size })],
      s.final_turns && [t("state.final_turns"), s.final_turns.join(", ")],
    ]),
    h("div", { class: "grids" }, players.map((p) => dozitoGrid(p, s.grids[p]))),
    playerTable(t("state.totals"), players, [[t("state.points"), (p) => s.totals[p]]]));
}

export function donkeyCard(card) {
  return card.angry ? t("donkey.angry", { color: t(`color.${card.angry}`) })
    : t("donkey.double", { first: t(`color.${card.colors[0]}`),
      second: t(`color.${card.colors[1]}`) });
}

function donkeyState(s, players) {
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
        .map((card, i) => t("donkey.card_value", { card: donkeyCard(card),
          value: s.values[p]?.[i] ?? "?" })).join(", ")],
    ]));
}
