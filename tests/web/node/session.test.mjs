// A game's session without a browser: moves logged, queued while the connection is
// down and sent once when it returns, a refusal on arrival kept for the table, and
// the stream's moves learnt with their sentences.
import assert from "node:assert/strict";
import { test } from "node:test";

import { loadHistory, undoTarget } from "../../../service/http/web/history.js";
import { idempotencyKey, movesQueue } from "../../../service/http/web/queue.js";
import { gameSession } from "../../../service/http/web/session.js";
import { fakeService, memoryStorage } from "./service.mjs";

/** A session on a fresh game, recording what it asks the page to draw. */
async function given() {
  const service = fakeService();
  const drawn = [];
  const queue = movesQueue(memoryStorage());
  const session = gameSession({
    id: "g", game: await service.read("/games/g"),
    history: await loadHistory("g", 1, service.read), service, queue,
    newKey: idempotencyKey,
    on: {
      game: () => drawn.push("game"), sheet: () => drawn.push("sheet"),
      queue: () => drawn.push("queue"), sent: (count) => drawn.push(`sent ${count}`),
      error: (error) => drawn.push(`error ${error.message}`),
    },
  });
  return { service, session, drawn };
}

test("a move logged is stored and said in the service's words", async () => {
  const { service, session, drawn } = await given();
  const done = await session.submit({ type: "take", player: "Ana" });
  assert.deepEqual(done, { logged: 1, description: "said 2" });
  assert.equal(session.game.version, 2);
  assert.deepEqual(service.events.map((e) => e.type), ["take"]);
  assert.ok(drawn.includes("game"));
});

test("the next move is offered from a move's answer before the reads that follow it",
  async () => {
    const { service, session, drawn } = await given();
    let release;
    service.readsHeld = new Promise((done) => { release = done; });
    const submitted = session.submit({ type: "take", player: "Ana" });
    await until(() => drawn.includes("game"));
    assert.equal(session.game.version, 2);
    assert.equal(session.game.state.next_player, "Bo");
    assert.ok(!drawn.includes("sheet")); // the reads are still held
    release();
    assert.deepEqual(await submitted, { logged: 1, description: "said 2" });
  });

test("moves tapped offline wait, in order, and are stored once when it returns",
  async () => {
    const { service, session, drawn } = await given();
    service.online = false;
    assert.deepEqual(await session.submit({ type: "take", player: "Ana" }), { queued: true });
    assert.deepEqual(await session.submit({ type: "skip", player: "Bo" }), { queued: true });
    assert.deepEqual(session.waiting().map((m) => m.body.expected_version), [1, 2]);
    assert.deepEqual(service.events, []);

    service.online = true;
    const stream = new EventTarget();
    session.follow(stream);
    stream.dispatchEvent(new Event("open")); // the connection is back
    await until(() => drawn.includes("sent 2"));
    assert.deepEqual(service.events.map((e) => e.type), ["take", "skip"]);
    assert.deepEqual(session.waiting(), []);
    await until(() => session.game.version === 3);
  });

test("a move whose answer was lost is sent again under its key and stored once",
  async () => {
    const { service, session } = await given();
    const send = service.send;
    service.send = async (item) => {
      await send(item); // it arrives and is stored...
      service.send = send;
      throw Object.assign(new Error("lost"), { status: 0, unreachable: true }); // ...unanswered
    };
    assert.deepEqual(await session.submit({ type: "take", player: "Ana" }), { queued: true });
    await until(() => session.waiting().length === 0);
    assert.deepEqual(service.events.map((e) => e.type), ["take"]);
  });

test("a queued move refused on arrival stops the queue until the table settles it",
  async () => {
    const { service, session, drawn } = await given();
    service.online = false;
    await session.submit({ type: "take", player: "Ana" });
    await session.submit({ type: "skip", player: "Bo" });
    service.online = true;
    service.refuseNext = "D8";
    await session.flush();
    const [head, next] = session.waiting();
    assert.deepEqual(head.refusal, { rule: "D8", message: "Not your turn", status: 422 });
    assert.equal(next.refusal, undefined);
    assert.deepEqual(service.events, []);
    assert.ok(!drawn.some((d) => d.startsWith("sent")));

    await session.rebase(session.waiting().slice(1)); // drop the refused one
    assert.deepEqual(service.events.map((e) => e.type), ["skip"]);
    assert.deepEqual(session.waiting(), []);
  });

