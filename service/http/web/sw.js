// The service worker: it keeps the app shell (this folder's files) so the page opens
// with the table's Wi-Fi down. Network first, so a phone always runs the newest page
// the service has; the cache answers only when the network does not. Of the REST API
// it keeps only the kinds of game (`/games/kinds`), which every view is drawn from and
// which change only with a new release; a game's state comes from the service or not
// at all (moves tapped offline wait in the page's queue, queue.js).
const CACHE = "tablelog-shell-v5";
const KINDS = new URL("../games/kinds", self.location).pathname;
const SHELL = [
  "./", "index.html", "app.css", "manifest.webmanifest", "icon.svg",
  "main.js", "api.js", "dom.js", "game.js", "history.js", "home.js", "i18n.js",
  "i18n/en.js", "i18n/fr.js", "kinds.js", "moves-so-far.js", "players.js", "queue.js",
  "notes.js", "replay.js", "session.js", "share.js", "sheet.js", "tables.js",
  "variations.js",
  "games/index.js", "games/dobro.js", "games/double-donkey.js", "games/dozito.js",
  "vendor/qrcode-generator.js", KINDS,
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const scope = new URL(self.registration.scope);
  const kept = url.pathname.startsWith(scope.pathname) || url.pathname === KINDS;
  if (event.request.method !== "GET" || !kept) return;
  event.respondWith(fetch(event.request).then((answer) => {
    if (answer.ok) {
      const copy = answer.clone();
      caches.open(CACHE).then((cache) => cache.put(event.request, copy));
    }
    return answer;
  }).catch(() => caches.match(event.request, { ignoreSearch: true })
    .then((cached) => cached ?? caches.match("index.html"))));
});
