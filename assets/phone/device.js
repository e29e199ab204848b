// This device's keys and what the node seals to them (docs/phone.md),
// shared by the page (app.js, loaded before it) and the service worker
// (sw.js, by importScripts): the worker opens a push notice with the same
// key derivation the app opens the node's answers with, so there is one
// copy of it. A classic script, not an ES module: a page's <script> and a
// worker's importScripts load it in every browser, where service workers
// that are modules are not supported everywhere; both importers share its
// top-level names.
'use strict';

const enc = new TextEncoder();
const dec = new TextDecoder();

// ---- encodings -----------------------------------------------------------

function b64url(bytes) {
  let s = '';
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function unb64url(s) {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function concat(...parts) {
  const arrays = parts.map((p) => (typeof p === 'string' ? enc.encode(p) : new Uint8Array(p)));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let i = 0;
  for (const a of arrays) { out.set(a, i); i += a.length; }
  return out;
}

async function sha256(data) {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data));
}

// ---- the device, in IndexedDB -------------------------------------------

function db() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open('mailnode-phone', 1);
    req.onupgradeneeded = () => req.result.createObjectStore('device');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function loadDevice() {
  const d = await db();
  return new Promise((resolve, reject) => {
    const req = d.transaction('device').objectStore('device').get('this');
    req.onsuccess = () => resolve(req.result || null);
    req.onerror = () => reject(req.error);
  });
}

async function saveDevice(dev) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction('device', 'readwrite');
    tx.objectStore('device').put(dev, 'this');
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
}

async function forgetDevice() {
  const d = await db();
  return new Promise((resolve) => {
    const tx = d.transaction('device', 'readwrite');
    tx.objectStore('device').delete('this');
    tx.oncomplete = () => resolve();
    tx.onerror = () => resolve();
  });
}

// ---- what the node seals to this device ---------------------------------

// Kinds of sealed messages from the node, each under its own key: the
// info string of the key derivation (approvals/pairing: "mailnode-seal-v1 "
// and the direction). A push has no request nonce to bind to, so it has a
// key of its own, and a notice cannot pass for an answer or the reverse.
const SEAL_ANSWER = 'node-to-phone';
const SEAL_PUSH = 'node-to-phone push';

// sealKey is the AES-GCM key for what the node seals to this device:
// HKDF-SHA-256 over the static ECDH secret, salt the device id.
async function sealKey(dev, kind) {
  const nodePub = await crypto.subtle.importKey('raw', dev.nodeBox, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const shared = await crypto.subtle.deriveBits({ name: 'ECDH', public: nodePub }, dev.boxKey, 256);
  const ikm = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: enc.encode(dev.id), info: enc.encode('mailnode-seal-v1 ' + kind) },
    ikm, { name: 'AES-GCM', length: 256 }, false, ['decrypt']);
}

// openSealedBytes opens base64url(nonce ‖ AES-GCM ciphertext) with the
// associated data aad; it throws when the message was not sealed by the
// node to this device, or was changed.
async function openSealedBytes(dev, kind, aad, sealed) {
  const box = unb64url(sealed);
  if (box.length < 12) throw new Error('sealed message too short');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: box.slice(0, 12), additionalData: enc.encode(aad) },
    await sealKey(dev, kind), box.slice(12));
  return dec.decode(plain);
}

// openSealed opens an answer of the node, bound to the request's nonce.
function openSealed(dev, nonce, sealed) {
  return openSealedBytes(dev, SEAL_ANSWER, nonce, sealed);
}

const PUSH_PREFIX = 'mailnode-push-v1';

// openPushNotice opens a push message's text, "mailnode-push-v1." and the
// sealed notice, to the notice. It throws for anything the node did not
// seal to this device, and for a notice that is not one of the three
// kinds: the worker then shows only its generic notification.
async function openPushNotice(dev, text) {
  if (typeof text !== 'string' || !text.startsWith(PUSH_PREFIX + '.')) throw new Error('not a mailnode push');
  const n = JSON.parse(await openSealedBytes(dev, SEAL_PUSH, PUSH_PREFIX, text.slice(PUSH_PREFIX.length + 1)));
  const str = (v) => typeof v === 'string' && v.length > 0;
  if (!n || !str(n.approval_id)) throw new Error('notice without an approval');
  if (n.type === 'prompt' && str(n.agent) && str(n.tool) && str(n.match_code)) return n;
  if ((n.type === 'decided' || n.type === 'expired') && str(n.state)) return n;
  throw new Error('unknown notice');
}
