// Variations beside their original: "what if" games branched from a replay's step.
// A variation says where it came from, with a link back to the original at that
// step; the original's move list shows each variation under the step it branches
// from, with a link to it, and to a phone that may write it or its game, the
// controls to rename it and to hide it from that list. Making one, renaming one and
// hiding one are each asked to be confirmed first. The service keeps a variation
// out of the game list and the players' records, and a hidden one out of its
// game's variations, still a game at its address.
import { api, gameGroups, readerOf, tokens, writerOf } from "./api.js";
import { button, field, h, refusalBox, say } from "./dom.js";
import { t } from "./i18n.js";

// As the service bounds a variation's name (docs/api.md, "Variations").
const NAME_LENGTH = 80;

/** Where a variation came from, with a link back (nothing for another game). */
export function variationOf(game) {
  const from = game.variation_of;
  if (!from) return null;
  return h("p", { class: "variation-of" }, t("variations.of", { step: from.step }), " ",
    h("a", { href: `#/games/${from.game}/replay/${from.step}` }, t("variations.original")));
}

/** The variations tried from game `id` that the service lists, hidden ones left out
 * (read with the game's group key where this phone holds one). */
export async function variationsOf(id) {
  return (await readerOf(id)(`/games/${id}/variations?limit=100`)).games;
}

/** A variation's name, or where it starts from until it has one. */
export const variationName = (variation) => variation.name
  ?? t("variations.from_step", { step: variation.variation_of.step });

/** One variation of game `game` as its move list shows it: a link to it and, when
 * this phone may write the variation or its game, the controls to rename it and to
 * hide it. `changed(variation)` is told of a name given, `hidden(variation)` of a
 * variation hidden. */
export function variationItem(game, variation, { changed, hidden }) {
  const name = variationName(variation);
  const writer = tokens.get(variation.id) ?? writerOf(game.id, game.group);
  const item = h("li", { class: "variation" },
    h("a", { href: `#/games/${variation.id}` }, name));
  if (!writer) return item;
  const refusal = h("div");
  const path = `/games/${game.id}/variations/${variation.id}`;
  const send = async (body) => {
    try {
      return await api.patch(path, body, writer);
    } catch (error) {
      refusal.replaceChildren(refusalBox(error));
      return null;
    }
  };
  const rename = button(t("variations.rename"), () => {
    rename.hidden = true;
    item.append(nameForm(variation, async (newName) => {
      if (!confirm(t("variations.rename_confirm", { name, to: newName }))) return;
      const answer = await send({ name: newName });
      if (!answer) return;
      say(t("variations.renamed", { name: answer.name }));
      changed({ ...variation, name: answer.name });
    }, () => { rename.hidden = false; rename.focus(); }));
  }, { "aria-label": t("variations.rename_named", { name }) });
  const hide = button(t("variations.hide"), async () => {
    if (!confirm(t("variations.hide_confirm", { name }))) return;
    if (!await send({ hidden: true })) return;
    say(t("variations.hidden", { name }));
    hidden(variation);
  }, { "aria-label": t("variations.hide_named", { name }) });
  item.append(" ", rename, " ", hide, refusal);
  return item;
}

/** The form that names a variation: `save(name)` once a name is typed, `cancel()`
 * when the form is put away. */
function nameForm(variation, save, cancel) {
  const input = h("input", {
    type: "text", maxlength: String(NAME_LENGTH), required: true,
    value: variation.name ?? "", autocomplete: "off",
  });
  const form = h("form", { class: "name-form row" },
    field(t("variations.name"), input),
    h("button", { type: "submit" }, t("variations.save_name")),
    button(t("variations.cancel"), () => { form.remove(); cancel(); }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!input.value.trim()) {
      input.focus();
      return;
    }
    save(input.value.trim());
  });
  queueMicrotask(() => input.focus());
  return form;
}

/** "Try another move here": once confirmed, a new game from the step shown
 * (`step()`), with its write token kept on this phone, opened to log its moves. */
export function tryAnotherMove(id, step) {
  const refusal = h("div");
  const tryIt = button(t("variations.try"), async () => {
    if (!confirm(t("variations.try_confirm", { step: step() }))) return;
    tryIt.disabled = true;
    let variation;
    try {
      variation = await api.post(`/games/${id}/variations`, { at: step() },
        gameGroups.key(id));
    } catch (error) {
      tryIt.disabled = false;
      refusal.replaceChildren(refusalBox(error));
      return;
    }
    tokens.set(variation.id, variation.write_token);
    gameGroups.follow(variation.id, id); // it keeps its game's group, and is read so
    location.hash = `#/games/${variation.id}`;
  });
  return [tryIt, refusal];
}
