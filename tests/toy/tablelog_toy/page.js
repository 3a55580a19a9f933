// Nim as the page draws it: its one move (take 1 to 3 matches), the matches left, the
// number of matches at the start of a game and its words in English and French. The
// service serves this module, a file of the game's package, as the page's
// `games/nim.js`; it imports the page's own modules as any game's module does.
import { button, field, h } from "../dom.js";
import { wording } from "../i18n.js";
import { option } from "../kinds.js";
import { facts } from "../tables.js";

// --- moves ----------------------------------------------------------------------------

/** A button for each count the rules allow now (`choices`); offline, every count. */
function moves(game, submit) {
  const player = game.state.next_player;
  const counts = game.offline ? [1, 2, 3] : game.state.choices?.pick?.count ?? [];
  return h("div", {},
    h("p", { class: "turn" }, t("nim.turn", { player })),
    h("div", { class: "row" }, counts.map((count) =>
      button(t("nim.takes", { player, count }),
        () => submit({ type: "pick", player, count })))));
}

const offline = { kinds: ["pick"], playerless: [] };

/** A move waiting to be sent, as the service words it. */
function said(body) {
  return t("nim.takes", { player: body.player, count: body.count });
}

// --- state ----------------------------------------------------------------------------

function state(s) {
  return facts([
    [t("nim.matches"), s.matches],
    [t("state.next"), s.next_player ?? t("state.nobody")],
  ]);
}

// Nim has no cards.
const cardName = String;

// --- options at the start of a game ---------------------------------------------------

/** The matches on the table at the start, within the bounds the service gives. */
function optionFields(kind) {
  const schema = option(kind, "matches");
  const matches = h("input", {
    type: "number", inputmode: "numeric", name: "matches", value: String(schema.default),
    min: String(schema.minimum), max: String(schema.maximum),
  });
  return {
    element: field(t("nim.matches_at_start"), matches),
    update() {},
    chosen() {
      const count = Number(matches.value);
      return count === schema.default ? {} : { matches: count };
    },
  };
}

// --- words ----------------------------------------------------------------------------

// The module's words in each language the page speaks, said before the page's own
// (`wording`).
const WORDS = {
  en: {
    "nim.turn": "{player}'s turn",
    "nim.takes": { one: "{player} takes {count} match", other: "{player} takes {count} matches" },
    "nim.matches": "Matches left",
    "nim.matches_at_start": "Matches at the start",
    "kind.pick": "Take matches",
    "move.pick": "take matches",
  },
  fr: {
    "nim.turn": "Au tour de {player}",
    "nim.takes": { one: "{player} prend {count} allumette", other: "{player} prend {count} allumettes" },
    "nim.matches": "Allumettes restantes",
    "nim.matches_at_start": "Allumettes au début",
    "kind.pick": "Prendre des allumettes",
    "move.pick": "prise d'allumettes",
  },
};
const { t } = wording(WORDS);

export default { moves, state, cardName, said, offline, optionFields, say: t };
