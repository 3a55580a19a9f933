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
    const refusal = new Refusal(0, {
      detail: t("api.unreachable") });
    refusal.unreachable = true;
    connection.dispatchEvent(new Event("unreachable"));
    throw refusal;
  }
  connection.dispatchEvent(new Event("answered"));
  const text = await answer.text();
  const data = text ? JSON.parse(text) : null;
  if (!answer.ok) throw new Refusal(answer.status, data || {});
  return data;
}

export const api = {
  get: (path) => request("GET", path),
  post: (path, body, token, headers) => request("POST", path, body, token, headers),
};

// The write token is shown once, at creation: keep it on this device, per game.
const key = (id) => `tablelog:token:${id}`;
export const tokens = {
  get: (id) => localStorage.getItem(key(id)),
  set: (id, token) => localStorage.setItem(key(id), token),
};
