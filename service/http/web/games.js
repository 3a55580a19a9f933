// The page's games: the module of each family the service hosts (`GET /games/kinds`:
// the editions of a game are one family), which the service serves from the game's
// own package as `games/<family>.js`. This file names no game: the games are those the
// kinds list, loaded once the kinds are known. A game's module gives what the page
// draws of it:
//   moves(game, submit)    the controls of the moves its state allows; with
//                          `game.offline`, of the one move in `state.allowed`, for
//                          `state.next_player`, whatever the state (it may be stale);
//   offline                {kinds, playerless}: the moves a table may log offline,
//                          and those that name no one player;
//   said(body)             a move waiting to be sent, worded as the service words
//                          what a player did, in the page's language;
//   state(state, players)  its public state, as the table reads it;
//   cardName(card)         a card as a sentence names it;
//   say(key, values)       its words, said before the page's (i18n.js `wording`),
//                          which name each kind of move it has: `kind.<type>` as the
//                          offline controls offer it, `move.<type>` as the moves so
//                          far name one the service has not said yet;
//   sheet                  (optional) its score sheet's wording, when it scores no
//                          running totals: {running, total(), chart(values),
//                          caption()};
//   tieBreak(detail, each) (optional) how a tie was settled, from a line's `detail`
//                          of the score sheet, a sentence or null (`each` words
//                          each player's value, "Ana: 3");
//   optionFields(kind)     (optional) its options at the start of a game:
//                          {element, update(playerCount), chosen(playerCount)};
//   roundOf(before, after) (optional) the round (a number) of the move that took its
//                          public state from `before` to `after`, or null: a
//                          replay heads its moves by round where a game has them.
// It imports the page's own modules as `../dom.js`, `../i18n.js`, `../kinds.js` and
// `../tables.js`. Every bound (players, rounds, defaults) comes from the kinds, never
// from a module.
import { t } from "./i18n.js";
import { kindOf, kinds } from "./kinds.js";

const loaded = new Map();

/** Load the module of every family the kinds list, once (loadKinds must have
 * answered). A module that fails to load is left out: its games say so when
 * opened, and the others work. */
export async function loadGames() {
  const families = [...new Set(kinds().map((kind) => kind.family))]
    .filter((family) => !loaded.has(family));
  await Promise.all(families.map(async (family) => {
    try {
      loaded.set(family, (await import(`./games/${family}.js`)).default);
    } catch (error) {
      console.error(`the page module of ${family} did not load`, error);
    }
  }));
}

/** The module of a game, by its name (an edition's too) through its family. */
export function gameOf(name) {
  const module = loaded.get(kindOf(name)?.family);
  if (!module) throw new Error(t("game.unknown_kind", { game: name }));
  return module;
}
