// "Play again" without a browser: one tap makes the next game and keeps its token;
// a tap again, after an answer lost, sends the same Idempotency-Key; a next game made
// already is opened; any other refusal is the page's to show.
import assert from "node:assert/strict";
import { test } from "node:test";

import { playAgain } from "../../../service/http/web/rematch.js";
import { memoryStorage } from "./service.mjs";

const refusal = (status, extra = {}) =>
  Object.assign(new Error(`refused ${status}`), { status, gameId: null, ...extra });

/** What a tap is given: a service that answers `answers` in turn (a refusal is
 * thrown), and what it sent and kept. */
function given(...answers) {
  const sent = [];
  const kept = [];
  let keys = 0;
  return {
    sent, kept,
    storage: memoryStorage(),
    newKey: () => `key-${++keys}`,
    post: async (path, headers) => {
      sent.push({ path, key: headers["Idempotency-Key"] });
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return answer;
    },
    keep: (id, token) => kept.push([id, token]),
  };
}

test("a tap makes the next game, keeps its token and opens it", async () => {
  const tap = given({ id: "next", write_token: "token" });
  assert.equal(await playAgain("game", tap), "next");
  assert.deepEqual(tap.sent, [{ path: "/games/game/rematch", key: "key-1" }]);
  assert.deepEqual(tap.kept, [["next", "token"]]);
});

test("a tap again after a lost answer sends the same key", async () => {
  const tap = given(refusal(0, { unreachable: true }), { id: "next", write_token: "t" });
  await assert.rejects(playAgain("game", tap), { status: 0 });
  assert.deepEqual(tap.kept, []);
  assert.equal(await playAgain("game", tap), "next");
  assert.deepEqual(tap.sent.map((s) => s.key), ["key-1", "key-1"]);
  // Another game's tap is a request of its own.
  await playAgain("other", { ...tap, post: async (path, headers) => {
    tap.sent.push({ path, key: headers["Idempotency-Key"] });
    return { id: "after other", write_token: "u" };
  } });
  assert.equal(tap.sent.at(-1).key, "key-2");
});

test("a game played again already by another phone is opened, with no token", async () => {
  const tap = given(refusal(409, { gameId: "made" }));
  assert.equal(await playAgain("game", tap), "made");
  assert.deepEqual(tap.kept, [["made", null]]);
});

test("a game still being played, or one played again out of sight, is refused",
  async () => {
    const tap = given(refusal(409, { rule: "T4" }), refusal(409));
    await assert.rejects(playAgain("game", tap), { rule: "T4" });
    await assert.rejects(playAgain("game", tap), { status: 409, gameId: null });
    assert.deepEqual(tap.kept, []);
  });
