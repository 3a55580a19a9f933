// Double Donkey's moves (docs/api.md): roll, choose, last die, reveal, roll-off.
import { button, chips, field, h, select, titleCase } from "../dom.js";

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
  const dice = free.map((color) => [color, die(`${titleCase(color)} die`, `dd-${color}`)]);
  const missing = h("p", { class: "muted", "aria-live": "polite" });
  return h("div", {}, dice.map(([, d]) => d), missing,
    button(`${player} rolls`, () => {
      const left = unset(dice);
      if (left.length) {
        missing.textContent = `Tap what the ${left.map(titleCase).join(", ")} ${
          left.length > 1 ? "dice show" : "die shows"}.`;
        return;
      }
      submit({ type: "roll", player,
        dice: Object.fromEntries(dice.map(([color, d]) => [color, d.pips()])) });
    }, { class: "primary" }));
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
  const again = die("Rolled again: the die shows");
  return h("div", {},
    button("Keep the last die as it is",
      () => submit({ type: "last_die", player, reroll: null }), { class: "primary" }),
    again,
    button("Roll it once more", () => {
      if (again.pips() !== null) submit({ type: "last_die", player, reroll: again.pips() });
    }));
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
  const rolls = s.roll_off.map((p) => [p, die(`${p} rolled`)]);
  const missing = h("p", { class: "muted", "aria-live": "polite" });
  return h("div", {},
    h("p", {}, `Roll-off for the Biggest Donkey: ${s.roll_off.join(", ")}`),
    rolls.map(([, d]) => d), missing,
    button("Log the roll-off", () => {
      const left = unset(rolls);
      if (left.length) {
        missing.textContent = `Tap what ${left.join(", ")} rolled.`;
        return;
      }
      submit({ type: "roll_off",
        rolls: Object.fromEntries(rolls.map(([p, d]) => [p, d.pips()])) });
    }, { class: "primary" }));
}
