// Moves tapped while the table's Wi-Fi is down wait here, on the phone, each with the
// Idempotency-Key it keeps for ever: sent in order when the service answers again, a
// move whose first try did reach the service is answered as it was the first time,
// so nothing is ever logged twice. A move refused on arrival (another phone logged
// first) stops the queue until the table settles it.

import { t } from "./i18n.js";
import { dozitoCard } from "./state.js";

const key = (id) => `tablelog:queue:${id}`;

/** A key no other move will have: random, and from any page (not only https). */
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `web-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export const queue = {
  /** The waiting moves, oldest first: `{key, body, refusal?}`. */
  get: (id) => JSON.parse(localStorage.getItem(key(id)) || "[]"),
  set: (id, moves) => (moves.length ? localStorage.setItem(key(id), JSON.stringify(moves))
    : localStorage.removeItem(key(id))),
  push(id, move) {
    this.set(id, [...this.get(id), move]);
  },
};

/** A move as a person reads it, for the queue (the service words stored moves). */
export function sketch(body) {
  const parts = [body.player, t(`move.${body.type}`)];
  if (body.cards) parts.push(body.cards.join(" + "));
  if (body.card) parts.push(dozitoCard(body.card));
  if (body.spot) parts.push(t("sketch.on_spot", { spot: body.spot }));
  if (body.pile) parts.push(t(`sketch.on_pile_${body.pile}`));
  if (body.dice) parts.push(Object.values(body.dice).join(" "));
  if (body.color) parts.push(t(`color.${body.color}`));
  return parts.filter(Boolean).join(" ");
}
