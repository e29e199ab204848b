// The mailnode phone app (docs/phone.md): pairing by the QR code's URL,
// the live list of agents' requests, decisions signed with this device's
// key, grants, phones and recent activity. The device's private keys are
// WebCrypto keys made non-extractable and kept in IndexedDB: this code can
// use them but nobody can read them out.
//
// Everything shown from the node arrives sealed to this device and is put
// on the page as text, never as HTML: a request's details come from
// agents and from mail, and are hostile.
'use strict';

const $ = (id) => document.getElementById(id);

// The encodings, the device in IndexedDB and opening what the node seals
// are in device.js, which the service worker shares.

async function hmac(key, msg) {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, enc.encode(msg)));
}

// ---- the protocol --------------------------------------------------------

// signedFetch sends a request signed by this device: the node refuses any
// other. It returns the response and the nonce, which what the node seals
// in answer is bound to.
async function signedFetch(dev, method, path, body, signal) {
  const bytes = body === undefined ? new Uint8Array(0) : enc.encode(JSON.stringify(body));
  const nonce = b64url(crypto.getRandomValues(new Uint8Array(16)));
  const ts = Math.floor(Date.now() / 1000);
  const msg = concat('mailnode-phone-request-v1\n', method, '\n', path, '\n', String(ts), '\n', nonce, '\n', b64url(await sha256(bytes)));
  const sig = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, dev.signKey, msg));
  const init = {
    method, signal, cache: 'no-store', redirect: 'error',
    headers: { 'Mailnode-Device': `${dev.id}.${ts}.${nonce}.${b64url(sig)}` },
  };
  if (body !== undefined) {
    init.body = bytes;
    init.headers['Content-Type'] = 'application/json';
  }
  return { resp: await fetch(path, init), nonce };
}

class APIError extends Error {
  constructor(status, code, detail) {
    super(detail || code);
    this.status = status;
    this.code = code;
  }
}

async function api(dev, method, path, body) {
  const { resp, nonce } = await signedFetch(dev, method, path, body);
  const json = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new APIError(resp.status, json.error || 'error', json.detail);
  if (json.sealed) return JSON.parse(await openSealed(dev, nonce, json.sealed));
  return json;
}

// ---- pairing -------------------------------------------------------------

function pairingOffer() {
  const m = /^#pair=([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return null;
  return { id: m[1], secret: unb64url(m[2]), nodeBox: unb64url(m[3]), nodeBoxText: m[3] };
}

async function pair(offer, name) {
  // extractable=false: the private halves never leave WebCrypto.
  const sign = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  const box = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
  const signPub = b64url(await crypto.subtle.exportKey('raw', sign.publicKey));
  const boxPub = b64url(await crypto.subtle.exportKey('raw', box.publicKey));
  const mac = b64url(await hmac(offer.secret, `mailnode-pair-v1\n${offer.id}\n${signPub}\n${boxPub}\n${name}`));
  const resp = await fetch('/phone/pair', {
    method: 'POST', cache: 'no-store', redirect: 'error',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ offer: offer.id, sign_pub: signPub, box_pub: boxPub, name, mac }),
  });
  const res = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new APIError(resp.status, res.error, res.detail);
  // The node proves it made the QR code: only it and this phone know the
  // secret. Whoever merely carries the bytes cannot answer this.
  const proof = b64url(await hmac(offer.secret, `mailnode-pair-node-v1\n${res.device_id}\n${mac}`));
  if (proof !== res.node_proof) throw new Error('The server did not prove it made this QR code. Do not use it.');
  const h = await sha256(concat('mailnode-sas-v1\n', offer.secret, offer.nodeBox, `\n${signPub}\n${boxPub}`));
  const n = new DataView(h.buffer).getUint32(0) % 1000000;
  const sas = String(Math.floor(n / 1000)).padStart(3, '0') + ' ' + String(n % 1000).padStart(3, '0');
  const dev = { id: res.device_id, name, nodeBox: offer.nodeBox, signKey: sign.privateKey, boxKey: box.privateKey, paired: false };
  await saveDevice(dev);
  return { dev, sas };
}

// ---- state and rendering -------------------------------------------------

// wanted is the approval a tapped notification or #approval=<id> asked
// for; status the node's sealed api/status answer (push on or off).
const state = { dev: null, prompts: new Map(), data: null, stream: null, wanted: null, status: null };

