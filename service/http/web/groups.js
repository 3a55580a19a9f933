// Groups on the phone (docs/api.md "Groups"): #/groups makes one (its name, this
// device's name); #/groups/<id> is a group's home: its games (found by game, status
// and player), a game started in it, its players (the roster: added, retired,
// brought back), its ladders, and for its owner who sees its new games, an invite (a
// QR code and a link), its members and their revocation; #/groups/<id>/players/<player>
// is a roster player's page; #/join/<code> is an invite's link: it asks this device's
// name and joins. Every key is kept on this device (api.js `groups`), never in an
// address: the invite's code leaves the address, and the history, once it is used.
import { api, groups } from "./api.js";
import { button, field, h, refusalBox, say, select } from "./dom.js";
import { gameList, newGameForm } from "./home.js";
import { t } from "./i18n.js";
import { gameLabel, kinds } from "./kinds.js";
import { boardLink, groupPlayerLink, playerPage } from "./players.js";
import { linkBlock } from "./share.js";

const enc = encodeURIComponent;

/** #/groups: the groups this device is in, and a form to make one. */
export function showGroups(root) {
  const name = h("input", { type: "text", maxlength: "40", required: true,
    autocomplete: "off" });
  const device = deviceField();
  const refusal = h("div");
  const form = h("form", { class: "card", onsubmit: async (event) => {
    event.preventDefault();
    refusal.replaceChildren();
    try {
      const made = await api.post("/groups", { name: name.value.trim(),
        device: device.input.value.trim() });
      groups.set({ id: made.id, name: made.name, key: made.key, key_id: made.key_id,
        role: made.role, device: device.input.value.trim() });
      location.hash = `#/groups/${made.id}`;
    } catch (error) {
      refusal.replaceChildren(refusalBox(error));
    }
  } }, h("h2", {}, t("group.make")), field(t("group.name"), name), device.field,
  h("button", { type: "submit", class: "primary" }, t("group.make_button")), refusal);
  const held = groups.all();
  root.append(h("h1", { tabindex: "-1" }, t("group.groups")),
    held.length ? h("ul", { class: "games" }, held.map((group) => h("li", {},
      h("a", { href: `#/groups/${group.id}` }, group.name),
      h("div", { class: "muted" }, t(`group.role_${group.role}`)))))
      : h("p", { class: "muted" }, t("group.none_here")),
    form);
  return null;
}

/** This device's name, as the group's members list names it. */
function deviceField() {
  const input = h("input", { type: "text", maxlength: "100", required: true,
    autocomplete: "off" });
  return { input, field: field(t("group.device"), input, t("group.device_hint")) };
}

/** #/join/<code>: this device's name asked, then the group joined with the invite.
 * The code leaves the address (and the history) once it is used. */
export function showJoin(root, code) {
  const device = deviceField();
  const refusal = h("div");
  root.append(h("h1", { tabindex: "-1" }, t("group.join_title")),
    h("p", {}, t("group.join_explain")),
    h("form", { class: "card", onsubmit: async (event) => {
      event.preventDefault();
      refusal.replaceChildren();
      try {
        const joined = await api.post("/groups/join", { invite: code,
          device: device.input.value.trim() });
        groups.set({ id: joined.group.id, name: joined.group.name, key: joined.key,
          key_id: joined.key_id, role: joined.role, device: device.input.value.trim() });
        location.replace(`#/groups/${joined.group.id}`);
      } catch (error) {
        refusal.replaceChildren(refusalBox(error));
      }
    } }, device.field,
    h("button", { type: "submit", class: "primary" }, t("group.join_button")), refusal));
  return null;
}

