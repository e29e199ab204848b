// The phone app's service worker: it keeps the app shell once loaded and
// serves it from its cache, so a server answering for the node's name
// cannot replace the app without the user accepting the update
// (docs/phone.md). The API is never cached.
'use strict';

const CACHE = 'mailnode-phone-v1';
const SHELL = ['./', './index.html', './app.js', './style.css', './manifest.json'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)));
  // No skipWaiting: a new version waits for the user (see 'message').
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('message', (e) => {
  if (e.data === 'activate') self.skipWaiting();
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== location.origin || url.pathname.startsWith('/phone/api/')) return;
  e.respondWith(caches.match(e.request, { ignoreSearch: true }).then((hit) => hit || fetch(e.request)));
});
