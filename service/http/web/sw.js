// The service worker: it keeps the app shell (the page's files, each game's module
// among them) so the page opens with the table's Wi-Fi down. The service lists the
// files (`files.json`: this folder's, and the module of each game it hosts), so a game
// installed is kept with no file of the page changed. Network first, so a phone always
// runs the newest page the service has; the cache answers only when the network does
// not. Of the REST API it keeps only the kinds of game (`/games/kinds`), which every
// view is drawn from and which change only with a new release; a game's state comes
// from the service or not at all (moves tapped offline wait in the page's queue,
// queue.js).
const CACHE = "tablelog-shell-v8";
const KINDS = new URL("../games/kinds", self.location).pathname;
const FILES = "files.json";

self.addEventListener("install", (event) => {
  event.waitUntil(fetch(FILES, { cache: "no-store" })
    .then((answer) => answer.json())
    .then(({ files }) => caches.open(CACHE).then((cache) => cache.addAll([...files, KINDS]))));
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
