// One game: its state, the moves the state allows, the moves so far, the score sheet;
// live from the stream.
import { api, gameLabel, tokens } from "./api.js";
import { button, field, h, refuse, refusalBox, say } from "./dom.js";
import {
  entry, loadEarlier, loadHistory, moveNumber, reachUndoTarget, renderHistory, undoTarget,
} from "./history.js";
import { dobroMoves } from "./moves/dobro.js";
import { donkeyMoves } from "./moves/donkey.js";
import { dozitoMoves } from "./moves/dozito.js";
import { when } from "./home.js";
import { t } from "./i18n.js";
import { idempotencyKey, queue, sketch } from "./queue.js";
import { sharePanel } from "./share.js";
import { renderSheet } from "./sheet.js";
import { renderState } from "./state.js";

const MOVES = {
  dobro: dobroMoves,
  "dobro-pixar": dobroMoves,
  dozito: dozitoMoves,
  "double-donkey": donkeyMoves,
};

/** `offered`: a write token a link brought that differs from the one this phone
 * holds; the player chooses which to keep. */
export async function showGame(root, id, { offered = null } = {}) {
  let game = await api.get(`/games/${id}`);
  // The newest moves first: older pages load when the table asks for them.
  const history = await loadHistory(id, game.version);
  const { entries } = history;
  let allHistory = false;
  const stateBox = h("section", { class: "card", "aria-labelledby": "state-title" });
  const movesBox = h("section", { class: "card moves", "aria-labelledby": "moves-title" });
  const historyBox = h("section", { class: "card", "aria-labelledby": "history-title" });
  const sheetBox = h("section", { class: "card", "aria-labelledby": "sheet-title" });
  const shareBox = h("div", { class: "share-box" });
  const queueBox = h("section", { class: "card queue", "aria-labelledby": "queue-title",
    "aria-live": "polite" });
  const drawShare = () => shareBox.replaceChildren(...sharePanel(id, tokens.get(id)));
  drawShare();
  const choiceBox = h("div", { class: "token-choice", role: "group",
    "aria-labelledby": "token-choice-text" });
  drawTokenChoice();
  root.append(
    h("h1", { tabindex: "-1" }, game.title || gameLabel(game.game)),
    h("p", { class: "muted" }, game.players.join(" · "), h("br"), when(game),
      game.location ? ` · ${game.location}` : "", " · ",
      h("a", { href: `#/games/${id}/replay` }, t("game.replay"))),
    choiceBox, shareBox, stateBox, movesBox, queueBox, historyBox, sheetBox);

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
    stateBox.replaceChildren(h("h2", { id: "state-title" }, t("game.on_the_table")),
      winnersLine(game), renderState(game.game, game.state, game.players));
    movesBox.replaceChildren(...movesPanel());
    if (refusal) movesBox.querySelector("h2").after(refusal);
    drawHistory();
  }

  const drawHistory = () => renderHistory(historyBox, history, allHistory, earlier);

  /** "Show earlier moves": the rest of the page loaded, then a page further back. */
  async function earlier(event) {
    event.target.disabled = true; // one page at a time
    try {
      if (allHistory) await loadEarlier(history);
    } catch (error) {
      event.target.disabled = false;
      refuse(error);
      return;
    }
    allHistory = true;
    drawHistory();
    (historyBox.querySelector("button") ?? historyBox.querySelector("h2")).focus();
  }

  function movesPanel() {
    const title = h("h2", { id: "moves-title", tabindex: "-1" }, t("game.log_a_move"));
    const token = tokens.get(id);
    if (!token) return [title, game.status === "finished" ? h("p", {}, t("game.over"))
      : tokenForm()];
    const target = undoTarget(entries);
    const undo = h("div", { class: "row undo" }, button(target
      ? t("game.undo", { number: moveNumber(target), move: target.description ?? target.type })
      : t("game.nothing_to_undo"), () => submit({ type: "undo" }), { disabled: !target }));
    if (game.status === "finished") {
      return [title, h("p", {}, t("game.over_undo")), undo];
    }
    return [title, MOVES[game.game](game, submit), undo];
  }

  /** Keep this phone's write token, or take the one a link brought instead. */
  function drawTokenChoice() {
    if (!offered) {
      choiceBox.replaceChildren();
      choiceBox.hidden = true;
      return;
    }
    const chosen = (token) => {
      if (token) tokens.set(id, token);
      offered = null;
      drawTokenChoice();
      drawShare();
      render();
      movesBox.querySelector("h2").focus();
    };
    choiceBox.hidden = false;
    choiceBox.replaceChildren(
      h("p", { id: "token-choice-text" }, t("game.token_offered")),
      h("div", { class: "row" },
        button(t("game.token_keep"), () => chosen(null), { class: "primary" }),
        button(t("game.token_replace"), () => chosen(offered))));
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
    }, h("p", {}, t("game.watching")),
    field(t("game.write_token"), input), h("button", { type: "submit" }, t("game.use_token")));
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
    await reachUndoTarget(history);
    renderSheet(sheetBox, game.game, sheet);
    if (summary.version === game.version && movesBox.childElementCount) return;
    game = summary;
    render();
  }

  const send = (item) => api.post(`/games/${id}/moves`, item.body, tokens.get(id),
    { "Idempotency-Key": item.key });

  async function submit(move) {
    const waiting = queue.get(id);
    const item = { key: idempotencyKey(),
      body: { ...move, expected_version: game.version + waiting.length } };
    if (waiting.length) { // behind moves not sent yet: in order, after them
      queue.push(id, item);
      drawQueue();
      flush();
      return;
    }
    try {
      const answer = await send(item);
      await refresh();
      const logged = entries.get(answer.version);
      const number = answer.version - 1;
      say(logged?.description ? t("game.logged_said", { number, move: logged.description })
        : t("game.logged", { number }));
      movesBox.querySelector("h2").focus();
    } catch (error) {
      if (error.unreachable) {
        queue.push(id, item);
        drawQueue();
        say(t("game.offline"));
        // What was lost may be only the answer, on a network that works again:
        // then this sends it at once (its key makes the service answer, not store).
        flush();
        return;
      }
      // Another phone logged first: show the game as it now stands, then why.
      if (error.status === 409) await refresh().catch(() => {});
      showRefusal(error);
    }
  }

  // --- the queue of moves waiting for the connection ---------------------------------
  let flushing = false;
  async function flush() {
    if (flushing) return;
    flushing = true;
    let sent = 0;
    try {
      for (;;) {
        const [head, ...rest] = queue.get(id);
        if (!head || head.refusal) break;
        try {
          await send(head); // a retry of a move that did arrive is answered, not stored
        } catch (error) {
          if (error.unreachable) break;
          queue.set(id, [{ ...head, refusal: { rule: error.rule, message: error.message } },
            ...rest]);
          break;
        }
        queue.set(id, queue.get(id).slice(1));
        sent += 1;
        drawQueue();
      }
    } finally {
      flushing = false;
      drawQueue();
    }
    if (sent || queue.get(id)[0]?.refusal) await refresh().catch(() => {});
    if (sent) {
      say(t("game.sent", { count: sent }));
    }
  }

  /** After a refusal on arrival: the waiting moves again, on the game as it stands.
   * None of them was stored (the queue stops at a refusal), so new keys are safe. */
  function rebase(moves) {
    queue.set(id, moves.map((item, i) => ({ key: idempotencyKey(),
      body: { ...item.body, expected_version: game.version + i } })));
    drawQueue();
    flush();
  }

  function drawQueue() {
    const waiting = queue.get(id);
    queueBox.hidden = waiting.length === 0;
    const refused = waiting[0]?.refusal;
    queueBox.replaceChildren(h("h2", { id: "queue-title" },
      t("game.waiting", { count: waiting.length })),
    h("ol", {}, waiting.map((item) => h("li", {}, sketch(item.body)))),
    refused ? h("div", { class: "refusal", role: "alert" },
      h("strong", {}, refused.rule ? t("refusal.arrival_ruled", { rule: refused.rule })
        : t("refusal.arrival")), h("span", {}, refused.message),
      h("p", {}, t("game.settle")),
      h("div", { class: "row" },
        button(t("game.send_again"), () => rebase(waiting)),
        button(t("game.drop_one"), () => rebase(waiting.slice(1))),
        button(t("game.drop_all"), () => rebase([]))))
      : h("p", { class: "muted" }, t("game.sent_on_return")));
  }

  const retry = () => flush();
  window.addEventListener("online", retry);
  const timer = setInterval(() => { if (queue.get(id).length) flush(); }, 5000);

  render();
  drawQueue();
  await refresh();
  flush();
  // Every stored move arrives here, this device's and every other's.
  const stream = new EventSource(`/games/${id}/stream?after=${game.version}`);
  stream.addEventListener("move", () => refresh().catch(refuse));
  stream.addEventListener("open", retry); // the connection is back
  return {
    close: () => {
      stream.close();
      clearInterval(timer);
      window.removeEventListener("online", retry);
    },
  };
}

function winnersLine(game) {
  if (game.status !== "finished") return "";
  return h("p", { class: "winners" },
    t("game.winners", { winners: game.winners, count: game.winners.length }));
}