/** #/groups/<id>: a group's home, for a device holding one of its keys. */
export async function showGroup(root, id) {
  const held = groups.get(id);
  if (!held) {
    root.append(h("h1", { tabindex: "-1" }, t("group.not_here")),
      h("p", {}, t("group.not_here_text")));
    return null;
  }
  let group;
  try {
    group = await api.get(`/groups/${id}`, held.key);
  } catch (error) {
    if (error.status !== 401 && error.status !== 404) throw error;
    root.append(...keyRefused(held, error));
    return null;
  }
  groups.set({ id, name: group.name, role: group.role });
  const owner = group.role === "owner";
  const gamesBox = h("section", { class: "card", "aria-labelledby": "group-games" });
  const start = h("details", { class: "more" }, h("summary", {}, t("group.new_game")),
    newGameForm({ group: { ...held, name: group.name } }));
  root.append(h("h1", { tabindex: "-1" }, group.name),
    h("p", { class: "muted" }, t(`group.role_${group.role}`), " · ",
      t("group.this_device", { device: held.device ?? "" })),
    start, gamesBox, await playersPanel(id, held.key), laddersPanel(group.name),
    owner ? visibilityPanel(id, held.key, group.visibility) : "",
    owner ? invitePanel(id, held.key) : "",
    owner ? await membersPanel(id, held) : "");
  await gameList(gamesBox, { group: { id, name: group.name, key: held.key },
    title: t("group.games"), titleId: "group-games" });
  return null;
}

/** The group refused this phone's key (revoked, or the group gone): why, in the
 * service's words, and the key forgotten here on request. */
function keyRefused(held, error) {
  return [h("h1", { tabindex: "-1" }, held.name),
    refusalBox(error),
    h("p", {}, t("group.key_refused")),
    button(t("group.forget"), () => {
      groups.forget(held.id);
      location.hash = "#/groups";
    })];
}

/** The group's roster: its players by name, one added by name, each retired (or
 * brought back) with one tap. Retired players are listed apart, below. */
async function playersPanel(id, key) {
  const box = h("section", { class: "card", "aria-labelledby": "group-players" });
  const name = h("input", { type: "text", maxlength: "40", required: true,
    autocomplete: "off" });
  const refusal = h("div");
  const list = h("div");
  async function draw() {
    const { players } = await api.get(`/groups/${id}/players?retired=true`, key);
    const line = (player) => h("li", {},
      h("a", { href: groupPlayerLink(id, player.id) }, player.name), " ",
      button(t(player.retired ? "group.player_back" : "group.player_retire",
        { name: player.name }), () => retire(player, !player.retired)));
    const playing = players.filter((p) => !p.retired);
    const retired = players.filter((p) => p.retired);
    list.replaceChildren(
      playing.length ? h("ul", { class: "members" }, playing.map(line))
        : h("p", { class: "muted" }, t("group.no_players")),
      retired.length ? h("details", { class: "more" },
        h("summary", {}, t("group.retired_players", { count: retired.length })),
        h("ul", { class: "members" }, retired.map(line))) : "");
  }
  async function retire(player, retired) {
    refusal.replaceChildren();
    try {
      await api.patch(`/groups/${id}/players/${player.id}`, { retired }, key);
      say(t(retired ? "group.player_retired" : "group.player_returned",
        { name: player.name }));
      await draw();
    } catch (error) {
      refusal.replaceChildren(refusalBox(error));
    }
  }
  async function add(event) {
    event.preventDefault();
    refusal.replaceChildren();
    try {
      const added = await api.post(`/groups/${id}/players`, { name: name.value }, key);
      say(t("group.player_added", { name: added.name }));
      name.value = "";
      await draw();
    } catch (error) {
      refusal.replaceChildren(refusalBox(error));
    }
  }
  box.append(h("h2", { id: "group-players" }, t("group.players")), list,
    h("form", { onsubmit: add }, field(t("group.player_name"), name),
      h("button", { type: "submit" }, t("group.player_add"))), refusal);
  await draw();
  return box;
}

/** #/groups/<id>/players/<player>: a roster player's record in the group (its games
 * alone, rated on its ladder), their rivals and head to head among its players. */
