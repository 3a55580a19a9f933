// The start page: a form to start a game of any kind, and the latest games.
import { api, GAMES, gameLabel, tokens } from "./api.js";
import { button, field, h, refusalBox, select } from "./dom.js";

export async function showHome(root) {
  const form = newGameForm();
  const recent = h("section", { "aria-labelledby": "recent-title" },
    h("h2", { id: "recent-title" }, "Latest games"));
  root.append(h("h1", { tabindex: "-1" }, "Start a game"), form, recent);
  try {
    const list = await api.get("/games?limit=10");
    recent.append(list.games.length
      ? h("ul", { class: "games" }, list.games.map(gameItem))
      : h("p", {}, "No games yet."));
  } catch (error) {
    recent.append(refusalBox(error));
  }
}

function gameItem(game) {
  const status = game.status === "finished"
    ? `won by ${game.winners.join(" and ")}` : "in progress";
  return h("li", {},
    h("a", { href: `#/games/${game.id}` },
      `${game.title || gameLabel(game.game)}: ${game.players.join(", ")}`),
    h("span", { class: "muted" }, ` · ${status}`));
}

function newGameForm() {
  let kind = GAMES[0];
  let names = ["", "", ""];
  const players = h("div", { class: "players" });
  const firstPlayer = select([["", "Draw at random"]], "", { name: "first_player" });
  const rounds = h("input", {
    type: "number", name: "rounds", min: "1", max: "20", value: "3", inputmode: "numeric",
  });
  const roundsField = field("Rounds", rounds);
  const title = h("input", { type: "text", name: "title", maxlength: "200" });
  const gameSelect = select(GAMES.map((g) => [g.name, g.label]), kind.name, {
    name: "game",
    onchange: () => {
      kind = GAMES.find((g) => g.name === gameSelect.value);
      names = names.slice(0, kind.max);
      while (names.length < kind.min) names.push("");
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
    updateFirst();
  }

  function updateFirst() {
    const chosen = firstPlayer.value;
    const named = names.map((n) => n.trim()).filter(Boolean);
    firstPlayer.replaceChildren(h("option", { value: "" }, "Draw at random"),
      ...named.map((n) => h("option", { value: n }, n)));
    firstPlayer.value = named.includes(chosen) ? chosen : "";
  }

  // A refusal shows beside the Start button, where the player just tapped.
  const refusal = h("div");
  async function submit(event) {
    event.preventDefault();
    refusal.replaceChildren();
    const body = { game: kind.name, players: names.map((n) => n.trim()) };
    if (firstPlayer.value) body.first_player = firstPlayer.value;
    if (kind.rounds !== null && Number(rounds.value) !== kind.rounds) {
      body.options = { rounds: Number(rounds.value) };
    }
    if (title.value.trim()) body.title = title.value.trim();
    try {
      const game = await api.post("/games", body);
      tokens.set(game.id, game.write_token);
      location.hash = `#/games/${game.id}`;
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
    roundsField,
    field("Title (optional)", title),
    h("button", { type: "submit", class: "primary" }, "Start the game"), refusal);
}
