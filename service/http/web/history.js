// A game's moves as the table said them, with the time each was logged, loaded from
// the newest back. The sentences are the service's (`/replay`), the times the stored
// log's (`/events`): the page never words a move itself, and it reads which move an
// undo took back from the undo's stored `move_retracted` event rather than working it
// out. Plain functions over the `read` they are given (the api's GET): node's test
// runner drives them; moves-so-far.js draws them.

const PAGE = 100; // the moves fetched at a time, from the newest back

/** A game's stored moves after the creation, loaded from the newest back a page at a
 * time: `entries` maps a version to `{version, type, description, at, retracts}`,
 * `oldest` is the oldest version loaded (2 once every move is). */
export async function loadHistory(id, version, read) {
  const history = { id, read, entries: new Map(), oldest: version + 1 };
  await loadEarlier(history);
  await reachUndoTarget(history);
  return history;
}

/** An undo names the latest move still in force: after undos it may lie further back
 * than the moves loaded. */
export async function reachUndoTarget(history) {
  while (!undoTarget(history.entries) && history.oldest > 2) await loadEarlier(history);
}

/** The page of moves before the oldest loaded, with their sentences and times. */
export async function loadEarlier(history) {
  const newest = history.oldest - 1;
  const from = Math.max(2, newest - PAGE + 1);
  if (newest < from) return;
  const count = newest - from + 1;
  // Version v is replay step v - 1: the creation is version 1.
  const [replay, log] = await Promise.all([
    history.read(`/games/${history.id}/replay?after=${from - 2}&limit=${count}`),
    history.read(`/games/${history.id}/events?after=${from - 1}&limit=${count}`)]);
  for (const event of log.events) {
    if (!history.entries.has(event.version)) history.entries.set(event.version, entry(event));
  }
  for (const step of replay.steps) {
    const known = history.entries.get(step.version);
    if (known) known.description ??= step.description;
  }
  history.oldest = from;
}

/** An entry for one stored event (as `/events` and the stream give it). */
export function entry(event) {
  const retracted = event.type === "undo"
    ? event.data.events.find((e) => e.type === "move_retracted")?.version ?? null : null;
  return {
    version: event.version, type: event.type, at: event.recorded_at,
    description: null, retracts: retracted,
  };
}

/** The move an undo would take back now: the latest one still in force (A2). */
export function undoTarget(entries) {
  const retracted = new Set([...entries.values()].map((e) => e.retracts));
  const inForce = [...entries.values()]
    .filter((e) => e.type !== "undo" && !retracted.has(e.version))
    .sort((a, b) => b.version - a.version);
  return inForce[0] ?? null;
}

export function moveNumber(e) {
  return e.version - 1;
}
