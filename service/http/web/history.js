// A game's moves as the table said them, newest first, with the time each was logged.
// The sentences are the service's (`/replay`), the times the stored log's (`/events`):
// the page never words a move itself, and it reads which move an undo took back from
// the undo's stored `move_retracted` event rather than working it out.
import { api } from "./api.js";
import { button, h } from "./dom.js";
import { dateTime, t } from "./i18n.js";

const SHOWN = 8; // the newest moves shown before "Show all"

/** Every stored move after the creation: `{version, type, description, at, retracts}`. */
export async function loadHistory(id) {
  const [replay, events] = await Promise.all([
    api.get(`/games/${id}/replay`), allEvents(id)]);
  const entries = new Map();
  for (const event of events) if (event.version > 1) entries.set(event.version, entry(event));
  for (const step of replay.steps) {
    const known = entries.get(step.version);
    if (known) known.description = step.description;
  }
  return entries;
}

async function allEvents(id) {
  const events = [];
  for (;;) {
    const after = events.at(-1)?.version ?? 0;
    const page = await api.get(`/games/${id}/events?after=${after}&limit=1000`);
    events.push(...page.events);
    if (page.events.length < 1000) return events;
  }
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

/** The list, newest first; `all` shows every move instead of the newest few. */
export function renderHistory(box, entries, all, onShowAll) {
  const retracted = new Set([...entries.values()].map((e) => e.retracts));
  const newest = [...entries.values()].sort((a, b) => b.version - a.version);
  const shown = all ? newest : newest.slice(0, SHOWN);
  box.replaceChildren(h("h2", { id: "history-title" }, t("history.title")),
    newest.length === 0 ? h("p", {}, t("history.none"))
      : h("ol", { class: "history", reversed: true, start: String(newest.length) },
        shown.map((e) => h("li", {
          class: retracted.has(e.version) ? "retracted" : null,
          value: String(moveNumber(e)),
        }, clock(e.at), " ",
        h("span", { class: "said" }, e.description ?? t(`move.${e.type}`)),
        retracted.has(e.version) ? h("span", { class: "muted" }, t("history.taken_back"))
          : null))),
    ...(!all && newest.length > SHOWN
      ? [button(t("history.show_all", { count: newest.length }), onShowAll)] : []));
}
