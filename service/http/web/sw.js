// The service worker: it keeps the app shell (this folder's files) so the page opens
// with the table's Wi-Fi down. Network first, so a phone always runs the newest page
// the service has; the cache answers only when the network does not. The REST API is
// never cached: a game's state comes from the service or not at all (moves tapped
// offline wait in the page's queue, queue.js).
const CACHE = "tablelog-shell-v2";
const SHELL = [
  "./", "index.html", "app.css", "manifest.webmanifest", "icon.svg",
  "main.js", "api.js", "dom.js", "game.js", "history.js", "home.js", "i18n.js",
  "i18n/en.js", "i18n/fr.js", "queue.js",
  "replay.js", "share.js", "sheet.js", "state.js",
  "moves/dobro.js", "moves/donkey.js", "moves/dozito.js",
  "vendor/qrcode-generator.js",
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
  if (event.request.method !== "GET" || !url.pathname.startsWith(scope.pathname)) return;
  event.respondWith(fetch(event.request).then((answer) => {
    if (answer.ok) {
      const copy = answer.clone();
      caches.open(CACHE).then((cache) => cache.put(event.request, copy));
    }
    return answer;
  }).catch(() => caches.match(event.request, { ignoreSearch: true })
    .then((cached) => cached ?? caches.match("index.html"))));
});
