// The queue of moves waiting for the connection, on a storage of its own.
import assert from "node:assert/strict";
import { test } from "node:test";

import { idempotencyKey, movesQueue } from "../../../service/http/web/queue.js";
import { memoryStorage } from "./service.mjs";

test("waiting moves are kept per game, oldest first, and gone once sent", () => {
  const storage = memoryStorage();
  const queue = movesQueue(storage);
  queue.push("g1", { key: "a", body: { type: "take" } });
  queue.push("g1", { key: "b", body: { type: "skip" } });
  queue.push("g2", { key: "c", body: { type: "roll" } });
  assert.deepEqual(queue.get("g1").map((m) => m.key), ["a", "b"]);
  queue.set("g1", []);
  assert.deepEqual(queue.get("g1"), []);
  assert.deepEqual([...storage.items.keys()], ["tablelog:queue:g2"]);
});

test("each move gets a key no other move has", () => {
  const keys = new Set(Array.from({ length: 100 }, idempotencyKey));
  assert.equal(keys.size, 100);
  assert.match([...keys][0], /^web-[0-9a-f]{32}$/);
});
