// The moves so far as the game's page lists them: newest first, each with the time it
// was logged, the ones an undo took back marked, and a button for earlier ones.
import { button, h } from "./dom.js";
import { moveNumber } from "./history.js";
import { dateTime, t } from "./i18n.js";

const SHOWN = 8; // the newest moves shown before "Show earlier moves"

function clock(at) {
  const when = new Date(at);
  return h("time", { datetime: at, title: dateTime(when, { dateStyle: "full", timeStyle: "short" }) },
    dateTime(when, { hour: "2-digit", minute: "2-digit" }));
}

/** The list, newest first; `all` shows every move loaded instead of the newest few,
 * and `onEarlier` is the button's for more. A move the service has not said yet is
 * named by `say` (the game module's: `move.<type>`). */
export function renderHistory(box, history, all, onEarlier, say = t) {
  const { entries } = history;
  const retracted = new Set([...entries.values()].map((e) => e.retracts));
  const newest = [...entries.values()].sort((a, b) => b.version - a.version);
  const shown = all ? newest : newest.slice(0, SHOWN);
  const hidden = newest.length - shown.length + Math.max(0, history.oldest - 2);
  box.replaceChildren(h("h2", { id: "history-title", tabindex: "-1" }, t("history.title")),
    newest.length === 0 ? h("p", {}, t("history.none"))
      : h("ol", { class: "history", reversed: true },
        shown.map((e) => h("li", {
          class: retracted.has(e.version) ? "retracted" : null,
          value: String(moveNumber(e)),
        }, clock(e.at), " ",
        h("span", { class: "said" }, e.description ?? say(`move.${e.type}`)),
        retracted.has(e.version) ? h("span", { class: "muted" }, t("history.taken_back"))
          : null))),
    // replaceChildren writes a null as the word "null": no button, no child at all.
    ...(hidden > 0 ? [button(t("history.earlier", { count: hidden }), onEarlier)] : []));
}
