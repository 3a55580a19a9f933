// A service in memory for the session's tests: a game's stored moves, its reads as the
// REST API answers them, and a connection the test cuts and restores.

/** A Storage (localStorage's getItem, setItem, removeItem) in memory. */
export function memoryStorage() {
  const items = new Map();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
  };
}

const refusal = (status, message, extra = {}) =>
  Object.assign(new Error(message), { status, rule: null, ...extra });

/** One game (version 1: its creation) that stores any move sent at the right version,
 * once per Idempotency-Key; `online = false` makes every call fail as a lost network
 * does, `refuseNext` makes the next move be refused with that ruling, `refuseAt` the
 * move expecting that version; `readsHeld`, a promise, holds every read until it
 * settles. A move's answer holds the game's new version and state, as the service's. */
export function fakeService() {
  const service = {
    online: true, refuseNext: null, version: 1, events: [], keys: new Map(), sends: 0,
    readsHeld: null,
    /** Another phone logs a move. */
    store(type, data = {}) {
      service.version += 1;
      const event = { version: service.version, type, data,
        recorded_at: "2026-11-27T20:00:00Z" };
      service.events.push(event);
      return event;
    },
    async read(path) {
      if (!service.online) throw refusal(0, "No connection", { unreachable: true });
      await service.readsHeld; // a test may hold the reads back (a slow network)
      const url = new URL(path, "http://table");
      const [, , id, what, step] = url.pathname.split("/");
      const after = Number(url.searchParams.get("after") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 1000);
      if (!what) {
        return { id, game: "dobro", version: service.version, status: "in_progress",
          state: {}, players: ["Ana", "Bo"] };
      }
      if (what === "scoresheet") return { version: service.version, rounds: [] };
      if (what === "events") {
        return { events: service.events.filter((e) => e.version > after).slice(0, limit) };
      }
      if (step) return { description: `said ${Number(step) + 1}` };
      return { steps: service.events.filter((e) => e.version - 1 > after).slice(0, limit)
        .map((e) => ({ version: e.version, description: `said ${e.version}` })) };
    },
    async send(item) {
      service.sends += 1;
      if (!service.online) throw refusal(0, "No connection", { unreachable: true });
      if (service.keys.has(item.key)) return service.keys.get(item.key);
      if (service.refuseAt && service.refuseAt === item.body.expected_version) {
        service.refuseAt = null;
        throw refusal(422, "Not your turn", { rule: "D8" });
      }
      if (service.refuseNext) {
        const rule = service.refuseNext;
        service.refuseNext = null;
        throw refusal(422, "Not your turn", { rule });
      }
      if (item.body.expected_version !== service.version) {
        throw refusal(409, "Another phone logged first");
      }
      const { type, expected_version: _, ...data } = item.body;
      const answer = { version: service.store(type, data).version,
        state: { phase: "turn", next_player: "Bo" } };
      service.keys.set(item.key, answer);
      return answer;
    },
  };
  return service;
}
