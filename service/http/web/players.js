// A player's page (#/players/<name>, and a group's player's: groups.js): each
// game's rating with a chart of it over time, seats and streak, rivals, head to head
// with another player, and recent games; and a game's leaderboard, or a group's
// (#/leaderboards/<game>?group=). Every figure is the service's
// (docs/api.md, "Ratings and leaderboards"); the games are the kinds it hosts.
import { api, groups } from "./api.js";
import { field, h, refusalBox, select } from "./dom.js";
import { t } from "./i18n.js";
import { gameLabel, kinds } from "./kinds.js";

const PAGE = 20;
const enc = encodeURIComponent;

/** The address of a player's page. */
export const playerLink = (name) => `#/players/${enc(name)}`;

/** The address of a roster player's page. */
export const groupPlayerLink = (group, player) => `#/groups/${group}/players/${player}`;

/** Where a name of the group named `group` leads: on a phone holding one of its
 * keys, to the page of the roster's player of that name (their record in the
 * group); else, or for a name the roster lacks, to the name's page. */
export async function peopleLinks(group) {
  const held = groups.named(group);
  if (!held) return playerLink;
  let players = [];
  try {
    ({ players } = await api.get(`/groups/${held.id}/players?retired=true`, held.key));
  } catch {
    return playerLink; // a key revoked: the names lead where they do for anyone
  }
  const byName = new Map(players.map((player) => [player.name.toLowerCase(), player.id]));
  return (name) => {
    const found = byName.get(name.toLowerCase());
    return found ? groupPlayerLink(held.id, found) : playerLink(name);
  };
}

/** The address of a leaderboard. */
export function boardLink(game, group) {
  return `#/leaderboards/${enc(game)}${group ? `?group=${enc(group)}` : ""}`;
}

const rating = (value) => value.toFixed(1);
const percent = (rate) => `${Math.round(rate * 100)}%`;

export async function showPlayer(root, name) {
  const path = `/players/${enc(name)}`;
  return playerPage(root, {
    record: () => api.get(path),
    ratings: (game) => api.get(`${path}/ratings/${enc(game)}`),
    versus: (other) => api.get(`${path}/versus/${enc(other)}`),
    board: (game) => boardLink(game),
    link: playerLink,
    recent: (found) => api.get(`/games?${new URLSearchParams({ player: found, limit: "10" })}`),
  });
}

/** A player's page, read from `source`: `record()`, `ratings(game)`, `versus(other)`
 * (`other` as `others` offers it, or a name typed), `recent(name)` the games of the
 * list; `board(game)` is the address of the ladder the record's places are on,
 * `link(name)` a rival's page (null: none); `others`, when given, the players to
 * compare with ({id, name}), else a name is typed; `heading` the page's heading. */
export async function playerPage(root, source) {
  const record = await source.record();
  root.append(h("h1", { tabindex: "-1" }, source.heading ?? record.name),
    h("p", { class: "muted" }, t("player.tally", {
      played: record.played, finished: record.finished, won: record.won })));
  for (const [game, line] of Object.entries(record.games)) {
    root.append(await gameSection(source, game, line));
  }
  root.append(rivals(record.rivals, source.link), headToHead(record.name, source),
    await recentGames(record.name, source));
  return null;
}

async function gameSection(source, game, line) {
  const id = `rating-${game}`;
  const section = h("section", { "aria-labelledby": id },
    h("h2", { id }, gameLabel(game)));
  if (!line.rating) {
    section.append(h("p", {}, t("player.unrated")));
    return section;
  }
  const { ordinal, games_rated: rated, wins, provisional } = line.rating;
  section.append(
    h("p", { class: "rating" }, t("player.rating", { rating: rating(ordinal) }),
      provisional ? h("span", { class: "badge" }, t("player.provisional")) : "",
      " · ", h("a", { href: source.board(game) },
        t("player.place", { place: line.place }))),
    h("p", { class: "muted" }, t("player.rated", { count: rated, wins })),
    h("ul", { class: "facts-list" },
      line.by_seat.map((seat) => h("li", {}, t("player.seat", {
        seat: seat.seat, won: seat.won, played: seat.played, rate: percent(seat.win_rate) }))),
      h("li", {}, t("player.first", {
        won: line.as_first_player.won, played: line.as_first_player.played,
        rate: percent(line.as_first_player.win_rate) })),
      h("li", {}, t("player.streak", { count: line.longest_winning_streak }))));
  const history = await source.ratings(game);
  section.append(chart(game, history.ratings.map((r) => r.ordinal)));
  return section;
}

