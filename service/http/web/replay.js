// Replay a game step by step: a slider over its stored moves and the list of every
// step (arrow keys step through it), each step's sentence, the state and score sheet
// as they stood after it, and the table's notes on it. The
// address follows the step (`#/games/{id}/replay/{step}`), so a link copied or shared
// opens where its sender was. From any step the table may try another move (a
// variation, variations.js).
import { readerOf, tokens } from "./api.js";
import { button, h, uid } from "./dom.js";
import { gameOf } from "./games.js";
import { t } from "./i18n.js";
import { gameLabel } from "./kinds.js";
import { notesByStep, renderNotes } from "./notes.js";
import { linkBlock, replayLink, shareToggle, stepShares } from "./share.js";
import { renderSheet } from "./sheet.js";
import { tryAnotherMove, variationOf, variationsList } from "./variations.js";

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
  const [game, steps, start, variations] = await Promise.all([
    readerOf(id)(`/games/${id}`), allSteps(id), readerOf(id)(`/games/${id}/replay/0`),
    variationsList(id)]);
  const token = tokens.get(id);
  let byStep = notesByStep(start, steps);
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
  const sheetBox = h("section", { class: "card", "aria-labelledby": "sheet-title" });
  const notesBox = h("section", { class: "card", "aria-labelledby": "notes-title" });
  const [tryIt, tryRefusal] = tryAnotherMove(id, () => Number(slider.value));
  const list = stepList(steps, (n) => { go(n); list.focusStep(n); });
  let shown = null;

  const drawNotes = (step) => renderNotes(notesBox, {
    id, step, byStep, token,
    changed: (notes) => {
      byStep = notes;
      drawNotes(step);
    },
  });

  function go(n) {
    const step = clampStep(n, last);
    slider.value = String(step);
    counter.textContent = t("replay.counter", { step, last });
    sentence.textContent = step === 0 ? t("replay.before") : steps[step - 1].description;
    const state = step === 0 ? start.state : steps[step - 1].state;
    stateBox.replaceChildren(gameOf(game.game).state(state, game.players));
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
    h("section", { class: "card", "aria-label": t("replay.region") },
      h("div", { class: "field" },
        h("div", { class: "spread" }, h("label", { for: "replay-step" }, t("replay.step")), counter),
        slider),
      h("div", { class: "row stepper" }, back, next, shareButton),
      sharePanel, sentence, h("div", { class: "row" }, tryIt), tryRefusal, stateBox),
    list.box, notesBox, sheetBox, variations ?? "");
  go(asked);
}

/** Every step as a button, the one shown marked (`aria-current`); on the list the
 * arrow keys step through it (← →, Home for the start, End for the last step),
 * through `go(step)`, the focus following. */
function stepList(steps, go) {
  const items = [t("replay.before"), ...steps.map((step) => step.description)]
    .map((said, n) => h("li", {}, button(said, () => go(n), { "data-step": String(n) })));
  const last = steps.length;
  const ol = h("ol", { class: "steps", start: "0" }, items);
  let current = 0;
  ol.addEventListener("keydown", (event) => {
    const to = { ArrowLeft: current - 1, ArrowRight: current + 1, ArrowUp: current - 1,
      ArrowDown: current + 1, Home: 0, End: last }[event.key];
    if (to === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    go(Math.max(0, Math.min(last, to)));
  });
  const box = h("section", { class: "card", "aria-labelledby": "steps-title" },
    h("h2", { id: "steps-title" }, t("replay.steps")),
    h("p", { class: "muted" }, t("replay.steps_keys")), ol);
  return {
    box,
    /** The step shown, marked as the current one. */
    mark(step) {
      items[current].firstChild.removeAttribute("aria-current");
      current = step;
      items[step].firstChild.setAttribute("aria-current", "step");
    },
    focusStep(step) {
      const target = items[step].firstChild;
      target.focus();
      target.scrollIntoView({ block: "nearest" });
    },
  };
}
