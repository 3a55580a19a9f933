// Double Donkey's moves (docs/api.md): roll, choose, last die, reveal, roll-off.
import { button, field, h, select, titleCase } from "../dom.js";

const COLORS = ["light_blue", "orange", "dark_blue", "purple", "yellow", "green"];
const PIPS = [1, 2, 3, 4, 5, 6].map((n) => [n, n]);

export function donkeyMoves(game, submit) {
  const s = game.state;
  const player = s.next_player;
  const turn = player ? h("p", { class: "turn" }, `${player}'s turn`) : null;
  const moves = { roll, choose, last_die: lastDie, reveal, roll_off: rollOff };
  const make = moves[s.expecting];
  return h("div", {}, turn, make ? make(game, s, player, submit) : null);
}

function roll(game, s, player, submit) {
  const free = COLORS.filter((c) => !(c in s.hay));
  const dice = free.map((color) => [color, select(PIPS, 1)]);
  return h("div", {},
    h("div", { class: "row" }, dice.map(([color, die]) =>
      field(`${titleCase(color)} die`, die))),
    button(`${player} rolls`, () => submit({
      type: "roll", player,
      dice: Object.fromEntries(dice.map(([color, die]) => [color, Number(die.value)])),
    }), { class: "primary" }));
}

function choose(game, s, player, submit) {
  // K5: a value already on the Hay card only when every rolled die shows one.
  const onHay = new Set(Object.values(s.hay));
  const rolled = Object.entries(s.rolled);
  const fresh = rolled.filter(([, pips]) => !onHay.has(pips));
  return h("div", { class: "row" }, (fresh.length ? fresh : rolled).map(([color, pips]) =>
    button(`Put the ${titleCase(color)} ${pips} on the Hay`,
      () => submit({ type: "choose", player, color }))));
}

function lastDie(game, s, player, submit) {
  const again = select(PIPS, 1);
  return h("div", {},
    button("Keep the last die as it is",
      () => submit({ type: "last_die", player, reroll: null }), { class: "primary" }),
    h("div", { class: "row" }, field("Rolled again", again),
      button("Roll it once more", () => submit({
        type: "last_die", player, reroll: Number(again.value),
      }))));
}

function cardFields(n) {
  const kind = select([["double", "Double"], ["angry", "Angry"]], "double");
  const one = select(COLORS.map((c) => [c, titleCase(c)]), COLORS[0]);
  const two = select(COLORS.map((c) => [c, titleCase(c)]), COLORS[1]);
  const twoField = field("Second colour", two);
  kind.addEventListener("change", () => { twoField.hidden = kind.value === "angry"; });
  const box = h("div", { class: "row picker" },
    field(`Card ${n}`, kind), field("Colour", one), twoField);
  box.card = () => (kind.value === "angry"
    ? { angry: one.value } : { colors: [one.value, two.value] });
  return box;
}

function reveal(game, s, player, submit) {
  const holders = game.players.filter((p) => s.hand_sizes[p] > 0);
  const hands = holders.map((holder) => {
    const count = select([1, 2, 3].filter((n) => n <= s.hand_sizes[holder])
      .map((n) => [n, n]), 1);
    const cards = h("div");
    const update = () => cards.replaceChildren(
      ...Array.from({ length: Number(count.value) }, (_, i) => cardFields(i + 1)));
    count.addEventListener("change", update);
    update();
    const box = h("fieldset", {}, h("legend", {}, `${holder} reveals`),
      field("How many cards", count), cards);
    box.cards = () => [...cards.children].map((c) => c.card());
    return [holder, box];
  });
  return h("div", {}, hands.map(([, box]) => box),
    button("Reveal", () => submit({
      type: "reveal",
      cards: Object.fromEntries(hands.map(([holder, box]) => [holder, box.cards()])),
    }), { class: "primary" }));
}

function rollOff(game, s, player, submit) {
  const rolls = s.roll_off.map((p) => [p, select(PIPS, 1)]);
  return h("div", {},
    h("p", {}, `Roll-off for the Biggest Donkey: ${s.roll_off.join(", ")}`),
    h("div", { class: "row" }, rolls.map(([p, die]) => field(`${p} rolled`, die))),
    button("Log the roll-off", () => submit({
      type: "roll_off",
      rolls: Object.fromEntries(rolls.map(([p, die]) => [p, Number(die.value)])),
    }), { class: "primary" }));
}
