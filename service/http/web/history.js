// A game's moves as the table said them, newest first, with the time each was logged.
// The sentences are the service's (`/replay`), the times the stored log's (`/events`):
// the page never words a move itself, and it reads which move an undo took back from
// the undo's stored `move_retracted` event rather than working it out.
import { api } from "./api.js";
import { button, h } from "./dom.js";
import { dateTime, t } from "./i18n.js";

const SHOWN = 8; // the newest moves shown before "Show earlier moves"
const PAGE = 100; // the moves fetched at a time, from the newest back

/** A game's stored moves after the creation, loaded from the newest back a page at a
 * time: `entries` maps a version to `{version, type, description, at, retracts}`,
 * `oldest` is the oldest version loaded (2 once every move is). */
export async function loadHistory(id, version) {
  const history = { id, entries: new Map(), oldest: version + 1 };
  await loadEarlier(history);
  await reachUndoTarget(history);
  return history;
}

/** An undo names the latest move still in force: after undos it may lie further back
 * than the moves loaded. */
export async function reachUndoTarget(history) {
  while (!undoTarget(history.entries) && history.oldest > 2) await loadEarlier(history);
}

/** The page of moves before the oldest loaded, with their sentences and times. */
export async function loadEarlier(history) {
  const newest = history.oldest - 1;
  const from = Math.max(2, newest - PAGE + 1);
  if (newest < from) return;
  const count = newest - from + 1;
  // Version v is replay step v - 1: the creation is version 1.
  const [replay, log] = await Promise.all([
    api.get(`/games/${history.id}/replay?after=${from - 2}&limit=${count}`),
    api.get(`/games/${history.id}/events?after=${from - 1}&limit=${count}`)]);
  for (const event of log.events) {
    if (!history.entries.has(event.version)) history.entries.set(event.version, entry(event));
  }
  for (const step of replay.steps) {
    const known = history.entries.get(step.version);
    if (known) known.description ??= step.description;
  }
  history.oldest = from;
}

/** An entry for one stored event (as `/events` and the stream give it). */
export function entry(event) {
  const retracted = event.type === "undo"
    ? event.data.events.find((e) => e.type === "move_retracted")?.version ?? null : null;
  return {
    version: event.version, type: event.type, at: event.recorded_at,
    description: null, retracts: retracted,
  };
}

/** The move an undo would take back now: the latest one still in force (A2). */
export function undoTarget(entries) {
  const retracted = new Set([...entries.values()].map((e) => e.retracts));
  const inForce = [...entries.values()]
    .filter((e) => e.type !== "undo" && !retracted.has(e.version))
    .sort((a, b) => b.version - a.version);
  return inForce[0] ?? null;
}

export function moveNumber(e) {
  return e.version - 1;
}

function clock(at) {
  const when = new Date(at);
  return h("time", { datetime: at, title: dateTime(when, { dateStyle: "full", timeStyle: "short" }) },
    dateTime(when, { hour: "2-digit", minute: "2-digit" }));
}

/** The list, newest first; `all` shows every move loaded instead of the newest few,
 * and `onEarlier` is the button's for more. */
export function renderHistory(box, history, all, onEarlier) {
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
        h("span", { class: "said" }, e.description ?? t(`move.${e.type}`)),
        retracted.has(e.version) ? h("span", { class: "muted" }, t("history.taken_back"))
          : null))),
    hidden > 0 ? button(t("history.earlier", { count: hidden }), onEarlier) : null);
}
