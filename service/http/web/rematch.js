// Playing a game again (docs/api.md, "Playing again"): one tap makes the next game at
// the same table, and the page opens it. The tap's Idempotency-Key stays on the phone
// with the game, so a tap again after an answer the table's Wi-Fi lost is given the
// same next game and write token back; a game another phone played again already is
// opened, not made twice (the service answers 409 naming it).
// A plain function over what it is given: node's test runner drives it.

const key = (id) => `tablelog:rematch:${id}`;

/** The id of the game played after game `id`, to open. `post(path, headers)` sends
 * the request with this phone's credential for the game; `keep(next, token)` keeps
 * the next game's write token (null when another request made it) as the phone
 * keeps a game it created; `storage` holds the key of the tap (the phone's
 * localStorage), `newKey()` makes one. A refusal other than a next game made
 * already is thrown, for the page to show. */
export async function playAgain(id, { post, keep, storage, newKey }) {
  let sent = storage.getItem(key(id));
  if (!sent) {
    sent = newKey();
    storage.setItem(key(id), sent);
  }
  let next;
  try {
    next = await post(`/games/${id}/rematch`, { "Idempotency-Key": sent });
  } catch (error) {
    if (error.status !== 409 || !error.gameId) throw error;
    keep(error.gameId, null);
    return error.gameId;
  }
  keep(next.id, next.write_token);
  return next.id;
}