test("several turns queued offline go in order; a refused one is corrected in its place",
  async () => {
    const { service, session, drawn } = await given();
    service.online = false;
    for (const player of ["Ana", "Bo", "Cy", "Ana"]) {
      await session.submit({ type: "take", player });
    }
    assert.deepEqual(session.waiting().map((m) => m.body.expected_version), [1, 2, 3, 4]);

    service.online = true;
    service.refuseAt = 2; // the second waiting move breaks a rule
    await session.flush();
    assert.deepEqual(service.events.map((e) => e.data.player), ["Ana"]);
    assert.deepEqual(session.waiting().map((m) => [m.body.player, m.refusal?.rule ?? null]),
      [["Bo", "D8"], ["Cy", null], ["Ana", null]]);
    assert.ok(drawn.includes("sent 1"));

    await session.settle({ type: "skip", player: "Bo" }); // corrected at the table
    assert.deepEqual(service.events.map((e) => [e.type, e.data.player]),
      [["take", "Ana"], ["skip", "Bo"], ["take", "Cy"], ["take", "Ana"]]);
    assert.deepEqual(session.waiting(), []);
  });

test("a refused move dropped leaves the moves after it to be sent", async () => {
  const { service, session } = await given();
  service.online = false;
  for (const player of ["Ana", "Bo", "Cy"]) await session.submit({ type: "take", player });
  service.online = true;
  service.refuseNext = "D8";
  await session.flush();
  await session.settle();
  assert.deepEqual(service.events.map((e) => e.data.player), ["Bo", "Cy"]);
  assert.deepEqual(session.waiting(), []);
});

test("a move another phone beat is refused after the game is read again", async () => {
  const { service, session } = await given();
  service.store("take"); // another phone
  await assert.rejects(session.submit({ type: "skip", player: "Bo" }), { status: 409 });
  assert.equal(session.game.version, 2);
});

test("the stream's moves are learnt with their sentences, and undo names its move",
  async () => {
    const { service, session, drawn } = await given();
    const stream = new EventTarget();
    session.follow(stream);
    service.store("take");
    service.store("skip");
    stream.dispatchEvent(new Event("move"));
    await until(() => session.game.version === 3);
    const { entries } = session.history;
    assert.deepEqual([...entries.values()].map((e) => e.description), ["said 2", "said 3"]);
    assert.equal(undoTarget(entries).version, 3);
    assert.deepEqual(drawn.filter((d) => d === "game"), ["game"]);
  });

test("a read that fails while following the game is reported, not thrown", async () => {
  const { service, session, drawn } = await given();
  const stream = new EventTarget();
  session.follow(stream);
  service.online = false;
  stream.dispatchEvent(new Event("move"));
  await until(() => drawn.includes("error No connection"));
});

test("a move worded after another refresh drew its version is drawn again", async () => {
  // Two refreshes overlap: one read the game at version 2 and drew it while the
  // other was still reading move 2's sentence.
  const { service, session, drawn } = await given();
  service.store("take");
  session.game = { ...session.game, version: 2 };
  await session.refresh();
  assert.equal(session.history.entries.get(2).description, "said 2");
  assert.deepEqual(drawn.filter((d) => d === "game"), ["game"]);
});

test("a sentence that could not be read is read again by the next refresh", async () => {
  const { service, session, drawn } = await given();
  const read = service.read;
  service.read = async (path) => {
    if (path.includes("/replay/")) {
      service.read = read;
      throw Object.assign(new Error("Busy"), { status: 503 });
    }
    return read(path);
  };
  service.store("take");
  await assert.rejects(session.refresh(), { status: 503 });
  assert.equal(session.history.entries.get(2).description, null);
  await session.refresh();
  assert.equal(session.history.entries.get(2).description, "said 2");
  assert.equal(session.game.version, 2);
  assert.ok(drawn.includes("game"));
});

async function until(condition) {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((r) => setTimeout(r, 5));
  assert.ok(condition(), `never true: ${condition}`);
}
