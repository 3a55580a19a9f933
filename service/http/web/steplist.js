// A replay's move list (replay.js), as the best analysis boards keep one beside the
// board: every step a button, the one shown marked (`aria-current`), the notes in
// force under their step, the rounds as headings where the game's module names them
// (`roundOf`, games.js), and each variation under the step it branches from, drawn
// by `variationItem` (variations.js). On a step the arrow keys step through the list
// (← →, Home for the start, End for the last step), the focus following.
import { button, h } from "./dom.js";
import { t } from "./i18n.js";
import { inRounds, keyStep, variationsByStep } from "./movelist.js";
import { noteLine } from "./notes.js";

/** The list of `steps` (a replay's, after its step 0 `start`), each step going to
 * `go(step)`; `roundOf` the game module's, if it has one. */
export function stepList({ steps, start, roundOf, go, variationItem }) {
  const last = steps.length;
  const said = [t("replay.before"), ...steps.map((step) => step.description)];
  const notes = said.map(() => h("ul", { class: "step-notes" }));
  const branches = said.map(() => h("ul", { class: "step-variations" }));
  const buttons = said.map((text, n) => button(text, () => go(n), { "data-step": String(n) }));
  const items = said.map((_, n) => h("li", {}, buttons[n], notes[n], branches[n]));
  let scroller;
  const runs = inRounds([start.state, ...steps.map((step) => step.state)], roundOf);
  const box = h("section", { class: "card movelist", "aria-labelledby": "steps-title" },
    h("h2", { id: "steps-title" }, t("replay.steps")),
    h("p", { class: "muted" }, t("replay.steps_keys")),
    scroller = h("div", { class: "steps-scroll" }, runs.map((run) => [
      run.round === null ? null
        : h("h3", { class: "round" }, t("replay.round", { round: run.round })),
      h("ol", { class: "steps", start: String(run.steps[0]) },
        run.steps.map((n) => items[n])),
    ])));
  let current = 0;
  box.addEventListener("keydown", (event) => {
    if (!event.target.closest("button[data-step]")) return; // a form's keys are its own
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const to = keyStep(event.key, current, last);
    if (to === null) return;
    event.preventDefault();
    go(to);
  });
  return {
    box,
    /** The step shown, marked as the current one. */
    mark(step) {
      buttons[current].removeAttribute("aria-current");
      current = step;
      buttons[step].setAttribute("aria-current", "step");
      keepInSight(scroller, buttons[step]);
    },
    focusStep(step) {
      buttons[step].focus();
    },
    /** The notes in force (`byStep[step]`), each under its step. */
    showNotes(byStep) {
      notes.forEach((list, n) => list.replaceChildren(
        ...(byStep[n] ?? []).map((note) => h("li", {}, noteLine(note)))));
    },
    /** The game's variations (as its list gives them), each under its step. */
    showVariations(variations) {
      const byStep = variationsByStep(variations);
      branches.forEach((list, n) => list.replaceChildren(
        ...(byStep.get(n) ?? []).map(variationItem)));
    },
  };
}

/** Scroll the list, and only the list, so that `el` shows: stepping with the board's
 * buttons or a swipe must not carry the page down to a list below the board. */
function keepInSight(scroller, el) {
  const top = el.offsetTop;
  const bottom = top + el.offsetHeight;
  if (top < scroller.scrollTop) scroller.scrollTop = top;
  else if (bottom > scroller.scrollTop + scroller.clientHeight) {
    scroller.scrollTop = bottom - scroller.clientHeight;
  }
}
