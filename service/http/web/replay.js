// Replay a game step by step, as the best analysis boards do: the board (each
// step's sentence and the state after it) with a slider over the stored moves, and
// beside it (below it on a phone) the move list (steplist.js): every step, the notes
// under their step, the rounds as headings, the variations under the step they
// branch from. The arrow keys on the list, and a swipe on the board, step through
// the game. Then the notes on the step shown, and the score sheet as it stood. The
// address follows the step (`#/games/{id}/replay/{step}`), so a link copied or shared
// opens where its sender was. From any step the table may try another move (a
// variation, variations.js).
import { readerOf, tokens } from "./api.js";
import { button, h, uid } from "./dom.js";
import { gameOf } from "./games.js";
import { t } from "./i18n.js";
import { gameLabel } from "./kinds.js";
import { swipeStep } from "./movelist.js";
import { notesByStep, renderNotes } from "./notes.js";
import { linkBlock, replayLink, shareToggle, stepShares } from "./share.js";
import { renderSheet } from "./sheet.js";
import { stepList } from "./steplist.js";
import { tryAnotherMove, variationItem, variationOf, variationsOf } from "./variations.js";

// Every step, a page at a time: `next` is the `after` of the next page.
async function allSteps(id) {
  const steps = [];
  for (let after = 0; after !== null;) {
    const page = await readerOf(id)(`/games/${id}/replay?after=${after}`);
    steps.push(...page.steps);
    after = page.next;
  }
  return steps;
}

/** The score sheet as it stood after step `n`: a replay's step carries one only where
 * it changed the sheet, so it is the nearest step's at or before `n` that does
 * (`start`, step 0, always has one). */
export function sheetAt(steps, start, n) {
  for (let i = n; i >= 1; i -= 1) {
    if (steps[i - 1].scoresheet) return steps[i - 1].scoresheet;
  }
  return start.scoresheet;
}

/** A step within the game's, whatever an address asked for. */
export function clampStep(n, last) {
  return Math.max(0, Math.min(last, Number.isInteger(n) ? n : 0));
}

export async function showReplay(root, id, asked = 0) {
  const [game, steps, start, found] = await Promise.all([
    readerOf(id)(`/games/${id}`), allSteps(id), readerOf(id)(`/games/${id}/replay/0`),
    variationsOf(id)]);
  const token = tokens.get(id);
  const module = gameOf(game.game);
  let byStep = notesByStep(start, steps);
  let variations = found;
  const last = steps.length;
  const slider = h("input", {
    type: "range", id: "replay-step", min: "0", max: String(last), value: "0",
    step: "1",
  });
  const counter = h("output", { for: "replay-step" });
  const sentence = h("p", { class: "sentence", "aria-live": "polite" });
  const stateBox = h("div");
  const back = button(t("replay.previous"), () => go(Number(slider.value) - 1));
  const next = button(t("replay.next"), () => go(Number(slider.value) + 1));
  const sharePanel = h("div", { class: "card share", id: uid("share"), hidden: true });
  const [shareButton] = shareToggle(sharePanel);
  const sheetBox = h("section", { class: "card replay-sheet", "aria-labelledby": "sheet-title" });
  const notesBox = h("section", { class: "card replay-notes", "aria-labelledby": "notes-title" });
  const [tryIt, tryRefusal] = tryAnotherMove(id, () => Number(slider.value));
  const list = stepList({
    steps, start, roundOf: module.roundOf, go: (n) => { go(n); list.focusStep(n); },
    variationItem: (variation) => variationItem(game, variation, {
      // The focus goes on to what stands where the tapped control was: the link
      // renamed, or the step of the variation hidden.
      changed: (named) => {
        showVariations(variations.map((v) => (v.id === named.id ? named : v)));
        list.box.querySelector(`a[href="#/games/${named.id}"]`)?.focus();
      },
      hidden: (gone) => {
        showVariations(variations.filter((v) => v.id !== gone.id));
        list.focusStep(gone.variation_of.step);
      },
    }),
  });
  const board = h("div", { class: "stage" }, sentence, stateBox);
  swipes(board, (by) => go(Number(slider.value) + by));
  let shown = null;

  function showVariations(now) {
    variations = now;
    list.showVariations(variations);
  }

  const drawNotes = (step) => renderNotes(notesBox, {
    id, step, byStep, token,
    changed: (notes) => {
      byStep = notes;
      list.showNotes(byStep);
      drawNotes(step);
    },
  });

  function go(n) {
    const step = clampStep(n, last);
    slider.value = String(step);
    counter.textContent = t("replay.counter", { step, last });
    sentence.textContent = step === 0 ? t("replay.before") : steps[step - 1].description;
    const state = step === 0 ? start.state : steps[step - 1].state;
    stateBox.replaceChildren(module.state(state, game.players));
    back.disabled = step === 0;
    next.disabled = step === last;
    sharePanel.replaceChildren(stepShares(id, step, t("replay.share_title", { step })),
      linkBlock(t("replay.share_title", { step }), t("replay.share_explain"),
        replayLink(id, step)));
    drawNotes(step);
    list.mark(step);
    const sheet = sheetAt(steps, start, step);
    if (sheet !== shown) renderSheet(sheetBox, game.game, sheet);
    shown = sheet;
    // The address names the step shown, without a new entry in the browser's history
    // for every step slid past (nor a new route: `replaceState` fires no hashchange).
    history.replaceState(null, "", `#/games/${id}/replay/${step}`);
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  // A step the game does not have (an address typed, or a game undone since): said,
  // and the replay opens at the step nearest to it, which the address then names.
  const missing = asked > last ? h("p", { class: "refusal", role: "alert" },
    t("replay.no_such_step", { step: asked, last })) : "";
  root.append(
    h("h1", { tabindex: "-1" }, t("replay.title", { title: game.title || gameLabel(game.game) })),
    h("p", { class: "muted" }, game.players.join(" · "), " · ",
      h("a", { href: `#/games/${id}` }, t("replay.back"))),
    missing, variationOf(game) ?? "",
    h("div", { class: "replay" },
      h("section", { class: "card replay-board", "aria-label": t("replay.region") },
        h("div", { class: "field" },
          h("div", { class: "spread" }, h("label", { for: "replay-step" }, t("replay.step")), counter),
          slider),
        h("div", { class: "row stepper" }, back, next, shareButton),
        sharePanel, board, h("div", { class: "row" }, tryIt), tryRefusal),
      list.box, notesBox, sheetBox));
  list.showNotes(byStep);
  list.showVariations(variations);
  go(asked);
}

/** A finger's swipe sideways on the board (`stage`) steps the replay: `step(+1)` to the left
 * (the next step), `step(-1)` to the right. A mouse's drag is left to the mouse;
 * a move the browser takes as a scroll is cancelled, and steps nowhere. */
function swipes(board, step) {
  let from = null;
  board.addEventListener("pointerdown", (event) => {
    from = event.pointerType === "mouse" ? null
      : { id: event.pointerId, x: event.clientX, y: event.clientY };
  });
  board.addEventListener("pointercancel", () => { from = null; });
  board.addEventListener("pointerup", (event) => {
    if (!from || event.pointerId !== from.id) return;
    const by = swipeStep(event.clientX - from.x, event.clientY - from.y);
    from = null;
    if (by) step(by);
  });
}
