// The start page: a form to start a game of any kind with every option the API takes,
// and the games logged so far, filtered and a page at a time. The kinds of game, their
// player ranges and their options' bounds are the service's (`GET /games/kinds`);
// each game's own option fields are its module's (games/index.js).
import { api, gameGroups, groups, tokens } from "./api.js";
import { button, field, h, refusalBox, select } from "./dom.js";
import { gameOf } from "./games.js";
import { dateTime, t } from "./i18n.js";
import { gameLabel, kinds, option } from "./kinds.js";
import { boardLinks } from "./players.js";

const PAGE = 10;

export async function showHome(root) {
  const recent = h("section", { "aria-labelledby": "recent-title" });
  root.append(h("h1", { tabindex: "-1" }, t("home.title")), newGameForm(), recent,
    groupLinks(), boardLinks());
  await gameList(recent);
}

/** The groups this device is in, and the way to make one. */
function groupLinks() {
  return h("nav", { "aria-labelledby": "groups-title" },
    h("h2", { id: "groups-title" }, t("group.groups")),
    h("ul", { class: "row links" },
      groups.all().map((group) => h("li", {}, h("a", { href: `#/groups/${group.id}` },
        group.name))),
      h("li", {}, h("a", { href: "#/groups" }, t("group.make_link")))));
}

/** When a game was played (or else created), as the table reads it. */
export function when(game) {
  const at = new Date(game.played_at ?? game.created_at);
  return h("time", { datetime: at.toISOString() }, dateTime(at, {
    weekday: "short", day: "numeric", month: "short", year: "numeric",
    hour: "2-digit", minute: "2-digit",
  }));
}

/** The games, newest first, found by game, status and player, a page at a time.
 * `group` (held here, with its key): only its games, read with its key, which
 * then stays with each game on this device; `title` and `titleId` name the list. */
export async function gameList(box,
  { group = null, title = t("home.games"), titleId = "recent-title" } = {}) {
  const filter = { game: "", status: "", player: "" };
  let offset = 0;
  const list = h("div", { "aria-live": "polite" });
  const nav = h("div", { class: "row pager" });
  const kind = select([["", t("home.every_game")], ...kinds().map((k) => [k.name, gameLabel(k.name)])],
    "",
    { onchange: () => { filter.game = kind.value; offset = 0; load(); } });
  const status = select([["", t("home.any")], ["in_progress", t("home.in_progress")],
    ["finished", t("home.finished")]], "",
  { onchange: () => { filter.status = status.value; offset = 0; load(); } });
  const player = h("input", { type: "search", autocomplete: "off", maxlength: "40" });
  const form = h("form", {
    class: "row filters", role: "search", "aria-label": t("home.find_games"),
    onsubmit: (event) => {
      event.preventDefault();
      filter.player = player.value.trim();
      offset = 0;
      load();
    },
  }, field(t("home.of_the_game"), kind), field(t("home.status"), status),
  field(t("home.with_player"), player), h("button", { type: "submit" }, t("home.find")));
  box.append(h("h2", { id: titleId }, title), form, list, nav);

  async function load() {
    const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (group) query.set("group", group.name);
    for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
    let page;
    try {
      page = await api.get(`/games?${query}`, group?.key);
    } catch (error) {
      list.replaceChildren(refusalBox(error));
      return;
    }
    if (group) for (const game of page.games) gameGroups.set(game.id, group.id);
    list.replaceChildren(page.games.length
      ? h("ul", { class: "games" }, page.games.map(gameItem))
      : h("p", {}, offset ? t("home.no_more") : t("home.none")));
    nav.replaceChildren(
      button(t("home.newer"), () => { offset = Math.max(0, offset - PAGE); load(); },
        { disabled: offset === 0 }),
      h("span", { class: "muted" }, page.games.length
        ? t("home.range", { first: offset + 1, last: offset + page.games.length }) : ""),
      button(t("home.older"), () => { offset = page.next_offset; load(); },
        { disabled: page.next_offset === null }));
  }
  await load();
}

export function gameItem(game) {
  const status = game.status === "finished"
    ? t("home.won_by", { winners: game.winners }) : t("home.playing");
  const title = game.title || gameLabel(game.game);
  return h("li", {},
    h("a", { href: `#/games/${game.id}` }, title),
    h("div", { class: "muted" }, game.title ? `${gameLabel(game.game)} · ` : "",
      when(game), ` · ${status}`),
    h("div", { class: "players-line" }, game.players.join(", ")));
}

