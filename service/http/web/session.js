// One game followed on this phone, without the page: the game as last read, the moves
// learnt so far (history.js), the moves waiting for the connection (queue.js) and what
// the service's stream brings. Plain functions over what they are given (the service's
// reads and writes, the queue's storage), so node's test runner drives them with no
// browser (tests/web/node/); the page (game.js) draws what they hold when told.
import { entry, reachUndoTarget } from "./history.js";

/** `service`: `read(path)` and `send(item)` (a move `{key, body}` with this phone's
 * token), both rejecting with the api's Refusal. `on`: what to draw again,
 * `game()`, `sheet(sheet)`, `queue()`, `sent(count)` (moves sent from the queue) and
 * `error(refusal)` (a read that failed while following the game). */
export function gameSession({ id, game, history, service, queue, newKey, on }) {
  const session = { game, history, id };
  let flushing = false;

  /** Add stored events (from the stream or a move's answer) and their sentences;
   * true when there was any to add or to word (the moves drawn need drawing again). */
  async function learn(events) {
    const { entries } = history;
    for (const event of events) {
      if (event.version > 1 && !entries.has(event.version)) {
        entries.set(event.version, entry(event));
      }
    }
    const unsaid = [...entries.values()].filter((e) => e.description === null);
    await Promise.all(unsaid.map(word));
    return unsaid.length > 0;
  }

  /** A move's sentence, read once however many refreshes learn it at the same time;
   * one that could not be read is read again by the next refresh. */
  function word(known) {
    known.ready ??= service.read(`/games/${id}/replay/${known.version - 1}`).then(
      (step) => { known.description = step.description; },
      (error) => { known.ready = null; throw error; });
    return known.ready;
  }

  /** The game, its score sheet and the moves stored since the newest one known.
   * Two refreshes may overlap (the stream's and a move's): each draws the moves it
   * worded, even when the other already drew the game at that version. */
  async function refresh() {
    const [summary, sheet, log] = await Promise.all([
      service.read(`/games/${id}`), service.read(`/games/${id}/scoresheet`),
      service.read(`/games/${id}/events?after=${Math.max(1, ...history.entries.keys())}`)]);
    if (summary.version < session.game.version) return; // a late answer: newer is known
    const worded = await learn(log.events);
    await reachUndoTarget(history);
    on.sheet(sheet);
    if (summary.version === session.game.version && !worded) return;
    session.game = summary;
    on.game();
  }

  /** Log a move: `{logged: number, description}` once stored, `{queued: true}` when
   * it waits for the connection; a refusal is thrown, after a refresh when another
   * phone logged first (409), so that the game shows as it now stands. */
  async function submit(move) {
    const waiting = queue.get(id);
    const item = { key: newKey(),
      body: { ...move, expected_version: session.game.version + waiting.length } };
    if (waiting.length) { // behind moves not sent yet: in order, after them
      queue.push(id, item);
      on.queue();
      flush();
      return { queued: true };
    }
    try {
      const answer = await service.send(item);
      // The answer holds the game's new state: the next move is offered from it at
      // once, before the reads that bring the rest (the sheet, the moves' words).
      // A game it ends waits for them, which name its winners.
      if (answer.state && answer.version > session.game.version
        && answer.state.phase !== "finished") {
        session.game = { ...session.game, version: answer.version, state: answer.state };
        on.game();
      }
      await refresh();
      const logged = history.entries.get(answer.version);
      return { logged: answer.version - 1, description: logged?.description ?? null };
    } catch (error) {
      if (error.unreachable) {
        queue.push(id, item);
        on.queue();
        // What was lost may be only the answer, on a network that works again:
        // then this sends it at once (its key makes the service answer, not store).
        flush();
        return { queued: true };
      }
      if (error.status === 409) await refresh().catch(() => {});
      throw error;
    }
  }

  /** Send the waiting moves in order, until the queue is empty, the connection fails
   * or one is refused on arrival (kept at the head with its refusal, for the table). */
  async function flush() {
    if (flushing) return;
    flushing = true;
    let sent = 0;
    try {
      for (;;) {
        const [head, ...rest] = queue.get(id);
        if (!head || head.refusal) break;
        try {
          await service.send(head); // a retry of a move that did arrive is answered
        } catch (error) {
          if (error.unreachable) break;
          const refusal = { rule: error.rule, message: error.message, status: error.status };
          queue.set(id, [{ ...head, refusal }, ...rest]);
          break;
        }
        queue.set(id, queue.get(id).slice(1));
        sent += 1;
        on.queue();
      }
    } finally {
      flushing = false;
      on.queue();
    }
    if (sent || queue.get(id)[0]?.refusal) await refresh().catch(() => {});
    if (sent) on.sent(sent);
  }

  /** After a refusal on arrival: the waiting moves again, on the game as it stands.
   * None of them was stored (the queue stops at a refusal), so new keys are safe. */
  function rebase(moves) {
    queue.set(id, moves.map((item, i) => ({ key: newKey(),
      body: { ...item.body, expected_version: session.game.version + i } })));
    on.queue();
    return flush();
  }

  /** The move refused on arrival (the queue's head) dropped, or replaced by the
   * table's correction `move`: the moves behind it keep their order. */
  function settle(move = null) {
    const [, ...rest] = queue.get(id);
    return rebase(move ? [{ body: move }, ...rest] : rest);
  }

  /** Every stored move arrives on the stream, this phone's and every other's; its
   * opening means the connection is back, for the waiting moves. */
  function follow(stream) {
    stream.addEventListener("move", () => refresh().catch(on.error));
    stream.addEventListener("open", () => flush());
  }

  return Object.assign(session, {
    refresh, submit, flush, rebase, settle, follow, waiting: () => queue.get(id),
  });
}
