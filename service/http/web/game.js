// One game: its state, the moves the state allows, the score sheet; live from the stream.
import { api, gameLabel, tokens } from "./api.js";
import { button, clearRefusal, field, h, refuse, say } from "./dom.js";
import { dobroMoves } from "./moves/dobro.js";
import { donkeyMoves } from "./moves/donkey.js";
import { dozitoMoves } from "./moves/dozito.js";
import { renderSheet } from "./sheet.js";
import { renderState } from "./state.js";

const MOVES = {
  dobro: dobroMoves,
  "dobro-pixar": dobroMoves,
  dozito: dozitoMoves,
  "double-donkey": donkeyMoves,
};

export async function showGame(root, id) {
  let game = await api.get(`/games/${id}`);
  const stateBox = h("section", { class: "card", "aria-labelledby": "state-title" });
  const movesBox = h("section", { class: "card moves", "aria-labelledby": "moves-title" });
  const sheetBox = h("section", { class: "card", "aria-labelledby": "sheet-title" });
  root.append(
    h("h1", { tabindex: "-1" }, game.title || gameLabel(game.game)),
    h("p", { class: "muted" }, game.players.join(" · "), " · ",
      h("a", { href: `#/games/${id}/replay` }, "Replay")),
    stateBox, movesBox, sheetBox);

  function render() {
    stateBox.replaceChildren(h("h2", { id: "state-title" }, "On the table"),
      winnersLine(game), renderState(game.game, game.state, game.players));
    movesBox.replaceChildren(...movesPanel());
  }

  function movesPanel() {
    const title = h("h2", { id: "moves-title", tabindex: "-1" }, "Log a move");
    const token = tokens.get(id);
    if (!token) return [title, tokenForm()];
    const undo = button("Undo the last move", () => submit({ type: "undo" }),
      { disabled: game.version <= 1 });
    if (game.status === "finished") {
      return [title, h("p", {}, "The game is over. A mistake can still be undone."), undo];
    }
    return [title, MOVES[game.game](game, submit), h("div", { class: "row undo" }, undo)];
  }

  function tokenForm() {
    const input = h("input", { type: "password", autocomplete: "off" });
    return h("form", {
      onsubmit: (event) => {
        event.preventDefault();
        if (input.value.trim()) tokens.set(id, input.value.trim());
        render();
      },
    }, h("p", {}, "This device is watching. To log moves, enter the game's write token."),
    field("Write token", input), h("button", { type: "submit" }, "Use this token"));
  }

  async function refresh() {
    const [summary, sheet] = await Promise.all([
      api.get(`/games/${id}`), api.get(`/games/${id}/scoresheet`)]);
    if (summary.version < game.version) return; // a late answer: newer is shown
    renderSheet(sheetBox, game.game, sheet);
    if (summary.version === game.version && movesBox.childElementCount) return;
    game = summary;
    render();
  }

  async function submit(move) {
    clearRefusal();
    try {
      const answer = await api.post(`/games/${id}/moves`,
        { ...move, expected_version: game.version }, tokens.get(id));
      await refresh();
      say(`Logged: move ${answer.version - 1}.`);
      movesBox.querySelector("h2").focus();
    } catch (error) {
      refuse(error);
    }
  }

  render();
  await refresh();
  // Every stored move arrives here, this device's and every other's.
  const stream = new EventSource(`/games/${id}/stream?after=${game.version}`);
  stream.addEventListener("move", () => refresh().catch(refuse));
  return { close: () => stream.close() };
}

function winnersLine(game) {
  if (game.status !== "finished") return "";
  return h("p", { class: "winners" },
    `Game over: ${game.winners.join(" and ")} ${game.winners.length > 1 ? "win" : "wins"}.`);
}
