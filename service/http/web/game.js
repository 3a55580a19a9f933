// One game's page: its state, the moves the state allows, the moves waiting for the
// connection, the moves so far and the score sheet. What the page holds and does
// (the game, its history, the queue, the stream) is the session's (session.js); this
// module draws it, and keeps the focus and a refusal where the player is looking.
import { api, gameGroups, gameStream, groups, readerOf, tokens, writerOf } from "./api.js";
import { button, chips, entries, field, h, refuse, refusalBox, say } from "./dom.js";
import { gameOf } from "./games.js";
import { loadEarlier, loadHistory, moveNumber, undoTarget } from "./history.js";
import { when } from "./home.js";
import { t } from "./i18n.js";
import { gameLabel } from "./kinds.js";
import { renderHistory } from "./moves-so-far.js";
import { peopleLinks } from "./players.js";
import { idempotencyKey, movesQueue } from "./queue.js";
import { playAgain } from "./rematch.js";
import { gameSession } from "./session.js";
import { sharePanel } from "./share.js";
import { renderSheet } from "./sheet.js";
import { variationOf } from "./variations.js";

const queue = movesQueue(localStorage);

/** `offered`: a write token a link brought that differs from the one this phone
 * holds; the player chooses which to keep. */
export async function showGame(root, id, { offered = null } = {}) {
  const read = readerOf(id);
  const first = await read(`/games/${id}`);
  // The newest moves first: older pages load when the table asks for them. The
  // players' names lead to their records: in the group, on a phone of the group.
  const [history, linkOf] = await Promise.all([
    loadHistory(id, first.version, read), peopleLinks(first.group)]);
  const game = gameOf(first.game);
  const boxes = gameBoxes();
  const service = {
    read,
    send: (item) => api.post(`/games/${id}/moves`, item.body, writerOf(id, first.group),
      { "Idempotency-Key": item.key }),
  };
  const session = gameSession({
    id, game: first, history, service, queue, newKey: idempotencyKey,
    on: {
      game: render,
      sheet: (sheet) => renderSheet(boxes.sheet, first.game, sheet),
      queue: drawQueue,
      sent: (count) => say(t("game.sent", { count })),
      error: refuse,
    },
  });
  let allHistory = false;
  // With no connection, or moves waiting, the state drawn is not the game's next one:
  // the table logs any player's move, and the rules check each when it arrives.
  let offline = !navigator.onLine;
  const anyMove = { player: null, kind: null, correcting: false };
  const anyMode = () => offline || session.waiting().length > 0;
  let drawnAny = null;
  let drawn = null; // the game the move controls were drawn for
  let submitting = false; // a move of this phone's on its way
  const drawShare = () => boxes.share.replaceChildren(...sharePanel(id, tokens.get(id)));
  drawShare();
  drawTokenChoice();
  root.append(
    h("h1", { tabindex: "-1" }, first.title || gameLabel(first.game)),
    h("p", { class: "muted" },
      first.players.flatMap((name, i) => [i ? " · " : "",
        h("a", { href: linkOf(name) }, name)]), h("br"), when(first),
      first.location ? ` · ${first.location}` : "", " · ",
      h("a", { href: `#/games/${id}/replay` }, t("game.replay"))),
    variationOf(first) ?? "", previousGame(first), boxes.choice, boxes.share, boxes.state, boxes.moves, boxes.queue, boxes.history,
    boxes.sheet);
  const refusal = refusalBeside(boxes.moves);
  const entered = entries(boxes.moves);

  function render() {
    const current = session.game;
    boxes.state.replaceChildren(h("h2", { id: "state-title" }, t("game.on_the_table")),
      winnersLine(current), game.state(current.state, current.players));
    // The controls are drawn again only for a game that changed: a refresh that
    // brings nothing new (the stream telling of this phone's own move) leaves a
    // tap made meanwhile where it is.
    const now = controlsOf();
    if (drawn && ["version", "status", "mode", "writer"].every((k) => drawn[k] === now[k])) {
      drawUndo();
    } else drawMoves({ keep: true });
    refusal.redraw();
    drawHistory();
  }

  const drawHistory = () =>
    renderHistory(boxes.history, history, allHistory, earlier, game.say);

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
    (boxes.history.querySelector("button") ?? boxes.history.querySelector("h2")).focus();
  }

  /** The move controls drawn anew. `keep`: the game changed under them (a move
   * stored, here or by another phone): what was tapped is tapped again while it is
   * still the same player's turn at the same stage, else dropped, saying so when
   * another phone's move made it stale. */
  function drawMoves({ keep = false } = {}) {
    const now = controlsOf();
    const sameTurn = drawn && ["mode", "writer", "player", "phase", "status"]
      .every((k) => drawn[k] === now[k]);
    const focused = entered.focused();
    drawn = now;
    drawnAny = now.mode;
    boxes.moves.replaceChildren(...movesPanel());
    if (keep && sameTurn) {
      entered.restore(focused);
      return;
    }
    if (keep && entered.size && !submitting) say(t("game.entry_dropped"));
    entered.clear();
  }

  /** What the move controls are drawn for: the game's version and stage, whether
   * the moves are any player's (offline) and whether this phone may log them. */
  function controlsOf() {
    const current = session.game;
    return { version: current.version, status: current.status, mode: anyMode(),
      writer: Boolean(writerOf(id, current.group)),
      player: current.state.next_player ?? null, phase: current.state.phase ?? null };
  }

  /** Only the undo button, for a game whose controls stand as drawn. */
  function drawUndo() {
    boxes.moves.querySelector(".undo")?.replaceWith(undoRow());
  }

  function undoRow() {
    const target = undoTarget(history.entries);
    return h("div", { class: "row undo" }, button(target
      ? t("game.undo", { number: moveNumber(target), move: target.description ?? target.type })
      : t("game.nothing_to_undo"), () => submit({ type: "undo" }), { disabled: !target }));
  }

  function movesPanel() {
    const current = session.game;
    const title = h("h2", { id: "moves-title", tabindex: "-1" }, t("game.log_a_move"));
    if (!writerOf(id, session.game.group)) {
      return [title, current.status === "finished" ? h("p", {}, t("game.over"))
        : tokenForm()];
    }
    if (anyMode()) return [title, ...anyMovePanel()];
    if (current.status === "finished") {
      return [title, h("p", {}, t("game.over_undo")), playAgainRow(), undoRow()];
    }
    if (current.status === "abandoned") {
      return [title, h("p", {}, t("game.abandoned_undo")), playAgainRow(), undoRow()];
    }
    return [title, game.moves(current, submit), undoRow()];
  }

  /** "Play again": the next game at the same table, made and opened in one tap,
   * its write token kept here as a game started here keeps its own. */
  function playAgainRow() {
    const again = button(t("game.play_again"), async () => {
      again.disabled = true;
      const group = groups.named(session.game.group);
      let next;
      try {
        next = await playAgain(id, {
          post: (path, headers) =>
            api.post(path, undefined, writerOf(id, session.game.group), headers),
          keep: (nextId, token) => {
            if (token) tokens.set(nextId, token);
            if (group) gameGroups.set(nextId, group.id);
          },
          storage: localStorage,
          newKey: idempotencyKey,
        });
      } catch (error) {
        again.disabled = false;
        refusal.show(error);
        return;
      }
      location.hash = `#/games/${next}`;
    }, { class: "primary" });
    return h("div", { class: "row play-again" }, again);
  }

  /** Any player's move, of any kind the game has: offline the page cannot know the
   * next state, so the table says who plays what, and the rules judge on arrival.
   * While a refused move is corrected, the move logged takes its place. */
  function anyMovePanel() {
    const current = session.game;
    const { kinds, playerless } = game.offline;
    const refused = session.waiting()[0]?.refusal ? session.waiting()[0] : null;
    if (!refused) anyMove.correcting = false;
    if (session.waiting().length === 0) { // the state drawn is the game's: it proposes
      anyMove.player ??= current.state.next_player ?? null;
      anyMove.kind ??= kinds.find((k) => current.state.allowed?.includes(k));
    }
    anyMove.kind ??= kinds[0];
    const controls = h("div");
    const needsPlayer = () => !playerless.includes(anyMove.kind);
    const who = chips(t("game.who"), "who", current.players.map((p) => [p, p]), anyMove.player,
      (p) => { anyMove.player = p; drawControls(); });
    function drawControls() {
      who.hidden = !needsPlayer();
      if (needsPlayer() && !anyMove.player) {
        controls.replaceChildren(h("p", { class: "muted" }, t("game.choose_player")));
        return;
      }
      const state = { ...current.state, allowed: [anyMove.kind],
        next_player: needsPlayer() ? anyMove.player : null };
      controls.replaceChildren(game.moves({ ...current, state, offline: true }, submit));
    }
    const what = chips(t("game.which_move"), "kind", kinds.map((k) => [k, game.say(`kind.${k}`)]),
      anyMove.kind, (k) => { anyMove.kind = k; drawControls(); }, { class: "chips kinds" });
    drawControls();
    const correcting = anyMove.correcting && h("div", { class: "correcting" },
      h("p", {}, t("game.correcting", { move: said(refused.body) })),
      button(t("game.cancel_correction"), () => { anyMove.correcting = false; drawMoves(); }));
    // replaceChildren writes a null as the word "null": no correction, no child.
    return [...(correcting ? [correcting] : []), h("p", { class: "offline-note" },
      t(offline ? "game.any_move" : "game.any_move_waiting")), what, who, controls];
  }

  /** Keep this phone's write token, or take the one a link brought instead. */
  function drawTokenChoice() {
    if (!offered) {
      boxes.choice.replaceChildren();
      boxes.choice.hidden = true;
      return;
    }
    const chosen = (token) => {
      if (token) tokens.set(id, token);
      offered = null;
      drawTokenChoice();
      drawShare();
      render();
      boxes.moves.querySelector("h2").focus();
    };
    boxes.choice.hidden = false;
    boxes.choice.replaceChildren(
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

  async function submit(move) {
    let done;
    if (anyMove.correcting) {
      anyMove.correcting = false;
      anyMove.player = null;
      drawMoves();
      await session.settle(move);
      boxes.queue.querySelector("h2")?.focus();
      return;
    }
    // What was tapped is this move's: the next is tapped afresh.
    entered.clear();
    submitting = true;
    try {
      done = await session.submit(move);
    } catch (error) {
      refusal.show(error);
      return;
    } finally {
      submitting = false;
    }
    if (done.queued) {
      say(t("game.offline"));
      // The next move is anyone's: who plays it is said again.
      anyMove.player = null;
      drawMoves();
      boxes.moves.querySelector("h2").focus();
      return;
    }
    say(done.description ? t("game.logged_said", { number: done.logged, move: done.description })
      : t("game.logged", { number: done.logged }));
    boxes.moves.querySelector("h2").focus();
  }

  /** The moves waiting, in the page's words; the one refused on arrival is marked,
   * with the service's reason, to correct or drop (the others keep their place). */
  function drawQueue() {
    const waiting = session.waiting();
    boxes.queue.hidden = waiting.length === 0;
    const refused = waiting[0]?.refusal;
    boxes.queue.replaceChildren(h("h2", { id: "queue-title" },
      t("game.waiting", { count: waiting.length })),
    h("ol", {}, waiting.map((item, i) => h("li", { class: i === 0 && refused ? "refused" : null },
      said(item.body), i === 0 && refused ? h("strong", {}, ` — ${t("game.refused_here")}`)
        : null))),
    refused ? h("div", { class: "refusal", role: "alert" },
      h("strong", {}, refused.rule ? t("refusal.arrival_ruled", { rule: refused.rule })
        : t("refusal.arrival")), h("span", {}, refused.message),
      // A conflict (409) is another phone's move; a rule's refusal is this move's.
      h("p", {}, t(refused.status === 409 ? "game.settle" : "game.settle_rules")),
      h("div", { class: "row" },
        refused.status === 409
          ? button(t("game.send_again"), () => session.rebase(waiting)) : null,
        button(t("game.correct"), () => correct(waiting[0])),
        button(t("game.drop_one"), () => session.settle()),
        button(t("game.drop_all"), () => session.rebase([]))))
      : h("p", { class: "muted" }, t("game.sent_on_return")));
    if (drawnAny !== null && drawnAny !== anyMode()) drawMoves();
  }

  /** The refused move corrected: the move panel proposes its player and kind, and
   * the move logged there takes its place in the queue. */
  function correct(item) {
    anyMove.correcting = true;
    anyMove.player = item.body.player ?? null;
    anyMove.kind = item.body.type;
    drawMoves();
    boxes.moves.querySelector("h2").focus();
    boxes.moves.scrollIntoView({ block: "start" });
  }

  /** A move in the page's words, as the service words what a player did. */
  function said(body) {
    return body.type === "undo" ? t("queued.undo") : game.said(body);
  }

  const connection = () => {
    offline = !navigator.onLine;
    if (!offline) session.flush();
    if (drawnAny !== anyMode()) drawMoves();
  };
  window.addEventListener("online", connection);
  window.addEventListener("offline", connection);
  const timer = setInterval(() => { if (session.waiting().length) session.flush(); }, 5000);

  render();
  drawQueue();
  await session.refresh();
  session.flush();
  const stream = gameStream(id, session.game.version);
  session.follow(stream);
  return {
    close: () => {
      stream.close();
      clearInterval(timer);
      window.removeEventListener("online", connection);
      window.removeEventListener("offline", connection);
    },
  };
}

function gameBoxes() {
  return {
    state: h("section", { class: "card", "aria-labelledby": "state-title" }),
    moves: h("section", { class: "card moves", "aria-labelledby": "moves-title" }),
    history: h("section", { class: "card", "aria-labelledby": "history-title" }),
    sheet: h("section", { class: "card", "aria-labelledby": "sheet-title" }),
    share: h("div", { class: "share-box" }),
    queue: h("section", { class: "card queue", "aria-labelledby": "queue-title",
      "aria-live": "polite" }),
    choice: h("div", { class: "token-choice", role: "group",
      "aria-labelledby": "token-choice-text" }),
  };
}

/** A refusal is drawn beside the control that was tapped, where the player is
 * looking, and it goes with the next tap (or key press) in the panel. */
function refusalBeside(panel) {
  let tapped = null;
  let shown = null;
  const clear = () => { shown?.remove(); shown = null; };
  panel.addEventListener("click", (event) => {
    const control = event.target.closest("button, input, select, label");
    if (!control) return;
    tapped = control;
    clear();
  }, true);
  // A change the page makes itself (a tap given back after a redraw) is not a tap.
  panel.addEventListener("change", (event) => { if (event.isTrusted) clear(); }, true);
  return {
    show(error) {
      clear();
      shown = refusalBox(error);
      const anchor = tapped?.isConnected ? tapped.closest(".row, .field, fieldset") ?? tapped
        : panel.querySelector("h2");
      anchor.after(shown);
      shown.scrollIntoView({ block: "nearest" });
    },
    /** After the panel is drawn again: the refusal stays, under its heading. */
    redraw() {
      if (shown) panel.querySelector("h2").after(shown);
    },
  };
}

/** A game played again links to the game before it. */
function previousGame(game) {
  if (!game.rematch_of) return "";
  return h("p", { class: "rematch-of" },
    h("a", { href: `#/games/${game.rematch_of}` }, t("game.previous")));
}

function winnersLine(game) {
  if (game.status !== "finished") return "";
  return h("p", { class: "winners" },
    t("game.winners", { winners: game.winners, count: game.winners.length }));
}
