// The phone app's service worker: it keeps the app shell once loaded and
// serves it from its cache, so a server answering for the node's name
// cannot replace the app without the user accepting the update
// (docs/phone.md). The API is never cached.
//
// It also shows the node's push notices (docs/phone.md, "Push"): the push
// service hands it the node's notice, sealed to this device, which it
// opens with the device's key from IndexedDB (device.js, the app's own
// code) and shows as a notification, one per approval (its tag).
'use strict';

importScripts('device.js');

const CACHE = 'mailnode-phone-v2';
const SHELL = ['./', './index.html', './app.js', './device.js', './style.css', './manifest.json',
  './icon-192.png', './icon-512.png', './icon-maskable-512.png', './apple-touch-icon.png'];

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

// ---- push ------------------------------------------------------------------

// What a push that does not open shows: browsers require a notification
// for every push (Chrome shows its own otherwise, Safari ends the
// subscription), and none of its text can be believed.
const GENERIC = { title: 'mailnode', body: 'Open the app to see what is waiting.', tag: 'mailnode' };

// notification is what to show for an opened notice. Its text came from
// the node, sealed; the agent and tool were cut to fit by the node and are
// shown as text (a notification has no markup).
function notification(n) {
  const clip = (s, max) => (s.length > max ? s.slice(0, max - 1) + '…' : s);
  if (n.type === 'prompt') {
    const exp = Date.parse(n.expires_at);
    // A notice held back by the push service past its prompt's life
    // asks for nothing any more.
    if (!Number.isNaN(exp) && exp <= Date.now()) return stale(n.approval_id, 'Expired', 'expired');
    const until = Number.isNaN(exp) ? '' : `\nAnswer before ${new Date(exp).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.`;
    return {
      title: `${clip(n.agent, 80)} asks to ${clip(n.tool, 80)}`,
      body: `Match code ${clip(n.match_code, 32)}${until}`,
      tag: n.approval_id,
    };
  }
  return n.type === 'expired' ? stale(n.approval_id, 'Expired', 'expired') : stale(n.approval_id, 'Decided', n.state);
}

function stale(id, title, st) {
  const what = { approved: 'was approved', denied: 'was denied', blocked: 'was denied and the agent blocked', expired: 'expired without an answer' }[st] || 'is no longer waiting';
  return { title, body: `The request ${what}.`, tag: id };
}

async function onPush(data) {
  let shown = GENERIC;
  try {
    const dev = await loadDevice();
    if (dev && dev.paired) shown = notification(await openPushNotice(dev, data ? data.text() : ''));
  } catch (err) {
    // Only the kind of failure: a message may quote what was opened.
    console.warn('push: the notice did not open:', err && err.name);
    shown = GENERIC;
  }
  const approval = shown === GENERIC ? '' : shown.tag;
  await self.registration.showNotification(shown.title, {
    body: shown.body,
    tag: shown.tag,
    // A decided or expired notice replaces the prompt's: say so again.
    renotify: true,
    icon: 'icon-192.png',
    data: { approval_id: approval },
  });
}

self.addEventListener('push', (e) => {
  e.waitUntil(onPush(e.data).catch((err) => {
    console.error('push: no notification shown:', err && err.name, err && err.message);
    throw err;
  }));
});

// A tapped notification brings the app forward at that prompt: an open
// window is told which prompt and focused, else a new one opens at
// /phone/#approval=<id>. The app fetches the prompt itself, in full.
self.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const id = (e.notification.data && e.notification.data.approval_id) || '';
  const url = new URL(id ? '#approval=' + encodeURIComponent(id) : '', self.registration.scope).href;
  e.waitUntil((async () => {
    const wins = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const win = wins.find((c) => c.url.startsWith(self.registration.scope));
    if (win) {
      win.postMessage({ type: 'show_approval', approval_id: id });
      // Focusing needs the tap's permission, which a click gives.
      await win.focus().catch(() => {});
      return;
    }
    await self.clients.openWindow(url);
  })());
});
