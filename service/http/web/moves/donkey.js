// Double Donkey's moves (docs/api.md): roll, choose, last die, reveal, roll-off.
import { button, chips, field, h, select } from "../dom.js";
import { t } from "../i18n.js";

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

export function donkeyMoves(game, submit) {
  const s = game.state;
  const player = s.next_player;
  const turn = player ? h("p", { class: "turn" }, t("donkey.turn", { player })) : null;
  const moves = { roll, choose, last_die: lastDie, reveal, roll_off: rollOff };
  // The move the state allows (`allowed`: none once over or abandoned).
  const make = moves[(s.allowed ?? [s.expecting])[0]];
  return h("div", {}, turn, make ? make(game, s, player, submit) : null);
}

function roll(game, s, player, submit) {
  const free = COLORS.filter((c) => !(c in s.hay));
  const dice = free.map((color) =>
    [color, die(t("donkey.die", { color: colorName(color) }), `dd-${color}`)]);
  const missing = h("p", { class: "muted", "aria-live": "polite" });
  return h("div", {}, dice.map(([, d]) => d), missing,
    button(t("donkey.rolls", { player }), () => {
      const left = unset(dice);
      if (left.length) {
        missing.textContent = t("donkey.tap_dice",
          { colors: left.map(colorName), count: left.length });
        return;
      }
      submit({ type: "roll", player,
        dice: Object.fromEntries(dice.map(([color, d]) => [color, d.pips()])) });
    }, { class: "primary" }));
}

function choose(game, s, player, submit) {
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

function cardFields(n) {
  const kind = select([["double", t("donkey.kind_double")],
    ["angry", t("donkey.kind_angry")]], "double");
  const one = select(COLORS.map((c) => [c, colorName(c)]), COLORS[0]);
  const two = select(COLORS.map((c) => [c, colorName(c)]), COLORS[1]);
  const twoField = field(t("donkey.second_colour"), two);
  kind.addEventListener("change", () => { twoField.hidden = kind.value === "angry"; });
  const box = h("div", { class: "row picker" },
    field(t("donkey.card_n", { n }), kind), field(t("donkey.colour"), one), twoField);
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
    const box = h("fieldset", {}, h("legend", {}, t("donkey.reveals", { player: holder })),
      field(t("donkey.how_many_cards"), count), cards);
    box.cards = () => [...cards.children].map((c) => c.card());
    return [holder, box];
  });
  return h("div", {}, hands.map(([, box]) => box),
    button(t("donkey.reveal"), () => submit({
      type: "reveal",
      cards: Object.fromEntries(hands.map(([holder, box]) => [holder, box.cards()])),
    }), { class: "primary" }));
}

function rollOff(game, s, player, submit) {
  const rolls = s.roll_off.map((p) => [p, die(t("donkey.rolled", { player: p }))]);
  const missing = h("p", { class: "muted", "aria-live": "polite" });
  return h("div", {},
    h("p", {}, t("donkey.roll_off_for", { players: s.roll_off.join(", ") })),
    rolls.map(([, d]) => d), missing,
    button(t("donkey.log_roll_off"), () => {
      const left = unset(rolls);
      if (left.length) {
        missing.textContent = t("donkey.tap_rolled", { players: left });
        return;
      }
      submit({ type: "roll_off",
        rolls: Object.fromEntries(rolls.map(([p, d]) => [p, d.pips()])) });
    }, { class: "primary" }));
}
