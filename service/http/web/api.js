// The REST API (docs/api.md) as the page uses it, and the write tokens this device holds.
import { language, t } from "./i18n.js";

/** A problem+json answer: `message` is the service's `detail`, `rule` the ruling. */
export class Refusal extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || t("api.answered", { status }));
    this.status = status;
    this.rule = problem.rule || null;
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

export const api = {
  get: (path, token) => request("GET", path, undefined, token),
  post: (path, body, token, headers) => request("POST", path, body, token, headers),
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