function setStatus(text, kind) {
  const el = $('status');
  el.textContent = text;
  el.className = 'pill ' + (kind || '');
}

function show(id, on) { $(id).hidden = !on; }

const tierNames = {
  structured_read: 'travel, orders, bills',
  free_form_read: 'short answers',
  raw_read: 'an excerpt',
  compose: 'writing drafts',
  send: 'sending',
};

function renderRequests() {
  const list = $('request-list');
  const items = [...state.prompts.values()].sort((a, b) => a.p.created_at - b.p.created_at);
  show('no-requests', items.length === 0);
  const seen = new Set();
  for (const { text, p } of items) {
    seen.add(p.approval_id);
    if (list.querySelector(`[data-approval-id="${CSS.escape(p.approval_id)}"]`)) continue;
    const li = $('request-tpl').content.firstElementChild.cloneNode(true);
    li.dataset.approvalId = p.approval_id;
    li.dataset.expires = String(p.expires_at);
    li.querySelector('.agent').textContent = p.agent;
    li.querySelector('.tool').textContent = p.tool;
    // An OAuth client's consent grants several tiers at once.
    li.querySelector('.tier').textContent = [p.tier, ...(p.also_tiers || [])].map((t) => tierNames[t] || t).join(', ');
    li.querySelector('.match-code').textContent = p.match_code;
    li.querySelector('.details').textContent = p.details;
    li.querySelector('.site').textContent = p.site;
    // Blocking the registrable domain is offered when the agent is a
    // name under it; for the domain itself "block" is the same thing.
    li.querySelector('.site-block').hidden = !p.site || p.site === p.agent;
    for (const b of li.querySelectorAll('button[data-action]')) {
      b.addEventListener('click', () => decide(li, text, p, b.dataset.action));
    }
    list.appendChild(li);
  }
  for (const li of [...list.children]) {
    if (!seen.has(li.dataset.approvalId)) li.remove();
  }
  tickExpiry();
  bringForward();
}

// bringForward puts the prompt a notification was tapped for first on
// the list and in view.
function bringForward() {
  const list = $('request-list');
  for (const li of list.querySelectorAll('.wanted')) {
    if (li.dataset.approvalId !== state.wanted) li.classList.remove('wanted');
  }
  if (!state.wanted) return;
  const li = list.querySelector(`[data-approval-id="${CSS.escape(state.wanted)}"]`);
  if (!li || li.classList.contains('wanted')) return;
  list.prepend(li);
  li.classList.add('wanted');
  show('wanted-gone', false);
  li.scrollIntoView({ block: 'start' });
}

// showApproval answers a tapped notification or an #approval=<id>
// address: the prompt comes first, fetched in full from the node as any
// other; one that is no longer pending is said to be so.
function showApproval(id) {
  if (!id) return;
  state.wanted = id;
  history.replaceState(null, '', '#approval=' + encodeURIComponent(id));
  bringForward();
  if (state.dev) refresh();
}