/** The rating after each rated game, as a line: a figure with its own words. */
export function chart(game, values) {
  const width = 320;
  const height = 120;
  const low = Math.min(...values, 0);
  const high = Math.max(...values, 1);
  const x = (i) => (values.length < 2 ? width / 2 : (i * width) / (values.length - 1));
  const y = (v) => height - ((v - low) / (high - low)) * height;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `-4 -4 ${width + 8} ${height + 8}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  const label = t("player.chart", {
    game: gameLabel(game), count: values.length,
    first: rating(values[0] ?? 0), last: rating(values.at(-1) ?? 0) });
  svg.setAttribute("aria-label", label);
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", points);
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  return h("figure", {}, svg, h("figcaption", { class: "muted" }, label));
}

function rivals(found, link) {
  const named = (name) => {
    const address = link(name);
    return address ? h("a", { href: address }, name) : h("span", {}, name);
  };
  const list = (key, title, rivalsOf) => h("section", { "aria-labelledby": `rivals-${key}` },
    h("h3", { id: `rivals-${key}` }, title),
    rivalsOf.length
      ? h("ul", {}, rivalsOf.map((r) => h("li", {}, named(r.name), " · ",
        t("player.rival", { wins: r.wins, losses: r.losses, played: r.played }))))
      : h("p", { class: "muted" }, t("player.no_rival")));
  return h("section", { "aria-labelledby": "rivals-title", class: "rivals" },
    h("h2", { id: "rivals-title" }, t("player.rivals")),
    list("nemesis", t("player.nemesis"), found.nemesis),
    list("minion", t("player.minion"), found.minion));
}

/** Head to head: another player chosen (from `source.others`, or typed), then
 * their finished games together, each one's wins, and the games. */
function headToHead(name, source) {
  const answer = h("div", { "aria-live": "polite" });
  const others = source.others?.filter((other) => other.name !== name);
  const choice = others
    ? select(others.map((other) => [other.id, other.name]), others[0]?.id ?? "")
    : h("input", { type: "search", maxlength: "40", autocomplete: "off", required: true });
  const form = h("form", { class: "row filters", onsubmit: async (event) => {
    event.preventDefault();
    const other = others ? others.find((o) => o.id === choice.value) : choice.value.trim();
    if (!other) return;
    try {
      answer.replaceChildren(versusOf(await source.versus(other)));
    } catch (error) {
      answer.replaceChildren(refusalBox(error));
    }
  } }, field(t("player.versus_other"), choice),
  h("button", { type: "submit" }, t("player.versus_show")));
  return h("section", { "aria-labelledby": "versus-title" },
    h("h2", { id: "versus-title" }, t("player.versus")),
    others && !others.length ? h("p", { class: "muted" }, t("player.no_rival")) : form,
    answer);
}

/** Two players' games together, as `versus` answers them. */
export function versusOf(found) {
  if (!found.played) return h("p", {}, t("player.versus_none", { other: found.other }));
  return h("div", {},
    h("p", {}, t("player.versus_tally", { count: found.played, name: found.name,
      other: found.other, won: found.wins[found.name], lost: found.wins[found.other],
      shared: found.shared_wins })),
    h("ul", { class: "games" }, found.games.map((game) => h("li", {},
      h("a", { href: `#/games/${game.id}` }, gameLabel(game.game)),
      h("div", { class: "muted" }, t("home.won_by", { winners: game.winners }))))));
}

async function recentGames(name, source) {
  const page = await source.recent(name);
  return h("section", { "aria-labelledby": "recent-games" },
    h("h2", { id: "recent-games" }, t("player.recent")),
    page.games.length ? h("ul", { class: "games" }, page.games.map((game) => h("li", {},
      h("a", { href: `#/games/${game.id}` }, game.title || gameLabel(game.game)),
      h("div", { class: "muted" }, game.status === "finished"
        ? t("home.won_by", { winners: game.winners }) : t("home.playing")))))
      : h("p", { class: "muted" }, t("player.no_games")));
}

export async function showLeaderboard(root, game, group) {
  let offset = 0;
  const table = h("div", { "aria-live": "polite" });
  const nav = h("div", { class: "row pager" });
  const kind = select(kinds().map((k) => [k.name, gameLabel(k.name)]), game);
  const groupBox = h("input", { type: "search", maxlength: "40", value: group ?? "" });
  const form = h("form", {
    class: "row filters", "aria-label": t("board.choose"),
    onsubmit: (event) => {
      event.preventDefault();
      location.hash = boardLink(kind.value, groupBox.value.trim());
    },
  }, field(t("board.game"), kind), field(t("board.group"), groupBox),
  h("button", { type: "submit" }, t("board.show")));
  root.append(h("h1", { tabindex: "-1" }, group
    ? t("board.title_group", { game: gameLabel(game), group })
    : t("board.title", { game: gameLabel(game) })), form, table, nav);

  async function load() {
    const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (group) query.set("group", group);
    // A group's ladder is its members' unless its games are public: read with its
    // key when this device holds one.
    const [board, linkOf] = await Promise.all([
      api.get(`/leaderboards/${enc(game)}?${query}`, groups.named(group)?.key),
      peopleLinks(group)]);
    table.replaceChildren(board.players.length ? h("div", { class: "board-wrap" },
      h("table", { class: "board" },
      h("thead", {}, h("tr", {}, ["board.place", "board.player", "board.rating",
        "board.games", "board.wins"].map((key) => h("th", { scope: "col" }, t(key))))),
      h("tbody", {}, board.players.map((line) => h("tr", {},
        h("td", {}, String(line.place)),
        h("th", { scope: "row" }, h("a", { href: linkOf(line.name) }, line.name),
          line.provisional ? h("span", { class: "badge" }, t("player.provisional")) : ""),
        h("td", {}, rating(line.ordinal)),
        h("td", {}, String(line.games_rated)),
        h("td", {}, String(line.wins)))))))
      : h("p", {}, t("board.empty")));
    nav.replaceChildren(
      h("button", { type: "button", disabled: offset === 0,
        onclick: () => { offset = Math.max(0, offset - PAGE); load(); } }, t("board.better")),
      h("button", { type: "button", disabled: board.next_offset === null,
        onclick: () => { offset = board.next_offset; load(); } }, t("board.next")));
  }
  await load();
  return null;
}

/** Links to every game's leaderboard, for the start page. */
export function boardLinks() {
  return h("nav", { "aria-labelledby": "boards-title" },
    h("h2", { id: "boards-title" }, t("board.links")),
    h("ul", { class: "row links" }, kinds().map((k) => h("li", {},
      h("a", { href: boardLink(k.name) }, gameLabel(k.name))))));
}
