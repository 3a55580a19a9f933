// Plays one whole game through a client typed from the OpenAPI document alone:
// `openapi-typescript` turns openapi/openapi.json into schema.d.ts, `openapi-fetch`
// makes the calls, and `tsc --strict` checks every one of them against the document.
//
//   node play.js BASE_URL GAME MOVES.json
//
// MOVES.json holds the moves a seeded virtual table made (written by the test); the
// script logs them one by one, then checks what the service says of the game.
import { readFileSync } from "node:fs";
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type MoveBody = NonNullable<
  paths["/games/{game_id}/moves"]["post"]["requestBody"]
>["content"]["application/json"];
type NewGame = components["schemas"]["NewGame"];

const [baseUrl, named, movesFile] = process.argv.slice(2);
const game = named as NewGame["game"]; // a registered game's name, as the test gives it
const moves = JSON.parse(readFileSync(movesFile, "utf-8")) as MoveBody[];
const api = createClient<paths>({ baseUrl });

function fail(message: string): never {
  throw new Error(message);
}

const setup: NewGame = { game, players: ["Ana", "Bia", "Caio"], first_player: "Ana", seed: 11 };
const created = await api.POST("/games", { body: setup });
const table = created.data ?? fail(`create: ${JSON.stringify(created.error)}`);
const write = { Authorization: `Bearer ${table.write_token}` };
const path = { game_id: table.id };

// A move out of turn is refused with its ruling, and the problem is typed.
const outOfTurn: MoveBody = { type: "undo" };
const refused = await api.POST("/games/{game_id}/moves", {
  params: { path },
  headers: write,
  body: outOfTurn,
});
if (refused.response.status !== 422 || refused.error?.rule !== "A2") {
  fail(`an undo with nothing to undo: ${JSON.stringify(refused.error)}`);
}

let version = table.version;
for (const body of moves) {
  const logged = await api.POST("/games/{game_id}/moves", {
    params: { path },
    headers: write,
    // Object.assign, not a spread: tsc cannot check a spread of so large a union.
    body: Object.assign({}, body, { expected_version: version }),
  });
  const accepted = logged.data ?? fail(`${JSON.stringify(body)}: ${JSON.stringify(logged.error)}`);
  version = accepted.version;
}

const read = await api.GET("/games/{game_id}", { params: { path } });
const summary = read.data ?? fail(`read: ${JSON.stringify(read.error)}`);
const sheet = await api.GET("/games/{game_id}/scoresheet", { params: { path } });
console.log(JSON.stringify({
  status: summary.status,
  version: summary.version,
  winners: summary.winners,
  sheet_winners: sheet.data?.winners,
}));
