// What a client typed from the OpenAPI document alone gets right without a guard of
// its own: `tsc --strict` compiles this file, and each `@ts-expect-error` line must
// be an error, or the compilation fails.
import type { components } from "./schema.js";

type Schemas = components["schemas"];
type State = Schemas["GameSummary"]["state"];
type Move = Schemas["MoveAccepted"]["state"];

// A state narrows by its `game`: each branch reads its own game's fields.
export function waitingFor(state: State): string {
  switch (state.game) {
    case "dobro":
    case "dobro-pixar":
      return `${state.edition}: ${state.phase}, ${state.direction}`;
    case "dozito":
      return `${state.phase}, ${Object.keys(state.grids).length} grids`;
    case "double-donkey":
      return `${state.phase}, hay ${Object.keys(state.hay).length}`;
  }
}

export function allowed(state: Move): string[] {
  return [...state.allowed];
}

// A game's name and a game's status are closed sets.
export const game: Schemas["GameSummary"]["game"] = "dozito";
export const status: Schemas["GameSummary"]["status"] = "finished";
// @ts-expect-error: no such game
export const noGame: Schemas["GameSummary"]["game"] = "chess";
// @ts-expect-error: no such status
export const noStatus: Schemas["GameSummary"]["status"] = "paused";

// A card sent leaves out what defaults; a card read has every field.
export const sent: Schemas["DozitoCard"] = { color: "red", number: 3 };
export function isJoker(card: Schemas["DozitoCardRead"]): boolean {
  return card.joker;
}

// What the service refuses does not compile.
// @ts-expect-error: a Skip card is its own move, not a play (D9)
export const skipPlayed: Schemas["DobroPlay"] = { type: "play", player: "Ana", cards: ["skip"] };
export const roll: Schemas["DoubleDonkeyRoll"] = {
  type: "roll",
  player: "Ana",
  // @ts-expect-error: no die of that colour
  dice: { pink: 3 },
};
// @ts-expect-error: a Double Donkey card is two colours or one angry colour
export const noCard: Schemas["DoubleDonkeyCard"] = {};
export const angry: Schemas["DoubleDonkeyCard"] = { angry: "orange" };
// @ts-expect-error: a number of rounds is a number
export const threeRounds: Schemas["NewGame"] = { game: "dozito", players: ["Ana", "Bia"], options: { rounds: "three" } };
export const rounds: Schemas["NewGame"] = { game: "dozito", players: ["Ana", "Bia"], options: { rounds: 3 } };
// @ts-expect-error: no such game
export const chess: Schemas["NewGame"] = { game: "chess", players: ["Ana", "Bia"] };

// A replay step's move narrows by its `type`, to the game's move as logged.
export function played(step: Schemas["ReplayStep"]): number {
  return step.move.type === "play" ? step.move.cards.length : 0;
}
export function unguarded(step: Schemas["ReplayStep"]): number {
  // @ts-expect-error: only a Dobro play has cards
  return step.move.cards.length;
}

// A logged event narrows by its `type`, and then its data's events by theirs.
export function scored(event: Schemas["EventPage"]["events"][number]): number {
  if (event.type !== "take") return 0;
  const round = event.data.events.find((e) => e.type === "round_scored");
  return round?.type === "round_scored" ? Object.keys(round.score_piles).length : 0;
}

// A game's options are those of the game named.
// @ts-expect-error: a scale of scoring is a Dobro option, not a Dozito one
export const dozitoScale: Schemas["NewGame"] = { game: "dozito", players: ["Ana", "Bia"], options: { scoring: "official" } };

// A score sheet narrows by its `game`, and then its lines' detail is that game's.
export function tieBreak(sheet: Schemas["ReplayFrame"]["scoresheet"]): string[] {
  const last = sheet.rounds[sheet.rounds.length - 1];
  if (last === undefined) return [];
  switch (sheet.game) {
    case "dobro":
    case "dobro-pixar":
    case "dozito":
      return (sheet.rounds[sheet.rounds.length - 1]?.detail.tie_break?.tied) ?? [];
    case "double-donkey":
      return sheet.rounds[sheet.rounds.length - 1]?.detail.tied ?? [];
  }
}
export function unguardedSheet(sheet: Schemas["ReplayFrame"]["scoresheet"]): number {
  // @ts-expect-error: only a Double Donkey line has roll-offs
  return sheet.rounds[0]?.detail.roll_offs.length ?? 0;
}

// The feed's events narrow by their `type` as /events' do, with the game beside them.
export function feedScored(event: Schemas["FeedPage"]["events"][number]): string {
  if (event.type !== "take") return event.game;
  const round = event.data.events.find((e) => e.type === "round_scored");
  return round?.type === "round_scored" ? `${event.game_id} ${round.round}` : event.cursor;
}