// --- starting a game -----------------------------------------------------------------

/** `group`: the group (held here, with its key) the game is started in. */
export function newGameForm({ group = null } = {}) {
  let kind = kinds()[0];
  let names = ["", "", ""];
  // The names the table said are new players of the group's roster, as typed.
  const fresh = new Set();
  const players = h("div", { class: "players" });
  // A group's roster, offered as each player field is typed in: read again when a
  // player field is entered, as the group's home may have added one meanwhile.
  // Its players are also buttons: a tap seats one in the first empty seat, a tap
  // again stands them up; a name is typed only for someone new.
  const roster = h("datalist", { id: "roster" });
  const seatable = h("div", { class: "chips-row", role: "group",
    "aria-label": t("start.roster") });
  let rostered = [];
  let reading = null; // one read at a time
  const readRoster = () => {
    if (!group || reading) return;
    reading = api.get(`/groups/${group.id}/players`, group.key).then((answer) => {
      rostered = answer.players.map((p) => p.name);
      roster.replaceChildren(...rostered.map((name) => h("option", { value: name })));
      drawSeatable();
    }, () => {}).finally(() => { reading = null; });
  };
  const seated = (name) => names.some((n) => n.trim().toLowerCase() === name.toLowerCase());
  function drawSeatable() {
    seatable.replaceChildren(...rostered.map((name) => h("button", {
      type: "button", class: "chip", "aria-pressed": String(seated(name)),
      onclick: () => seat(name),
    }, name)));
  }
  function seat(name) {
    const at = names.findIndex((n) => n.trim().toLowerCase() === name.toLowerCase());
    if (at >= 0) {
      names[at] = "";
    } else {
      const empty = names.findIndex((n) => !n.trim());
      if (empty >= 0) names[empty] = name;
      else if (names.length < kind.players.max) names.push(name);
      else return;
    }
    update();
  }
  readRoster();
  const firstPlayer = select([["", t("start.draw_random")]], "", { name: "first_player" });
  const rounds = h("input", { type: "number", name: "rounds", inputmode: "numeric" });
  const roundsField = field(t("start.rounds"), rounds);
  const gameOptions = h("div");
  const built = new Map(); // each kind's own option fields, kept while another is chosen
  /** A kind's own option fields (null for a game without), built on first choice. */
  const fieldsOf = (of) => {
    if (!built.has(of.name)) {
      const fields = gameOf(of.name).optionFields?.(of) ?? null;
      if (fields) gameOptions.append(fields.element);
      built.set(of.name, fields);
    }
    return built.get(of.name);
  };
  const title = h("input", { type: "text", name: "title", maxlength: "200" });
  const location = h("input", { type: "text", name: "location", maxlength: "200" });
  const playedAt = h("input", { type: "datetime-local", name: "played_at" });
  const notes = h("textarea", { name: "notes", maxlength: "2000", rows: "2" });
  const seed = h("input", {
    type: "number", name: "seed", min: "0", inputmode: "numeric",
  });
  const gameSelect = select(kinds().map((k) => [k.name, gameLabel(k.name)]), kind.name, {
    name: "game",
    onchange: () => choose(kinds().find((k) => k.name === gameSelect.value)),
  });

  /** A kind chosen: its player range and its options, with their bounds. */
  function choose(chosen) {
    kind = chosen;
    names = names.slice(0, kind.players.max);
    while (names.length < kind.players.min) names.push("");
    const roundsSchema = option(kind, "rounds");
    roundsField.hidden = !roundsSchema;
    if (roundsSchema) {
      rounds.min = String(roundsSchema.minimum);
      rounds.max = String(roundsSchema.maximum);
      rounds.value = String(roundsSchema.default);
    }
    fieldsOf(kind);
    for (const [name, fields] of built) if (fields) fields.element.hidden = name !== kind.name;
    update();
  }

  function update() {
    players.replaceChildren(
      ...names.map((name, i) => field(t("start.player_n", { n: i + 1 }), h("input", {
        type: "text", name: "player", value: name, maxlength: "40",
        autocomplete: "off", required: true, onfocus: readRoster,
        ...(group ? { list: "roster" } : {}),
        oninput: (event) => {
          names[i] = event.target.value;
          updateFirst();
          drawSeatable();
        },
      }))),
      h("div", { class: "row" },
        button(t("start.add_player"), () => { names.push(""); update(); },
          { disabled: names.length >= kind.players.max }),
        button(t("start.remove_player"), () => { names.pop(); update(); },
          { disabled: names.length <= kind.players.min })));
    fieldsOf(kind)?.update(names.length);
    updateFirst();
    drawSeatable();
  }

  function updateFirst() {
    const chosen = firstPlayer.value;
    const named = names.map((n) => n.trim()).filter(Boolean);
    firstPlayer.replaceChildren(h("option", { value: "" }, t("start.draw_random")),
      ...named.map((n) => h("option", { value: n }, n)));
    firstPlayer.value = named.includes(chosen) ? chosen : "";
  }

  /** The options object: only what differs from the game's defaults. */
  function options() {
    const roundsSchema = option(kind, "rounds");
    const chosen = fieldsOf(kind)?.chosen(names.length) ?? {};
    if (roundsSchema && Number(rounds.value) !== roundsSchema.default) {
      chosen.rounds = Number(rounds.value);
    }
    return chosen;
  }

  // A refusal shows beside the Start button, where the player just tapped.
  const refusal = h("div");
  async function submit(event) {
    event.preventDefault();
    refusal.replaceChildren();
    const seats = names.map((n) => n.trim());
    const body = {
      game: kind.name,
      players: seats.map((n) => (fresh.has(n) ? { name: n, new: true } : n)),
    };
    if (firstPlayer.value) body.first_player = firstPlayer.value;
    const chosen = options();
    if (Object.keys(chosen).length) body.options = chosen;
    for (const [key, input] of [["title", title], ["location", location], ["notes", notes]]) {
      if (input.value.trim()) body[key] = input.value.trim();
    }
    // The phone's local time, sent with its offset so the service keeps the moment.
    if (playedAt.value) body.played_at = new Date(playedAt.value).toISOString();
    if (seed.value !== "") body.seed = Number(seed.value);
    try {
      // A game joins a group by the group's key that creates it.
      const game = await api.post("/games", body, group?.key);
      tokens.set(game.id, game.write_token);
      if (group) gameGroups.set(game.id, group.id);
      window.location.hash = `#/games/${game.id}`;
    } catch (error) {
      refusal.replaceChildren(refusalBox(error), ...seatChoices(error.players ?? []));
      refusal.scrollIntoView({ block: "nearest" });
    }
  }

  /** For each seat whose name is on nobody of the roster: its nearest names, one
   * tap to take one, and one to say the player is new (or, for several, one for
   * all); once every such seat is settled, the game starts. */
  function seatChoices(unknown) {
    const open = new Set(unknown.map(({ seat }) => seat));
    const settle = (seat, row) => {
      open.delete(seat);
      row.hidden = true;
      if (!open.size) form.requestSubmit();
    };
    const rows = unknown.map(({ seat, name, nearest }) => {
      const row = h("div", { class: "row seat-choice" });
      row.append(
        ...nearest.map((near) => button(t("start.meant", { name: near.name }), () => {
          names[seat] = near.name;
          update();
          settle(seat, row);
        })),
        button(t("start.new_player", { name }), () => {
          fresh.add(name);
          settle(seat, row);
        }));
      return row;
    });
    if (unknown.length < 2) return rows;
    const all = button(t("start.all_new"), () => {
      for (const { name } of unknown) fresh.add(name);
      form.requestSubmit();
    });
    return [...rows, h("div", { class: "row" }, all)];
  }

  choose(kind);
  const form = h("form", { class: "card", onsubmit: submit }, roster,
    field(t("start.game"), gameSelect),
    h("fieldset", {}, h("legend", {}, t("start.players")),
      group ? seatable : "", players),
    field(t("start.first_player"), firstPlayer),
    roundsField, gameOptions,
    field(t("start.title"), title),
    h("details", { class: "more" }, h("summary", {}, t("start.more")),
      field(t("start.where"), location),
      field(t("start.when"), playedAt),
      field(t("start.notes"), notes),
      field(t("start.seed"), seed)),
    h("button", { type: "submit", class: "primary" }, t("start.start")), refusal);
  return form;
}
