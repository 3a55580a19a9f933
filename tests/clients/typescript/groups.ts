// A club's owner and a second phone, through a client typed from the OpenAPI
// document alone: the owner makes a group and an invite, the phone joins with it
// and creates a game in the group with its member key, the owner lists the members
// and revokes the phone's key, which is refused from then on.
//
//   node groups.js BASE_URL NAME
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const [baseUrl, name] = process.argv.slice(2);
const api = createClient<paths>({ baseUrl });

function fail(message: string): never {
  throw new Error(message);
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

const made = await api.POST("/groups", { body: { name, device: "Owner's phone" } });
const group = made.data ?? fail(`make: ${JSON.stringify(made.error)}`);
const owner = bearer(group.key);
const path = { group_id: group.id };

const invited = await api.POST("/groups/{group_id}/invites", {
  params: { path },
  headers: owner,
  body: { uses: 1 },
});
const invite = invited.data ?? fail(`invite: ${JSON.stringify(invited.error)}`);

const joined = await api.POST("/groups/join", {
  body: { invite: invite.code, device: "Second phone" },
});
const member = joined.data ?? fail(`join: ${JSON.stringify(joined.error)}`);

// Ana joins the group's roster; Bia is seated as a new player.
const added = await api.POST("/groups/{group_id}/players", {
  params: { path },
  headers: bearer(member.key),
  body: { name: "Ana" },
});
const ana = added.data ?? fail(`add a player: ${JSON.stringify(added.error)}`);
const created = await api.POST("/games", {
  headers: bearer(member.key),
  body: {
    game: "dobro",
    players: [{ id: ana.id }, { name: "Bia", new: true }],
    first_player: "Ana",
  },
});
const game = created.data ?? fail(`create: ${JSON.stringify(created.error)}`);

const listed = await api.GET("/groups/{group_id}/members", { params: { path }, headers: owner });
const members = listed.data ?? fail(`members: ${JSON.stringify(listed.error)}`);

const revoked = await api.DELETE("/groups/{group_id}/members/{key_id}", {
  params: { path: { group_id: group.id, key_id: member.key_id } },
  headers: owner,
});
const after = await api.GET("/groups/{group_id}", { params: { path }, headers: bearer(member.key) });

console.log(JSON.stringify({
  joined: member.group.id === group.id,
  role: member.role,
  game_group: game.group,
  devices: members.members.map((key) => key.device).sort(),
  revoked: revoked.response.status,
  after: after.response.status,
}));
