// The one place that lists the page's games, keyed by family (`GET /games/kinds`: both
// Dobro editions are family `dobro`). A game's module gives what the page draws of it:
//   moves(game, submit)    the controls of the moves its state allows; with
//                          `game.offline`, of the one move in `state.allowed`, for
//                          `state.next_player`, whatever the state (it may be stale);
//   offline                {kinds, playerless}: the moves a table may log offline,
//                          and those that name no one player;
//   said(body)             a move waiting to be sent, worded as the service words
//                          what a player did, in the page's language;
//   state(state, players)  its public state, as the table reads it;
//   cardName(card)         a card as a sentence names it;
//   sheet                  (optional) its score sheet's wording, when it scores no
//                          running totals: {running, total, chart, caption};
//   optionFields(kind)     (optional) its options at the start of a game:
//                          {element, update(playerCount), chosen(playerCount)}.
// Every bound (players, rounds, defaults) comes from the kinds, never from a module.
import { t } from "../i18n.js";
import { kindOf } from "../kinds.js";
import dobro from "./dobro.js";
import doubleDonkey from "./double-donkey.js";
import dozito from "./dozito.js";

export const FAMILIES = { dobro, dozito, "double-donkey": doubleDonkey };

/** The module of a game, by its name (`dobro-pixar`) through its family. */
export function gameOf(name) {
  const family = kindOf(name)?.family;
  const module = FAMILIES[family];
  if (!module) throw new Error(t("game.unknown_kind", { game: name }));
  return module;
}
