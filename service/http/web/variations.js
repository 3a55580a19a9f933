// Variations beside their original: "what if" games branched from a replay's step.
// A variation says where it came from, with a link back to the original at that
// step; the original lists the variations tried from it, with a link to each. The
// service keeps a variation out of the game list and the players' records.
import { api, tokens } from "./api.js";
import { button, h, refusalBox } from "./dom.js";
import { t } from "./i18n.js";

/** Where a variation came from, with a link back (nothing for another game). */
export function variationOf(game) {
  const from = game.variation_of;
  if (!from) return null;
  return h("p", { class: "variation-of" }, t("variations.of", { step: from.step }), " ",
    h("a", { href: `#/games/${from.game}/replay/${from.step}` }, t("variations.original")));
}

/** The variations tried from a game, each with its step and a link to it. */
export async function variationsList(id) {
  const found = await api.get(`/games/${id}/variations?limit=100`);
  if (!found.games.length) return null;
  return h("section", { class: "card", "aria-labelledby": "variations-title" },
    h("h2", { id: "variations-title" }, t("variations.title")),
    h("ul", {}, found.games.map((game) => h("li", {},
      h("a", { href: `#/games/${game.id}` },
        t("variations.from_step", { step: game.variation_of.step }))))));
}

/** "Try another move here": a new game from the step shown (`step()`), with its write
 * token kept on this phone, opened to log its moves. */
export function tryAnotherMove(id, step) {
  const refusal = h("div");
  const tryIt = button(t("variations.try"), async () => {
    tryIt.disabled = true;
    let variation;
    try {
      variation = await api.post(`/games/${id}/variations`, { at: step() });
    } catch (error) {
      tryIt.disabled = false;
      refusal.replaceChildren(refusalBox(error));
      return;
    }
    tokens.set(variation.id, variation.write_token);
    location.hash = `#/games/${variation.id}`;
  });
  return [tryIt, refusal];
}
