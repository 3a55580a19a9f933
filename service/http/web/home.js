// The start page: a form to start a game of any kind with every option the API takes,
// and the games logged so far, filtered and a page at a time.
import { api, GAMES, gameLabel, tokens } from "./api.js";
import { button, field, h, refusalBox, select, uid } from "./dom.js";

const PAGE = 10;

export async function showHome(root) {
  const recent = h("section", { "aria-labelledby": "recent-title" });
  root.append(h("h1", { tabindex: "-1" }, "Start a game"), newGameForm(), recent);
  await gameList(recent);
}

/** When a game was played (or else created), as the table reads it. */
export function when(game) {
  const at = new Date(game.played_at ?? game.created_at);
  return h("time", { datetime: at.toISOString() }, at.toLocaleString([], {
    weekday: "short", day: "numeric", month: "short", year: "numeric",
    hour: "2-digit", minute: "2-digit",
  }));
}

async function gameList(box) {
  const filter = { game: "", status: "", player: "" };
  let offset = 0;
  const list = h("div", { "aria-live": "polite" });
  const nav = h("div", { class: "row pager" });
  const kind = select([["", "Every game"], ...GAMES.map((g) => [g.name, g.label])], "",
    { onchange: () => { filter.game = kind.value; offset = 0; load(); } });
  const status = select([["", "Any"], ["in_progress", "In progress"],
    ["finished", "Finished"]], "",
  { onchange: () => { filter.status = status.value; offset = 0; load(); } });
  const player = h("input", { type: "search", autocomplete: "off", maxlength: "40" });
  const form = h("form", {
    class: "row filters", role: "search", "aria-label": "Find games",
    onsubmit: (event) => {
      event.preventDefault();
      filter.player = player.value.trim();
      offset = 0;
      load();
    },
  }, field("Of the game", kind), field("Status", status), field("With the player", player),
  h("button", { type: "submit" }, "Find"));
  box.append(h("h2", { id: "recent-title" }, "Games"), form, list, nav);

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
      : h("p", {}, offset ? "No more games." : "No game matches."));
    nav.replaceChildren(
      button("Newer games", () => { offset = Math.max(0, offset - PAGE); load(); },
        { disabled: offset === 0 }),
      h("span", { class: "muted" }, page.games.length
        ? `${offset + 1}–${offset + page.games.length}` : ""),
      button("Older games", () => { offset = page.next_offset; load(); },
        { disabled: page.next_offset === null }));
  }
  await load();
}

function gameItem(game) {
  const status = game.status === "finished"
    ? `won by ${game.winners.join(" and ")}` : "in progress";
  const title = game.title || gameLabel(game.game);
  return h("li", {},
    h("a", { href: `#/games/${game.id}` }, title),
    h("div", { class: "muted" }, game.title ? `${gameLabel(game.game)} · ` : "",
      when(game), ` · ${status}`),
    h("div", { class: "players-line" }, game.players.join(", ")));
}

// --- starting a game -----------------------------------------------------------------

const DOZITO_COLORS = ["red", "blue", "green", "purple", "yellow"];
const SCALES = [["official", "Most points wins (official)"],
  ["fewest-first", "Fewest points wins (the French guide's scale)"]];

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
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => number(`${n}s`, String(n))),
    number("Wilds", "wilds"), number("Skips", "skips"), number("Reverses", "reverses"));
  use.addEventListener("change", () => { grid.hidden = !use.checked; });
  const box = h("fieldset", {}, h("legend", {}, "Deck"),
    h("label", { class: "check", for: use.id }, use, " A house deck (else the edition's)"),
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
  const firstPlayer = select([["", "Draw at random"]], "", { name: "first_player" });
  const rounds = h("input", {
    type: "number", name: "rounds", min: "1", max: "99", value: "3", inputmode: "numeric",
  });
  const roundsField = field("Rounds", rounds);
  const scoring = select(SCALES, "official", { name: "scoring" });
  const removeSkips = select([["", "As the edition says"], ["true", "Take them out"],
    ["false", "Keep them"]], "", { name: "two_player_remove_skips" });
  const skipsField = field("With two players, the Skip cards (D5)", removeSkips);
  const deck = houseDeck();
  const colors = DOZITO_COLORS.map((color, i) => h("input", {
    type: "text", value: color, maxlength: "40", "aria-label": `Colour ${i + 1}`,
  }));
  const colorsField = h("fieldset", {}, h("legend", {}, "The five colours"),
    h("div", { class: "row colors" }, colors));
  const dobroOptions = h("div", {}, field("Scoring", scoring), skipsField, deck);
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
      ...names.map((name, i) => field(`Player ${i + 1}`, h("input", {
        type: "text", name: "player", value: name, maxlength: "40",
        autocomplete: "off", required: true,
        oninput: (event) => { names[i] = event.target.value; updateFirst(); },
      }))),
      h("div", { class: "row" },
        button("Add a player", () => { names.push(""); update(); },
          { disabled: names.length >= kind.max }),
        button("Remove the last player", () => { names.pop(); update(); },
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
    firstPlayer.replaceChildren(h("option", { value: "" }, "Draw at random"),
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
    field("Game", gameSelect),
    h("fieldset", {}, h("legend", {}, "Players, in seating order (clockwise)"), players),
    field("First player", firstPlayer),
    roundsField, dobroOptions, colorsField,
    field("Title (optional)", title),
    h("details", { class: "more" }, h("summary", {}, "Place, date, notes and seed"),
      field("Where (optional)", location),
      field("When it was played (optional)", playedAt),
      field("Notes (optional)", notes),
      field("Seed (optional: repeats a random draw)", seed)),
    h("button", { type: "submit", class: "primary" }, "Start the game"), refusal);
}
