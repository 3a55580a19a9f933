// The page's router: #/ (start a game), #/games/<id> (log and watch), …/replay and
// …/replay/<step> (a replay opened at a step: the link a replay shares),
// #/players/<name> (a player's ratings and records), #/leaderboards/<game>,
// #/groups (make one), #/groups/<id> (a group's home), #/groups/<id>/players/<player>
// (a roster player's page), #/join/<code> (an invite).
import { showHome } from "./home.js";
import { showLeaderboard, showPlayer } from "./players.js";
import { connection, tokens, unreachable } from "./api.js";
import { button, clearRefusal, h, refuse, refusedUnreachable, say } from "./dom.js";
import { language, LANGUAGE_NAMES, setLanguage, showLanguage, t } from "./i18n.js";
import { loadGames } from "./games.js";
import { loadKinds } from "./kinds.js";

const main = document.getElementById("main");
let current = null;
// The view could not be drawn because the service could not be reached: it is drawn
// again when the connection returns.
let unreached = false;

let routed = 0; // the latest route's number: an earlier one still loading draws nothing

// The views the start page does not need load when first opened (the service worker
// keeps them all for the times the network is down): a first visit fetches only
// what it shows.
// A view that cannot be fetched is a service that cannot be reached.
const lazy = (load) => () => load().catch(() => { throw unreachable(); });
const game = lazy(() => import("./game.js"));
const replay = lazy(() => import("./replay.js"));
const groupViews = lazy(() => import("./groups.js"));

async function route() {
  current?.close?.();
  current = null;
  unreached = false;
  clearRefusal();
  say("");
  const number = ++routed;
  const [path, query] = (location.hash.slice(1) || "/").split("?");
  const match = path.match(/^\/games\/([0-9a-f-]{36})(\/replay(?:\/(\d+))?)?$/);
  // A share link to log (`#/games/{id}?token=…`): keep the token on this phone, and
  // take it out of the address bar, so the page's address shared again is watch-only.
  // A different token the phone already holds is never replaced unasked: a crafted
  // link would otherwise destroy it. The game's view asks which one to keep.
  const token = new URLSearchParams(query).get("token");
  let offered = null;
  if (match && token) {
    const held = tokens.get(match[1]);
    if (!held) tokens.set(match[1], token);
    else if (held !== token) offered = token;
    history.replaceState(null, "", `#${path}`);
  }
  // Each route draws in a box of its own: one overtaken while it loads (a second
  // address opened meanwhile) draws in a box no longer on the page.
  const view = h("div", { class: "view" });
  main.replaceChildren(view);
  let shown = null;
  // A game's view loads while the kinds are read.
  if (match) (match[2] ? replay : game)().catch(() => {});
  try {
    await loadKinds(); // every view draws its game from them
    await loadGames(); // and from their modules
    shown = await draw(view, path, query, match, offered);
  } catch (error) {
    if (number !== routed) return;
    view.replaceChildren();
    if (error.status === 404 && match) nowhere(view, path);
    else {
      refuse(error);
      unreached = Boolean(error.unreachable);
      view.append(h("p", {}, h("a", { href: "#/" }, t("nav.back_to_start"))));
    }
  }
  if (number !== routed) {
    shown?.close?.();
    return;
  }
  current = shown;
  // Move focus to the new view's heading, unless the user already moved it: a view
  // is drawn before its data finishes loading, and a tap or key press made in the
  // meantime must not lose its focus to the heading.
  if (!main.contains(document.activeElement)) main.querySelector("h1")?.focus();
}

/** The view of an address, drawn in `view`: what it gives to close it, if anything. */
async function draw(view, path, query, match, offered) {
  const player = path.match(/^\/players\/([^/]+)$/);
  const board = path.match(/^\/leaderboards\/([^/]+)$/);
  const group = path.match(/^\/groups\/([^/]+)$/);
  const member = path.match(/^\/groups\/([^/]+)\/players\/([^/]+)$/);
  const join = path.match(/^\/join\/([^/]+)$/);
  if (player) return showPlayer(view, decodeURIComponent(player[1]));
  if (path === "/groups") return (await groupViews()).showGroups(view);
  if (group) return (await groupViews()).showGroup(view, decodeURIComponent(group[1]));
  if (member) {
    return (await groupViews()).showGroupPlayer(view, decodeURIComponent(member[1]),
      decodeURIComponent(member[2]));
  }
  if (join) return (await groupViews()).showJoin(view, decodeURIComponent(join[1]));
  if (board) {
    const group = new URLSearchParams(query).get("group");
    return showLeaderboard(view, decodeURIComponent(board[1]), group);
  }
  if (match && match[2]) {
    const step = match[3] === undefined ? 0 : Number(match[3]);
    return (await replay()).showReplay(view, match[1], step);
  }
  if (match) return (await game()).showGame(view, match[1], { offered });
  if (path === "/") return showHome(view);
  return nowhere(view, path);
}

/** An address the page has nothing at: a game's (one that is not there, or a
 * view of it the page does not have) or any other. */
function nowhere(view, path) {
  const game = path.startsWith("/games/");
  view.append(h("h1", { tabindex: "-1" }, t(game ? "nav.no_such_game" : "nav.no_such_page")),
    h("p", {}, t(game ? "nav.no_such_game_text" : "nav.no_such_page_text")),
    h("p", {}, h("a", { href: "#/" }, t("nav.back_to_start"))));
  return null;
}

// A note that a move was logged goes with the next tap.
document.addEventListener("click", () => say(""), true);

// The status bar covers the foot of the screen: the page keeps room for it, and what
// was just tapped, or focused, is scrolled out from under it.
const status = document.getElementById("status");
new ResizeObserver(() => {
  // From the bar's top to the screen's foot: the bar and the gap below it.
  const height = status.textContent ? innerHeight - status.getBoundingClientRect().top : 0;
  document.documentElement.style.setProperty("--status-height", `${Math.ceil(height)}px`);
  const near = document.activeElement;
  if (!height || !near || near === document.body || near === main) return;
  if (near.getBoundingClientRect().bottom > status.getBoundingClientRect().top) {
    near.scrollIntoView({ block: "nearest" });
  }
}).observe(status);
window.addEventListener("hashchange", route);

// A banner that says only that the service could not be reached goes as soon as it
// answers again; a view it kept from being drawn is drawn then.
function reached() {
  if (unreached) route();
  else if (refusedUnreachable()) clearRefusal();
}
connection.addEventListener("answered", reached);
window.addEventListener("online", () => { if (unreached) route(); });

/** The switch to the other language, named in its own words; the view is drawn
 * again in it, and focus stays on the switch. */
function languageSwitch() {
  const other = language() === "fr" ? "en" : "fr";
  const box = document.getElementById("language");
  box.replaceChildren(button(LANGUAGE_NAMES[other], async () => {
    setLanguage(other);
    languageSwitch();
    await route();
    box.querySelector("button").focus();
  }, { lang: other, class: "language", "aria-label": `${t("language.switch")}: ${LANGUAGE_NAMES[other]}` }));
}

showLanguage();
languageSwitch();
route();
// Keep the app shell for the times the table's Wi-Fi drops (browsers allow service
// workers on https and on localhost only: over plain http on a LAN the page still
// queues moves, it just cannot open with no network).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {});
