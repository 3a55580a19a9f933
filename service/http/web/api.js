// The REST API (docs/api.md) as the page uses it, and the write tokens this device holds.
import { language, t } from "./i18n.js";

/** A problem+json answer: `message` is the service's `detail`, `rule` the ruling,
 * `players` the seats of a group's game whose names are on nobody of its roster,
 * `gameId` the game it names (a game played again already). */
export class Refusal extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || t("api.answered", { status }));
    this.status = status;
    this.rule = problem.rule || null;
    this.players = problem.players || null;
    this.gameId = problem.game_id || null;
  }
}

/** Whether the service answers: `answered` each time it does (whatever it said),
 * `unreachable` each time a request could not reach it. */
export const connection = new EventTarget();

/** The refusal of a request that could not reach the service (nor a file of the
 * page, with no copy of it on the phone). */
export function unreachable() {
  const refusal = new Refusal(0, { detail: t("api.unreachable") });
  refusal.unreachable = true;
  return refusal;
}

async function request(method, path, body, token, extra = {}) {
  // A refusal's `detail` comes in the page's language.
  const headers = { Accept: "application/json", "Accept-Language": language(), ...extra };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let answer;
  try {
    answer = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    connection.dispatchEvent(new Event("unreachable"));
    throw unreachable();
  }
  connection.dispatchEvent(new Event("answered"));
  const text = await answer.text();
  const data = text ? JSON.parse(text) : null;
  if (!answer.ok) throw new Refusal(answer.status, data || {});
  return data;
}

/** A file the service draws or writes (a picture, an export), as a Blob. */
async function file(path, token) {
  const headers = { "Accept-Language": language() };
  if (token) headers.Authorization = `Bearer ${token}`;
  let answer;
  try {
    answer = await fetch(path, { headers });
  } catch {
    connection.dispatchEvent(new Event("unreachable"));
    throw unreachable();
  }
  connection.dispatchEvent(new Event("answered"));
  if (!answer.ok) {
    const text = await answer.text();
    throw new Refusal(answer.status, text ? JSON.parse(text) : {});
  }
  return answer.blob();
}

export const api = {
  get: (path, token) => request("GET", path, undefined, token),
  file,
  post: (path, body, token, headers) => request("POST", path, body, token, headers),
  patch: (path, body, token) => request("PATCH", path, body, token),
  delete: (path, token) => request("DELETE", path, undefined, token),
};

// The write token is shown once, at creation: keep it on this device, per game.
const key = (id) => `tablelog:token:${id}`;
export const tokens = {
  get: (id) => localStorage.getItem(key(id)),
  set: (id, token) => localStorage.setItem(key(id), token),
};

// The groups this device is a member of (docs/api.md "Groups"), each with this
// device's key (`tlg_...`), shown once when the group was made or joined: kept on
// this device only, never in an address.
const GROUPS = "tablelog:groups";
export const groups = {
  /** Every group held here: `{id, name, key, key_id, role, device}`. */
  all: () => Object.values(JSON.parse(localStorage.getItem(GROUPS) || "{}")),
  get: (id) => groups.all().find((group) => group.id === id) ?? null,
  /** The group of a game, by the name its summary gives (`group`). */
  named: (name) => (name ? groups.all().find((group) => group.name === name) ?? null : null),
  set(group) {
    const held = JSON.parse(localStorage.getItem(GROUPS) || "{}");
    held[group.id] = { ...held[group.id], ...group };
    localStorage.setItem(GROUPS, JSON.stringify(held));
  },
  forget(id) {
    const held = JSON.parse(localStorage.getItem(GROUPS) || "{}");
    delete held[id];
    localStorage.setItem(GROUPS, JSON.stringify(held));
  },
};

// The group of each game this device knows to be a group's (started in it here, or
// listed on its home), so that its reads carry the group's key.
const groupOf = (id) => `tablelog:group-of:${id}`;
export const gameGroups = {
  set: (id, group) => localStorage.setItem(groupOf(id), group),
  /** The key of the group of game `id` held here, else null. */
  key: (id) => groups.get(localStorage.getItem(groupOf(id)))?.key ?? null,
  /** Game `id` is of the group of game `from` (a variation branched from it). */
  follow(id, from) {
    const group = localStorage.getItem(groupOf(from));
    if (group) gameGroups.set(id, group);
  },
};

/** The key that writes a game's moves on this device: its own write token, else the
 * key of its group (a group's key writes its group's games). */
export function writerOf(id, group) {
  return tokens.get(id) ?? groups.named(group)?.key ?? gameGroups.key(id);
}

/** A read of game `id`'s, with its group's key when this device holds one. */
export function readerOf(id) {
  return (path) => api.get(path, gameGroups.key(id));
}

// Seconds before a keyed stream that ended or failed is opened again, as a browser's
// EventSource does by default.
const RECONNECT_MS = 3000;

/** Game `id`'s stream of stored moves (`move` events, `open` once it answers), from
 * after version `after`. A browser's EventSource can send no key, so a game this
 * phone reads with its group's key (a members-only game is no one else's) is read
 * with fetch instead, its Server-Sent Events parsed here and resumed after the last
 * one seen (Last-Event-ID) when the connection drops. */
export function gameStream(id, after) {
  const url = `/games/${id}/stream?after=${after}`;
  const key = gameGroups.key(id);
  return key ? keyedStream(url, key) : new EventSource(url);
}

function keyedStream(url, key) {
  const stream = new EventTarget();
  const stop = new AbortController();
  let lastId = null;
  stream.close = () => stop.abort();

  async function read() {
    const headers = { Accept: "text/event-stream", Authorization: `Bearer ${key}` };
    if (lastId !== null) headers["Last-Event-ID"] = lastId;
    const answer = await fetch(url, { headers, signal: stop.signal });
    if (!answer.ok || !answer.body) throw new Error(`stream: ${answer.status}`);
    stream.dispatchEvent(new Event("open"));
    const lines = answer.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = "";
    let event = { type: "message", data: [] };
    for (;;) {
      const { value, done } = await lines.read();
      if (done) return;
      pending += value;
      const complete = pending.split(/\r\n|\r|\n/);
      pending = complete.pop();
      for (const line of complete) {
        if (line === "") {
          if (event.data.length) {
            stream.dispatchEvent(new MessageEvent(event.type,
              { data: event.data.join("\n"), lastEventId: lastId ?? "" }));
          }
          event = { type: "message", data: [] };
          continue;
        }
        const colon = line.indexOf(":");
        if (colon === 0) continue; // a comment: the service's keep-alive
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event.type = text;
        else if (field === "data") event.data.push(text);
        else if (field === "id") lastId = text;
      }
    }
  }

  (async () => {
    while (!stop.signal.aborted) {
      try {
        await read();
      } catch {
        if (stop.signal.aborted) return;
      }
      await new Promise((resume) => setTimeout(resume, RECONNECT_MS));
    }
  })();
  return stream;
}
