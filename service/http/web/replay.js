// Replay a game step by step: a slider over its stored moves and each step's sentence.
import { api } from "./api.js";
import { button, h } from "./dom.js";
import { gameOf } from "./games/index.js";
import { t } from "./i18n.js";
import { gameLabel } from "./kinds.js";
import { renderSheet } from "./sheet.js";

// Every step, a page at a time: `next` is the `after` of the next page.
async function allSteps(id) {
  const steps = [];
  for (let after = 0; after !== null;) {
    const page = await api.get(`/games/${id}/replay?after=${after}`);
    steps.push(...page.steps);
    after = page.next;
  }
  return steps;
}

export async function showReplay(root, id) {
  const [game, steps, start, sheet] = await Promise.all([
    api.get(`/games/${id}`), allSteps(id),
    api.get(`/games/${id}/replay/0`), api.get(`/games/${id}/scoresheet`)]);
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

  function go(n) {
    const step = Math.max(0, Math.min(last, n));
    slider.value = String(step);
    counter.textContent = t("replay.counter", { step, last });
    sentence.textContent = step === 0 ? t("replay.before") : steps[step - 1].description;
    const state = step === 0 ? start.state : steps[step - 1].state;
    stateBox.replaceChildren(gameOf(game.game).state(state, game.players));
    back.disabled = step === 0;
    next.disabled = step === last;
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  const sheetBox = h("section", { class: "card", "aria-labelledby": "sheet-title" });
  renderSheet(sheetBox, game.game, sheet);
  root.append(
    h("h1", { tabindex: "-1" }, t("replay.title", { title: game.title || gameLabel(game.game) })),
    h("p", { class: "muted" }, game.players.join(" · "), " · ",
      h("a", { href: `#/games/${id}` }, t("replay.back"))),
    h("section", { class: "card", "aria-label": t("replay.region") },
      h("div", { class: "field" },
        h("div", { class: "spread" }, h("label", { for: "replay-step" }, t("replay.step")), counter),
        slider),
      h("div", { class: "row stepper" }, back, next),
      sentence, stateBox),
    sheetBox);
  go(0);
}
