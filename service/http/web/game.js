// One game: its state, the moves the state allows, the moves so far, the score sheet;
// live from the stream.
import { api, gameLabel, tokens } from "./api.js";
import { button, field, h, refuse, refusalBox, say } from "./dom.js";
import { entry, loadHistory, moveNumber, renderHistory, undoTarget } from "./history.js";
import { dobroMoves } from "./moves/dobro.js";
import { donkeyMoves } from "./moves/donkey.js";
import { dozitoMoves } from "./moves/dozito.js";
import { when } from "./home.js";
import { sharePanel } from "./share.js";
import { renderSheet } from "./sheet.js";
import { renderState } from "./state.js";

const MOVES = {
  dobro: dobroMoves,
  "dobro-pixar": dobroMoves,
  dozito: dozitoMoves,
  "double-donkey": donkeyMoves,
};

export async function showGame(root, id) {
  let [game, entries] = await Promise.all([api.get(`/games/${id}`), loadHistory(id)]);
  let allHistory = false;
  const stateBox = h("section", { class: "card", "aria-labelledby": "state-title" });
  const movesBox = h("section", { class: "card moves", "aria-labelledby": "moves-title" });
  const historyBox = h("section", { class: "card", "aria-labelledby": "history-title" });
  const sheetBox = h("section", { class: "card", "aria-labelledby": "sheet-title" });
  const shareBox = h("div", { class: "share-box" });
  const drawShare = () => shareBox.replaceChildren(...sharePanel(id, tokens.get(id)));
  drawShare();
  root.append(
    h("h1", { tabindex: "-1" }, game.title || gameLabel(game.game)),
    h("p", { class: "muted" }, game.players.join(" · "), h("br"), when(game),
      game.location ? ` · ${game.location}` : "", " · ",
      h("a", { href: `#/games/${id}/replay` }, "Replay")),
    shareBox, stateBox, movesBox, historyBox, sheetBox);

  // A refusal is drawn beside the control that was tapped, where the player is
  // looking, and it goes with the next tap (or key press) in the panel.
  let tapped = null;
  let refusal = null;
  const clearRefusal = () => { refusal?.remove(); refusal = null; };
  movesBox.addEventListener("click", (event) => {
    const control = event.target.closest("button, input, select, label");
    if (!control) return;
    tapped = control;
    clearRefusal();
  }, true);
  movesBox.addEventListener("change", clearRefusal, true);

  function showRefusal(error) {
    clearRefusal();
    refusal = refusalBox(error);
    const anchor = tapped?.isConnected ? tapped.closest(".row, .field, fieldset") ?? tapped
      : movesBox.querySelector("h2");
    anchor.after(refusal);
    refusal.scrollIntoView({ block: "nearest" });
  }

  function render() {
    stateBox.replaceChildren(h("h2", { id: "state-title" }, "On the table"),
      winnersLine(game), renderState(game.game, game.state, game.players));
    movesBox.replaceChildren(...movesPanel());
    if (refusal) movesBox.querySelector("h2").after(refusal);
    renderHistory(historyBox, entries, allHistory, () => {
      allHistory = true;
      renderHistory(historyBox, entries, true);
    });
  }

  function movesPanel() {
    const title = h("h2", { id: "moves-title", tabindex: "-1" }, "Log a move");
    const token = tokens.get(id);
    if (!token) return [title, game.status === "finished" ? h("p", {}, "The game is over.")
      : tokenForm()];
    const target = undoTarget(entries);
    const undo = h("div", { class: "row undo" }, button(target
      ? `Undo move ${moveNumber(target)}: “${target.description ?? target.type}”`
      : "Nothing to undo", () => submit({ type: "undo" }), { disabled: !target }));
    if (game.status === "finished") {
      return [title, h("p", {}, "The game is over. A mistake can still be undone."), undo];
    }
    return [title, MOVES[game.game](game, submit), undo];
  }

  function tokenForm() {
    const input = h("input", { type: "password", autocomplete: "off" });
    return h("form", {
      onsubmit: (event) => {
        event.preventDefault();
        if (input.value.trim()) tokens.set(id, input.value.trim());
        drawShare();
        render();
      },
    }, h("p", {}, "This device is watching. To log moves from it, open the game's ",
      "share link for logging on it (ask the phone that logs), or enter the write token."),
    field("Write token", input), h("button", { type: "submit" }, "Use this token"));
  }

  /** Add stored events (from the stream or a move's answer) and their sentences. */
  async function learn(events) {
    const stored = events.filter((e) => e.version > 1);
    for (const event of stored) {
      if (entries.has(event.version)) continue;
      const fresh = entry(event);
      // Two refreshes may learn one move: both wait for its one sentence.
      fresh.ready = api.get(`/games/${id}/replay/${event.version - 1}`)
        .then((step) => { fresh.description = step.description; });
      entries.set(event.version, fresh);
    }
    await Promise.all(stored.map((e) => entries.get(e.version).ready));
  }

  async function refresh() {
    const [summary, sheet, log] = await Promise.all([
      api.get(`/games/${id}`), api.get(`/games/${id}/scoresheet`),
      api.get(`/games/${id}/events?after=${Math.max(1, ...entries.keys())}`)]);
    if (summary.version < game.version) return; // a late answer: newer is shown
    await learn(log.events);
    renderSheet(sheetBox, game.game, sheet);
    if (summary.version === game.version && movesBox.childElementCount) return;
    game = summary;
    render();
  }

  async function submit(move) {
    try {
      const answer = await api.post(`/games/${id}/moves`,
        { ...move, expected_version: game.version }, tokens.get(id));
      await refresh();
      const logged = entries.get(answer.version);
      say(`Logged: move ${answer.version - 1}${logged?.description
        ? `, ${logged.description}` : ""}.`);
      movesBox.querySelector("h2").focus();
    } catch (error) {
      // Another phone logged first: show the game as it now stands, then why.
      if (error.status === 409) await refresh().catch(() => {});
      showRefusal(error);
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
