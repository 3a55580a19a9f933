// The start page: a form to start a game of any kind with every option the API takes,
// and the games logged so far, filtered and a page at a time.
import { api, GAMES, gameLabel, tokens } from "./api.js";
import { button, field, h, refusalBox, select, uid } from "./dom.js";
import { dateTime, t } from "./i18n.js";

const PAGE = 10;

export async function showHome(root) {
  const recent = h("section", { "aria-labelledby": "recent-title" });
  root.append(h("h1", { tabindex: "-1" }, t("home.title")), newGameForm(), recent);
  await gameList(recent);
}

/** When a game was played (or else created), as the table reads it. */
export function when(game) {
  const at = new Date(game.played_at ?? game.created_at);
  return h("time", { datetime: at.toISOString() }, dateTime(at, {
    weekday: "short", day: "numeric", month: "short", year: "numeric",
    hour: "2-digit", minute: "2-digit",
  }));
}

async function gameList(box) {
  const filter = { game: "", status: "", player: "" };
  let offset = 0;
  const list = h("div", { "aria-live": "polite" });
  const nav = h("div", { class: "row pager" });
  const kind = select([["", t("home.every_game")], ...GAMES.map((g) => [g.name, g.label])], "",
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
  box.append(h("h2", { id: "recent-title" }, t("home.games")), form, list, nav);

  async function load() {
    const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
    let page;
    try {
      page = await api.get(`/games?${query}`);
    } catch (error) {
      list.replaceChildren(refusalBox(error));
      return;
    }
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

function gameItem(game) {
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

const DOZITO_COLORS = ["red", "blue", "green", "purple", "yellow"];
const SCALES = () => [["official", t("start.scale_official")],
  ["fewest-first", t("start.scale_fewest")]];

function isDobro(kind) {
  return kind.name === "dobro" || kind.name === "dobro-pixar";
}

/** A house deck for Dobro (D1, T1): counts per value 2–12, wilds, Skips, Reverses. */
function houseDeck() {
  const counts = new Map();
  const number = (label, name) => {
    const input = h("input", {
      type: "number", inputmode: "numeric", min: "0", max: "99", value: "0", name,
    });
    counts.set(name, input);
    return field(label, input);
  };
  const use = h("input", { type: "checkbox", id: uid("house") });
  const grid = h("div", { class: "deck", hidden: true },
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) =>
      number(t("start.count_of", { value: n }), String(n))),
    number(t("start.wilds"), "wilds"), number(t("start.skips"), "skips"),
    number(t("start.reverses"), "reverses"));
  use.addEventListener("change", () => { grid.hidden = !use.checked; });
  const box = h("fieldset", {}, h("legend", {}, t("start.deck")),
    h("label", { class: "check", for: use.id }, use, t("start.house_deck")),
    grid);
  box.deck = () => {
    if (!use.checked) return null;
    const numbered = {};
    for (let n = 2; n <= 12; n += 1) {
      const count = Number(counts.get(String(n)).value);
      if (count) numbered[String(n)] = count;
    }
    return { numbered, wilds: Number(counts.get("wilds").value),
      skips: Number(counts.get("skips").value),
      reverses: Number(counts.get("reverses").value) };
  };
  return box;
}

function newGameForm() {
  let kind = GAMES[0];
  let names = ["", "", ""];
  const players = h("div", { class: "players" });
  const firstPlayer = select([["", t("start.draw_random")]], "", { name: "first_player" });
  const rounds = h("input", {
    type: "number", name: "rounds", min: "1", max: "99", value: "3", inputmode: "numeric",
  });
  const roundsField = field(t("start.rounds"), rounds);
  const scoring = select(SCALES(), "official", { name: "scoring" });
  const removeSkips = select([["", t("start.as_edition")], ["true", t("start.take_out")],
    ["false", t("start.keep")]], "", { name: "two_player_remove_skips" });
  const skipsField = field(t("start.two_player_skips"), removeSkips);
  const deck = houseDeck();
  const colors = DOZITO_COLORS.map((color, i) => h("input", {
    type: "text", value: color, maxlength: "40", "aria-label": t("start.colour_n", { n: i + 1 }),
  }));
  const colorsField = h("fieldset", {}, h("legend", {}, t("start.five_colours")),
    h("div", { class: "row colors" }, colors));
  const dobroOptions = h("div", {}, field(t("start.scoring"), scoring), skipsField, deck);
  const title = h("input", { type: "text", name: "title", maxlength: "200" });
  const location = h("input", { type: "text", name: "location", maxlength: "200" });
  const playedAt = h("input", { type: "datetime-local", name: "played_at" });
  const notes = h("textarea", { name: "notes", maxlength: "2000", rows: "2" });
  const seed = h("input", {
    type: "number", name: "seed", min: "0", inputmode: "numeric",
  });
  const gameSelect = select(GAMES.map((g) => [g.name, g.label]), kind.name, {
    name: "game",
    onchange: () => {
      kind = GAMES.find((g) => g.name === gameSelect.value);
      names = names.slice(0, kind.max);
      while (names.length < kind.min) names.push("");
      rounds.max = kind.name === "dozito" ? "20" : "99";
      update();
    },
  });

  function update() {
    players.replaceChildren(
      ...names.map((name, i) => field(t("start.player_n", { n: i + 1 }), h("input", {
        type: "text", name: "player", value: name, maxlength: "40",
        autocomplete: "off", required: true,
        oninput: (event) => { names[i] = event.target.value; updateFirst(); },
      }))),
      h("div", { class: "row" },
        button(t("start.add_player"), () => { names.push(""); update(); },
          { disabled: names.length >= kind.max }),
        button(t("start.remove_player"), () => { names.pop(); update(); },
          { disabled: names.length <= kind.min })));
    roundsField.hidden = kind.rounds === null;
    dobroOptions.hidden = !isDobro(kind);
    skipsField.hidden = names.length !== 2;
    colorsField.hidden = kind.name !== "dozito";
    updateFirst();
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
    const chosen = {};
    if (kind.rounds !== null && Number(rounds.value) !== kind.rounds) {
      chosen.rounds = Number(rounds.value);
    }
    if (isDobro(kind)) {
      if (scoring.value !== "official") chosen.scoring = scoring.value;
      if (names.length === 2 && removeSkips.value) {
        chosen.two_player_remove_skips = removeSkips.value === "true";
      }
      const house = deck.deck();
      if (house) chosen.deck = house;
    }
    const named = colors.map((c) => c.value.trim());
    if (kind.name === "dozito" && named.join() !== DOZITO_COLORS.join()) {
      chosen.colors = named;
    }
    return chosen;
  }

  // A refusal shows beside the Start button, where the player just tapped.
  const refusal = h("div");
  async function submit(event) {
    event.preventDefault();
    refusal.replaceChildren();
    const body = { game: kind.name, players: names.map((n) => n.trim()) };
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
      const game = await api.post("/games", body);
      tokens.set(game.id, game.write_token);
      window.location.hash = `#/games/${game.id}`;
    } catch (error) {
      refusal.replaceChildren(refusalBox(error));
      refusal.scrollIntoView({ block: "nearest" });
    }
  }

  update();
  return h("form", { class: "card", onsubmit: submit },
    field(t("start.game"), gameSelect),
    h("fieldset", {}, h("legend", {}, t("start.players")), players),
    field(t("start.first_player"), firstPlayer),
    roundsField, dobroOptions, colorsField,
    field(t("start.title"), title),
    h("details", { class: "more" }, h("summary", {}, t("start.more")),
      field(t("start.where"), location),
      field(t("start.when"), playedAt),
      field(t("start.notes"), notes),
      field(t("start.seed"), seed)),
    h("button", { type: "submit", class: "primary" }, t("start.start")), refusal);
}