function approvalInAddress() {
  const m = /^#approval=([A-Za-z0-9_.~%-]{1,200})$/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

function tickExpiry() {
  const now = Date.now() / 1000;
  for (const li of $('request-list').children) {
    const left = Math.round(Number(li.dataset.expires) - now);
    if (left <= 0) {
      // Expiry is a refusal: the node treats it as one.
      state.prompts.delete(li.dataset.approvalId);
      li.remove();
      continue;
    }
    li.querySelector('.expires').textContent = `Expires in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
  }
  show('no-requests', $('request-list').children.length === 0);
}

async function decide(li, text, p, decision) {
  if (decision === 'block' && !confirm(`Deny and block ${p.agent}? It will not be able to ask again.`)) return;
  if (decision === 'block_site' && !confirm(`Deny and block every agent under ${p.site}? None of them will be able to ask again.`)) return;
  for (const b of li.querySelectorAll('button')) b.disabled = true;
  try {
    // The decision is signed over the hash of exactly the prompt shown.
    const hash = await sha256(enc.encode(text));
    const msg = enc.encode(`mailnode-decision-v1\n${p.approval_id}\n${decision}\n${b64url(hash)}\n${state.dev.id}`);
    const sig = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, state.dev.signKey, msg));
    await api(state.dev, 'POST', '/phone/api/decide',
      { approval_id: p.approval_id, decision, prompt_hash: b64url(hash), signature: b64url(sig) });
    state.prompts.delete(p.approval_id);
    renderRequests();
    refresh();
  } catch (e) {
    if (e.code === 'not_pending' || e.code === 'not_found') {
      state.prompts.delete(p.approval_id);
      renderRequests();
      return;
    }
    for (const b of li.querySelectorAll('button')) b.disabled = false;
    alert('The node did not take the decision: ' + e.message);
  }
}

function row(list, parts, buttons) {
  const li = document.createElement('li');
  for (const [cls, text] of parts) {
    const s = document.createElement('span');
    s.className = cls;
    s.textContent = text;
    li.appendChild(s);
  }
  for (const [label, fn, cls] of buttons || []) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    if (cls) b.className = cls;
    b.addEventListener('click', fn);
    li.appendChild(b);
  }
  list.appendChild(li);
}

function renderState(asked) {
  const d = state.data;
  if (!d) return;
  for (const text of d.pending || []) addPrompt(text);
  // A prompt the node no longer lists was decided elsewhere or lapsed.
  const pendingIDs = new Set((d.pending || []).map((t) => JSON.parse(t).approval_id));
  for (const id of [...state.prompts.keys()]) if (!pendingIDs.has(id)) state.prompts.delete(id);
  if (state.wanted && !pendingIDs.has(state.wanted)) {
    // Decided elsewhere, or expired, before the notification was tapped.
    show('wanted-gone', true);
    state.wanted = null;
    history.replaceState(null, '', location.pathname);
  }
  renderRequests();
  closeStaleNotifications(pendingIDs, asked);

  const agents = $('agent-list');
  agents.replaceChildren();
  const byAgent = new Map();
  const oauth = new Set();
  for (const g of d.grants || []) {
    if (!byAgent.has(g.agent)) byAgent.set(g.agent, []);
    byAgent.get(g.agent).push(g.tier);
    // An OAuth client's grants are pinned to its consent, not a key.
    if ((g.key_fingerprint || '').startsWith('oauth:')) oauth.add(g.agent);
  }
  for (const [agent, tiers] of byAgent) {
    const label = oauth.has(agent) ? `OAuth client ${agent}` : agent;
    row(agents, [['grow', label], ['tag', tiers.map((t) => tierNames[t] || t).join(', ')]],
      [['Revoke', () => act('/phone/api/revoke', { agent, tier: '' }, `Revoke every grant of ${agent}?`)]]);
  }
  for (const agent of d.blocked || []) {
    row(agents, [['grow', agent], ['tag', 'blocked']], [['Unblock', () => act('/phone/api/unblock', { agent })]]);
  }
  show('no-agents', byAgent.size === 0 && (d.blocked || []).length === 0);

  const phones = $('phone-list');
  phones.replaceChildren();
  for (const ph of d.phones || []) {
    const me = ph.id === state.dev.id;
    row(phones, [['grow', ph.name + (me ? ' (this phone)' : '')], ['tag', ph.state]], [
      ['Rename', () => {
        const name = prompt('New name', ph.name);
        if (name) act('/phone/api/phones/rename', { id: ph.id, name });
      }],
      ['Remove', () => act('/phone/api/phones/remove', { id: ph.id },
        me ? 'Remove this phone? It will no longer receive requests.' : `Remove ${ph.name}?`), 'danger'],
    ]);
  }

  const activity = $('activity-list');
  activity.replaceChildren();
  for (const a of d.activity || []) {
    // A call the agent repeated while it waited for you is one entry.
    const asked = a.retries ? ` · asked ${a.retries + 1} times` : '';
    const who = (a.key_fingerprint || '').startsWith('oauth:') ? `OAuth client ${a.agent}` : a.agent;
    row(activity, [['', new Date(a.at).toLocaleString()], ['grow', `${who} · ${a.tool}${asked}`], ['tag', a.decision.replace(/_/g, ' ')]]);
  }
  for (const id of ['agents', 'phones', 'activity']) show(id, true);
}

async function act(path, body, question) {
  if (question && !confirm(question)) return;
  try {
    await api(state.dev, 'POST', path, body);
  } catch (e) {
    alert(e.message);
  }
  refresh();
}

function addPrompt(text) {
  const p = JSON.parse(text);
  if (!state.prompts.has(p.approval_id)) state.prompts.set(p.approval_id, { text, p });
}

async function refresh() {
  loadStatus();
  try {
    const asked = Date.now();
    state.data = await api(state.dev, 'GET', '/phone/api/state');
    renderState(asked);
  } catch (e) {
    handleAuthError(e);
  }
}

async function handleAuthError(e) {
  if (e instanceof APIError && (e.status === 401 || e.status === 403) && e.code !== 'clock_skew') {
    // Removed on the node or on another phone: this device is no
    // longer paired.
    const st = await api(state.dev, 'GET', '/phone/api/status').catch(() => null);
    if (!st) {
      await forgetDevice();
      setStatus('not paired', 'bad');
      location.hash = '';
      location.reload();
    }
    return;
  }
  setStatus(e.code === 'clock_skew' ? 'clock wrong' : 'offline', 'bad');
}

// stream reads the sealed event stream until it ends, then reconnects.
async function stream() {
  for (;;) {
    try {
      const { resp, nonce } = await signedFetch(state.dev, 'GET', '/phone/api/events');
      if (!resp.ok) {
        const json = await resp.json().catch(() => ({}));
        throw new APIError(resp.status, json.error, json.detail);
      }
      setStatus('connected', 'ok');
      refresh();
      const reader = resp.body.getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          for (const line of frame.split('\n')) {
            if (line.startsWith('data: ')) await onEvent(JSON.parse(await openSealed(state.dev, nonce, line.slice(6))));
          }
        }
      }
      setStatus('reconnecting', 'bad');
    } catch (e) {
      await handleAuthError(e);
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

async function onEvent(ev) {
  switch (ev.type) {
    case 'prompt':
      addPrompt(ev.prompt);
      renderRequests();
      break;
    case 'decided':
      state.prompts.delete(ev.approval_id);
      renderRequests();
      refresh();
      break;
    default:
      refresh();
  }
}

// ---- notifications (Web Push, docs/phone.md "Push") ----------------------

// platform says what this browser can do with push notifications, for
// the pairing page and the notifications panel. On iPhone and iPad (16.4
// and later) Web Push works only in an app added to the Home Screen, never
// in a Safari tab; iPadOS asks for desktop sites, so an iPad says
// "Macintosh" with a touch screen.
function platform() {
  const ua = navigator.userAgent;
  const ios = /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
  const standalone = matchMedia('(display-mode: standalone)').matches || navigator.standalone === true;
  const push = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (ios && !standalone) {
    return { kind: 'ios-browser', push: false, text: 'iPhone or iPad in Safari: notifications work only once this app is on the Home Screen (tap Share, then "Add to Home Screen"). The app there keeps its own keys: pair it from there, by pasting the pairing link.' };
  }
  if (!push) return { kind: 'none', push: false, text: 'Notifications are not available in this browser: requests show while this app is open.' };
  if (ios) return { kind: 'ios-app', push: true, text: 'Home Screen app: notifications are available once this phone is paired.' };
  if (/Android/.test(ua)) return { kind: 'android', push: true, text: 'Android: notifications are available once this phone is paired. Chrome can also install this app (menu, "Install app").' };
  return { kind: 'browser', push: true, text: 'Notifications are available in this browser once it is paired.' };
}

async function workerRegistration() {
  if (!('serviceWorker' in navigator)) return null;
  return (await navigator.serviceWorker.getRegistration()) || null;
}

async function pushSubscription() {
  const reg = await workerRegistration();
  if (!reg || !reg.pushManager) return null;
  return reg.pushManager.getSubscription().catch(() => null);
}

// loadStatus asks the node whether it pushes to this device and with
// which key: the answer is sealed, so a relay cannot put its own key in.
async function loadStatus() {
  try {
    state.status = await api(state.dev, 'GET', '/phone/api/status');
  } catch {
    return; // refresh() says why the node is not answering
  }
  await renderPush();
}

function setPushNote(text) {
  $('push-note').textContent = text;
  show('push-note', text !== '');
}

async function renderPush() {
  const p = platform();
  const st = state.status || {};
  const node = st.push || {};
  const sub = p.push ? await pushSubscription() : null;
  let kind, text;
  if (!p.push) {
    kind = 'unavailable';
    text = p.text;
  } else if (!st.vapid_public_key) {
    kind = 'unavailable';
    text = 'This node does not send notifications.';
  } else if (Notification.permission === 'denied') {
    kind = 'blocked';
    text = 'Notifications are blocked for this site: allow them in the browser\'s site settings, then turn them on here.';
  } else if (node.on && sub) {
    kind = 'on';
    text = 'Notifications are on: requests reach this phone while the app is closed.';
  } else {
    kind = 'off';
    text = node.on ? 'Notifications are off on this phone (the browser ended its subscription): turn them on again.'
      : 'Notifications are off: requests show only while this app is open.';
  }
  const el = $('push-state');
  el.textContent = text;
  el.dataset.state = kind;
  let last = '';
  if (node.last_at) {
    last = `Last notification ${new Date(node.last_at).toLocaleString()}` + (node.last_result ? `: ${node.last_result}` : '');
  }
  $('push-last').textContent = last;
  show('push-last', last !== '');
  // While push could be on and is not, the panel comes before the
  // requests, where a newly paired phone's owner sees it; else after.
  const panel = $('push');
  const before = kind === 'off' || kind === 'blocked' ? $('requests') : $('agents');
  if (panel.nextElementSibling !== before) panel.parentNode.insertBefore(panel, before);
  show('push-on', kind === 'off' || kind === 'blocked');
  show('push-off', kind === 'on' || (kind !== 'unavailable' && node.on === true));
  show('push', true);
}

function sameBytes(a, b) {
  if (!a || !b) return false;
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

// pushOn runs on the person's tap, never on load: the browser asks for
// permission then, when the person knows why it asks (and Safari asks
// only from a tap).
async function pushOn() {
  $('push-on').disabled = true;
  setPushNote('');
  try {
    const key = state.status && state.status.vapid_public_key;
    if (!key) throw new Error('This node does not send notifications.');
    const perm = await Notification.requestPermission();
    if (perm !== 'granted') {
      throw new Error(perm === 'denied' ? 'Notifications are blocked for this site: allow them in the browser\'s site settings.'
        : 'Notifications were not allowed.');
    }
    setPushNote('Turning on…');
    const reg = await navigator.serviceWorker.ready;
    const want = unb64url(key);
    let sub = await reg.pushManager.getSubscription();
    // A subscription made for another key of the node cannot carry its
    // pushes: the push service checks the key.
    if (sub && !sameBytes(sub.options.applicationServerKey, want)) {
      await sub.unsubscribe();
      sub = null;
    }
    if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: want });
    await api(state.dev, 'POST', '/phone/api/push/subscribe', sub.toJSON());
    setPushNote('');
  } catch (e) {
    setPushNote(e.code === 'bad_subscription' ? 'The node refused this browser\'s push service: ' + e.message
      : 'Notifications could not be turned on: ' + (e.message || e));
  }
  $('push-on').disabled = false;
  await loadStatus();
}

// pushOff ends the subscription on both sides: the node forgets it, and
// the browser's push service ends it.
async function pushOff() {
  $('push-off').disabled = true;
  setPushNote('');
  try {
    await api(state.dev, 'POST', '/phone/api/push/unsubscribe', {});
  } catch (e) {
    setPushNote('The node did not take it: ' + (e.message || e));
  }
  const sub = await pushSubscription();
  if (sub) await sub.unsubscribe().catch(() => {});
  $('push-off').disabled = false;
  await loadStatus();
}

// closeStaleNotifications closes what the worker showed for prompts that
// are no longer pending (decided here or elsewhere, or expired), and the
// generic ones: the app is open and lists what is waiting. Only those
// shown before the node was asked: a newer one may be for a prompt made
// since.
async function closeStaleNotifications(pending, asked) {
  const reg = await workerRegistration();
  if (!reg || !reg.getNotifications) return;
  for (const n of await reg.getNotifications().catch(() => [])) {
    const id = n.data && n.data.approval_id;
    if ((!id || !pending.has(id)) && n.timestamp <= asked) n.close();
  }
}

// ---- start ---------------------------------------------------------------

async function startPaired(dev) {
  state.dev = dev;
  show('pairing', false);
  show('requests', true);
  $('push-on').addEventListener('click', pushOn);
  $('push-off').addEventListener('click', pushOff);
  setInterval(tickExpiry, 1000);
  stream();
}

async function waitPaired(dev) {
  for (;;) {
    const st = await api(dev, 'GET', '/phone/api/status');
    if (st.state === 'paired') return;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function main() {
  if (!window.isSecureContext || !crypto.subtle) {
    show('pairing', true);
    $('pair-error').textContent = 'This page must be opened over HTTPS.';
    show('pair-error', true);
    return;
  }
  if ('serviceWorker' in navigator) registerWorker();
  const plat = platform();
  if (plat.kind === 'ios-browser' && !localStorage.getItem('mailnode-install-hint')) {
    // Once: the pairing page says it again every time.
    localStorage.setItem('mailnode-install-hint', '1');
    show('install-hint', true);
    $('install-hint-close').onclick = () => show('install-hint', false);
  }
  state.wanted = approvalInAddress();
  window.addEventListener('hashchange', () => showApproval(approvalInAddress()));
  const offer = pairingOffer();
  let dev = await loadDevice();
  if (dev && dev.paired && !offer) return startPaired(dev);
  show('pairing', true);
  $('pair-platform').textContent = plat.text;
  $('pair-platform').dataset.kind = plat.kind;
  if (!offer) {
    if (dev) {
      // Registered, not yet confirmed on the node.
      show('pair-code', true);
      $('sas').textContent = dev.sas || '';
      await waitPaired(dev);
      dev.paired = true;
      await saveDevice(dev);
      return startPaired(dev);
    }
    show('pair-none', true);
    setStatus('not paired');
    // A Home Screen app on iOS is not opened by a QR code (that opens
    // Safari, whose storage is not the app's): it takes the link pasted.
    $('pair-link-go').addEventListener('click', () => {
      const m = /#pair=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.exec($('pair-link').value.trim());
      if (!m) {
        $('pair-error').textContent = 'That is not a pairing link: it ends in #pair= and three codes.';
        show('pair-error', true);
        return;
      }
      history.replaceState(null, '', location.pathname + m[0]);
      location.reload();
    });
    return;
  }
  setStatus('pairing');
  show('pair-start', true);
  if (plat.kind === 'ios-browser' && navigator.clipboard) {
    show('pair-copy', true);
    $('pair-copy').addEventListener('click', () => navigator.clipboard.writeText(location.href)
      .then(() => { $('pair-copy').textContent = 'Copied'; }, () => {}));
  }
  $('pair-go').addEventListener('click', async () => {
    $('pair-go').disabled = true;
    try {
      const name = $('pair-name').value.trim() || 'Phone';
      const { dev: d, sas } = await pair(offer, name);
      d.sas = sas;
      await saveDevice(d);
      // The secret has done its job; keep it out of the history.
      history.replaceState(null, '', location.pathname);
      show('pair-start', false);
      show('pair-code', true);
      $('sas').textContent = sas;
      await waitPaired(d);
      d.paired = true;
      delete d.sas;
      await saveDevice(d);
      startPaired(d);
    } catch (e) {
      $('pair-error').textContent = e.code === 'offer_used' ? 'This QR code was already used. Show a new one.'
        : e.code === 'offer_unknown' ? 'This QR code expired. Show a new one.' : String(e.message || e);
      show('pair-error', true);
      $('pair-go').disabled = false;
    }
  });
}

// The app is kept by a service worker, so that a server answering for
// the node's name cannot swap it silently: a new version waits until the
// user accepts it.
function registerWorker() {
  navigator.serviceWorker.register('sw.js', { scope: './' }).then((reg) => {
    let accepted = false;
    const offer = (w) => {
      if (!w || !navigator.serviceWorker.controller) return;
      show('update', true);
      $('update-accept').onclick = () => { accepted = true; w.postMessage('activate'); };
    };
    offer(reg.waiting);
    reg.addEventListener('updatefound', () => {
      const w = reg.installing;
      w.addEventListener('statechange', () => { if (w.state === 'installed') offer(w); });
    });
    // Reload only into a version the user accepted; the first worker
    // taking control of this page changes nothing that runs.
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (accepted) location.reload();
    });
    // A tapped notification, while this window is open (sw.js).
    navigator.serviceWorker.addEventListener('message', (e) => {
      if (e.data && e.data.type === 'show_approval') showApproval(e.data.approval_id);
    });
    navigator.serviceWorker.startMessages();
  }).catch(() => {});
}

main().catch((e) => {
  show('pairing', true);
  $('pair-error').textContent = String(e.message || e);
  show('pair-error', true);
});