export async function showGroupPlayer(root, id, playerId) {
  const held = groups.get(id);
  if (!held) {
    root.append(h("h1", { tabindex: "-1" }, t("group.not_here")),
      h("p", {}, t("group.not_here_text")));
    return null;
  }
  const key = held.key;
  const path = `/groups/${id}/players/${playerId}`;
  const { players } = await api.get(`/groups/${id}/players?retired=true`, key);
  const byName = new Map(players.map((player) => [player.name.toLowerCase(), player]));
  const me = players.find((player) => player.id === playerId);
  root.append(h("p", {}, h("a", { href: `#/groups/${id}` },
    t("group.back_home", { group: held.name }))));
  return playerPage(root, {
    heading: me ? t("group.player_title", { name: me.name, group: held.name }) : null,
    record: () => api.get(`${path}/record`, key),
    ratings: (game) => api.get(`${path}/ratings/${enc(game)}`, key),
    versus: (other) => api.get(`${path}/versus/${other.id}`, key),
    board: (game) => boardLink(game, held.name),
    link: (name) => {
      const found = byName.get(name.toLowerCase());
      return found ? groupPlayerLink(id, found.id) : null;
    },
    others: players.filter((player) => player.id !== playerId),
    recent: (name) => api.get(`/games?${new URLSearchParams({
      group: held.name, player: name, limit: "10" })}`, key),
  });
}

/** The group's ladders: one link for each game. */
function laddersPanel(name) {
  return h("nav", { class: "card", "aria-labelledby": "group-ladders" },
    h("h2", { id: "group-ladders" }, t("group.ladders")),
    h("ul", { class: "links" }, kinds().map((kind) => h("li", {},
      h("a", { href: boardLink(kind.name, name) }, gameLabel(kind.name))))));
}

/** The owner's choice of who sees the games started in the group from now on. */
function visibilityPanel(id, key, visibility) {
  const refusal = h("div");
  const choice = select(["members", "unlisted", "public"].map((v) =>
    [v, t(`group.visibility_${v}`)]), visibility, {
    onchange: async () => {
      refusal.replaceChildren();
      try {
        const group = await api.post(`/groups/${id}/visibility`,
          { visibility: choice.value }, key);
        say(t("group.visibility_set", { who: t(`group.visibility_${group.visibility}`) }));
      } catch (error) {
        choice.value = visibility;
        refusal.replaceChildren(refusalBox(error));
      }
    },
  });
  return h("section", { class: "card", "aria-labelledby": "group-visibility" },
    h("h2", { id: "group-visibility" }, t("group.visibility")),
    field(t("group.visibility_choice"), choice),
    h("p", { class: "muted" }, t("group.visibility_explain")), refusal);
}

/** The owner's invite: a link and its QR code, for one phone, valid a week. */
function invitePanel(id, key) {
  const box = h("div");
  const refusal = h("div");
  return h("section", { class: "card", "aria-labelledby": "group-invite" },
    h("h2", { id: "group-invite" }, t("group.invite")),
    h("p", { class: "muted" }, t("group.invite_explain")),
    button(t("group.invite_button"), async () => {
      refusal.replaceChildren();
      try {
        const invite = await api.post(`/groups/${id}/invites`, { uses: 1 }, key);
        box.replaceChildren(h("div", { class: "share" }, linkBlock(t("group.invite_link"),
          t("group.invite_once"), new URL(invite.link, location.origin).href)));
        box.querySelector("input")?.focus();
      } catch (error) {
        refusal.replaceChildren(refusalBox(error));
      }
    }, { class: "primary" }), refusal, box);
}

/** The owner's list of the group's keys: each device, its role, and a revocation
 * asked to be confirmed before it is sent (the owner's own key cannot be). */
async function membersPanel(id, held) {
  const box = h("section", { class: "card", "aria-labelledby": "group-members" });
  async function draw() {
    const { members } = await api.get(`/groups/${id}/members`, held.key);
    box.replaceChildren(h("h2", { id: "group-members" }, t("group.members")),
      h("ul", { class: "members" }, members.map((member) => h("li", {},
        h("span", {}, member.device), " ",
        h("span", { class: "muted" }, t(`group.role_${member.role}`)),
        member.role === "member" ? button(t("group.revoke", { device: member.device }),
          () => revoke(member)) : null))));
  }
  async function revoke(member) {
    if (!confirm(t("group.revoke_confirm", { device: member.device }))) return;
    try {
      await api.delete(`/groups/${id}/members/${member.id}`, held.key);
      say(t("group.revoked", { device: member.device }));
      await draw();
    } catch (error) {
      box.append(refusalBox(error));
    }
  }
  await draw();
  return box;
}
