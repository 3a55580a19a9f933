// Moves tapped while the table's Wi-Fi is down wait here, on the phone, each with the
// Idempotency-Key it keeps for ever: sent in order when the service answers again, a
// move whose first try did reach the service is answered as it was the first time,
// so nothing is ever logged twice. A move refused on arrival (another phone logged
// first) stops the queue until the table settles it.
// Plain functions over the storage they are given: node's test runner drives them.

const key = (id) => `tablelog:queue:${id}`;

/** A key no other move will have: random, and from any page (not only https). */
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `web-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The waiting moves of every game, kept in `storage` (the phone's localStorage). */
export function movesQueue(storage) {
  return {
    /** The waiting moves, oldest first: `{key, body, refusal?}`. */
    get: (id) => JSON.parse(storage.getItem(key(id)) || "[]"),
    set: (id, moves) => (moves.length ? storage.setItem(key(id), JSON.stringify(moves))
      : storage.removeItem(key(id))),
    push(id, move) {
      this.set(id, [...this.get(id), move]);
    },
  };
}
